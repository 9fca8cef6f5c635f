"""Structural scoring patterns: small named detectors over one reading of a complete hand.

A *reading* is one decomposition of the standing tiles (`rules.hand.decompositions`) plus the
declared melds. Each detector looks at a reading and says how many times its pattern occurs
and why, in words a referee can check against the tiles. Rule sets name the patterns they
score in `[scoring.fans]`; several names may share one detector because the documents name
the same shape differently (004 "All Pungs" is 000/003 "All Triplets", 004 "Full Flush" is
003 "Pure Suit", 004 "Golden Wait" is 000 "Fishing for the Golden Hook").

Detectors are generic over decompositions, so a rule set with chows and honours (Wellness,
001) plugs in its own detectors by adding them to `DETECTORS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from rules.hand import Decomposition, GroupKind, Shape
from rules.melds import Meld, MeldKind
from rules.tiles import N_KINDS, TILES, Suit, Tile

SUIT_NAMES: Mapping[Suit, str] = MappingProxyType(
    {Suit.M: "Characters", Suit.P: "Dots", Suit.S: "Bamboo", Suit.Z: "Honours"}
)


class Feature(Enum):
    """What a detector looks for; the fast theoretical-maximum path works per feature."""

    KONG = "kong"
    ROOT = "root"
    ALL_PUNGS = "all-pungs"
    GOLDEN_WAIT = "golden-wait"
    ONE_SUIT = "one-suit"
    SEVEN_PAIRS = "seven-pairs"
    DRAGON_SEVEN_PAIRS = "dragon-seven-pairs"


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete hand: a decomposition of the standing tiles + the melds.

    `counts` holds every tile of the hand (standing tiles and meld tiles, a kong as four).
    """

    decomposition: Decomposition
    melds: tuple[Meld, ...]
    win: Tile
    counts: tuple[int, ...]
    kong_is_root: bool = False


@dataclass(frozen=True, slots=True)
class Found:
    """One occurrence of a pattern in a reading: what a referee should look at."""

    detail: str


Detector = Callable[[Reading], tuple[Found, ...]]


def _count_words(n: int, noun: str) -> str:
    words = {1: "a", 2: "two", 3: "three", 4: "four"}
    return f"{words.get(n, str(n))} {noun}{'s' if n > 1 else ''}"


def kongs(r: Reading) -> tuple[Found, ...]:
    """004 Table 4 no 1: 1 fan for each declared kong."""
    found: tuple[Found, ...] = ()
    for m in r.melds:  # a loop, not a generator: most hands hold no kong
        if m.kind.is_kong:
            found += (Found(str(m)),)
    return found


def _where(r: Reading, tile: Tile) -> str:
    """The sets a root tile is spread over in this reading."""
    d = r.decomposition
    if d.shape is Shape.SEVEN_PAIRS:
        return "as two pairs"
    parts: list[str] = []
    pungs = sum(1 for m in r.melds if m.kind is MeldKind.PUNG and m.tile == tile)
    pungs += sum(1 for g in d.groups if g.kind is GroupKind.PUNG and g.tile == tile)
    chows = sum(1 for m in r.melds if m.kind is MeldKind.CHOW and m.tile <= tile <= m.tile + 2)
    chows += sum(1 for g in d.groups if g.kind is GroupKind.CHOW and g.tile <= tile <= g.tile + 2)
    if pungs:
        parts.append(_count_words(pungs, "pung"))
    if chows:
        parts.append(_count_words(chows, "chow"))
    if d.pair == tile:
        parts.append("the pair")
    return "over " + " and ".join(parts)


def roots(r: Reading) -> tuple[Found, ...]:
    """004 Table 4 no 2: four identical tiles spread over two or more sets (a pair counts;
    in seven pairs they are two pairs). A declared kong is not a root in 004 (it scores as
    a kong); in WMT (000 2.8.3 "With Root") it is, with `kong_is_root`."""
    counts = r.counts
    if not r.kong_is_root and 4 not in counts:  # most hands hold no four of a kind
        return ()
    found = []
    fours = counts.count(4)
    if fours:
        # each four of a kind found by `index` (a declared kong's tile is one, most often)
        kong_tiles = [m.tile for m in r.melds if m.kind.is_kong]
        i = -1
        for _ in range(fours):
            i = counts.index(4, i + 1)
            if i not in kong_tiles:
                found.append(Found(f"four {TILES[i]} {_where(r, TILES[i])}"))
    if r.kong_is_root:
        found.extend(Found(f"{m} (a declared kong is a root)") for m in r.melds if m.is_kong)
    return tuple(found)


def all_pungs(r: Reading) -> tuple[Found, ...]:
    """004 Table 4 no 3: four pungs or kongs and a pair (003 "All Triplets")."""
    d = r.decomposition
    if d.shape is not Shape.REGULAR:
        return ()
    for g in d.groups:  # loops, not generators: a chow ends most hands' check at once
        if g.kind is not GroupKind.PUNG:
            return ()
    for m in r.melds:
        if m.kind is MeldKind.CHOW:
            return ()
    return (Found(f"four pungs/kongs and a pair of {d.pair}"),)


def golden_wait(r: Reading) -> tuple[Found, ...]:
    """004 Table 4 no 4: all four sets declared (pungs or kongs), one tile stood alone and
    the winning tile paired it (000 "Fishing for the Golden Hook")."""
    if len(r.melds) != 4 or any(m.kind is MeldKind.CHOW for m in r.melds):
        return ()
    return (Found(f"four sets laid down, {r.win} stood alone and {r.win} paired it"),)


_SUIT_SPANS = tuple((s, s.offset, s.offset + s.size) for s in Suit)
_SPAN_OF = tuple((t.suit.offset, t.suit.offset + t.suit.size) for t in TILES)


def one_suit(r: Reading) -> tuple[Found, ...]:
    """004 Table 4 no 5: every tile of the hand is of one suit (003 "Pure Suit")."""
    counts = r.counts
    # the winning tile is in the hand, so one suit can only be its suit: one sum of that
    # suit's counts against the hand's (most hands hold two suits and end here)
    lo, hi = _SPAN_OF[r.win]
    if counts[r.win] and sum(counts[lo:hi]) != sum(counts):
        return ()
    suits = [s for s, lo, hi in _SUIT_SPANS if any(counts[lo:hi])]
    if len(suits) != 1:
        return ()
    (suit,) = suits
    return (Found(f"every tile is {SUIT_NAMES[suit]} ({suit})"),)


def seven_pairs(r: Reading) -> tuple[Found, ...]:
    """004 Table 4 no 6: seven pairs (four identical tiles are two pairs, and a root)."""
    d = r.decomposition
    if d.shape is not Shape.SEVEN_PAIRS:
        return ()
    return (Found(" ".join(f"{t.rank}{t.rank}{t.suit}" for t in d.pairs)),)


def dragon_seven_pairs(r: Reading) -> tuple[Found, ...]:
    """000 2.8.3 / 003 A "Dragon Seven Pairs": seven pairs holding four identical tiles."""
    d = r.decomposition
    if d.shape is not Shape.SEVEN_PAIRS:
        return ()
    fours = [TILES[i] for i in range(N_KINDS) if r.counts[i] == 4]
    if not fours:
        return ()
    return (Found(f"seven pairs with four {fours[0]} among them"),)


@dataclass(frozen=True, slots=True)
class Pattern:
    feature: Feature
    detect: Detector


# Pattern name (as rule sets write it in [scoring.fans]) -> detector.
DETECTORS: dict[str, Pattern] = {
    "kong": Pattern(Feature.KONG, kongs),
    "root": Pattern(Feature.ROOT, roots),
    "all-pungs": Pattern(Feature.ALL_PUNGS, all_pungs),
    "all-triplets": Pattern(Feature.ALL_PUNGS, all_pungs),
    "golden-wait": Pattern(Feature.GOLDEN_WAIT, golden_wait),
    "golden-hook": Pattern(Feature.GOLDEN_WAIT, golden_wait),
    "full-flush": Pattern(Feature.ONE_SUIT, one_suit),
    "pure-suit": Pattern(Feature.ONE_SUIT, one_suit),
    "seven-pairs": Pattern(Feature.SEVEN_PAIRS, seven_pairs),
    "dragon-seven-pairs": Pattern(Feature.DRAGON_SEVEN_PAIRS, dragon_seven_pairs),
}
