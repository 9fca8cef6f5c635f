"""Claim windows: the declarations collected on a discard (or on a tile added to a kong) and
how they resolve (004 Lesson 4 "Discard claim"; RULES.md "Play").

How the controller drives a window (the judge owns legality, the controller owns the
3-second clock, `rs.play.claim_seconds`):

1. After a discard the deal is in `Phase.CLAIMS` and `Deal.admissible_claims()` says which
   claims each other player still in may make (a Hu that would be false is not listed, but a
   Hu declaration is still accepted and settled as a false Hu).
2. Declarations are fed as they arrive: `Hu`, `Pung`, `Kong(seat, MeldKind.KONG)`,
   `Chow(seat, lowest_tile)` (rule sets with `play.chow_claims`, only the next player after
   the discarder) or `Pass` — one per player per window. Each is accepted or rejected at once.
3. The window resolves either when every eligible player has declared (a bot deal never
   needs the clock), or when the controller sends `CloseClaims()` at the end of its clock;
   players who said nothing have passed.

Resolution: Hu beats Pung/Kong, which beat Chow (001 IV 2.1, 3.1); every Hu declarer takes a "copy" of the tile; play then
passes to the first player still in after the *last* Hu declarer counted counter-clockwise
from the discarder. A promoted or postponed kong opens a `Phase.ROBBING` window in the same
way (`RobKong`, or `Hu`, or `Pass`); a robbed kong stays a pung.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TypeGuard

from rules.melds import Meld
from rules.moves import Chow, Claim, Hu, Kong, Pass, Pung, RobKong
from rules.seats import Seat
from rules.tiles import Tile


class WindowKind(Enum):
    DISCARD = "discard"
    ROBBING = "robbing"


@dataclass(slots=True)
class Window:
    """An open claim window (the judge's state; `ClaimWindow` is its public view)."""

    kind: WindowKind
    tile: Tile
    discarder: Seat  # the discarder, or the player whose kong can be robbed
    eligible: tuple[Seat, ...]  # still in, counter-clockwise from the discarder
    last: bool = False  # the discard made after the last wall tile
    after_kong: bool = False  # the discarder declared a kong this turn
    dealer_first: bool = False  # the deal's first discard, made by East
    kong_meld: Meld | None = None  # ROBBING: the kong that can be robbed
    kong_index: int = -1  # ROBBING: its index among the declarer's melds
    declared: dict[Seat, Claim] = field(default_factory=dict)
    # per seat, whether its hand wins on `tile` (None: not asked yet); hands do not change
    # while the window is open, and the bots, the checks and the skipped-Hu lock all ask
    wins: list[bool | None] = field(default_factory=lambda: [None, None, None, None])

    @property
    def complete(self) -> bool:
        return len(self.declared) == len(self.eligible)


@dataclass(frozen=True, slots=True)
class ClaimWindow:
    """What the scoreboard and the controller may know about an open window."""

    kind: WindowKind
    tile: Tile
    discarder: Seat
    eligible: tuple[Seat, ...]
    declared: tuple[tuple[Seat, Claim], ...]
    last: bool


@dataclass(frozen=True, slots=True)
class Resolution:
    """How a window resolved."""

    hu: tuple[Seat, ...]  # Hu declarers (robbers), counter-clockwise from the discarder
    taker: Seat | None  # the player who takes the tile for a pung / melded kong / chow
    meld: Pung | Kong | Chow | None
    passed: tuple[Seat, ...]  # eligible players who did not declare Hu


# the four seats in turn order after each seat (itself last)
_ROUND: tuple[tuple[Seat, ...], ...] = tuple(
    tuple(seat.after(step) for step in range(1, 5)) for seat in Seat
)
_AFTER: tuple[tuple[Seat, Seat, Seat], ...] = tuple((r[0], r[1], r[2]) for r in _ROUND)


def seats_after(seat: Seat) -> tuple[Seat, Seat, Seat]:
    """The other three seats counter-clockwise (in turn order) from `seat`."""
    return _AFTER[seat]


def resolve(window: Window) -> Resolution | None:
    """004 Lesson 4: Hu supersedes Pung/Kong; all Hu declarations are satisfied. 001 IV 2.1:
    a Pung/Kong supersedes a Chow. None when nobody declared anything: every eligible player
    let the tile go (the usual window)."""
    declared = window.declared
    if not declared:
        return None
    hu: tuple[Seat, ...] = ()
    passed: tuple[Seat, ...] = ()
    taker = chow = None
    for s in window.eligible:
        claim = declared.get(s)
        if isinstance(claim, (Hu, RobKong)):
            hu += (s,)
            continue
        passed += (s,)
        if taker is None and isinstance(claim, (Pung, Kong)):
            taker = s
        elif chow is None and isinstance(claim, Chow):
            chow = s
    if hu or window.kind is WindowKind.ROBBING:
        return Resolution(hu, None, None, passed)
    if taker is None:
        taker = chow
    if taker is None:
        return Resolution((), None, None, passed)
    meld = declared[taker]
    assert isinstance(meld, Pung | Kong | Chow)  # what the loop above took
    return Resolution((), taker, meld, passed)


def next_player(discarder: Seat, declarers: tuple[Seat, ...], out: list[bool]) -> Seat | None:
    """The first player still in after the last of `declarers` counted from `discarder`
    (after `discarder` itself when there are none); None if nobody is in."""
    start = discarder
    if declarers:
        start = max(declarers, key=lambda s: (s - discarder) % 4)
    for s in _ROUND[start]:
        if not out[s]:
            return s
    return None


def is_claim(move: object) -> TypeGuard[Claim]:
    return isinstance(move, Hu | Pung | Kong | Chow | RobKong | Pass)
