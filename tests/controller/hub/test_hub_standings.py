"""Standings: hand-worked rank points (ties shared), and order/duplicate independence."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from controller.hub.standings import Applied, Standings, rank_points
from controller.hub.wire import SettledDeal
from rules.ruleset import SessionParams
from rules.seats import Seat

WMT = SessionParams(hands_per_round=8, rank_points=(4, 3, 2, 1))


def rounds(name: str) -> SessionParams | None:
    return WMT if name == "wmt" else None


def deal(n, deltas, seq=None, session=1, rules="wmt", players=("A", "B", "C", "D")):
    return SettledDeal(
        seq if seq is not None else n,
        session,
        n,
        rules,
        Seat.E,
        (1, 1),
        (),
        tuple(deltas),
        tuple(players),
    )


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ((10, 5, 0, -15), (4, 3, 2, 1)),
        ((-15, 0, 5, 10), (1, 2, 3, 4)),
        ((8, 8, -8, -8), ("7/2", "7/2", "3/2", "3/2")),  # (4+3)/2, (2+1)/2
        ((5, 1, 1, 1), (4, 2, 2, 2)),  # (3+2+1)/3
        ((0, 0, 0, 0), ("5/2",) * 4),
        ((3, 7, 3, -13), ("5/2", 4, "5/2", 1)),
    ],
)
def test_rank_points_share_tied_places(totals, expected):
    assert rank_points(totals, (4, 3, 2, 1)) == tuple(Fraction(e) for e in expected)


def test_round_points_only_when_the_round_is_complete():
    s = Standings(rounds)
    for n in range(1, 8):
        s.apply_deal("h", "t", deal(n, (1, 0, 0, -1)))
    (session,) = s.snapshot().tables[0].sessions
    assert session.rounds[0].rank_points is None and session.rank_points == (0, 0, 0, 0)
    s.apply_deal("h", "t", deal(8, (0, 0, 0, 0)))
    s.apply_deal("h", "t", deal(9, (0, 5, 0, -5)))  # round 2 started
    (session,) = s.snapshot().tables[0].sessions
    assert session.totals == (7, 5, 0, -12)
    assert session.rounds[0].totals == (7, 0, 0, -7)
    assert session.rounds[0].rank_points == (4, Fraction(5, 2), Fraction(5, 2), 1)
    assert not session.rounds[1].complete and session.rounds[1].deals == 1
    players = {p.name: p for p in s.snapshot().players}
    assert players["A"].rank_points == 4 and players["D"].score == -12


def test_rules_without_rounds_give_totals_only():
    s = Standings(rounds)
    s.apply_deal("h", "t", deal(1, (2, -2, 0, 0), rules="sbr-mil"))
    (session,) = s.snapshot().tables[0].sessions
    assert session.rounds == () and session.totals == (2, -2, 0, 0)


def test_duplicates_stale_and_corrections_are_told_apart():
    s = Standings(rounds)
    assert s.apply_deal("h", "t", deal(1, (1, -1, 0, 0), seq=5)) is Applied.NEW
    assert s.apply_deal("h", "t", deal(1, (1, -1, 0, 0), seq=5)) is Applied.DUPLICATE
    assert s.apply_deal("h", "t", deal(1, (9, -9, 0, 0), seq=4)) is Applied.STALE
    assert s.apply_deal("h", "t", deal(1, (2, -2, 0, 0), seq=6)) is Applied.CORRECTED
    assert s.snapshot().tables[0].sessions[0].totals == (2, -2, 0, 0)


deltas = st.tuples(*[st.integers(-64, 64)] * 4)
deal_specs = st.lists(
    st.tuples(
        st.sampled_from(["t1", "t2"]),
        st.integers(1, 2),
        st.integers(1, 18),
        st.integers(0, 3),
        deltas,
    ),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(specs=deal_specs, data=st.data())
def test_standings_do_not_depend_on_order_or_repetition(specs, data):
    unique = {(t, session, n, version): d for t, session, n, version, d in specs}
    made = [  # one seq names one content (a correction has a higher seq)
        (t, deal(n, d, seq=session * 1000 + n * 10 + version, session=session))
        for (t, session, n, version), d in unique.items()
    ]
    deliveries = data.draw(st.lists(st.sampled_from(made), max_size=80)) if made else []
    shuffled = data.draw(st.permutations(made + deliveries))
    once, again = Standings(rounds), Standings(rounds)
    for t, d in made:
        once.apply_deal("h", t, d)
    for t, d in shuffled:
        again.apply_deal("h", t, d)
    assert once.snapshot() == again.snapshot()
