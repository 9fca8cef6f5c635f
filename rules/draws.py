"""The standard library's integer draws written out for a deal's hot paths: the same numbers
from the same `random.Random` state, without a Python call per draw.

`random.Random.shuffle(x)` calls `_randbelow(i + 1)` for each `i` from `len(x) - 1` down to
1, and `_randbelow(n)` (`_randbelow_with_getrandbits`, the method of `random.Random`
itself) draws `getrandbits(n.bit_length())` until the number is below `n`. A bot deal
shuffles its wall (107 draws) and chooses each discard so; `shuffle` and `below` make the
same `getrandbits` calls with the bit lengths read from a table. Only an exact
`random.Random` takes this path (a subclass may draw differently); anything else is
passed to its own method. tests/rules/test_draws.py compares both with the standard
library's on many seeds.
"""

from __future__ import annotations

import random
from typing import Any

# `n.bit_length()` for every `n` a deal draws below (the 144-tile set at most; larger
# numbers take `bit_length` itself)
BITS: tuple[int, ...] = tuple(n.bit_length() for n in range(256))
# the steps of a shuffle of n items: (i, bits of i + 1) for i from n - 1 down to 1
_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """`rng.shuffle(x)`: the same permutation from the same state."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    n = len(x)
    steps = _STEPS.get(n)
    if steps is None:
        steps = _STEPS[n] = tuple((i, (i + 1).bit_length()) for i in reversed(range(1, n)))
    getrandbits = rng.getrandbits
    for i, k in steps:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def below(rng: random.Random, n: int) -> int:
    """`rng._randbelow(n)` (`rng.choice`'s index) for `n` > 0: the same number."""
    if type(rng) is not random.Random:
        return rng._randbelow(n)  # type: ignore[attr-defined,no-any-return]
    k = BITS[n] if n < 256 else n.bit_length()
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r
