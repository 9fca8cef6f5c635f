"""Issue 32 end to end, as docs/MQTT.md "Securing a hall" sets a hall up: the broker's files
from `mjtable hall broker-config` on a real Mosquitto (no anonymous access, the ACL), a table
key from `mjtable hall key make` named in the table's config, the hub given it with
`mjtable hall key trust`; then a real `mjtable run --fast` plays a deal and `mjtable hub
--keys` takes it, signed, with the table's own credentials; a bad key stops the table before
it creates anything."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from live_run import ENV, ROOT, LiveRun
from real_things import HubProcess, absent, hub_helpers

from controller.journal.store import Journal
from controller.journal.summary import summarise

pytestmark = pytest.mark.slow

T = 60.0


def mjtable(*argv: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "controller", *argv],
        capture_output=True,
        text=True,
        env=ENV,
        cwd=ROOT,
        timeout=T,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_secured_hall_takes_the_tables_signed_deal(tmp_path: Path) -> None:
    helpers = hub_helpers()
    exe = helpers._mosquitto()
    if exe is None:
        absent("mosquitto is not installed (apt-get install mosquitto)")
    out, port = tmp_path / "hall-broker", helpers.free_port()
    argv = ("--hall", "h1", "--table", "t7", "--out", str(out), "--listen", f"127.0.0.1:{port}")
    mjtable("hall", "broker-config", *argv)
    broker = helpers.Mosquitto(exe, tmp_path, f"include_dir {out}")
    broker.start()
    password = (out / "credentials" / "table-h1-t7").read_text().strip()
    config = tmp_path / "table" / "mjtable.toml"
    config.parent.mkdir()
    config.write_text(
        '[table]\nname = "t7"\nplayers = ["Ann", "Bo", "Cy", "Di"]\n'
        f'[mqtt]\nbroker = "127.0.0.1:{port}"\nhall = "h1"\nusername = "table-h1-t7"\n'
        f'password = "{password}"\nkey = "table.key"\n'
    )
    made = mjtable("hall", "key", "make", "--config", str(config))
    assert (config.parent / "table.key").stat().st_mode & 0o777 == 0o600
    trust = re.search(r"on the hub: mjtable (hall key trust .*)", made)
    assert trust is not None, made
    keys = tmp_path / "hall.keys"
    mjtable(*trust.group(1).replace("hall.keys", str(keys)).split())
    hub = HubProcess(
        port,
        "h1",
        *("--keys", str(keys), "--json", "--username", "hub-h1"),
        *("--password-file", str(out / "credentials" / "hub-h1")),
        env=ENV,
        wait_s=T,
    )
    journal = tmp_path / "t7.journal"
    run = LiveRun("--config", str(config), "--fast", "--deals", "1", "--journal", str(journal),
                  "--http", "127.0.0.1:0")  # fmt: skip
    try:
        assert run.wait(T * 2) == 0, run.diagnosis("the table")
        assert hub.said('"deals": 1'), list(hub.log)
        with Journal.open(journal) as j:
            (deal,) = summarise(j.records())
        deltas = deal.deltas
        assert deltas is not None
        api = json.load(urllib.request.urlopen(f"{hub.url}/api/standings", timeout=T))
        (table,) = api["tables"]
        assert table["sessions"][0]["totals"] == list(deltas), api
        assert table["signatures"] == {
            "keyed": True,
            "refused": 0,
            "last_refused": None,
            "other_key": None,
            "other_key_since": None,
        }
        page = urllib.request.urlopen(f"{hub.url}/", timeout=T).read().decode()
        assert 'data-trust="signed"' in page and "refused" not in page
        assert not hub.said("refused a deal", timeout=0)
    finally:
        run.stop()
        hub.stop()
        broker.stop()


def test_a_bad_table_key_stops_the_table_before_it_creates_anything(tmp_path: Path) -> None:
    config = tmp_path / "mjtable.toml"
    (tmp_path / "table.key").write_text("not a key\n")
    config.write_text('[mqtt]\nbroker = "127.0.0.1:1883"\nkey = "table.key"\n')
    journal = tmp_path / "t.journal"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "controller", "run", "--config", str(config), "--fast"),
            *("--deals", "1", "--journal", str(journal), "--http", "127.0.0.1:0"),
        ],
        capture_output=True,
        text=True,
        env=ENV,
        cwd=ROOT,
        timeout=T,
    )
    assert done.returncode != 0
    assert f"[mqtt] key: {tmp_path / 'table.key'}: not a table key" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not journal.exists()
