"""Moves a deal judge accepts or rejects, the reasons for a rejection, and what an accepted
move reports.

Every move is a frozen dataclass; each may carry `t` (a time in seconds, any monotonic
origin: the judge only records it). A move is *offered* to `rules.deal.Deal.apply`, which
answers `Accepted` (with the facts it caused) or `Rejected(reason, detail)` — a value, never
an exception — and a rejected move changes nothing.

Player moves: `ChooseVoid`, `Draw`, `ReplacementDraw`, `Discard`, `Pung`, `Kong`, `Chow`
(rule sets with `play.chow_claims`, Wellness), `Hu`, `SelfDrawnHu`, `RobKong`, `Pass`. Window move (the controller's claim clock ran out):
`CloseClaims`. Referee moves: `Penalty`, `Correction`, `EndDeal`.

A Hu whose hand does not win (no valid shape, void-suit tiles, all three suits, wrong tile
count) is **accepted** as a false Hu and settled (004 Lesson 5 "False Hu": "all the declared
Hu are considered valid until the scoring is complete", then the offender pays), so there is
no "not a win" rejection; `Won.false_hu` says which it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from rules.melds import Meld, MeldKind
from rules.score import Score
from rules.seats import Seat
from rules.tiles import Suit, Tile
from rules.wall import Take


class Reason(Enum):
    """Why a move was rejected (RULES.md "Play"; 004 Lessons 2-4)."""

    WRONG_PHASE = "wrong-phase"  # e.g. a discard while a claim window is open
    NOT_YOUR_TURN = "not-your-turn"
    PLAYER_OUT = "player-out"  # the player has already declared Hu (blood battle)
    DEAL_OVER = "deal-over"
    TILE_NOT_IN_HAND = "tile-not-in-hand"
    WALL_MISMATCH = "wall-mismatch"  # a draw that names a tile the wall does not hold there
    # a wall not scanned (rules.wall "Unknown positions")
    TILE_UNKNOWN = "tile-unknown"  # a draw from an unknown position must name its tile
    TILE_IMPOSSIBLE = "tile-impossible"  # a fifth copy, or a tile not of the set
    # void suit (定缺)
    VOID_ALREADY_CHOSEN = "void-already-chosen"  # 004 Lesson 2: the choice never changes
    VOID_TILE_REQUIRED = "void-tile-required"  # the indicator card only without such tiles
    VOID_TILE_WRONG_SUIT = "void-tile-wrong-suit"
    VOID_TILE_FIRST = "void-tile-first"  # the face-down tile is the mandatory first discard
    VOID_DISCARD_ORDER = "void-discard-order"  # strict: void tiles before any other tile
    # no Hu (or chow) on a tile of one's void suit; no Pung or Kong either where the rule set
    # refuses a set of it (`play.void-suit-set`)
    VOID_SUIT_CLAIM = "void-suit-claim"
    # claims
    CLAIM_NOT_ADMISSIBLE = "claim-not-admissible"  # no window, own discard, tiles lacking
    ALREADY_DECLARED = "already-declared"  # one declaration per player per window
    SKIPPED_HU_LOCK = "skipped-hu-lock"  # let a winning discard go, no Hu until a draw
    SKIPPED_PUNG_LOCK = "skipped-pung-lock"  # WMT: no pung on a tile passed over
    AFTER_LAST_TILE = "after-last-tile"  # only Hu or Pung on the last discard
    # kongs
    NOT_A_KONG = "not-a-kong"  # four tiles lacking, no pung to add to, tile not fresh
    NO_REPLACEMENT_TILE = "no-replacement-tile"
    KONG_AFTER_PUNG = "kong-after-pung"  # no kong on a turn entered by a pung
    KONG_AFTER_CHOW = "kong-after-chow"  # nor by a chow (Wellness, as for a pung)
    # chows (rule sets with `play.chow_claims`, 001 IV 2.1)
    NO_CHOW_CLAIMS = "no-chow-claims"  # the rule set has no chow claims (Sichuan)
    CHOW_NOT_FROM_LEFT = "chow-not-from-left"  # 001 IV 4.2: only from the "upper seat"
    NOT_A_CHOW = "not-a-chow"  # not one suit sequence holding the discard, or tiles lacking
    # referee
    NOTHING_TO_UNDO = "nothing-to-undo"
    BAD_PENALTY = "bad-penalty"


# -- moves ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChooseVoid:
    """Lay `tile` (of `suit`) face down, or the indicator card (`tile=None`) when the hand
    holds no tile of that suit (004 Lesson 2)."""

    seat: Seat
    suit: Suit
    tile: Tile | None = None
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Draw:
    """A live draw. `tile`, if given, is checked against the wall (the reader saw it); on
    a position whose tile is not known (a wall not scanned) it is required."""

    seat: Seat
    tile: Tile | None = None
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class ReplacementDraw:
    """The replacement tile after a kong; `tile` as for `Draw`."""

    seat: Seat
    tile: Tile | None = None
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Discard:
    seat: Seat
    tile: Tile
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Pung:
    """Claim the open discard for a pung."""

    seat: Seat
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Kong:
    """`MeldKind.KONG` claims the open discard (melded kong; `tile` may be omitted);
    `CONCEALED_KONG`, `PROMOTED_KONG` and `POSTPONED_KONG` are declared on one's own turn."""

    seat: Seat
    kind: MeldKind
    tile: Tile | None = None
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Chow:
    """Claim the open discard for a chow (001 IV 2.1; rule sets with `play.chow_claims`):
    `tile` is the lowest tile of the chow, the discard one of its three tiles, the other two
    from the claimer's hand. Only the next player after the discarder may chow (001 IV 4.2,
    the "upper seat"); Hu and Pung/Kong on the same discard beat it (001 IV 2.1, 3.1)."""

    seat: Seat
    tile: Tile
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Hu:
    """Hu on the open discard."""

    seat: Seat
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class SelfDrawnHu:
    """Hu on one's own turn (on a drawn or replacement tile, or East's dealt hand)."""

    seat: Seat
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class RobKong:
    """Hu on the tile just added to a promoted or postponed kong."""

    seat: Seat
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline the open discard (or the robbing window)."""

    seat: Seat
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class CloseClaims:
    """The claim (or robbing) window is over: resolve the declarations made so far."""

    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Penalty:
    """Referee: `seat` pays `points` to `to` (None: to nobody), for `reason`."""

    seat: Seat
    points: int
    reason: str
    to: Seat | None = None
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Correction:
    """Referee: take back the last `undo` player moves (referee moves stay), e.g. a discard
    retrieved at once (000 3.6.A). The deal is re-judged without them."""

    undo: int = 1
    note: str = ""
    t: float | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class EndDeal:
    """Referee/controller: the session time ran out (004 Lesson 4). Payments made so far
    stand; nothing else is settled (no wall-end check, no refunds)."""

    note: str = "session time is over"
    t: float | None = field(default=None, kw_only=True)


PlayerMove = (
    ChooseVoid
    | Draw
    | ReplacementDraw
    | Discard
    | Pung
    | Kong
    | Chow
    | Hu
    | SelfDrawnHu
    | RobKong
    | Pass
)
Move = PlayerMove | CloseClaims | Penalty | Correction | EndDeal
Claim = Hu | Pung | Kong | Chow | RobKong | Pass


# -- what a move did --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Drawn:
    """A tile left the wall: the wall's tile there, or the tile the draw named where the
    wall was not known."""

    take: Take
    replacement: bool
    last: bool  # the sea-bottom tile: the wall is now exhausted


@dataclass(frozen=True, slots=True)
class Melded:
    seat: Seat
    meld: Meld
    from_seat: Seat | None  # the discarder, for a chow, pung or melded kong


@dataclass(frozen=True, slots=True)
class VoidSetDeclared:
    """A set of the player's void suit was declared and accepted (004 Lesson 5, rule-set
    parameter `play.void-suit-set`): the player was charged `penalty` points, to nobody (0:
    charged once this deal already, or no void penalty in the rule set). For the referee."""

    seat: Seat
    meld: Meld
    penalty: int


@dataclass(frozen=True, slots=True)
class Won:
    """A Hu declaration, valid or false."""

    seat: Seat
    tile: Tile | None  # the winning tile (None for a heavenly hand or a false Hu)
    from_seat: Seat | None  # the discarder / robbed player; None when self-drawn
    false_hu: bool
    value: int  # hand value A (0 for a false Hu)
    order: int  # 1 for the deal's first Hu event (several Hu on one discard share it)
    # the scored hand (patterns, fan, value, WMT multiplier and payer); None for a false Hu
    score: Score | None = None


@dataclass(frozen=True, slots=True)
class Robbed:
    """A promoted/postponed kong was robbed: it stays a pung."""

    seat: Seat
    tile: Tile


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """Whose turn it is now (after a claim window or a Hu)."""

    seat: Seat


# the fact of each seat's turn (facts are immutable values: one per seat serves every deal)
TURN_PASSED: tuple[TurnPassed, ...] = tuple(TurnPassed(s) for s in Seat)


class DealEnd(Enum):
    HU = "hu"  # the `winners_to_end`-th Hu (three in Sichuan)
    WALL = "wall"  # the wall is exhausted and the active player finished
    TIME = "time"  # the session time ran out (EndDeal)


@dataclass(frozen=True, slots=True)
class DealOver:
    end: DealEnd


Fact = Drawn | Melded | VoidSetDeclared | Won | Robbed | TurnPassed | DealOver


@dataclass(frozen=True, slots=True)
class Accepted:
    move: Move
    facts: tuple[Fact, ...] = ()

    def __bool__(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Rejected:
    reason: Reason
    detail: str
    move: Move | None = None

    def __bool__(self) -> bool:
        return False

    def __str__(self) -> str:
        return f"{self.reason.value}: {self.detail}"


Result = Accepted | Rejected
