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

from rules.bot_policy import DEFAULT_STYLE, Bot, Style, stamp
from rules.claims import Window, WindowKind
from rules.deal import Deal, Phase
from rules.errors import RulesError
from rules.moves import CloseClaims, Correction, Draw, Move, Penalty, ReplacementDraw
from rules.record import DealRecord, to_record
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat

__all__ = ["DEFAULT_STYLE", "Bot", "BotError", "BotTable", "Style", "new_deal", "play_deal"]


# -- the controller's part: turns, claim windows, the clock ------------------------------


class BotError(RulesError, RuntimeError):
    """The judge refused a bot's move: a bug in the bot or in the judge."""


class BotTable:
    """Four bots, the claim clock and a simulated time line for one deal.

    `next_move(deal)` says what happens next (a bot's move, or `CloseClaims` when the claim
    window's clock ran out; None once the deal is over); the caller applies it, then asks
    again. Times grow
    monotonically: own moves take `Style.thinking` seconds, declarations arrive inside the
    window in seat order, `CloseClaims` comes `claim_seconds` after the discard (004
    Lesson 4: 3 seconds) unless every eligible player has declared before.
    """

    __slots__ = ("_asked", "_closes_at", "_window", "bots", "now", "rng", "rs", "style")

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
        self.bots = bots or (Bot(rng, style), Bot(rng, style), Bot(rng, style), Bot(rng, style))
        self.now = 0.0
        # the claim window the seats are being asked in (its discard and tile), how many
        # of its eligible seats were asked (in order), and when its clock runs out
        self._window: Window | None = None
        self._asked = 0
        self._closes_at = 0.0

    def _tick(self, lo: float, hi: float) -> float:
        """The clock `lo` to `hi` seconds on (at random), in tenths of a second."""
        self.now = _tenths(self.now + lo + (hi - lo) * self.rng.random())
        return self.now

    def _think(self) -> float:
        """The clock a thinking time (`Style.thinking`) on: the time of an own move."""
        lo, hi = self.style.thinking
        return self._tick(lo, hi)

    def _penalised(self, seat: Seat) -> Penalty:
        """The penalty a seat on turn takes instead of its move (`Style.referee_penalty`)."""
        t = self._tick(1.0, 5.0)
        etiquette = self.rs.payments.etiquette_penalty
        if etiquette:  # 001 III 3.4, IV 4.3: after the warning, points to nobody
            return Penalty(seat, etiquette, "etiquette: wrong tile announced", t=t)
        # a referee's yellow card (000 3.6), paid to nobody
        return Penalty(seat, 4, "yellow card: declared without the physical action", t=t)

    def next_move(self, deal: Deal) -> Move | None:
        """The next move to offer the judge; None once the deal is over."""
        st = deal.state
        if st.window is not None:  # a claim or robbing window is open: its seats speak
            return self._window_move(deal, st.window)
        phase, seat = st.phase, st.turn
        if phase is Phase.DISCARD:
            if self.rng.random() < self.style.referee_penalty:
                return self._penalised(seat)
            return self.bots[seat].turn(deal, seat, self._think())
        # a draw is the table's: the tile the wall holds there (rules.wall)
        if phase is Phase.DRAW:
            return Draw(seat, st.wall.peek(), t=self._think())
        if phase is Phase.REPLACEMENT:
            return ReplacementDraw(seat, st.wall.peek_replacement(), t=self._think())
        if phase is Phase.CHOOSING_VOID:
            t = self._tick(0.2, 1.5)
            for s in SEATS:
                move = self.bots[s].choose(deal, s, t)
                if move is not None:
                    return move
        if phase is Phase.OVER:
            return None
        raise BotError(f"no bot has a move in {phase.value}")  # pragma: no cover

    def _window_move(self, deal: Deal, window: Window) -> Move:
        robbing = window.kind is WindowKind.ROBBING
        if window is not self._window:
            # a new window (the discard or kong that opened it was the last move)
            self._window = window
            self._asked = 0
            self._closes_at = self.now + self.rs.play.claim_seconds
            retrieve = self.style.retrieve_discard
            if not robbing and self.rng.random() < retrieve:
                # 000 3.6.A: a discard retrieved at once; the referee takes it back
                return Correction(1, "discard retrieved", t=self._tick(0.1, 0.5))
        # the seats not asked yet, in order (a window is asked again after a declaration)
        for seat in window.eligible[self._asked :]:
            self._asked += 1
            if seat in window.declared:
                continue  # a seat speaks once in a window
            move = self.bots[seat].claim_tile(deal, seat, window.tile, robbing, None)
            if move is not None:
                t = min(_tenths(self.now + self.rng.uniform(0.1, 0.8)), self._closes_at - 0.1)
                self.now = max(self.now, t)
                return stamp(move, self.now)
        self.now = _tenths(max(self.now, self._closes_at))
        return CloseClaims(t=self.now)


def _tenths(seconds: float) -> float:
    """`seconds` to the nearest tenth of a second (the bots' clock ticks in tenths)."""
    return round(10 * seconds) / 10


def new_deal(rs: RuleSet, rng: random.Random) -> Deal:
    """A shuffled wall and East's roll of the dice (`rules.wall.Wall.shuffled`)."""
    return Deal.start_shuffled(rs, rng)


def play_deal(
    rs: RuleSet, seed: int, style: Style = DEFAULT_STYLE, players: tuple[str | None, ...] = ()
) -> tuple[Deal, DealRecord]:
    """Play one deal with four seeded bots to its end: each move `BotTable.next_move`
    offers is judged by `Deal.play` before the next is chosen. The judged deal and its
    record."""
    rng = random.Random(seed)
    deal = new_deal(rs, rng)
    table = BotTable(rs, rng, style)
    while (move := table.next_move(deal)) is not None:
        refused = deal.play(move)
        if refused is not None:  # pragma: no cover - a bug in the bots or the judge
            raise BotError(f"seed {seed}: the judge refused {move}: {refused}")
    return deal, to_record(deal, players)
