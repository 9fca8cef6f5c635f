"""10,000 random bot deals per rule set, each settled, checked against the ledger invariants
and re-judged from its own deal record (JSON text and back) to the same ledger (issue 3
items 5 and 8); across the run every counted category the rule set can produce is reached.

The 10,000 deals of a rule set are split over `CHUNKS` tests (a few thousand deals each, so
no single test runs long); `test_every_category_is_reached` merges them (and plays any chunk
this session did not run, e.g. under `-k`)."""

from collections import defaultdict

import pytest

from rules.deal import Deal
from rules.moves import ChooseVoid, Penalty, SelfDrawnHu
from rules.random_deals import (
    Category,
    Summary,
    applicable,
    check_invariants,
    hu_marks,
    merge,
    play_one,
    run,
)
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import Suit, Tile, parse_tiles
from rules.wall import Dice, compose

RULES = ["sbr-mil", "sbr-russia", "sbr-chengdu2016", "wmt"]
DEALS = 10_000
CHUNKS = 10
PER_CHUNK = DEALS // CHUNKS
SEED = 2016

_DONE: dict[str, dict[int, Summary]] = defaultdict(dict)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("rules", RULES)
def test_random_deals_keep_the_invariants_and_rejudge_from_their_records(rules, chunk):
    summary = run(load(rules), PER_CHUNK, SEED, first=chunk * PER_CHUNK)
    assert summary.deals == PER_CHUNK
    assert not summary.violations, summary.violations[:10]
    _DONE[rules][chunk] = summary


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_every_category_is_reached(rules):
    rs = load(rules)
    for chunk in range(CHUNKS):
        if chunk not in _DONE[rules]:
            _DONE[rules][chunk] = run(rs, PER_CHUNK, SEED, first=chunk * PER_CHUNK)
    total = merge([_DONE[rules][c] for c in range(CHUNKS)])
    assert total.deals == DEALS
    assert not total.violations
    assert total.missing(rs) == (), {c.value: total.counts.get(c, 0) for c in Category}
    # the categories a rule set cannot produce stay at zero
    for c in set(Category) - applicable(rs):
        assert not total.counts.get(c), c
    # each deal ends on the third Hu or at the wall; every Hu is counted once by its kind
    ends = total.counts[Category.END_THIRD_HU] + total.counts[Category.END_WALL]
    assert ends == DEALS


def test_applicable_categories_follow_the_rule_sets():
    assert Category.FLOWER_PIG in applicable(load("wmt"))  # 000 2.3.1
    assert Category.FLOWER_PIG not in applicable(load("sbr-mil"))
    assert Category.VOID_PENALTY not in applicable(load("wmt"))  # WMT has none
    assert Category.VOID_PENALTY in applicable(load("sbr-chengdu2016"))


def test_a_run_is_reproducible_and_a_chunk_is_a_slice_of_it():
    rs = load("sbr-mil")
    whole = run(rs, 20, 5)
    halves = merge([run(rs, 10, 5), run(rs, 10, 5, first=10)])
    assert whole.counts == halves.counts
    assert whole.rules_used == halves.rules_used
    assert whole.moves == halves.moves


def test_one_deal_report_holds_its_record():
    report = play_one(load("wmt"), 77)
    assert report.deal.over and not report.violations
    assert report.record.moves == tuple(report.deal.history)
    assert sum(report.rules_used.values()) == len(report.deal.ledger().lines)


# -- the invariant checks can fail --------------------------------------------------------


def _heavenly_deal() -> Deal:
    # E is dealt seven pairs of Characters and wins on the dealt hand: S, W, N pay 9 each
    # (004 Table 6, A=8 at the 3-fan cap)
    rs = load("sbr-mil")
    hands = {
        Seat.E: parse_tiles("11223344556677m"),
        Seat.S: parse_tiles("123456789s1234p"),
        Seat.W: parse_tiles("5678p99m1234567s"),
        Seat.N: parse_tiles("99p88m2345678s11s"),
    }
    deal = Deal.start(rs, Dice(6, 4), compose(rs, Dice(6, 4), hands))
    for move in (
        ChooseVoid(Seat.E, Suit.P),
        ChooseVoid(Seat.S, Suit.M),
        ChooseVoid(Seat.W, Suit.M, Tile.M9),
        ChooseVoid(Seat.N, Suit.M, Tile.M8),
        SelfDrawnHu(Seat.E),
    ):
        assert deal.apply(move)
    return deal


def test_a_clean_deal_has_no_violation():
    deal = _heavenly_deal()
    assert hu_marks(deal) == {Seat.E: 3}
    assert deal.apply(Penalty(Seat.S, 4, "yellow card"))  # S is still in: fine
    assert check_invariants(deal) == []


def test_a_winner_paid_after_the_hu_is_a_violation():
    deal = _heavenly_deal()
    assert deal.apply(Penalty(Seat.E, 4, "dispute", Seat.S))  # E has left the deal
    problems = check_invariants(deal, seed=99)
    assert len(problems) == 1
    assert problems[0].seed == 99
    assert problems[0].message.startswith("E has won, yet: E -> S:   4  dispute")
