"""The open session's scores: each settled deal's deltas as settled, then as corrected since
(a correction appended beside the daemon, or the referee page's), and the totals they add
up to."""

from __future__ import annotations

import logging

from controller.daemon.replay import session_totals
from controller.journal.store import Journal
from rules.seats import SEATS

log = logging.getLogger(__name__)

RECHECK_S = 2.0  # how often the settled deals of the session are checked for corrections

Deltas = tuple[int, int, int, int]


class SessionScores:
    """The session's settled deals (fixed-seat deltas, corrections applied), the newest
    correction record already taken into account for each, and the totals (fixed seats)."""

    def __init__(
        self,
        settled: dict[int, Deltas],
        totals: tuple[int, int, int, int],
        deals_done: int,
        last_seq: int,
    ) -> None:
        self.settled = dict(settled)
        self.totals = list(totals)
        self.deals_done = deals_done  # settled in the open session
        self._seen = dict.fromkeys(settled, last_seq)
        self._rechecked_at = -1e9

    @property
    def last_settled(self) -> int:
        """The session's last settled deal (0: none yet)."""
        return max(self.settled, default=0)

    def new_session(self) -> None:
        self.settled = {}

    def settle(self, number: int, deltas: Deltas, seq: int) -> None:
        """Deal `number` settled with `deltas` by record `seq`."""
        for s in SEATS:
            self.totals[s] += deltas[s]
        self.settled[number] = deltas
        self._seen[number] = seq
        self.deals_done += 1

    def seen(self, number: int) -> int:
        """The newest correction record of deal `number` taken into account (0: none)."""
        return self._seen.get(number, 0)

    def saw(self, number: int, seq: int) -> None:
        """Correction record `seq` of deal `number` is taken into account already."""
        self._seen[number] = seq

    def due(self, now: float, at_once: bool = False) -> bool:
        """Whether the settled deals are looked at again now (every RECHECK_S; `at_once`:
        a correction of a settled deal was just journalled)."""
        if not at_once and now - self._rechecked_at < RECHECK_S:
            return False
        self._rechecked_at = now
        return True

    def recheck(self, journal: Journal) -> bool:
        """Each settled deal corrected since it was last looked at is re-judged (the referee
        tools' rebuild) and the totals follow; whether anything changed."""
        changed = False
        for number, deltas in list(self.settled.items()):
            newest = max((r.seq for r, _ in journal.corrections(number)), default=0)
            if newest <= self._seen.get(number, 0):
                continue
            self._seen[number] = newest
            # the referee tools' re-judging, imported only once a correction is made
            from controller.referee.session import corrected_deltas

            corrected = corrected_deltas(journal, number)
            if corrected is not None and corrected != deltas:
                self.settled[number] = corrected
                changed = True
                log.info("deal %d corrected (record %d): %s", number, newest, corrected)
        if changed:
            self.totals = list(session_totals(self.settled.values()))
        return changed
