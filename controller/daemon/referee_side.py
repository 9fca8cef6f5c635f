"""The runtime's side of the referee desk (controller/daemon/referee_desk.py): what the desk
asks of the deal in progress (`LiveDeal`), and the referee's call (what the table waits for
the referee about, and its going off). A part of `Runtime`: core thread only."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from controller.alerts import AlertKind
from controller.daemon.candidates import Candidate, candidates
from controller.daemon.claim_clock import closes_early
from controller.daemon.contracts import tail_line
from controller.daemon.referee_call import CALL_GONE, RefereeCall, details
from controller.journal.records import Record, RecordKind
from controller.outputs.scoreboard import ActionResult, RefereeAction, RejectReason
from controller.words import alert_words
from rules import moves as mv
from rules.seats import Seat

if TYPE_CHECKING:
    from rules.deal import Deal


class RefereeSide:
    """The runtime's side of the referee desk: what the desk asks of the live deal (a part
    of `Runtime`: core thread only)."""

    def referee(self, action: RefereeAction) -> ActionResult:
        """A referee action from the web view (controller/daemon/referee_desk.py). One that
        answers a call no longer standing (another referee answered it first, the table
        did, or the page is from before a restart) changes nothing."""
        if action.call and (self.call is None or self.call.name != action.call):
            return ActionResult(False, None, RejectReason.NOT_NOW, CALL_GONE)
        return self.desk.act(action)

    @property
    def referee_called(self) -> str | None:
        """The standing call's headline (None: no call stands)."""
        return None if self.call is None else self.call.headline

    @property
    def referee_candidates(self) -> tuple[Candidate, ...]:
        return () if self.call is None else self.call.candidates

    def call_referee(
        self,
        kind: AlertKind,
        message: str,
        offered: tuple[Candidate, ...] | None = None,
        seat: Seat | None = None,
        fits: tuple[mv.Move, ...] = (),
        **extra: object,
    ) -> None:
        """The table waits for the referee: the call (its candidates the judge's and the
        reader's explanations unless `offered`) and its `alert` record, which names it."""
        deal = self.deal
        diffs = None
        if offered is None:
            live = deal is not None and not deal.over
            diffs = self.recogniser.differences(deal) if live else None
            offered = candidates(deal, self._dealt_by, diffs, self.last_accepted_seq, fits)
        before = self.call
        # a call raised again before any answer is the same call to the referee: its name
        # stays, so an answer tapped meanwhile still counts
        standing = 0 if before is None or before.answered else before.alert_seq
        call = RefereeCall(
            kind.value,
            alert_words(kind, message),
            offered,
            details(diffs, self._dealt_by),
        )
        record = self._alert(
            kind,
            message,
            seat,
            severity=str(extra.pop("severity", "warning")),
            referee_called=True,
            headline=call.headline,
            candidates=[c.to_json() for c in offered],
            **extra,
        )
        self.call = replace(call, alert_seq=standing or record.seq)

    @property
    def dealt_by(self) -> Seat:
        """The dealer of the deal in progress (its deal seat East)."""
        return self._dealt_by

    def journalled(self, record: Record) -> None:
        """A record another part of the daemon appended (the referee desk)."""
        self.seq, self._dirty = record.seq, True
        self.tail.append(tail_line(record))
        live = self.deal is not None and not self.deal.over
        if record.kind is RecordKind.CORRECTION and live and record.deal == self.deal_no:
            # not taken again (deal_cycle); a settled deal's is: `settled_corrected`
            self._corrections_seen[record.deal] = record.seq

    @property
    def last_settled(self) -> int:
        """The session's last settled deal (0: none yet)."""
        return max(self.settled_deltas, default=0)

    def settled_corrected(self) -> None:
        """A correction of a settled deal was journalled: its result is judged again now
        (the totals, the views, the seat displays), not at the next periodic look."""
        self._rechecked_at = float("-inf")
        self.recheck_settled(self.clock.monotonic())

    def would_refuse(self, move: mv.Move) -> mv.Rejected | None:
        """The judge's answer to `move` now, closing an open window first where the move
        would (as `offer` does), without changing anything."""
        deal = self.deal
        if deal is None or deal.over:
            return mv.Rejected(mv.Reason.DEAL_OVER, "no deal in progress")
        rejected = deal.check(move)
        if rejected is not None and closes_early(deal, move):
            return None
        return rejected

    def referee_answered(self, agreed: bool = False) -> None:
        """The call goes off: at once for a referee's decision (a correction, the dice);
        `agreed`: after an accepted move, only once the table agrees with the judge again,
        otherwise it stands with its candidates brought up to date (a referee entering the
        moves a fast table showed turned the lights off at each one, the players went on
        and the deal was shuffled away before the judge caught up: 10/10/2 seed 310 deals
        29 and 38)."""
        if self.call is None:
            return
        deal = self.deal
        if agreed and deal is not None and not deal.over:
            differences = self.recogniser.differences(deal)
            if differences:
                # the headline is made again from the new candidates (one value: the
                # page's call and its buttons cannot disagree)
                self.call = self.call.updated(
                    candidates(deal, self._dealt_by, differences, self.last_accepted_seq),
                    details(differences, self._dealt_by),
                    answered=True,  # it goes off once they agree (`call_off_if_agreed`)
                )
                self._dirty = True
                return
        self.call = None
        self._dirty = True

    def call_off_if_agreed(self) -> None:
        """A call answered by a move, standing only while the table differed from the judge,
        goes off once they agree, with no move: a tile missed by the reader when the last
        answer was taken and read again afterwards (10/10/2 seed 311 deal 58: a meld tile
        unread for 0.2 s when the referee entered the last move; the players waited for the
        call, the judge for a move, and the deal was abandoned 30 s later)."""
        deal = self.deal
        call = self.call
        if call is None or not call.answered or deal is None or deal.over:
            return
        if self._live() and not self._overtaken() and not self.recogniser.differences(deal):
            self.referee_answered()

    def reread_table(self) -> None:
        """Read the table again against the judge (after a referee's answer): moves the
        tiles show beyond the judge are offered, as after a reconnection."""
        if self.deal is None or self.deal.over or not self._live() or self._overtaken():
            return
        presence = self.debouncer.presence()
        found = self.recogniser.reconcile(presence, self.deal)
        # a re-reading that explains nothing more is not a new call: the referee is at the
        # table entering what it shows, and the stall watch calls again if it stays unexplained
        # (a 10/10/2 campaign counted one RECOVERY call per answer, 30 in one deal)
        found = [r for r in found if getattr(r, "kind", None) is not AlertKind.RECOVERY]
        self.recognised(found, self.clock.monotonic())

    def adopt(self, deal: Deal, taken_back: bool = False) -> None:
        """The judge as the referee's corrections rebuilt it: the table machine follows its
        phase, a deal that ended is settled. `taken_back`: the cancelled moves still lie on
        the table until the players put the tiles back (they are not read again)."""
        self.deal = deal
        self.claims.forget()
        self.referee_answered()
        if deal.window is None:
            self.claims.resumed(False)
        elif not self.claims.journalled_open:
            self._journal_window_opened()
        if taken_back:
            self.recogniser.on_accepted(mv.Correction(1), deal)
        if not self._table_moved_on():  # else the machine follows the table's next deal
            self._resync("corrected")
        if deal.over:
            self._settle_deal()
        elif not taken_back:
            self.reread_table()
        self._dirty = True
