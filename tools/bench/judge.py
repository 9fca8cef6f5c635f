"""`mjtable bench judge`: random bot deals played and judged per second, and the cost of
re-judging a deal record (issue 3 item 10; target 500 deals/s on the table's Pi class).

Measured in one run, on the same seeded deals (`rules.random_deals.deal_seed`):
- `deals_per_s`: bots choose every move and the judge applies it, to the settled ledger
  (`rules.bots.play_deal`, the record built at the end included);
- `rejudge_ms`: median time to re-judge one deal record from its JSON text (parse, check,
  replay every move, settle);
- peers for ratios: `replay_ms`, the same moves replayed without JSON (the judge alone), and
  `deal_ms`, only shuffling and dealing the wall (`Deal.start`), the floor of any deal;
- `yardstick_us`: the standard library alone shuffling a 108-tile wall (`random.shuffle`),
  code the judge does not touch: on a shared machine, `deals_per_s * yardstick_us` moves
  much less than either figure, and scales a run to a quiet machine's yardstick;
- `yardsticks`: a played deal in yardsticks (`play_ms` / `yardstick_us`), the figure
  issue 26 sets a ceiling for (at most 80); `cpu_yardsticks` the same ratio of the CPU
  time (`time.process_time`) of the played deals and of the same shuffles, which a machine
  loaded past its cores inflates less;
- `python`: the interpreter that ran it. Builds differ: a CPython built without profile-
  guided optimisation (pyenv's default) runs the same deals ~15% slower than Debian's
  (docs/DEAL-RECORD.md "Speed");
- `digest`: a SHA-256 of what the played deals came to (every move, the ledger, the
  winners and the record's JSON text), computed after the timing: two trees that play the
  same deals print the same digest, so a speed-up can be checked against the code before it.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from controller.cli.args import rules_help
from rules.bots import new_deal, play_deal
from rules.deal import Deal
from rules.random_deals import deal_seed
from rules.record import DealRecord, dumps, judge, loads
from rules.ruleset import DEFAULT, load


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=int, default=500, help="bot deals (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--rules", default=DEFAULT, help=rules_help(DEFAULT))


def measure(rules: str, deals: int, seed: int) -> dict[str, Any]:
    rs = load(rules)
    seeds = [deal_seed(seed, i) for i in range(max(deals, 1))]
    play_deal(rs, seeds[0])  # warm up: the hand tables are built on first use
    gc_was = gc.isenabled()
    gc.disable()
    try:
        cpu = time.process_time()
        start = time.perf_counter()
        played = [play_deal(rs, s) for s in seeds]
        play_s = time.perf_counter() - start
        play_cpu = time.process_time() - cpu
        texts = [dumps(record) for _, record in played]
        rejudge = []
        for text in texts:
            t0 = time.perf_counter()
            judge(loads(text))
            rejudge.append(time.perf_counter() - t0)
        replay = []
        for deal, _ in played:
            t0 = time.perf_counter()
            Deal.replay(rs, deal.dice, deal.wall_order, deal.history)
            replay.append(time.perf_counter() - t0)
        dealing = []
        for s in seeds:
            rng = random.Random(s)
            t0 = time.perf_counter()
            new_deal(rs, rng)
            dealing.append(time.perf_counter() - t0)
        yardstick = []
        wall = list(range(108))
        for s in seeds:
            rng = random.Random(s)
            t0 = time.perf_counter()
            rng.shuffle(wall)
            yardstick.append(time.perf_counter() - t0)
        # the same shuffles in CPU time (a batch: a shuffle is too short to time alone)
        rngs = [random.Random(s) for s in seeds]
        cpu = time.process_time()
        for rng in rngs:
            rng.shuffle(wall)
        yardstick_cpu = (time.process_time() - cpu) / len(seeds)
    finally:
        if gc_was:
            gc.enable()
    moves = sum(len(record.moves) for _, record in played)
    play_ms = 1000 * play_s / len(seeds)
    yardstick_us = 1e6 * statistics.median(yardstick)
    return {
        "rules": rules,
        "deals": len(seeds),
        "seed": seed,
        "moves_per_deal": round(moves / len(seeds), 1),
        "deals_per_s": round(len(seeds) / play_s, 1),
        "play_ms": round(play_ms, 3),
        "rejudge_ms": round(1000 * statistics.median(rejudge), 3),
        "replay_ms": round(1000 * statistics.median(replay), 3),
        "deal_ms": round(1000 * statistics.median(dealing), 3),
        "yardstick_us": round(yardstick_us, 2),
        "yardsticks": round(1000 * play_ms / yardstick_us, 1),
        # the same ratio in CPU time (`time.process_time`): steadier on a loaded machine
        "cpu_yardsticks": round(play_cpu / len(seeds) / max(yardstick_cpu, 1e-9), 1),
        "python": f"{platform.python_implementation()} {platform.python_version()} "
        f"({sys.executable})",
        "digest": digest(played),
    }


def digest(played: Sequence[tuple[Deal, DealRecord]]) -> str:
    """SHA-256 over each deal's moves (corrections included), ledger, winners (with their
    scores) and record as JSON text, in order."""
    h = hashlib.sha256()
    for deal, record in played:
        h.update(repr(deal.history).encode())
        h.update(repr(deal.ledger()).encode())
        h.update(repr(deal.winners).encode())
        h.update(dumps(record).encode())
    return h.hexdigest()


def run(args: argparse.Namespace) -> int:
    if args.deals < 1:
        print("mjtable bench judge: --deals must be at least 1")
        return 2
    r = measure(args.rules, args.deals, args.seed)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"judge benchmark: {r['deals']} bot deals under {r['rules']}, seed {r['seed']}")
    print(f"  {r['moves_per_deal']} moves per deal on average; {r['python']}")
    print(
        f"  played and judged    {r['deals_per_s']:>9.1f} deals/s  ({r['play_ms']:.3f} ms a deal,"
        " target >= 500/s)"
    )
    print(f"  re-judge a record    {r['rejudge_ms']:>9.3f} ms   (median; JSON text to ledger)")
    print(
        f"  peer: replay moves   {r['replay_ms']:>9.3f} ms   (no JSON; the judge alone: "
        f"{r['replay_ms'] / max(r['rejudge_ms'], 1e-9):.0%} of a re-judge)"
    )
    print(
        f"  peer: deal the wall  {r['deal_ms']:>9.3f} ms   (shuffle + Deal.start: "
        f"{r['deal_ms'] / max(r['play_ms'], 1e-9):.0%} of a played deal)"
    )
    print(
        f"  peer: yardstick      {r['yardstick_us']:>9.2f} us   (stdlib shuffle of 108 tiles: "
        "the machine's speed, untouched by the judge)"
    )
    print(
        f"  a played deal        {r['yardsticks']:>9.1f} yardsticks (issue 26: at most 80; "
        f"{r['cpu_yardsticks']:.1f} in CPU time)"
    )
    print(f"  digest of the deals  {r['digest'][:16]}  (the same deals, the same digest)")
    return 0
