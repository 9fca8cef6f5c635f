"""A settled deal as the core judged it: built once, typed, when the judge ends the deal; its
`deal.settled` record is written from it and every output is handed it (none reads the
journal back)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.journal.payloads import fixed_order, ledger_payload, table_seat
from controller.journal.records import DealEnd
from rules import moves as mv
from rules.deal import Deal
from rules.record import next_dealer
from rules.seats import Seat

ENDS = {
    mv.DealEnd.HU: DealEnd.THREE_WON,
    mv.DealEnd.WALL: DealEnd.WALL_EXHAUSTED,
    mv.DealEnd.TIME: DealEnd.TIME_UP,
}


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
        end=ENDS[deal.end],
        next_dealer=table_seat(next_dealer(deal), dealer),
    )
