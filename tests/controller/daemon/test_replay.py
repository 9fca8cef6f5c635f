"""Restart = replay: a daemon stopped at any point (here: its journal closed without a word,
as after SIGKILL) and started again on the same journal rebuilds the same table state, and
the deal carries on to the judge's result."""

import dataclasses

import pytest
from rig import Rig, begin_deal, play, rec_types

from controller.daemon import machine as m
from controller.daemon.replay import recover
from controller.journal.payloads import fixed_order
from controller.journal.records import RecordKind
from controller.journal.store import Journal
from controller.locale import Said
from rules import moves as mv
from rules.deal import Deal
from rules.seats import Seat


def reconnect(rig):
    rig.link("table", True)
    rig.link("reader", True)
    for _ in range(400):
        if rig.rt.machine.phase != "degraded":
            return
        rig.step(0.6)  # silent antennas time out one by one: reader rounds go by
    raise AssertionError("never left degraded")


@pytest.mark.parametrize("cut", [0, 1, 7, 20, 33, 61, -1])
def test_a_restart_rebuilds_the_deal_and_finishes_it_like_the_judge(tmp_path, cut):
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    plan = begin_deal(rig, 11)
    moves = list(plan.moves)
    cut = len(moves) - 1 if cut < 0 else cut
    play(rig, moves[:cut])
    before = rig.rt.deal.snapshot()
    phase = rig.rt.machine.phase
    rig.close()  # no daemon.stopped: as if killed

    again = Rig(path, clock=rig.clock)
    assert again.recovered.deal_no == 1
    assert again.rt.deal.snapshot() == before
    assert again.rt.machine.phase == "degraded"
    assert again.rec.accepted == list(rig.rt.deal.history)  # the recogniser was replayed too
    reconnect(again)
    if phase == m.CLAIM_WINDOW:
        # the window starts afresh after a restart and still closes on time
        assert again.rt.machine.phase == m.CLAIM_WINDOW
    else:
        assert again.rt.machine.phase == phase
    play(again, moves[cut:])
    assert again.rt.machine.phase == "settled"
    truth = Deal.replay(again.rs, plan.dice, again.rt.deal.wall_order, moves)
    (settled,) = again.records(RecordKind.DEAL_SETTLED)
    assert settled.data()["deltas"] == list(fixed_order(truth.deltas(), Seat.E))
    assert again.journal.verify().ok
    started = [r for r in again.records(RecordKind.DAEMON_STARTED)]
    assert [r.data()["recovered"] for r in started] == [False, True]
    again.close()


def test_sessions_totals_and_dealer_carry_over_a_restart(tmp_path):
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    plan = begin_deal(rig, 3)
    play(rig, plan.moves)
    totals, dealer = tuple(rig.rt.totals), rig.rt.dealer
    rig.close()
    rec = recover(Rig(path, clock=rig.clock).journal, rig.rs)
    assert rec.session == 1 and rec.next_deal == 2 and rec.deal_no == 0
    assert rec.totals == totals and rec.dealer == dealer
    assert rec.phase == "settled"


def test_a_deal_closed_by_the_timer_replays_the_close(tmp_path):
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    plan = begin_deal(rig, 2)
    moves = list(plan.moves)
    first = next(i for i, x in enumerate(moves) if isinstance(x, mv.Discard))
    play(rig, moves[: first + 1])
    rig.step(3.01)  # the daemon's clock closes the window
    state = rig.rt.deal.snapshot()
    rig.close()
    again = Rig(path, clock=rig.clock)
    assert isinstance(again.recovered.moves[-1], mv.CloseClaims)
    assert again.rt.deal.snapshot() == state
    again.close()


def test_regression_a_window_closed_by_reconciliation_replays(tmp_path):
    """The bug: killed inside a claim window, restarted, the reconciliation closed the window
    (CloseClaims offered with the next draw) without journalling the close; the next
    restart's replay refused the draw (wrong phase: claims)."""
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    moves = list(begin_deal(rig, 11).moves)
    cut = next(i for i, x in enumerate(moves) if isinstance(x, mv.Discard) and i > 4) + 1
    play(rig, moves[:cut])
    assert rig.rt.deal.window is not None
    rig.close()
    rig = Rig(path)
    rest = [x for x in moves[cut:] if not isinstance(x, mv.Pass)]
    assert isinstance(rest[0], mv.CloseClaims)
    rig.rec.outbox = [rec_types.MoveSeen(x, (Said("reconciled"),)) for x in rest[:2]]
    reconnect(rig)
    history = rig.rt.deal.history
    assert rig.rt.deal.window is None and isinstance(history[-2], mv.CloseClaims)
    assert history[-1] == rest[1]
    closed = [r.data() for r in rig.records(RecordKind.CLAIM_WINDOW)][-1]
    assert (closed["state"], closed["closed_by"]) == ("closed", "recognised")
    rig.close()
    with Journal.open_readonly(path) as journal:
        again = recover(journal, rig.rs)
    untimed = [dataclasses.replace(x, t=None) for x in history]
    assert [dataclasses.replace(x, t=None) for x in again.moves] == untimed  # close, then draw


def test_regression_a_deal_of_an_ended_session_was_resumed_and_called_the_referee(tmp_path):
    """A rerun of `mjtable run` after a SIGKILL ends the simulated session it finds open (its
    deal left unsettled, `end_simulated_session`); recovery still resumed that deal, the new
    simulator's first shuffle called the referee to finish it (deal-overtaken), and the rerun
    waited for a referee nobody was (e2e: test_regression_a_killed_run_takes_its_simulator_
    along_and_a_rerun_plays_a_new_session). A deal open when its session ends is no more."""
    from controller.daemon.app import end_simulated_session

    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    moves = begin_deal(rig, 3).moves
    play(rig, moves[:6])
    rig.close()
    with Journal.open(path) as journal:
        open_deal = recover(journal, rig.rs)
        assert open_deal.started is not None and open_deal.deal_no == 1
        end_simulated_session(journal, open_deal)
        again = recover(journal, rig.rs)
    assert again.session is None and again.started is None and again.deal_no == 0
    assert again.moves == [] and again.next_deal == 2
