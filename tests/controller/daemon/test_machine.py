"""The table state machine: phases, the claim window and move clock on a fake clock."""

import pytest
from transitions import MachineError

from controller.clock import FakeClock
from controller.daemon.machine import (
    AWAITING_DISCARD,
    AWAITING_DRAW,
    CLAIM_WINDOW,
    ROBBING_WINDOW,
    TableMachine,
    Timer,
)
from tools import gen_state_diagram

SETUP = [
    "devices_ready",
    "shuffle_started",
    "walls_raised",
    "dice_rolled",
    "dealing_started",
    "deal_complete",
    "voids_chosen",
]


def playing(move_seconds=0.0):
    clock = FakeClock()
    fired = []
    machine = TableMachine(
        clock, claim_seconds=3.0, move_seconds=move_seconds, on_timer=fired.append
    )
    for trigger in SETUP:
        getattr(machine, trigger)()
    return clock, machine, fired


def test_a_deal_walks_through_the_phases_in_order():
    _, m, _ = playing()
    assert m.phase == AWAITING_DISCARD  # East starts with 14 tiles
    m.discarded()
    assert m.phase == CLAIM_WINDOW
    m.pung_claimed()
    assert m.phase == AWAITING_DISCARD
    m.added_kong_declared()
    assert m.phase == ROBBING_WINDOW
    m.robbing_closed()
    assert m.phase == AWAITING_DRAW
    m.drawn()
    m.deal_ended()
    m.settlement_done()
    assert m.phase == "settled"
    m.shuffle_started()
    assert m.phase == "shuffling"


def test_an_event_out_of_phase_is_refused_and_changes_nothing():
    _, m, _ = playing()
    with pytest.raises(MachineError):
        m.drawn()  # East must discard first
    assert m.phase == AWAITING_DISCARD
    assert not m.can("claims_passed")
    assert m.can("discarded")


def test_claim_window_closes_on_time_and_not_before():
    clock, m, fired = playing()
    m.discarded()
    clock.advance(2.999)
    assert m.tick() == []
    assert m.remaining(Timer.CLAIM) == pytest.approx(0.001)
    clock.advance(0.001)
    (event,) = m.tick()
    assert event.timer is Timer.CLAIM and event.phase == CLAIM_WINDOW
    assert fired == [event]
    assert m.tick() == []  # fires once


def test_next_players_draw_closes_the_window_early():
    clock, m, _ = playing()
    m.discarded()
    clock.advance(1.0)
    m.drawn()
    assert m.phase == AWAITING_DISCARD
    assert m.remaining(Timer.CLAIM) is None
    clock.advance(5.0)
    assert m.tick() == []


def test_move_clock_warns_once_per_move():
    clock, m, fired = playing(move_seconds=10.0)
    clock.advance(10.0)
    assert [f.timer for f in m.tick()] == [Timer.MOVE]
    clock.advance(10.0)
    assert m.tick() == []
    m.discarded()
    m.claims_passed()
    clock.advance(9.0)
    assert m.tick() == []
    clock.advance(1.0)
    assert [f.timer for f in m.tick()] == [Timer.MOVE]
    assert len(fired) == 2


@pytest.mark.parametrize(
    ("lose", "back"), [("device_lost", "device_back"), ("referee_paused", "referee_resumed")]
)
def test_interruptions_freeze_timers_and_return_to_the_same_phase(lose, back):
    clock, m, _ = playing()
    m.discarded()
    clock.advance(1.0)
    getattr(m, lose)()
    assert m.phase in ("degraded", "paused")
    assert m.interrupted_phase == CLAIM_WINDOW
    clock.advance(60.0)
    assert m.tick() == []  # no claim window closes while a device is lost
    assert m.remaining(Timer.CLAIM) == pytest.approx(2.0)
    getattr(m, back)()
    assert m.phase == CLAIM_WINDOW
    assert m.remaining(Timer.CLAIM) == pytest.approx(2.0)
    with pytest.raises(MachineError):
        m.device_back()


def test_pause_while_degraded_resumes_to_the_original_phase():
    _, m, _ = playing()
    m.device_lost()
    m.referee_paused()
    m.referee_resumed()
    assert m.phase == AWAITING_DISCARD


def test_state_diagram_in_docs_is_generated_from_the_machine():
    assert gen_state_diagram.main(["--check"]) == 0, "run python -m tools.gen_state_diagram"
    text = gen_state_diagram.render()
    for state in ("offline", "claim_window", "robbing_window", "degraded", "paused"):
        assert state in text
