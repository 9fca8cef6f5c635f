"""Hand shapes: complete-hand detection, decompositions and waits, from tile counts.

Counts are 34-slot vectors of the *standing* tiles (see `rules.tiles.to_counts`); declared
melds are passed separately, as each counts as one set (a kong counts as three tiles in the
shape, 004 Lesson 3).

Shapes (RULES.md, Hand shapes): regular = 4 sets (pung, kong, chow) + a pair; seven pairs
(no melds), where four identical tiles count as two pairs. Honours (136-tile sets) form
pungs and pairs only, never chows.

The regular shape is answered by per-suit table look-ups (`rules.suit_tables`): the counts
become one `bytes` object, sliced per suit, and each slice is a dict key (waits: one
look-up per suit in `info`, which packs the suit's code, its waited ranks and what a wait
adds). Seven pairs and all-pungs are read straight off the bytes (no count is odd / every
count is 0, 2 or 3). A hand kept as tiles come and go answers without building bytes:
`rules.live_hand`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from rules import suit_tables
from rules.melds import Meld, MeldKind, count_meld_tiles
from rules.tiles import TILES, Suit, Tile, TileSet


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


@dataclass(frozen=True, slots=True)
class ShapeFacts:
    """Which shapes a complete hand can be read as (for the scorer's theoretical maximum).

    `all_pungs`: some regular reading has every set a pung or kong (004 Table 4, all-pungs).
    """

    regular: bool
    all_pungs: bool
    seven_pairs: bool

    @property
    def complete(self) -> bool:
        return self.regular or self.seven_pairs


@dataclass(frozen=True, slots=True)
class Completion:
    """A wait and the shapes the hand can take once it is drawn or claimed."""

    tile: Tile
    facts: ShapeFacts


# the eight possible ShapeFacts, indexed by regular | all_pungs << 1 | seven_pairs << 2
_FACTS = tuple(ShapeFacts(bool(i & 1), bool(i & 2), bool(i & 4)) for i in range(8))
NOT_COMPLETE_FACTS = _FACTS[0]
# every Completion value, shared: _COMPLETIONS[tile][facts index]
_COMPLETIONS = tuple(tuple(Completion(t, f) for f in _FACTS) for t in TILES)

_CODE_BITS = suit_tables.INFO_CODE_BITS
_TARGET = tuple(suit_tables.target(m) for m in range(5))
_SUIT_SLICES = ((0, 9), (9, 18), (18, 27), (27, 34))


def _mask_tiles(offset: int, size: int) -> tuple[tuple[Tile, ...], ...]:
    return tuple(
        tuple(TILES[offset + r] for r in range(size) if mask >> r & 1) for mask in range(1 << size)
    )


# per suit, the tiles of each rank mask: _RANKS[suit][mask]
_RANKS = tuple(_mask_tiles(s.offset, s.size) for s in (Suit.M, Suit.P, Suit.S, Suit.Z))


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Seven pairs; four identical tiles count as two pairs (RULES.md). `counts` as any
    34-slot sequence (bytes, a bytearray or a list)."""
    return 1 not in counts and 3 not in counts and sum(counts) == 14 and max(counts) <= 4


_EVENS = b"\0\2\4"
_SINGLE_ODD = frozenset((b"\1", b"\3"))


def seven_pairs_wait(b: bytes | bytearray, tileset: TileSet) -> Tile | None:
    """The tile that makes 13 standing tiles `b` (no melds) seven pairs, if any: the one
    tile held an odd number of times, every other count even (at most 7 kinds held)."""
    if b.count(0) < 27:
        return None
    odd = bytes(b.translate(None, _EVENS))  # `b` less its 0, 2 and 4 bytes
    if odd not in _SINGLE_ODD or sum(b) != 13:
        return None
    t = TILES[b.find(odd)]
    return t if tileset.contains(t) else None


def allowed_waits(
    found: tuple[Tile, ...],
    b: bytes,
    melds: Sequence[Meld],
    void: Suit | None,
    melded_copies: bool = True,
) -> tuple[Tile, ...]:
    """`found` less what `waits` leaves out for `melds` and `void` (see `waits`)."""
    if void is not None:
        lo, hi = _SPAN_OF_SUIT[void]
        if b[lo:hi] != _EMPTY_KEYS[void]:
            return ()  # void-suit tiles still held: no win possible (RULES.md)
        found = tuple(t for t in found if t.suit is not void)
    if melds and melded_copies:
        held = list(b)
        count_meld_tiles(held, melds)
        found = tuple(t for t in found if held[t] < 4)  # all four copies already held
    return found


# each suit's slice of a hand's bytes and its empty key (no `Suit.offset` property calls)
_SPAN_OF_SUIT = {s: (s.offset, s.offset + s.size) for s in Suit}
_EMPTY_KEYS = {s: bytes(s.size) for s in Suit}


def add_wait(found: tuple[Tile, ...], t: Tile) -> tuple[Tile, ...]:
    """Waits `found` (in tile order) with `t` too, in tile order."""
    return found if t in found else tuple(sorted((*found, t)))


class _WaitsFromInfo(Protocol):
    def __call__(
        self, v0: int, v1: int, v2: int, v3: int, melds: int, honours: bool
    ) -> tuple[Tile, ...]: ...


# a hand's waits and what they were read from: (waits, the regular waits, the seven-pairs
# wait, how many of the three number suits are held)
WaitReading = tuple[tuple[Tile, ...], tuple[Tile, ...], Tile | None, int]


class _WaitReading(Protocol):
    def __call__(
        self,
        b: bytes,
        melds: Sequence[Meld],
        void: Suit | None,
        tileset: TileSet,
        melded_copies: bool = True,
    ) -> WaitReading: ...


def _bind_hot_paths() -> tuple[Callable[[bytes, int], bool], _WaitsFromInfo, _WaitReading]:
    """`_regular`, `waits_from_info` and `wait_reading`, with tables and constants bound
    as closure cells: these run per hand in the judge's and scorer's loops, and closure
    reads are cheaper than module-global reads (about 0.15 of the ~0.9 us of a
    completeness check)."""
    # rules.suit_tables' one `info` dict, bound (never copied) at first use by `load`
    info: dict[bytes, int] = {}
    info_get = info.get
    targets = _TARGET
    m_ranks, p_ranks, s_ranks, z_ranks = _RANKS
    missing, no_honours = suit_tables.MISSING_INFO, suit_tables.NO_HONOURS
    code_bits, gain_field = suit_tables.INFO_CODE_BITS, suit_tables.INFO_GAIN_FIELD
    gain_shift = suit_tables.INFO_GAIN_SHIFT
    gains = tuple(t + suit_tables.INFO_GAIN_OFFSET for t in targets)  # the target, offset
    mask_shift = suit_tables.INFO_MASK_SHIFT
    full = TileSet.FULL_136
    seven_wait, add, allowed = seven_pairs_wait, add_wait, allowed_waits

    def load() -> None:
        nonlocal info, info_get
        info = suit_tables.tables().info
        info_get = info.get

    def regular(b: bytes, melds: int) -> bool:
        """Whether standing bytes `b` + `melds` declared sets read as four sets + a pair."""
        if not info:
            load()
        # the codes add up in their field (no honours held: 7 zero bytes, code 0)
        return (
            info_get(b[:9], missing)
            + info_get(b[9:18], missing)
            + info_get(b[18:27], missing)
            + info_get(b[27:], missing)
        ) & code_bits == targets[melds]

    def waits_from_info(
        v0: int, v1: int, v2: int, v3: int, melds: int, honours: bool
    ) -> tuple[Tile, ...]:
        """The tiles completing a hand of `melds` declared sets whose four suits have the
        `info` values v0-v3 (`suit_tables`; v3 is 0 when no honour is held), as four sets +
        a pair, in tile order; `honours`: whether an honour can be one (honours held, in a
        136-tile set).

        Suit X takes the winning tile when every other suit is complete and X's code after
        the tile brings the sum to the target (so also exactly one pair in the hand)."""
        # the gain that makes the total (the target less every suit's code), in its field;
        # the codes add up in their own field
        need = (gains[melds] - ((v0 + v1 + v2 + v3) & code_bits)) << gain_shift
        found: tuple[Tile, ...] = ()
        if v0 & gain_field == need:
            found = m_ranks[v0 >> mask_shift]
        if v1 & gain_field == need:
            found += p_ranks[v1 >> mask_shift]
        if v2 & gain_field == need:
            found += s_ranks[v2 >> mask_shift]
        if honours and v3 & gain_field == need:
            found += z_ranks[v3 >> mask_shift]
        return found

    def wait_reading(
        b: bytes,
        melds: Sequence[Meld],
        void: Suit | None,
        tileset: TileSet,
        melded_copies: bool = True,
    ) -> WaitReading:
        """`waits` of standing bytes `b` (see `waits`), with the regular waits and the
        seven-pairs wait they were made from (before `melds` and `void` leave tiles out)
        and how many of the three number suits `b` holds: one `info` look-up per suit."""
        if not info:
            load()
        v0 = info_get(b[:9], missing)
        v1 = info_get(b[9:18], missing)
        v2 = info_get(b[18:27], missing)
        honours = not b.endswith(no_honours)
        v3 = info_get(b[27:], missing) if honours else 0
        by_sets = waits_from_info(v0, v1, v2, v3, len(melds), honours and tileset is full)
        found, seven = by_sets, None
        if not melds:
            seven = seven_wait(b, tileset)
            if seven is not None:
                found = add(by_sets, seven)
        if found and (void is not None or melds):
            found = allowed(found, b, melds, void, melded_copies)
        # a suit's code is 0 exactly when it is empty (a missing key reads NOT_COMPLETE)
        held = (v0 & code_bits != 0) + (v1 & code_bits != 0) + (v2 & code_bits != 0)
        return found, by_sets, seven, held

    return regular, waits_from_info, wait_reading


_regular, waits_from_info, wait_reading = _bind_hot_paths()


def is_complete(counts: Sequence[int], melds: int = 0) -> bool:
    """Whether standing tiles + `melds` declared sets form a complete hand."""
    b = bytes(counts)
    return _regular(b, melds) or (melds == 0 and is_seven_pairs(b))


def waits(
    counts: Sequence[int],
    melds: Sequence[Meld] = (),
    void: Suit | None = None,
    tileset: TileSet = TileSet.SUITED_108,
    *,
    melded_copies: bool = True,
) -> tuple[Tile, ...]:
    """Tiles that complete a 13-tile hand (standing tiles + melds), in tile order.

    A tile whose four copies the player already holds (standing, or with `melded_copies`
    in melds too: `scoring.exhausted-wait`) is not a wait. With `void`, a hand still
    holding void-suit tiles waits on nothing, and no void-suit tile is a wait. In a
    108-tile set no honour is a wait.
    """
    return wait_reading(bytes(counts), melds, void, tileset, melded_copies)[0]


def shape_facts(counts: Sequence[int], melds: Sequence[Meld] = ()) -> ShapeFacts:
    """Shapes of a hand of standing `counts` + declared `melds` (a melded chow, 136-tile sets
    only, rules out all-pungs); `NOT_COMPLETE_FACTS` if it is not complete."""
    b = bytes(counts)
    n = len(melds)
    if _regular(b, n):
        # tile count and counts <= 4 already hold; every count 0, 2 or 3 with a single 2:
        # the 3s are pungs and the 2 the pair (004 Table 4, all-pungs)
        pungs = (
            1 not in b
            and 4 not in b
            and b.count(2) == 1
            and all(m.kind is not MeldKind.CHOW for m in melds)
        )
        seven = n == 0 and 1 not in b and 3 not in b
        return _FACTS[1 | pungs << 1 | seven << 2]
    return _FACTS[4] if n == 0 and is_seven_pairs(b) else NOT_COMPLETE_FACTS


# every Group value, shared (a new suit's readings build many): _PUNG_GROUPS[tile],
# _CHOW_GROUPS[lowest tile] (used for ranks 1-7 only)
_PUNG_GROUPS = tuple(Group(GroupKind.PUNG, t) for t in TILES)
_CHOW_GROUPS = tuple(Group(GroupKind.CHOW, t) for t in TILES)


@functools.cache
def _suit_readings(key: bytes, offset: int) -> tuple[tuple[Tile | None, tuple[Group, ...]], ...]:
    """Every (pair, sets) reading of one suit's counts; empty if it has none."""
    counts = list(key)
    chows = len(key) == 9
    if sum(counts) % 3 == 0:
        return tuple([(None, g) for g in _sets(counts, 0, offset, chows)])
    out: list[tuple[Tile | None, tuple[Group, ...]]] = []
    complete = suit_tables.tables().info.get
    for i, n in enumerate(key):
        if n >= 2:
            # a pair here leaves a sets-only vector, or no reading: one table look-up
            # spares the search of most pairs that lead nowhere
            rest = complete(key[:i] + _LESS_TWO[n] + key[i + 1 :])
            if rest is None or rest & _CODE_BITS >= suit_tables.NOT_COMPLETE:
                continue
            counts[i] -= 2
            pair = TILES[offset + i]
            out += [(pair, g) for g in _sets(counts, 0, offset, chows)]
            counts[i] += 2
    return tuple(out)


_LESS_TWO = {n: bytes((n - 2,)) for n in range(2, 5)}  # a count less the pair, as a byte


def _sets(counts: list[int], i: int, offset: int, chows: bool) -> list[tuple[Group, ...]]:
    """Every way to read `counts` (from index i) as sets only; the lowest tile is used first,
    as a pung and then as the bottom of a chow (so a tile held four times, read as a pung
    and a chow, is listed twice: pung first and chow first)."""
    n = len(counts)
    while i < n and not counts[i]:
        i += 1
    if i == n:
        return [()]
    c = counts[i]
    found: list[tuple[Group, ...]] = []
    if c >= 3:
        counts[i] = c - 3
        head = _PUNG_GROUPS[offset + i]
        found = [(head, *rest) for rest in _sets(counts, i, offset, chows)]
        counts[i] = c
    if chows and i + 2 < n and counts[i + 1] and counts[i + 2]:
        counts[i] = c - 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        head = _CHOW_GROUPS[offset + i]
        found += [(head, *rest) for rest in _sets(counts, i, offset, chows)]
        counts[i] = c
        counts[i + 1] += 1
        counts[i + 2] += 1
    return found


def decompositions(counts: Sequence[int], melds: int = 0) -> list[Decomposition]:
    """Every way to read the standing tiles as a complete hand: the regular readings (sets in
    tile order, a pung before a chow on the same tile) and, last, seven pairs."""
    b = bytes(counts)
    result: list[Decomposition] = []
    if _regular(b, melds):
        # the readings of each held suit (an empty suit reads as nothing, so it is skipped);
        # most winning hands have one reading per suit, so one Decomposition is made
        # without the product
        per_suit = []
        single = True
        for lo, hi, empty in _SUIT_SPANS:
            key = b[lo:hi]
            if key != empty:
                readings = _suit_readings(key, lo)
                per_suit.append(readings)
                single = single and len(readings) == 1
        if single:
            pair = None
            groups: tuple[Group, ...] = ()
            for ((p, gs),) in per_suit:
                groups += gs
                if p is not None:
                    pair = p
            result.append(Decomposition(Shape.REGULAR, groups, pair, ()))
        else:
            for combo in itertools.product(*per_suit):
                pair = next(p for p, _ in combo if p is not None)
                groups = tuple(g for _, gs in combo for g in gs)
                result.append(Decomposition(Shape.REGULAR, groups, pair, ()))
    if melds == 0 and is_seven_pairs(b):
        pairs = tuple(TILES[i] for i, n in enumerate(b) for _ in range(n // 2))
        result.append(Decomposition(Shape.SEVEN_PAIRS, pairs=pairs))
    return result


# each suit's slice of the standing bytes and its empty key
_SUIT_SPANS = tuple((lo, hi, bytes(hi - lo)) for lo, hi in _SUIT_SLICES)


def completions(
    counts: Sequence[int],
    melds: Sequence[Meld] = (),
    void: Suit | None = None,
    tileset: TileSet = TileSet.SUITED_108,
) -> tuple[Completion, ...]:
    """`waits`, each with the `ShapeFacts` of the hand it completes (for the theoretical
    maximum: the best value over all waits, RULES.md Payments)."""
    b = bytes(counts)
    found, regular, seven, _ = wait_reading(b, melds, void, tileset)
    if not found:
        return ()
    # all-pungs after the tile: every other count 0 or 3 and the tile's count 1 (it makes the
    # pair) or, with another tile held twice, 2 (it makes a pung)
    pungs: tuple[int, ...] = ()
    if 4 not in b and all(m.kind is not MeldKind.CHOW for m in melds):
        ones, twos = b.count(1), b.count(2)
        if ones == 1 and twos == 0:
            pungs = (b.find(1),)
        elif ones == 0 and twos == 2:
            first = b.find(2)
            pungs = (first, b.find(2, first + 1))
    return tuple(
        _COMPLETIONS[t][(t in regular) | (t in pungs) << 1 | (t == seven) << 2] for t in found
    )
