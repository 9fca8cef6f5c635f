"""The settlement ledger: each builder against 004 Tables 6-7, 002 and 003 by hand, and the
zero-sum invariant."""

from hypothesis import given, strategies as st

from rules import settlement as pay
from rules.melds import Meld
from rules.ruleset import load
from rules.seats import SEATS, Seat
from rules.settlement import EndHand, Ledger, LedgerLine
from rules.tiles import Suit

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N
MIL = load("sbr-mil")
CHENGDU = load("sbr-chengdu2016")
WMT = load("wmt")


def trio(lines):
    return [(x.payer, x.payee, x.points) for x in lines]


def test_hu_on_a_discard():
    assert trio(pay.hu_on_discard(W, E, 4, 1, "Hu")) == [(E, W, 4)]  # 004 Table 6
    lines = pay.hu_on_discard(W, E, 4, 2, "robbing")  # 003 B: robbing a kong 2A
    assert trio(lines) == [(E, W, 8)] and lines[0].rule.startswith("003")


def test_self_drawn_hu():
    # 004 Table 6: hand value + 1 from each player still in
    assert trio(pay.self_drawn_hu(MIL, S, [W, N, E], 2, 1, "tsumo")) == [
        (W, S, 3),
        (N, S, 3),
        (E, S, 3),
    ]
    # 003 C: moon from the sea bottom (2A + 1) x N with A = 4
    assert trio(pay.self_drawn_hu(WMT, S, [W, N], 4, 2, "moon")) == [(W, S, 9), (N, S, 9)]
    # 003 B: kong bloom after a melded kong: the kong's discarder alone pays 4A + 1
    assert trio(pay.self_drawn_hu(WMT, S, [W, N, E], 2, 4, "bloom", kong_discarder=E)) == [
        (E, S, 9)
    ]


def test_kong_payments_004_table_7():
    assert trio(pay.kong_payment(MIL, E, Meld.parse("concealed-kong 2m"), [S, W, N])) == [
        (S, E, 2),
        (W, E, 2),
        (N, E, 2),
    ]
    assert trio(pay.kong_payment(MIL, E, Meld.parse("kong 2m"), [N])) == [(N, E, 2)]
    assert trio(pay.kong_payment(MIL, E, Meld.parse("promoted-kong 2m"), [S, W])) == [
        (S, E, 1),
        (W, E, 1),
    ]
    assert pay.kong_payment(MIL, E, Meld.parse("postponed-kong 2m"), [S, W, N]) == []


def test_refunds_name_what_they_return():
    paid = pay.kong_payment(MIL, E, Meld.parse("concealed-kong 2m"), [S, W])
    back = pay.refund(paid, pay.R_REFUND_NOT_READY)
    assert trio(back) == [(E, S, 2), (E, W, 2)]
    assert back[0].why == "refund: concealed-kong 2m" and back[0].rule == pay.R_REFUND_NOT_READY
    assert Ledger(tuple(paid + back)).deltas() == (0, 0, 0, 0)


def test_false_hu():
    # 004 Lesson 5: 8 to each player still in; three still in: 24 in all
    assert trio(pay.false_hu(MIL, N, [E, S, W])) == [(N, E, 8), (N, S, 8), (N, W, 8)]
    assert pay.false_hu(WMT, N, [E])[0].rule.startswith("000 3.3")


def hand(seat, maximum, pig=False):
    return EndHand(seat, (0,) * 34, (), Suit.M, maximum, pig)


def test_wall_end_payments():
    hands = [hand(E, 4), hand(S, 0), hand(W, 2), hand(N, 0)]
    # 004 Table 6: each not-ready player pays each ready player that player's maximum
    assert trio(pay.wall_end(MIL, hands)) == [(S, E, 4), (S, W, 2), (N, E, 4), (N, W, 2)]
    # 002: a flat point, no doubles
    assert trio(pay.wall_end(CHENGDU, hands)) == [(S, E, 1), (S, W, 1), (N, E, 1), (N, W, 1)]
    # everyone ready, or nobody: nothing changes hands
    assert pay.wall_end(MIL, [hand(E, 2), hand(S, 8)]) == []
    assert pay.wall_end(MIL, [hand(E, 0), hand(S, 0)]) == []


def test_flower_pig_pays_everyone_else_still_in():
    # 000 2.3.1: the flower pig pays each other player the full hand (8); WMT only
    hands = [hand(E, 2), hand(S, 0, pig=True), hand(W, 0)]
    assert trio(pay.wall_end(WMT, hands)) == [(S, E, 8), (S, W, 8), (W, E, 2)]
    assert trio(pay.wall_end(MIL, hands)) == [(S, E, 2), (W, E, 2)]  # no such rule


def test_void_penalty_goes_to_nobody():
    lines = pay.void_penalty(MIL, W, meld=False)
    assert trio(lines) == [(W, None, 48)]
    ledger = Ledger(tuple(lines))
    assert ledger.deltas() == (0, 0, -48, 0) and ledger.to_nobody() == 48
    assert ledger.check() == []
    assert pay.void_penalty(WMT, W, meld=True) == []  # WMT has no void penalty


def test_ledger_check_finds_broken_lines():
    bad = Ledger(
        (
            LedgerLine(E, E, 3, "self", "x"),
            LedgerLine(S, W, 0, "nothing", "x"),
            LedgerLine(None, W, 2, "from nobody", "x"),
        )
    )
    problems = bad.check()
    assert len(problems) == 4  # three bad lines, and the sum is off by 2
    text = str(Ledger((LedgerLine(S, W, 2, "a pung", "a rule"),)))
    assert "S -> W:   2  a pung  [a rule]" in text and text.endswith("E+0  S-2  W+2  N+0")


seats = st.sampled_from(SEATS)


@given(
    st.lists(
        st.tuples(seats, st.one_of(st.none(), seats), st.integers(1, 100)).filter(
            lambda t: t[0] != t[1]
        ),
        max_size=40,
    )
)
def test_deltas_sum_to_minus_the_points_paid_to_nobody(lines):
    ledger = Ledger(tuple(LedgerLine(a, b, p, "why", "rule") for a, b, p in lines))
    assert sum(ledger.deltas()) == -ledger.to_nobody()
    assert ledger.check() == []
