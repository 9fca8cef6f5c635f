"""Issue 16 item 6: the hall standings take the corrected result. A deal corrected after it
settled (`mjtable correct`, another process appending to the table's journal) is re-judged
and published again with the correction's seq; a daemon started on a corrected journal
publishes every settled deal corrected. A real Mosquitto on loopback, the real publisher and
hub subscriber, the real journal and referee rebuild."""

from __future__ import annotations

from pathlib import Path

from controller.cli import main
from controller.hub.standings import Standings
from controller.hub.subscriber import HubSubscriber
from controller.journal.store import Journal
from controller.outputs.hall_results import POLL_S, HallResults
from controller.outputs.mqtt import MqttPublisher
from tests.controller.hub.test_hub_broker import T, fast
from tests.tools.test_referee import capped_journal

REF = ["--referee", "Li Wei", "--why", "seen on the video"]
SETTLED = (-9, 27, -9, -9)  # E's heavenly hand, capped: the dealer sits at S (hand-worked)


def totals(sub: HubSubscriber) -> tuple[int, ...] | None:
    snap = sub.standings.snapshot()
    sessions = [s for t in snap.tables for s in t.sessions]
    return sessions[0].totals if sessions else None


def test_a_correction_after_settlement_reaches_the_hall_standings(broker, tmp_path: Path) -> None:
    path = capped_journal(tmp_path / "t.journal")
    hub = HubSubscriber(fast(broker), Standings(lambda name: None), hall="h1")
    pub = MqttPublisher(fast(broker), "h1", "t1")
    hub.start()
    pub.start()
    try:
        assert hub.wait_until(lambda: hub.connected, T) and pub.wait_connected(T)
        with Journal.open(path) as journal:  # the daemon's connection
            hall = HallResults(journal, pub.publish_deal)
            assert hall.start() == 1
            assert hub.wait_until(lambda: totals(hub) == SETTLED, T), totals(hub)
            # the referee corrects from a terminal while the daemon holds the journal open
            penalty = ["penalty", "--deal", "1", "--seat", "N", "--points", "8", "--to", "W"]
            assert main(["correct", str(path), *penalty, *REF]) == 0
            hall.poll(100.0)
            hall.poll(100.0 + POLL_S)
            assert hub.wait_until(lambda: totals(hub) == (-9, 27, -1, -17), T), totals(hub)
            assert pub.wait_drained(T)
            handed, applied = pub.stats.handed, hub.stats.applied
            hall.poll(100.0 + 2 * POLL_S)  # nothing new: nothing published again
            assert pub.wait_drained(T) and (pub.stats.handed, applied) == (handed, 2)
        # a table restarted on the corrected journal publishes the corrected deal, never the
        # journalled one (its seq is the settlement's, lower: the hub would keep the newer)
        with Journal.open(path) as journal:
            sent: list = []
            assert HallResults(journal, sent.append).start() == 1
            assert sent[0].deltas == (-9, 27, -1, -17) and sent[0].seq > 8
    finally:
        pub.stop(drain_timeout_s=2)
        hub.stop()


def test_regression_a_clean_stop_logs_no_connection_lost_warning(broker, caplog) -> None:
    """Issue 16 item 10: a clean stop logged a WARNING "MQTT connection lost"."""
    import logging

    hub = HubSubscriber(fast(broker), Standings(lambda name: None), hall="h1")
    pub = MqttPublisher(fast(broker), "h1", "t1")
    hub.start()
    pub.start()
    assert hub.wait_until(lambda: hub.connected, T) and pub.wait_connected(T)
    with caplog.at_level(logging.INFO):
        pub.stop(drain_timeout_s=2)
        hub.stop()
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == []
    assert any("MQTT disconnected" in r.getMessage() for r in caplog.records)
    # a broker that goes away is still a warning
    hub = HubSubscriber(fast(broker), Standings(lambda name: None), hall="h1", client_id="h2")
    hub.start()
    assert hub.wait_until(lambda: hub.connected, T)
    caplog.clear()
    broker.kill()
    assert hub.wait_until(lambda: not hub.connected, T)
    hub.stop()
    assert any("hub lost the broker" in r.getMessage() for r in caplog.records)
