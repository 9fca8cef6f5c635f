"""`mjtable bench rules`: completeness, waits and theoretical maximum per hand, this engine
against the `mahjong` library and `riichienv` (when importable), on one seeded corpus,
measured in the same run (issue 2, item 7).

Each engine gets the corpus in its own input format, converted before timing: 34-slot
counts for `mahjong` (a list) and this engine (a `bytearray`, as the deal judge holds a
hand), 136-tile ids for `riichienv`. This engine's `complete_us` and `waits_us` are the
judge's own form: a `rules.live_hand.LiveHand`, whose per-suit keys follow each tile
added or removed, answers with table look-ups and no rebuild; `complete_counts_us` and
`waits_counts_us` are `rules.hand.is_complete` and `rules.hand.waits` from the counts
(the peers have one form: both rows carry the same peer figure). Each hand is timed over
`--repeat` back-to-back calls (garbage collection off); a figure is the median over hands.

Closest equivalents on the peers: `mahjong` has no waits call, so its waits are the usual
loop of `Agari.is_agari` over the 27 suited tiles, and its "max value" is that loop plus
`HandCalculator.estimate_hand_value` on every wait (riichi points, the best one kept);
`riichienv` completeness is `calculate_shanten(...) == -1`, waits `HandEvaluator.get_waits`,
"max value" `get_waits` plus `HandEvaluator.calc` on every wait. The max-value figures run
on the first `--max-hands` hands only, as the `mahjong` scorer is slow.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules import hand, suit_tables
from rules.live_hand import LiveHand

MEASURES = ("complete_us", "complete_counts_us", "waits_us", "waits_counts_us", "max_value_us")
PEERS = ("mahjong", "riichienv")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=5000, help="corpus size (default 5000)")
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default 1)")
    parser.add_argument(
        "--repeat", type=int, default=5, help="back-to-back calls timed per hand (default 5)"
    )
    parser.add_argument(
        "--max-hands",
        type=int,
        default=300,
        help="hands used for the theoretical maximum (default 300)",
    )


@dataclass(frozen=True, slots=True)
class Corpus:
    """Hands as 34-slot counts: `complete14` 14-tile hands (about half complete) and
    `ready13` the same hands less one tile (most of them ready), no melds."""

    complete14: tuple[list[int], ...]
    ready13: tuple[list[int], ...]


def make_corpus(n: int, seed: int) -> Corpus:
    """Near-complete suited hands: four sets + a pair (a fifth of them seven pairs), in one
    to three suits, one tile swapped a third of the time; never more than 4 copies."""
    rng = random.Random(seed)
    fourteen, thirteen = [], []
    for _ in range(n):
        suits = rng.sample(range(3), rng.choice((1, 2, 2, 3)))
        counts = [0] * 34
        if rng.random() < 0.2:
            while sum(counts) < 14:
                t = 9 * rng.choice(suits) + rng.randrange(9)
                if counts[t] <= 2:
                    counts[t] += 2
        else:
            while sum(counts) < 12:
                base = 9 * rng.choice(suits)
                if rng.random() < 0.5:
                    start = base + rng.randrange(7)
                    tiles = [start, start + 1, start + 2]
                else:
                    tiles = [base + rng.randrange(9)] * 3
                if all(counts[t] + tiles.count(t) <= 4 for t in tiles):
                    for t in tiles:
                        counts[t] += 1
            pair = rng.choice([t for t in range(27) if counts[t] <= 2 and t // 9 in suits])
            counts[pair] += 2
        if rng.random() < 0.33:
            counts[rng.choice([t for t in range(27) if counts[t]])] -= 1
            counts[rng.choice([t for t in range(27) if counts[t] < 4])] += 1
        fourteen.append(counts)
        less = list(counts)
        less[rng.choice([t for t in range(27) if less[t]])] -= 1
        thirteen.append(less)
    return Corpus(tuple(fourteen), tuple(thirteen))


def ids136(counts: Sequence[int]) -> list[int]:
    """136-tile ids (4 per kind, copy j of kind k is 4k + j), as both peers number tiles."""
    return [4 * k + j for k, n in enumerate(counts) for j in range(n)]


def median_us(fn: Callable[[Any], object], inputs: Sequence[Any], repeat: int) -> float:
    clock = time.perf_counter
    calls = range(repeat)
    per_hand = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for x in inputs:
            start = clock()
            for _ in calls:
                fn(x)
            per_hand.append((clock() - start) / repeat)
    finally:
        if enabled:
            gc.enable()
    return statistics.median(per_hand) * 1e6


# --- this engine ---------------------------------------------------------------------------------


def _our_max_value() -> Callable[[list[int]], int] | None:
    try:
        from rules.ruleset import load
        from rules.scoring import theoretical_maximum
    except ImportError:
        return None
    ruleset = load("sbr-mil")

    def max_value(counts: list[int]) -> int:
        return theoretical_maximum(counts, (), None, ruleset)

    return max_value


def table_cost() -> dict[str, float]:
    """Build time (no tracing) and memory (tracemalloc) of a fresh copy of the tables."""
    built = suit_tables.build()
    gc.collect()
    tracemalloc.start()
    try:
        kept = suit_tables.build()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del kept
    return {
        "tables_build_ms": round(built.build_seconds * 1e3, 1),
        "tables_mb": round(current / 2**20, 2),
        "tables_peak_mb": round(peak / 2**20, 2),
    }


def bench_mjtable(corpus: Corpus, max_hands: int, repeat: int) -> dict[str, float | None]:
    hand.is_complete([0] * 34)  # build the tables outside the timing
    # the judge's own form of a hand's counts: one byte per tile kind
    fourteen = [bytearray(c) for c in corpus.complete14]
    thirteen = [bytearray(c) for c in corpus.ready13]
    live14 = [LiveHand(c) for c in corpus.complete14]
    live13 = [LiveHand(c) for c in corpus.ready13]
    LiveHand.waits(live13[0])  # build its table outside the timing
    out: dict[str, float | None] = {
        "complete_us": median_us(LiveHand.is_complete, live14, repeat),
        "complete_counts_us": median_us(hand.is_complete, fourteen, repeat),
        "waits_us": median_us(LiveHand.waits, live13, repeat),
        "waits_counts_us": median_us(hand.waits, thirteen, repeat),
        "max_value_us": None,
    }
    max_value = _our_max_value()
    if max_value is not None:
        out["max_value_us"] = median_us(max_value, thirteen[:max_hands], repeat)
    return out


# --- peers ---------------------------------------------------------------------------------------


def bench_mahjong(corpus: Corpus, max_hands: int, repeat: int) -> dict[str, float | None]:
    agari = importlib.import_module("mahjong.agari").Agari
    calculator = importlib.import_module("mahjong.hand_calculating.hand").HandCalculator()
    is_agari = agari.is_agari

    def waits(counts: list[int]) -> list[int]:
        work = list(counts)
        found = []
        for t in range(27):
            work[t] += 1
            if is_agari(work):
                found.append(t)
            work[t] -= 1
        return found

    def max_value(counts: list[int]) -> int:
        best = 0
        base = ids136(counts)
        for t in waits(counts):
            if counts[t] < 4:
                win = 4 * t + counts[t]
                result = calculator.estimate_hand_value([*base, win], win)
                if result.error is None:
                    best = max(best, result.cost["main"])
        return best

    complete = median_us(is_agari, corpus.complete14, repeat)
    waits_us = median_us(waits, corpus.ready13, repeat)
    return {
        "complete_us": complete,
        "complete_counts_us": complete,
        "waits_us": waits_us,
        "waits_counts_us": waits_us,
        "max_value_us": median_us(max_value, corpus.ready13[:max_hands], repeat),
    }


def bench_riichienv(corpus: Corpus, max_hands: int, repeat: int) -> dict[str, float | None]:
    core = importlib.import_module("riichienv._riichienv")
    shanten, evaluator, conditions = core.calculate_shanten, core.HandEvaluator, core.Conditions
    fourteen = [ids136(c) for c in corpus.complete14]
    thirteen = [ids136(c) for c in corpus.ready13]

    def complete(ids: list[int]) -> bool:
        return shanten(ids) == -1

    def waits(ids: list[int]) -> list[int]:
        return evaluator(ids, []).get_waits()

    def max_value(ids: list[int]) -> int:
        ev = evaluator(ids, [])
        best = 0
        for t in ev.get_waits():
            held = sum(1 for i in ids if i >> 2 == t)
            if held < 4:
                best = max(best, ev.calc(4 * t + held, [], [], conditions()).ron_agari)
        return best

    complete_us = median_us(complete, fourteen, repeat)
    waits_us = median_us(waits, thirteen, repeat)
    return {
        "complete_us": complete_us,
        "complete_counts_us": complete_us,
        "waits_us": waits_us,
        "waits_counts_us": waits_us,
        "max_value_us": median_us(max_value, thirteen[:max_hands], repeat),
    }


PEER_BENCHES = {"mahjong": bench_mahjong, "riichienv": bench_riichienv}


def _peer(name: str, corpus: Corpus, args: argparse.Namespace) -> tuple[dict, str | None]:
    try:
        return PEER_BENCHES[name](corpus, args.max_hands, args.repeat), None
    except ImportError as err:
        return dict.fromkeys(MEASURES), f"{name} not importable ({err})"


def _ratio(peer: float | None, ours: float | None) -> str:
    if peer is None or not ours:
        return "-"
    return f"{peer / ours:.1f}x"


def _fmt(value: float | None) -> str:
    return "null" if value is None else f"{value:.2f}"


def run(args: argparse.Namespace) -> int:
    if args.hands < 1 or args.repeat < 1 or args.max_hands < 1:
        print("--hands, --repeat and --max-hands must be at least 1", file=sys.stderr)
        return 2
    corpus = make_corpus(args.hands, args.seed)
    costs = table_cost()
    results: dict[str, dict[str, float | None]] = {
        "mjtable": bench_mjtable(corpus, args.max_hands, args.repeat)
    }
    notes = []
    for name in PEERS:
        results[name], note = _peer(name, corpus, args)
        if note:
            notes.append(note)
    if results["mjtable"]["max_value_us"] is None:
        notes.append("rules.scoring.theoretical_maximum not available: mjtable max value null")
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    if args.json:
        report: dict[str, Any] = {k: {m: v[m] for m in MEASURES} for k, v in results.items()}
        report["mjtable"].update(costs)
        print(json.dumps(report))
        return 0
    ours = results["mjtable"]
    n_max = min(args.max_hands, args.hands)
    print(
        f"mjtable bench rules: {args.hands} hands (seed {args.seed}), median us per hand over "
        f"{args.repeat} calls; max value on the first {n_max} hands; ratio = peer / mjtable"
    )
    header = f"{'measure':<19}{'mjtable':>10}"
    for name in PEERS:
        header += f"{name:>12}{'ratio':>9}"
    print(header)
    for m in MEASURES:
        line = f"{m:<19}{_fmt(ours[m]):>10}"
        for name in PEERS:
            line += f"{_fmt(results[name][m]):>12}{_ratio(results[name][m], ours[m]):>9}"
        print(line)
    print(
        f"tables: built in {costs['tables_build_ms']} ms, {costs['tables_mb']} MB kept "
        f"({costs['tables_peak_mb']} MB peak while building)"
    )
    return 0
