"""Hand shapes: complete-hand detection, decompositions and waits, from tile counts.

Counts are 34-slot vectors of the *standing* tiles (see `rules.tiles.to_counts`); declared
melds are passed separately, as each counts as one set (a kong counts as three tiles in the
shape, 004 Lesson 3).

Shapes (RULES.md, Hand shapes): regular = 4 sets (pung, kong, chow) + a pair; seven pairs
(no melds), where four identical tiles count as two pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from rules.melds import Meld
from rules.tiles import N_KINDS, TILES, Suit, Tile, TileSet


class Shape(Enum):
    REGULAR = "regular"
    SEVEN_PAIRS = "seven-pairs"


class GroupKind(Enum):
    PUNG = "pung"
    CHOW = "chow"


@dataclass(frozen=True, slots=True)
class Group:
    """A set formed from standing tiles; `tile` is the lowest tile of a chow."""

    kind: GroupKind
    tile: Tile


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read the standing tiles as a complete hand (melds not included)."""

    shape: Shape
    groups: tuple[Group, ...] = ()  # REGULAR: the sets formed from standing tiles
    pair: Tile | None = None  # REGULAR: the pair
    pairs: tuple[Tile, ...] = ()  # SEVEN_PAIRS: seven tiles, a tile twice for four copies


def _sets_only(counts: list[int], i: int, need: int, chows: bool) -> bool:
    while i < N_KINDS and counts[i] == 0:
        i += 1
    if i == N_KINDS:
        return need == 0
    if need == 0:
        return False
    if counts[i] >= 3:
        counts[i] -= 3
        ok = _sets_only(counts, i, need - 1, chows)
        counts[i] += 3
        if ok:
            return True
    if chows and i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        ok = _sets_only(counts, i, need - 1, chows)
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1
        return ok
    return False


def is_seven_pairs(counts: Sequence[int]) -> bool:
    return sum(counts) == 14 and all(n % 2 == 0 for n in counts)


def is_complete(counts: Sequence[int], melds: int = 0) -> bool:
    """Whether standing tiles + `melds` declared sets form a complete hand."""
    total = sum(counts)
    if total != 14 - 3 * melds:
        return False
    if melds == 0 and is_seven_pairs(counts):
        return True
    work = list(counts)
    for i in range(N_KINDS):
        if work[i] >= 2:
            work[i] -= 2
            ok = _sets_only(work, 0, 4 - melds, True)
            work[i] += 2
            if ok:
                return True
    return False


def _groups(counts: list[int], i: int, acc: list[Group], out: list[tuple[Group, ...]]) -> None:
    while i < N_KINDS and counts[i] == 0:
        i += 1
    if i == N_KINDS:
        out.append(tuple(acc))
        return
    if counts[i] >= 3:
        counts[i] -= 3
        acc.append(Group(GroupKind.PUNG, TILES[i]))
        _groups(counts, i, acc, out)
        acc.pop()
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for j in (i, i + 1, i + 2):
            counts[j] -= 1
        acc.append(Group(GroupKind.CHOW, TILES[i]))
        _groups(counts, i, acc, out)
        acc.pop()
        for j in (i, i + 1, i + 2):
            counts[j] += 1


def decompositions(counts: Sequence[int], melds: int = 0) -> list[Decomposition]:
    """Every way to read the standing tiles as a complete hand."""
    result: list[Decomposition] = []
    if sum(counts) != 14 - 3 * melds:
        return result
    if melds == 0 and is_seven_pairs(counts):
        pairs = tuple(TILES[i] for i, n in enumerate(counts) for _ in range(n // 2))
        result.append(Decomposition(Shape.SEVEN_PAIRS, pairs=pairs))
    work = list(counts)
    for i in range(N_KINDS):
        if work[i] >= 2:
            work[i] -= 2
            found: list[tuple[Group, ...]] = []
            _groups(work, 0, [], found)
            work[i] += 2
            result.extend(
                Decomposition(Shape.REGULAR, groups=g, pair=TILES[i])
                for g in found
                if len(g) == 4 - melds
            )
    return result


def waits(
    counts: Sequence[int],
    melds: Sequence[Meld] = (),
    void: Suit | None = None,
    tileset: TileSet = TileSet.SUITED_108,
) -> tuple[Tile, ...]:
    """Tiles that complete a 13-tile hand (standing tiles + melds).

    A tile whose four copies the player already holds (standing or in melds) is not a wait.
    With `void`, a hand still holding void-suit tiles waits on nothing, and no void-suit tile
    is a wait.
    """
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    if void is not None and any(counts[t] for t in void.tiles):
        return ()
    work = list(counts)
    found = []
    for t in tileset.kinds:
        if held[t] >= 4 or (void is not None and t.suit is void):
            continue
        work[t] += 1
        if is_complete(work, len(melds)):
            found.append(t)
        work[t] -= 1
    return tuple(found)
