"""Per-suit lookup tables behind `rules.hand`: which single-suit tile vectors are complete,
and which tiles complete them.

A hand is complete when every suit, read alone, is "sets only" or "sets + one pair", and
exactly one suit holds the pair (RULES.md, Hand shapes: four sets + a pair). So one table
lookup per suit answers the question for the whole hand.

Keys are the suit's counts as raw bytes: `bytes(counts)[0:9]` is the Characters key,
`[9:18]` Dots, `[18:27]` Bamboo (9 bytes, chows allowed) and `[27:34]` the honours
(7 bytes, no chows: winds and dragons only form pungs). Number and honour keys have
different lengths, so both live in the same two dicts. `complete` also holds every
Bamboo key followed by seven zero bytes, so a hand without honours (every 108-tile hand)
needs only three look-ups: `[0:9]`, `[9:18]` and `[18:34]`.

`complete[key]` is the suit's *code*, `16 * tiles + (1 if it holds the pair else 0)`, for
every suit vector that is sets only or sets + a pair (counts 0-4, at most 4 sets + a pair).
A hand of `14 - 3 * melds` standing tiles is complete exactly when the codes of its four
keys add up to `target(melds)`: the tile count sits in the high part and the pair count
(0-4, never carrying) in the low four bits. A missing key reads as `NOT_COMPLETE`, too
large for any sum of real codes to reach the target.

`waiting[key]` is, for a suit vector one tile short of a complete one, the bit mask of the
ranks that complete it (bit r-1 for rank r) in the low `WAIT_SHIFT` bits, and above them
the code the suit has once completed (the same for every completing rank, as it only
depends on the tile count).

Building enumerates sets on integers holding one count per byte (adding a set is one
addition) and takes about 0.1 s on a 2-core x86 machine; the tables hold ~112,000 keys in
about 10 MB (tracemalloc; `mjtable bench rules` reports both figures).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

NO_HONOURS = bytes(7)
NOT_COMPLETE = 1 << 12  # larger than any sum of four real codes (4 * 225)
WAIT_SHIFT = 9
WAIT_MASK = (1 << WAIT_SHIFT) - 1
MAX_SETS = 4


def code(tiles: int, pair: bool) -> int:
    """A complete suit's code: its tile count and whether it holds the pair."""
    return 16 * tiles + int(pair)


def target(melds: int) -> int:
    """The sum of the four suit codes of a complete hand with `melds` declared sets."""
    return code(14 - 3 * melds, True)


@dataclass(frozen=True, slots=True)
class SuitTables:
    complete: dict[bytes, int]
    waiting: dict[bytes, int]
    build_seconds: float


def _suit(size: int, chows: bool) -> tuple[dict[int, int], dict[int, int]]:
    """Complete vectors -> code, and waiting vectors -> mask | code-after, for one suit kind.

    A vector is an int with the count of rank r in byte r-1 (little-endian), so
    `vector.to_bytes(size, "little")` is exactly the key `bytes(counts)` slices give.
    """
    units = [1 << (8 * i) for i in range(size)]
    sets = [3 * u for u in units]
    if chows:
        sets += [units[i] + units[i + 1] + units[i + 2] for i in range(size - 2)]
    plus3 = sum(3 * u for u in units)
    high = sum(8 * u for u in units)  # (v + 3 per byte) has bit 3 set in a byte iff count > 4

    complete: dict[int, int] = {0: code(0, False)}
    level = {0}
    for n_sets in range(1, MAX_SETS + 1):
        level = {v for s in level for d in sets if not ((v := s + d) + plus3) & high}
        complete.update(dict.fromkeys(level, code(3 * n_sets, False)))
    sets_only = list(complete.items())
    for v, c in sets_only:
        for u in units:
            w = v + 2 * u
            if not (w + plus3) & high:
                complete[w] = c + code(2, True)

    waiting: dict[int, int] = {}
    for rank, u in enumerate(units):
        bit = 1 << rank
        byte = 255 * u
        for v, c in complete.items():
            if v & byte:
                w = v - u
                waiting[w] = waiting.get(w, c << WAIT_SHIFT) | bit
    return complete, waiting


def build() -> SuitTables:
    """Build the tables (about 0.1 s); `tables()` keeps one copy."""
    start = time.perf_counter()
    complete: dict[bytes, int] = {}
    waiting: dict[bytes, int] = {}
    values: dict[int, int] = {}  # share equal value objects: few distinct values, many keys
    for size, chows in ((9, True), (7, False)):
        c_int, w_int = _suit(size, chows)
        keys = {v: v.to_bytes(size, "little") for v in c_int}
        for v, c in c_int.items():
            complete[keys[v]] = c
            if size == 9:  # Bamboo with no honours, 16 bytes: one look-up fewer per hand
                complete[keys[v] + NO_HONOURS] = c
        del c_int
        while w_int:  # popped as converted, so both forms never coexist in full
            v, info = w_int.popitem()
            key = keys.get(v) or v.to_bytes(size, "little")
            waiting[key] = values.setdefault(info, info)
    return SuitTables(complete, waiting, time.perf_counter() - start)


@functools.cache
def tables() -> SuitTables:
    """The shared tables, built at first use."""
    return build()
