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
`waits` reads the same packed suit information as `rules.hand.waits` (`info`), keyed by
the live keys (a table built at its first use, about 5 MB, which the judge never asks for).
Seven pairs are read off the counts. Every answer equals `rules.hand`'s on the same counts
(tests/rules/test_live_hand.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Protocol

from rules import suit_tables
from rules.tiles import TILES, Suit, Tile, TileSet

SUIT_INDEX: tuple[int, ...] = tuple(min(t // 9, 3) for t in range(len(TILES)))
UNIT: tuple[int, ...] = tuple(5 ** (t - 9 * SUIT_INDEX[t]) for t in range(len(TILES)))
_TARGET = tuple(suit_tables.target(m) for m in range(5))
# per suit, the tiles of each rank mask
_RANKS = tuple(
    tuple(
        tuple(TILES[s.offset + r] for r in range(s.size) if mask >> r & 1)
        for mask in range(1 << s.size)
    )
    for s in (Suit.M, Suit.P, Suit.S, Suit.Z)
)


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
    Callable[[LiveHand], bool],
    Callable[[LiveHand, TileSet], tuple[Tile, ...]],
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
    missing, code_bits = suit_tables.MISSING_INFO, suit_tables.INFO_CODE_BITS
    gain_field, gain_shift = suit_tables.INFO_GAIN_FIELD, suit_tables.INFO_GAIN_SHIFT
    mask_shift = suit_tables.INFO_MASK_SHIFT
    gains = tuple(t + suit_tables.INFO_GAIN_OFFSET for t in targets)
    m_ranks, p_ranks, s_ranks, z_ranks = _RANKS
    full, evens, single_odd, tiles = TileSet.FULL_136, b"\0\2\4", frozenset((b"\1", b"\3")), TILES

    def keys_complete(keys: Sequence[int], counts: Sequence[int], melds: int = 0) -> bool:
        """`rules.hand.is_complete(counts, melds)` for a hand whose live keys are `keys`:
        three indexings (four with honours held); seven pairs read off the counts."""
        if not numbers:
            ensure()
        k3 = keys[3]
        if (
            numbers[keys[0]] + numbers[keys[1]] + numbers[keys[2]] + (honours[k3] if k3 else 0)
            == targets[melds]
        ):
            return True
        return (
            melds == 0
            and 1 not in counts
            and 3 not in counts
            and sum(counts) == 14
            and max(counts) <= 4
        )

    def keys_complete_with(keys: Sequence[int], counts: bytearray, melds: int, tile: int) -> bool:
        """Whether the hand completes with `tile` added (`keys_complete` of the hand plus
        the tile; `counts` is changed and restored only to test seven pairs)."""
        if not numbers:
            ensure()
        if counts[tile] >= 4:
            return False  # a fifth copy completes nothing (and would carry into rank + 1)
        k0, k1, k2, k3 = keys
        s = suit_index[tile]
        if s == 0:
            k0 += unit[tile]
        elif s == 1:
            k1 += unit[tile]
        elif s == 2:
            k2 += unit[tile]
        else:
            k3 += unit[tile]
        if numbers[k0] + numbers[k1] + numbers[k2] + (honours[k3] if k3 else 0) == targets[melds]:
            return True
        if melds or not counts[tile] & 1:
            return False  # seven pairs: the tile must pair the one odd count
        counts[tile] += 1
        seven = 1 not in counts and 3 not in counts and sum(counts) == 14 and max(counts) <= 4
        counts[tile] -= 1
        return seven

    def live_is_complete(hand: LiveHand) -> bool:
        """`LiveHand.is_complete`: `keys_complete` written out, one call less."""
        if not numbers:
            ensure()
        keys = hand.keys
        k3 = keys[3]
        if (
            numbers[keys[0]] + numbers[keys[1]] + numbers[keys[2]] + (honours[k3] if k3 else 0)
            == targets[hand.melds]
        ):
            return True
        counts = hand.counts
        return (
            hand.melds == 0
            and 1 not in counts
            and 3 not in counts
            and sum(counts) == 14
            and max(counts) <= 4
        )

    def live_waits(hand: LiveHand, tileset: TileSet = TileSet.SUITED_108) -> tuple[Tile, ...]:
        """`LiveHand.waits`: `rules.hand.waits`' look-ups keyed by the live keys."""
        if not info_n:
            ensure_info()
        k0, k1, k2, k3 = hand.keys
        v0 = gn(k0, missing)
        v1 = gn(k1, missing)
        v2 = gn(k2, missing)
        v3 = gz(k3, missing) if k3 else 0
        melds = hand.melds
        need = (gains[melds] - ((v0 + v1 + v2 + v3) & code_bits)) << gain_shift
        found: tuple[Tile, ...] = ()
        if v0 & gain_field == need:
            found = m_ranks[v0 >> mask_shift]
        if v1 & gain_field == need:
            found += p_ranks[v1 >> mask_shift]
        if v2 & gain_field == need:
            found += s_ranks[v2 >> mask_shift]
        if k3 and v3 & gain_field == need and tileset is full:
            found += z_ranks[v3 >> mask_shift]
        counts = hand.counts
        if not melds and counts.count(0) >= 27:  # seven pairs: at most 7 kinds held
            odd = bytes(counts.translate(None, evens))
            if odd in single_odd and sum(counts) == 13:
                seven = tiles[counts.find(odd)]
                if tileset.contains(seven) and seven not in found:
                    found = tuple(sorted((*found, seven)))
        return found

    return keys_complete, keys_complete_with, live_is_complete, live_waits


keys_complete, keys_complete_with, _live_is_complete, _live_waits = _bind()


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

    is_complete: Callable[[LiveHand], bool] = _live_is_complete
    """Whether the standing tiles + `melds` declared sets form a complete hand."""

    waits: Callable[..., tuple[Tile, ...]] = _live_waits
    """The tiles that complete the hand (13 tiles with the melds), in tile order."""

    def completes_with(self, tile: int) -> bool:
        """Whether adding `tile` completes the hand (the hand is left as it was)."""
        return keys_complete_with(self.keys, self.counts, self.melds, tile)
