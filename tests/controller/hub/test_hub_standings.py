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


def test_regression_unnamed_seats_are_table_and_seat_and_never_merge() -> None:
    """Issue 28 item 8: two tables' default "East" players became one row. A named player is
    one row over the tables (the same name, the same person); an empty or default name (the
    seat's own word, any case, or its letter) is `<table>/<seat>`."""
    s = Standings(rounds)
    s.apply_deal("h", "T1", deal(1, (6, -2, -2, -2), players=("East", "south", "Ann", "")))
    s.apply_deal("h", "T2", deal(1, (-3, 9, -3, -3), players=("East", "S", "Ann", "Bo")))
    players = {p.name: (p.score, p.tables) for p in s.snapshot().players}
    assert players == {
        "T1/E": (6, ("T1",)),
        "T1/S": (-2, ("T1",)),
        "Ann": (-5, ("T1", "T2")),
        "T1/N": (-2, ("T1",)),
        "T2/E": (-3, ("T2",)),
        "T2/S": (9, ("T2",)),
        "Bo": (-3, ("T2",)),
    }


def test_a_last_will_keeps_what_the_table_was_doing_until_it_speaks_again() -> None:
    from controller.hub.wire import Presence, TableStatus

    s = Standings(rounds)
    playing = TableStatus("h", "T1", Presence.ONLINE, 1, 3, "playing.awaiting_draw", turn="S")
    will = TableStatus("h", "T1", Presence.OFFLINE, will=True)
    s.apply_status("h", "T1", playing, "2026-11-28T14:00:00+00:00")
    s.apply_status("h", "T1", will, "2026-11-28T14:02:00+00:00")
    s.apply_status("h", "T1", will, "2026-11-28T14:05:00+00:00")  # retained, again
    (t,) = s.snapshot().tables
    assert (t.presence, t.lost_at, t.status) == ("offline", "2026-11-28T14:02:00+00:00", playing)
    s.apply_status("h", "T1", playing, "2026-11-28T14:06:00+00:00")
    (t,) = s.snapshot().tables
    assert (t.presence, t.lost_at) == ("online", None)
