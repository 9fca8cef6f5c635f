"""Seeded bots that play legal (not good) moves, and the driver that plays a deal.

A bot is a policy over the judge's public view: `Bot.choose(deal, seat)` returns the move
that seat makes now, or None when it has nothing to do (not its turn, or it stays silent in
a claim window). `BotTable` adds the controller's part: it asks the seats in order, gives
every move a time `t` on a simulated clock, and closes a claim window (`CloseClaims`) when
its `claim_seconds` run out with nobody left to speak. `play_deal(rs, seed)` plays one whole
deal and returns the judged `Deal` and its `DealRecord`. The policy (`Bot`, `Style`) is
rules.bot_policy's, re-exported here.

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
import threading
from collections.abc import Callable
from math import floor as _floor
from typing import NoReturn

from rules.bot_policy import (
    DEFAULT_STYLE,
    SUIT_OF,
    Bot,
    Style,
    new_hu,
    new_pass,
    new_rob_kong,
    stamp,
)
from rules.claims import Window, WindowKind
from rules.deal import _PLAY_HANDLERS, Deal, Phase
from rules.deal_effects import OTHERS_IN
from rules.deal_play import draw_live, play_close, play_discard, play_draw
from rules.live_hand import NEAR_DIGITS, UNIT, shape_tables
from rules.moves import (
    CloseClaims,
    Correction,
    Discard,
    Move,
    Penalty,
    Reason,
    Rejected,
    new_close_claims,
    new_draw,
)
from rules.record import DealRecord, to_record
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat
from rules.tiles import TILES, Suit
from rules.wall import Wall

__all__ = ["DEFAULT_STYLE", "Bot", "BotError", "BotTable", "Style", "new_deal", "play_deal"]

# Enum members read on every move, as module constants: `Phase.DRAW` is looked up
# through the Enum class (about 0.1 us in CPython 3.11), a module constant is not
_CHOOSING_VOID = Phase.CHOOSING_VOID
_CLAIMS = Phase.CLAIMS
_DISCARD = Phase.DISCARD
_DRAW = Phase.DRAW
_OVER = Phase.OVER
_ROBBING = Phase.ROBBING
_WINDOW_DISCARD = WindowKind.DISCARD
_WINDOW_ROBBING = WindowKind.ROBBING


def _tenth(x: float) -> float:
    """`round(x, 1)`, the bots' clock resolution, without its decimal-string round trip
    (about 0.25 us in CPython 3.11, three times a turn). `round(y)` of `y = 10 * x` is the
    nearest whole number to the exact 10x unless `y`, rounded by the product, lies within
    an ulp of a half; those (and exact halves, round-half-even) take `round(x, 1)` itself.
    `k / 10` is then the double nearest k/10, as `round` returns. `d * d < 0.2499` is
    |d| < 0.4999 (well inside a half) in one comparison. `k` is `floor(y + 0.5)`, which is
    `round(y)` whenever |y - round(y)| < 0.4999, the only `k` used (and half the cost)."""
    y = x * 10.0
    k = _floor(y + 0.5)
    d = y - k
    return k / 10 if d * d < 0.2499 else round(x, 1)


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
        if bots:
            self.bots = bots
            self._plain = all(type(b) is Bot for b in bots)
            same = all(b.rng is rng and b.style is style for b in bots)
        else:  # a table of its own (every deal of `play_deal`): four plain bots, no generators
            self.bots = (Bot(rng, style), Bot(rng, style), Bot(rng, style), Bot(rng, style))
            self._plain = same = True
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
        # `_plain`: all four seats plain `Bot`s, the claim window asks them without
        # `claim`'s checks; `_fast`: ... sharing the table's generator and style (`same`),
        # without chows: a silent seat's two draws are made in the window loop itself
        # (`Bot._claim`'s first and last draws)
        self._fast = self._plain and same and not rs.play.chow_claims

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
            hands, voids, wins, suit = deal._hands, deal._void, window.wins, SUIT_OF[tile]
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
                        move = new_rob_kong(seat, None) if robbing else new_hu(seat, None)
                    else:
                        move = new_pass(seat, None)
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
            return stamp(move, self.now)
        # `_tenth(max(self.now, self._closes_at))` written out: most windows close silent
        x = self._closes_at if self._closes_at > self.now else self.now
        y = x * 10.0
        k = _floor(y + 0.5)
        d = y - k
        self.now = k / 10 if d * d < 0.2499 else round(x, 1)
        return new_close_claims(self.now)


# each tuple of eligible seats (`rules.deal_effects.OTHERS_IN`'s) as plain ints
_PLAIN: dict[tuple[Seat, ...], tuple[int, ...]] = {
    seats: tuple(s + 0 for s in seats) for row in OTHERS_IN for seats in row
}


# per tile, what the claim window reads of it: itself as a plain int, its suit, and its
# `NEAR_DIGITS` (its suit key's index and the place values of it and its neighbours)
_AT_TILE: tuple[tuple[int, Suit, int, int, int, int], ...] = tuple(
    (t + 0, SUIT_OF[t], *NEAR_DIGITS[t], UNIT[t]) for t in TILES
)
# the live key holding a void suit's tiles (`Deal._wins_near`'s first refusal)
_VOID_KEY: dict[Suit, int] = {Suit.M: 0, Suit.P: 1, Suit.S: 2}
# an unknown clock in tenths: far below any sum with a known one
_UNKNOWN = -(10**9)

# `CloseClaims(t=k / 10)` at index k: a frozen value, so every deal's silent windows closing
# at the same tenth share one (a deal closes some 58 windows, at times that recur from deal
# to deal), made as the clock first reaches them and kept up to `_CLOSES_KEPT` tenths
_CLOSES: list[CloseClaims] = []
_CLOSES_KEPT = 12_000  # 20 minutes; a bot deal lasts some 6-8
_CLOSES_FILLING = threading.Lock()


def _close_at(tenths: int) -> CloseClaims:
    """`CloseClaims(t=tenths / 10)`, from `_CLOSES` (filled up to it) while it keeps it;
    filled under a lock (simulator threads play deals too: `_CLOSES[k]` must be k's)."""
    if tenths >= _CLOSES_KEPT:
        return new_close_claims(tenths / 10)
    with _CLOSES_FILLING:
        while len(_CLOSES) <= tenths:
            _CLOSES.append(new_close_claims(len(_CLOSES) / 10))
    return _CLOSES[tenths]


def new_deal(rs: RuleSet, rng: random.Random) -> Deal:
    """A shuffled wall and East's roll of the dice (`rules.wall.Wall.shuffled`)."""
    return Deal.start_shuffled(rs, rng)


def play_deal(
    rs: RuleSet, seed: int, style: Style = DEFAULT_STYLE, players: tuple[str | None, ...] = ()
) -> tuple[Deal, DealRecord]:
    """Play one deal with four seeded bots to its end; the judged deal and its record.

    `BotTable.next_move` and `Deal.play` written out for the three moves of every turn (the
    draw, the discard and its claim window): the same random draws in the same order give
    the same moves, and each is checked and applied by the judge before the next is chosen
    (the draw, the discard and a silent close by `rules.deal_play`, any other move by its
    kind's check and effect) (tests/rules/test_speed_paths.py,
    tests/tools/test_bench_judge.py). A claim window of a table of plain bots is asked and,
    when nobody speaks, closed here (`BotTable._window_move`'s fast case); a played draw
    leads straight to the discard, a played discard to its window."""
    rng = random.Random(seed)
    deal = new_deal(rs, rng)
    table = BotTable(rs, rng, style)
    handlers = _PLAY_HANDLERS
    next_move, window_move = table.next_move, table._window_move
    rand, lo, span, penalty = rng.random, table._think_lo, table._think_span, table._penalty
    retrieve, claim_seconds = table._retrieve, table._claim_seconds
    false_hu, quiet, fast = table._false_hu, table._quiet, table._fast
    bots = table.bots  # four plain `Bot`s (`BotTable` made them): `_turn` is their `choose`
    wall = deal.wall
    # the deal's two move lists (a correction replaces the effective moves' list)
    history, effective = deal.history.append, deal._moves.append
    # the judge's hand counts, void suits and live keys, read by the claim window (only a
    # correction's replay replaces these lists)
    hands, voids, keys, melds = deal._hands, deal._void, deal._keys, deal._melds
    # what `keys_complete_with` looks up, for the window's win test written out
    numbers, honours, targets = shape_tables()
    window: Window | None = None  # the claim window asked here (`BotTable._window`)
    done = 0  # its eligible seats asked so far (`BotTable._done`)
    closes_at = 0.0  # when its clock runs out (`BotTable._closes_at`)
    tenths = shut = _UNKNOWN  # the clock after the last discard, and at the close, in tenths
    closes = _CLOSES
    # `claim_seconds` in whole tenths (`_UNKNOWN` if it is not: the close is then computed)
    claim_tenths = round(claim_seconds * 10)
    if abs(claim_seconds * 10 - claim_tenths) > 1e-9:
        claim_tenths = _UNKNOWN
    move: Move | None
    now = 0.0  # the table's clock (`BotTable.now`), handed to the table around its calls
    while True:
        phase = deal.phase
        move = None
        if phase is _DRAW:
            # the seat's thinking time (`_tenth(x)` written out) and its draw, played
            x = now + lo + span * rand()
            y = x * 10.0
            k = _floor(y + 0.5)
            d = y - k
            now = k / 10 if d * d < 0.2499 else round(x, 1)
            move = draw_live(deal, now)  # the usual draw, made and played at once
            if move is None:  # pragma: no cover - a bot deal's wall is known to its end
                move = new_draw(deal.turn, wall.peek(), now)
                problem = play_draw(deal, move)  # the judge's check, then its effect
                if problem is not None:
                    _refused(seed, move, problem)
            history(move)
            effective(move)
            move = None
            phase = _DISCARD  # where a draw leaves the turn (`Phase.DISCARD`)
        if phase is _DISCARD:
            seat = deal.turn
            if rand() < penalty:
                table.now = now
                move = table._penalised(seat)
                now = table.now
            else:
                x = now + lo + span * rand()
                y = x * 10.0
                k = _floor(y + 0.5)
                d = y - k
                if d * d < 0.2499:
                    now = k / 10
                    tenths = k  # the clock in tenths, for the window's close
                else:
                    now = round(x, 1)
                    tenths = _UNKNOWN
                move = bots[seat]._turn(deal, seat, now)
                if type(move) is Discard:
                    problem = play_discard(deal, move)  # the judge's check, then its effect
                    if problem is not None:  # pragma: no cover - a bug in the bots or the judge
                        _refused(seed, move, problem)
                    history(move)
                    effective(move)
                    move = None
                    phase = _CLAIMS  # where a discard leaves the turn (its claim window)
        if move is None:
            if phase is _CLAIMS and fast:
                # `BotTable._window_move` written out (see there): a new window, its seats
                # asked in order, and most often its close, played at once
                w = deal._window
                assert w is not None
                if w is not window:
                    # a claim window (`Phase.CLAIMS`) follows a discard (a robbing window
                    # has `Phase.ROBBING`, asked through `next_move`)
                    assert w.kind is _WINDOW_DISCARD
                    window, done = w, 0
                    closes_at = now + claim_seconds
                    # a silent close comes at `_tenth(closes_at)`; with the clock at k
                    # tenths (the discard just made set it), that is k + claim_tenths
                    # tenths exactly (tests/rules/test_bots.py); below 0 (either is
                    # `_UNKNOWN`): compute it
                    shut = tenths + claim_tenths
                    if rand() < retrieve:
                        table.now = now
                        move = Correction(1, "discard retrieved", t=table._tick(0.1, 0.5))
                        now = table.now
                        deal, wall, history, effective = _correct(deal, move, seed)
                        hands, voids, keys = deal._hands, deal._void, deal._keys
                        melds = deal._melds
                        continue
                declared, tile, wins = w.declared, w.tile, w.wins
                # the eligible seats as plain ints (list subscripts on CPython's fast path,
                # where a `Seat`, an `IntEnum`, is not), those not asked yet
                seats = _PLAIN[w.eligible]
                if done:
                    seats = seats[done:]
                # the tile as a plain int (list subscripts on CPython's fast path), its suit
                # and where it and its neighbours sit in a live suit key (`NEAR_DIGITS`)
                t, suit, si, low, span_, unit = _AT_TILE[tile]
                for i in seats:
                    if declared and i in declared:  # (a `Seat` hashes and equals its int)
                        continue  # `Bot.claim`: a seat speaks once
                    if voids[i] is suit:
                        # 002: no claim on one's void suit, not even a false Hu (and no win:
                        # `Deal._wins_on` says so first)
                        wins[i] = False
                        continue
                    if keys[i][si] // low % span_:
                        # a copy or a neighbour within two ranks held: the judge's win test
                        # (kept in the window's `wins`, as `Deal._wins_with` keeps it)
                        known = wins[i]
                        if known is None:
                            # `Deal._wins_near`'s two quick refusals written out (most tests
                            # end in one): void tiles still held, or a shape that the tile
                            # does not complete (`keys_complete_with`: the tile's suit key
                            # with the tile added, the others as they are); the judge's own
                            # test for the rest (seven pairs, a complete shape)
                            k0, k1, k2, k3 = ki = keys[i]
                            v = voids[i]
                            if v is not None and ki[_VOID_KEY[v]]:
                                known = False
                            elif hands[i][t] >= 4:
                                known = False  # a fifth copy completes nothing
                            else:
                                if si == 0:
                                    k0 += unit
                                elif si == 1:
                                    k1 += unit
                                elif si == 2:
                                    k2 += unit
                                else:
                                    k3 += unit
                                n = len(melds[i])
                                if numbers[k0] + numbers[k1] + numbers[k2] + (
                                    honours[k3] if k3 else 0
                                ) == targets[n] or not (n or not hands[i][t] & 1):
                                    known = deal._wins_near(i, tile)  # (takes a plain int)
                                else:
                                    known = False
                            wins[i] = known
                        if known or hands[i][t] >= 2:
                            move = bots[i]._claim(deal, SEATS[i], tile, False, None)
                            if move is not None:
                                break
                            continue
                    else:
                        # none held (the tile's digits of the seat's live suit key are 0):
                        # no win (`Deal._wins_on` says so first), no pung
                        wins[i] = False
                    rand()  # `_claim`'s first draw: nothing to declare with it
                    r = rand()
                    if r < quiet:
                        seat = SEATS[i]
                        move = new_hu(seat, None) if r < false_hu else new_pass(seat, None)
                        break
                if move is None:
                    # the window closes silent: `_tenth(max(now, closes_at))`, where
                    # `closes_at` is past `now` (a claim comes 0.1 s before it at the latest)
                    if shut >= 0:
                        now = shut / 10
                        try:
                            move = closes[shut]  # the same value, made once (see `_CLOSES`)
                        except IndexError:
                            move = _close_at(shut)
                    else:
                        x = closes_at if closes_at > now else now
                        y = x * 10.0
                        k = _floor(y + 0.5)
                        d = y - k
                        now = k / 10 if d * d < 0.2499 else round(x, 1)
                        move = new_close_claims(now)
                    problem = play_close(deal, move)  # the judge's check, then its effect
                    if problem is not None:  # pragma: no cover - a bug in the bots or the judge
                        _refused(seed, move, problem)
                    history(move)
                    effective(move)
                    continue
                done += seats.index(i) + 1  # the seats up to the one that spoke
                # `now = max(now, min(_tenth(...), closes_at - 0.1))`, without two calls
                t = _tenth(now + rng.uniform(0.1, 0.8))
                if t > closes_at - 0.1:
                    t = closes_at - 0.1
                if t > now:
                    now = t
                move = stamp(move, now)
            elif phase is _OVER:
                break
            else:
                table.now = now
                move = window_move(deal) if phase is _CLAIMS else next_move(deal)
                now = table.now
        kind = type(move)
        if kind is Correction:
            deal, wall, history, effective = _correct(deal, move, seed)
            hands, voids, keys = deal._hands, deal._void, deal._keys
            melds = deal._melds
            continue
        # `deal.play(move)` written out: the judge's own check and effect for the move's
        # kind, then the move joins the deal's history
        check, effect = handlers[kind]
        problem = check(deal, move)
        if problem is not None:  # pragma: no cover - a bug in the bots or the judge
            _refused(seed, move, problem)
        effect(deal, move)
        history(move)
        effective(move)
    return deal, to_record(deal, players)


def _correct(
    deal: Deal, move: Move, seed: int
) -> tuple[Deal, Wall, Callable[[Move], None], Callable[[Move], None]]:
    """Play a correction, which replays the deal (its state, wall and effective moves'
    list are replaced): the deal, its wall and the two lists' `append`s to go on with."""
    refused = deal.play(move)
    if refused is not None:  # pragma: no cover - a bug in the bots or the judge
        raise BotError(f"seed {seed}: the judge refused {move}: {refused}")
    return deal, deal.wall, deal.history.append, deal._moves.append


def _refused(seed: int, move: Move, problem: tuple[Reason, str]) -> NoReturn:
    refused = Rejected(problem[0], problem[1], move)
    raise BotError(f"seed {seed}: the judge refused {move}: {refused}")
