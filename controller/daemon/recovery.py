"""Restart and reconnection: a deal in progress replayed from the journal, events that come
while the daemon is degraded or recovering held and judged once it has caught up, and the
reconciliation with what the reader sees (retried before the referee is called)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from controller.alerts import AlertKind
from controller.daemon import machine as m
from controller.daemon.contracts import (
    RECONCILE_TRIES,
)
from controller.daemon.replay import Recovered
from controller.devices.events import (
    ShuffleDone,
    TagsRead,
)
from controller.recognition.recogniser import (
    RefereeAlert,
)
from controller.words import phase_words, plural
from rules import moves as mv
from rules.deal import Deal

log = logging.getLogger(__name__)

# the phases of the next deal before it is dealt (the walls are the next deal's)
NEXT_DEAL = ("shuffling", "walls_up", "dice_rolled")


class Recovery:
    """A part of `Runtime` (the module's docstring says what it owns)."""

    def _holding(self) -> bool:
        """Not ready to judge: a device is lost, or the restart has not reconciled yet."""
        return self.stopped is None and (self._recovering or self.machine.phase == "degraded")

    def _held_shuffle(self) -> bool:
        return self._held_shuffles > 0

    def _table_moved_on(self) -> bool:
        """The table is shuffling (or building, or dealing from) the next deal's walls while
        the judge still holds the last one: a deal the referee finishes after the shuffle
        overtook it (restarted after it, campaign seed 501 deal 6). The table machine then
        follows the table, not that deal's judge."""
        phase = self.machine.phase
        if phase in m.INTERRUPTIONS:
            phase = self.machine.interrupted_phase or phase
        return self.deal is not None and phase in NEXT_DEAL

    def _overtaken(self) -> bool:
        """A deal not ended when the table moved on (`_table_moved_on`): its moves and its
        end come from the referee; the tiles on the table are the next deal's."""
        return self._table_moved_on() and self.deal is not None and not self.deal.over

    def _release(self) -> None:
        """What came while not ready, in the order it came, judged at the times it was read
        (each event keeps its own `t`)."""
        while self._held and not self._holding():
            ev = self._held.popleft()
            if isinstance(ev, TagsRead):
                self.recognised(self.recogniser.on_wall_read(ev), ev.t)
                continue
            if isinstance(ev, ShuffleDone):
                self._held_shuffles -= 1
            self._on_table_event(ev)

    def _resume_recovered(self, rec: Recovered) -> None:
        """A deal (or a phase) was in progress when the daemon stopped: replay it into the
        recogniser, then wait for the links as in degraded mode."""
        started = rec.started
        if started is not None:
            deal = Deal.start(  # swaps included
                self.rs, started.dice, started.wall_order, prevalent=started.prevalent
            )
            self._uncertain = started.uncertain
            self.recogniser.new_deal(started.dealer)
            self.recogniser.start_deal(deal)
            doubt = getattr(self.recogniser, "on_wall_doubt", None)
            if doubt is not None and started.uncertain:
                doubt(started.uncertain)  # a draw from such a pair is retried after a restart
            for move in rec.moves:
                deal.apply(move)
                self.recogniser.on_accepted(move, deal)
            self._started_seq = next(iter(self.journal.deal_records(rec.deal_no))).seq
            corrected = self.desk.rebuilt()  # the referee's corrections, as the tools apply them
            if corrected is not None:
                deal = corrected
                self.recogniser.start_deal(deal)
                self.recogniser.on_accepted(mv.Correction(1), deal)
            self.deal = deal
            self.claims.resumed(deal.window is not None)  # journalled open before the restart
            if not deal.over and not self._table_moved_on():
                self._resync("restarted")  # the phase records a kill cut off
        if rec.phase in NEXT_DEAL:
            self._scan_next_walls(rec)
        self._alert(AlertKind.RESTARTED, restarted_words(rec), severity="info")
        if self._overtaken():
            self._call_overtaken()
        if self.deal is not None and self.deal.over:
            self._settle_deal()  # killed between the last move and the settlement
            self._recovering = False
            return
        self._trigger("device_lost")

    def _scan_next_walls(self, rec: Recovered) -> None:
        """The table was shuffling or building the next walls when the daemon stopped: the
        recogniser scans them again (the wall antenna's reads journalled since)."""
        if rec.phase != "dice_rolled":
            self.bus.focus(self._wall_antennas)
        self.recogniser.new_deal(self.dealer)
        for read in rec.wall_reads:  # the walls were being built: scan them again
            self.recognised(self.recogniser.on_wall_read(read), read.t)

    def _call_overtaken(self) -> None:
        """The table shuffled before the deal ended (heard now, or journalled before a
        restart): the referee enters its missing moves or ends it; the next deal's start
        abandons it if neither was done."""
        text = f"the table shuffled before deal {self.deal_no} ended: enter its missing moves or end it"
        self.call_referee(AlertKind.DEAL_OVERTAKEN, text, (), severity="error")

    def _reconcile(self) -> None:
        results: list[Any] = []
        overtaken = self._held_shuffle() or self._overtaken()
        if self.deal is not None and not self.deal.over and not overtaken:
            # (after a held shuffle the tiles show the new walls, not this deal)
            presence = self.debouncer.presence()
            found = getattr(self.recogniser, "cards_on_table", None)
            if found is not None:  # cards laid while not read declare too (issue 18)
                found(self.debouncer.cards())
            results = self.recogniser.reconcile(presence, self.deal)
            if self._reconcile_tries < RECONCILE_TRIES and unexplained(results):
                # a tile the reader has not re-read since the restart looks missing: read
                # the table a little longer before calling the referee (campaign seed 31
                # deal 18: "E.void 2s -1" was a tile not seen yet at 10 % missed reads)
                self._reconcile_tries += 1
                self._reconcile_at = self.rounds + self._settle
                return
        self._reconcile_tries = 0
        if self.machine.phase == "degraded":
            self._trigger("device_back")
            if self._recovering:
                self.machine.rearm()
        self._recovering = False
        if results:
            self.recognised(results, self.clock.monotonic())
        self._release()


def restarted_words(rec: Recovered) -> str:
    """What a restart found, in words: "deal 5 resumed (waiting for a discard): 43 moves
    replayed from the journal", "between deals (deal settled): nothing to replay"."""
    where = phase_words(rec.phase)
    if not rec.deal_no:
        return f"between deals ({where}): nothing to replay"
    moves = plural(len(rec.moves), "move")
    return f"deal {rec.deal_no} resumed ({where}): {moves} replayed from the journal"


def unexplained(results: Sequence[Any]) -> bool:
    """A reconciliation that could not explain the table (its RECOVERY alert)."""
    return any(
        isinstance(r, RefereeAlert) and getattr(r.kind, "value", "") == "recovery" for r in results
    )
