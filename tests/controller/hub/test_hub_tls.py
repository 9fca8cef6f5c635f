"""TLS with a self-signed certificate made here, and username/password, on a real broker."""

from __future__ import annotations

import shutil
import subprocess
import threading

import paho.mqtt.client as paho
import pytest

from controller.hub.standings import Standings
from controller.hub.subscriber import HubSubscriber
from controller.hub.wire import BrokerOptions, SettledDeal
from controller.outputs.mqtt import MqttPublisher
from rules.seats import Seat

T = 15.0


@pytest.fixture
def tls_broker(make_broker, tmp_path):
    openssl = shutil.which("openssl")
    passwd = shutil.which("mosquitto_passwd") or shutil.which(
        "mosquitto_passwd", path="/usr/bin:/usr/sbin"
    )
    if openssl is None or passwd is None:
        pytest.skip("openssl or mosquitto_passwd missing")
    cert, key, pw = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "passwd"
    subprocess.run(
        [
            *(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"),
            *("-addext", "subjectAltName=IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run([passwd, "-b", "-c", str(pw), "table", "s3cret"], check=True)
    b = make_broker(f"certfile {cert}\nkeyfile {key}\npassword_file {pw}\nallow_anonymous false")
    return b, cert


def test_tls_and_password(tls_broker):
    broker, cert = tls_broker
    options = BrokerOptions(
        port=broker.port, username="table", password="s3cret", tls_ca=cert, reconnect_min_s=0.05
    )
    standings = Standings()
    hub = HubSubscriber(options, standings, client_id="tls-hub")
    pub = MqttPublisher(options, "h1", "t1")
    hub.start()
    pub.start()
    try:
        assert hub.wait_until(lambda: hub.connected, T) and pub.wait_connected(T)
        pub.publish_deal(SettledDeal(1, 1, 1, "sbr-mil", Seat.E, (2, 2), (Seat.N,), (0, 0, -8, 8)))
        assert hub.wait_until(lambda: hub.stats.applied == 1, T)
        assert standings.snapshot().tables[0].sessions[0].totals == (0, 0, -8, 8)
    finally:
        pub.stop(drain_timeout_s=2)
        hub.stop()

    refused = threading.Event()
    raw = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="intruder")
    raw.username_pw_set("table", "wrong")
    raw.tls_set(ca_certs=str(cert))
    raw.on_connect = lambda c, u, f, rc, p: rc.is_failure and refused.set()
    raw.connect("127.0.0.1", broker.port)
    raw.loop_start()
    try:
        assert refused.wait(T)
    finally:
        raw.loop_stop()
