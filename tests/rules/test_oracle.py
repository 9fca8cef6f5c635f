"""The independent oracle (issue 2, item 6): the PyPI `mahjong` library must agree with this
engine on completeness and waits over 20,000+ seeded random suited hands.

Two known differences are mapped, not hidden (each is counted, and the count must be > 0,
so the mapping is really exercised):
- `mahjong` knows seven *distinct* pairs only; RULES.md counts four identical tiles as two
  pairs. A seven-pairs reading with four of a kind is therefore "ours only".
- `mahjong` answers for any count vector, so adding a fifth copy can look complete; a tile
  whose four copies the player already holds (standing + melds) is never a wait (RULES.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from rules.hand import completions, is_complete, shape_facts, waits
from rules.melds import Meld, MeldKind
from rules.tiles import TILES

Agari = pytest.importorskip("mahjong.agari").Agari

N_HANDS = 20_000
SEED = 20160417  # any fixed seed: the corpus is the same on every run
SUITED = range(27)


def _held_ok(held: list[int], tiles: list[int]) -> bool:
    return all(held[t] + tiles.count(t) <= 4 for t in tiles)


def _random_set(rng: random.Random, suits: list[int]) -> list[int]:
    base = 9 * rng.choice(suits)
    if rng.random() < 0.5:
        start = base + rng.randrange(7)
        return [start, start + 1, start + 2]
    return [base + rng.randrange(9)] * 3


@dataclass
class Case:
    counts: list[int]  # 14 - 3 * len(melds) standing tiles
    melds: tuple[Meld, ...] = field(default=())


def make_case(rng: random.Random) -> Case:
    """A near-complete hand: sets + pair (or seven pairs), some pungs/kongs melded, then
    perturbed (one tile swapped) a third of the time."""
    suits = rng.sample([0, 1, 2], rng.choice([1, 1, 2, 2, 3]))  # flushes give many waits
    held = [0] * 34
    counts = [0] * 34
    melds: list[Meld] = []
    if rng.random() < 0.2:  # seven pairs, sometimes with four of a kind
        while sum(counts) < 14:
            t = 9 * rng.choice(suits) + rng.randrange(9)
            if counts[t] <= 2:
                counts[t] += 2
                held[t] += 2
    else:
        n_melds = rng.choice([0, 0, 0, 1, 2, 3, 4])
        while len(melds) + sum(counts) // 3 < 4:
            tiles = _random_set(rng, suits)
            if not _held_ok(held, tiles):
                continue
            if len(melds) < n_melds and tiles[0] == tiles[1]:
                kind = rng.choice([MeldKind.PUNG, MeldKind.KONG, MeldKind.CONCEALED_KONG])
                meld = Meld(kind, TILES[tiles[0]])
                if not _held_ok(held, list(meld.tiles)):
                    continue
                melds.append(meld)
                tiles = list(meld.tiles)
            else:
                for t in tiles:
                    counts[t] += 1
            for t in tiles:
                held[t] += 1
        pair = rng.choice([t for t in SUITED if held[t] <= 2 and t // 9 in suits])
        counts[pair] += 2
        held[pair] += 2
    if rng.random() < 0.33:  # perturb: swap one standing tile for another
        out = rng.choice([t for t in SUITED if counts[t]])
        counts[out] -= 1
        held[out] -= 1
        into = rng.choice([t for t in SUITED if held[t] < 4])
        counts[into] += 1
    return Case(counts, tuple(melds))


def lib_waits(counts: list[int], melds: tuple[Meld, ...]) -> set[int]:
    """Waits by `mahjong`: every suited tile whose addition `Agari.is_agari` accepts (the
    standing part alone: the library reads it as sets + a pair, whatever the meld count),
    minus tiles already held four times."""
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    found = set()
    for t in SUITED:
        counts[t] += 1
        if Agari.is_agari(counts):
            found.add(t)
        counts[t] -= 1
    return {t for t in found if held[t] < 4}


def test_mahjong_library_agrees_on_completeness_and_waits() -> None:
    rng = random.Random(SEED)
    stats = dict.fromkeys(
        ("complete", "ready", "waits", "quad_seven_pairs", "fifth_copy", "held_by_meld"), 0
    )
    for _ in range(N_HANDS):
        case = make_case(rng)
        counts, melds = case.counts, case.melds
        # completeness of the 14-tile hand
        facts = shape_facts(counts, melds)
        ours = is_complete(counts, len(melds))
        assert ours == facts.complete
        quad = 4 in counts
        expected_lib = facts.regular or (facts.seven_pairs and not quad)
        assert Agari.is_agari(counts) == expected_lib, (counts, melds)
        stats["complete"] += ours
        stats["quad_seven_pairs"] += facts.seven_pairs and quad and not facts.regular
        # waits of the 13-tile hand left after taking out one tile
        t_out = rng.choice([t for t in SUITED if counts[t]])
        counts[t_out] -= 1
        found = waits(counts, melds)
        lib = lib_waits(counts, melds)
        expected = set()
        for comp in completions(counts, melds):
            counts[comp.tile] += 1
            if comp.facts.regular or 4 not in counts:  # seven distinct pairs only
                expected.add(int(comp.tile))
            counts[comp.tile] -= 1
        assert lib == expected, (counts, melds, found)
        assert {int(t) for t in found} >= expected
        stats["ready"] += bool(found)
        stats["waits"] += len(found)
        for t in SUITED:  # the library's raw answer on tiles we exclude as "held 4 times"
            if counts[t] == 4 or (counts[t] and any(m.tile == t for m in melds)):
                counts[t] += 1
                if Agari.is_agari(counts):
                    stats["fifth_copy" if counts[t] == 5 else "held_by_meld"] += 1
                counts[t] -= 1
    # the corpus is rich enough, and both mapped differences really occur in it
    assert stats["complete"] > N_HANDS // 3, stats
    assert stats["ready"] > N_HANDS // 2, stats
    assert stats["quad_seven_pairs"] > 50, stats
    assert stats["fifth_copy"] + stats["held_by_meld"] > 50, stats
