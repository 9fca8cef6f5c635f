"""`mjtable bench TARGET`: benchmarks, each reported against a peer measured in the same run."""

from __future__ import annotations

import argparse
import importlib
import importlib.util

TARGETS = {
    "rules": (
        "tools.bench.rules",
        "completeness, waits and theoretical maximum vs the mahjong library",
    ),
    "judge": ("tools.bench.judge", "random bot deals judged per second; re-judging a deal record"),
    "daemon": ("tools.bench.daemon", "reader frame to journal commit and scoreboard push latency"),
    "recognition": (
        "tools.bench.recognition",
        "noisy simulated deals with the daemon killed and restarted, compared with the truth",
    ),
    "codecs": ("tools.bench.codecs", "line noise skipped per second by each frame decoder"),
    "hall": (
        "tools.bench.hall",
        "200 tables and 2,000 WebSocket viewers on the hall's brokers: latency, CPU, memory",
    ),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, (module, help_text) in TARGETS.items():
        if importlib.util.find_spec(module) is None:
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
        importlib.import_module(module).add_arguments(p)


def run(args: argparse.Namespace) -> int:
    return int(importlib.import_module(TARGETS[args.target][0]).run(args) or 0)
