"""Random Wellness bot deals (001), as tests/rules/test_random_deals.py does for the Sichuan
sets: each deal settled, checked against the ledger invariants (zero-sum except penalties paid
to nobody; a winner neither pays nor receives afterwards, except as one of the three
opponents of a false win, 001 III 3.2) and re-judged from its own deal record (JSON text and
back) to the same ledger; across the run every category the rule set can produce is reached.

6,000 deals, not the Sichuan sets' 10,000: a Wellness deal is longer (83 tiles left after the
deal, not 55; chows) and costs about 9 ms of CPU against sbr-mil's 5.5 ms (1,000 deals of
seed 2016, after the judge's speed-ups), so 6,000 is what runs in about a minute on this
project's machine (~53 s of CPU; 10,000 would take ~90 s)."""

import pytest

from rules.random_deals import Category, Summary, applicable, merge, play_one, run
from rules.ruleset import load

RULES = "wellness"
DEALS = 6_000
CHUNKS = 6
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
