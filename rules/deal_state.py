"""The state of one deal as the judge keeps it (`State`), and what is observable of it
(`DealState`, `rules.deal.Deal.snapshot`): phases, how a turn began, the record of a
declared kong with the payments it brought (for the refunds of 004 Table 7).

`State` is plain typed data: every move's legality and effect are functions of it in the
judge's modules, one per concern (rules.deal_draws, rules.deal_claims, rules.deal_kongs,
rules.deal_hu, rules.deal_void, rules.deal_end; rules.deal_moves names which function
judges which move). A check only reads it; an effect, called after its check passed,
changes it in place and reports the move's facts to the `Facts` it is given. The queries
below read it and nothing else."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from rules.claims import ClaimWindow, Window, seats_after
from rules.live_hand import SUIT_INDEX, UNIT
from rules.melds import Meld, MeldKind
from rules.moves import DealEnd, Fact, Move, Reason, Won
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat
from rules.settlement import LedgerLine
from rules.tiles import TILES, Suit, Tile
from rules.wall import Wall

# the live suit key (rules.live_hand) of each number suit: a void suit's tiles are held
# exactly when its key is not 0
SUIT_KEY: dict[Suit, int] = {Suit.M: 0, Suit.P: 1, Suit.S: 2}
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


@dataclass(slots=True)
class KongRecord:
    """A declared kong and the payments it brought (`refunded` once they are returned)."""

    seat: Seat
    meld: Meld
    lines: list[LedgerLine]
    from_seat: Seat | None = None  # the discarder of a melded kong's tile
    refunded: bool = False


def _per_seat() -> list[bool]:
    return [False, False, False, False]


@dataclass(slots=True, eq=False)
class State:
    """One deal's state. Lists indexed by seat hold one entry per seat (East first).

    Each seat's standing tiles are kept twice, as counts (`hands`, one byte per tile kind)
    and as live suit keys (`keys`, rules.live_hand): every change of a count changes its
    key too (`add_tiles`), so "does this hand win?" is a few table look-ups."""

    rs: RuleSet
    wall: Wall
    prevalent: Seat  # the prevalent wind (001 II 3); East unless the session says
    phase: Phase
    turn: Seat
    entry: Entry  # how the turn of `turn` began
    drawn: Tile | None  # the tile taken from the wall this turn (East: the 14th dealt)
    hands: list[bytearray]
    keys: list[list[int]]
    melds: list[list[Meld]] = field(default_factory=lambda: [[], [], [], []])
    river: list[list[Tile]] = field(default_factory=lambda: [[], [], [], []])  # not claimed
    discards: list[list[Tile]] = field(default_factory=lambda: [[], [], [], []])  # every one
    void: list[Suit | None] = field(default_factory=lambda: [None, None, None, None])
    void_chosen: list[bool] = field(default_factory=_per_seat)
    laid: list[Tile | None] = field(default_factory=lambda: [None, None, None, None])
    void_penalized: list[bool] = field(default_factory=_per_seat)
    out: list[bool] = field(default_factory=_per_seat)  # declared Hu: out of the deal
    draws: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # live draws made
    melded_any: bool = False  # any set declared yet (earthly hands, 000)
    window: Window | None = None  # the open claim or robbing window
    # the skipped-Hu lock: the value (or, highest-pattern scoring, one bit per fan) of a
    # winning tile let go since the seat's last draw; 0 when none (004 Lesson 4)
    hu_lock: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    pung_lock: list[set[Tile]] = field(default_factory=lambda: [set(), set(), set(), set()])
    kongs: list[KongRecord] = field(default_factory=list)  # every kong declared
    kong_chain: list[KongRecord] = field(default_factory=list)  # kongs of the current turn
    window_kongs: list[KongRecord] = field(default_factory=list)  # the discarder's, ditto
    wins: list[Won] = field(default_factory=list)  # every Hu declaration in order
    hu_events: int = 0  # discards and draws Hu was declared on
    declared_hu: int = 0  # Hu declarations (false ones count)
    lines: list[LedgerLine] = field(default_factory=list)  # the ledger so far
    end: DealEnd | None = None
    moves: list[Move] = field(default_factory=list)  # the effective moves (after corrections)

    def copy(self) -> State:
        """An independent copy to try moves on: every container a move changes is copied
        (a kong's record once, shared by the lists holding it, as here); the rule set, the
        tiles, melds, moves and ledger lines, all immutable, are shared. A field added to
        `State` must be added here (tests/rules/test_deal_copy.py checks that nothing
        mutable is shared)."""
        records: dict[int, KongRecord] = {}

        def record(r: KongRecord) -> KongRecord:
            copied = records.get(id(r))
            if copied is None:
                copied = records[id(r)] = replace(r, lines=list(r.lines))
            return copied

        w = self.window
        return replace(
            self,
            wall=self.wall.copy(),
            hands=[bytearray(h) for h in self.hands],
            keys=[list(k) for k in self.keys],
            melds=[list(m) for m in self.melds],
            river=[list(r) for r in self.river],
            discards=[list(d) for d in self.discards],
            void=list(self.void),
            void_chosen=list(self.void_chosen),
            laid=list(self.laid),
            void_penalized=list(self.void_penalized),
            out=list(self.out),
            draws=list(self.draws),
            window=None if w is None else replace(w, declared=dict(w.declared), wins=list(w.wins)),
            hu_lock=list(self.hu_lock),
            pung_lock=[set(p) for p in self.pung_lock],
            kongs=[record(r) for r in self.kongs],
            kong_chain=[record(r) for r in self.kong_chain],
            window_kongs=[record(r) for r in self.window_kongs],
            wins=list(self.wins),
            lines=list(self.lines),
            moves=list(self.moves),
        )

    # -- queries ---------------------------------------------------------------------------

    @property
    def still_in(self) -> tuple[Seat, ...]:
        return tuple(s for s in SEATS if not self.out[s])

    def others_in(self, seat: Seat) -> tuple[Seat, ...]:
        """The other players still in, in turn order after `seat`."""
        out = self.out
        if True not in out:
            return seats_after(seat)  # nobody is out yet
        return tuple([s for s in seats_after(seat) if not out[s]])

    def standing(self, seat: Seat, extra: Tile | None = None) -> list[Tile]:
        """The seat's standing tiles in tile order, and `extra` last if given."""
        tiles = [t for t, n in zip(TILES, self.hands[seat], strict=True) if n for _ in range(n)]
        if extra is not None:
            tiles.append(extra)
        return tiles

    def void_held(self, seat: Seat) -> Tile | None:
        """The lowest tile of the seat's void suit it still holds standing, if any."""
        void = self.void[seat]
        if void is None or not self.keys[seat][SUIT_KEY[void]]:
            return None  # no void suit, or none of its tiles held (its live key is 0)
        hand = self.hands[seat]
        return next(t for t in void.tiles if hand[t])

    def window_view(self) -> ClaimWindow | None:
        w = self.window
        if w is None:
            return None
        return ClaimWindow(
            w.kind, w.tile, w.discarder, w.eligible, tuple(w.declared.items()), w.last
        )

    # -- the one way a hand changes ----------------------------------------------------------

    def add_tiles(self, seat: Seat, tile: Tile, n: int) -> None:
        """`n` more `tile` standing in the seat's hand (fewer when `n` < 0): its count and
        its suit's live key."""
        self.hands[seat][tile] += n
        self.keys[seat][SUIT_INDEX[tile]] += n * UNIT[tile]


Problem = tuple[Reason, str] | None  # what a check found: None when the move is legal
# where an effect reports the facts of a move: the list its driver reads (`Deal.apply`), or
# None when the driver reads none (`Deal.play`): then no fact is made
Facts = list[Fact] | None


def common(st: State, seat: Seat) -> Problem:
    """What refuses any move of `seat` now: the deal is over, or the seat is out."""
    if st.phase is Phase.OVER:
        return Reason.DEAL_OVER, "the deal is over"
    if st.out[seat]:
        return Reason.PLAYER_OUT, f"{seat} has declared Hu and is out of the deal"
    return None


def own_turn(st: State, seat: Seat, phase: Phase, what: str) -> Problem:
    """What refuses a move of the seat on turn in `phase` (`what` names it)."""
    if st.phase is phase and seat is st.turn and not st.out[seat]:
        return None  # the usual case, which none of the reasons below refuses
    p = common(st, seat)
    if p:
        return p
    if st.phase is not phase:
        return Reason.WRONG_PHASE, f"{what} is not possible now (phase {st.phase.value})"
    if seat is not st.turn:
        return Reason.NOT_YOUR_TURN, f"it is {st.turn}'s turn"
    return None


def new_state(rs: RuleSet, wall: Wall, prevalent: Seat) -> State:
    """The state of a deal on `wall` just dealt (004 Lesson 2: East holds 14)."""
    order = wall.order
    hands = [bytearray(34) for _ in SEATS]
    keys = [[0, 0, 0, 0] for _ in SEATS]
    plan = wall.deal_out()  # the takes themselves only when asked (`Wall.dealt_takes`)
    for hand, key, dealt in zip(hands, keys, wall.dealt_by_seat(), strict=True):
        for i in dealt:
            t = order[i]
            assert t is not None  # the dealt positions are known (`Wall` checks it)
            hand[t] += 1
            key[SUIT_INDEX[t]] += UNIT[t]
    choosing = rs.play.void_suit
    return State(
        rs=rs,
        wall=wall,
        prevalent=prevalent,
        phase=Phase.CHOOSING_VOID if choosing else Phase.DISCARD,
        turn=Seat.E,
        entry=Entry.DEALT,
        drawn=order[plan[49][1]],  # East's 14th tile (004: the jump)
        hands=hands,
        keys=keys,
        void_chosen=[not choosing] * 4,
    )


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
