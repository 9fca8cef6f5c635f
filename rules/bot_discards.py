"""Which tile a bot discards: the tiles it holds worth least, by copies held and neighbours
within two ranks in their suit (`keep_score`). Split from rules.bots, which plays them.

`loneliest(counts)` looks each suit's part up by its nine counts; `loneliest_live(keys,
counts)` by the judge's live suit keys (rules.live_hand), so a discard builds no bytes.
Both give the same tiles, in tile order (tests/rules/test_bots.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from rules.tiles import TILES

_NO_HONOURS = bytes(7)
# the neighbours of each number tile within two ranks in its suit, with their weight
_NEAR: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (int(t) + d, 3 - abs(d)) for d in (-2, -1, 1, 2) if not t.is_honour and 1 <= t.rank + d <= 9
    )
    for t in TILES
)


def keep_score(counts: Sequence[int], i: int) -> int:
    """How much a tile is worth keeping: copies held, then neighbours in its suit."""
    score = 6 * counts[i] - 6
    for j, weight in _NEAR[i]:
        if counts[j]:
            score += weight
    return score


def loneliest(counts: Sequence[int]) -> list[int] | tuple[int, ...]:
    """The held tiles with the lowest `keep_score`, in tile order (each suit's part looked
    up by its nine counts; honours, Wellness, have no neighbours)."""
    b = bytes(counts)
    m, mi = _LONELIEST_M(b[:9])
    p, pi = _LONELIEST_P(b[9:18])
    s, si = _LONELIEST_S(b[18:27])
    low = m if m < p else p  # `min(m, p, s)` builds a tuple and costs four times more
    if s < low:
        low = s
    best = (mi if m == low else ()) + (pi if p == low else ()) + (si if s == low else ())
    if b.endswith(_NO_HONOURS):
        return best
    honours = list(best)
    for i in range(27, 34):
        score = 6 * b[i]  # `_suit_loneliest`'s scale: `keep_score` plus 6
        if not score or score > low:
            continue
        if score < low:
            low, honours = score, []
        honours.append(i)
    return honours


# per number suit: live key -> `_suit_loneliest`'s answer, filled as keys come up
_LIVE: tuple[dict[int, tuple[int, tuple[int, ...]]], ...] = ({}, {}, {})
_LIVE_MAX = 1 << 15  # keys kept per suit before a cache starts afresh


def loneliest_live(keys: Sequence[int], counts: bytearray) -> list[int] | tuple[int, ...]:
    """`loneliest(counts)` for a hand whose live suit keys are `keys` (rules.live_hand):
    each number suit's part is found by its key, without building bytes."""
    if keys[3]:
        return loneliest(counts)  # honours held (Wellness): the general path
    cm, cp, cs = _LIVE
    k = keys[0]
    m = cm.get(k)
    if m is None:
        m = _fill(cm, k, counts, 0)
    k = keys[1]
    p = cp.get(k)
    if p is None:
        p = _fill(cp, k, counts, 9)
    k = keys[2]
    s = cs.get(k)
    if s is None:
        s = _fill(cs, k, counts, 18)
    lm, lp, ls = m[0], p[0], s[0]
    low = lm if lm < lp else lp
    if ls < low:
        low = ls
    return (m[1] if lm == low else ()) + (p[1] if lp == low else ()) + (s[1] if ls == low else ())


def _fill(
    cache: dict[int, tuple[int, tuple[int, ...]]], key: int, counts: bytearray, offset: int
) -> tuple[int, tuple[int, ...]]:
    """A miss of `loneliest_live`'s cache for the number suit at `offset`: the suit's
    look-up (`_suit_loneliest`) on the hand's counts, kept under `key`."""
    if len(cache) >= _LIVE_MAX:
        cache.clear()
    found = cache[key] = _BY_OFFSET[offset](bytes(counts[offset : offset + 9]))
    return found


def loneliest_in_suit(counts: Sequence[int], offset: int) -> int | None:
    """The first held tile of the number suit starting at `offset` with the lowest
    `keep_score` (`min` over the suit's held tiles by `keep_score`), None if none is held."""
    _, tiles = _BY_OFFSET[offset](bytes(counts[offset : offset + 9]))
    return tiles[0] if tiles else None


def honours_held(counts: Sequence[int]) -> list[int]:
    return [i for i in range(27, 34) if counts[i]]


def _suit_loneliest(offset: int) -> Callable[[bytes], tuple[int, tuple[int, ...]]]:
    """For the suit whose first tile is at `offset`, a look-up from its nine counts to the
    lowest `keep_score` (plus 6) of a held rank and the tiles that have it ((99, ()) when
    the suit is not held); one cache per suit, keyed by the counts alone."""

    @lru_cache(maxsize=1 << 15)
    def loneliest(row: bytes) -> tuple[int, tuple[int, ...]]:
        low: int = 99
        tiles: tuple[int, ...] = ()
        # the neighbours' part of the score depends only on which ranks are held
        for r, near in _NEIGHBOURS[row.translate(_HELD)]:
            score = 6 * row[r] + near
            if score < low:
                low, tiles = score, (offset + r,)
            elif score == low:
                tiles += (offset + r,)
        return low, tiles

    return loneliest


_HELD = bytes([0] + [1] * 255)  # `bytes.translate` table: a count -> held (1) or not (0)


def _neighbours(held: bytes) -> tuple[tuple[int, int], ...]:
    """The held ranks of a suit (0-8) with their neighbours' score: 2 for each held rank
    next to it, 1 for each two ranks away (`keep_score`)."""
    pad = bytes(2) + held + bytes(2)
    return tuple(
        (r, 2 * pad[r + 1] + 2 * pad[r + 3] + pad[r] + pad[r + 4]) for r in range(9) if held[r]
    )


# every pattern of held ranks in a suit (2**9 of them)
_NEIGHBOURS: dict[bytes, tuple[tuple[int, int], ...]] = {
    held: _neighbours(held)
    for held in (bytes((mask >> r) & 1 for r in range(9)) for mask in range(1 << 9))
}


_LONELIEST_M, _LONELIEST_P, _LONELIEST_S = (_suit_loneliest(o) for o in (0, 9, 18))
_BY_OFFSET = {0: _LONELIEST_M, 9: _LONELIEST_P, 18: _LONELIEST_S}
