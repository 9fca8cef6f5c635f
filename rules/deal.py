"""The deal judge: one deal from the dealt wall to the settled ledger, as pure rules, under a
Sichuan rule set or a highest-pattern one with chows, winds and dragons (Wellness, 001).

    deal = Deal.start(rs, Dice(6, 4), wall_order)       # wall order: see rules.wall
    result = deal.apply(ChooseVoid(Seat.E, Suit.M, Tile.M5))   # Accepted | Rejected
    deal.legal_moves(Seat.S)     # every move a seat may make now (bots, the recogniser)
    deal.admissible_claims()     # in a claim window: which claims each seat may make
    deal.ledger()                # the itemised settlement (final once deal.over)

A table without a wall antenna starts from the dealt hands as read, and names each drawn
tile as the reader sees it land in the hand (rules.wall "Unknown positions"):

    deal = Deal.start_dealt(rs, Dice(6, 4), {Seat.E: east_14, Seat.S: south_13, ...})
    deal.apply(Draw(Seat.S, Tile.P3))    # Draw(Seat.S) alone: Rejected(TILE_UNKNOWN)

Seats are those of the deal (East = dealer). `apply` checks a move completely before it
changes anything, so a `Rejected` move leaves the deal exactly as it was (`snapshot()`).

Flow (004 Lessons 2-4, RULES.md "Play"): `CHOOSING_VOID` (each seat lays a tile of its void
suit face down, or the indicator card; that tile is its mandatory first discard; skipped
without `play.void_suit`) → East's first turn in `DISCARD` (heavenly Hu, concealed kong or
discard) → after each discard a claim window `CLAIMS` (see rules.claims; a `Chow` too with
`play.chow_claims`) → the next player `DRAW`s, or the claimer melds → after a kong
`REPLACEMENT` (promoted/postponed kongs first open a `ROBBING` window) → ... → `OVER`.

Highest-pattern rule sets (`scoring.method`, Wellness) score with the winds: the seat wind is
the deal seat (East = dealer), the prevalent wind `Deal.start(..., prevalent=)`; their
payments are rules.deal_wellness's (001 II 2, III 2.1, III 3.1-3.2); the skipped-Hu lock
lifts when the fan changes (001 IV 3.2) rather than when the hand pays more.

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
  declared on voided suit on discard"); a set of it is penalised (`play.void-suit-set`).
- The skipped-Hu lock (`skip_hu_lock`) refuses the Hu (`SKIPPED_HU_LOCK`) unless the new
  hand pays more than the skipped one; it lifts when the player takes a tile from the wall
  (a replacement tile included). It also applies to a Hu declined in a robbing window.
  With `play.sequential-claim = "false-win"` (WMT, 000 2.2.4) such a Hu, or a pung held by
  the skipped-pung lock, is accepted and settled as a false win (rules.deal_effects).
- The mandatory first discard (the face-down void tile) is enforced in both `void_discard`
  modes; `strict` also refuses any other discard while void tiles are held.
- The void penalty is charged at most once per player per deal.
- "Hu on the declarer's very next discard" refunds every kong the discarder declared in the
  turn that discard ended (only for a valid Hu).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from operator import getitem

from rules import deal_end, deal_legal, deal_wellness, settlement as pay
from rules.claims import ClaimWindow, Window, WindowKind, next_player
from rules.deal_checks import CHECKS
from rules.deal_effects import EFFECTS, OTHERS_IN
from rules.deal_state import DealState, Entry, KongRecord, Phase
from rules.live_hand import NEAR_DIGITS, SUIT_INDEX, UNIT, keys_complete, keys_complete_with
from rules.melds import Meld
from rules.moves import (
    TURN_PASSED,
    Accepted,
    Correction,
    DealEnd,
    DealOver,
    Fact,
    Move,
    Reason,
    Rejected,
    Result,
    Won,
)
from rules.ruleset import RuleSet, ScoringMethod, VoidDiscard
from rules.scoring import NotAWin, Score, is_winning, score_hand
from rules.seats import SEATS, Seat
from rules.settlement import Ledger, LedgerLine
from rules.tiles import TILES, Suit, Tile
from rules.wall import Dice, Take, Wall, dealt_order


class Deal:
    """One deal under a rule set; see the module docstring."""

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        rs: RuleSet,
        dice: Dice,
        wall_order: Sequence[Tile | None],
        *,
        prevalent: Seat = Seat.E,
    ) -> Deal:
        """Break and deal the wall; East (the dealer) holds 14 tiles. `None` marks a wall
        position whose tile is not known (the dealt positions must be known). `prevalent`
        is the prevalent (round) wind, scored by rule sets that count winds (001 II 3)."""
        deal = cls.__new__(cls)
        deal._init(rs, Wall(rs, dice, wall_order))
        deal.prevalent = prevalent
        return deal

    @classmethod
    def start_shuffled(cls, rs: RuleSet, rng: random.Random) -> Deal:
        """A deal on a wall shuffled here from `rng` (`rules.wall.Wall.shuffled`: the full
        set shuffled, then East's roll of the dice), prevalent wind East."""
        deal = cls.__new__(cls)
        deal._init(rs, Wall.shuffled(rs, rng))
        return deal

    @classmethod
    def start_dealt(
        cls,
        rs: RuleSet,
        dice: Dice,
        hands: Mapping[Seat, Sequence[Tile]] | Sequence[Sequence[Tile]],
        *,
        prevalent: Seat = Seat.E,
    ) -> Deal:
        """A deal on a table whose wall is not scanned: the dealt hands as read (East 14,
        the others 13, no tile more than four times; see `rules.wall.dealt_order`), every
        other wall position unknown. Raises `WallError` (a ValueError) on a bad hand."""
        return cls.start(rs, dice, dealt_order(rs, dice, hands), prevalent=prevalent)

    @classmethod
    def replay(
        cls,
        rs: RuleSet,
        dice: Dice,
        wall_order: Sequence[Tile | None],
        moves: Iterable[Move],
        *,
        prevalent: Seat = Seat.E,
    ) -> Deal:
        """A deal re-judged from its moves; raises ValueError naming the first bad move."""
        deal = cls.start(rs, dice, wall_order, prevalent=prevalent)
        for i, move in enumerate(moves):
            refused = deal.play(move)
            if refused is not None:
                raise ValueError(f"move {i + 1} ({move}) rejected: {refused}")
        return deal

    def _init(self, rs: RuleSet, wall: Wall) -> None:
        """A deal on `wall` (checked when built, not yet dealt), prevalent wind East."""
        self.rs = rs
        self.dice = wall.dice
        self.prevalent = Seat.E
        # highest-pattern scoring (Wellness): its payments (rules.deal_wellness) and the
        # skipped-Hu lock on the fan (001 IV 3.2)
        self._pattern_pay = rs.scoring.method is ScoringMethod.HIGHEST_PATTERN
        self._fan_lock = self._pattern_pay
        self.wall_order = order = wall.order
        self.wall = wall
        # each seat's standing counts, one byte per tile kind: `bytes(h)` (the hand tables'
        # key) is then a copy, not a conversion of 34 ints, and `4 in h` a byte search
        self._hands = hands = [bytearray(34) for _ in SEATS]
        # each seat's live suit keys (`rules.live_hand.LiveHand`, `suit_keys(hand)`), changed
        # with every count of `_hands` by the effects: "complete?" is then three look-ups.
        # Counted as dealt (a wall holds at most 4 of a tile), seat by seat: no `Seat` subscript
        self._keys = keys = [[0, 0, 0, 0] for _ in SEATS]
        plan = wall.deal_out()  # the takes themselves only when asked (`deal_takes`)
        for hand, key, dealt in zip(hands, keys, wall.dealt_by_seat(), strict=True):
            for i in dealt:
                t = order[i]
                hand[t] += 1
                key[SUIT_INDEX[t]] += UNIT[t]
        self._melds: list[list[Meld]] = [[], [], [], []]
        self._river: list[list[Tile]] = [[], [], [], []]
        self._discards: list[list[Tile]] = [[], [], [], []]
        self._void: list[Suit | None] = [None] * 4
        self._void_chosen = [not rs.play.void_suit] * 4
        self._laid: list[Tile | None] = [None] * 4
        self._out = [False] * 4
        self._out_mask = 0  # bit s: seat s is out (`_out`, as one number for look-ups)
        self._wins: list[Won] = []
        self._hu_events = 0
        self._declared_hu = 0
        self.phase = Phase.CHOOSING_VOID if rs.play.void_suit else Phase.DISCARD
        self.turn = Seat.E
        self._entry = Entry.DEALT
        self._drawn: Tile | None = order[plan[49][1]]  # East's 14th tile (004: the jump)
        self._kong_chain: list[KongRecord] = []
        self._kongs: list[KongRecord] = []
        self._window: Window | None = None
        self._window_view: tuple[Window, int, ClaimWindow] | None = None
        self._hu_lock = [0] * 4
        self._skip_hu_lock = rs.play.skip_hu_lock  # read after every claim window
        self._skip_pung_lock = rs.play.skip_pung_lock
        self._strict_void = rs.play.void_discard is VoidDiscard.STRICT  # read every discard
        self._pung_lock: list[set[Tile]] = [set(), set(), set(), set()]
        self._lines: list[LedgerLine] = []
        self._void_penalized = [False] * 4
        self._draws = [0] * 4
        self._melded_any = False
        self._end: DealEnd | None = None
        self._window_kongs: list[KongRecord] = []  # the discarder's kongs of this turn
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
    def deal_takes(self) -> tuple[Take, ...]:
        """The 53 takes of the deal in the order they happened (004 Lesson 2)."""
        return self.wall.dealt_takes()

    @property
    def tiles_left(self) -> int:
        return self.wall.tiles_left

    def hand(self, seat: Seat) -> tuple[Tile, ...]:
        """Standing tiles (the face-down void tile included until it is discarded)."""
        return tuple(chain.from_iterable(map(getitem, _COPIES, self._hands[seat])))

    def counts(self, seat: Seat) -> tuple[int, ...]:
        return tuple(self._hands[seat])

    def held(self, seat: Seat, tile: Tile) -> int:
        """How many `tile` the seat holds standing (`counts(seat)[tile]`, without the copy)."""
        return self._hands[seat][tile]

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
        # the view is kept while the window and its declarations stay the same (a window
        # only gains declarations); bots and displays ask for it several times a window
        view = self._window_view
        if view is None or view[0] is not w or view[1] != len(w.declared):
            shown = ClaimWindow(
                w.kind, w.tile, w.discarder, w.eligible, tuple(w.declared.items()), w.last
            )
            view = self._window_view = (w, len(w.declared), shown)
        return view[2]

    def wins(self, seat: Seat, tile: Tile | None = None) -> bool:
        """Whether a Hu by `seat` would be a valid win now: on `tile` (a discard or a kong's
        added tile), or without it on its own hand (self-drawn). The hand, melds and void
        only: whether the Hu may be declared now is `check`."""
        if tile is None:
            return self._self_drawn_wins(seat)
        return self._wins_with(seat, tile)

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
        handlers = _HANDLERS.get(type(move))
        if handlers is None:
            return Rejected(Reason.WRONG_PHASE, f"not a move: {move!r}", move)
        problem = handlers[0](self, move)
        if problem is not None:
            return Rejected(problem[0], problem[1], move)
        facts = handlers[1](self, move)
        self.history.append(move)
        if type(move) is not Correction:  # the handlers know the exact move classes only
            self._moves.append(move)
        return Accepted(move, tuple(facts))

    def play(self, move: Move) -> Rejected | None:
        """`apply` for a driver that reads no facts (the bots, replays): None when the move
        is accepted, else the `Rejected` value."""
        result = self.apply(move)
        return result if isinstance(result, Rejected) else None

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
        is left out unless `include_false_hu` (it is accepted, and costly), and so is a
        sequential Hu settled as a false win (000 2.2.4, `play.sequential-claim`)."""
        return deal_legal.legal_moves(self, seat, include_false_hu)

    def admissible_claims(self) -> Mapping[Seat, tuple[Move, ...]]:
        """In a claim or robbing window: the claims (not Pass) each seat that has not yet
        declared may make. Empty outside a window. Each possible chow is listed on its own
        (`Chow(seat, lowest_tile)`, lowest first)."""
        return deal_legal.admissible_claims(self)

    # -- helpers ---------------------------------------------------------------------------

    def _standing(self, seat: Seat, extra: Tile | None = None) -> list[Tile]:
        # each tile repeated as often as it is held, in tile order, without a Python loop
        # (a Hu's scoring and the skipped-Hu lock ask for it several times a deal)
        tiles = list(chain.from_iterable(map(getitem, _COPIES, self._hands[seat])))
        if extra is not None:
            tiles.append(extra)
        return tiles

    def _wins_with(self, seat: Seat, tile: Tile) -> bool:
        w = self._window
        if w is not None and tile is w.tile:
            known = w.wins[seat]
            if known is None:
                known = w.wins[seat] = self._wins_on(seat, tile)
            return known
        return self._wins_on(seat, tile)

    def _wins_on(self, seat: Seat, tile: Tile) -> bool:
        void = self._void[seat]
        if void is not None and _SUIT_OF[tile] is void:
            return False
        s, low, span = NEAR_DIGITS[tile]
        if not self._keys[seat][s] // low % span:
            # a tile with no copy and no neighbour within two ranks held stays alone: no
            # pair, pung or chow can hold it (most discards, before the table look-up)
            return False
        return self._wins_near(seat, tile)

    def _wins_near(self, seat: Seat, tile: Tile) -> bool:
        """`_wins_on` for a tile not of the seat's void suit with a copy or a neighbour
        within two ranks held (the bots' claim window tests both first)."""
        i = seat + 0  # plain ints index lists on CPython's fast path, `IntEnum`s do not
        void = self._void[i]
        keys = self._keys[i]
        # void-suit tiles still held (the suit's live key is not 0): no win (RULES.md),
        # whatever the shape
        if void is not None and keys[_KEY_INDEX[void]]:
            return False
        # the shape first (table look-ups on the live keys), the authoritative check only
        # for a complete one
        melds = self._melds[i]
        if not keys_complete_with(keys, self._hands[i], len(melds), tile + 0):
            return False
        return is_winning(self._standing(seat, tile), melds, void, self.rs)

    def _self_drawn_wins(self, seat: Seat) -> bool:
        if not keys_complete(self._keys[seat], self._hands[seat], len(self._melds[seat])):
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

    def _hu_score(self, seat: Seat, tile: Tile, events: frozenset[str]) -> Score:
        """The score of a valid Hu on `tile` (a discard or a kong's added tile)."""
        return score_hand(
            self._standing(seat, tile),
            self._melds[seat],
            tile,
            self.rs,
            situations=events,
            void=self._void[seat],
            seat_wind=seat,
            prevalent_wind=self.prevalent,
        )

    def _payment(self, seat: Seat, tile: Tile, events: frozenset[str]) -> int:
        """What a valid Hu on `tile` would be paid by the discarder (A x multiplier)."""
        score = self._hu_score(seat, tile, events)
        return score.value * score.multiplier

    def _others_in(self, seat: Seat) -> list[Seat]:
        return list(self._others_in_order(seat))

    def _others_in_order(self, seat: Seat) -> tuple[Seat, ...]:
        """The other players still in, in turn order after `seat`."""
        return OTHERS_IN[seat][self._out_mask]

    def _refund_received(self, seat: Seat, rule: str) -> None:
        for rec in self._kongs:
            if rec.seat is seat and not rec.refunded:
                rec.refunded = True
                self._lines += pay.refund(rec.lines, rule)

    def _void_held(self, seat: Seat) -> Tile | None:
        void = self._void[seat]
        if void is None:
            return None
        o = 0 if void is Suit.M else 9 if void is Suit.P else 18
        row = self._hands[seat][o : o + 9]
        if not any(row):
            return None
        return TILES[o + next(i for i, n in enumerate(row) if n)]

    def _penalize_void(self, seat: Seat, meld: bool, tile: Tile | None) -> None:
        if not self._void_penalized[seat]:
            self._void_penalized[seat] = True
            self._lines += pay.void_penalty(self.rs, seat, meld, tile)

    def _declare(
        self, seat: Seat, tile: Tile | None, from_seat: Seat | None, events: frozenset[str]
    ) -> tuple[bool, Won]:
        """Score a Hu declaration; return (valid, Won) without paying yet."""
        self_drawn = from_seat is None
        melds = self._melds[seat]
        # `is_winning` in two steps, so a valid Hu is checked once: the shape (look-ups on
        # the live keys, with the tile added for a Hu on another's tile), then score_hand's
        # own checks (NotAWin: void-suit tiles, three suits, ...); the shape goes first as
        # score_hand rejects a bad situation before the shape
        keys, counts = self._keys[seat], self._hands[seat]
        if self_drawn:
            complete = keys_complete(keys, counts, len(melds))
        else:
            assert tile is not None  # a Hu on a discard or a robbed kong names its tile
            complete = keys_complete_with(keys, counts, len(melds), tile)
        if complete:
            standing = self._standing(seat, None if self_drawn else tile)
            win = tile if tile is not None else standing[-1]
            try:
                score = score_hand(
                    standing,
                    melds,
                    win,
                    self.rs,
                    self_drawn=self_drawn,
                    situations=events,
                    void=self._void[seat],
                    seat_wind=seat,
                    prevalent_wind=self.prevalent,
                )
            except NotAWin:
                pass
            else:
                won = Won(seat, win, from_seat, False, score.value, self._hu_events + 1, score)
                return True, won
        return False, Won(seat, None, from_seat, True, 0, self._hu_events + 1)

    def _false_hu(self, seat: Seat, payees: list[Seat], why: str = "") -> None:
        """Settle a false Hu; `why`: a sequential Hu settled as one (000 2.2.4)."""
        if self._pattern_pay:
            self._lines += deal_wellness.false_win(self, seat, payees)
            return
        if why:
            self._lines += pay.false_hu(self.rs, seat, payees, why, pay.R_SEQUENTIAL)
        else:
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
            facts.append(TURN_PASSED[nxt])

    def _finish(self, end: DealEnd, facts: list[Fact]) -> None:
        self._end = end
        self.phase = Phase.OVER
        self._window = None
        facts.append(DealOver(end))
        deal_end.settle(self, end)


_HANDLERS = {kind: (CHECKS[kind], EFFECTS[kind]) for kind in CHECKS}
_SUIT_OF: tuple[Suit, ...] = tuple(t.suit for t in TILES)
# `_COPIES[t][n]` is `(TILES[t],) * n` (a hand stands at most 14 tiles): held tiles by
# look-ups, where `itertools.repeat` is a class call per tile
_COPIES = tuple(tuple((t,) * n for n in range(15)) for t in TILES)
# the index of each number suit's live key (`rules.live_hand.SUIT_INDEX`)
_KEY_INDEX: dict[Suit, int] = {Suit.M: 0, Suit.P: 1, Suit.S: 2}
