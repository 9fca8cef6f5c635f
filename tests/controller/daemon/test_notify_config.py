"""sd_notify over a real Unix datagram socket, the settings file (schema errors name the
file, section and key), and the shipped systemd unit (systemd-analyze verify, if present)."""

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from controller.clock import FakeClock
from controller.daemon.config import ConfigError, find_config, load_settings, overlay
from controller.daemon.notify import Notifier

SYSTEMD = Path(__file__).resolve().parents[3] / "controller" / "systemd"


@pytest.fixture
def listener(tmp_path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield path, sock
    sock.close()


def test_ready_status_stopping_arrive_as_datagrams(listener):
    path, sock = listener
    n = Notifier.from_environment({"NOTIFY_SOCKET": str(path)})
    assert n.ready("table1: idle")
    assert sock.recv(4096) == b"READY=1\nSTATUS=table1: idle"
    assert n.status("deal 3\nplaying")
    assert sock.recv(4096) == b"STATUS=deal 3 playing"
    assert n.stopping()
    assert sock.recv(4096) == b"STOPPING=1"
    n.close()


def test_watchdog_pings_at_half_the_period(listener):
    path, sock = listener
    clock = FakeClock()
    env = {
        "NOTIFY_SOCKET": str(path),
        "WATCHDOG_USEC": "10000000",
        "WATCHDOG_PID": str(os.getpid()),
    }
    n = Notifier.from_environment(env)
    n.clock = clock.monotonic
    assert n.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    clock.advance(4.9)
    assert not n.watchdog()
    clock.advance(0.2)
    assert n.watchdog()
    n.close()


def test_watchdog_for_another_pid_and_no_socket_do_nothing(tmp_path):
    n = Notifier.from_environment(
        {"NOTIFY_SOCKET": str(tmp_path / "x"), "WATCHDOG_USEC": "5", "WATCHDOG_PID": "1"}
    )
    assert not n.watchdog()
    assert not n.ready()  # the socket does not exist: logged, not raised
    assert not Notifier.from_environment({}).ready()


def test_abstract_socket_address():
    name = f"mjtable-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert Notifier(f"@{name}").ready()
        assert sock.recv(100) == b"READY=1"
    finally:
        sock.close()


def test_settings_file_and_overlay(tmp_path):
    cfg = tmp_path / "mjtable.toml"
    cfg.write_text('[table]\nname = "t3"\ndeals = 4\n[http]\nlisten = "0.0.0.0:9000"\n')
    s = load_settings(cfg)
    assert (s.table.name, s.table.deals, s.http.listen, s.simulated) == (
        "t3",
        4,
        "0.0.0.0:9000",
        True,
    )
    s = overlay(s, table={"deals": 2, "name": None}, devices={"table": "/dev/ttyUSB0"})
    assert (s.table.name, s.table.deals, s.simulated) == ("t3", 2, False)


@pytest.mark.parametrize(
    "text, where",
    [
        ('[table]\nnmae = "x"\n', "[table] key 'nmae'"),
        ("[table]\ndeals = -1\n", "[table] key 'deals'"),
        ('[table]\nplayers = ["a"]\n', "[table] key 'players'"),
        ("[sound]\nx = 1\n", "key 'sound'"),
        ('[devices]\ndeclarations = "cardz"\n', "declarations is one of buttons, cards, tiles"),
    ],
)
def test_settings_errors_name_file_section_and_key(tmp_path, text, where):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_settings(cfg)
    assert str(cfg) in str(err.value) and where in str(err.value)


def test_config_search_order(tmp_path):
    xdg = tmp_path / "xdg"
    (xdg / "mjtable").mkdir(parents=True)
    (xdg / "mjtable" / "mjtable.toml").write_text("")
    assert find_config("given.toml", {}) == Path("given.toml")
    assert find_config(None, {"XDG_CONFIG_HOME": str(xdg)}) == xdg / "mjtable" / "mjtable.toml"


def test_shipped_example_config_loads():
    s = load_settings(SYSTEMD / "mjtable.toml")
    assert s.devices.table == "/dev/mjtable-table" and not s.simulated
    assert s.http.listen == "127.0.0.1:8080"  # the hall network is opened by choice only


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_unit_verifies(tmp_path):
    unit = (SYSTEMD / "mjtable.service").read_text()
    assert "Type=notify" in unit and "WatchdogSec=" in unit
    # verify checks that ExecStart exists: point it at this Python
    unit = unit.replace("/opt/mjtable/venv/bin/mjtable", sys.executable)
    (tmp_path / "mjtable.service").write_text(unit)
    out = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(tmp_path / "mjtable.service")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SYSTEMD_LOG_LEVEL": "warning"},
    )
    assert out.returncode == 0, out.stderr


def test_udev_rules_name_both_adapters():
    rules = (SYSTEMD / "90-mjtable.rules").read_text()
    assert 'SYMLINK+="mjtable-table"' in rules and 'SYMLINK+="mjtable-reader"' in rules
    for line in rules.splitlines():
        if line and not line.startswith("#"):
            assert "==" in line and line.count('"') % 2 == 0, line
