"""Seeded bots that play legal (not good) moves, and the driver that plays a deal.

A bot is a policy over the judge's public view: `Bot.choose(deal, seat)` returns the move
that seat makes now, or None when it has nothing to do (not its turn, or it stays silent in
a claim window). `BotTable` adds the controller's part: it asks the seats in order, gives
every move a time `t` on a simulated clock, and closes a claim window (`CloseClaims`) when
its `claim_seconds` run out with nobody left to speak. `play_deal(rs, seed)` plays one whole
deal and returns the judged `Deal` and its `DealRecord`.

Everything random comes from one `random.Random(seed)`, so a seed is a deal. The bots aim
to reach every rule, not to win well (issue 3 item 8): void tiles go first, but sometimes
a breach in `lenient` mode (priced by the 48-point penalty, 004 Lesson 2); every kong kind is
declared when it can be; a winning discard is now and then let go (to reach the skipped-Hu
lock, 004 Lesson 4); rarely a false Hu; rarely a referee retrieves a discard (a
`Correction`, 000 3.6.A) or hands out a penalty. Under a rule set with `play.chow_claims`
(Wellness) the next player sometimes chows; without `play.void_suit` nobody chooses a void.
Every random draw a Wellness choice adds is made only under such a rule set, so the Sichuan
bots' streams (and deals) are what they were.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import compress

from rules.bot_discards import honours_held, keep_score, loneliest_in_suit, loneliest_live
from rules.claims import ClaimWindow, Window, WindowKind
from rules.deal import _PLAY_HANDLERS, NEAR_DIGITS, Deal, Phase
from rules.deal_checks import sequential
from rules.live_hand import keys_complete
from rules.melds import Meld, MeldKind
from rules.moves import (
    ChooseVoid,
    Chow,
    Correction,
    Draw,
    Hu,
    Kong,
    Move,
    Pass,
    Penalty,
    Pung,
    Rejected,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
    new_close_claims,
    new_discard,
    new_draw,
)
from rules.quick import builder
from rules.record import DealRecord, to_record
from rules.ruleset import RuleSet, VoidDiscard
from rules.seats import SEATS, Seat
from rules.tiles import TILES, Suit, Tile

# Enum members read on every move, as module constants: `Phase.DRAW` is looked up
# through the Enum class (about 0.1 us in CPython 3.11), a module constant is not
_CONCEALED_KONG = MeldKind.CONCEALED_KONG
_KONG = MeldKind.KONG
_POSTPONED_KONG = MeldKind.POSTPONED_KONG
_PROMOTED_KONG = MeldKind.PROMOTED_KONG
_PUNG = MeldKind.PUNG
_CHOOSING_VOID = Phase.CHOOSING_VOID
_CLAIMS = Phase.CLAIMS
_DISCARD = Phase.DISCARD
_DRAW = Phase.DRAW
_OVER = Phase.OVER
_REPLACEMENT = Phase.REPLACEMENT
_ROBBING = Phase.ROBBING
_WINDOW_DISCARD = WindowKind.DISCARD
_WINDOW_ROBBING = WindowKind.ROBBING


@dataclass(frozen=True, slots=True)
class Style:
    """How often a bot takes each kind of chance (probabilities, 0-1)."""

    hu: float = 0.93  # declare a winning discard (else let it go: the skipped-Hu lock)
    self_drawn_hu: float = 0.97
    pung: float = 0.6
    chow: float = 0.35  # rule sets with chow claims: the next player chows a possible chow
    melded_kong: float = 0.8
    own_kong: float = 0.85  # concealed / promoted / postponed
    explicit_pass: float = 0.04  # say Pass instead of staying silent
    false_hu: float = 0.0006  # per turn and per window: declare Hu without a winning hand
    void_breach: float = 0.04  # lenient mode: discard another suit while void tiles are held
    random_discard: float = 0.08  # forget the heuristic
    retrieve_discard: float = 0.0005  # the referee takes a discard back (Correction)
    referee_penalty: float = 0.001  # per turn: a referee penalty on a player still in
    thinking: tuple[float, float] = (0.4, 2.5)  # seconds per own move


DEFAULT_STYLE = Style()


class Bot:
    """One seat's policy; all bots of a table may share one `random.Random`."""

    __slots__ = ("rng", "style")

    def __init__(self, rng: random.Random, style: Style = DEFAULT_STYLE) -> None:
        self.rng = rng
        self.style = style

    def choose(self, deal: Deal, seat: Seat, t: float | None = None) -> Move | None:
        """The move `seat` makes now (stamped with time `t`), or None (nothing to do, or
        silent in a claim window)."""
        phase = deal.phase
        if phase is _OVER or deal.is_out(seat):
            return None
        if phase is _CHOOSING_VOID:
            return None if deal.void(seat) is not None else self._void(deal, seat, t)
        if phase is _CLAIMS or phase is _ROBBING:
            window = deal.window
            return None if window is None else self.claim(deal, seat, window, t)
        if seat is not deal.turn:
            return None
        if phase is _DRAW:
            return Draw(seat, deal.wall.peek(), t=t)
        if phase is _REPLACEMENT:
            return ReplacementDraw(seat, deal.wall.peek_replacement(), t=t)
        return self._turn(deal, seat, t)

    def _void(self, deal: Deal, seat: Seat, t: float | None) -> ChooseVoid:
        """004 Lesson 2: usually the shortest suit; the tile laid is its loneliest tile."""
        rng = self.rng
        counts = deal._hands[seat]  # the judge's own counts, only read
        suits = deal.rs.tiles.set.suits
        if rng.random() < 0.1:
            suit = rng.choice(suits)
        else:
            # the held count of each suit, ties broken at random (one draw per suit, in
            # order): the first suit with the lowest (count, draw)
            suit, low = suits[0], None
            for s in suits:
                o = _OFFSET[s]
                key = (sum(counts[o : o + 9]), rng.random())
                if low is None or key < low:
                    suit, low = s, key
        if suit is not _Z:
            # the first of the suit's held tiles with the lowest `keep_score`, looked up
            lonely = loneliest_in_suit(counts, _OFFSET[suit])
            return _new_void(seat, suit, None if lonely is None else TILES[lonely], t)
        held = [x for x in suit.tiles if counts[x]]
        if not held:
            return ChooseVoid(seat, suit, t=t)
        return ChooseVoid(seat, suit, min(held, key=lambda x: keep_score(counts, x)), t=t)

    def claim(
        self, deal: Deal, seat: Seat, window: ClaimWindow, t: float | None = None
    ) -> Move | None:
        """A declaration in the open claim (or robbing) window, or None (silence)."""
        if seat not in window.eligible or (
            window.declared and any(s is seat for s, _ in window.declared)
        ):
            return None
        return self._claim(deal, seat, window.tile, window.kind is _WINDOW_ROBBING, t)

    def _claim(
        self, deal: Deal, seat: Seat, tile: Tile, robbing: bool, t: float | None
    ) -> Move | None:
        """`claim` for a seat eligible and silent so far. `BotTable` calls it straight
        (three times a discard, the bots' hottest path): it reads the judge's hand counts
        and void suits without copying them."""
        void = deal._void[seat]
        if void is not None and _SUIT[tile] is void:
            return None  # 002: no claim on one's void suit, not even a false Hu
        rng, style = self.rng, self.style
        r = rng.random()
        # the moves `deal.legal_moves(seat)` would list, asked for one by one; a discarded
        # tile that wins is always a wait (the hand cannot hold its four copies)
        if deal._wins_with(seat, tile):
            hu = _new_rob_kong(seat, None) if robbing else _new_hu(seat, None)
            # a sequential Hu accepted as a false win (000 2.2.4) is not a win to take
            if deal.check(hu) is None and not sequential(deal, hu):
                return _stamp(hu, t) if r < style.hu else _new_pass(seat, t)
        held = deal._hands[seat][tile]
        if held >= 2 and not robbing:
            kong = held == 3 and r < style.melded_kong
            if kong or r < style.pung:
                m = Kong(seat, _KONG, tile) if kong else _new_pung(seat, None)
                if deal.check(m) is None and not sequential(deal, m):
                    return _stamp(m, t)
        if deal.rs.play.chow_claims and not robbing and _CHOW_STARTS[tile]:
            w = deal._window
            if w is not None and seat is w.eligible[0]:  # the next player (001 IV 4.2)
                hand = deal._hands[seat]
                chows = [
                    Chow(seat, low, t=t)
                    for low in _CHOW_STARTS[tile]
                    if all(x == tile or hand[x] for x in _CHOW_TILES[low])
                ]
                chows = [c for c in chows if deal.check(c) is None]
                if chows and rng.random() < style.chow:
                    return rng.choice(chows)
        r = rng.random()
        if r < style.false_hu:
            return _new_rob_kong(seat, t) if robbing else _new_hu(seat, t)
        if r < style.false_hu + style.explicit_pass:
            return _new_pass(seat, t)
        return None

    def _turn(self, deal: Deal, seat: Seat, t: float | None) -> Move:
        rng, style = self.rng, self.style
        # the judge's own counts (a bytearray) and melds, read without copying
        # (`deal.counts(seat)` and `deal.melds(seat)` copy them): a bot only reads them
        counts = deal._hands[seat]
        melds = deal._melds[seat]
        if keys_complete(deal._keys[seat], counts, len(melds)):
            if (
                rng.random() < style.self_drawn_hu
                and deal.wins(seat)
                and deal.check(SelfDrawnHu(seat)) is None
            ):
                return SelfDrawnHu(seat, t=t)
        elif rng.random() < style.false_hu and deal.check(SelfDrawnHu(seat)) is None:
            return SelfDrawnHu(seat, t=t)  # accepted, and settled as a false Hu (004 Lesson 5)
        if deal.wall.tiles_left and (4 in counts or (melds and _pung_to_add(counts, melds))):
            kong = self._own_kong(deal, seat, counts, melds)
            if kong is not None:
                return _stamp(kong, t)
        return new_discard(seat, self._discard(deal, seat, counts), t)

    def _own_kong(
        self, deal: Deal, seat: Seat, counts: Sequence[int], melds: Sequence[Meld]
    ) -> Kong | None:
        """A kong of this turn (the hand holds four of a tile, or the 4th of a pung)."""
        if self.rng.random() >= self.style.own_kong:
            return None
        # the kongs of `deal.legal_moves(seat)`, in its order
        kongs = [Kong(seat, _CONCEALED_KONG, TILES[i]) for i in _INDICES if counts[i] == 4]
        for m in melds:
            if m.kind is _PUNG and counts[m.tile]:
                kongs.append(Kong(seat, _PROMOTED_KONG, m.tile))
                kongs.append(Kong(seat, _POSTPONED_KONG, m.tile))
        # the 4th tile freshly drawn makes a promoted kong, else a postponed one (004 Table 7)
        drawn = deal.drawn
        kongs = [
            k
            for k in kongs
            if (k.kind is not _POSTPONED_KONG or k.tile != drawn) and deal.check(k) is None
        ]
        return self.rng.choice(kongs) if kongs else None

    def _discard(self, deal: Deal, seat: Seat, counts: Sequence[int]) -> Tile:
        laid = deal._laid[seat]
        if laid is not None:
            return laid  # the face-down void tile is the mandatory first discard
        rng, style = self.rng, self.style
        void = deal._void[seat]
        # void-suit tiles held: the suit's live key is not 0
        if void is not None and deal._keys[seat][0 if void is _M else 1 if void is _P else 2]:
            offset = 0 if void is _M else 9 if void is _P else 18
            row = counts[offset : offset + 9]
            if deal.rs.play.void_discard is VoidDiscard.STRICT or rng.random() >= style.void_breach:
                held = list(compress(range(offset, offset + 9), row))
                return TILES[held[rng._randbelow(len(held))]]
        # `rng.choice(seq)` is `seq[rng._randbelow(len(seq))]` for a sequence that is not
        # empty (the same draw); written out on the discard of every turn, one call less
        if rng.random() < style.random_discard:
            held = list(compress(_INDICES, counts))
            return TILES[held[rng._randbelow(len(held))]]
        lonely = loneliest_live(deal._keys[seat], counts) or honours_held(counts)
        return TILES[lonely[rng._randbelow(len(lonely))]]


def _pung_to_add(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """Whether the hand holds the 4th tile of one of its pungs."""
    for m in melds:  # noqa: SIM110 - a plain loop: a generator costs more on every turn
        if m.kind is _PUNG and counts[m.tile]:
            return True
    return False


def _stamp(move: Move, t: float | None) -> Move:
    """The same move stamped with time `t` (moves from `legal_moves` carry none)."""
    if t is None:
        return move
    quick = _STAMPED.get(type(move))
    if quick is not None:  # a claim: rebuilt directly (`dataclasses.replace` costs ~2 us)
        return quick(move.seat, t)  # type: ignore[union-attr]
    return replace(move, t=t)


# quick constructors (`rules.quick`) of the claims made in every window, (seat, t)
_new_hu, _new_pass, _new_pung, _new_rob_kong = map(builder, (Hu, Pass, Pung, RobKong))
_STAMPED = {kind: builder(kind) for kind in (Hu, Pung, Pass, RobKong, SelfDrawnHu)}
_new_void = builder(ChooseVoid)  # `ChooseVoid(seat, suit, tile, t=t)`


def _tenth(x: float) -> float:
    """`round(x, 1)`, the bots' clock resolution, without its decimal-string round trip
    (about 0.25 us in CPython 3.11, three times a turn). `round(y)` of `y = 10 * x` is the
    nearest whole number to the exact 10x unless `y`, rounded by the product, lies within
    an ulp of a half; those (and exact halves, round-half-even) take `round(x, 1)` itself.
    `k / 10` is then the double nearest k/10, as `round` returns."""
    y = x * 10.0
    k = round(y)
    d = y - k
    return k / 10 if -0.4999 < d < 0.4999 else round(x, 1)


# the offset of each tile's suit, and the neighbours of each number tile in its suit with
# their weight for `_keep_score`
_SUIT: tuple[Suit, ...] = tuple(t.suit for t in TILES)
_OFFSET: dict[Suit, int] = {s: s.offset for s in Suit}
_M, _P, _Z = Suit.M, Suit.P, Suit.Z
_INDICES = range(len(TILES))
_NO_HONOURS = bytes(7)
# the lowest tiles of the chows holding each tile (as rules.deal lists them)
_CHOW_STARTS: tuple[tuple[Tile, ...], ...] = tuple(
    () if t.is_honour else tuple(TILES[t - d] for d in (2, 1, 0) if 1 <= t.rank - d <= 7)
    for t in TILES
)
_CHOW_TILES: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(TILES[i] for i in range(t, t + 3)) if not t.is_honour and t.rank <= 7 else ()
    for t in TILES
)
# -- the controller's part: turns, claim windows, the clock ------------------------------


class BotError(RuntimeError):
    """The judge refused a bot's move: a bug in the bot or in the judge."""


class BotTable:
    """Four bots, the claim clock and a simulated time line for one deal.

    `next_move(deal)` says what happens next (a bot's move, or `CloseClaims` when the claim
    window's clock ran out); the caller applies it, then asks again. Times grow
    monotonically: own moves take `Style.thinking` seconds, declarations arrive inside the
    window in seat order, `CloseClaims` comes `claim_seconds` after the discard (004
    Lesson 4: 3 seconds) unless every eligible player has declared before.
    """

    __slots__ = (
        "_claim_seconds",
        "_closes_at",
        "_done",
        "_false_hu",
        "_fast",
        "_penalty",
        "_plain",
        "_quiet",
        "_retrieve",
        "_think_lo",
        "_think_span",
        "_window",
        "bots",
        "now",
        "rng",
        "rs",
        "style",
    )

    def __init__(
        self,
        rs: RuleSet,
        rng: random.Random,
        style: Style = DEFAULT_STYLE,
        bots: tuple[Bot, ...] = (),
    ) -> None:
        self.rs = rs
        self.rng = rng
        self.style = style
        self.bots = bots or tuple(Bot(rng, style) for _ in SEATS)
        self.now = 0.0
        self._window: Window | None = None  # the judge's window the seats are asked in
        self._done = 0  # the open window's eligible seats asked so far (they are asked in order)
        self._closes_at = 0.0
        self._claim_seconds = rs.play.claim_seconds
        lo, hi = style.thinking
        self._think_lo, self._think_span = lo, hi - lo  # `_tick` computes `hi - lo` alike
        # the style's chances read in every window, once
        self._penalty = style.referee_penalty
        self._retrieve = style.retrieve_discard
        self._false_hu = style.false_hu
        self._quiet = style.false_hu + style.explicit_pass  # `Bot._claim`'s second test
        # all four seats plain `Bot`s: the claim window asks them without `claim`'s checks
        self._plain = all(type(b) is Bot for b in self.bots)
        # ... sharing the table's generator and style, without chows: a silent seat's two
        # draws are made in the window loop itself (`Bot._claim`'s first and last draws)
        self._fast = (
            self._plain
            and all(b.rng is rng and b.style is style for b in self.bots)
            and not rs.play.chow_claims
        )

    def _tick(self, lo: float, hi: float) -> float:
        self.now = _tenth(self.now + lo + (hi - lo) * self.rng.random())
        return self.now

    def _penalised(self, seat: Seat) -> Penalty:
        """The penalty a seat on turn takes instead of its move (`Style.referee_penalty`)."""
        t = self._tick(1.0, 5.0)
        etiquette = self.rs.payments.etiquette_penalty
        if etiquette:  # 001 III 3.4, IV 4.3: after the warning, points to nobody
            return Penalty(seat, etiquette, "etiquette: wrong tile announced", t=t)
        # a referee's yellow card (000 3.6), paid to nobody
        return Penalty(seat, 4, "yellow card: declared without the physical action", t=t)

    def next_move(self, deal: Deal) -> Move:
        """The next move to offer the judge; the deal must not be over."""
        phase = deal.phase
        # the phases by how often they come: a discard, a claim window, a draw
        if phase is _DISCARD:
            seat = deal.turn
            if self.rng.random() < self._penalty:
                return self._penalised(seat)
            bot = self.bots[seat]
            # `self._tick(*self.style.thinking)`, inlined on the two moves of every turn
            t = self.now = _tenth(self.now + self._think_lo + self._think_span * self.rng.random())
            if type(bot) is Bot:
                return bot._turn(deal, seat, t)  # what `choose` comes to for the seat on turn
            move = bot.choose(deal, seat, t)
        elif phase is _CLAIMS or phase is _ROBBING:
            return self._window_move(deal)
        elif phase is _DRAW:
            t = self.now = _tenth(self.now + self._think_lo + self._think_span * self.rng.random())
            return new_draw(deal.turn, deal.wall.peek(), t)
        elif phase is _CHOOSING_VOID:
            t = self._tick(0.2, 1.5)
            if self._plain:
                # what `choose` comes to for plain bots: the first seat with no void yet
                # (nobody is out before play starts)
                voids = deal._void
                for seat in SEATS:
                    if voids[seat] is None:
                        return self.bots[seat]._void(deal, seat, t)
            for seat in SEATS:
                move = self.bots[seat].choose(deal, seat, t)
                if move is not None:
                    return move
            raise BotError("no seat has a void suit to choose")  # pragma: no cover
        else:
            seat = deal.turn
            move = self.bots[seat].choose(deal, seat, self._tick(*self.style.thinking))
        if move is None:  # pragma: no cover - a bot on turn always moves
            raise BotError(f"the bot on turn ({deal.turn}) made no move in {phase.value}")
        return move

    def _window_move(self, deal: Deal) -> Move:
        # the judge's own window, not its public view (`deal.window` builds a ClaimWindow):
        # a claim window follows every discard
        window = deal._window
        assert window is not None
        if window is not self._window:
            # a new window: it opened with the last move, a discard or a kong that can be
            # robbed (the table holds the old window, so a new one is never the same object)
            self._window = window
            self._done = 0
            self._closes_at = self.now + self._claim_seconds
            if window.kind is _WINDOW_DISCARD and self.rng.random() < self._retrieve:
                # 000 3.6.A: a discard retrieved at once; the referee takes it back
                return Correction(1, "discard retrieved", t=self._tick(0.1, 0.5))
        bots, declared, done = self.bots, window.declared, self._done
        # the seats not asked yet, in order (a window is asked again after a declaration)
        seats = window.eligible[done:] if done else window.eligible
        tile, robbing = window.tile, window.kind is _WINDOW_ROBBING
        move: Move | None = None
        if self._fast:
            # `Bot._claim`'s common case inlined (three seats a discard): a seat that cannot
            # win on the tile (the judge's `_wins_on`, kept in the window's `wins` as the
            # judge would) nor pung it draws its two numbers and says nothing or Pass, or
            # rarely a false Hu; the same draws in the same order as `_claim`
            hands, voids, wins, suit = deal._hands, deal._void, window.wins, _SUIT[tile]
            keys = deal._keys
            si, low, span = NEAR_DIGITS[tile]
            random = self.rng.random
            false_hu, quiet = self._false_hu, self._quiet
            for seat in seats:
                done += 1
                if declared and seat in declared:
                    continue  # `Bot.claim`: a seat speaks once
                if voids[seat] is suit:
                    continue  # 002: no claim on one's void suit, not even a false Hu
                h = hands[seat]
                known = wins[seat]
                if known is None:
                    # a tile with no copy and no neighbour within two ranks held (none in
                    # the seat's live suit key) never wins
                    known = wins[seat] = keys[seat][si] // low % span != 0 and deal._wins_on(
                        seat, tile
                    )
                if known or (h[tile] >= 2 and not robbing):
                    move = bots[seat]._claim(deal, seat, tile, robbing, None)
                    if move is not None:
                        break
                    continue
                random()  # `_claim`'s first draw: nothing to declare with it
                r = random()
                if r < quiet:
                    if r < false_hu:
                        move = _new_rob_kong(seat, None) if robbing else _new_hu(seat, None)
                    else:
                        move = _new_pass(seat, None)
                    break
        else:
            plain = self._plain
            for seat in seats:
                done += 1
                if plain and (not declared or seat not in declared):
                    move = bots[seat]._claim(deal, seat, tile, robbing, None)
                else:
                    move = bots[seat].claim(deal, seat, deal.window)  # type: ignore[arg-type]
                if move is not None:
                    break
        self._done = done
        if move is not None:
            t = min(_tenth(self.now + self.rng.uniform(0.1, 0.8)), self._closes_at - 0.1)
            self.now = max(self.now, t)
            return _stamp(move, self.now)
        # `_tenth(max(self.now, self._closes_at))` written out: most windows close silent
        x = self._closes_at if self._closes_at > self.now else self.now
        y = x * 10.0
        k = round(y)
        d = y - k
        self.now = k / 10 if -0.4999 < d < 0.4999 else round(x, 1)
        return new_close_claims(self.now)


def new_deal(rs: RuleSet, rng: random.Random) -> Deal:
    """A shuffled wall and East's roll of the dice (`rules.wall.Wall.shuffled`)."""
    return Deal.start_shuffled(rs, rng)


def play_deal(
    rs: RuleSet, seed: int, style: Style = DEFAULT_STYLE, players: tuple[str | None, ...] = ()
) -> tuple[Deal, DealRecord]:
    """Play one deal with four seeded bots to its end; the judged deal and its record."""
    rng = random.Random(seed)
    deal = new_deal(rs, rng)
    table = BotTable(rs, rng, style)
    over, draw, claims, discard = _OVER, _DRAW, _CLAIMS, _DISCARD
    handlers, correction = _PLAY_HANDLERS, Correction
    next_move, window_move, play = table.next_move, table._window_move, deal.play
    rand, lo, span, penalty = rng.random, table._think_lo, table._think_span, table._penalty
    bots = table.bots  # four plain `Bot`s (`BotTable` made them): `_turn` is their `choose`
    # the deal's two move lists (a correction replaces the effective moves' list)
    history, effective = deal.history.append, deal._moves.append
    while True:
        # `next_move` written out for the three moves of every turn (the draw, the discard
        # and its claim window; the loop's phase test picks them, one call less a move):
        # the same random draws in the same order
        phase = deal.phase
        if phase is claims:
            move = window_move(deal)
        elif phase is draw or phase is discard:
            seat = deal.turn
            if phase is discard and rand() < penalty:
                move = table._penalised(seat)
            else:
                # the seat's thinking time, `_tenth(x)` written out
                x = table.now + lo + span * rand()
                y = x * 10.0
                k = round(y)
                d = y - k
                t = table.now = k / 10 if -0.4999 < d < 0.4999 else round(x, 1)
                if phase is draw:
                    move = new_draw(seat, deal.wall.peek(), t)
                else:
                    move = bots[seat]._turn(deal, seat, t)
        elif phase is over:
            break
        else:
            move = next_move(deal)
        kind = type(move)
        if kind is correction:
            refused = play(move)  # a correction replays the deal (its state is replaced)
            if refused is not None:  # pragma: no cover - a bug in the bots or the judge
                raise BotError(f"seed {seed}: the judge refused {move}: {refused}")
            history, effective = deal.history.append, deal._moves.append
            continue
        # `deal.play(move)` written out, one call less a move: the judge's own check and
        # effect for the move's kind, then the move joins the deal's history
        check, effect = handlers[kind]
        problem = check(deal, move)
        if problem is not None:  # pragma: no cover - a bug in the bots or the judge
            refused = Rejected(problem[0], problem[1], move)
            raise BotError(f"seed {seed}: the judge refused {move}: {refused}")
        effect(deal, move)
        history(move)
        effective(move)
    return deal, to_record(deal, players)
