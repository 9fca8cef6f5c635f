"""`mjtable bench judge`: run tiny through the command line; the JSON shape and the readable
report (timings themselves are not tested)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from rules.bots import BotTable, new_deal
from rules.moves import Accepted
from rules.random_deals import deal_seed
from rules.record import to_record
from rules.ruleset import load
from tools.bench.judge import digest, measure

ROOT = Path(__file__).resolve().parents[2]

FIGURES = (
    "deals_per_s",
    "play_ms",
    "rejudge_ms",
    "replay_ms",
    "deal_ms",
    "moves_per_deal",
    "yardstick_us",
    "yardsticks",
    "cpu_yardsticks",
)


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
    assert len(report["digest"]) == 64


@pytest.mark.parametrize("rules", ["sbr-mil", "wmt", "wellness"])
def test_bench_digest_is_the_digest_of_the_deals_played_move_by_move(rules) -> None:
    # the bench's deals (`play_deal`, every turn written out) against the same seeds played
    # through the reference path (`BotTable.next_move` and `Deal.apply`, one move at a time)
    report = measure(rules, 6, 5)
    rs = load(rules)
    reference = []
    for i in range(6):
        rng = random.Random(deal_seed(5, i))
        deal = new_deal(rs, rng)
        table = BotTable(rs, rng)
        while not deal.over:
            assert isinstance(deal.apply(table.next_move(deal)), Accepted)
        reference.append((deal, to_record(deal)))
    assert report["digest"] == digest(reference)
    # a different deal gives a different digest
    assert digest(reference[1:]) != report["digest"]


def test_bench_judge_readable(capsys) -> None:
    assert main(["bench", "judge", "--deals", "2", "--seed", "3", "--rules", "wmt"]) == 0
    out = capsys.readouterr().out
    assert "judge benchmark: 2 bot deals under wmt, seed 3" in out
    assert sys.executable in out  # the interpreter: builds differ in speed
    assert "deals/s" in out and "re-judge a record" in out and "peer: replay moves" in out
    assert "yardsticks" in out and "digest of the deals" in out


def test_bench_judge_refuses_zero_deals(capsys) -> None:
    assert main(["bench", "judge", "--deals", "0"]) == 2
