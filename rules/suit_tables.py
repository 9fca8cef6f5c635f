"""Per-suit lookup tables behind `rules.hand` and `rules.live_hand`: which single-suit tile
vectors are complete, and which tiles complete them.

A hand is complete when every suit, read alone, is "sets only" or "sets + one pair", and
exactly one suit holds the pair (RULES.md, Hand shapes: four sets + a pair). So one table
lookup per suit answers the question for the whole hand.

Keys are the suit's counts as raw bytes: `bytes(counts)[0:9]` is the Characters key,
`[9:18]` Dots, `[18:27]` Bamboo (9 bytes, chows allowed) and `[27:34]` the honours
(7 bytes, no chows: winds and dragons only form pungs). Number and honour keys have
different lengths, so both live in one dict, `info`, every suit vector that is complete or
one tile short of a complete one (counts 0-4, at most 4 sets + a pair).

A complete suit's *code* is `16 * tiles + (1 if it holds the pair else 0)`. A hand of
`14 - 3 * melds` standing tiles is complete exactly when the codes of its four keys add up
to `target(melds)`: the tile count sits in the high part and the pair count (0-4, never
carrying) in the low four bits. No honours held is the 7 zero bytes, code 0.

`info[key]` packs what a hand needs into one number, so completeness and waits take one
look-up per suit: `info_code` is the suit's code (`NOT_COMPLETE` if it is not complete, too
large for any sum of real codes to reach a target), `info_mask` the ranks that complete it
(bit r-1 for rank r; 0 if none) and `info_gain` what its code gains once such a tile joins
it (`after - code`: the code after is the same for every completing rank, as it only
depends on the tile count; `NOT_COMPLETE` stands in for either side missing). A key not in
`info` reads as `MISSING_INFO`. The codes sit in the low bits, wide enough that the values
of four suits add up without carrying out of them: `sum & INFO_CODE_BITS == target` is
"complete".

`live[0]` / `live[1]` hold the code of every number / honour suit vector at its *live key*,
the counts read as a base-5 number (`live_key`: count of rank r times 5**(r-1); counts are
0-4), `LIVE_NOT` (255, larger than any target) where it is not complete. A hand that keeps
such a key per suit (`rules.live_hand.LiveHand`, the deal judge) adds a tile with one addition
and reads the suit's code with one index into bytes: no bytes built, no hashing. They hold
5**9 + 5**7 bytes (about 2 MB).

Building enumerates sets on integers holding one count per byte (adding a set is one
addition) and takes about 0.1 s on a 2-core x86 machine. `info` holds 84,609 keys: with the
live tables about 8 MB (tracemalloc), 9.5 MB of the process's resident memory (`mjtable
bench rules` reports the first, `tests/rules/test_table_memory.py` holds both to a budget).
There is one copy, `tables()`, built once (under a lock: a thread that asks while another
builds waits for the finished tables, never sees half of them) and bound by `rules.hand`
and `rules.live_hand` at their first use (issue 15 item 3: the tables were 17-22 MB when a
`complete` dict beside `info`, a copy of both in `rules.hand` and the build's dict of
waiting vectors all lived at once).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

NO_HONOURS = bytes(7)
NOT_COMPLETE = 1 << 8  # more than any target (code(14, True) = 225), so a sum holding it misses
MAX_SETS = 4
# an `info` value, under 2**30 so that it is one of CPython's one-digit ints (their sums
# are the cheap ones): the code in bits 0-10 (wide enough that four suits' values add up
# without the codes carrying into the gain: 4 * NOT_COMPLETE < 2**11), the gain +
# INFO_GAIN_OFFSET in bits 11-20 (gains lie in [-NOT_COMPLETE, NOT_COMPLETE]), the rank
# mask in bits 21-29
INFO_GAIN_SHIFT = 11
INFO_GAIN_OFFSET = NOT_COMPLETE
INFO_MASK_SHIFT = 21
INFO_CODE_BITS = (1 << INFO_GAIN_SHIFT) - 1
INFO_GAIN_FIELD = (1 << INFO_MASK_SHIFT) - 1 - INFO_CODE_BITS  # the gain bits, in place


def pack_info(code_now: int, after: int, mask: int) -> int:
    """An `info` value: the suit's code (or NOT_COMPLETE), its code once a waited tile
    joins it (or NOT_COMPLETE: no wait) and the mask of waited ranks."""
    return (
        code_now
        | (after - code_now + INFO_GAIN_OFFSET) << INFO_GAIN_SHIFT
        | mask << INFO_MASK_SHIFT
    )


def info_code(info: int) -> int:
    return info & INFO_CODE_BITS


def info_gain(info: int) -> int:
    return ((info & INFO_GAIN_FIELD) >> INFO_GAIN_SHIFT) - INFO_GAIN_OFFSET


def info_mask(info: int) -> int:
    return info >> INFO_MASK_SHIFT


MISSING_INFO = pack_info(NOT_COMPLETE, NOT_COMPLETE, 0)
LIVE_NOT = 255  # a live table's "not complete": more than any target (code(14, True) = 225)
# counts 0-4 -> base-5 digits; any other count -> "x", which `int(..., 5)` refuses
_DIGITS = bytes.maketrans(bytes(range(256)), b"01234" + b"x" * 251)


def live_key(counts: bytes | bytearray | list[int]) -> int:
    """A suit's live key: its counts (0-4 each) as a base-5 number, rank 1 lowest; a
    ValueError for a count above 4."""
    try:
        return int(bytes(counts).translate(_DIGITS)[::-1] or b"0", 5)
    except ValueError:
        raise ValueError(f"a suit holds at most 4 of a tile: {list(counts)}") from None


def code(tiles: int, pair: bool) -> int:
    """A complete suit's code: its tile count and whether it holds the pair."""
    return 16 * tiles + int(pair)


def target(melds: int) -> int:
    """The sum of the four suit codes of a complete hand with `melds` declared sets."""
    return code(14 - 3 * melds, True)


@dataclass(frozen=True, slots=True)
class SuitTables:
    info: dict[bytes, int]
    live: tuple[bytes, bytes]  # number suits, honours
    build_seconds: float


def _complete_vectors(size: int, chows: bool) -> dict[int, int]:
    """Every complete vector of one suit kind -> its code. A vector is an int with the count
    of rank r in byte r-1 (little-endian), so `vector.to_bytes(size, "little")` is exactly
    the key `bytes(counts)` slices give."""
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
    for v, c in list(complete.items()):
        for u in units:
            w = v + 2 * u
            if not (w + plus3) & high:
                complete[w] = c + code(2, True)
    return complete


def build() -> SuitTables:
    """Build the tables (about 0.1 s); `tables()` keeps one copy.

    Memory is what the daemon watches (issue 15 item 3): the only objects that outlive the
    build are `info`'s keys and dict, the two live tables and a few hundred distinct
    values, and nothing on the way is much larger than the complete vectors of one suit
    kind (~22,000 ints): a waiting key is looked up (and kept only if new) as each complete
    vector is taken apart, with no dict of waiting vectors beside `info`."""
    start = time.perf_counter()
    info: dict[bytes, int] = {}
    live: list[bytes] = []
    values: dict[int, int] = {}  # share equal value objects: few distinct values, many keys
    waiting = 1 << INFO_MASK_SHIFT  # an entry below this has no waited rank yet
    code_bits, get, setdefault = INFO_CODE_BITS, info.get, values.setdefault
    for size, chows in ((9, True), (7, False)):
        complete = _complete_vectors(size, chows)
        codes = bytearray([LIVE_NOT]) * 5**size
        done = {c: pack_info(c, NOT_COMPLETE, 0) for c in set(complete.values())}
        for v, c in complete.items():
            key = v.to_bytes(size, "little")
            info[key] = done[c]
            # the live key: the counts as base-5 digits, rank 1 the lowest
            codes[int(key.translate(_DIGITS)[::-1], 5)] = c
        live.append(bytes(codes))
        del codes
        ranks = [(1 << (8 * r), 255 << (8 * r), 1 << (r + INFO_MASK_SHIFT)) for r in range(size)]
        while complete:  # popped as taken apart: the ints go as the keys come
            v, after = complete.popitem()  # a tile that completes a suit makes this code
            for unit, byte, bit in ranks:
                if v & byte:
                    key = (v - unit).to_bytes(size, "little")
                    x = get(key)
                    if x is None or x < waiting:  # its first wait: the code and the gain
                        now = NOT_COMPLETE if x is None else x & code_bits
                        x = pack_info(now, after, 0)
                    x |= bit
                    info[key] = setdefault(x, x)
    return SuitTables(info, (live[0], live[1]), time.perf_counter() - start)


_BUILT: list[SuitTables] = []
_BUILDING = threading.Lock()


def built() -> bool:
    """Whether the shared tables are built already (`tables()` returns at once)."""
    return bool(_BUILT)


def tables() -> SuitTables:
    """The shared tables, built at first use (once, whichever thread asks first)."""
    if not _BUILT:
        with _BUILDING:
            if not _BUILT:
                _BUILT.append(build())
    return _BUILT[0]
