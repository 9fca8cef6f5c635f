"""The deal judge: one Sichuan deal from the dealt wall to the settled ledger, as pure rules.

    deal = Deal.start(rs, Dice(6, 4), wall_order)       # wall order: see rules.wall
    result = deal.apply(ChooseVoid(Seat.E, Suit.M, Tile.M5))   # Accepted | Rejected
    deal.legal_moves(Seat.S)     # every move a seat may make now (bots, the recogniser)
    deal.admissible_claims()     # in a claim window: which claims each seat may make
    deal.ledger()                # the itemised settlement (final once deal.over)

Seats are those of the deal (East = dealer). `apply` checks a move completely before it
changes anything, so a `Rejected` move leaves the deal exactly as it was (`snapshot()`).

Flow (004 Lessons 2-4, RULES.md "Play"): `CHOOSING_VOID` (each seat lays a tile of its void
suit face down, or the indicator card; that tile is its mandatory first discard) → East's
first turn in `DISCARD` (heavenly Hu, concealed kong or discard) → after each discard a claim
window `CLAIMS` (see rules.claims) → the next player `DRAW`s, or the claimer melds → after
a kong `REPLACEMENT` (promoted/postponed kongs first open a `ROBBING` window) → ... → `OVER`.

Blood battle: a player who declares Hu leaves the deal and is skipped; the deal ends on the
`rs.play.winners_to_end`-th Hu (three), or when the wall is exhausted and the active player
has finished (the last discard's window closed), or on a referee `EndDeal`.

Decisions where the documents are silent or differ (each is a docstring, not a guess in the
code):
- A false Hu (no valid shape, void-suit tiles, three suits) is accepted, not rejected: 004
  Lesson 5 says all declared Hu stand until scoring. The offender **leaves the deal** (004:
  the penalty compensates the others "for not being able to score points ... from the left
  gameplay player"), pays `payments.false_hu` to each player still in after the declaration
  (simultaneous declarers on one discard are not "still in", 004's worked example), returns
  every kong payment received, and counts toward the Hu that end the deal. It does not count
  for the next dealer (rules.session).
- A Hu on a tile of one's void suit is refused (`VOID_SUIT_CLAIM`, 002: "mahjong cannot be
  declared on voided suit on discard"), like Pung and Kong on it.
- The skipped-Hu lock (`skip_hu_lock`) refuses the Hu (`SKIPPED_HU_LOCK`) unless the new
  hand pays more than the skipped one; it lifts when the player takes a tile from the wall
  (a replacement tile included). It also applies to a Hu declined in a robbing window.
- The mandatory first discard (the face-down void tile) is enforced in both `void_discard`
  modes; `strict` also refuses any other discard while void tiles are held.
- The void penalty is charged at most once per player per deal.
- "Hu on the declarer's very next discard" refunds every kong the discarder declared in the
  turn that discard ended (only for a valid Hu).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from rules import settlement as pay
from rules.claims import ClaimWindow, Window, WindowKind, next_player, resolve, seats_after
from rules.hand import is_complete
from rules.melds import Meld, MeldKind
from rules.moves import (
    Accepted,
    ChooseVoid,
    CloseClaims,
    Correction,
    DealEnd,
    DealOver,
    Discard,
    Draw,
    Drawn,
    EndDeal,
    Fact,
    Hu,
    Kong,
    Melded,
    Move,
    Pass,
    Penalty,
    Pung,
    Reason,
    Rejected,
    ReplacementDraw,
    Result,
    Robbed,
    RobKong,
    SelfDrawnHu,
    TurnPassed,
    Won,
)
from rules.ruleset import Identity, KongRefund, Payer, RuleSet, VoidDiscard
from rules.scoring import Score, is_winning, score_hand, theoretical_maximum
from rules.seats import SEATS, Seat
from rules.settlement import EndHand, Ledger, LedgerLine
from rules.tiles import NUMBER_SUITS, TILES, Suit, Tile
from rules.wall import Dice, Wall

OWN_TURN_KONGS = (MeldKind.CONCEALED_KONG, MeldKind.PROMOTED_KONG, MeldKind.POSTPONED_KONG)


class Phase(Enum):
    CHOOSING_VOID = "choosing-void"
    DRAW = "draw"  # `turn` must draw from the wall
    REPLACEMENT = "replacement"  # `turn` must take a kong replacement tile
    DISCARD = "discard"  # `turn` holds 14: discard, Hu or kong
    CLAIMS = "claims"  # a discard is open to Hu / Pung / Kong
    ROBBING = "robbing"  # a promoted/postponed kong's tile is open to Hu
    OVER = "over"


class Entry(Enum):
    """How the current turn began."""

    DEALT = "dealt"  # East's first turn
    DRAW = "draw"
    REPLACEMENT = "replacement"
    PUNG = "pung"


class _KongRecord:
    """A declared kong and the payments it brought (refunds mark it)."""

    __slots__ = ("lines", "meld", "refunded", "seat")

    def __init__(self, seat: Seat, meld: Meld, lines: list[LedgerLine]) -> None:
        self.seat = seat
        self.meld = meld
        self.lines = lines
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


class Deal:
    """One deal under a rule set; see the module docstring."""

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def start(cls, rs: RuleSet, dice: Dice, wall_order: Sequence[Tile]) -> Deal:
        """Break and deal the wall; East (the dealer) holds 14 tiles."""
        if rs.ruleset.game is not Identity.SICHUAN:
            raise ValueError(f"the deal judge plays Sichuan rule sets, not {rs.name}")
        deal = cls.__new__(cls)
        deal._init(rs, dice, tuple(wall_order))
        return deal

    @classmethod
    def replay(
        cls, rs: RuleSet, dice: Dice, wall_order: Sequence[Tile], moves: Iterable[Move]
    ) -> Deal:
        """A deal re-judged from its moves; raises ValueError naming the first bad move."""
        deal = cls.start(rs, dice, wall_order)
        for i, move in enumerate(moves):
            result = deal.apply(move)
            if isinstance(result, Rejected):
                raise ValueError(f"move {i + 1} ({move}) rejected: {result}")
        return deal

    def _init(self, rs: RuleSet, dice: Dice, order: tuple[Tile, ...]) -> None:
        self.rs = rs
        self.dice = dice
        self.wall_order = order
        self.wall = Wall(rs, dice, order)
        self._hands = [[0] * 34 for _ in SEATS]
        takes = self.wall.deal()
        for take in takes:
            self._hands[take.seat][take.tile] += 1
        self.deal_takes = takes
        self._melds: list[list[Meld]] = [[] for _ in SEATS]
        self._river: list[list[Tile]] = [[] for _ in SEATS]
        self._discards: list[list[Tile]] = [[] for _ in SEATS]
        self._void: list[Suit | None] = [None] * 4
        self._void_chosen = [not rs.play.void_suit] * 4
        self._laid: list[Tile | None] = [None] * 4
        self._out = [False] * 4
        self._wins: list[Won] = []
        self._hu_events = 0
        self._declared_hu = 0
        self.phase = Phase.CHOOSING_VOID if rs.play.void_suit else Phase.DISCARD
        self.turn = Seat.E
        self._entry = Entry.DEALT
        self._drawn: Tile | None = takes[49].tile  # East's 14th tile (004: the jump)
        self._kong_chain: list[_KongRecord] = []
        self._kongs: list[_KongRecord] = []
        self._window: Window | None = None
        self._hu_lock = [0] * 4
        self._pung_lock: list[set[Tile]] = [set() for _ in SEATS]
        self._lines: list[LedgerLine] = []
        self._void_penalized = [False] * 4
        self._draws = [0] * 4
        self._melded_any = False
        self._end: DealEnd | None = None
        self._scores: dict[Seat, Score] = {}  # scratch: the scores of the Hu being settled
        self._window_kongs: list[_KongRecord] = []  # the discarder's kongs of this turn
        self._moves: list[Move] = []  # the effective moves (after corrections)
        self.history: list[Move] = []  # every accepted move, corrections included

    # -- observation ----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def end(self) -> DealEnd | None:
        return self._end

    @property
    def tiles_left(self) -> int:
        return self.wall.tiles_left

    def hand(self, seat: Seat) -> tuple[Tile, ...]:
        """Standing tiles (the face-down void tile included until it is discarded)."""
        return tuple(TILES[i] for i, n in enumerate(self._hands[seat]) for _ in range(n))

    def counts(self, seat: Seat) -> tuple[int, ...]:
        return tuple(self._hands[seat])

    def melds(self, seat: Seat) -> tuple[Meld, ...]:
        return tuple(self._melds[seat])

    def river(self, seat: Seat) -> tuple[Tile, ...]:
        """Discards still lying in front of the seat (claimed tiles have left)."""
        return tuple(self._river[seat])

    def discards(self, seat: Seat) -> tuple[Tile, ...]:
        """Every tile the seat discarded, claimed or not."""
        return tuple(self._discards[seat])

    @property
    def drawn(self) -> Tile | None:
        """The tile the player on turn took from the wall this turn (East's 14th dealt
        tile on the first turn); None after a pung, a kong or a discard."""
        return self._drawn

    def void(self, seat: Seat) -> Suit | None:
        return self._void[seat]

    def laid_tile(self, seat: Seat) -> Tile | None:
        """The face-down void tile not yet discarded."""
        return self._laid[seat]

    def is_out(self, seat: Seat) -> bool:
        return self._out[seat]

    @property
    def still_in(self) -> tuple[Seat, ...]:
        return tuple(s for s in SEATS if not self._out[s])

    @property
    def winners(self) -> tuple[Won, ...]:
        """Every Hu declaration in order (false ones included, marked)."""
        return tuple(self._wins)

    @property
    def window(self) -> ClaimWindow | None:
        w = self._window
        if w is None:
            return None
        return ClaimWindow(
            w.kind, w.tile, w.discarder, w.eligible, tuple(w.declared.items()), w.last
        )

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    def ledger(self) -> Ledger:
        return Ledger(tuple(self._lines))

    def deltas(self) -> tuple[int, ...]:
        return self.ledger().deltas()

    def snapshot(self) -> DealState:
        return DealState(
            self.phase,
            self.turn,
            tuple(self.hand(s) for s in SEATS),
            tuple(self.melds(s) for s in SEATS),
            tuple(self.river(s) for s in SEATS),
            tuple(self._void),
            tuple(self._out),
            self.wall.tiles_left,
            self.window,
            self.winners,
            tuple(self._lines),
            (*self._hu_lock, *(len(p) for p in self._pung_lock)),
            self._end,
        )

    # -- apply ----------------------------------------------------------------------------

    def apply(self, move: Move) -> Result:
        """Judge one move: `Accepted(move, facts)` or `Rejected(reason, detail, move)`."""
        check, do = _HANDLERS.get(type(move), (None, None))
        if check is None or do is None:
            return Rejected(Reason.WRONG_PHASE, f"not a move: {move!r}", move)
        problem = check(self, move)
        if problem is not None:
            return Rejected(problem[0], problem[1], move)
        facts = do(self, move)
        self.history.append(move)
        if not isinstance(move, Correction):
            self._moves.append(move)
        return Accepted(move, tuple(facts))

    def check(self, move: Move) -> Rejected | None:
        """What `apply(move)` would answer, without applying it: None if it would be
        accepted, else the `Rejected` value."""
        check, _ = _HANDLERS.get(type(move), (None, None))
        if check is None:
            return Rejected(Reason.WRONG_PHASE, f"not a move: {move!r}", move)
        problem = check(self, move)
        return None if problem is None else Rejected(problem[0], problem[1], move)

    def legal_moves(self, seat: Seat, *, include_false_hu: bool = False) -> tuple[Move, ...]:
        """Every move `seat` may make now that `apply` would accept. A Hu that would be false
        is left out unless `include_false_hu` (it is accepted, and costly)."""
        candidates: list[Move] = []
        phase = self.phase
        h = self._hands[seat]
        if phase is Phase.OVER or self._out[seat]:
            return ()
        if phase is Phase.CHOOSING_VOID:
            for suit in self.rs.tiles.set.suits:
                held = [t for t in suit.tiles if h[t]]
                candidates += [ChooseVoid(seat, suit, t) for t in held] or [ChooseVoid(seat, suit)]
        elif seat is not self.turn and phase in (Phase.DRAW, Phase.REPLACEMENT, Phase.DISCARD):
            return ()
        elif phase is Phase.DRAW:
            candidates.append(Draw(seat))
        elif phase is Phase.REPLACEMENT:
            candidates.append(ReplacementDraw(seat))
        elif phase is Phase.DISCARD:
            candidates += [Discard(seat, TILES[i]) for i in range(34) if h[i]]
            if include_false_hu or self._self_drawn_wins(seat):
                candidates.append(SelfDrawnHu(seat))
            for i in range(34):
                if h[i] == 4:
                    candidates.append(Kong(seat, MeldKind.CONCEALED_KONG, TILES[i]))
            for m in self._melds[seat]:
                if m.kind is MeldKind.PUNG and h[m.tile]:
                    candidates.append(Kong(seat, MeldKind.PROMOTED_KONG, m.tile))
                    candidates.append(Kong(seat, MeldKind.POSTPONED_KONG, m.tile))
        else:
            w = self._window
            assert w is not None
            candidates.append(Pass(seat))
            if include_false_hu or self._wins_with(seat, w.tile):
                candidates.append(RobKong(seat) if w.kind is WindowKind.ROBBING else Hu(seat))
            if w.kind is WindowKind.DISCARD:
                candidates += [Pung(seat), Kong(seat, MeldKind.KONG, w.tile)]
        return tuple(m for m in candidates if _check(self, m) is None)

    def admissible_claims(self) -> Mapping[Seat, tuple[Move, ...]]:
        """In a claim or robbing window: the claims (not Pass) each seat that has not yet
        declared may make. Empty outside a window."""
        w = self._window
        if w is None:
            return MappingProxyType({})
        out = {}
        for s in w.eligible:
            if s not in w.declared:
                out[s] = tuple(m for m in self.legal_moves(s) if not isinstance(m, Pass))
        return MappingProxyType(out)

    # -- helpers ---------------------------------------------------------------------------

    def _standing(self, seat: Seat, extra: Tile | None = None) -> list[Tile]:
        tiles = [TILES[i] for i, n in enumerate(self._hands[seat]) for _ in range(n)]
        if extra is not None:
            tiles.append(extra)
        return tiles

    def _wins_with(self, seat: Seat, tile: Tile) -> bool:
        void = self._void[seat]
        if void is not None and tile.suit is void:
            return False
        h = self._hands[seat]
        h[tile] += 1
        # the shape first (a table look-up), the authoritative check only for a complete one
        shaped = is_complete(h, len(self._melds[seat]))
        h[tile] -= 1
        if not shaped:
            return False
        return is_winning(self._standing(seat, tile), self._melds[seat], void, self.rs)

    def _self_drawn_wins(self, seat: Seat) -> bool:
        if not is_complete(self._hands[seat], len(self._melds[seat])):
            return False
        return is_winning(self._standing(seat), self._melds[seat], self._void[seat], self.rs)

    def _discard_events(self, w: Window, seat: Seat) -> frozenset[str]:
        if w.kind is WindowKind.ROBBING:
            return frozenset({"robbing-the-kong"})
        events = set()
        if w.after_kong:
            events.add("shoot-after-kong")
        if w.last:
            events.add("under-the-sea")
        if w.dealer_first and not events:
            events.add("earthly")
        return frozenset(events)

    def _payment(self, seat: Seat, tile: Tile, events: frozenset[str]) -> int:
        """What a valid Hu on `tile` would be paid by the discarder (A x multiplier)."""
        score = score_hand(
            self._standing(seat, tile),
            self._melds[seat],
            tile,
            self.rs,
            situations=events,
            void=self._void[seat],
        )
        return score.value * score.multiplier

    def _others_in(self, seat: Seat) -> list[Seat]:
        return [s for s in seats_after(seat) if not self._out[s]]

    def _refund_received(self, seat: Seat, rule: str) -> None:
        for rec in self._kongs:
            if rec.seat is seat and not rec.refunded:
                rec.refunded = True
                self._lines += pay.refund(rec.lines, rule)

    def _void_held(self, seat: Seat) -> Tile | None:
        void = self._void[seat]
        if void is None:
            return None
        h = self._hands[seat]
        return next((t for t in void.tiles if h[t]), None)

    def _penalize_void(self, seat: Seat, meld: bool, tile: Tile | None) -> None:
        if not self._void_penalized[seat]:
            self._void_penalized[seat] = True
            self._lines += pay.void_penalty(self.rs, seat, meld, tile)

    def _declare(
        self, seat: Seat, tile: Tile | None, from_seat: Seat | None, events: frozenset[str]
    ) -> tuple[bool, Won]:
        """Score a Hu declaration; return (valid, Won) without paying yet."""
        self_drawn = from_seat is None
        standing = self._standing(seat, None if self_drawn else tile)
        melds = self._melds[seat]
        void = self._void[seat]
        if not is_winning(standing, melds, void, self.rs):
            return False, Won(seat, None, from_seat, True, 0, self._hu_events + 1)
        win = tile if tile is not None else standing[-1]
        score = score_hand(
            standing, melds, win, self.rs, self_drawn=self_drawn, situations=events, void=void
        )
        won = Won(seat, win, from_seat, False, score.value, self._hu_events + 1)
        self._scores[seat] = score
        return True, won

    def _false_hu(self, seat: Seat, payees: list[Seat]) -> None:
        self._lines += pay.false_hu(self.rs, seat, payees)
        if self.rs.payments.false_hu_returns_kong_payments:
            self._refund_received(seat, pay.R_REFUND_FALSE_HU)
        held = self._void_held(seat)
        if held is not None:
            self._penalize_void(seat, False, held)

    def _after_hu(self, start: Seat, declarers: tuple[Seat, ...], facts: list[Fact]) -> None:
        """Blood battle: end the deal or pass the turn on after Hu declarations."""
        self._declared_hu += len(declarers)
        if self._declared_hu >= self.rs.play.winners_to_end or len(self.still_in) == 0:
            self._finish(DealEnd.HU, facts)
        elif self.wall.exhausted:
            self._finish(DealEnd.WALL, facts)
        else:
            nxt = next_player(start, declarers, self._out)
            assert nxt is not None
            self.turn = nxt
            self.phase = Phase.DRAW
            facts.append(TurnPassed(nxt))

    def _finish(self, end: DealEnd, facts: list[Fact]) -> None:
        self._end = end
        self.phase = Phase.OVER
        self._window = None
        facts.append(DealOver(end))
        if end is not DealEnd.WALL:
            return
        rs = self.rs
        hands = []
        for s in self.still_in:
            counts = tuple(self._hands[s])
            melds = tuple(self._melds[s])
            held = [t for t in TILES[:27] if counts[t]] + [m.tile for m in melds]
            pig = len({t.suit for t in held} & set(NUMBER_SUITS)) == 3
            maximum = theoretical_maximum(counts, melds, self._void[s], rs)
            hands.append(EndHand(s, counts, melds, self._void[s], maximum, pig))
        self._lines += pay.wall_end(rs, hands)
        not_ready = {h.seat for h in hands if not h.ready}
        for rec in self._kongs:
            if rec.refunded:
                continue
            if rs.payments.kong_refund_on_draw is KongRefund.ALL:
                rec.refunded = True
                self._lines += pay.refund(rec.lines, pay.R_REFUND_DRAW)
            elif rec.seat in not_ready:
                rec.refunded = True
                self._lines += pay.refund(rec.lines, pay.R_REFUND_NOT_READY)
        for h in hands:
            held = self._void_held(h.seat)
            if held is None:
                continue
            void = self._void[h.seat]
            all_void = all(t.suit is void for t in self._discards[h.seat])
            if rs.payments.void_penalty_waived_if_all_discards_void and all_void:
                continue
            self._penalize_void(h.seat, False, held)


# -- checks: each returns None (legal) or (Reason, detail), and never changes the deal ------

Problem = tuple[Reason, str] | None


def _common(deal: Deal, seat: Seat) -> Problem:
    if deal.phase is Phase.OVER:
        return Reason.DEAL_OVER, "the deal is over"
    if deal._out[seat]:
        return Reason.PLAYER_OUT, f"{seat} has declared Hu and is out of the deal"
    return None


def _own_turn(deal: Deal, seat: Seat, phase: Phase, what: str) -> Problem:
    p = _common(deal, seat)
    if p:
        return p
    if deal.phase is not phase:
        return Reason.WRONG_PHASE, f"{what} is not possible now (phase {deal.phase.value})"
    if seat is not deal.turn:
        return Reason.NOT_YOUR_TURN, f"it is {deal.turn}'s turn"
    return None


def _check_void(deal: Deal, m: ChooseVoid) -> Problem:
    p = _common(deal, m.seat)
    if p:
        return p
    if deal.phase is not Phase.CHOOSING_VOID:
        return Reason.WRONG_PHASE, "void suits are chosen right after the deal"
    if deal._void_chosen[m.seat]:
        return Reason.VOID_ALREADY_CHOSEN, f"{m.seat} chose {deal._void[m.seat]} already"
    if m.suit not in deal.rs.tiles.set.suits or m.suit is Suit.Z:
        return Reason.VOID_TILE_WRONG_SUIT, f"{m.suit} cannot be a void suit"
    h = deal._hands[m.seat]
    if m.tile is None:
        held = next((t for t in m.suit.tiles if h[t]), None)
        if held is not None:
            return Reason.VOID_TILE_REQUIRED, f"{m.seat} holds {held}: lay a {m.suit} tile"
        return None
    if m.tile.suit is not m.suit:
        return Reason.VOID_TILE_WRONG_SUIT, f"{m.tile} is not of the suit {m.suit}"
    if not h[m.tile]:
        return Reason.TILE_NOT_IN_HAND, f"{m.seat} holds no {m.tile}"
    return None


def _check_draw(deal: Deal, m: Draw) -> Problem:
    p = _own_turn(deal, m.seat, Phase.DRAW, "a draw")
    if p:
        return p
    if m.tile is not None and deal.wall.peek() != m.tile:
        return Reason.WALL_MISMATCH, f"the next wall tile is {deal.wall.peek()}, not {m.tile}"
    return None


def _check_replacement(deal: Deal, m: ReplacementDraw) -> Problem:
    p = _own_turn(deal, m.seat, Phase.REPLACEMENT, "a replacement draw")
    if p:
        return p
    nxt = deal.wall.peek_replacement()
    if m.tile is not None and nxt != m.tile:
        return Reason.WALL_MISMATCH, f"the replacement tile is {nxt}, not {m.tile}"
    return None


def _check_discard(deal: Deal, m: Discard) -> Problem:
    p = _own_turn(deal, m.seat, Phase.DISCARD, "a discard")
    if p:
        return p
    if not deal._hands[m.seat][m.tile]:
        return Reason.TILE_NOT_IN_HAND, f"{m.seat} holds no {m.tile}"
    laid = deal._laid[m.seat]
    if laid is not None and m.tile != laid:
        return Reason.VOID_TILE_FIRST, f"the face-down {laid} is {m.seat}'s first discard"
    void = deal._void[m.seat]
    if deal.rs.play.void_discard is VoidDiscard.STRICT and void is not None:
        held = deal._void_held(m.seat)
        if held is not None and m.tile.suit is not void:
            return Reason.VOID_DISCARD_ORDER, f"{m.seat} must discard {held} (void {void}) first"
    return None


def _check_in_window(deal: Deal, seat: Seat, robbing: bool | None) -> Problem:
    """A declaration in the open window; `robbing` None: either kind of window."""
    p = _common(deal, seat)
    if p:
        return p
    w = deal._window
    if w is None:
        return Reason.CLAIM_NOT_ADMISSIBLE, "no discard is open to claims"
    if robbing is not None and (w.kind is WindowKind.ROBBING) != robbing:
        what = "a robbing window (only Hu)" if robbing is False else "no kong to rob"
        return Reason.CLAIM_NOT_ADMISSIBLE, f"this is {what}"
    if seat is w.discarder:
        return Reason.CLAIM_NOT_ADMISSIBLE, f"{seat} cannot claim its own tile"
    if seat in w.declared:
        return Reason.ALREADY_DECLARED, f"{seat} declared {w.declared[seat]} already"
    return None


def _check_void_claim(deal: Deal, seat: Seat, tile: Tile) -> Problem:
    void = deal._void[seat]
    if void is not None and tile.suit is void:
        return Reason.VOID_SUIT_CLAIM, f"{tile} is of {seat}'s void suit {void}"
    return None


def _check_hu(deal: Deal, m: Hu | RobKong) -> Problem:
    p = _check_in_window(deal, m.seat, True if isinstance(m, RobKong) else None)
    if p:
        return p
    w = deal._window
    assert w is not None
    p = _check_void_claim(deal, m.seat, w.tile)
    if p:
        return p
    lock = deal._hu_lock[m.seat]
    if lock and deal._wins_with(m.seat, w.tile):
        value = deal._payment(m.seat, w.tile, deal._discard_events(w, m.seat))
        if value <= lock:
            return (
                Reason.SKIPPED_HU_LOCK,
                f"{m.seat} let a winning tile go (worth {lock}); this Hu is worth {value}",
            )
    return None


def _check_pung(deal: Deal, m: Pung) -> Problem:
    p = _check_in_window(deal, m.seat, False)
    if p:
        return p
    w = deal._window
    assert w is not None
    p = _check_void_claim(deal, m.seat, w.tile)
    if p:
        return p
    if deal._hands[m.seat][w.tile] < 2:
        return Reason.CLAIM_NOT_ADMISSIBLE, f"{m.seat} holds fewer than two {w.tile}"
    if w.tile in deal._pung_lock[m.seat]:
        return Reason.SKIPPED_PUNG_LOCK, f"{m.seat} passed {w.tile} already (000 2.2.4)"
    return None


def _check_kong(deal: Deal, m: Kong) -> Problem:
    if m.kind is MeldKind.KONG:
        p = _check_in_window(deal, m.seat, False)
        if p:
            return p
        w = deal._window
        assert w is not None
        if m.tile is not None and m.tile != w.tile:
            return Reason.CLAIM_NOT_ADMISSIBLE, f"the open discard is {w.tile}, not {m.tile}"
        p = _check_void_claim(deal, m.seat, w.tile)
        if p:
            return p
        if w.last:
            return Reason.AFTER_LAST_TILE, "only Hu or Pung on the last discard (004 Lesson 4)"
        if deal._hands[m.seat][w.tile] < 3:
            return Reason.CLAIM_NOT_ADMISSIBLE, f"{m.seat} holds fewer than three {w.tile}"
        return None
    p = _own_turn(deal, m.seat, Phase.DISCARD, "a kong")
    if p:
        return p
    if m.kind not in OWN_TURN_KONGS or m.tile is None:
        return Reason.NOT_A_KONG, f"{m.kind} {m.tile} is not a kong declared on one's own turn"
    if deal._entry is Entry.PUNG:
        return Reason.KONG_AFTER_PUNG, "no kong on a turn entered by a pung"
    if deal.wall.exhausted:
        return Reason.NO_REPLACEMENT_TILE, "no replacement tile is left"
    h = deal._hands[m.seat]
    if m.kind is MeldKind.CONCEALED_KONG:
        if h[m.tile] != 4:
            return Reason.NOT_A_KONG, f"{m.seat} holds {h[m.tile]} {m.tile}, not four"
        return None
    if Meld(MeldKind.PUNG, m.tile) not in deal._melds[m.seat]:
        return Reason.NOT_A_KONG, f"{m.seat} has no pung of {m.tile}"
    if not h[m.tile]:
        return Reason.TILE_NOT_IN_HAND, f"{m.seat} holds no {m.tile}"
    if m.kind is MeldKind.PROMOTED_KONG and deal._drawn != m.tile:
        return Reason.NOT_A_KONG, f"{m.tile} was not freshly drawn: a postponed kong"
    return None


def _check_self_drawn(deal: Deal, m: SelfDrawnHu) -> Problem:
    p = _own_turn(deal, m.seat, Phase.DISCARD, "a self-drawn Hu")
    if p:
        return p
    if deal._entry is Entry.PUNG:
        return Reason.WRONG_PHASE, "a turn entered by a pung ends with a discard"
    return None


def _check_pass(deal: Deal, m: Pass) -> Problem:
    return _check_in_window(deal, m.seat, None)


def _check_close(deal: Deal, m: CloseClaims) -> Problem:
    if deal.phase is Phase.OVER:
        return Reason.DEAL_OVER, "the deal is over"
    if deal._window is None:
        return Reason.WRONG_PHASE, "no claim window is open"
    return None


def _check_penalty(deal: Deal, m: Penalty) -> Problem:
    if m.points <= 0 or m.to is m.seat:
        return Reason.BAD_PENALTY, "a penalty is a positive amount paid to another seat or nobody"
    return None


def _check_correction(deal: Deal, m: Correction) -> Problem:
    undoable = sum(1 for x in deal._moves if not isinstance(x, Penalty | EndDeal))
    if m.undo < 1 or m.undo > undoable:
        return Reason.NOTHING_TO_UNDO, f"{undoable} moves can be taken back, not {m.undo}"
    return None


def _check_end(deal: Deal, m: EndDeal) -> Problem:
    if deal.phase is Phase.OVER:
        return Reason.DEAL_OVER, "the deal is over"
    return None


def _check(deal: Deal, move: Move) -> Problem:
    check, _ = _HANDLERS[type(move)]
    return check(deal, move)


# -- effects: called only after the check passed ----------------------------------------


def _do_void(deal: Deal, m: ChooseVoid) -> list[Fact]:
    deal._void[m.seat] = m.suit
    deal._void_chosen[m.seat] = True
    deal._laid[m.seat] = m.tile
    if all(deal._void_chosen):
        deal.phase = Phase.DISCARD
        deal.turn = Seat.E
    return []


def _took(deal: Deal, seat: Seat, replacement: bool) -> list[Fact]:
    take = deal.wall.replacement(seat) if replacement else deal.wall.draw(seat)
    deal._hands[seat][take.tile] += 1
    deal._drawn = take.tile
    deal._hu_lock[seat] = 0
    deal._pung_lock[seat].clear()
    deal._draws[seat] += 1
    deal._entry = Entry.REPLACEMENT if replacement else Entry.DRAW
    deal.phase = Phase.DISCARD
    return [Drawn(take, replacement, deal.wall.exhausted)]


def _do_draw(deal: Deal, m: Draw) -> list[Fact]:
    deal._kong_chain = []
    return _took(deal, m.seat, False)


def _do_replacement(deal: Deal, m: ReplacementDraw) -> list[Fact]:
    return _took(deal, m.seat, True)


def _do_discard(deal: Deal, m: Discard) -> list[Fact]:
    seat = m.seat
    deal._hands[seat][m.tile] -= 1
    if deal._laid[seat] == m.tile:
        deal._laid[seat] = None
    first = not any(deal._discards)
    deal._river[seat].append(m.tile)
    deal._discards[seat].append(m.tile)
    deal._drawn = None
    deal._window = Window(
        WindowKind.DISCARD,
        m.tile,
        seat,
        tuple(deal._others_in(seat)),
        last=deal.wall.exhausted,
        after_kong=bool(deal._kong_chain),
        dealer_first=first and seat is Seat.E and not deal._melded_any,
    )
    deal._window_kongs = deal._kong_chain
    deal._kong_chain = []
    deal.phase = Phase.CLAIMS
    return []


def _do_claim(deal: Deal, m: Hu | Pung | Kong | RobKong | Pass) -> list[Fact]:
    w = deal._window
    assert w is not None
    w.declared[m.seat] = m
    return _resolve(deal) if w.complete else []


def _do_close(deal: Deal, m: CloseClaims) -> list[Fact]:
    return _resolve(deal)


def _lock_passers(deal: Deal, w: Window, passed: Iterable[Seat]) -> None:
    rs = deal.rs
    for s in passed:
        claim = w.declared.get(s)
        if rs.play.skip_hu_lock and deal._wins_with(s, w.tile):
            value = deal._payment(s, w.tile, deal._discard_events(w, s))
            deal._hu_lock[s] = max(deal._hu_lock[s], value)
        if (
            rs.play.skip_pung_lock
            and w.kind is WindowKind.DISCARD
            and not isinstance(claim, Pung | Kong)
            and deal._hands[s][w.tile] >= 2
            and deal._void[s] is not w.tile.suit
        ):
            deal._pung_lock[s].add(w.tile)


def _pay_hu_group(deal: Deal, w: Window, hu: tuple[Seat, ...], facts: list[Fact]) -> bool:
    """Score and pay the Hu declarations on one tile; True if any was valid."""
    results = []
    deal._scores = {}
    for s in hu:
        results.append(deal._declare(s, w.tile, w.discarder, deal._discard_events(w, s)))
    for s in hu:
        deal._out[s] = True
    remaining = [s for s in SEATS if not deal._out[s]]
    any_valid = False
    for valid, won in results:
        s = won.seat
        if valid:
            any_valid = True
            score = deal._scores[s]
            deal._lines += pay.hu_on_discard(
                s, w.discarder, score.value, score.multiplier, _why(score, "Hu on", w.tile)
            )
        else:
            deal._false_hu(s, remaining)
        deal._wins.append(won)
        facts.append(won)
    deal._hu_events += 1
    return any_valid


def _why(score: Score, what: str, tile: Tile) -> str:
    names = ", ".join(f"{p.name} {p.fan}" for p in score.patterns)
    return f"{what} {tile} ({names or 'no fan'}; A={score.value})"


def _resolve(deal: Deal) -> list[Fact]:
    w = deal._window
    assert w is not None
    res = resolve(w)
    facts: list[Fact] = []
    _lock_passers(deal, w, res.passed)
    deal._window = None
    if w.kind is WindowKind.ROBBING:
        return _resolve_robbing(deal, w, res.hu, facts)
    kongs = deal._window_kongs
    deal._window_kongs = []
    if res.hu:
        deal._river[w.discarder].pop()
        if _pay_hu_group(deal, w, res.hu, facts) and kongs:
            for rec in kongs:
                if not rec.refunded:
                    rec.refunded = True
                    deal._lines += pay.refund(rec.lines, pay.R_REFUND_NEXT_DISCARD)
        deal._after_hu(w.discarder, res.hu, facts)
        return facts
    if res.taker is not None:
        seat = res.taker
        deal._river[w.discarder].pop()
        kind = MeldKind.KONG if isinstance(res.meld, Kong) else MeldKind.PUNG
        meld = Meld(kind, w.tile)
        deal._hands[seat][w.tile] -= 3 if kind is MeldKind.KONG else 2
        deal._melds[seat].append(meld)
        deal._melded_any = True
        facts.append(Melded(seat, meld, w.discarder))
        deal.turn = seat
        deal._drawn = None
        if kind is MeldKind.KONG:
            rec = _KongRecord(seat, meld, pay.kong_payment(deal.rs, seat, meld, [w.discarder]))
            deal._lines += rec.lines
            deal._kongs.append(rec)
            deal._kong_chain = [rec]
            deal.phase = Phase.REPLACEMENT
        else:
            deal._entry = Entry.PUNG
            deal.phase = Phase.DISCARD
        return facts
    if w.last:
        deal._finish(DealEnd.WALL, facts)
        return facts
    nxt = next_player(w.discarder, (), deal._out)
    assert nxt is not None
    deal.turn = nxt
    deal.phase = Phase.DRAW
    facts.append(TurnPassed(nxt))
    return facts


def _resolve_robbing(deal: Deal, w: Window, hu: tuple[Seat, ...], facts: list[Fact]) -> list[Fact]:
    declarer = w.discarder
    assert w.kong_meld is not None
    if hu:
        # 004 Table 3: robbing the kong counts as a win on a discard; the kong stays a pung
        deal._melds[declarer][w.kong_index] = Meld(MeldKind.PUNG, w.tile)
        facts.append(Robbed(declarer, w.tile))
        _pay_hu_group(deal, w, hu, facts)
        deal._after_hu(declarer, hu, facts)
        return facts
    meld = w.kong_meld
    rec = _KongRecord(
        declarer, meld, pay.kong_payment(deal.rs, declarer, meld, deal._others_in(declarer))
    )
    deal._lines += rec.lines
    deal._kongs.append(rec)
    deal._kong_chain.append(rec)
    deal.turn = declarer
    deal.phase = Phase.REPLACEMENT
    facts.append(Melded(declarer, meld, None))
    return facts


def _do_kong(deal: Deal, m: Kong) -> list[Fact]:
    if m.kind is MeldKind.KONG:
        return _do_claim(deal, m)
    seat, tile = m.seat, m.tile
    assert tile is not None
    meld = Meld(m.kind, tile)
    deal._drawn = None
    deal._melded_any = True
    void = deal._void[seat]
    if m.kind is MeldKind.CONCEALED_KONG:
        deal._hands[seat][tile] -= 4
        if deal._laid[seat] == tile:
            deal._laid[seat] = None
        deal._melds[seat].append(meld)
        if void is not None and tile.suit is void:
            deal._penalize_void(seat, True, tile)
        rec = _KongRecord(seat, meld, pay.kong_payment(deal.rs, seat, meld, deal._others_in(seat)))
        deal._lines += rec.lines
        deal._kongs.append(rec)
        deal._kong_chain.append(rec)
        deal.phase = Phase.REPLACEMENT
        return [Melded(seat, meld, None)]
    deal._hands[seat][tile] -= 1
    if deal._laid[seat] == tile and not deal._hands[seat][tile]:
        deal._laid[seat] = None
    index = deal._melds[seat].index(Meld(MeldKind.PUNG, tile))
    deal._melds[seat][index] = meld
    deal._window = Window(
        WindowKind.ROBBING,
        tile,
        seat,
        tuple(deal._others_in(seat)),
        kong_meld=meld,
        kong_index=index,
    )
    deal.phase = Phase.ROBBING
    return []


def _do_self_drawn(deal: Deal, m: SelfDrawnHu) -> list[Fact]:
    seat = m.seat
    events: set[str] = set()
    if deal._entry is Entry.REPLACEMENT:
        events.add("win-after-kong")
    if deal.wall.exhausted:
        events.add("under-the-sea")
    if deal._entry is Entry.DEALT:
        events.add("heavenly")
    elif (
        deal._entry is Entry.DRAW
        and seat is not Seat.E
        and deal._draws[seat] == 1
        and not deal._melded_any
        and not events
    ):
        events.add("earthly")
    deal._scores = {}
    valid, won = deal._declare(seat, deal._drawn, None, frozenset(events))
    others = deal._others_in(seat)
    facts: list[Fact] = [won]
    if valid:
        score = deal._scores[seat]
        kong_discarder = None
        if score.payer is Payer.MELDED_KONG_DISCARDER and deal._kong_chain:
            last = deal._kong_chain[-1]
            if last.meld.kind is MeldKind.KONG and last.lines:
                kong_discarder = last.lines[0].payer
        deal._lines += pay.self_drawn_hu(
            deal.rs,
            seat,
            others,
            score.value,
            score.multiplier,
            _why(score, "self-drawn Hu on", won.tile or deal._drawn or Tile.M1),
            kong_discarder,
        )
    else:
        deal._false_hu(seat, others)
    deal._out[seat] = True
    deal._wins.append(won)
    deal._hu_events += 1
    deal._kong_chain = []
    deal._after_hu(seat, (seat,), facts)
    return facts


def _do_penalty(deal: Deal, m: Penalty) -> list[Fact]:
    deal._lines += pay.referee_penalty(m.seat, m.points, m.reason, m.to)
    return []


def _do_correction(deal: Deal, m: Correction) -> list[Fact]:
    kept = list(deal._moves)
    undone = 0
    for i in range(len(kept) - 1, -1, -1):
        if undone == m.undo:
            break
        if not isinstance(kept[i], Penalty | EndDeal):
            del kept[i]
            undone += 1
    history = deal.history
    fresh = Deal.replay(deal.rs, deal.dice, deal.wall_order, kept)
    deal.__dict__.update(fresh.__dict__)
    deal.history = history
    return []


def _do_end(deal: Deal, m: EndDeal) -> list[Fact]:
    facts: list[Fact] = []
    deal._finish(DealEnd.TIME, facts)
    return facts


_HANDLERS: dict[type, tuple] = {
    ChooseVoid: (_check_void, _do_void),
    Draw: (_check_draw, _do_draw),
    ReplacementDraw: (_check_replacement, _do_replacement),
    Discard: (_check_discard, _do_discard),
    Pung: (_check_pung, _do_claim),
    Kong: (_check_kong, _do_kong),
    Hu: (_check_hu, _do_claim),
    RobKong: (_check_hu, _do_claim),
    SelfDrawnHu: (_check_self_drawn, _do_self_drawn),
    Pass: (_check_pass, _do_claim),
    CloseClaims: (_check_close, _do_close),
    Penalty: (_check_penalty, _do_penalty),
    Correction: (_check_correction, _do_correction),
    EndDeal: (_check_end, _do_end),
}
