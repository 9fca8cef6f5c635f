"""The e2e harness's comparison of the daemon's moves with the simulator's truth: moves the
players make at the same time (the four void choices, the claims of one window) may reach
the journal in another order; every other move must keep its place. Fast: bot deals only.

The deals are seeded bot deals (rules.bots.play_deal) chosen for what they hold: seed 5 has
two Hu on one discard (W then E), seed 44 a Pung (W) and a Hu (N) on one discard."""

from dataclasses import replace
from itertools import pairwise

import pytest
from harness import DealTruth, Simultaneous, comparable, truth_deltas

from rules import moves as mv
from rules.bots import play_deal
from rules.melds import MeldKind
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import Tile

RS = load("sbr-mil")


def _truth(seed: int, moves: list | None = None) -> DealTruth:
    deal, _ = play_deal(RS, seed)
    return DealTruth(seed, Seat.E, deal.dice, deal.wall.order, list(moves or deal.moves))


def _voids(moves: list) -> list[int]:
    return [i for i, m in enumerate(moves) if isinstance(m, mv.ChooseVoid)]


def _first_two_claims(moves: list) -> tuple[int, int]:
    """The first two consecutive claims (passes and closes between them skipped)."""
    core = [i for i, m in enumerate(moves) if not isinstance(m, mv.Pass | mv.CloseClaims)]
    claim = (mv.Hu, mv.Pung, mv.RobKong)
    for i, j in pairwise(core):
        if isinstance(moves[i], claim) and isinstance(moves[j], claim):
            return i, j
    raise AssertionError("no window with two claims")


@pytest.mark.parametrize("seed", [5, 44])
def test_void_choices_in_another_order_compare_equal(seed):
    truth = _truth(seed)
    journal = list(truth.moves)
    at = _voids(journal)
    assert len(at) == 4 and at == list(range(at[0], at[0] + 4))  # one block, before play
    journal[at[0] : at[-1] + 1] = reversed(journal[at[0] : at[-1] + 1])
    assert journal != truth.moves
    assert comparable(journal) == comparable(truth.moves)
    # the judge takes them in either order to the same deltas (the e2e deltas check)
    assert truth_deltas("sbr-mil", _truth(seed, journal)) == truth_deltas("sbr-mil", truth)


def test_a_different_void_tile_does_not_compare_equal():
    truth = _truth(5)
    journal = list(truth.moves)
    i = _voids(journal)[1]
    other = Tile.M1 if journal[i].tile is not Tile.M1 else Tile.M2
    journal[i] = replace(journal[i], suit=other.suit, tile=other)
    assert comparable(journal) != comparable(truth.moves)
    journal[i] = replace(truth.moves[i], seat=truth.moves[i - 1].seat)  # a seat twice
    assert comparable(journal) != comparable(truth.moves)


@pytest.mark.parametrize("seed", [5, 44])
def test_claims_of_one_window_in_another_order_compare_equal(seed):
    """004 Lesson 4: several players declare on one discard; the judge resolves by seat
    from the discarder (rules.claims.resolve), so arrival order is not a fact of the game."""
    truth = _truth(seed)
    journal = list(truth.moves)
    i, j = _first_two_claims(journal)
    journal[i], journal[j] = journal[j], journal[i]
    assert comparable(journal) == comparable(truth.moves)
    assert truth_deltas("sbr-mil", _truth(seed, journal)) == truth_deltas("sbr-mil", truth)
    # a claim missing is seen
    assert comparable(journal[:i] + journal[i + 1 :]) != comparable(truth.moves)


def test_other_moves_keep_their_order():
    truth = _truth(5)
    journal = list(truth.moves)
    discard = _voids(journal)[-1] + 1  # East's first discard, then South's draw
    draw = next(i for i, m in enumerate(journal) if isinstance(m, mv.Draw))
    assert isinstance(journal[discard], mv.Discard) and draw > discard
    journal[discard], journal[draw] = journal[draw], journal[discard]
    assert comparable(journal) != comparable(truth.moves)


def test_a_declared_kong_is_not_part_of_the_window_that_may_rob_it():
    kong = mv.Kong(Seat.E, MeldKind.PROMOTED_KONG, Tile.P8)
    rob = mv.RobKong(Seat.S)
    assert comparable([kong, rob]) == [kong, Simultaneous("claims", (rob,))]
    assert comparable([rob, kong]) != comparable([kong, rob])


def test_void_choices_and_claims_are_separate_blocks():
    voids = [mv.ChooseVoid(s, Tile.M1.suit, Tile.M1) for s in Seat]
    claims = [mv.Hu(Seat.S), mv.Pung(Seat.W)]
    out = comparable([*voids, mv.Discard(Seat.E, Tile.M1), *claims])
    assert [type(x) for x in out] == [Simultaneous, mv.Discard, Simultaneous]
    assert out[0] == Simultaneous("void choices", tuple(sorted(voids, key=repr)))
    assert out[2] == Simultaneous("claims", tuple(sorted(claims, key=repr)))
