"""The deal judge's payments for highest-pattern rule sets (Wellness, 001): which ledger lines a
win, a false win and the wall end bring, built by `rules.wellness` with the player's winds.

The judge (rules.deal, rules.deal_effects) calls these instead of the `rules.settlement`
builders when `scoring.method = "highest-pattern"`; nothing here knows a rule set's name.
Seat winds are the deal seats (East = the dealer, 001 IV 1.1); the prevalent wind is the
deal's (`Deal.start(..., prevalent=)`, recorded in the deal record).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from rules import settlement as pay
from rules import wellness
from rules.scoring import Score
from rules.seats import Seat
from rules.settlement import LedgerLine

if TYPE_CHECKING:
    from rules.deal import Deal

R_WALL_END = "001 II 4, III 3.1: wall end, not ready pays each ready player its highest value"


def winds(deal: Deal, seat: Seat) -> wellness.Winds:
    """The seat's own wind (its deal seat) and the deal's prevalent wind (001 II 3)."""
    return wellness.Winds(seat, deal.prevalent)


def win(
    deal: Deal, score: Score, winner: Seat, discarder: Seat | None, payers: Iterable[Seat]
) -> list[LedgerLine]:
    """001 II 2: the discarder pays the hand; self-drawn (`discarder` None), each of
    `payers` (the others still in) pays it + one base point (III 2.1)."""
    return wellness.win_lines(deal.rs, score, winner, discarder, payers)


def false_win(deal: Deal, offender: Seat, still_in: Iterable[Seat]) -> list[LedgerLine]:
    """001 III 3.2: 4 fan to each of the three opponents, winners included."""
    return wellness.false_win_lines(deal.rs, offender, still_in)


def wall_end(deal: Deal) -> list[LedgerLine]:
    """001 II 4, III 3.1, 3.3: each player still in who is not ready (a long or short hand
    is not) pays each ready player still in the highest value that player's hand can reach.
    No kong payments, void suit or flower pig in this game: nothing else is settled."""
    hands = [
        wellness.end_hand(deal.rs, s, deal.counts(s), deal.melds(s), winds(deal, s))
        for s in deal.still_in
    ]
    return [
        replace(line, rule=R_WALL_END) if line.rule == pay.R_WALL_END else line
        for line in pay.wall_end(deal.rs, hands)
    ]
