"""The claim clock: claim and robbing windows journalled open and closed, closed on time,
early by the next turn's move, or held while a CHOW waits for its tiles; moves read
against the deal as if the open window had closed."""

from __future__ import annotations

import copy
import logging

from controller.alerts import AlertKind
from controller.daemon.machine import Timer, TimerFired
from controller.journal.payloads import table_seat
from controller.journal.records import RecordKind, Source
from rules import moves as mv
from rules.claims import is_claim
from rules.deal import Deal

log = logging.getLogger(__name__)


class ClaimClock:
    """A part of `Runtime` (the module's docstring says what it owns)."""

    def _as_seen(self) -> Deal | None:
        """The deal tile movements are read against. While a claim window is open, tiles
        that move are the window's resolution or the next turn (a table does not wait for
        the claim clock): they are read against the deal *as if the window had closed now*,
        and a move read that way closes the window early (`offer`). Buttons are always read
        against the real deal (claims go into the open window), and so is everything while
        the window's close would end the deal (the last discard: only its claims can follow,
        and claims shown by the tiles are read on the open window, issue 18). None while the
        table is cleared for a shuffle no board reports (boardless.py), or shuffled for the
        next deal while the referee ends this one (recovery.py `_overtaken`)."""
        deal = None if self._clearing or self._overtaken() else self.deal
        if deal is None or deal.window is None:
            return deal
        key = (id(deal), len(deal.history))
        if self._seen_key != key:
            trial = copy.deepcopy(deal, {id(deal.rs): deal.rs})  # the rule set is frozen
            closed = trial.apply(mv.CloseClaims()) and not trial.over
            self._seen_key, self._seen = key, trial if closed else deal
        return self._seen

    def _closes_window(self, deal: Deal, move: mv.Move) -> bool:
        """A turn move seen while a window is open closes it early when, after closing,
        the judge would accept it (the next player's draw, the claimer's discard)."""
        if deal.window is None or is_claim(move) or isinstance(move, mv.CloseClaims):
            return False
        trial = copy.deepcopy(deal, {id(deal.rs): deal.rs})  # the rule set is frozen
        return bool(trial.apply(mv.CloseClaims())) and trial.check(move) is None

    def _close_window(self, closed_by: str, t: float | None) -> None:
        deal = self.deal
        assert deal is not None and deal.window is not None
        self._journal_window_closed(closed_by, t)
        self._apply(mv.CloseClaims(), (), t)

    def _journal_window_closed(self, closed_by: str, t: float | None, window=None) -> None:
        deal = self.deal
        assert deal is not None
        w = window or deal.window
        self._log(
            Source.DAEMON,
            RecordKind.CLAIM_WINDOW,
            {
                "state": "closed",
                "kind": w.kind.value,
                "discarder": table_seat(w.discarder, self.dealer).name,
                "tile": str(w.tile),
                "closed_by": closed_by,
                "claims": {
                    table_seat(s, self.dealer).name: type(c).__name__.lower() for s, c in w.declared
                },
            },
            deal=self.deal_no,
            t=t,
        )
        self._window_open = None
        self._window_closed_at = self.clock.monotonic() if t is None else t

    def _journal_window_opened(self) -> None:
        deal = self.deal
        assert deal is not None and deal.window is not None
        w = deal.window
        self._window_open = mv.CloseClaims()
        self._log(
            Source.DAEMON,
            RecordKind.CLAIM_WINDOW,
            {
                "state": "opened",
                "kind": w.kind.value,
                "discarder": table_seat(w.discarder, self.dealer).name,
                "tile": str(w.tile),
                "deadline": self.rs.play.claim_seconds,
                "eligible": [table_seat(s, self.dealer).name for s in w.eligible],
            },
            deal=self.deal_no,
        )

    def _on_timer(self, fired: TimerFired) -> None:
        deal = self.deal
        if deal is None or deal.over:
            return
        if fired.timer in (Timer.CLAIM, Timer.ROBBING) and deal.window is not None:
            if self._window_held():
                self._close_held = True  # closed once the CHOW's tiles are read (tick)
            else:
                self._close_window("timer", fired.t)
        elif fired.timer is Timer.MOVE and not self._over_time_warned:
            self._over_time_warned = True
            seat = table_seat(deal.turn, self.dealer)
            self._alert(
                AlertKind.OVER_TIME,
                f"{seat} has taken more than {self.rs.play.move_seconds:g} s for this move",
                seat,
            )

    def _window_held(self) -> bool:
        """A CHOW button waits for the tiles that say which chow (several fit): the claim
        is being made, so the clock's end waits for it (at most the recogniser's grace)."""
        held = getattr(self.recogniser, "holds_window", None)
        return bool(held and held())

    def _close_if_released(self, now: float) -> None:
        if not self._close_held:
            return
        deal = self.deal
        if deal is None or deal.over or deal.window is None:
            self._close_held = False
        elif not self._window_held():
            self._close_held = False
            self._close_window("timer", now)

    def _countdown(self) -> None:
        left = self.machine.remaining(Timer.CLAIM)
        second = None if left is None else int(-(-left // 1))
        if second != self._countdown_second:
            self._countdown_second = second
            self._dirty = True
