"""Hands that keep their per-suit keys as tiles come and go (issue 17 item 4): the deal
judge adds and removes one tile a move, so it keeps, beside each hand's counts, one *live
key* per suit and answers "complete?" with three table indexings and no rebuild.

A suit's live key is its counts read as a base-5 number (count of rank r times 5**(r-1),
`rules.suit_tables.live_key`); a tile adds `UNIT[tile]` to the key of its suit
`SUIT_INDEX[tile]` (0 Characters, 1 Dots, 2 Bamboo, 3 honours). `rules.suit_tables.live`
holds every suit's code at its live key (bytes, one index each), so

    keys_complete(keys, counts, melds)     == rules.hand.is_complete(counts, melds)
    keys_complete_with(keys, counts, n, t) == is_complete(counts + t, n)

`LiveHand` bundles counts, keys and a meld count for callers outside the judge; its
`waits` looks up the same packed suit information as `rules.hand.waits` (`info`), keyed by
the live keys (a table built at its first use, about 5 MB, which the judge never asks for),
and reads the waits from it with `rules.hand`'s own `waits_from_info`. Seven pairs are read
off the counts by `rules.hand` too. Every answer equals `rules.hand`'s on the same counts
(tests/rules/test_live_hand.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Protocol

from rules import suit_tables
from rules.hand import add_wait, is_seven_pairs, seven_pairs_wait, waits_from_info
from rules.tiles import TILES, Tile, TileSet

SUIT_INDEX: tuple[int, ...] = tuple(min(t // 9, 3) for t in range(len(TILES)))
UNIT: tuple[int, ...] = tuple(5 ** (t - 9 * SUIT_INDEX[t]) for t in range(len(TILES)))
_TARGET = tuple(suit_tables.target(m) for m in range(5))


def suit_keys(counts: Sequence[int]) -> list[int]:
    """The four live suit keys of standing `counts` (Characters, Dots, Bamboo, honours);
    a ValueError for a count above 4."""
    b = bytes(counts)
    key = suit_tables.live_key
    return [key(b[:9]), key(b[9:18]), key(b[18:27]), key(b[27:])]


def _near_digits(t: Tile) -> tuple[int, int, int]:
    """Where a tile and its neighbours within two ranks in its suit (the tile alone for
    honours) sit in a live suit key (rank r is the base-5 digit r-1):
    the suit's index and the place values `low`, `span` such that `key // low % span` is 0
    exactly when none of them is held."""
    s = SUIT_INDEX[t]
    r = t - 9 * s  # rank - 1
    lo, hi = (r, r) if t.is_honour else (max(0, r - 2), min(8, r + 2))
    return s, 5**lo, 5 ** (hi - lo + 1)


NEAR_DIGITS: tuple[tuple[int, int, int], ...] = tuple(_near_digits(t) for t in TILES)


@functools.cache
def _live_info() -> tuple[dict[int, int], dict[int, int]]:
    """`suit_tables.info` keyed by live keys: number suits, honours."""
    numbers: dict[int, int] = {}
    honours: dict[int, int] = {}
    key = suit_tables.live_key
    for k, v in suit_tables.tables().info.items():
        (numbers if len(k) == 9 else honours)[key(k)] = v
    return numbers, honours


class _KeysComplete(Protocol):
    def __call__(self, keys: Sequence[int], counts: Sequence[int], melds: int = 0) -> bool: ...


class _KeysCompleteWith(Protocol):
    def __call__(self, keys: Sequence[int], counts: bytearray, melds: int, tile: int) -> bool: ...


def _bind() -> tuple[
    _KeysComplete,
    _KeysCompleteWith,
    Callable[[Sequence[int], int, TileSet], tuple[Tile, ...]],
]:
    """The hot paths, tables and constants bound as closure cells (cheaper than globals);
    the tables are bound at first use (`ensure`)."""
    numbers, honours = b"", b""  # rules.suit_tables' live tables, once built
    info_n: dict[int, int] = {}
    info_z: dict[int, int] = {}

    def ensure() -> None:
        nonlocal numbers, honours
        numbers, honours = suit_tables.tables().live

    def ensure_info() -> None:
        n, z = _live_info()
        info_n.update(n)
        info_z.update(z)

    targets, suit_index, unit = _TARGET, SUIT_INDEX, UNIT
    gn, gz = info_n.get, info_z.get
    missing, full = suit_tables.MISSING_INFO, TileSet.FULL_136
    seven_pairs, from_info = is_seven_pairs, waits_from_info

    def keys_complete(keys: Sequence[int], counts: Sequence[int], melds: int = 0) -> bool:
        """`rules.hand.is_complete(counts, melds)` for a hand whose live keys are `keys`:
        three indexings (four with honours held); seven pairs read off the counts."""
        if not numbers:
            ensure()
        k3 = keys[3]
        return (
            numbers[keys[0]] + numbers[keys[1]] + numbers[keys[2]] + (honours[k3] if k3 else 0)
            == targets[melds]
        ) or (melds == 0 and seven_pairs(counts))

    def keys_complete_with(keys: Sequence[int], counts: bytearray, melds: int, tile: int) -> bool:
        """Whether the hand completes with `tile` added: `keys_complete` of the hand plus
        the tile (`counts` is changed for it and restored)."""
        if counts[tile] >= 4:
            return False  # a fifth copy completes nothing (and would carry into rank + 1)
        plus = list(keys)
        plus[suit_index[tile]] += unit[tile]
        counts[tile] += 1
        complete = keys_complete(plus, counts, melds)
        counts[tile] -= 1
        return complete

    def regular_waits(keys: Sequence[int], melds: int, tileset: TileSet) -> tuple[Tile, ...]:
        """`rules.hand.waits_from_info` for a hand whose live keys are `keys`: the tiles
        that complete it as four sets + a pair."""
        if not info_n:
            ensure_info()
        k0, k1, k2, k3 = keys
        v3 = gz(k3, missing) if k3 else 0
        return from_info(
            gn(k0, missing),
            gn(k1, missing),
            gn(k2, missing),
            v3,
            melds,
            bool(k3) and tileset is full,
        )

    return keys_complete, keys_complete_with, regular_waits


keys_complete, keys_complete_with, _regular_waits = _bind()


class LiveHand:
    """Standing counts that keep their live suit keys as tiles come and go: `add` and
    `remove` change one count and one key; `is_complete` is three indexings (four with
    honours held), `waits` one look-up per suit, with no rebuild of the counts' bytes.
    `melds` is the number of declared sets (the shape only: `rules.hand.waits` with the
    melds themselves also leaves out a tile whose four copies are held with the melds)."""

    __slots__ = ("counts", "keys", "melds")

    def __init__(self, counts: Sequence[int] = (0,) * 34, melds: int = 0) -> None:
        self.keys = suit_keys(counts)
        self.counts = bytearray(counts)
        self.melds = melds

    def add(self, tile: int, n: int = 1) -> None:
        if self.counts[tile] + n > 4:
            raise ValueError(f"a hand holds at most 4 of a tile ({TILES[tile].name})")
        self.counts[tile] += n
        self.keys[SUIT_INDEX[tile]] += n * UNIT[tile]

    def remove(self, tile: int, n: int = 1) -> None:
        self.counts[tile] -= n  # below 0: a ValueError, nothing changed
        self.keys[SUIT_INDEX[tile]] -= n * UNIT[tile]

    def is_complete(self) -> bool:
        """Whether the standing tiles + `melds` declared sets form a complete hand."""
        return keys_complete(self.keys, self.counts, self.melds)

    def waits(self, tileset: TileSet = TileSet.SUITED_108) -> tuple[Tile, ...]:
        """The tiles that complete the hand (13 tiles with the melds), in tile order."""
        melds = self.melds
        found = _regular_waits(self.keys, melds, tileset)
        seven = None if melds else seven_pairs_wait(self.counts, tileset)
        return found if seven is None else add_wait(found, seven)

    def completes_with(self, tile: int) -> bool:
        """Whether adding `tile` completes the hand (the hand is left as it was)."""
        return keys_complete_with(self.keys, self.counts, self.melds, tile)
