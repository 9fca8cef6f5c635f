"""What the recogniser says (the daemon contract, docs/RECOGNITION.md): moves offered to
the judge, referee alerts, the scanned wall, the dealt hands and the dealer they show."""

from __future__ import annotations

from dataclasses import dataclass

from controller.alerts import AlertKind
from controller.devices.events import Button
from controller.locale import Said
from controller.profiles import TileCopy
from rules.moves import Chow, Move, Reason
from rules.seats import Seat
from rules.tiles import TILES, Suit, Tile


@dataclass(frozen=True, slots=True)
class MoveSeen:
    """A move read off the table, to be offered to the judge."""

    move: Move
    evidence: tuple[Said, ...]  # what the reader saw (controller/recognition/alert_said.py)
    # (added) when the button that declared it was read, for a claim offered later (held
    # for its discard): the runtime times the claim from this, not from when it is judged
    read_at: float | None = None

    def __post_init__(self) -> None:
        _sentences(self.evidence)


@dataclass(frozen=True, slots=True)
class RefereeAlert:
    """A reading that fits no legal move, or fits two: never guessed. `said`: the alert as
    a sentence, made where it is raised (controller/recognition/alert_said.py has its
    parts), said in the reader's language; its English is `text`. `seat`: the table side of
    the player it concerns, as its sentence names it."""

    kind: AlertKind
    seat: Seat | None  # table side
    said: Said
    evidence: tuple[Said, ...] = ()
    fits: tuple[Move, ...] = ()  # AMBIGUOUS: the single moves the reading fits, each possible

    def __post_init__(self) -> None:
        if not isinstance(self.said, Said):
            raise TypeError(f"a referee alert is a sentence (Said), not {self.said!r}")
        _sentences(self.evidence)

    @property
    def text(self) -> str:
        """The alert in English, as the journal keeps it (the alert record's `message`)."""
        return str(self.said)


@dataclass(frozen=True, slots=True)
class WallScanned:
    order: tuple[TileCopy, ...]  # physical wall order (rules/wall.py order)
    # (added) indices i where order[i] and order[i + 1] were read in the same rounds
    uncertain: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class HandsDealt:
    """Every watched hand holds its dealt tiles."""


@dataclass(frozen=True, slots=True)
class DealerMoved:
    """(added) The dealt hands put the dealer at `side` (a physical side), not where the
    runtime said (`new_deal`): the runtime journals it and maps seats from that side."""

    side: Seat


@dataclass(frozen=True, slots=True)
class WallSwapped:
    """(added) The dealt hands show scan positions `index` and `index + 1` the other way
    round (controller.recognition.wall_doubt.dealt_swap): the runtime re-judges the deal on
    the swapped wall and journals it with the next accepted move (`wall_check`)."""

    index: int
    why: str


@dataclass(frozen=True, slots=True)
class PendingChow:
    """A CHOW button that fits several chows: the tiles laid in the melds will say which."""

    t: float
    tile: Tile  # the open discard
    options: tuple[Chow, ...]
    note: Said


def _sentences(evidence: tuple[Said, ...]) -> None:
    for e in evidence:
        if not isinstance(e, Said):
            raise TypeError(f"evidence is a sentence (Said), not {e!r}")


def chow_starts(tile: Tile) -> tuple[Tile, ...]:
    """The lowest tiles of the chows holding `tile`, lowest first (none for honours)."""
    if tile.is_honour:
        return ()
    return tuple(TILES[tile - d] for d in (2, 1, 0) if 1 <= tile.rank - d <= 7)


Recognised = MoveSeen | RefereeAlert | WallScanned | HandsDealt | DealerMoved | WallSwapped

ALERT_FOR = {
    Reason.WALL_MISMATCH: AlertKind.WALL_MISMATCH,
    Reason.VOID_DISCARD_ORDER: AlertKind.VOID_DISCARD_ORDER,
}

DEALT = 53  # tiles in the hands once dealt: 14 + 3 * 13 (rules.wall)
VOID_SUIT = {Button.VOID_M: Suit.M, Button.VOID_P: Suit.P, Button.VOID_S: Suit.S}
