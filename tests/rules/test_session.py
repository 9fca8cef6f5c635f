"""Between deals: next dealer (004 Lesson 4, 002) and session scoring (002 Chengdu limits,
000 2.10 WMT rounds)."""

import pytest

from rules.deal import Deal
from rules.moves import Accepted, ChooseVoid, Discard, Hu, Pass, Won
from rules.ruleset import load
from rules.seats import Seat
from rules.session import Session, next_dealer, rank_points
from rules.tiles import Suit, Tile, parse_tiles
from rules.wall import Dice, compose

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N

BLOOD = {
    "E": "5p1122334455667m",  # void p, lays 5p
    "S": "46p111222333s99s",  # waits on 5p
    "W": "46p444555666s88s",  # waits on 5p
    "N": "1123789p778899m",  # not ready for 5p
}


def first_discard(*claims) -> Deal:
    rs = load("sbr-mil")
    hands = {Seat[k]: parse_tiles(v) for k, v in BLOOD.items()}
    d = Deal.start(rs, Dice(6, 4), compose(rs, Dice(6, 4), hands))
    for m in (
        ChooseVoid(E, Suit.P, Tile.P5),
        ChooseVoid(S, Suit.M),
        ChooseVoid(W, Suit.M),
        ChooseVoid(N, Suit.S),
        Discard(E, Tile.P5),
        *claims,
    ):
        assert isinstance(d.apply(m), Accepted), m
    return d


def won(seat, order, from_seat=None, false_hu=False):
    return Won(seat, Tile.M1, from_seat, false_hu, 0 if false_hu else 1, order)


def test_first_hu_by_one_player_deals_next():
    d = first_discard(Hu(S), Pass(W), Pass(N))
    assert next_dealer(d.winners) is S


def test_first_hu_by_several_players_on_one_discard_the_discarder_deals():
    d = first_discard(Hu(S), Hu(W), Pass(N))
    assert next_dealer(d.winners) is E
    assert next_dealer([won(W, 1, S), won(N, 1, S), won(E, 2)]) is S


def test_a_false_hu_does_not_count():
    # 004 Lesson 5: of two first Hu one false, the valid declarer deals.
    d = first_discard(Hu(S), Pass(W), Hu(N))
    assert [w.false_hu for w in d.winners] == [False, True]
    assert next_dealer(d.winners) is S
    assert next_dealer([won(W, 1, None, True), won(N, 2)]) is N
    assert next_dealer([won(W, 1, None, True)]) is E


def test_nobody_won_the_dealer_stays():
    assert next_dealer([]) is E


def test_seats_rotate_with_the_dealer():
    s = Session(load("sbr-mil"))
    assert [s.seat_of(p) for p in range(4)] == [E, S, W, N]
    rec = s.record((-4, 1, 1, 2), S)  # deal seat S (player 1) deals next
    assert rec.deltas == (-4, 1, 1, 2) and s.dealer == 1
    assert [s.seat_of(p) for p in range(4)] == [N, E, S, W]
    rec = s.record((5, -5, 0, 0), W)  # E is player 1, S player 2; W is player 3
    assert rec.deltas == (0, 5, -5, 0) and s.dealer == 3
    assert s.scores == (-4, 6, -4, 2)


def test_chengdu_session_is_ten_deals_or_an_hour():
    s = Session(load("sbr-chengdu2016"), started_at=100.0)
    for _ in range(9):
        s.record((0, 0, 0, 0), E)
    assert not s.over(now=100.0 + 59 * 60)
    assert s.time_up(now=100.0 + 3600) and s.over(now=100.0 + 3600)
    s.record((0, 0, 0, 0), E)
    assert s.over(now=100.0)
    assert not Session(load("sbr-mil")).over(now=1e9)  # sbr-mil sets no limit


def test_wmt_rounds_rank_four_three_two_one():
    s = Session(load("wmt"))
    for _ in range(8):
        s.record((3, 1, -2, -2), E)  # W and N tie for third
    s.record((1, 0, 0, -1), E)  # an incomplete second round does not count
    assert s.rounds() == ((4.0, 3.0, 1.5, 1.5),)
    assert s.match_points() == (4.0, 3.0, 1.5, 1.5)


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ((10, 5, 0, -15), (4, 3, 2, 1)),
        ((-15, 0, 5, 10), (1, 2, 3, 4)),
        ((10, 10, 0, -20), (3.5, 3.5, 2, 1)),
        ((0, 0, 0, 0), (2.5, 2.5, 2.5, 2.5)),
        ((7, 1, 1, 1), (4, 2, 2, 2)),
    ],
)
def test_rank_points_share_ties(scores, expected):
    assert rank_points(scores, (4, 3, 2, 1)) == expected
    assert sum(rank_points(scores, (4, 3, 2, 1))) == 10
