"""View models of a table, one per audience, as the daemon publishes them.

`PublicView` is what anyone may see (hall TV, phone, MQTT): it never holds concealed tiles,
void choices before they are revealed, or the wall order. `RefereeView` adds everything.
`BroadcastView` adds hands, waits and values, and is only released after a delay.
Every view is a frozen value with `to_json()` giving plain JSON types; tiles and melds in
the notation of RULES.md (`5p`, `pung 5s`), seats as `E S W N`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

VIEW_VERSION = 1


@dataclass(frozen=True, slots=True)
class PatternView:
    """One scored pattern of a Hu: "qing-yi-se", 2 fan."""

    name: str
    fan: int


@dataclass(frozen=True, slots=True)
class LedgerWords:
    """Payments of one kind in a sentence for people: "East wins on 8m: 1 point from South";
    the rule behind it shown on a tap."""

    text: str
    rule: str
    penalty: bool = False  # paid to nobody, or a referee's penalty


@dataclass(frozen=True, slots=True)
class LedgerLineView:
    """One payment of the deal: who pays whom, how much, why and the rule behind it."""

    payer: str  # E S W N
    payee: str | None  # None: paid to nobody (a penalty)
    points: int
    # "kong 5s", "false Hu", the referee's reason; a Hu's patterns once the deal is over
    why: str
    rule: str  # the rule in words and its source: "004 Table 7: melded kong, 2 from ..."
    # `why` as a sentence a page says in its language (controller/words.py why_said)
    why_words: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ActionView:
    """The last thing done at the table that everyone saw, in words ("S pungs 4p from E")."""

    seat: str | None  # E S W N; None for the referee's moves that name no seat
    move: str  # draw, replacement, discard, void, pung, kong, chow, hu, self-drawn-hu, ...
    tile: str | None  # None where the tile is concealed (a draw, the void tile laid)
    from_seat: str | None  # the discarder of a claimed tile, the robbed player
    text: str


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: str  # E S W N
    player: str
    score: int  # session total, after the last settlement
    deal_delta: int  # this deal so far
    discards: tuple[str, ...]  # the river, in order
    melds: tuple[str, ...]  # declared sets, e.g. "pung 5s", "concealed-kong 2m"
    standing: int  # number of standing (concealed) tiles: public, their faces are not
    void: str | None = None  # only once revealed (the face-down tile turned up)
    hu_order: int | None = None  # 1, 2, 3 once this seat has won
    hu_tile: str | None = None  # the winning tile, public once declared
    # highest-pattern rule sets (Wellness, 001): the scored pattern, the hand value and its
    # bonuses ("dragon-pung 100"), public once the Hu is declared
    hu_pattern: str | None = None
    hu_value: int | None = None
    hu_bonuses: tuple[str, ...] = ()
    # once the deal is over (the result screen): the standing tiles, face up; each Hu's
    # patterns, total fan and value (`hu_value` above, every rule set); the deal's change
    # once settled (then in `score` already: `score + deal_delta` is the running score)
    hand: tuple[str, ...] | None = None
    hu_fan: int | None = None
    hu_patterns: tuple[PatternView, ...] = ()
    deal_change: int | None = None


@dataclass(frozen=True, slots=True)
class PublicView:
    table: str
    session: int
    deal: int
    rules: str
    dealer: str
    phase: str  # the table machine's phase, e.g. "playing.claim_window"
    turn: str | None
    tiles_left: int
    claim_remaining_s: float | None  # the open claim window's countdown, None when closed
    last_discard: str | None
    seats: tuple[SeatView, ...]
    seq: int  # the journal sequence number this view reflects
    prevalent: str | None = None  # the round wind, E S W N, for rule sets that score winds
    referee_called: bool = False  # the deal waits for the referee ("referee called")
    # `deal` numbers the journal's deals across sessions; people count them in the session:
    session_deal: int = 0  # this deal's number in its session (0: none yet)
    session_deals: int = 0  # the deals a session has (--deals, the rule set's; 0: no limit)
    discarder: str | None = None  # whose discard (or kong, robbing) the open window is on
    last_action: ActionView | None = None
    # the deal's payments: during the deal those everyone saw (kongs, penalties, false Hu;
    # a Hu's line says "Hu" only), once it is over every line
    ledger: tuple[LedgerLineView, ...] = ()
    # how the deal ended, once it is over: three-won, wall-exhausted, time-up, referee; the
    # view of a finished deal stays on the public feed until the next deal's play begins
    # (then `phase` is the table's, e.g. "shuffling", while `deal` still names the finished one)
    end: str | None = None
    # the devices the table waits for, in words ("the tile reader"): a link not up, a port
    # that does not exist yet
    waiting_for: tuple[str, ...] = ()
    # in words, from controller/words.py (the terminal and the hall page say the same): the
    # table's name as a title ("Table 3"), the phase ("claims on East's discard"), the ledger
    table_title: str = ""
    phase_text: str = ""
    ledger_words: tuple[LedgerWords, ...] = ()
    kind: str = field(default="public", init=False)
    version: int = field(default=VIEW_VERSION, init=False)

    def to_json(self) -> dict[str, Any]:
        return plain(self)


@dataclass(frozen=True, slots=True)
class HandView:
    seat: str
    standing: tuple[str, ...]
    void: str | None
    waits: tuple[str, ...] = ()
    max_value: int = 0  # the theoretical maximum (what a not-ready player pays at wall end)


@dataclass(frozen=True, slots=True)
class BroadcastView:
    """Released `delay_s` after the moment it shows (streaming delay)."""

    public: PublicView
    hands: tuple[HandView, ...]  # () while a finished deal is held on screen
    shown_at: float  # the monotonic time of the moment shown
    kind: str = field(default="broadcast", init=False)
    version: int = field(default=VIEW_VERSION, init=False)

    def to_json(self) -> dict[str, Any]:
        return plain(self)


@dataclass(frozen=True, slots=True)
class AlertView:
    seq: int
    t_wall: str
    level: str  # "info" | "warning" | "error"
    text: str
    # the same as a sentence a page says in its language (controller/locale Said JSON)
    words: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class CorrectionView:
    """A referee correction of the deal in progress, as the referee page lists it."""

    seq: int
    text: str  # "#812 move cancelled by ref-1: it did not happen"
    active: bool  # False once undone (withdrawn)
    # the same as a sentence the page says in its language (controller/locale Said JSON)
    words: dict[str, Any] | None = None
    # a settled deal's: what its Undo does now (the tiles are gone), and as a sentence
    undo_means: str = ""
    undo_words: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class RefereeView:
    public: PublicView
    hands: tuple[HandView, ...]
    wall_remaining: tuple[str, ...]  # in draw order, when the wall was scanned
    alerts: tuple[AlertView, ...]
    journal_tail: tuple[str, ...]  # readable lines of the last records
    # the standing referee call (None: not called), one value the page's headline, buttons
    # and status come from: {"id", "kind", "headline", "status", "answered", "candidates":
    # [{"text", "headline", "move" | None, "action"?}], "details": [...], "cause"}
    # (controller/daemon/referee_call.py)
    call: dict[str, Any] | None = None
    corrections: tuple[CorrectionView, ...] = ()  # of the deal in progress, undoable
    # the chain head when each deal settled, {"deal", "session_deal", "seq", "hash"}, the last
    # ones (`deal` the journal's number, `session_deal` the session's): an anchor
    # for `mjtable journal verify --anchor SEQ:HASH` (issue 15 item 5)
    heads: tuple[dict[str, Any], ...] = ()
    # the session's last settled deal and its corrections, still undoable (issue 27 item 3)
    settled_deal: int = 0
    settled_corrections: tuple[CorrectionView, ...] = ()
    settled_number: int = 0  # `settled_deal` as its session counts it (the board's "Deal 3")
    # the rule set lets a player chow (Wellness): the page offers "chows" only then
    chows: bool = False
    kind: str = field(default="referee", init=False)
    version: int = field(default=VIEW_VERSION, init=False)

    def to_json(self) -> dict[str, Any]:
        return self.json_with(plain(self.public))

    def json_with(self, public: dict[str, Any]) -> dict[str, Any]:
        """`to_json()`, `public` being `self.public.to_json()` made already (the public
        feed's, when this view is built on the same public view)."""
        out = {"public": public}
        for f in fields(self)[1:]:
            out[f.name] = plain(getattr(self, f.name))
        return out


def plain(value: Any) -> Any:
    """A view in JSON's types, as `dataclasses.asdict` gives it (a dataclass as a dict of its
    fields, tuples kept) without asdict's deep copy of every string and number: a view's
    leaves are immutable, and its containers are made afresh, so the reader may change them."""
    names = _field_names(type(value))
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, tuple | list):
        return type(value)(plain(v) for v in value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


_FIELDS: dict[type, tuple[str, ...] | None] = {}  # the view classes' fields, looked up once


def _field_names(cls: type) -> tuple[str, ...] | None:
    """The fields of a dataclass `cls` in their order (None: not a dataclass)."""
    if cls not in _FIELDS:
        made = hasattr(cls, "__dataclass_fields__")
        _FIELDS[cls] = tuple(f.name for f in fields(cls)) if made else None
    return _FIELDS[cls]
