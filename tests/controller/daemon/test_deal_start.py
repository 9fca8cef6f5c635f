"""What a deal waits for before the judge deals it (controller/daemon/deal_start.py): dice
rolled before the wall scan wait for it, and are given up (said once) when it does not come."""

from __future__ import annotations

from pathlib import Path

from rig import Rig, rec_types, wall_copies

from controller.alerts import AlertKind
from controller.daemon.deal_start import WALL_SCAN_WAIT, DealStart, Rolled
from controller.devices.events import DiceRolled, ShuffleDone, WallsUp
from controller.journal.records import RecordKind
from rules.wall import Dice


def alert_codes(rig: Rig) -> list[str]:
    return [r.data()["code"] for r in rig.records(RecordKind.ALERT)]


def test_dice_before_the_scan_wait_for_it_then_start_the_deal(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "j.journal")
    rig.wait_ready()
    order = wall_copies(rig.rs, 3)
    rig.table(ShuffleDone(0.0))
    rig.table(WallsUp(0.0))
    rig.table(DiceRolled(0.0, 2, 5))
    assert rig.rt.deal is None and rig.rt.deal_start.waiting is not None
    rig.step(1.0)  # the wall antenna's last read comes in time
    rig.rt.recognised([rec_types.WallScanned(order)], rig.clock.now)
    assert rig.rt.deal is not None and rig.rt.deal_start.waiting is None
    started = rig.records(RecordKind.DEAL_STARTED)
    assert len(started) == 1 and started[0].data()["dice"] == [2, 5]
    rig.step(WALL_SCAN_WAIT + 1)
    assert "no-wall-scan" not in alert_codes(rig)
    rig.close()


def test_a_scan_that_never_comes_is_said_once_and_the_dice_are_dropped(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "j.journal")
    rig.wait_ready()
    rig.table(ShuffleDone(0.0))
    rig.table(WallsUp(0.0))
    rig.table(DiceRolled(0.0, 2, 5))
    for _ in range(3):
        rig.step(WALL_SCAN_WAIT)
    assert alert_codes(rig).count("no-wall-scan") == 1
    # a scan after the alert starts nothing: the dice it would need were given up
    rig.rt.recognised([rec_types.WallScanned(wall_copies(rig.rs, 3))], rig.clock.now)
    assert rig.rt.deal is None and not rig.records(RecordKind.DEAL_STARTED)
    rig.close()


def test_with_no_wall_antenna_the_hands_are_waited_for_and_said_late_once() -> None:
    start = DealStart(wall_antenna=False)
    rolled = Rolled(10.0, Dice(3, 4), {})
    assert start.rolled(rolled, now=10.0) is None  # no scan: the dice wait
    assert start.overdue(10.0 + WALL_SCAN_WAIT) is None  # not yet past the wait
    assert start.overdue(10.1 + WALL_SCAN_WAIT) is AlertKind.NO_DEALT_HANDS
    assert start.overdue(20.0 + WALL_SCAN_WAIT) is None  # said once
    assert start.waiting == rolled  # still waited for
    start.shuffled()
    assert start.waiting is None and start.scan is None


def test_dice_after_the_scan_are_dealt_at_once() -> None:
    start = DealStart(wall_antenna=True)
    rolled = Rolled(1.0, Dice(1, 1), {"dice_from": "hands"})
    assert start.scanned(()) is None
    assert start.rolled(rolled, now=1.0) is rolled
    assert start.waiting is None and start.overdue(100.0) is None
