"""Issue 13: what the table says while the daemon is restarting or degraded is held and
judged once the daemon has caught up with the tiles, never dropped (a real automatic table
finishes its shuffle, and players press buttons, while the Pi restarts)."""

from __future__ import annotations

from pathlib import Path

from rig import Rig, begin_deal, play, rec_types, wall_copies

from controller.devices.events import (
    Button,
    DiceRolled,
    SeatButton,
    ShuffleDone,
    WallsUp,
)
from controller.journal.records import RecordKind
from controller.locale import Said
from rules import moves as mv
from rules.seats import Seat


def one_settled_deal(path: Path) -> Rig:
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    plan = begin_deal(rig, 3)
    play(rig, plan.moves)
    assert rig.rt.deal is not None and rig.rt.deal.over
    assert len(rig.records(RecordKind.DEAL_SETTLED)) == 1
    rig.close()
    return rig


def test_regression_a_shuffle_that_ends_while_the_daemon_restarts_starts_the_deal(tmp_path):
    """Item 4: the simulator's first shuffle-done came 0.022 s after a restart, while the
    daemon was still degraded (ready at 0.043 s); `_shuffle` returned early, the settled
    machine had no way to the dice, and the whole deal was lost."""
    path = tmp_path / "t.journal"
    first = one_settled_deal(path)
    rig = Rig(path, clock=first.clock)  # the daemon restarted between two deals
    assert rig.rt.machine.phase == "degraded"
    order = wall_copies(rig.rs, 9)
    rig.table(ShuffleDone(0.0))
    rig.table(WallsUp(0.0))
    rig.table(DiceRolled(0.0, 5, 2))
    assert len(rig.records(RecordKind.DEAL_STARTED)) == 1, "judged before the daemon was ready"
    rig.rec.outbox = []
    rig.wait_ready()
    assert rig.rt.machine.phase == "dice_rolled"  # the held events, in order
    rig.rt.recognised([rec_types.WallScanned(order)], rig.clock.now)
    started = [r.data() for r in rig.records(RecordKind.DEAL_STARTED)]
    assert len(started) == 2 and started[-1]["dice"] == [5, 2]
    assert started[-1]["wall_copies"] == [str(tc) for tc in order]
    phases = [r.data()["to"] for r in rig.records(RecordKind.TABLE_PHASE)]
    assert phases[-3:] == ["walls_up", "dice_rolled", "dealing"]
    rig.close()


def test_regression_a_claim_button_read_while_recovering_is_judged_after_the_recovery(tmp_path):
    """Item 1: killed during a claim window; on restart S's PUNG frame came before recovery
    had finished and before the recovered discard: the PUNG was dropped, the judge stalled
    and the deal was abandoned. Now it is held, and offered once the tiles are reconciled."""
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    plan = begin_deal(rig, 1)
    moves = list(plan.moves)
    i = next(i for i, x in enumerate(moves) if isinstance(x, mv.Pung))
    k = max(j for j in range(i) if isinstance(moves[j], mv.Discard))
    play(rig, moves[:k])  # the discard the pung takes is made while the daemon is down
    rig.close()
    again = Rig(path, clock=rig.clock)
    assert again.rt.machine.phase == "degraded"
    punger = moves[i].seat
    side = Seat((punger + again.rt.dealer) % 4)  # deal seat -> table side
    again.table(SeatButton(0.0, side, Button.PUNG))
    assert not [c for c in again.rec.calls if c[0] == "on_button"], "asked before recovery"
    # the re-inventory explains the discard; then the held button is read
    again.rec.outbox = [rec_types.MoveSeen(moves[k], (Said("reconciled"),))]
    again.link("table", True)
    again.link("reader", True)
    for _ in range(200):
        again.step(0.6)
        if any(c[0] == "reconcile" for c in again.rec.calls):
            break
    calls = [c[0] for c in again.rec.calls]
    assert "on_button" in calls and calls.index("reconcile") < calls.index("on_button")
    assert again.rt.deal.window is not None  # the recovered discard's window
    again.close()


def in_a_claim_window(path: Path) -> Rig:
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    moves = list(begin_deal(rig, 1).moves)
    k = next(i for i, x in enumerate(moves) if isinstance(x, mv.Discard))
    play(rig, moves[: k + 1])
    assert rig.rt.deal.window is not None
    return rig


def test_regression_a_pung_pressed_before_the_daemon_reopened_the_table_port_was_lost(tmp_path):
    """The e2e unplug test (tests/e2e/test_daemon_sim.py, the table's cable out 3 s): E pressed
    PUNG 6 ms after the cable came back, before the daemon had reopened the port, so the
    board's bytes went nowhere; the tiles, laid after the reconciliation, were refused as
    a pung with no button. The recogniser is told that the window left open by the
    reconciliation had its buttons unheard (its claims are then read from the tiles)."""
    rig = in_a_claim_window(tmp_path / "t.journal")
    window = rig.rt.deal.window
    rig.link("table", False)
    assert rig.rt.machine.phase == "degraded"
    rig.wait_ready()
    calls = [c[0] for c in rig.rec.calls]
    assert calls.index("reconcile") < calls.index("buttons_unheard")
    assert ("buttons_unheard", window) in rig.rec.calls
    rig.close()


def test_a_reader_cable_out_leaves_the_buttons_heard(tmp_path):
    """Only the reader was out: the table's buttons were heard (and held), none is missing."""
    rig = in_a_claim_window(tmp_path / "t.journal")
    rig.link("reader", False)
    rig.wait_ready()
    calls = [c[0] for c in rig.rec.calls]
    assert "reconcile" in calls and "buttons_unheard" not in calls
    rig.close()
