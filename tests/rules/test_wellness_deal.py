"""Worked Wellness deals (001): the judge plays the rule set from its data — 136 tiles, no void
choice, chow claims from the left, Hu > Pung/Kong > Chow, highest-pattern scoring with the
winds, 001's payments, the next dealer of IV 1.2 and the skipped-Hu lock of IV 3.2.

Values are worked by hand from 001 V (1-5 fan = 100/200/400/800/1000) and III 2 (bonuses, one
base point = 100, the rule set's choice); the comments give the reading of each hand."""

import json

from judge_helpers import drain, ok, refused

from rules.deal import Deal, Phase
from rules.deal_wellness import R_WALL_END, etiquette_penalty, false_claim_penalties
from rules.melds import Meld, MeldKind
from rules.moves import (
    Chow,
    CloseClaims,
    Discard,
    Draw,
    Hu,
    Kong,
    Melded,
    Pass,
    Penalty,
    Pung,
    Reason,
    SelfDrawnHu,
    TurnPassed,
)
from rules.record import dumps, judge, loads, next_dealer, to_record
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import Tile, parse_tiles
from rules.wall import Dice, Layer, WallPosition, compose
from rules.wellness import R_FALSE_WIN, R_WIN_DISCARD, R_WIN_SELF

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N
RS = load("wellness")

# East discards 3m first. South (next after East) can chow it three ways, West can pung it,
# North wins on it: 3m + 678m 678p 777s 444z (North's own wind).
CLAIMS = {
    "E": "3m999p111222333s9s",
    "S": "1245m12345p66z77z",
    "W": "33m456789s11z22z5z",
    "N": "3m678m678p777s444z",
}


def wdeal(hands: dict, live: str = "", repl: str = "", prevalent: Seat = E) -> Deal:
    tiles = {Seat[k]: parse_tiles(v) for k, v in hands.items()}
    order = compose(RS, Dice(6, 4), tiles, parse_tiles(live), parse_tiles(repl))
    return Deal.start(RS, Dice(6, 4), order, prevalent=prevalent)


def pays(deal: Deal) -> list[tuple]:
    return [(x.payer, x.payee, x.points) for x in deal.ledger().lines]


# -- the wall, the deal, no void choice ----------------------------------------------------


def test_136_tiles_walls_of_17_and_the_sum_indent():
    d = wdeal(CLAIMS)
    # 6+4 = 10: South's wall (2/6/10), indent 10 (the sum): East's first tile is the top of
    # South's 11th stack, physical index 2 * (3 * 17 + 10) = 122
    first = d.deal_takes[0]
    assert first.position == WallPosition(S, 10, Layer.TOP) and first.index == 122
    # 53 tiles dealt (South 10-16 and East's wall: 48 tiles, then East's jump from North's
    # stacks 0-2), 136 - 53 = 83 left; the first live draw is the bottom of North's 3rd stack
    assert d.tiles_left == 83
    assert d.wall.next_index() == 39
    assert d.wall.geometry.position(39) == WallPosition(N, 2, Layer.BOTTOM)
    assert [len(d.hand(s)) for s in Seat] == [14, 13, 13, 13]


def test_no_void_choice_the_deal_starts_in_easts_first_turn():
    d = wdeal(CLAIMS)
    assert d.phase is Phase.DISCARD and d.turn is E
    assert all(d.void(s) is None for s in Seat)
    assert not any(m.__class__.__name__ == "ChooseVoid" for m in d.legal_moves(E))
    # a hand may hold all three suits and honours: West wins with 3m + Bamboo + winds
    assert Discard(E, Tile.M3) in d.legal_moves(E)


# -- chows ---------------------------------------------------------------------------------


def test_chow_from_the_left_is_accepted_and_each_possible_chow_is_listed():
    d = wdeal(CLAIMS)
    ok(d, Discard(E, Tile.M3))
    claims = d.admissible_claims()
    # 001 IV 4.2: only South, next after East, may chow; 12m, 24m and 45m make three chows
    assert claims[S] == (Chow(S, Tile.M1), Chow(S, Tile.M2), Chow(S, Tile.M3))
    assert claims[W] == (Pung(W),)
    assert claims[N] == (Hu(N),)
    assert Chow(S, Tile.M2) in d.legal_moves(S)
    ok(d, Chow(S, Tile.M2), Pass(W))
    result = ok(d, Pass(N))  # everybody declared: the window resolves
    assert Melded(S, Meld(MeldKind.CHOW, Tile.M2), E) in result.facts
    assert d.melds(S) == (Meld(MeldKind.CHOW, Tile.M2),)
    assert d.hand(S) == parse_tiles("15m12345p66z77z")  # 2m and 4m went into the chow
    assert d.river(E) == ()  # the claimed tile left the river
    # 001 IV 2.3: the claimer lays the chow out, then discards; no kong, no self-drawn Hu
    assert d.phase is Phase.DISCARD and d.turn is S
    refused(d, Kong(S, MeldKind.CONCEALED_KONG, Tile.P1), Reason.KONG_AFTER_CHOW)
    refused(d, SelfDrawnHu(S), Reason.WRONG_PHASE)
    ok(d, Discard(S, Tile.GREEN))
    assert d.window is not None and d.window.discarder is S


def test_chow_from_another_seat_and_wrong_chows_are_refused():
    d = wdeal(CLAIMS)
    ok(d, Discard(E, Tile.M3))
    refused(d, Chow(W, Tile.M3), Reason.CHOW_NOT_FROM_LEFT)  # West holds 33m, not 45m
    refused(d, Chow(N, Tile.M1), Reason.CHOW_NOT_FROM_LEFT)
    refused(d, Chow(S, Tile.M4), Reason.NOT_A_CHOW)  # 456m does not hold the 3m
    refused(d, Chow(S, Tile.P1), Reason.NOT_A_CHOW)  # another suit
    refused(d, Chow(S, Tile.EAST), Reason.NOT_A_CHOW)  # no sequence of honours
    refused(d, Chow(S, Tile.M8), Reason.NOT_A_CHOW)  # no chow starts at 8
    refused(d, Chow(E, Tile.M1), Reason.CLAIM_NOT_ADMISSIBLE)  # one's own discard
    ok(d, Chow(S, Tile.M1))
    refused(d, Chow(S, Tile.M2), Reason.ALREADY_DECLARED)


def test_a_chow_needs_the_two_other_tiles():
    hands = dict(CLAIMS, S="15m12345p66z77z55s")
    d = wdeal(hands)
    ok(d, Discard(E, Tile.M3))
    assert S not in d.admissible_claims() or not d.admissible_claims()[S]
    refused(d, Chow(S, Tile.M1), Reason.NOT_A_CHOW)  # no 2m


def test_sichuan_rule_sets_refuse_a_chow():
    from judge_helpers import deal_of

    d = deal_of(
        "sbr-mil",
        {
            "E": "5p1122334455667m",
            "S": "46p111222333s99s",
            "W": "46p444555666s88s",
            "N": "1123789p778899m",
        },
    )
    refused(d, Chow(S, Tile.P4), Reason.NO_CHOW_CLAIMS)


def test_pung_beats_chow():
    d = wdeal(CLAIMS)
    ok(d, Discard(E, Tile.M3), Chow(S, Tile.M1), Pung(W), Pass(N))
    assert d.melds(W) == (Meld(MeldKind.PUNG, Tile.M3),) and d.melds(S) == ()
    assert d.hand(S) == parse_tiles("1245m12345p66z77z")
    assert d.phase is Phase.DISCARD and d.turn is W


def test_hu_beats_pung_and_chow():
    d = wdeal(CLAIMS)
    result = ok(d, Discard(E, Tile.M3), Chow(S, Tile.M1), Pung(W), Hu(N))
    # North: 33m 678m 678p 777s 444z, nothing claimed: men-fu (1 fan, 100); 444z is North's
    # seat wind, one base point (001 II 3): 200, paid by the discarder alone (001 II 2)
    assert pays(d) == [(E, N, 200)]
    assert d.ledger().lines[0].rule == R_WIN_DISCARD
    won = d.winners[0]
    assert won.score.patterns[0].name == "men-fu" and won.value == 200
    assert d.melds(S) == d.melds(W) == ()
    # play goes on after North, the last winner counted from the discarder: East draws
    assert TurnPassed(E) in result.facts and d.phase is Phase.DRAW


def test_a_double_wind_counts_twice():
    # the same win with North the prevalent wind: seat and prevalent wind, 100 + 2 x 100
    d = wdeal(CLAIMS, prevalent=N)
    ok(d, Discard(E, Tile.M3), Hu(N), CloseClaims())
    assert pays(d) == [(E, N, 300)]
    assert [b.name for b in d.winners[0].score.bonuses] == [
        "seat-wind-pung",
        "prevalent-wind-pung",
    ]


def test_two_hu_on_one_discard_both_stand_and_the_nearest_deals_next():
    # West now waits on 3m too: 333m 456s 789s 111z (East, the prevalent wind) + 22z
    hands = dict(CLAIMS, W="33m456789s111z22z")
    d = wdeal(hands)
    ok(d, Discard(E, Tile.M3), Hu(N), Hu(W), CloseClaims())
    # West: men-fu 100 + prevalent-wind pung 100; North 200 as above; East pays both
    assert sorted(pays(d)) == [(E, W, 200), (E, N, 200)]
    assert {w.order for w in d.winners} == {1}
    # 001 IV 1.2 without the dealer among them: the winner nearest after the discarder
    assert next_dealer(d) is W
    assert d.turn is E  # after North, the last winner counted from East


def test_the_dealer_among_several_first_winners_stays_dealer():
    # East discards 1s, South draws 3m and discards it: East (45m) and West (33m) win on it
    hands = {
        "E": "45m666p777p888s99s1s",
        "S": "19m19p19s1234z556z",
        "W": "33m456789s111z22z",
        "N": "2288m2288p2277s7z",
    }
    d = wdeal(hands, live="3m")
    ok(d, Discard(E, Tile.S1), CloseClaims(), Draw(S), Discard(S, Tile.M3))
    ok(d, Hu(E), Hu(W), CloseClaims())
    # East: 345m 666p 777p 888s 99s, three pungs formed in the hand: san-an (4 fan, 800);
    # West as above 200; South pays both
    assert sorted(pays(d)) == [(S, E, 800), (S, W, 200)]
    assert next_dealer(d) is E


def test_self_drawn_win_is_paid_by_each_opponent_still_in_plus_one_base_point():
    hands = dict(CLAIMS, S="123m456m789m55p78p", W="456s789s11z22z5z6z7z")
    d = wdeal(hands, live="1z6p")
    ok(d, Discard(E, Tile.M3), Hu(N), CloseClaims())  # North wins first: 200 from East
    ok(d, Draw(E), Discard(E, Tile.EAST), CloseClaims(), Draw(S))
    ok(d, SelfDrawnHu(S))
    # South: 123m 456m 789m 678p 55p: long-fu (3 fan, 400) beats ping-fu; self-drawn, East
    # and West (still in) pay 400 + 100 each (001 III 2.1); North, out, pays nothing (II 2)
    assert pays(d) == [(E, N, 200), (W, S, 500), (E, S, 500)]
    assert {x.rule for x in d.ledger().lines[1:]} == {R_WIN_SELF}
    assert d.winners[1].score.patterns[0].name == "long-fu"
    assert d.deltas() == (-700, 1000, -500, 200)
    assert next_dealer(d) is N  # 001 IV 1.2: the first winner deals


def test_a_false_hu_pays_800_to_each_of_the_three_opponents():
    d = wdeal(CLAIMS)
    ok(d, Discard(E, Tile.M3), Hu(N), Hu(W), CloseClaims())
    # West's 33m + 3m is no winning hand: 800 (4 fan) to East, South and North, the player
    # who won on the same tile included (001 III 3.2); West leaves the deal as in SBR
    assert pays(d) == [(W, E, 800), (W, S, 800), (W, N, 800), (E, N, 200)]
    assert [x.rule for x in d.ledger().lines[:3]] == [R_FALSE_WIN] * 3
    assert d.is_out(W) and d.winners[0].false_hu
    assert next_dealer(d) is N  # a false win does not count
    assert d.ledger().check() == []


def test_wall_end_not_ready_pays_each_ready_player_its_highest_value():
    d = wdeal(CLAIMS)
    ok(d, Discard(E, Tile.M3))
    drain(d)
    assert d.end.value == "wall" and d.winners == ()
    # East 999p 111s 222s 333s + 9s: 9s makes four pungs formed in the hand, san-an 800;
    # South 1245m 12345p 66z 77z is not ready; West 33m 456s 789s 11z 22z 5z is not ready;
    # North waits on 3m: men-fu 100 + its seat wind 100 = 200
    lines = [(x.payer, x.payee, x.points) for x in d.ledger().lines]
    assert sorted(lines) == [(S, E, 800), (S, N, 200), (W, E, 800), (W, N, 200)]
    assert {x.rule for x in d.ledger().lines} == {R_WALL_END}
    assert next_dealer(d) is E  # nobody won: the dealer stays


# -- the skipped-Hu lock: unless the fan changes (001 IV 3.2) -------------------------------

# North waits on 3m (345m 456p 456s 111z 99m: men-fu, 1 fan, 200 with the East pung, the
# prevalent wind) and on 6m (456m 456p 456s: san-sun, 2 fan, 300); East holds both tiles,
# South a second 3m
LOCK = {
    "E": "36m111999p111999s",
    "S": "36m2288p5s2345z66z",
    "W": "2288m3377p2288s7z",
    "N": "45m456p456s111z99m",
}


def test_skipped_hu_lock_holds_for_a_hu_of_the_same_fan():
    d = wdeal(LOCK, live="1z")
    ok(d, Discard(E, Tile.M3), Pass(N), CloseClaims(), Draw(S), Discard(S, Tile.M3))
    refused(d, Hu(N), Reason.SKIPPED_HU_LOCK)
    assert Hu(N) not in d.admissible_claims().get(N, ())


def test_skipped_hu_lock_lifts_when_the_fan_changes_even_for_less():
    d = wdeal(LOCK, live="1z")
    ok(d, Discard(E, Tile.M6), Pass(N), CloseClaims(), Draw(S), Discard(S, Tile.M3))
    # 6m let go was san-sun (2 fan, 300); 3m is men-fu (1 fan, 200): the fan changed
    ok(d, Hu(N), CloseClaims())
    assert pays(d) == [(S, N, 200)]


def test_skipped_hu_lock_lifts_after_a_draw():
    d = wdeal(LOCK, live="1z2z8m")
    ok(d, Discard(E, Tile.M3), Pass(N), CloseClaims(), Draw(S), Discard(S, Tile.EAST))
    ok(d, CloseClaims(), Draw(W), Discard(W, Tile.SOUTH), CloseClaims(), Draw(N))
    ok(d, Discard(N, Tile.M8), CloseClaims(), Draw(E), Discard(E, Tile.M6))
    ok(d, Hu(N), CloseClaims())
    assert pays(d) == [(E, N, 300)]


# -- the deal record ------------------------------------------------------------------------


def test_a_wellness_record_round_trips_with_its_prevalent_wind_and_chow():
    d = wdeal(CLAIMS, prevalent=S)
    ok(d, Discard(E, Tile.M3), Chow(S, Tile.M2), CloseClaims(), Discard(S, Tile.GREEN))
    drain(d)
    text = dumps(to_record(d))
    obj = json.loads(text)
    assert obj["prevalent"] == "S"
    assert {"seat": "S", "move": "chow", "tile": "2m"} in obj["moves"]
    again = judge(loads(text))
    assert again.prevalent is S
    assert again.ledger() == d.ledger() and again.winners == d.winners
    assert again.melds(S) == (Meld(MeldKind.CHOW, Tile.M2),)


def test_a_chow_move_must_name_its_tile():
    import pytest

    from rules.record import RecordError, move_from_json

    assert move_from_json({"seat": "S", "move": "chow", "tile": "3p"}) == Chow(S, Tile.P3)
    with pytest.raises(RecordError, match="tile: missing"):
        move_from_json({"seat": "S", "move": "chow"})


def test_sichuan_records_carry_no_prevalent_wind():
    from rules.bots import play_deal

    _, record = play_deal(load("sbr-mil"), 3)
    assert record.prevalent is None
    assert "prevalent" not in json.loads(dumps(record))
    _, wrecord = play_deal(RS, 3)
    assert wrecord.prevalent is E and json.loads(dumps(wrecord))["prevalent"] == "E"


# -- penalties through the referee's Penalty move (001 III 3.2, 3.4, IV 4.3) ---------------


def test_a_false_chow_is_refused_and_the_referee_charges_800_to_each_opponent():
    d = wdeal(CLAIMS)
    ok(d, Discard(E, Tile.M3), Hu(N), CloseClaims())  # North has won: paid too (III 3.2)
    ok(d, Draw(E), Discard(E, Tile.P9))
    refused(d, Chow(S, Tile.P7), Reason.NOT_A_CHOW)  # South announced a chow of 9p: no 78p
    moves = false_claim_penalties(d, S, t=9.0)
    assert [(m.seat, m.to, m.points) for m in moves] == [(S, E, 800), (S, W, 800), (S, N, 800)]
    ok(d, *moves)
    assert d.deltas() == (-200 + 800, -2400, 800, 200 + 800)
    assert d.ledger().check() == []
    assert all("001 III 3.2" in x.why for x in d.ledger().lines[1:])


def test_etiquette_one_warning_then_100_points_to_nobody_each_time():
    d = wdeal(CLAIMS)
    assert etiquette_penalty(d, W, 1) is None  # the warning
    second, third = etiquette_penalty(d, W, 2), etiquette_penalty(d, W, 3)
    assert second == third == Penalty(W, 100, second.reason, None)
    ok(d, second, third)
    assert d.deltas() == (0, 0, -200, 0) and d.ledger().to_nobody() == 200
