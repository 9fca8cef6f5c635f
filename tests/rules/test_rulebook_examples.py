"""Worked examples and tables of the MIL rulebook (../shared/seeds/004), as far as the text
carries them (the tile pictures of Lesson 6 and Table 8 are lost in the text copy; where an
example names its tiles, the hand around them is written here and says so).

Lesson 6 assumes Characters (m) is the forbidden suit, and so do the hands below.
"""

import random
from dataclasses import replace

import pytest

from rules.hand import waits
from rules.melds import Meld, MeldKind
from rules.ruleset import load
from rules.scoring import (
    BadSituation,
    NotAWin,
    NoWin,
    hand_value,
    score_hand,
    theoretical_maximum,
)
from rules.tiles import TILES, Suit, Tile, parse_tiles, to_counts

MIL = load("sbr-mil")
RUSSIA = load("sbr-russia")
VOID = Suit.M


def score(hand, melds=(), win=None, rs=MIL, void=VOID, **kw):
    standing = parse_tiles(hand)
    win_tile = Tile.parse(win) if win else standing[-1]
    return score_hand(standing, [Meld.parse(m) for m in melds], win_tile, rs, void=void, **kw)


def fans(s):
    out = {}
    for p in s.patterns:
        out[p.name] = out.get(p.name, 0) + 1
    return out


def maximum(hand, melds=(), rs=MIL, void=VOID):
    return theoretical_maximum(
        to_counts(parse_tiles(hand)), [Meld.parse(m) for m in melds], void, rs
    )


# -- Lesson 3: hand structure -----------------------------------------------------


def test_lesson_3_a_kong_counts_as_three_tiles_in_the_structure():
    # only kongs (exercise: "consisting only of kongs"): 4 kongs + a pair = 18 tiles
    s = score("99s", ["kong 1p", "concealed-kong 3p", "promoted-kong 5s", "postponed-kong 7s"])
    assert fans(s) == {"kong": 4, "all-pungs": 1, "golden-wait": 1}
    assert s.total_fan == 6 and s.value == 8


@pytest.mark.parametrize(
    ("hand", "roots"),
    [("1111p3355p778899s", 1), ("1111p3333p778899s", 2), ("1111p3333p7777s99s", 3)],
)
def test_lesson_3_seven_pairs_with_four_identical_tiles_once_twice_three_times(hand, roots):
    s = score(hand, rs=RUSSIA)
    assert fans(s) == {"seven-pairs": 1, "root": roots}
    assert s.value == 2 ** min(2 + roots, 4)


def test_lesson_3_chows_pungs_and_a_pair_structure():
    # Figure 1: Pung - Chow - Pung - Chow - Pair, nothing declared: no fan, 1 point
    s = score("222p345p777s456s11s")
    assert s.patterns == () and s.value == 1


# -- Lesson 5: Table 4, Table 5, payments of waiting hands -------------------------


@pytest.mark.parametrize(
    ("name", "hand", "melds", "win", "fan"),
    [
        # no 1 Kong: "4 identical tiles in kong", 1 for each
        ("kong", "123p456p789p11s", ["kong 5s"], "1s", 1),
        # no 2 Root: "4 identical tiles in two or more sets"
        ("root", "345p555p678s99s", ["pung 1s"], "5p", 1),
        # no 3 All Pungs: "four pungs or kongs and a pair"
        ("all-pungs", "111p444p222s88s", ["pung 9s"], "8s", 1),
        # no 4 Golden Wait: "four melds ... the winning tile completes the pair" (+ all pungs)
        ("golden-wait", "66p", ["pung 1p", "pung 3p", "pung 2s", "pung 7s"], "6p", 1),
        # no 5 Full Flush: "all tiles in the hand are one suit only"
        ("full-flush", "123s456s789s234s55s", [], "5s", 2),
        # no 6 Seven Pairs
        ("seven-pairs", "113355p224466s88s", [], "8s", 2),
    ],
)
def test_table_4_structural_combinations(name, hand, melds, win, fan):
    s = score(hand, melds, win)
    hit = [p for p in s.patterns if p.name == name]
    assert len(hit) == 1 and hit[0].fan == fan
    assert hit[0].reason.startswith(f"{name}: ")


@pytest.mark.parametrize(
    ("fans_total", "points"), [(0, 1), (1, 2), (2, 4), (3, 8), (4, 16), (7, 16)]
)
def test_table_5_hand_value_with_the_4_fan_limit(fans_total, points):
    assert hand_value(fans_total, RUSSIA.scoring) == points


def test_lesson_5_limit_of_3_is_8_points():
    # "maximal hand value is 2*2*2=8 points for the limit of 3 fans"
    assert hand_value(10, MIL.scoring) == 8


def test_lesson_5_forbidden_suit_in_a_hu_hand_is_a_false_hu():
    with pytest.raises(NotAWin) as info:
        score("123m456p789p11p", ["pung 5p"], "1p")
    assert info.value.kind is NoWin.VOID_TILE


def test_lesson_5_forbidden_suit_at_wall_end_counts_as_not_ready():
    assert maximum("123p456p789p1m", ["pung 5s"]) == 0
    assert maximum("123p456p789p1s", ["pung 5s"]) == 1


def test_lesson_5_exhaustive_no_wait_on_a_tile_held_four_times():
    counts = to_counts(parse_tiles("1111234p567s789s"))
    assert waits(counts) == (Tile.parse("4p"),)  # 1p would complete the shape: no fifth 1p


# -- Lesson 6: special conditions for the winning tile ----------------------------


def test_lesson_6_win_after_kong():
    # "after declaring a kong on B8 replacement tile D7 completes the hand"
    s = score("123s456p567p99p", ["kong 8s"], "7p", self_drawn=True, situations={"win-after-kong"})
    assert fans(s) == {"kong": 1, "win-after-kong": 1}
    assert s.value == 4


def test_lesson_6_robbing_the_kong():
    # "after declaring of promoted kong on D8 by another player this tile completes the hand"
    s = score("123s456s99s234p678p", win="8p", situations={"robbing-the-kong"})
    assert fans(s) == {"robbing-the-kong": 1}
    assert s.value == 2


def test_lesson_6_shoot_after_kong():
    # "after declaring of a kong by another player discarded tile B5 completes the hand"
    s = score("123p456p99p345s678s", win="5s", situations={"shoot-after-kong"})
    assert fans(s) == {"shoot-after-kong": 1}


@pytest.mark.parametrize("self_drawn", [True, False])
def test_lesson_6_under_the_sea_on_the_last_tile_or_the_last_discard(self_drawn):
    # "the winning tile B4 is either taking from the wall (the last tile), or is discarded"
    s = score(
        "123p456p99p234s678s",
        win="4s",
        self_drawn=self_drawn,
        situations={"under-the-sea"},
    )
    assert fans(s) == {"under-the-sea": 1}


def test_lesson_6_three_fans_kong_kong_all_pungs():
    s = score("777p888s33s", ["kong 2s", "concealed-kong 5p"], "3s")
    assert fans(s) == {"kong": 2, "all-pungs": 1}
    assert (s.total_fan, s.value) == (3, 8)


# -- Lesson 6: hand value theoretical maximum -------------------------------------


def test_theoretical_maximum_golden_wait_has_no_choice():
    hand, melds = "6p", ["pung 1p", "pung 3p", "pung 2s", "pung 7s"]
    assert waits(to_counts(parse_tiles(hand)), [Meld.parse(m) for m in melds]) == (
        Tile.parse("6p"),
    )
    assert maximum(hand, melds) == 4  # all pungs + golden wait


def test_theoretical_maximum_root_chosen_by_the_winning_tile():
    # 11123p: 1p makes four 1p (a root), 4p and 9s make plain hands
    hand = "11123p555s777s99s"
    assert [str(t) for t in waits(to_counts(parse_tiles(hand)))] == ["1p", "4p", "9s"]
    assert maximum(hand) == 2


def test_theoretical_maximum_all_pungs_chosen_by_the_winning_tile():
    # 2p or 3p: 111 222 33 / 111 22 333 (all pungs); 1p: 11 123 123 (a root); 4p: plain
    hand = "1112233p555s777s"
    assert [str(t) for t in waits(to_counts(parse_tiles(hand)))] == ["1p", "2p", "3p", "4p"]
    values = {w: score(hand + w, win=w).value for w in ("1p", "2p", "3p", "4p")}
    assert values == {"1p": 2, "2p": 2, "3p": 2, "4p": 1}
    assert maximum(hand) == 2


def test_theoretical_maximum_seven_pairs_chosen_by_the_winning_tile():
    # 8p pairs the single tile: seven pairs (2 fans) beats 123s 123s 567p 567p 88p
    hand = "112233s556677p8p"
    assert maximum(hand) == 4


def test_theoretical_maximum_full_flush_does_not_depend_on_the_wait():
    # Chapter 2 test, question 5: full flush cannot come from choosing the winning tile
    hand = "1112345678999p"  # 13 tiles, waiting on every Dots tile
    tiles = waits(to_counts(parse_tiles(hand)))
    assert all(score(hand + str(w), win=str(w)).count("full-flush") == 1 for w in tiles)
    assert maximum(hand, rs=RUSSIA) == 8  # full flush + a root on 1p or 9p


def test_theoretical_maximum_ignores_special_conditions():
    # Lesson 6 Note: in the wall-ends final no special condition is assumed
    hand, melds = "123s456p567p9p", ["kong 8s"]
    assert maximum(hand, melds) == 1  # a plain hand: the kong is not counted (below)
    assert maximum(hand, melds, rs=COUNTING_KONGS) == 2  # the kong only, never win-after-kong


# Lesson 6, the second worked example of the theoretical maximum, as the book writes it:
# melded pung 3s, melded kong 4s, melded pung 1m; standing 7m 7m 7m 8m; waits 6m, 8m, 9m;
# "in case of C8 a valuable combination 'All Pungs' is added totaling 1 fan" (2 points).
# The paragraph before: "The combination 'Kong' is not suitable, since it requires a
# declaration". Characters are the hand's suit here, so the void is Dots.
EXAMPLE_HAND, EXAMPLE_MELDS = "7778m", ["pung 3s", "kong 4s", "pung 1m"]
COUNTING_KONGS = replace(MIL, scoring=replace(MIL.scoring, maximum_counts_kongs=True))


@pytest.mark.parametrize("rs", [MIL, RUSSIA], ids=lambda rs: rs.name)
def test_lesson_6_wall_end_maximum_of_a_hand_with_a_declared_kong(rs):
    counts = to_counts(parse_tiles(EXAMPLE_HAND))
    melds = [Meld.parse(m) for m in EXAMPLE_MELDS]
    assert [str(t) for t in waits(counts, melds, Suit.P)] == ["6m", "8m", "9m"]
    assert maximum(EXAMPLE_HAND, EXAMPLE_MELDS, rs=rs, void=Suit.P) == 2  # all pungs on 8m
    # a Hu on 8m itself still scores the declared kong (Table 4 no 1): 2 fan, 4 points
    assert score(EXAMPLE_HAND + "8m", EXAMPLE_MELDS, "8m", rs=rs, void=Suit.P).value == 4


def test_lesson_6_example_with_the_kong_counted_in_the_maximum():
    # the other reading (`scoring.maximum-counts-kongs = true`): kong + all pungs on 8m
    assert maximum(EXAMPLE_HAND, EXAMPLE_MELDS, rs=COUNTING_KONGS, void=Suit.P) == 4
    # wmt counts it (000 2.8.3: a declared kong is a root): root + all triplets = 4 points
    assert maximum(EXAMPLE_HAND, EXAMPLE_MELDS, rs=load("wmt"), void=Suit.P) == 4


# -- Table 9: compatibility of valuable combinations -------------------------------

ABBR = {
    "kong": "K",
    "root": "R",
    "all-pungs": "AP",
    "golden-wait": "GW",
    "full-flush": "FF",
    "seven-pairs": "SP",
    "win-after-kong": "WaK",
    "shoot-after-kong": "SaK",
    "robbing-the-kong": "RK",
    "under-the-sea": "US",
}
SITUATIONS = ["win-after-kong", "shoot-after-kong", "robbing-the-kong", "under-the-sea"]
COLUMNS = ["K", "R", "AP", "GW", "FF", "SP", "WaK", "SaK", "RK", "US"]
# 004 Table 9, row by row ("." for an empty cell)
TABLE_9 = """
K    4 + + + + . + + + +
R    + 3 . . + + + + + +
AP   + . 1 + + . + + . +
GW   + . + 1 + . + + . +
FF   + + + + 1 + + + + +
SP   . + . . + 1 . + . +
WaK  + + + + + . 1 . . +
SaK  + + + + + + . 1 . +
RK   + + . . + . . . 1 .
US   + + + + + + + + . 1
"""


def _table_9():
    pairs, most = set(), {}
    for line in TABLE_9.strip().splitlines():
        row, *cells = line.split()
        for col, cell in zip(COLUMNS, cells, strict=True):
            if row == col:
                most[row] = int(cell)
            elif cell == "+":
                pairs.add(frozenset((row, col)))
    return pairs, most


def _random_win(rnd):
    """A random winning hand with random declared kongs and situations."""
    suits = rnd.sample([Suit.P, Suit.S], rnd.choice([1, 2]))
    kinds = [t for t in TILES[:27] if t.suit in suits]
    pool = rnd.sample(kinds, rnd.randint(4, min(8, len(kinds))))
    standing, melds = [], []
    if rnd.random() < 0.25:
        for _ in range(7):
            t = rnd.choice(pool)
            standing += [t, t]
    else:
        for _ in range(4):
            t = rnd.choice(pool)
            if rnd.random() < 0.35 and t.rank <= 7:
                standing += [t, Tile(t + 1), Tile(t + 2)]
            elif rnd.random() < 0.35:
                standing += [t, t, t]
            else:
                melds.append(Meld(rnd.choice([k for k in MeldKind if k is not MeldKind.CHOW]), t))
        t = rnd.choice(pool)
        standing += [t, t]
    events = frozenset(e for e in SITUATIONS if rnd.random() < 0.3)
    return standing, melds, rnd.choice(standing), rnd.random() < 0.5, events


def test_table_9_compatibility_and_multiplicity():
    """Every "+" pair is seen together in some scored hand, no empty cell ever is, and no
    combination occurs more often than the table's diagonal allows."""
    rnd = random.Random(2017)
    seen, most = set(), dict.fromkeys(COLUMNS, 0)
    for _ in range(20000):
        standing, melds, win, self_drawn, events = _random_win(rnd)
        try:
            s = score_hand(standing, melds, win, RUSSIA, self_drawn=self_drawn, situations=events)
        except (NotAWin, BadSituation):
            continue
        counts = {}
        for p in s.patterns:
            counts[ABBR[p.name]] = counts.get(ABBR[p.name], 0) + 1
        for a, n in counts.items():
            most[a] = max(most[a], n)
            seen.update(frozenset((a, b)) for b in counts if b != a)
    pairs, allowed = _table_9()
    assert seen == pairs
    assert most == allowed
