"""The recogniser's safety net (controller/recognition/watchdog.py): a judge stuck behind a
move it never read, at a table that keeps moving, raises one STALLED alert after `grace`
seconds on the injected clock; normal waits and normal play raise none."""

from __future__ import annotations

from scene import Scene, alerts, moves

from controller.alerts import AlertKind
from controller.devices.events import Button
from controller.profiles import ZoneKind
from controller.recognition.watchdog import StallWatch
from rules.seats import Seat

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N
HAND, RIVER, VOID = ZoneKind.HAND, ZoneKind.RIVER, ZoneKind.VOID


def stalls(results) -> list:
    return [a for a in alerts(results) if a.kind is AlertKind.STALLED]


def test_regression_a_stuck_judge_at_a_fast_table_raises_a_stall_alert() -> None:
    """Seed 101, deal 3 of the noisy e2e run: two void choices accepted, one never read,
    then the table played on every 0.3 s. Each move changed the residue, and the settle and
    grace clocks restarted with it, so for 8 s nothing was accepted and nothing was said."""
    sc = Scene()
    sc.move(sc.copy_in("5s", HAND, E), VOID, E)
    sc.press(S, Button.VOID_S)
    sc.press(W, Button.VOID_M)
    # N's void button press is lost: the judge waits for N's void choice from now on
    said, start = [], sc.t
    table_moves = [
        lambda: sc.move(sc.copy_in("5s", VOID, E), RIVER, E),  # E's first discard
        lambda: sc.draw(S),
        lambda: sc.discard(S, "2m"),
        lambda: sc.draw(W),
        lambda: sc.discard(W, "2p"),
        lambda: sc.discard(N, "7s"),
    ]
    for step in table_moves:
        said += step()
        said += sc.wait(0.3)
    while sc.t < start + 8.0:  # the table goes on: tiles flicker between hand and river
        said += sc.move(sc.copy_in("7s", RIVER, N), HAND, N)
        said += sc.wait(0.1)
        said += sc.move(sc.copy_in("7s", HAND, N), RIVER, N)
        said += sc.wait(0.1)
    assert moves(said) == [] and sc.deal.void(N) is None
    (alert,) = alerts(said)  # the only word in 8 s
    assert alert.kind is AlertKind.STALLED
    assert "void choices of N" in alert.text


def flicker(sc: Scene, until: float) -> list:
    """N's 6s goes back and forth between hand and river, faster than `settle`."""
    said = []
    while sc.t < until:
        said += sc.move(sc.copy_in("6s", HAND, N), RIVER, N) + sc.wait(0.1)
        said += sc.move(sc.copy_in("6s", RIVER, N), HAND, N) + sc.wait(0.1)
    return said


def test_the_stall_alert_waits_for_the_grace_time_and_comes_once() -> None:
    sc = Scene(grace=5.0)
    sc.choose_voids()
    lifted = sc.t + 0.1  # the tile leaves N's hand then: unexplained from that moment
    sc.discard(N, "7s")  # out of turn, and the table keeps changing: nothing else said
    assert alerts(flicker(sc, lifted + 4.8)) == []
    late = flicker(sc, lifted + 5.3)
    assert [a.kind for a in alerts(late)] == [AlertKind.STALLED]
    assert "discard (E to move)" in alerts(late)[0].text
    assert alerts(flicker(sc, lifted + 15.0)) == []  # once per stall


def test_no_stall_alert_when_another_alert_said_it() -> None:
    sc = Scene(grace=5.0)
    sc.choose_voids()
    sc.discard(N, "7s")  # out of turn, and then the table is still: the judge's reason
    said = sc.wait(1.0) + sc.wait(5.0) + sc.wait(5.0)
    assert alerts(said) and stalls(said) == []


def test_an_accepted_move_restarts_the_stall_clock() -> None:
    sc = Scene(grace=5.0)
    sc.choose_voids()
    lifted = sc.t + 0.1
    sc.discard(N, "7s")
    assert alerts(flicker(sc, lifted + 3.0)) == []
    assert len(moves(sc.discard(E, "5s", VOID))) == 1  # a move accepted: the clock restarts
    accepted = sc.t
    assert stalls(flicker(sc, accepted + 4.7)) == []  # 7.7 s since the lift, 4.7 since then
    assert len(stalls(flicker(sc, accepted + 5.3))) == 1


def test_dealing_is_not_a_stall() -> None:
    """While the table deals, the residue is the tiles still to come; no alert then."""
    sc = Scene(grace=1.0)
    sc.rec.new_deal(Seat.E)  # the next shuffle takes every tile away...
    dealt = list(sc.where)
    for tc in dealt:
        sc.lift(tc)
    sc.rec.start_deal(sc.deal)  # ...and the same judge deals again: hands to come
    for tc in dealt[:40]:
        sc.place(tc, sc.where.get(tc) or sc.zone(HAND, E))
        assert stalls(sc.wait(0.3)) == []
    assert stalls(sc.wait(3.0)) == []


def test_the_watch_by_itself() -> None:
    w = StallWatch(grace=2.0)
    assert w.check(0.0, unexplained=True, armed=True) is None  # starts the clock
    assert w.check(1.9, unexplained=True, armed=True) is None
    assert w.check(2.0, unexplained=True, armed=True) == 2.0
    assert w.check(9.0, unexplained=True, armed=True) is None  # raised already
    assert w.check(9.5, unexplained=False, armed=True) is None  # agreed again: reset
    assert w.check(10.0, unexplained=True, armed=False) is None  # not armed: no clock
    assert w.check(10.0, unexplained=True, armed=True) is None
    assert w.check(12.5, unexplained=True, armed=True) == 2.5


def test_regression_a_dealing_that_stops_short_calls_the_referee() -> None:
    """Campaign at 20 % missed / 20 % crosstalk: a deal whose dealt hands never matched the
    judge (a tile never read in its hand) went by without a single alert, since the safety
    net was armed only once the hands were dealt. A dealing with no tile landing for
    `DEALING_GRACE` graces arms it."""
    sc = Scene(grace=1.0)
    sc.rec.new_deal(Seat.E)
    dealt = list(sc.where)
    for tc in dealt:
        sc.lift(tc)
    sc.rec.start_deal(sc.deal)
    for tc in dealt[:-1]:  # one tile never read in its hand
        sc.place(tc, sc.where.get(tc) or sc.zone(HAND, E))
    said = []
    for _ in range(8):
        said += sc.wait(1.0)
    assert len(stalls(said)) == 1
