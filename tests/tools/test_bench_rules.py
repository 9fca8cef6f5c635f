"""`mjtable bench rules`: the JSON shape and the corpus (timings are not tested)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rules.hand import is_complete, waits
from tools.bench.rules import MEASURES, ids136, make_corpus

ROOT = Path(__file__).resolve().parents[2]


def test_bench_rules_json_shape() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "controller", "bench", "rules", "--json", "--hands", "200"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report = json.loads(proc.stdout)
    assert {"mjtable", "mahjong", "riichienv"} <= report.keys()
    for engine in ("mjtable", "mahjong", "riichienv"):
        assert set(MEASURES) <= report[engine].keys()
        for m in MEASURES:
            value = report[engine][m]
            assert value is None or (isinstance(value, float) and value > 0), (engine, m)
    ours = report["mjtable"]
    assert ours["complete_us"] > 0 and ours["waits_us"] > 0
    assert {"tables_build_ms", "tables_mb", "tables_peak_mb"} <= ours.keys()
    assert 0 < ours["tables_mb"] <= ours["tables_peak_mb"]
    assert report["mahjong"]["waits_us"] is not None  # mahjong is a test dependency


def test_bench_rules_table_output() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "controller", "bench", "rules", "--hands", "50", "--repeat", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = proc.stdout.splitlines()
    assert lines[1].split()[:3] == ["measure", "mjtable", "mahjong"]
    n = len(MEASURES)
    assert [line.split()[0] for line in lines[2 : 2 + n]] == list(MEASURES)
    assert lines[2 + n].startswith("tables: built in")


def test_corpus_is_seeded_and_near_complete() -> None:
    a, b = make_corpus(300, 7), make_corpus(300, 7)
    assert a == b
    assert a != make_corpus(300, 8)
    assert all(sum(c) == 14 and max(c) <= 4 for c in a.complete14)
    assert all(sum(c) == 13 for c in a.ready13)
    assert sum(map(is_complete, a.complete14)) > 100
    assert sum(1 for c in a.ready13 if waits(c)) > 150
    assert ids136([2, 0, 1] + [0] * 31) == [0, 1, 8]
