"""Pieces of a deal's state shared by the judge's modules: phases, how a turn began, the
record of a declared kong with the payments it brought (for the refunds of 004 Table 7),
and `DealState`, everything observable about a deal (`rules.deal.Deal.snapshot`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.claims import ClaimWindow
from rules.melds import Meld, MeldKind
from rules.moves import DealEnd, Won
from rules.seats import Seat
from rules.settlement import LedgerLine
from rules.tiles import Suit, Tile

OWN_TURN_KONGS = (MeldKind.CONCEALED_KONG, MeldKind.PROMOTED_KONG, MeldKind.POSTPONED_KONG)


class Phase(Enum):
    CHOOSING_VOID = "choosing-void"
    DRAW = "draw"  # `turn` must draw from the wall
    REPLACEMENT = "replacement"  # `turn` must take a kong replacement tile
    DISCARD = "discard"  # `turn` holds 14: discard, Hu or kong
    CLAIMS = "claims"  # a discard is open to Hu / Pung / Kong (/ Chow)
    ROBBING = "robbing"  # a promoted/postponed kong's tile is open to Hu
    OVER = "over"


class Entry(Enum):
    """How the current turn began."""

    DEALT = "dealt"  # East's first turn
    DRAW = "draw"
    REPLACEMENT = "replacement"
    PUNG = "pung"
    CHOW = "chow"  # Wellness: a turn entered by a chow ends with a discard, as after a pung


class KongRecord:
    """A declared kong and the payments it brought (refunds mark it)."""

    __slots__ = ("from_seat", "lines", "meld", "refunded", "seat")

    def __init__(
        self, seat: Seat, meld: Meld, lines: list[LedgerLine], from_seat: Seat | None = None
    ) -> None:
        self.seat = seat
        self.meld = meld
        self.lines = lines
        self.from_seat = from_seat  # the discarder of a melded kong's tile
        self.refunded = False


@dataclass(frozen=True, slots=True)
class DealState:
    """Everything observable about a deal, for comparisons and displays."""

    phase: Phase
    turn: Seat
    hands: tuple[tuple[Tile, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    rivers: tuple[tuple[Tile, ...], ...]
    voids: tuple[Suit | None, ...]
    out: tuple[bool, ...]
    tiles_left: int
    window: ClaimWindow | None
    winners: tuple[Won, ...]
    ledger: tuple[LedgerLine, ...]
    locks: tuple[int, ...]
    end: DealEnd | None
