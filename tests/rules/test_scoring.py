"""Fan evaluation: edge cases written from RULES.md "Scoring" and "Hand shapes", the rule
sets as data, and properties (hypothesis) checked against independent computations."""

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from rules.hand import decompositions, waits
from rules.melds import Meld, MeldKind
from rules.patterns import DETECTORS, Reading
from rules.ruleset import Payer, available, load
from rules.scoring import (
    EVENTS,
    BadSituation,
    NotAWin,
    NoWin,
    hand_value,
    is_winning,
    score_hand,
    theoretical_maximum,
)
from rules.tiles import TILES, Suit, Tile, parse_tiles, to_counts

MIL = load("sbr-mil")
RUSSIA = load("sbr-russia")
CHENGDU = load("sbr-chengdu2016")
WMT = load("wmt")


def score(hand, melds=(), win=None, rs=MIL, **kw):
    standing = parse_tiles(hand)
    win_tile = Tile.parse(win) if win else standing[-1]
    return score_hand(standing, [Meld.parse(m) for m in melds], win_tile, rs, **kw)


def fans(s):
    out = {}
    for p in s.patterns:
        out[p.name] = out.get(p.name, 0) + 1
    return out


# -- the rule sets as data ----------------------------------------------------------


def test_the_four_named_rule_sets_exist():
    assert {"sbr-mil", "sbr-russia", "sbr-chengdu2016", "wmt"} <= set(available())


@pytest.mark.parametrize("name", ["sbr-mil", "sbr-russia", "sbr-chengdu2016", "wmt"])
def test_every_pattern_and_situation_of_a_rule_set_is_known(name):
    rs = load(name)
    assert set(rs.scoring.fans) <= set(DETECTORS)
    for key, sit in rs.scoring.situations.items():
        assert (sit.on or key) in EVENTS
    for outer, inner in rs.scoring.includes.items():
        assert outer in rs.scoring.fans
        assert set(inner) <= set(rs.scoring.fans)


def test_rule_set_parameters_from_the_documents():
    assert (MIL.scoring.fan_cap, RUSSIA.scoring.fan_cap) == (3, 4)  # 004 Lesson 5
    assert CHENGDU.payments.wall_end.value == "flat"  # 002: 1 point, no doubles
    assert CHENGDU.payments.wall_end_flat == 1
    assert (CHENGDU.session.deals, CHENGDU.session.minutes) == (10, 60)  # 002
    assert WMT.payments.flower_pig == 8  # 000 2.3.1
    assert WMT.payments.false_hu == 8  # 000 3.3
    assert WMT.play.skip_pung_lock is True  # 000 2.2.4
    assert WMT.session.hands_per_round == 8  # 000 2.10
    assert WMT.session.rank_points == (4, 3, 2, 1)
    assert WMT.payments.kong_refund_on_draw.value == "all"
    assert MIL.payments.kong_refund_on_draw.value == "not-ready"


# -- hand value ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rs", "values"),
    [(MIL, [1, 2, 4, 8, 8, 8]), (RUSSIA, [1, 2, 4, 8, 16, 16]), (WMT, [1, 2, 4, 8, 8, 8])],
)
def test_hand_value_doubles_up_to_the_cap(rs, values):
    assert [hand_value(f, rs.scoring) for f in range(6)] == values


@given(st.integers(0, 40), st.sampled_from([MIL, RUSSIA, CHENGDU, WMT]))
def test_value_is_monotone_in_fans_and_never_above_the_cap(fan, rs):
    v = hand_value(fan, rs.scoring)
    assert v <= hand_value(fan + 1, rs.scoring)
    assert v <= rs.scoring.base_points * 2**rs.scoring.fan_cap
    assert v == 2 ** min(fan, rs.scoring.fan_cap)


# -- edge cases from RULES.md ------------------------------------------------------


def test_golden_wait_scores_all_pungs_too():
    s = score("55p", ["pung 1p", "kong 2s", "pung 3s", "concealed-kong 4p"], "5p")
    assert fans(s) == {"kong": 2, "all-pungs": 1, "golden-wait": 1}
    assert (s.total_fan, s.value) == (4, 8)
    assert (
        score("55p", ["pung 1p", "kong 2s", "pung 3s", "concealed-kong 4p"], "5p", rs=RUSSIA).value
        == 16
    )


def test_seven_pairs_with_four_identical_tiles_is_a_root():
    s = score("11113355p778899s", win="9s")
    assert fans(s) == {"seven-pairs": 1, "root": 1}
    assert (s.total_fan, s.value) == (3, 8)
    root = next(p for p in s.patterns if p.name == "root")
    assert root.reason == "root: four 1p as two pairs"


def test_root_reason_names_the_sets_it_spreads_over():
    s = score("345p555p678s99s", ["pung 1s"], "5p")
    assert [p.reason for p in s.patterns] == ["root: four 5p over a pung and a chow"]
    s = score("123p123p11p456s789s", win="9s")
    assert [p.reason for p in s.patterns] == ["root: four 1p over two chows and the pair"]


def test_three_roots_read_as_seven_pairs_beat_four_chows():
    # 111122223333p55s: four chows 123p (3 roots) or seven pairs (3 roots + 2 fans)
    s = score("111122223333p55s", win="5s", rs=RUSSIA)
    assert fans(s) == {"root": 3, "seven-pairs": 1}
    assert (s.total_fan, s.value) == (5, 16)
    assert {p.reason for p in s.patterns if p.name == "root"} == {
        "root: four 1p as two pairs",
        "root: four 2p as two pairs",
        "root: four 3p as two pairs",
    }


def test_a_declared_kong_is_a_kong_not_a_root_in_sbr_but_a_root_in_wmt():
    hand, melds = "123p456p789p99s", ["kong 5s"]
    assert fans(score(hand, melds, "9s")) == {"kong": 1}
    assert fans(score(hand, melds, "9s", rs=WMT)) == {"root": 1}


def test_pung_meld_plus_the_fourth_tile_in_a_chow_is_a_root():
    s = score("234s567s99s234p", ["pung 2s"], "4p")
    assert fans(s) == {"root": 1}


@pytest.mark.parametrize(
    ("hand", "melds", "win", "void", "kind"),
    [
        ("123m456p789p11p", ["pung 5p"], "1p", Suit.M, NoWin.VOID_TILE),
        ("123p456p789p11p", ["pung 5m"], "1p", Suit.M, NoWin.VOID_TILE),
        ("123m456p789s11s", ["pung 5s"], "1s", None, NoWin.THREE_SUITS),
        ("123p456p789p12s", ["pung 5s"], "2s", None, NoWin.SHAPE),
        ("123p456p789p1s", ["pung 5s"], "1s", None, NoWin.TILE_COUNT),
        ("11111p2p456p789p11s", [], "1s", None, NoWin.TOO_MANY_COPIES),
        ("123p456p789p11s", ["pung 5s"], "4s", None, NoWin.WIN_NOT_IN_HAND),
        ("123p456p789p11z", ["pung 5s"], "1z", None, NoWin.NOT_IN_SET),
        ("456p789p11s", ["pung 5s", "chow 123p"], "1s", None, NoWin.ILLEGAL_MELD),
    ],
)
def test_hands_that_do_not_win(hand, melds, win, void, kind):
    with pytest.raises(NotAWin) as info:
        score(hand, melds, win, void=void)
    assert info.value.kind is kind
    assert info.value.reason
    standing = parse_tiles(hand)
    assert kind is NoWin.WIN_NOT_IN_HAND or not is_winning(
        standing, [Meld.parse(m) for m in melds], void, MIL
    )


def test_void_suit_is_the_players_own_choice():
    s = score("123m456m789m11p", ["pung 5p"], "1p", void=Suit.S)
    assert s.value == 1
    assert is_winning(parse_tiles("123m456m789m11p"), [Meld.parse("pung 5p")], Suit.S, MIL)


@pytest.mark.parametrize(
    ("rs", "value"), [(MIL, 8), (RUSSIA, 16), (CHENGDU, 8)]
)  # kong + root + full flush = 4 fans
def test_cap_per_rule_set(rs, value):
    s = score("111p123p555p99p", ["kong 7p"], "9p", rs=rs)
    assert s.total_fan == 4
    assert s.value == value


# -- situations -----------------------------------------------------------------------


def test_sbr_situations_add_a_fan_each():
    base = score("234p567p88p456s", ["kong 9s"], "4s", self_drawn=True)
    wak = score(
        "234p567p88p456s", ["kong 9s"], "4s", self_drawn=True, situations={"win-after-kong"}
    )
    both = score(
        "234p567p88p456s",
        ["kong 9s"],
        "4s",
        self_drawn=True,
        situations={"win-after-kong", "under-the-sea"},
    )
    assert (base.total_fan, wak.total_fan, both.total_fan) == (1, 2, 3)
    assert (base.value, wak.value, both.value) == (2, 4, 8)


@pytest.mark.parametrize(
    ("situations", "self_drawn", "melds", "win"),
    [
        ({"lucky"}, False, ["kong 9s"], "4s"),
        ({"win-after-kong"}, False, ["kong 9s"], "4s"),  # a replacement tile is drawn
        ({"win-after-kong"}, True, ["pung 9s"], "4s"),  # no kong declared
        ({"shoot-after-kong"}, True, ["kong 9s"], "4s"),
        ({"robbing-the-kong"}, True, ["kong 9s"], "4s"),
        ({"robbing-the-kong"}, False, ["kong 9s"], "8p"),  # holds another 8p
        ({"robbing-the-kong", "under-the-sea"}, False, ["kong 9s"], "4s"),
        ({"robbing-the-kong", "shoot-after-kong"}, False, ["kong 9s"], "4s"),
        ({"heavenly"}, True, ["kong 9s"], "4s"),
    ],
)
def test_situations_that_contradict_the_hand_are_refused(situations, self_drawn, melds, win):
    with pytest.raises(BadSituation):
        score(
            "234p567p88p456s",
            melds,
            win,
            self_drawn=self_drawn,
            situations=frozenset(situations),
        )


def test_wmt_situations_multiply_the_hand_value():
    hand, melds = "234p567p88p456s", ["kong 9s"]
    bloom = score(hand, melds, "4s", rs=WMT, self_drawn=True, situations={"win-after-kong"})
    assert fans(bloom) == {"root": 1, "kong-bloom": 1}
    assert (bloom.value, bloom.multiplier, bloom.payer) == (2, 4, Payer.MELDED_KONG_DISCARDER)
    moon = score(hand, melds, "4s", rs=WMT, self_drawn=True, situations={"under-the-sea"})
    save = score(hand, melds, "4s", rs=WMT, situations={"under-the-sea"})
    assert ("moon-from-the-sea-bottom" in fans(moon), moon.multiplier) == (True, 2)
    assert ("last-minute-save" in fans(save), save.multiplier) == (True, 2)
    robbed = score(hand, melds, "4s", rs=WMT, situations={"robbing-the-kong"})
    assert (fans(robbed)["robbing-a-kong"], robbed.multiplier, robbed.payer) == (
        1,
        2,
        Payer.USUAL,
    )
    plain = score(hand, melds, "4s", rs=WMT)
    assert plain.multiplier == 1


def test_heavenly_and_earthly_hands_are_three_fans_in_wmt_and_nothing_in_sbr():
    s = score("123p456p789p11s222s", win="2s", rs=WMT, self_drawn=True, situations={"heavenly"})
    assert fans(s) == {"heavenly-hand": 1} and s.value == 8
    s = score("123p456p789p11s222s", win="2s", rs=WMT, situations={"earthly"})
    assert fans(s) == {"earthly-hand": 1}
    assert (
        score("123p456p789p11s222s", win="2s", self_drawn=True, situations={"heavenly"}).value == 1
    )


# -- properties -------------------------------------------------------------------

SUITED = [t for t in TILES if not t.is_honour]


@st.composite
def complete_hands(draw):
    """A random complete hand in one or two suits: (standing tiles, melds, winning tile)."""
    suits = draw(st.lists(st.sampled_from([Suit.M, Suit.P, Suit.S]), min_size=1, max_size=2))
    kinds = [t for t in SUITED if t.suit in suits]
    counts = [0] * 34
    melds: list[Meld] = []
    standing: list[Tile] = []
    if draw(st.integers(0, 4)) == 0:
        for _ in range(7):
            t = draw(st.sampled_from(kinds))
            standing += [t, t]
    else:
        for _ in range(4):
            t = draw(st.sampled_from(kinds))
            if t.rank <= 7 and draw(st.booleans()):
                standing += [t, Tile(t + 1), Tile(t + 2)]
                continue
            how = draw(st.sampled_from(["stand", "stand", *MeldKind]))
            if how == "stand":
                standing += [t, t, t]
            elif how is not MeldKind.CHOW:
                melds.append(Meld(how, t))
            else:
                standing += [t, t, t]
        p = draw(st.sampled_from(kinds))
        standing += [p, p]
    for t in standing:
        counts[t] += 1
    for m in melds:
        for t in m.tiles:
            counts[t] += 1
    assume(max(counts) <= 4)
    win = draw(st.sampled_from(standing))
    return tuple(standing), tuple(melds), win


@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much])
@given(complete_hands(), st.sampled_from([MIL, RUSSIA, WMT]))
def test_score_is_the_best_reading(hand, rs):
    standing, melds, win = hand
    s = score_hand(standing, melds, win, rs)
    counts = to_counts(standing)
    best = 0
    for d in decompositions(counts, len(melds)):
        reading = Reading(
            d,
            melds,
            win,
            tuple(to_counts([*standing, *[t for m in melds for t in m.tiles]])),
            rs.scoring.kong_is_root,
        )
        names = [n for n in rs.scoring.fans for _ in DETECTORS[n].detect(reading)]
        for outer, inner in rs.scoring.includes.items():
            if outer in names:
                for n in inner:
                    if n in names:
                        names.remove(n)
        best = max(best, hand_value(sum(rs.fan(n) for n in names), rs.scoring))
    assert s.value == best
    assert s.total_fan == sum(p.fan for p in s.patterns)
    assert s.value == hand_value(s.total_fan, rs.scoring)


def _oracle_fan(standing, melds, rs):
    """SBR fans counted straight from 004 Table 4, without decompositions."""
    counts = to_counts([*standing, *[t for m in melds for t in m.tiles]])
    kong_tiles = {m.tile for m in melds if m.is_kong}
    c = to_counts(standing)
    fan = sum(1 for m in melds if m.is_kong)
    fan += sum(1 for t in SUITED if counts[t] == 4 and t not in kong_tiles)
    if len({t.suit for t in SUITED if counts[t]}) == 1:
        fan += 2
    seven = not melds and all(n % 2 == 0 for n in c)
    pungs = sorted(n for n in c if n) in ([2], [2, 3], [2, 3, 3], [2, 3, 3, 3], [2, 3, 3, 3, 3])
    shape = max(2 if seven else 0, 1 if pungs else 0)
    if len(melds) == 4:
        shape += 1
    return fan + shape


@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much])
@given(complete_hands())
def test_sbr_fans_agree_with_a_table_4_oracle(hand):
    standing, melds, win = hand
    assert score_hand(standing, melds, win, RUSSIA).total_fan == _oracle_fan(
        standing, melds, RUSSIA
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(complete_hands(), st.sampled_from([MIL, RUSSIA, WMT]), st.data())
def test_theoretical_maximum_is_the_best_wait_with_no_situation(hand, rs, data):
    standing, melds, _ = hand
    out = data.draw(st.sampled_from(standing))
    rest = list(standing)
    rest.remove(out)
    counts = to_counts(rest)
    ws = waits(counts, melds)
    scored = melds
    if not rs.scoring.maximum_counts_kongs:
        # 004 Lesson 6: declared kongs are not counted; scored as pungs they add nothing
        # (their fourth tile is never a wait, so no root comes of it either)
        scored = [Meld(MeldKind.PUNG, m.tile) if m.is_kong else m for m in melds]
    expected = max(
        (score_hand([*rest, w], scored, w, rs).value for w in ws),
        default=0,
    )
    assert out in ws
    assert theoretical_maximum(counts, melds, None, rs) == expected


@settings(max_examples=200)
@given(st.lists(st.sampled_from(SUITED[:18]), min_size=13, max_size=13))
def test_theoretical_maximum_of_any_13_tiles(tiles):
    counts = to_counts(tiles)
    if max(counts) > 4:
        return
    ws = waits(counts)
    expected = max((score_hand([*tiles, w], [], w, MIL).value for w in ws), default=0)
    assert theoretical_maximum(counts, [], None, MIL) == expected


def test_theoretical_maximum_is_zero_when_not_ready_or_holding_the_void_suit():
    assert theoretical_maximum(to_counts(parse_tiles("1357p2468s13579s")), [], None, MIL) == 0
    hand = to_counts(parse_tiles("123p456p789p1s"))
    assert theoretical_maximum(hand, [Meld.parse("pung 5s")], None, MIL) == 1
    assert theoretical_maximum(hand, [Meld.parse("pung 5s")], Suit.S, MIL) == 0
    assert theoretical_maximum(hand, [Meld.parse("pung 5m")], None, MIL) == 0  # three suits
    assert theoretical_maximum(hand, [Meld.parse("pung 5m")], Suit.M, MIL) == 0
