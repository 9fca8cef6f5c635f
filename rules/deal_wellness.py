"""The deal judge's payments for highest-pattern rule sets (Wellness, 001): which ledger lines a
win, a false win and the wall end bring, built by `rules.wellness` with the player's winds.

The judge (rules.deal_hu, rules.deal_end) calls these instead of the `rules.settlement`
builders when `scoring.method = "highest-pattern"`; nothing here knows a rule set's name.
Seat winds are the deal seats (East = the dealer, 001 IV 1.1); the prevalent wind is the
deal's (`Deal.start(..., prevalent=)`, recorded in the deal record).

Penalties the judge cannot see are the referee's `Penalty` moves, built here from the rule
set's amounts: `false_claim_penalties` (001 III 3.2: a chow, pung or kong of a wrong tile —
the judge refuses the claim itself, `NOT_A_CHOW`, `CLAIM_NOT_ADMISSIBLE`, ...) and
`etiquette_penalty` (001 III 3.4, IV 4.3: the referee counts the violations).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Protocol

from rules import settlement as pay, wellness
from rules.deal_state import State
from rules.moves import Penalty
from rules.ruleset import RuleSet
from rules.score import Score
from rules.seats import Seat
from rules.settlement import LedgerLine


class Table(Protocol):
    """What the referee's penalties read of a deal (`rules.deal.Deal` or its `State`)."""

    @property
    def rs(self) -> RuleSet: ...

    @property
    def still_in(self) -> tuple[Seat, ...]: ...


R_WALL_END = "001 II 4, III 3.1: wall end, not ready pays each ready player its highest value"


def winds(st: State, seat: Seat) -> wellness.Winds:
    """The seat's own wind (its deal seat) and the deal's prevalent wind (001 II 3)."""
    return wellness.Winds(seat, st.prevalent)


def win(
    st: State, score: Score, winner: Seat, discarder: Seat | None, payers: Iterable[Seat]
) -> list[LedgerLine]:
    """001 II 2: the discarder pays the hand; self-drawn (`discarder` None), each of
    `payers` (the others still in) pays it + one base point (III 2.1)."""
    return wellness.win_lines(st.rs, score, winner, discarder, payers)


def false_win(st: State, offender: Seat, still_in: Iterable[Seat]) -> list[LedgerLine]:
    """001 III 3.2: 4 fan to each of the three opponents, winners included."""
    return wellness.false_win_lines(st.rs, offender, still_in)


def wall_end(st: State) -> list[LedgerLine]:
    """001 II 4, III 3.1, 3.3: each player still in who is not ready (a long or short hand
    is not) pays each ready player still in the highest value that player's hand can reach.
    No kong payments, void suit or flower pig in this game: nothing else is settled."""
    hands = [
        wellness.end_hand(st.rs, s, tuple(st.hands[s]), tuple(st.melds[s]), winds(st, s))
        for s in st.still_in
    ]
    return [
        replace(line, rule=R_WALL_END) if line.rule == pay.R_WALL_END else line
        for line in pay.wall_end(st.rs, hands)
    ]


def false_claim_penalties(
    deal: Table, offender: Seat, t: float | None = None
) -> tuple[Penalty, ...]:
    """001 III 3.2: the referee's moves for a chow, pung or kong of a wrong tile: the
    offender pays `payments.false-claim` to each of the three opponents (winners included,
    `false-hu-payees`), one `Penalty` each. Applying them is what settles it."""
    lines = wellness.false_win_lines(deal.rs, offender, deal.still_in, claim=True)
    return tuple(
        Penalty(offender, x.points, x.rule, x.payee, t=t) for x in lines if x.payee is not None
    )


def etiquette_penalty(
    deal: Table, offender: Seat, violation: int, t: float | None = None
) -> Penalty | None:
    """001 III 3.4, IV 4.3: the referee's move for the player's `violation`-th violation
    (counted from 1): None for a warning, else `payments.etiquette-penalty` to nobody."""
    lines = wellness.etiquette_lines(deal.rs, offender, violation)
    return Penalty(offender, lines[0].points, lines[0].rule, None, t=t) if lines else None
