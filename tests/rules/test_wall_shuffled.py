"""`Wall.shuffled` and the judge's deal without `Take`s (`Wall.deal_out`, `Deal.deal_takes`)
give exactly what the checked path gives: the same random draws, wall, hands and takes."""

import random

from hypothesis import given, strategies as st

from rules.deal import Deal
from rules.ruleset import load
from rules.seats import SEATS
from rules.wall import Dice, Wall, check_order, full_set

RULESETS = [load(name) for name in ("sbr-mil", "wellness")]


@given(st.integers(0, 2**32), st.sampled_from(RULESETS))
def test_shuffled_wall_is_the_checked_wall_of_the_same_draws(seed, rs):
    wall = Wall.shuffled(rs, random.Random(seed))
    # the draws as the bots made them before `Wall.shuffled`: shuffle, then two dice
    rng = random.Random(seed)
    tiles = list(full_set(rs.tiles.set))
    rng.shuffle(tiles)
    dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
    assert wall.order == tuple(tiles)
    assert wall.dice == dice
    check_order(wall.order, rs.tiles.set)  # a permutation of the full set: nothing to find
    checked = Wall(rs, dice, tiles)
    assert wall.brk == checked.brk and wall.complete and checked.complete
    assert wall.deal() == checked.deal()
    assert wall.tiles_left == checked.tiles_left == rs.tiles.set.value - 53


@given(st.integers(0, 2**32), st.sampled_from(RULESETS))
def test_deal_takes_are_those_of_wall_deal(seed, rs):
    shuffled = Deal.start_shuffled(rs, random.Random(seed))
    checked = Deal.start(rs, shuffled.dice, shuffled.wall_order)
    takes = Wall(rs, shuffled.dice, shuffled.wall_order).deal()
    assert shuffled.deal_takes == checked.deal_takes == takes
    for s in SEATS:
        assert sorted(shuffled.hand(s)) == sorted(t.tile for t in takes if t.seat is s)
        assert shuffled.counts(s) == checked.counts(s)
    assert shuffled.drawn is takes[49].tile  # East's jump, 004 Lesson 2
    assert shuffled.snapshot() == checked.snapshot()
