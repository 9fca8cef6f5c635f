"""The hand functions' shortcuts keep the answers of the paths they shortcut: the win
check's one-pass test on counts against the rule-by-rule check (same counts, or the same
NotAWin kind), the Wellness memo of scored readings and theoretical maxima against scoring
afresh, and a live suit key's near digits against the counts."""

import random
from dataclasses import replace

from hypothesis import given, settings, strategies as st

from rules import wellness
from rules.bot_policy import stamp
from rules.hand import decompositions
from rules.live_hand import NEAR_DIGITS, suit_keys
from rules.melds import Meld, MeldKind
from rules.moves import Kong
from rules.ruleset import load
from rules.scoring import NotAWin, _check, _check_each
from rules.seats import SEATS
from rules.tiles import TILES, Suit

RULE_SETS = ("sbr-mil", "wmt", "wellness")
_KINDS = (MeldKind.PUNG, MeldKind.KONG, MeldKind.CONCEALED_KONG, MeldKind.CHOW)


def _outcome(check, standing, melds, void, rs):
    try:
        return check(standing, melds, void, rs)
    except NotAWin as e:
        return e.kind


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(RULE_SETS),
    st.lists(st.integers(0, 33), min_size=0, max_size=16),
    st.lists(st.tuples(st.sampled_from(_KINDS), st.integers(0, 33)), max_size=5),
    st.sampled_from((None, Suit.M, Suit.P, Suit.S)),
)
def test_the_one_pass_win_check_agrees_with_the_rule_by_rule_check(name, tiles, meld_specs, void):
    rs = load(name)
    melds = []
    for kind, i in meld_specs:
        if kind is MeldKind.CHOW and (i >= 27 or TILES[i].rank > 7):
            continue  # not a meld at all (Meld refuses it)
        melds.append(Meld(kind, TILES[i]))
    # most drawn hands have the length a win needs, so the one-pass test answers them
    need = 14 - 3 * len(melds)
    if len(tiles) > need >= 0:
        tiles = tiles[:need]
    standing = [TILES[i] for i in tiles]
    assert _outcome(_check, standing, melds, void, rs) == _outcome(
        _check_each, standing, melds, void, rs
    )


def test_a_sichuan_winning_hand_passes_the_one_pass_check():
    # 004 Lesson 5 style full flush: 111 234 567 999m 55m (five sets read, void Dots)
    rs = load("sbr-mil")
    standing = [TILES[i] for i in (0, 0, 0, 1, 2, 3, 4, 5, 6, 8, 8, 8, 4, 4)]
    assert _check(standing, [], Suit.P, rs)[0] == 3
    # the same hand with its void suit Characters: the rule-by-rule check names it
    assert _outcome(_check, standing, [], Suit.M, rs).name == "VOID_TILE"


def _complete_hand(rng: random.Random) -> list[int]:
    """Four sets (pungs, or chows of a number suit) and a pair, never five copies."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            i = rng.randrange(34)
            if i < 27 and TILES[i].rank <= 7 and rng.random() < 0.5:
                for j in (i, i + 1, i + 2):
                    counts[j] += 1
            else:
                counts[i] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def test_the_wellness_memo_scores_as_afresh():
    rs = load("wellness")
    rng = random.Random(8)
    for _ in range(40):
        counts = _complete_hand(rng)
        win = TILES[rng.choice([i for i in range(34) if counts[i]])]
        winds = wellness.Winds()
        for d in decompositions(counts, 0):
            h = wellness.reading(d, (), win, counts, rng.random() < 0.5)
            first = wellness.score_reading(h, rs, winds)
            assert wellness.score_reading(h, rs, winds) is first  # from the memo
            assert first == wellness._score_reading(h, rs, winds)
        counts[win] -= 1  # the 13 tiles before the win: ready, waiting on `win` at least
        value = wellness.theoretical_maximum(counts, (), rs)
        assert value > 0
        assert wellness.theoretical_maximum(counts, (), rs) == value
        assert value == wellness._theoretical_maximum(counts, (), rs, winds)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=34, max_size=34))
def test_near_digits_see_a_copy_or_neighbour_as_the_counts_do(counts):
    # the seventh round's "no copy and no neighbour within two ranks" test on a live suit
    # key against the counts' slice it replaced
    keys = suit_keys(counts)
    for t in TILES:
        lo, hi = (t, t + 1) if t.is_honour else (t - min(2, t.rank - 1), t + 1 + min(2, 9 - t.rank))
        s, low, span = NEAR_DIGITS[t]
        assert (keys[s] // low % span != 0) == any(counts[lo:hi]), t
    for i, suit in enumerate((Suit.M, Suit.P, Suit.S)):
        assert (keys[i] != 0) == any(counts[suit.offset : suit.offset + 9])


@given(
    st.sampled_from(SEATS),
    st.sampled_from([MeldKind.KONG, MeldKind.CONCEALED_KONG, MeldKind.PROMOTED_KONG]),
    st.sampled_from(TILES),
    st.floats(0, 10_000, allow_nan=False),
)
def test_a_kong_stamped_by_the_bots_is_the_kong_replace_makes(seat, kind, tile, t):
    # `stamp` rebuilds a kong by its quick constructor instead of `dataclasses.replace`
    kong = Kong(seat, kind, tile)
    stamped = stamp(kong, t)
    assert type(stamped) is Kong and stamped == replace(kong, t=t)
    assert repr(stamped) == repr(replace(kong, t=t))
