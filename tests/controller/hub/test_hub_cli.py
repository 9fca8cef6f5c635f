"""`mjtable hub` as a process: a table publishes, the page and its event stream follow."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from controller.hub.wire import BrokerOptions, SettledDeal
from controller.outputs.mqtt import MqttPublisher
from rules.seats import Seat

T = 15.0
ROOT = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_hub_command_serves_live_standings(broker):
    http_port = free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "controller", "hub"),
            *("--broker", f"127.0.0.1:{broker.port}", "--hall", "h1"),
            *("--http", f"127.0.0.1:{http_port}", "--json"),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    pub = MqttPublisher(BrokerOptions(port=broker.port), "h1", "t<1>")
    try:
        assert proc.stderr is not None and proc.stdout is not None
        line = ""
        while "standings page:" not in line:  # the log says when the page is up
            line = proc.stderr.readline()
            assert line, "the hub exited"
        url = f"http://127.0.0.1:{http_port}"
        events = urllib.request.urlopen(f"{url}/events", timeout=T)

        pub.start()
        assert pub.wait_connected(T)
        pub.publish_status(session=1, deal=2, phase="playing")
        pub.publish_deal(
            SettledDeal(
                seq=7,
                session=1,
                deal=1,
                rules="sbr-mil",
                dealer=Seat.E,
                dice=(6, 4),
                winners=(Seat.W,),
                deltas=(-4, 0, 4, 0),
                players=("<b>Ann</b>", "Bo", "Cy", "Di"),
            )
        )
        assert pub.wait_drained(T)

        while True:  # one JSON line per change, until the deal is in
            standings = json.loads(proc.stdout.readline())
            sessions = [s for t in standings["tables"] for s in t["sessions"]]
            if sessions and sessions[0]["deals"] == 1:
                break
        assert sessions[0]["totals"] == [-4, 0, 4, 0]

        assert any(events.readline().startswith(b"event: standings") for _ in range(20))
        api = json.load(urllib.request.urlopen(f"{url}/api/standings", timeout=T))
        assert api["kind"] == "standings" and api["tables"][0]["table"] == "t<1>"
        page = urllib.request.urlopen(f"{url}/", timeout=T).read().decode()
        assert "&lt;b&gt;Ann&lt;/b&gt;" in page and "<b>Ann" not in page
        assert "Table t&lt;1&gt;" in page and "/hub.js" in page
        events.close()
    finally:
        pub.stop(drain_timeout_s=2)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(T) == 0
