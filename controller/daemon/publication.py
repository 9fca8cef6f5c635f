"""What the runtime publishes: the table's facts, the views of each audience built from them
and the judge, and the seat displays' session totals (a part of `Runtime`, core thread only;
the views themselves are `views.py`)."""

from __future__ import annotations

import logging
from dataclasses import replace

from controller.daemon.machine import Timer
from controller.daemon.replay import Recovered
from controller.daemon.views import TableFacts, broadcast_view, public_view, referee_view
from controller.devices.events import LinkState
from controller.devices.table import ShowScore
from controller.journal.records import JournalError
from controller.outputs.view import PublicView
from rules.seats import SEATS, Seat

log = logging.getLogger(__name__)


class Publication:
    """A part of `Runtime` (the module's docstring says what it owns)."""

    def facts(self) -> TableFacts:
        return TableFacts(
            table=self.config.table,
            session=self.session or 0,
            deal_no=self.deal_no,
            rules=self.rs.name,
            dealer=self._current_dealer(),
            players=self.lineup.now.names,
            totals=(self.totals[0], self.totals[1], self.totals[2], self.totals[3]),
            phase=self.machine.phase,
            claim_remaining_s=self.machine.remaining(Timer.CLAIM),
            seq=self.seq,
            referee_called=self.referee_called is not None,
            devices_down=tuple(d for d, s in self.links.items() if s is not LinkState.UP),
        )

    def _current_dealer(self) -> Seat:
        # after a settlement self.dealer already names the next deal's dealer
        return self._dealt_by if self.deal is not None else self.dealer

    def public(self) -> PublicView:
        return self.screen.shown(self.in_session(public_view(self.facts(), self.deal)), self.deal)

    def restore_result(self, rec: Recovered) -> None:
        """After a restart: the open session's last settled deal back on the public feed, as
        `ResultScreen` held it before (rebuilt from the journal, corrections applied), until
        the next deal's play begins. A deal the tools cannot rebuild is not shown."""
        if not rec.shown:
            return
        # the referee tools, imported only for a restart with a result to show again
        from controller.referee.journal_deal import read_deal
        from controller.referee.rebuild import rebuild

        try:
            rebuilt = rebuild(read_deal(self.journal, rec.shown))
        except JournalError as err:
            log.info("the result of deal %d is not shown again: %s", rec.shown, err)
            return
        except Exception:  # a screen lost must not stop the table from starting
            log.exception("the result of deal %d could not be rebuilt", rec.shown)
            return
        if not rebuilt.deal.over:
            return
        started = rebuilt.source.started
        facts = replace(
            self.facts(), deal_no=rec.shown, dealer=started.dealer, players=started.players
        )
        limit = self.config.deals or self.rs.session.deals
        view = public_view(facts, rebuilt.deal)
        self.screen.hold(replace(view, session_deal=rec.settled_in_session, session_deals=limit))

    def _publish_if_dirty(self) -> None:
        if self._dirty:
            self.publish()

    def publish(self) -> None:
        self._dirty = False
        facts = self.facts()
        live = self.in_session(public_view(facts, self.deal))
        public = self.screen.shown(live, self.deal)  # the hall: a settled deal stays a while
        referee = referee_view(
            live,
            facts,
            self.deal,
            tuple(self.alerts),
            tuple(self.tail),
            None if self.call is None else self.call.to_json(),
            self.desk.listing(),
            tuple(self.heads),
            self.desk.settled_listing(),
        )
        broadcast = broadcast_view(public, facts, self.deal, self.clock.monotonic())
        try:
            self.outputs.publish(public, referee, broadcast)
        except Exception:
            log.exception("publishing the views failed")

    def show_scores(self) -> None:
        for s in SEATS:
            self.command(ShowScore(s, self.totals[s]))
