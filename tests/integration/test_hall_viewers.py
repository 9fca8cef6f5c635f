"""Issue 29 item 2 on the real parts: `mjtable hall broker-config`'s files run a real
Mosquitto and the viewers' broker (Aedes under Node.js, MQTT over WebSockets) on loopback.
A viewer on WebSockets reads a table's public topics and the delayed feed, is refused every
other subscription and never receives a private message; the bridge carries nothing else;
Mosquitto restarted mid-session loses no deal and no seating, and the viewers get the table
again."""

from __future__ import annotations

import threading
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from real_things import absent

from controller.hub.standings import Standings
from controller.hub.subscriber import HubSubscriber
from controller.hub.wire import (
    Channel,
    EventKind,
    SeatedPlayer,
    SeatingNotice,
    SettledDeal,
    TableEvent,
    seating_topic,
    topic,
)
from controller.outputs.mqtt import MqttPublisher
from controller.outputs.view import BroadcastView, HandView
from rules.seats import Seat
from tests.controller.outputs.outputs_views import public_steps
from tools.bench.hall_loopback import HallPartMissing, LoopbackHall

T = 20.0
PLAYERS = ("Ann", "Bo", "Cy", "Di")


def deal(n: int, seq: int) -> SettledDeal:
    return SettledDeal(seq=seq, session=1, deal=n, rules="sbr-mil", dealer=Seat.E, dice=(3, 4),
                       winners=(Seat.E,), deltas=(6, -2, -2, -2), players=PLAYERS)  # fmt: skip


@pytest.fixture
def hall(tmp_path: Path):
    try:
        hall = LoopbackHall(tmp_path, "h", ("T1", "T2"), max_viewers=20)
        hall.start()
    except HallPartMissing as err:
        absent(str(err))
    yield hall
    hall.stop()


class Viewer:
    """A phone's MQTT over WebSockets client on the viewers' broker."""

    def __init__(self, port: int) -> None:
        self.cond = threading.Condition()
        self.got: list[tuple[str, bytes]] = []
        self.granted: list[int] = []
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, transport="websockets")
        self.client.on_message = self._message
        self.client.on_subscribe = self._subscribed
        self.dropped = threading.Event()
        self.client.on_disconnect = lambda *args: self.dropped.set()
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _message(self, client, userdata, msg) -> None:
        with self.cond:
            self.got.append((msg.topic, msg.payload))
            self.cond.notify_all()

    def _subscribed(self, client, userdata, mid, codes, properties) -> None:
        with self.cond:
            self.granted += [c.value for c in codes]
            self.cond.notify_all()

    def subscribe(self, *filters: str) -> list[int]:
        before = len(self.granted)
        self.client.subscribe([(f, 0) for f in filters])
        with self.cond:
            assert self.cond.wait_for(lambda: len(self.granted) >= before + len(filters), T)
            return self.granted[before:]

    def wait(self, predicate, timeout_s: float = T) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: predicate(self.got), timeout_s)

    def topics(self) -> set[str]:
        with self.cond:
            return {t for t, _ in self.got}

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_viewer_reads_the_public_topics_and_is_refused_every_private_one(hall) -> None:
    table = MqttPublisher(hall.options("table-h-T1", reconnect_min_s=0.05), "h", "T1")
    table.start()
    viewer = Viewer(hall.ws_port)
    try:
        assert table.wait_connected(T)
        view = public_steps()[2]
        table.publish_view(view)
        table.publish_broadcast(BroadcastView(view, (HandView("E", ("1m",) * 13, None),), 1.0))
        table.publish_status(1, 1, "playing")
        table.publish_deal(deal(1, 10))
        assert table.wait_drained(T)
        granted = viewer.subscribe(
            *(f"mjtable/h/+/{c.value}" for c in (Channel.VIEW, Channel.STATUS, Channel.BROADCAST)),
            topic("h", "T1", Channel.EVENT),
        )
        assert granted == [0, 0, 0, 0]
        refused = viewer.subscribe(
            topic("h", "T1", Channel.DEAL),
            "mjtable/h/+/ledger",
            seating_topic("h", "T1"),
            "mjtable/#",
            "#",
            "mjtable/h/T1/+",
            "$SYS/#",
        )
        assert refused == [0x80] * 7
        want = {topic("h", "T1", c) for c in (Channel.VIEW, Channel.STATUS, Channel.BROADCAST)}
        assert viewer.wait(lambda got: want <= {t for t, _ in got})
        table.publish_event(TableEvent(seq=11, session=1, deal=2, kind=EventKind.DISCARD,
                                       seat=Seat.E, tile="5p"))  # fmt: skip
        table.publish_deal(deal(2, 12))
        assert table.wait_drained(T)
        assert viewer.wait(lambda got: topic("h", "T1", Channel.EVENT) in {t for t, _ in got})
        # the deal and ledger were published after the event: were they ever let through?
        # A status published after them comes through the same bridge in order: once it is
        # here, anything let through before it would be here too.
        table.publish_status(1, 2, "sentinel")
        assert table.wait_drained(T)
        assert viewer.wait(lambda got: any(b"sentinel" in p for _, p in got))
        assert viewer.topics() == want | {topic("h", "T1", Channel.EVENT)}
        # a viewer cannot publish: another viewer never sees it
        other = Viewer(hall.ws_port)
        assert other.subscribe("mjtable/h/+/view") == [0]
        assert other.wait(lambda got: len(got) == 1)
        viewer.client.publish(topic("h", "T2", Channel.VIEW), b'{"forged": 1}', retain=True)
        # the viewers' broker drops a client that publishes; a view the table publishes after
        # that comes the longer way (Mosquitto, the bridge): once it is here, a forged view let
        # through would have been here before it
        assert viewer.dropped.wait(T)
        table.publish_view(public_steps()[3])
        assert table.wait_drained(T)
        assert other.wait(lambda got: len(got) == 2)
        assert [t for t, _ in other.got] == [topic("h", "T1", Channel.VIEW)] * 2
        other.close()
    finally:
        viewer.close()
        table.stop(2)


def test_the_broker_restarted_mid_session_loses_no_deal_and_no_seating(hall) -> None:
    table = MqttPublisher(hall.options("table-h-T1", reconnect_min_s=0.05,
                                       reconnect_max_s=0.5), "h", "T1")  # fmt: skip
    standings = Standings()
    hub = HubSubscriber(hall.options("hub-h", reconnect_min_s=0.05, reconnect_max_s=0.5),
                        standings, "h")  # fmt: skip
    seating = SeatingNotice("h", "T1", 2, tuple(SeatedPlayer(f"p{i}", n) for i, n in
                                                enumerate(PLAYERS)))  # fmt: skip
    director = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="director")
    director.username_pw_set("hub-h", hall.password("hub-h"))
    director.connect("127.0.0.1", hall.mqtt_port)
    director.loop_start()
    viewer = Viewer(hall.ws_port)
    try:
        table.start()
        hub.start()
        director.publish(seating_topic("h", "T1"), seating.encode(), qos=1,
                         retain=True).wait_for_publish(T)  # fmt: skip
        table.publish_view(public_steps()[1])
        table.publish_deal(deal(1, 10))
        assert table.wait_drained(T)
        assert viewer.subscribe(topic("h", "T1", Channel.VIEW)) == [0]
        assert viewer.wait(lambda got: len(got) == 1)

        assert hall.mosquitto is not None
        hall.mosquitto.stop()  # mid-session: `systemctl restart mosquitto` (SIGTERM)
        assert table.wait_connected(T, connected=False)
        table.publish_deal(deal(2, 20))  # settled while the broker is down
        table.publish_view(public_steps()[3])
        hall.start_mosquitto()
        assert table.wait_drained(T)
        assert hub.wait_until(lambda: _deals(standings) == 2, T), _deals(standings)
        # the seating is still there, retained and persistent, for a table that reconnects
        again = threading.Event()
        reader = paho.Client(paho.CallbackAPIVersion.VERSION2)
        reader.username_pw_set("table-h-T1", hall.password("table-h-T1"))
        reader.on_message = lambda c, u, m: again.set() if m.payload == seating.encode() else 0
        reader.on_connect = lambda c, u, f, rc, p: c.subscribe(seating_topic("h", "T1"), 1)
        reader.connect("127.0.0.1", hall.mqtt_port)
        reader.loop_start()
        assert again.wait(T)
        reader.disconnect()
        reader.loop_stop()
        # the viewer, on the other broker, gets the table's newest view through the bridge
        newest = public_steps()[3]
        assert viewer.wait(lambda got: any(b'"seq":%d' % newest.seq in p for _, p in got))
    finally:
        viewer.close()
        director.disconnect()
        director.loop_stop()
        hub.stop()
        table.stop(2)


def _deals(standings: Standings) -> int:
    snap = standings.snapshot()
    return sum(s.deals for t in snap.tables for s in t.sessions)


def test_the_viewers_broker_takes_at_most_max_connections(tmp_path: Path) -> None:
    try:
        hall = LoopbackHall(tmp_path, "h", ("T1",), max_viewers=2)
        hall.start_viewers()  # the viewers' side alone: no Mosquitto needed to refuse
    except HallPartMissing as err:
        absent(str(err))
    viewers = []
    try:
        viewers = [Viewer(hall.ws_port) for _ in range(2)]
        assert [v.subscribe("mjtable/h/+/view") for v in viewers] == [[0], [0]]
        with pytest.raises((OSError, paho.WebsocketConnectionError)):
            Viewer(hall.ws_port).subscribe("mjtable/h/+/view")
    finally:
        for v in viewers:
            v.close()
        hall.stop()
