"""Issue 32 item 1: only the table writes its topics. `mjtable hall broker-config` writes a
Mosquitto drop-in, password file (Debian's mosquitto_passwd) and ACL; a real Mosquitto 2.0
runs with it on loopback. The forged publish of issue 32 is refused by the broker (the hub
never sees it), and a viewer reads the public topics only."""

from __future__ import annotations

import dataclasses
import shutil
import stat
import subprocess
import threading
from pathlib import Path

import paho.mqtt.client as paho
import pytest

from controller.cli import main
from controller.hub.standings import Standings
from controller.hub.subscriber import HubSubscriber
from controller.hub.wire import (
    BrokerOptions,
    Channel,
    EventKind,
    SettledDeal,
    TableEvent,
    encode,
    seating_topic,
    topic,
)
from controller.outputs.mqtt import MqttPublisher
from tests.controller.hub.conftest import free_port
from tests.controller.hub.test_hub_broker import T
from tests.controller.hub.test_hub_signatures import deal1


@pytest.fixture
def hall(make_broker, tmp_path: Path):
    """The generated configuration, included into the test broker (its own listener too)."""
    out, port = tmp_path / "hall", free_port()
    argv = ["hall", "broker-config", "--hall", "h", "--table", "T1", "--table", "T2"]
    assert main([*argv, "--out", str(out), "--listen", f"127.0.0.1:{port}"]) == 0
    broker = make_broker(f"include_dir {out}")
    return out, port, broker


def options(out: Path, port: int, user: str | None) -> BrokerOptions:
    password = (out / "credentials" / user).read_text().strip() if user else None
    return BrokerOptions(port=port, username=user, password=password, reconnect_min_s=0.05)


class Raw:
    """A plain paho client: what any laptop on the hall network runs."""

    def __init__(self, out: Path, port: int, user: str | None, client_id: str) -> None:
        self.refused = threading.Event()
        self.up = threading.Event()
        self.got: list[str] = []
        self.payloads: list[bytes] = []
        self.cond = threading.Condition()
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id)
        if user:
            self.client.username_pw_set(user, (out / "credentials" / user).read_text().strip())
        self.client.on_connect = lambda c, u, f, rc, p: (
            self.refused if rc.is_failure else self.up
        ).set()
        self.client.on_message = self._message
        self.subscribed = threading.Event()
        self.client.on_subscribe = lambda c, u, mid, rcs, p: self.subscribed.set()
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _message(self, client, userdata, message) -> None:
        with self.cond:
            self.got.append(message.topic)
            self.payloads.append(message.payload)
            self.cond.notify_all()

    def publish(self, where: str, payload: bytes) -> None:
        info = self.client.publish(where, payload, qos=1)
        info.wait_for_publish(T)  # the broker acknowledges, and drops what the ACL denies

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_the_generated_files_are_private_and_anonymous_clients_are_refused(hall) -> None:
    out, port, _ = hall
    creds = sorted(p.name for p in (out / "credentials").iterdir())
    assert creds == ["hub-h", "table-h-T1", "table-h-T2", "viewer-h"]
    for p in (out / "credentials").iterdir():
        assert stat.S_IMODE(p.stat().st_mode) == 0o600
    assert "s3cret" not in (out / "passwd").read_text()
    assert all(
        line.split(":")[1].startswith("$7$") for line in (out / "passwd").read_text().split()
    )
    anon = Raw(out, port, None, "laptop")
    try:
        assert anon.refused.wait(T)
    finally:
        anon.close()
    # run again with a table more: the passwords made stay, the new table gets one
    before = (out / "credentials" / "table-h-T1").read_text()
    argv = ["hall", "broker-config", "--hall", "h", "--table", "T1", "--table", "T2"]
    assert main([*argv, "--table", "T3", "--out", str(out), "--listen", str(port)]) == 0
    assert (out / "credentials" / "table-h-T1").read_text() == before
    assert (out / "credentials" / "table-h-T3").exists()
    assert "topic write mjtable/h/T3/#" in (out / "acl").read_text()


def test_regression_a_forged_deal_is_refused_by_the_broker_and_never_reaches_the_hub(
    hall,
) -> None:
    """Issue 32: another client published T1's deal 1 again with seq 101 and other deltas.
    With the hall's ACL the broker drops it: only T1's user writes T1's topics."""
    out, port, _ = hall
    seen: list[SettledDeal] = []
    hub = HubSubscriber(
        options(out, port, "hub-h"),
        Standings(lambda name: None),
        hall="h",
        on_deal=lambda h, t, d: seen.append(d),
    )
    t1 = MqttPublisher(options(out, port, "table-h-T1"), "h", "T1")
    other = Raw(out, port, "table-h-T2", "laptop")  # a hall user, not T1's
    hub.start()
    t1.start()
    try:
        assert hub.wait_until(lambda: hub.connected, T) and t1.wait_connected(T)
        assert other.up.wait(T)
        t1.publish_deal(deal1())
        assert hub.wait_until(lambda: [d.seq for d in seen] == [100], T)
        other.publish(topic("h", "T1", Channel.DEAL), encode(deal1(101, (-30, 10, 10, 10))))
        t1.publish_deal(deal1(102, (6, -2, -2, -2)))  # after the forgery, on the same broker
        assert hub.wait_until(lambda: [d.seq for d in seen] == [100, 102], T)
        (table,) = hub.standings.snapshot().tables
        assert table.sessions[0].totals == (6, -2, -2, -2)
        assert hub.stats.rejected == 0
    finally:
        other.close()
        t1.stop(drain_timeout_s=2)
        hub.stop()


def test_a_viewer_reads_the_public_topics_only(hall) -> None:
    out, port, _ = hall
    viewer = Raw(out, port, "viewer-h", "phone")
    hub = Raw(out, port, "hub-h", "mjtable-hub")
    t1 = MqttPublisher(options(out, port, "table-h-T1"), "h", "T1")
    t1.start()
    try:
        assert viewer.up.wait(T) and hub.up.wait(T) and t1.wait_connected(T)
        viewer.client.subscribe([("mjtable/h/#", 1), ("mjtable-hub/h/#", 1)])
        hub.client.subscribe([("mjtable/h/+/deal", 1), ("mjtable-hub/h/#", 1)])
        assert viewer.subscribed.wait(T) and hub.subscribed.wait(T)
        with viewer.cond:  # the retained status says the table is online
            assert viewer.cond.wait_for(lambda: topic("h", "T1", Channel.STATUS) in viewer.got, T)
        t1.publish_deal(deal1())  # deal, ledger, status
        hub.publish("mjtable-hub/h/note", b"the hub's own")
        t1.publish_event(TableEvent(seq=101, session=1, deal=2, kind=EventKind.DEAL_STARTED))
        event = topic("h", "T1", Channel.EVENT)
        with viewer.cond:  # the event, queued last, arrives: what came before has too
            assert viewer.cond.wait_for(lambda: event in viewer.got, T)
        assert set(viewer.got) == {topic("h", "T1", Channel.STATUS), event}
        # the hub user reads the table's deal, and writes its own topics
        with hub.cond:
            assert hub.cond.wait_for(
                lambda: {topic("h", "T1", Channel.DEAL), "mjtable-hub/h/note"} <= set(hub.got), T
            ), hub.got
    finally:
        t1.stop(drain_timeout_s=2)
        viewer.close()
        hub.close()


def test_bad_options_say_what_is_wrong(tmp_path, capsys) -> None:
    out = str(tmp_path / "x")
    assert main(["hall", "broker-config", "--hall", "h/1", "--table", "T1", "--out", out]) == 2
    assert "hall 'h/1': letters, digits" in capsys.readouterr().err
    argv = ["hall", "broker-config", "--hall", "h", "--table", "T1", "--out", out]
    assert main([*argv, "--tls-cert", "c.pem"]) == 2
    assert "TLS needs both" in capsys.readouterr().err
    assert not Path(out).exists()


def test_a_tls_listener_with_the_hall_users(make_broker, tmp_path: Path) -> None:
    """`--tls-cert/--tls-key`: the listener speaks TLS only; the table and the hub connect with
    the CA and their own users (a self-signed certificate made here with openssl)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is missing")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            *(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"),
            *("-addext", "subjectAltName=IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
    )
    out, port = tmp_path / "hall", free_port()
    argv = ["hall", "broker-config", "--hall", "h", "--table", "T1", "--out", str(out)]
    argv += ["--listen", f"127.0.0.1:{port}", "--tls-cert", str(cert), "--tls-key", str(key)]
    assert main(argv) == 0
    make_broker(f"include_dir {out}")
    seen: list[SettledDeal] = []
    tls = {"tls_ca": cert}
    hub = HubSubscriber(
        dataclasses.replace(options(out, port, "hub-h"), **tls),
        Standings(lambda name: None),
        hall="h",
        on_deal=lambda h, t, d: seen.append(d),
    )
    t1 = MqttPublisher(dataclasses.replace(options(out, port, "table-h-T1"), **tls), "h", "T1")
    plain = Raw(out, port, "table-h-T1", "plain")  # the right user, without TLS: no answer
    hub.start()
    t1.start()
    try:
        assert hub.wait_until(lambda: hub.connected, T) and t1.wait_connected(T)
        t1.publish_deal(deal1())
        assert hub.wait_until(lambda: [d.seq for d in seen] == [100], T)
        assert not plain.up.is_set()
    finally:
        plain.close()
        t1.stop(drain_timeout_s=2)
        hub.stop()


def test_a_table_reads_its_own_seating_only(hall) -> None:
    """The hub's seating (docs/HALL.md), retained under mjtable-hub/<hall>/seating/<table>:
    each table reads its own, nobody but the hub writes it."""
    out, port, _ = hall
    hub = Raw(out, port, "hub-h", "mjtable-hub-seating")
    t1 = Raw(out, port, "table-h-T1", "t1")
    t2 = Raw(out, port, "table-h-T2", "t2")
    try:
        assert hub.up.wait(T) and t1.up.wait(T) and t2.up.wait(T)
        info = hub.client.publish(seating_topic("h", "T1"), b"seating", qos=1, retain=True)
        info.wait_for_publish(T)
        forged = t2.client.publish(seating_topic("h", "T1"), b"forged", qos=1, retain=True)
        forged.wait_for_publish(T)  # acknowledged, and dropped: the retained one stays
        for table in (t1, t2):
            table.client.subscribe([("mjtable-hub/h/seating/#", 1)])
            assert table.subscribed.wait(T)
        with t1.cond:
            assert t1.cond.wait_for(lambda: t1.got, T)
        assert t1.got == [seating_topic("h", "T1")] and t1.payloads == [b"seating"]
        assert t2.got == []
    finally:
        for c in (hub, t1, t2):
            c.close()
