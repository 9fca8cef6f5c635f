"""Wellness (001) worked examples: one hand per pattern of the 001 V fan table, one per bonus
(001 III 2) and per penalty (001 III 3), the rule set as data and the dealer rule (IV 1.2).

Points: 1-5 fan = 100/200/400/800/1000 (001 V); one base point = 100 (the rule set's
choice, 001 never prices it). A hand scores its single highest pattern (001 II 3)."""

import pytest

from rules.melds import Meld
from rules.moves import Won
from rules.ruleset import load
from rules.scoring import NotAWin, hand_value, score_hand, theoretical_maximum
from rules.seats import Seat
from rules.settlement import next_dealer, wall_end
from rules.tiles import Tile, parse_tiles, to_counts
from rules.wellness import (
    PATTERNS,
    PLAIN_HAND,
    Winds,
    end_hand,
    etiquette_lines,
    false_win_lines,
    win_lines,
)

W = load("wellness")
MIL = load("sbr-mil")
E, S, WEST, N = Seat.E, Seat.S, Seat.W, Seat.N

# 001 V, in table order (the second "Qin-fu", 清七对子, is named qin-qi here)
TABLE = {
    "ping-fu": 1,
    "yi-bei": 1,
    "men-fu": 1,
    "tan-yao": 1,
    "dui-fu": 2,
    "wu-men": 2,
    "san-ke": 2,
    "san-sun": 2,
    "hun-yao": 2,
    "hun-qin": 2,
    "yao-fu": 3,
    "liang-bei": 3,
    "long-fu": 3,
    "yao-dui": 3,
    "qin-fu": 3,
    "qi-dui": 3,
    "jiang-dui": 4,
    "qin-dui": 4,
    "san-gan": 4,
    "qin-qi": 4,
    "san-an": 4,
    "feng-fu": 4,
    "zi-fu": 4,
    "lao-tou": 5,
    "quan-zi": 5,
    "lv-fu": 5,
    "si-xi": 5,
    "san-yuan": 5,
}


def score(hand, melds=(), win=None, **kw):
    standing = parse_tiles(hand, W.tiles.set)
    win_tile = Tile.parse(win) if win else standing[-1]
    return score_hand(standing, [Meld.parse(m) for m in melds], win_tile, W, **kw)


def maximum(hand, melds=(), **kw):
    counts = to_counts(parse_tiles(hand, W.tiles.set))
    return theoretical_maximum(counts, [Meld.parse(m) for m in melds], None, W, **kw)


# -- the rule set as data -------------------------------------------------------------


def test_rule_set_follows_001():
    assert W.tiles.set.value == 136 and W.tiles.wall_stacks == (17, 17, 17, 17)
    assert W.wall.indent.value == "sum"
    assert W.play.chow_claims and not W.play.void_suit
    assert W.play.move_seconds == 10.0  # 001 IV 4.1
    assert W.play.winners_to_end == 3  # 001 II 1
    assert W.scoring.method.value == "highest-pattern"
    assert W.scoring.fan_points == (100, 200, 400, 800, 1000)
    assert W.ruleset.game.value == "wellness"


def test_fan_table_is_001_v_and_every_pattern_has_a_detector_and_reason():
    assert dict(W.scoring.fans) == TABLE
    assert list(W.scoring.fans) == list(PATTERNS)
    for name in TABLE:
        assert name == name.lower() and " " not in name  # kebab-case
        assert len(PATTERNS[name].what) > 10


@pytest.mark.parametrize(("fan", "points"), [(0, 0), (1, 100), (2, 200), (3, 400), (4, 800)])
def test_hand_value_is_the_fan_row(fan, points):
    assert hand_value(fan, W.scoring) == points
    assert hand_value(5, W.scoring) == hand_value(9, W.scoring) == 1000  # no row above 5


# -- one worked hand per pattern: (standing incl. winning tile, melds, win, pattern, value) --

PATTERN_HANDS = [
    # ping-fu: 123m (chow) 456p 789s 234s + 11z, four chows; claimed, so no men-fu. 100
    ("456p789s234s11z", ["chow 123m"], "1z", "ping-fu", 100),
    # yi-bei: 234m twice; 678p claimed, 555s a pung, 99p pair. 100
    ("234234m555s99p", ["chow 678p"], "9p", "yi-bei", 100),
    # men-fu: nothing claimed, a pung (222z, South: no wind bonus without winds) so no
    # ping-fu, 456p without terminal so no hun-yao, no dragon so no wu-men. 100
    ("12399m456p789s222z", [], "5p", "men-fu", 100),
    # tan-yao: only 2-8: 234m 567p 345s 666s + 88p, a chow claimed. 100
    ("567p88p345s666s", ["chow 234m"], "8p", "tan-yao", 100),
    # dui-fu: pungs 2m 5p (claimed) 888s 999m + 33p; only two pungs formed in the hand. 200
    ("888s999m33p", ["pung 2m", "pung 5p"], "3p", "dui-fu", 200),
    # wu-men: 123m 456p 789s, East pung (no winds known: no bonus), White pair. 200
    ("456p789s111z55z", ["chow 123m"], "5z", "wu-men", 200),
    # san-ke: pungs of 5 in m, p, s; tan-yao (1) too, the highest counts. 200
    ("555p555s234s77m", ["pung 5m"], "7m", "san-ke", 200),
    # san-sun: chows 345 in m, p, s; 999p pung, 11s pair. 200
    ("345p999p345s11s", ["chow 345m"], "1s", "san-sun", 200),
    # hun-yao: 123m 789p 111s 999s + 11z: a terminal or honour in every set and the pair. 200
    ("789p111s999s11z", ["chow 123m"], "1z", "hun-yao", 200),
    # hun-qin: Characters and honours (West pung, North pair, no winds known). 200
    ("567m888m333z44z", ["chow 234m"], "4z", "hun-qin", 200),
    # yao-fu: 123m 789m 111p 789s + 99s, a terminal everywhere, no honour. 400
    ("789m111p789s99s", ["chow 123m"], "9s", "yao-fu", 400),
    # liang-bei: 234m twice, 567p twice (a chow claimed, so no seven-pairs reading). 400
    ("234m567567p88s", ["chow 234m"], "8s", "liang-bei", 400),
    # long-fu: 123s 456s 789s + 234p + 55m. 400
    ("456s789s234p55m", ["chow 123s"], "5m", "long-fu", 400),
    # yao-dui: pungs 1m 9p 111s 222z + 77z, terminals and honours only (two pungs
    # formed in the hand: no san-an). 400
    ("111s222z77z", ["pung 1m", "pung 9p"], "7z", "yao-dui", 400),
    # qin-fu: Dots only: 123p 456p 678p 999p + 22p. 400
    ("456p678p999p22p", ["chow 123p"], "2p", "qin-fu", 400),
    # qi-dui: seven pairs over three suits and a dragon (no wind: no wu-men). 400
    ("11m44m22p88p33s66s77z", [], "7z", "qi-dui", 400),
    # jiang-dui: pungs of 2m 5p 222p 888s + 55s, only 2, 5, 8. 800
    ("222p888s55s", ["pung 2m", "pung 5p"], "5s", "jiang-dui", 800),
    # qin-dui: pungs of Bamboo only: 1s 3s 555s 777s + 99s. 800
    ("555s777s99s", ["pung 1s", "pung 3s"], "9s", "qin-dui", 800),
    # san-gan: three declared kongs (800) + kong bonus 3 x 1 base point (300). 1100
    ("678s66m", ["kong 2m", "promoted-kong 7p", "kong 5s"], "6m", "san-gan", 1100),
    # qin-qi: seven pairs of Dots. 800
    ("11p33p55p66p77p88p99p", [], "9p", "qin-qi", 800),
    # san-an: 444p 777s 222z formed in the hand, the winning discard 8s made the pair. 800
    ("444p777s222z88s", ["chow 123m"], "8s", "san-an", 800),
    # feng-fu: pungs of East (claimed), South, West + North pair; no winds known. 800
    ("222z333z44z567m", ["pung 1z"], "4z", "feng-fu", 800),
    # zi-fu: pungs of White, Green + Red pair (800) + 2 dragon pungs (200). 1000
    ("666z77z234m678m", ["pung 5z"], "7z", "zi-fu", 1000),
    # lao-tou: pungs 1m 9p 111s 999s + 99m, terminals only. 1000
    ("111s999s99m", ["pung 1m", "pung 9p"], "9m", "lao-tou", 1000),
    # quan-zi: East South (claimed) White Green pungs + Red pair (1000) + 2 dragon pungs. 1200
    ("555z666z77z", ["pung 1z", "pung 2z"], "7z", "quan-zi", 1200),
    # lv-fu: 234s 666s 888s 666z + 22s (1000) + the Green dragon pung (100). 1100
    ("666s888s666z22s", ["chow 234s"], "2s", "lv-fu", 1100),
    # si-xi: pungs of all four winds + 55m. 1000
    ("333z444z55m", ["pung 1z", "pung 2z"], "5m", "si-xi", 1000),
    # san-yuan: pungs of the three dragons (1000) + 3 dragon pungs (300). 1300
    ("666z777z234p99s", ["pung 5z"], "9s", "san-yuan", 1300),
]


def test_every_pattern_has_a_worked_hand():
    assert [h[3] for h in PATTERN_HANDS] == list(TABLE)


@pytest.mark.parametrize(("hand", "melds", "win", "name", "value"), PATTERN_HANDS)
def test_pattern_worked_example(hand, melds, win, name, value):
    s = score(hand, melds, win)
    assert [p.name for p in s.patterns] == [name]
    assert s.total_fan == TABLE[name]
    assert s.value == value
    assert s.patterns[0].reason.startswith(f"{name}: {PATTERNS[name].what} (")


def test_a_hand_with_no_table_pattern_is_paid_as_the_lowest_row():
    # 123m 789p 456s (claimed) 5p pung (claimed) + 55s: open, terminals, no shape pattern
    s = score("123m789p55s", ["chow 456s", "pung 5p"], "5s")
    assert [p.name for p in s.patterns] == [PLAIN_HAND]
    assert s.value == 100  # plain-hand-fan = 1 (the rule set's choice)


def test_only_the_highest_pattern_counts():
    # 123p 456p 789p 123p + 99p: long-fu 3, qin-fu 3, yi-bei 1, men-fu 1, yao-fu? no
    # (456p): the highest row, 3 fan = 400, never 3+3+1+1
    s = score("123456789123p99p", [], "9p")
    assert s.total_fan == 3 and s.value == 400 and len(s.patterns) == 1


def test_the_most_valuable_reading_counts():
    # 111222333m 456p 99p: pungs 1m 2m 3m (san-an 4 fan, 800) or chows 123m x3 (yi-bei 1)
    s = score("111222333m456p99p", [], "4p")
    assert s.patterns[0].name == "san-an" and s.value == 800


def test_san_an_a_pung_completed_by_the_discard_is_not_concealed():
    # 444p 777s + 22z and the discard 2z makes the third pung: two concealed only; nothing
    # else fits (123m claimed, terminals, pungs and a chow): plain hand, 100
    on_discard = score("444p777s222z88s", ["chow 123m"], "2z")
    assert on_discard.patterns[0].name == PLAIN_HAND and on_discard.value == 100
    # the same tile drawn: three concealed pungs, san-an 800
    drawn = score("444p777s222z88s", ["chow 123m"], "2z", self_drawn=True)
    assert drawn.patterns[0].name == "san-an" and drawn.value == 800
    # 444p 456p 777s 222z + 88s on the discard 4p: the reading can give the 4p to the chow
    # 456p, so the pung 444p stays concealed: san-an
    chowed = score("444456p777s222z88s", [], "4p")
    assert chowed.patterns[0].name == "san-an"


def test_a_winning_hand_needs_a_shape_and_chows_are_fine():
    with pytest.raises(NotAWin):
        score("123m456p789s1357z", [], "7z")
    assert score("123m456p789s11z", ["chow 345m"], "1z").value == 100  # ping-fu


# -- bonuses (001 III 2, II 3) ----------------------------------------------------------

HUN_QIN = ("567m888m222z44z", ["chow 234m"], "4z")  # South pung: hun-qin 200 with no winds


@pytest.mark.parametrize(
    ("seat", "prevalent", "value", "bonuses"),
    [
        (None, None, 200, []),
        (WEST, N, 200, []),  # II 3: only the seat and prevalent winds count
        (S, E, 300, ["seat-wind-pung"]),  # South seat: +1 base point
        (E, S, 300, ["prevalent-wind-pung"]),  # South round: +1 base point
        (S, S, 400, ["seat-wind-pung", "prevalent-wind-pung"]),  # double wind: +2
    ],
)
def test_wind_pung_bonus(seat, prevalent, value, bonuses):
    s = score(*HUN_QIN, seat_wind=seat, prevalent_wind=prevalent)
    assert s.value == value
    assert [b.name for b in s.bonuses] == bonuses
    if seat == prevalent == S:
        assert all("double wind" in b.reason for b in s.bonuses)


def test_dragon_pung_bonus_and_a_dragon_kong_earns_both():
    # zi-fu hand (800) + White and Green pungs (200)
    assert score("666z77z234m678m", ["pung 5z"], "7z").value == 1000
    # the White pung declared as a kong: 800 + White (kong 1 + dragon 1) + Green 1 = 1100
    s = score("666z77z234m678m", ["kong 5z"], "7z")
    assert s.value == 1100
    assert sorted(b.name for b in s.bonuses) == ["dragon-pung", "dragon-pung", "kong"]


def test_kong_bonus_and_men_fu_with_a_concealed_kong():
    # 123m 456p 789s 99m + concealed kong of South: men-fu 100 + kong 100 = 200
    s = score("12399m456p789s", ["concealed-kong 2z"], "5p")
    assert s.patterns[0].name == "men-fu" and s.value == 200
    # the same kong melded from a discard: no men-fu, nothing else: plain 100 + kong 100
    assert score("12399m456p789s", ["kong 2z"], "5p").value == 200
    assert score("12399m456p789s", ["kong 2z"], "5p").patterns[0].name == PLAIN_HAND


def test_kong_in_a_seven_pairs_hand_is_two_base_points():
    # 1111m 22p 55p 33s 66s 77z: seven pairs (qi-dui 400) with four 1m: + 2 base = 600
    s = score("1111m2255p3366s77z", [], "7z")
    assert s.patterns[0].name == "qi-dui"
    assert [(b.name, b.points) for b in s.bonuses] == [("kong-in-seven-pairs", 200)]
    assert s.value == 600


def test_self_drawn_bonus_is_paid_by_each_opponent_still_in():
    # ping-fu 100 self-drawn by South; North already won: East and West pay 100 + 100
    s = score("456p789s234s11z", ["chow 123m"], "1z", self_drawn=True)
    lines = win_lines(W, s, S, None, [E, S, WEST])
    assert [(ln.payer, ln.payee, ln.points) for ln in lines] == [(E, S, 200), (WEST, S, 200)]
    assert W.payments.self_drawn_plus == W.scoring.base_points  # one base point (III 2.1)


def test_a_win_on_a_discard_is_paid_by_the_discarder_alone():
    s = score("666z777z234p99s", ["pung 5z"], "9s")  # san-yuan 1300
    lines = win_lines(W, s, N, WEST, [E, S, WEST, N])
    assert [(ln.payer, ln.payee, ln.points) for ln in lines] == [(WEST, N, 1300)]


# -- penalties (001 III 3) ----------------------------------------------------------------


def test_false_win_pays_4_fan_to_each_of_the_three_opponents():
    # East has already won; West's false win still pays East (III 3.2 "included the player
    # who already claimed a winning hand"): 800 to S, E, N
    lines = false_win_lines(W, WEST, [S, WEST, N])
    assert sorted((ln.payee, ln.points) for ln in lines) == [(E, 800), (S, 800), (N, 800)]
    assert all(ln.payer == WEST for ln in lines)
    # a chow/pung/kong of a wrong tile: the same
    claim = false_win_lines(W, S, [S, WEST, N], claim=True)
    assert sorted((ln.payee, ln.points) for ln in claim) == [(E, 800), (WEST, 800), (N, 800)]
    # under sbr-mil the false Hu pays the players still in only (004 Lesson 5), 8 each
    mil = false_win_lines(MIL, WEST, [S, WEST, N])
    assert sorted((ln.payee, ln.points) for ln in mil) == [(S, 8), (N, 8)]


READY = "23m234p234s99s555z"  # waits 1m (men-fu 100) and 4m (san-sun 200), + White 100
NOT_READY = "1379m1379p1379s5z"


def test_theoretical_maximum_is_the_best_wait_with_bonuses():
    # 1m: 123m 234p 234s 555z + 99s: men-fu 100 + White pung 100 = 200
    # 4m: 234m 234p 234s: san-sun 200 + White pung 100 = 300
    assert maximum(READY) == 300
    assert maximum(NOT_READY) == 0
    # seat wind counts in the maximum: 23m 234p 234s 99s + East pung, seat East: 300
    assert maximum("23m234p234s99s111z", seat_wind=E) == 300
    assert maximum("23m234p234s99s111z") == 200


def test_not_ready_at_the_end_pays_each_ready_player_its_maximum():
    hands = [
        end_hand(W, E, to_counts(parse_tiles(READY)), ()),
        end_hand(W, S, to_counts(parse_tiles(NOT_READY)), ()),
    ]
    lines = wall_end(W, hands)
    assert [(ln.payer, ln.payee, ln.points) for ln in lines] == [(S, E, 300)]


def test_a_long_or_short_hand_pays_like_a_not_ready_hand():
    # III 3.3: 12 or 14 standing tiles with no meld are never ready, even if they would be
    short = end_hand(W, WEST, to_counts(parse_tiles("23m234p234s99s55z")), ())
    long = end_hand(W, N, to_counts(parse_tiles("23m234p234s99s555z1m")), ())
    assert short.maximum == long.maximum == 0
    ready = end_hand(W, E, to_counts(parse_tiles(READY)), ())
    lines = wall_end(W, [ready, short, long])
    assert [(ln.payer, ln.payee, ln.points) for ln in lines] == [(WEST, E, 300), (N, E, 300)]


def test_etiquette_one_warning_then_100_points_each():
    assert etiquette_lines(W, S, 1) == []  # the warning
    for n in (2, 3):
        (line,) = etiquette_lines(W, S, n)
        assert (line.payer, line.payee, line.points) == (S, None, 100)
    assert etiquette_lines(MIL, S, 5) == []  # SBR has no such rule


# -- dealer (001 IV 1.2) ------------------------------------------------------------------


def won(seat, order, from_seat=None, false_hu=False):
    return Won(seat, Tile.M1, from_seat, false_hu, 0 if false_hu else 100, order)


@pytest.mark.parametrize(
    ("wins", "dealer"),
    [
        ([], E),  # nobody won: the dealer stays (001 silent; as SBR)
        ([won(E, 1, S), won(N, 2, S)], E),  # the dealer won first: stays
        ([won(WEST, 1), won(E, 2, S)], WEST),  # a non-dealer first: deals next
        ([won(S, 1, WEST), won(E, 1, WEST)], E),  # several on one discard, dealer among
        ([won(S, 1, WEST), won(N, 1, WEST)], N),  # not among: nearest after West (choice)
        ([won(S, 1, E, false_hu=True), won(N, 2, WEST)], N),  # a false win does not count
    ],
)
def test_next_dealer(wins, dealer):
    assert next_dealer(W, wins) is dealer


def test_next_dealer_sbr_several_first_winners_give_the_discarder():
    assert next_dealer(MIL, [won(S, 1, WEST), won(N, 1, WEST)]) is WEST


def test_winds_default_to_unknown():
    assert Winds() == Winds(None, None)
