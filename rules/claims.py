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

from dataclasses import dataclass
from enum import Enum

from rules.melds import Meld
from rules.moves import Chow, Claim, Hu, Kong, Pass, Pung, RobKong
from rules.seats import Seat
from rules.tiles import Tile


class WindowKind(Enum):
    DISCARD = "discard"
    ROBBING = "robbing"


@dataclass(slots=True, init=False)
class Window:
    """An open claim window (internal to the judge; `ClaimWindow` is its public view)."""

    kind: WindowKind
    tile: Tile
    discarder: Seat  # the discarder, or the player whose kong can be robbed
    eligible: tuple[Seat, ...]  # still in, counter-clockwise from the discarder
    last: bool  # the discard made after the last wall tile
    after_kong: bool  # the discarder declared a kong this turn
    dealer_first: bool  # the deal's first discard, made by East
    kong_meld: Meld | None  # ROBBING: the kong that can be robbed
    kong_index: int  # ROBBING: its index among the declarer's melds
    declared: dict[Seat, Claim]
    # per seat, whether its hand wins on `tile` (None: not asked yet); hands do not change
    # while the window is open, and the bots, the checks and the skipped-Hu lock all ask
    wins: list[bool | None]

    # written out: the generated one calls a factory function for each of `declared` and
    # `wins`, and a window opens on every discard
    def __init__(
        self,
        kind: WindowKind,
        tile: Tile,
        discarder: Seat,
        eligible: tuple[Seat, ...],
        last: bool = False,
        after_kong: bool = False,
        dealer_first: bool = False,
        kong_meld: Meld | None = None,
        kong_index: int = -1,
    ) -> None:
        self.kind = kind
        self.tile = tile
        self.discarder = discarder
        self.eligible = eligible
        self.last = last
        self.after_kong = after_kong
        self.dealer_first = dealer_first
        self.kong_meld = kong_meld
        self.kong_index = kong_index
        self.declared = {}
        self.wins = [None, None, None, None]

    @property
    def complete(self) -> bool:
        return len(self.declared) == len(self.eligible)


def discard_window(
    tile: Tile,
    discarder: Seat,
    eligible: tuple[Seat, ...],
    last: bool,
    after_kong: bool,
    dealer_first: bool,
) -> Window:
    """`Window(WindowKind.DISCARD, tile, discarder, eligible, last, after_kong,
    dealer_first)`, the window of every discard, made without calling the class (its
    `__init__` is Python code called from C, a second interpreter frame)."""
    w = _new_object(Window)
    w.kind = WindowKind.DISCARD
    w.tile = tile
    w.discarder = discarder
    w.eligible = eligible
    w.last = last
    w.after_kong = after_kong
    w.dealer_first = dealer_first
    w.kong_meld = None
    w.kong_index = -1
    w.declared = {}
    w.wins = [None, None, None, None]
    return w


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

_new_object = object.__new__
_AFTER: tuple[tuple[Seat, Seat, Seat], ...] = tuple((r[0], r[1], r[2]) for r in _ROUND)
_SILENT: dict[tuple[Seat, ...], Resolution] = {}


def seats_after(seat: Seat) -> tuple[Seat, Seat, Seat]:
    """The other three seats counter-clockwise (in turn order) from `seat`."""
    return _AFTER[seat]


def resolve(window: Window) -> Resolution:
    """004 Lesson 4: Hu supersedes Pung/Kong; all Hu declarations are satisfied. 001 IV 2.1:
    a Pung/Kong supersedes a Chow."""
    declared = window.declared
    if not declared:  # most windows: everybody let the tile go
        silent = _SILENT.get(window.eligible)
        if silent is None:
            silent = _SILENT[window.eligible] = Resolution((), None, None, window.eligible)
        return silent
    # one pass over the eligible seats (a window is resolved after most pungs and every Hu)
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
    return Resolution((), taker, declared[taker], passed)


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


def is_claim(move: object) -> bool:
    return isinstance(move, Hu | Pung | Kong | Chow | RobKong | Pass)
