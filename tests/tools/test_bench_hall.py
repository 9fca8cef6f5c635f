"""`mjtable bench hall` run tiny (3 tables, 20 WebSocket viewers, 3 s a phase) on the real
parts: a real table's deal recorded, replayed by real publishers through Mosquitto and the
viewers' broker; every viewer gets every message its table published (the speeds are the
bench's to show, not a test's to time)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from real_things import absent

from controller.cli import main
from controller.hub.broker_config import VIEWER_BROKER

pytestmark = pytest.mark.slow


def test_bench_hall_tiny_loses_nothing(capsys, tmp_path: Path) -> None:
    for exe, how in (
        ("mosquitto", "apt-get install mosquitto"),
        ("node", "apt-get install nodejs"),
    ):
        if shutil.which(exe, path="/usr/sbin:/usr/bin:/usr/local/bin") is None:
            absent(f"{exe} is not installed ({how})")
    if not (VIEWER_BROKER / "node_modules" / "aedes").is_dir():
        absent(f"the viewers' broker's packages are not installed (npm ci in {VIEWER_BROKER})")
    argv = ["bench", "hall", "--json", "--tables", "3", "--viewers", "20", "--seconds", "3",
            "--move-s", "0.5", "--procs", "2", "--dir", str(tmp_path)]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tables"] == 3 and report["viewers"] == 20
    assert report["expected"] > 20 and report["lost"] == 0, report
    assert report["delivered"] >= report["expected"]
    assert 0 < report["p50_ms"] <= report["p99_ms"] <= report["max_ms"]
    for part in ("mosquitto", "viewers", "hub"):
        assert report[f"{part}_cpu_percent"] >= 0 and report[f"{part}_rss_mb"] > 0
    assert report["pi_cpu_percent_0"] >= 0 and report["pi_cpu_percent_viewers"] >= 0


def test_bench_hall_refuses_a_size_of_zero(capsys) -> None:
    assert main(["bench", "hall", "--tables", "0"]) == 2
    assert "positive" in capsys.readouterr().err
