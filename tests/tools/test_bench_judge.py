"""`mjtable bench judge`: run tiny through the command line; the JSON shape and the readable
report (timings themselves are not tested)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from controller.cli import main

ROOT = Path(__file__).resolve().parents[2]

FIGURES = ("deals_per_s", "play_ms", "rejudge_ms", "replay_ms", "deal_ms", "moves_per_deal")


def test_bench_judge_json_shape() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "controller", "bench", "judge", "--json", "--deals", "4"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report = json.loads(proc.stdout)
    assert report["deals"] == 4 and report["rules"] == "sbr-mil" and report["seed"] == 1
    for key in FIGURES:
        assert isinstance(report[key], float) and report[key] > 0, key
    assert report["python"].startswith(f"CPython {sys.version_info[0]}.{sys.version_info[1]}")
    # dealing the wall is a small part of playing a whole deal
    assert report["deal_ms"] < report["play_ms"]


def test_bench_judge_readable(capsys) -> None:
    assert main(["bench", "judge", "--deals", "2", "--seed", "3", "--rules", "wmt"]) == 0
    out = capsys.readouterr().out
    assert "judge benchmark: 2 bot deals under wmt, seed 3" in out
    assert sys.executable in out  # the interpreter: builds differ in speed
    assert "deals/s" in out and "re-judge a record" in out and "peer: replay moves" in out


def test_bench_judge_refuses_zero_deals(capsys) -> None:
    assert main(["bench", "judge", "--deals", "0"]) == 2
