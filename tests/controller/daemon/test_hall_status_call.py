"""Issue 28 item 6: a table waiting for the referee looked normal on its hall card, because
its MQTT status did not carry the call. The daemon's outputs (the real AppOutputs, publisher
and hub subscriber, a real Mosquitto on 127.0.0.1) now publish `referee_called` with the
status, and again when the referee has answered."""

from __future__ import annotations

from pathlib import Path

from real_things import start_broker
from test_overtaken_deal import overtaken

from controller.daemon.app import AppOutputs
from controller.daemon.notify import Notifier
from controller.hub.standings import Standings
from controller.hub.subscriber import HubSubscriber
from controller.hub.wire import BrokerOptions
from controller.outputs.mqtt import MqttPublisher
from controller.outputs.scoreboard import ActionKind, RefereeAction, Scoreboard

T = 15.0


def test_regression_the_tables_status_carries_the_referee_call(tmp_path: Path) -> None:
    broker = start_broker(tmp_path / "broker")
    options = BrokerOptions(port=broker.port, reconnect_min_s=0.05, reconnect_max_s=0.2)
    hub = HubSubscriber(options, Standings(lambda name: None), hall="h")
    pub = MqttPublisher(options, "h", "t1")
    rig, _ = overtaken(tmp_path, restart=False)  # deal 1 overtaken: the referee is called

    def status():
        tables = hub.standings.snapshot().tables
        return tables[0].status if tables else None

    try:
        hub.start()
        pub.start()
        assert hub.wait_until(lambda: hub.connected, T) and pub.wait_connected(T)
        outputs = AppOutputs(Scoreboard(), None, pub, Notifier(None), "t1")
        outputs.runtime = rig.rt
        rig.rt.outputs = outputs
        rig.rt.publish()
        assert hub.wait_until(lambda: status() is not None and status().referee_called, T)
        answered = rig.rt.referee(RefereeAction(ActionKind.ABANDON, confirmed=True, note="t"))
        assert answered.accepted, answered.detail
        rig.rt.publish()
        assert hub.wait_until(lambda: not status().referee_called, T), status()
    finally:
        rig.close()
        pub.stop(drain_timeout_s=2)
        hub.stop()
        broker.stop()
