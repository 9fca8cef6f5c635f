"""Random Wellness bot deals (001), as tests/rules/test_random_deals.py does for the Sichuan
sets: each deal settled, checked against the ledger invariants (zero-sum except penalties paid
to nobody; a winner neither pays nor receives afterwards, except as one of the three
opponents of a false win, 001 III 3.2) and re-judged from its own deal record (JSON text and
back) to the same ledger; across the run every category the rule set can produce is reached.

10,000 deals, as for the Sichuan sets (issue 8). A Wellness deal is longer than a Sichuan
one (83 tiles left after the deal, not 55; chows); since the memo of scored readings and
theoretical maxima (rules/wellness.py, docs/DEAL-RECORD.md "Speed") one deal of this test
costs about 7 ms of CPU (8.2 ms before; 300 deals, old and new alternately, best of two),
so the 10,000 run in about 70 s of CPU on this project's machine."""

import pytest

from rules.random_deals import Category, Summary, applicable, merge, play_one, run
from rules.ruleset import load

RULES = "wellness"
DEALS = 10_000
CHUNKS = 10
PER_CHUNK = DEALS // CHUNKS
SEED = 2016

_DONE: dict[int, Summary] = {}


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_wellness_random_deals_keep_the_invariants_and_rejudge_from_their_records(chunk):
    summary = run(load(RULES), PER_CHUNK, SEED, first=chunk * PER_CHUNK)
    assert summary.deals == PER_CHUNK
    assert not summary.violations, summary.violations[:10]
    _DONE[chunk] = summary


@pytest.mark.slow
def test_every_wellness_category_is_reached():
    rs = load(RULES)
    for chunk in range(CHUNKS):
        if chunk not in _DONE:
            _DONE[chunk] = run(rs, PER_CHUNK, SEED, first=chunk * PER_CHUNK)
    total = merge([_DONE[c] for c in range(CHUNKS)])
    assert total.deals == DEALS
    assert not total.violations
    assert total.missing(rs) == (), {c.value: total.counts.get(c, 0) for c in Category}
    for c in set(Category) - applicable(rs):
        assert not total.counts.get(c), c
    assert total.counts[Category.END_THIRD_HU] + total.counts[Category.END_WALL] == DEALS


def test_the_categories_wellness_can_produce():
    reach = applicable(load(RULES))
    assert Category.CHOW in reach  # 001 IV 2.1
    assert Category.CHOW not in applicable(load("sbr-mil"))  # never declared in Sichuan
    # no void suit, no flower pig, no kong payments to refund (docs/WELLNESS.md choice 11)
    assert not {Category.VOID_PENALTY, Category.FLOWER_PIG, Category.KONG_REFUND} & reach
    assert Category.KONG_REFUND in applicable(load("sbr-mil"))


def test_a_wellness_bot_deal_chows_holds_honours_and_settles_in_points_of_100():
    chows = honours = 0
    for seed in range(40):
        report = play_one(load(RULES), seed)
        assert not report.violations, report.violations
        chows += report.counts.get(Category.CHOW, 0)
        deal = report.deal
        honours += sum(t.is_honour for s in deal.still_in for t in deal.hand(s))
        assert all(line.points % 100 == 0 for line in deal.ledger().lines)
    assert chows > 0 and honours > 0
