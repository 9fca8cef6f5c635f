"""The incremental debouncer (`controller/recognition/presence.py`, issue 17) against the
straightforward one it replaced (`debounce_reference.py`: every tag stepped every round):
the same rounds in, the same changes and alerts out, and the same presence after every round.

The rounds are random and noisy on purpose: tags that move, vanish for a while and come back,
missed and repeated reads, crosstalk (weak, and within the margin), antennas that do not
report (a fault), unknown tags, and a tile copy claimed by two tags (a duplicate), under
several debounce settings."""

from __future__ import annotations

import dataclasses
import random
import types

import pytest

from controller.devices.events import TagsRead
from controller.profiles import Debounce, TagMap, TileCopy, load_reader, sim_tag_map
from controller.recognition.presence import Debouncer
from rules.tiles import TileSet
from tests.controller.debounce_reference import ReferenceDebouncer

BASE = load_reader("sim-uhf")
SETTINGS = [
    Debounce(5, 3, 3, 30),  # the shipped profile
    Debounce(3, 2, 5, 0),  # no crosstalk margin, vanish beyond the window
    Debounce(7, 4, 2, 10),
    Debounce(1, 1, 1, 30),
    Debounce(4, 3, 6, 20),
]


def _tags() -> tuple[TagMap, list[bytes]]:
    """The sim set plus a second tag for one tile copy (a duplicate)."""
    base = sim_tag_map(TileSet.SUITED_108)
    uids = sorted(base.by_uid)[:30]
    twin = bytes.fromhex("e2806894" + "ab" * 8)
    by_uid = dict(base.by_uid)
    by_uid[twin] = base.by_uid[uids[0]]  # claims uids[0]'s tile copy too
    tags = TagMap(base.header, types.MappingProxyType(by_uid), frozenset({twin}))
    strangers = [bytes.fromhex("0badcafe00000001"), bytes.fromhex("0badcafe00000002")]
    return tags, [*uids, twin, *strangers]


def _rounds(seed: int, n: int) -> list[list[TagsRead]]:
    rng = random.Random(seed)
    _, uids = _tags()
    antennas = sorted(BASE.antennas)
    where: dict[bytes, int | None] = {u: rng.choice([None, *antennas]) for u in uids}
    miss = rng.choice([0.0, 0.05, 0.2, 0.5])
    cross = rng.choice([0.0, 0.1, 0.4])
    fault = rng.choice([0.0, 0.05, 0.3])
    rounds = []
    for i in range(n):
        for u in uids:  # the world moves: a tile is put down, picked up, carried away
            r = rng.random()
            if r < 0.03:
                where[u] = rng.choice(antennas)
            elif r < 0.05:
                where[u] = None
        reads: dict[int, list[tuple[bytes, int]]] = {a: [] for a in antennas}
        for u, a in where.items():
            if a is None:
                continue
            if rng.random() >= miss:
                reads[a].append((u, rng.choice([0x5D, 0x5D, 0x5A, 0x60])))
                if rng.random() < 0.05:
                    reads[a].append((u, rng.choice([0x50, 0x5D])))  # read twice
            for other in sorted(BASE.antennas[a].neighbours):
                if rng.random() < cross:
                    reads[other].append((u, rng.choice([0x38, 0x38, 0x50, 0x5D])))
        t = float(i)
        out = []
        for a in antennas:
            if rng.random() < fault:
                continue  # this antenna did not report this round
            seen = reads[a]
            rng.shuffle(seen)
            no_rssi = rng.random() < 0.02
            out.append(
                TagsRead(
                    t, a, tuple(u for u, _ in seen), () if no_rssi else tuple(r for _, r in seen)
                )
            )
        if rng.random() < 0.02:
            out.append(TagsRead(t, 40, (uids[1],), (0x5D,)))  # an antenna the profile lacks
        rng.shuffle(out)
        rounds.append(out)
    return rounds


@pytest.mark.parametrize("seed", range(60))
def test_the_incremental_debouncer_says_what_the_reference_says(seed: int) -> None:
    reader = dataclasses.replace(BASE, debounce=SETTINGS[seed % len(SETTINGS)])
    tags, _ = _tags()
    now = [0.0]
    new = Debouncer(reader, tags, lambda: now[0])
    ref = ReferenceDebouncer(reader, tags, lambda: now[0])
    for i, reads in enumerate(_rounds(seed, 400)):
        now[0] = 1000.0 + i
        t = None if i % 3 else float(i)  # the round's time given, or from the reads/clock
        got, want = new.feed_round(reads, t), ref.feed_round(reads, t)
        assert got == want, f"round {i}"
        assert new.presence() == ref.presence(), f"round {i}"
    assert new.ignored_reads == ref.ignored_reads
    assert all(new.zone_of(tc) == ref.zone_of(tc) for tc in set(tags.by_uid.values()))


def test_a_quiet_table_steps_no_tag() -> None:
    """A table whose tags are read the same way every round: after the window fills, a
    round steps no tag (each only has its RSSI noted)."""
    tags = sim_tag_map(TileSet.SUITED_108)
    uids = sorted(tags.by_uid)[:40]
    deb = Debouncer(BASE, tags)
    reads = [TagsRead(0.0, 1 + i % 16, (u,), (0x5D,)) for i, u in enumerate(uids)]
    for _ in range(BASE.debounce.window + 1):
        deb.feed_round(reads)
    stepped = []
    step = deb._step
    deb._step = lambda *a: stepped.append(a[1]) or step(*a)  # type: ignore[method-assign]
    assert deb.feed_round(reads) == [] and stepped == []
    assert len(deb.presence()) == 40
    deb.feed_round(reads[1:])  # one tag missed: that one is stepped
    assert stepped == [uids[0]]


def test_tile_copy_of_a_twin() -> None:
    tags, uids = _tags()
    assert tags.lookup(uids[30]) == tags.lookup(uids[0]) and isinstance(
        tags.lookup(uids[0]), TileCopy
    )
