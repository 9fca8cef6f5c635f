"""Issue 25 item 3: the table machine follows the judge through one table. Each move the
judge accepts stands for one transition, read from its facts (`fact_trigger`); the window
it closed and the deal's start the table did not say come before it, the deal's end after
(`follow`). No search: bot deals of every rule set, move by move, keep the machine at the
judge's phase (`JUDGE_PHASES`, the one mapping), and every transition of play is taken."""

from __future__ import annotations

import random

import pytest

from controller.clock import FakeClock
from controller.daemon.machine import (
    AWAITING_DISCARD,
    AWAITING_DRAW,
    CLAIM_WINDOW,
    JUDGE_PHASES,
    ROBBING_WINDOW,
    TableMachine,
    follow,
)
from rules import moves as mv
from rules.bots import DEFAULT_STYLE, BotTable, new_deal
from rules.deal_state import Phase
from rules.ruleset import available, load
from rules.seats import Seat

DEALS = 12  # per rule set
ROBBED = [("sbr-mil", 181), ("wellness", 133)]  # deals in which a kong is robbed (rare)
PLAY_TRIGGERS = {
    "deal_complete",
    "voids_chosen",
    "drawn",
    "discarded",
    "claims_passed",
    "pung_claimed",
    "kong_claimed",
    "hu_claimed",
    "concealed_kong_declared",
    "added_kong_declared",
    "robbing_closed",
    "kong_robbed",
    "self_drawn_hu",
    "deal_ended",
    "resync",  # Wellness bots take a discard back (a Correction)
}


def _play(rules: str, seed: int, taken: set[str]) -> None:
    rs = load(rules)
    rng = random.Random(seed)
    deal = new_deal(rs, rng)
    bots = BotTable(rs, rng, DEFAULT_STYLE)
    machine = TableMachine(FakeClock(), rs.play.claim_seconds, initial="dealing")
    while deal.phase is not Phase.OVER:
        move = bots.next_move(deal)
        result = deal.apply(move)
        assert isinstance(result, mv.Accepted), result
        target = JUDGE_PHASES[deal.phase]
        if isinstance(move, mv.Correction) and machine.phase != target:
            machine.resync(target)  # a move taken back: no table event leads back
            taken.add("resync")
        elif machine.phase != target:
            steps = follow(machine.phase, result, deal.phase)
            assert steps is not None, (machine.phase, move, result.facts, deal.phase)
            for trigger in steps:
                getattr(machine, trigger)()
            taken.update(steps)
        assert machine.phase == target, (move, result.facts)


def test_bot_deals_of_every_rule_set_keep_the_machine_at_the_judges_phase() -> None:
    taken: set[str] = set()
    for rules in available():
        for seed in range(DEALS):
            _play(rules, seed, taken)
    for rules, seed in ROBBED:
        _play(rules, seed, taken)
    assert taken == PLAY_TRIGGERS


def _accepted(move: mv.Move, *facts: mv.Fact) -> mv.Accepted:
    return mv.Accepted(move, facts)


@pytest.mark.parametrize(
    ("phase", "move", "judge", "steps"),
    [
        # the last pass or the claim clock closes a window with no claim
        (CLAIM_WINDOW, mv.Pass(Seat.S), Phase.DRAW, ["claims_passed"]),
        # the next player's draw closes the claim window: its own edge
        (CLAIM_WINDOW, mv.Draw(Seat.S), Phase.DISCARD, ["drawn"]),
        # the kong's replacement closes the robbing window
        (ROBBING_WINDOW, mv.ReplacementDraw(Seat.S), Phase.DISCARD, ["robbing_closed", "drawn"]),
        # a penalty changes no phase
        (AWAITING_DRAW, mv.Penalty(Seat.E, 8, "referee"), Phase.DRAW, []),
        (CLAIM_WINDOW, mv.CloseClaims(), Phase.DRAW, ["claims_passed"]),
        (ROBBING_WINDOW, mv.CloseClaims(), Phase.REPLACEMENT, ["robbing_closed"]),
        # a discard before the table said the hands were dealt and the voids chosen
        (
            "dealing",
            mv.Discard(Seat.E, None),
            Phase.CLAIMS,
            ["deal_complete", "voids_chosen", "discarded"],
        ),
        ("choosing_void", mv.ChooseVoid(Seat.N, None), Phase.DISCARD, ["voids_chosen"]),
        ("choosing_void", mv.ChooseVoid(Seat.S, None), Phase.CHOOSING_VOID, []),
        # any phase of play ends with the deal
        (AWAITING_DISCARD, mv.EndDeal(), Phase.OVER, ["deal_ended"]),
        ("deal_over", mv.EndDeal(), Phase.OVER, []),
        # a move that stands for no transition of the phase the table is in
        (AWAITING_DRAW, mv.Discard(Seat.E, None), Phase.CLAIMS, None),
    ],
)
def test_follow_by_the_table(phase, move, judge, steps) -> None:
    assert follow(phase, _accepted(move), judge) == steps
