"""Settling deals: a settled deal as the core judged it, built once, typed, when the judge
ends the deal (its `deal.settled` record is written from it and every output is handed it:
none reads the journal back), and the open session's scores it adds to, corrections
applied."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from controller.daemon.replay import session_totals
from controller.journal.payloads import fixed_order, ledger_payload, table_seat
from controller.journal.records import DealEnd
from controller.journal.store import Journal
from rules import moves as mv
from rules.deal import Deal
from rules.record import next_dealer
from rules.seats import SEATS, Seat

log = logging.getLogger(__name__)

ENDS = {
    mv.DealEnd.HU: DealEnd.THREE_WON,
    mv.DealEnd.WALL: DealEnd.WALL_EXHAUSTED,
    mv.DealEnd.TIME: DealEnd.TIME_UP,
}
_TIME_UP = mv.EndDeal().note  # the session's time, not the referee's end


def settled_end(deal: Deal) -> DealEnd:
    """How `deal` (over) ended, as `deal.settled` journals it: a deal the referee ended
    (an `EndDeal` with the referee's note) is `referee`, not the session's `time-up`."""
    assert deal.end is not None
    if deal.end is mv.DealEnd.TIME and any(
        isinstance(m, mv.EndDeal) and m.note != _TIME_UP for m in deal.history
    ):
        return DealEnd.REFEREE
    return ENDS[deal.end]


@dataclass(frozen=True, slots=True)
class Settlement:
    """One deal's settlement, in fixed seats (the table's sides)."""

    session: int
    deal: int
    rules: str
    dealer: Seat  # the side the deal's dealer sat at
    dice: tuple[int, int]
    players: tuple[str, ...]  # E S W N
    winners: tuple[Seat, ...]  # every Hu in Hu order, false ones included
    false_hu: tuple[Seat, ...]
    deltas: tuple[int, int, int, int]
    ledger: tuple[dict[str, Any], ...]  # the judge's ledger lines as journalled
    end: DealEnd
    next_dealer: Seat

    def payload(self) -> dict[str, Any]:
        """The `deal.settled` record's payload (docs/JOURNAL.md)."""
        return {
            "deal": self.deal,
            "winners": [s.name for s in self.winners],
            "deltas": list(self.deltas),
            "ledger": list(self.ledger),
            "end": self.end.value,
            "next_dealer": self.next_dealer.name,
            "false_hu": [s.name for s in self.false_hu],
        }


def settle(
    deal: Deal, number: int, dealer: Seat, session: int, players: tuple[str, ...]
) -> Settlement:
    """The settlement of `deal` (over), deal number `number`, dealt from side `dealer`.
    RULES.md: nobody won → the same dealer; the first Hu by one player → that player; by
    several on one discard → the discarder, or as the rule set's `dealer.multiple-hu` says
    (Wellness, 001 IV 1.2). A false Hu does not count (rules.record)."""
    assert deal.end is not None
    d = fixed_order(deal.deltas(), dealer)
    return Settlement(
        session=session,
        deal=number,
        rules=deal.rs.name,
        dealer=dealer,
        dice=(deal.dice.a, deal.dice.b),
        players=players,
        winners=tuple(table_seat(w.seat, dealer) for w in deal.winners),
        false_hu=tuple(table_seat(w.seat, dealer) for w in deal.winners if w.false_hu),
        deltas=(d[0], d[1], d[2], d[3]),
        ledger=tuple(ledger_payload(deal.ledger().lines, dealer)),
        end=settled_end(deal),
        next_dealer=table_seat(next_dealer(deal), dealer),
    )


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

    def number_in_session(self, deal: int) -> int:
        """Settled deal `deal` (the journal's number) as its session counts it, as the
        board does ("Deal 3"); 0: not a settled deal of the open session."""
        if deal not in self.settled:
            return 0
        before = self.deals_done - len(self.settled)  # (none, unless the journal lost some)
        return before + sum(1 for d in self.settled if d <= deal)

    def new_session(self) -> None:
        self.settled = {}

    def settle(self, settled: Settlement, seq: int) -> None:
        """A deal settled by record `seq`: its deltas count in the totals."""
        for s in SEATS:
            self.totals[s] += settled.deltas[s]
        self.settled[settled.deal] = settled.deltas
        self._seen[settled.deal] = seq
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
