"""The settled deals as the hall sees them, corrections applied (docs/MQTT.md "Delivery,
duplicates, corrections").

A deal is published when it settles. A referee's correction of a settled deal, from the
referee page or `mjtable correct` (another process appending to the same journal), is a
`correction` record of that deal: the deal is re-judged with the referee tools' rebuild
(controller/referee/) and published again with the correction's seq, higher than the
settlement's, and the correction record's hash as its chain head (what the table's signature
covers: a correction the hub takes comes from the table's journal), so the hub replaces it.
At start-up every settled deal of the journal is
published again the same way (the retained ledger of a restarted table, and a correction
made while the daemon was down).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from controller.hub.wire import SettledDeal
from controller.journal.records import (
    DealSettled,
    DealStarted,
    JournalError,
    LedgerLine as JournalLedgerLine,
    RecordKind,
)
from controller.journal.store import Journal
from controller.referee.journal_deal import read_deal
from controller.referee.rebuild import rebuild
from rules.seats import SEATS, Seat
from rules.settlement import (
    R_FALSE_HU,
    R_FALSE_HU_WMT,
    R_REFEREE,
    R_SEQUENTIAL,
    R_VOID_HELD,
    R_VOID_MELD,
    LedgerLine,
)

log = logging.getLogger(__name__)

POLL_S = 2.0
# the ledger lines a ranking body counts as penalties (rules/settlement.py's rules)
PENALTY_RULES = frozenset(
    {R_REFEREE, R_VOID_HELD, R_VOID_MELD, R_FALSE_HU, R_FALSE_HU_WMT, R_SEQUENTIAL}
)


def penalties(ledger: Sequence[LedgerLine | JournalLedgerLine]) -> tuple[int, int, int, int]:
    """The points each seat E S W N paid on penalty lines (fixed seats, as the ledger)."""
    paid = [0, 0, 0, 0]
    for line in ledger:
        if line.rule in PENALTY_RULES and line.payer is not None:
            paid[SEATS.index(line.payer)] += line.points
    return (
        paid[0],
        paid[1],
        paid[2],
        paid[3],
    )  # how often the daemon looks for corrections of settled deals


class HallResults:
    """Which settled deals were published with which seq; publishes the corrected ones."""

    def __init__(self, journal: Journal, publish: Callable[[SettledDeal], None]) -> None:
        self.journal = journal
        self.publish = publish
        self._published: dict[int, int] = {}  # deal number -> the seq last published
        self._last_poll: float | None = None

    def start(self) -> int:
        """Publish every settled deal of the journal, corrected; returns how many."""
        for number in self.journal.deals():
            deal = self._deal(number)
            if deal is not None:
                self._send(deal)
        return len(self._published)

    def settled(self, deal: SettledDeal) -> None:
        """A deal the daemon just settled (its own settlement record)."""
        self._send(deal)

    def poll(self, now: float) -> None:
        """Every POLL_S: a settled deal with a correction newer than what was published is
        published again, re-judged."""
        if self._last_poll is not None and now - self._last_poll < POLL_S:
            return
        self._last_poll = now
        for number, published in list(self._published.items()):
            newest = max((r.seq for r, _ in self.journal.corrections(number)), default=0)
            if newest > published:
                deal = self._deal(number)
                if deal is not None:
                    log.info("deal %d corrected (record %d): published again", number, deal.seq)
                    self._send(deal)

    def _send(self, deal: SettledDeal) -> None:
        self._published[deal.deal] = deal.seq
        self.publish(deal)

    def _deal(self, number: int) -> SettledDeal | None:
        """The deal as settled, or re-judged when it has corrections; None while unsettled
        (or when it cannot be rebuilt: said in the log, the settlement stands)."""
        records = list(
            self.journal.deal_records(
                number, (RecordKind.DEAL_STARTED, RecordKind.DEAL_SETTLED, RecordKind.CORRECTION)
            )
        )
        settled = [r for r in records if r.kind is RecordKind.DEAL_SETTLED]
        if not settled or records[0].kind is not RecordKind.DEAL_STARTED:
            return None
        started = DealStarted.from_payload(records[0].data())
        result = DealSettled.from_payload(settled[-1].data())
        winners, deltas = result.won, result.deltas
        ledger: Sequence[LedgerLine | JournalLedgerLine] = result.ledger
        seq, head = settled[-1].seq, settled[-1].hash
        corrections = [r for r in records if r.kind is RecordKind.CORRECTION]
        dealer = started.dealer
        if corrections:
            try:
                rb = rebuild(read_deal(self.journal, number))
            except JournalError as err:
                log.warning(
                    "deal %d: its corrections cannot be applied for the hall: %s", number, err
                )
            else:
                winners = tuple(rb.fixed(w.seat) for w in rb.deal.winners if not w.false_hu)
                deltas, dealer, ledger = rb.deltas, rb.source.dealer, rb.ledger
                if corrections[-1].seq > seq:  # the correction's chain head is the anchor
                    seq, head = corrections[-1].seq, corrections[-1].hash
        return hall_deal(
            seq=seq,
            head=head,
            session=started.session or 1,
            deal=number,
            rules=started.rules,
            dealer=dealer,
            dice=started.dice,
            players=started.players,
            winners=winners,
            deltas=deltas,
            ledger=ledger,
        )


def hall_deal(
    *,
    seq: int,
    head: str,
    session: int,
    deal: int,
    rules: str,
    dealer: Seat,
    dice: tuple[int, int],
    players: tuple[str, ...],
    winners: tuple[Seat, ...],
    deltas: tuple[int, int, int, int],
    ledger: Sequence[LedgerLine | JournalLedgerLine],
) -> SettledDeal:
    """The deal as the hall gets it, whether sent as it settles or again from the journal:
    `winners` the true Hu only, its penalties and the points paid to nobody from its ledger
    (fixed seats)."""
    return SettledDeal(
        seq=seq,
        session=session,
        deal=deal,
        rules=rules,
        dealer=dealer,
        dice=dice,
        winners=winners,
        deltas=deltas,
        players=players,
        head=head,
        penalties=penalties(ledger),
        to_nobody=sum(line.points for line in ledger if line.payee is None),
    )
