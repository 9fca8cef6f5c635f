"""Deal.play (apply without the Accepted value, for drivers that read no facts) changes a
deal exactly as apply does and refuses the same moves with the same values."""

import random

from hypothesis import given, settings, strategies as st

from rules.bots import BotTable, new_deal
from rules.deal import Deal
from rules.moves import Discard, Draw, Pung, Reason
from rules.random_deals import deal_seed
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import TILES

RULES = ["sbr-mil", "sbr-russia", "sbr-chengdu2016", "wmt"]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULES))
def test_play_and_apply_leave_twin_deals_in_the_same_state(seed, rules):
    rs = load(rules)
    rng = random.Random(seed)
    deal = new_deal(rs, rng)
    twin = Deal.start(rs, deal.dice, deal.wall_order)
    table = BotTable(rs, rng)
    while not deal.over:
        move = table.next_move(deal)
        assert deal.apply(move)
        assert twin.play(move) is None
        assert twin.snapshot() == deal.snapshot()
    assert twin.ledger() == deal.ledger() and twin.moves == deal.moves
    assert twin.history == deal.history


def test_play_refuses_as_apply_does_and_changes_nothing():
    rs = load("sbr-mil")
    deal = new_deal(rs, random.Random(deal_seed(1, 0)))
    table = BotTable(rs, random.Random(1))
    while deal.phase.value == "choosing-void":
        assert deal.play(table.next_move(deal)) is None
    before = deal.snapshot()
    for move in (Draw(Seat.E), Discard(Seat.S, TILES[0]), Pung(Seat.W), "not a move"):
        refused = deal.play(move)  # type: ignore[arg-type]
        assert refused is not None and refused == deal.apply(move)  # type: ignore[arg-type]
        assert deal.snapshot() == before
    assert deal.play(Draw(Seat.E)).reason is Reason.WRONG_PHASE  # type: ignore[union-attr]


def test_replay_and_record_judge_through_play_reach_the_same_ledger():
    rs = load("wmt")
    rng = random.Random(deal_seed(7, 3))
    deal = new_deal(rs, rng)
    table = BotTable(rs, rng)
    while not deal.over:
        assert deal.apply(table.next_move(deal))
    again = Deal.replay(rs, deal.dice, deal.wall_order, deal.history)
    assert again.ledger() == deal.ledger() and again.winners == deal.winners
