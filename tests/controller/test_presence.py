"""The tag debouncer: exact change sequences from scripted inventory rounds, and a property
test with missed reads and crosstalk (sim-uhf profile: window 5, appear 3, vanish 3)."""

from __future__ import annotations

import dataclasses
import random
import types
from collections.abc import Sequence

from hypothesis import given, settings, strategies as st

from controller.devices.events import TagsRead
from controller.profiles import TagMap, TileCopy, load_reader, sim_tag_map, sim_tag_uid
from controller.recognition.presence import (
    Debouncer,
    DuplicateTile,
    PresenceChange,
    TileLifted,
    TilePlaced,
    UnknownTag,
    Zone,
    ZoneKind,
)
from rules.seats import Seat
from rules.tiles import Tile, TileSet
from tools.sim.noise import CROSSTALK_RSSI, OWN_RSSI

READER = load_reader("sim-uhf")
TAGS = sim_tag_map(TileSet.SUITED_108)
P5 = TileCopy(Tile.P5, 2)
U = sim_tag_uid(P5)
E_HAND, E_RIVER = Zone(ZoneKind.HAND, Seat.E), Zone(ZoneKind.RIVER, Seat.E)
STRANGER = bytes.fromhex("0102030405060708")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def rnd(t: float, reads: dict[int, Sequence[tuple[bytes, int]]]) -> list[TagsRead]:
    """One inventory round over all 17 antennas; `reads` maps antenna → (uid, rssi)."""
    out = []
    for antenna in range(1, 18):
        seen = reads.get(antenna, ())
        out.append(TagsRead(t, antenna, tuple(u for u, _ in seen), tuple(r for _, r in seen)))
    return out


def run(deb: Debouncer, rounds: list[dict[int, Sequence[tuple[bytes, int]]]]) -> list[list]:
    return [deb.feed_round(rnd(float(i), r)) for i, r in enumerate(rounds)]


def test_appears_after_k_of_n_and_survives_single_misses() -> None:
    deb = Debouncer(READER, TAGS, Clock())
    seen = {1: [(U, 60)]}
    out = run(deb, [seen, {}, seen, seen, {}, {}, seen, {}, {}, {}])
    assert out == [
        [],
        [],
        [],
        [TilePlaced(3.0, Tile.P5, 2, E_HAND)],  # rounds 0, 2, 3: three of the last five
        [],
        [],  # two misses in a row: still there
        [],
        [],
        [],
        [TileLifted(9.0, Tile.P5, 2, E_HAND)],  # third miss in a row
    ]
    assert deb.presence() == {}


def test_coming_back_needs_fresh_reads() -> None:
    deb = Debouncer(READER, TAGS, Clock())
    seen = {1: [(U, 60)]}
    out = run(deb, [seen] * 5 + [{}] * 3 + [seen] * 3)
    assert [type(c).__name__ for r in out for c in r] == ["TilePlaced", "TileLifted", "TilePlaced"]
    assert out[10] == [TilePlaced(10.0, Tile.P5, 2, E_HAND)]  # not at 8: the window was cleared


def test_crosstalk_by_rssi_never_shows_the_neighbour() -> None:
    deb = Debouncer(READER, TAGS, Clock())
    both = {1: [(U, 70)], 2: [(U, 30)]}  # antenna 2 (E river) neighbours 1 (E hand)
    only_neighbour = {2: [(U, 30)]}
    out = run(deb, [both, both, both, only_neighbour, only_neighbour, both, both])
    changes = [c for r in out for c in r]
    assert changes == [TilePlaced(2.0, Tile.P5, 2, E_HAND)]


def test_crosstalk_without_rssi_goes_to_the_antenna_that_reads_most_often() -> None:
    deb = Debouncer(READER, TAGS, Clock())
    both = {1: [(U, 0)], 2: [(U, 0)]}
    main = {1: [(U, 0)]}
    out = run(deb, [main, both, main, both, both, both])
    assert [c for r in out for c in r] == [TilePlaced(2.0, Tile.P5, 2, E_HAND)]


def test_a_move_is_lifted_then_placed_in_one_round() -> None:
    deb = Debouncer(READER, TAGS, Clock())
    hand, river = {1: [(U, 60)]}, {2: [(U, 60)]}
    out = run(deb, [hand] * 4 + [river] * 4)
    assert out[6] == [TileLifted(6.0, Tile.P5, 2, E_HAND), TilePlaced(6.0, Tile.P5, 2, E_RIVER)]
    assert [c for i, r in enumerate(out) if i != 6 and i != 2 for c in r] == []
    assert deb.zone_of(P5) == E_RIVER


def test_seed_707_deal_4_covered_hand_tile_is_not_moved_by_crosstalk() -> None:
    """Seed 707 deal 4: 1m#2 lay in S's hand all along; S's hand antenna (5) lost it for
    eight rounds while S's river antenna (6) read it by crosstalk (the simulator's weaker
    RSSI), and the debouncer moved it to the river: a discard that never happened. Now the
    weak reads keep it for a window, then it is missing (lifted), and it comes back to the
    hand."""
    m1 = TileCopy(Tile.M1, 2)
    uid = sim_tag_uid(m1)
    s_hand, s_river = Zone(ZoneKind.HAND, Seat.S), Zone(ZoneKind.RIVER, Seat.S)
    deb = Debouncer(READER, TAGS, Clock())
    in_hand = {5: [(uid, OWN_RSSI)]}
    covered = {6: [(uid, CROSSTALK_RSSI)]}  # antenna 5 reports, without the tag
    out = run(deb, [in_hand] * 5 + [covered] * 8 + [in_hand] * 5)
    changes = [c for r in out for c in r]
    assert changes == [
        TilePlaced(2.0, Tile.M1, 2, s_hand),
        TileLifted(9.0, Tile.M1, 2, s_hand),  # five rounds (the window) of crosstalk alone
        TilePlaced(15.0, Tile.M1, 2, s_hand),  # three fresh reads in the hand
    ]
    assert not any(isinstance(c, TilePlaced) and c.zone == s_river for c in changes)
    assert deb.presence() == {m1: s_hand}


def test_a_real_move_reads_at_full_strength_in_its_new_zone() -> None:
    deb = Debouncer(READER, TAGS, Clock())
    hand, river = {1: [(U, OWN_RSSI)]}, {2: [(U, OWN_RSSI - 20)]}  # a weaker antenna: within
    out = run(deb, [hand] * 4 + [river] * 4)
    assert out[6] == [TileLifted(6.0, Tile.P5, 2, E_HAND), TilePlaced(6.0, Tile.P5, 2, E_RIVER)]


def test_weak_reads_alone_never_place_a_tag_that_has_an_own_zone() -> None:
    deb = Debouncer(READER, TAGS, Clock())
    out = run(deb, [{1: [(U, 90)]}] * 4 + [{2: [(U, 40)]}] * 30)
    assert [c for r in out for c in r] == [
        TilePlaced(2.0, Tile.P5, 2, E_HAND),
        TileLifted(8.0, Tile.P5, 2, E_HAND),
    ]
    assert deb.presence() == {}


def test_the_own_rssi_is_forgotten_after_a_window_unread() -> None:
    """A tile lies unread in the built wall, then is drawn: its hand antenna may read it
    weaker than the wall antenna did, and it is placed all the same."""
    wall = Zone(ZoneKind.WALL)
    deb = Debouncer(READER, TAGS, Clock())
    out = run(deb, [{17: [(U, 120)]}] * 3 + [{}] * (3 + N) + [{1: [(U, 50)]}] * 3)
    assert [c for r in out for c in r] == [
        TilePlaced(2.0, Tile.P5, 2, wall),
        TileLifted(5.0, Tile.P5, 2, wall),
        TilePlaced(13.0, Tile.P5, 2, E_HAND),
    ]


def test_a_margin_of_zero_lets_crosstalk_count() -> None:
    reader = dataclasses.replace(
        READER, debounce=dataclasses.replace(READER.debounce, crosstalk_margin=0)
    )
    deb = Debouncer(reader, TAGS, Clock())
    out = run(deb, [{1: [(U, 90)]}] * 4 + [{2: [(U, 40)]}] * 3)
    assert out[6] == [TileLifted(6.0, Tile.P5, 2, E_HAND), TilePlaced(6.0, Tile.P5, 2, E_RIVER)]


def test_unknown_tag_alerts_once() -> None:
    deb = Debouncer(READER, TAGS, Clock())
    out = run(deb, [{3: [(STRANGER, 40)]}] * 4)
    assert out == [[UnknownTag(0.0, STRANGER)], [], [], []]
    assert deb.presence() == {}


def test_duplicate_tile_copy_alerts_and_is_not_placed_twice() -> None:
    twin = bytes.fromhex("e2806894ffffffffffffffff")
    tags = TagMap(TAGS.header, types.MappingProxyType({**TAGS.by_uid, twin: P5}), frozenset({twin}))
    deb = Debouncer(READER, tags, Clock())
    both = {1: [(U, 60)], 5: [(twin, 60)]}  # antenna 5: S hand
    out = run(deb, [both] * 4 + [{5: [(twin, 60)]}] * 3)
    # round 2: both reach three reads; the first tag takes the tile, the twin is an alert
    assert out[2] == [
        DuplicateTile(2.0, Tile.P5, 2, (U, twin)),
        TilePlaced(2.0, Tile.P5, 2, E_HAND),
    ]
    assert out[3] == out[4] == out[5] == []
    # the first tag leaves (three missed rounds); then the twin is the tile's only tag
    assert out[6] == [
        TileLifted(6.0, Tile.P5, 2, E_HAND),
        TilePlaced(6.0, Tile.P5, 2, Zone(ZoneKind.HAND, Seat.S)),
    ]


def test_an_antenna_that_did_not_report_counts_no_misses() -> None:
    deb = Debouncer(READER, TAGS, Clock())
    run(deb, [{1: [(U, 60)]}] * 3)
    for i in range(5):  # antenna 1 silent (fault): rounds from the other antennas only
        assert deb.feed_round([r for r in rnd(float(10 + i), {}) if r.antenna != 1]) == []
    assert deb.presence() == {P5: E_HAND}


def test_round_times_and_unknown_antennas() -> None:
    deb = Debouncer(READER, TAGS, Clock())
    deb.observe(TagsRead(1.0, 99, (U,)))  # not in the profile: ignored
    assert deb.ignored_reads == 1
    for _ in range(3):
        deb.observe(TagsRead(7.0, 1, (U,), (50,)))
        out = deb.end_round()  # the round's time: its last read
    assert out == [TilePlaced(7.0, Tile.P5, 2, E_HAND)]
    for i in range(3):
        deb.observe(TagsRead(8.0, 1, ()))  # antenna 1 reported, without the tag
        out = deb.end_round(t=20.0 + i)  # or the time the caller gives
    assert out == [TileLifted(22.0, Tile.P5, 2, E_HAND)]


# ---- property: noise, crosstalk, moves


N, K, M = READER.debounce.window, READER.debounce.appear, READER.debounce.vanish
TILES = [TileCopy(Tile(i * 3), c) for i in range(4) for c in (1, 2)]


def final_phase_misses(rng: random.Random, p: float, length: int) -> list[bool]:
    """Missed reads at rate p, repaired so that every window of N rounds still has K reads
    and no M misses run together: the bound under which the debouncer promises the truth."""
    misses: list[bool] = []
    for i in range(length):
        miss = rng.random() < p
        window = misses[max(0, i - N + 1) :]
        run_len = next((j for j, m in enumerate(reversed(misses)) if not m), len(misses))
        if miss and (sum(window) + 1 > N - K or run_len + 1 >= M):
            miss = False
        misses.append(miss)
    return misses


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    p=st.floats(0.0, 0.4),
    q=st.floats(0.0, 0.6),
    phases=st.integers(1, 4),
)
def test_settles_to_the_truth_and_never_in_two_zones(
    seed: int, p: float, q: float, phases: int
) -> None:
    rng = random.Random(seed)
    deb = Debouncer(READER, TAGS, Clock())
    placed: dict[TileCopy, Zone] = {}
    t = 0.0
    truth: dict[TileCopy, int | None] = {}
    for phase in range(phases):
        final = phase == phases - 1
        truth = {tc: rng.choice([None, *range(1, 18)]) for tc in TILES}
        length = N + M + rng.randrange(6)
        misses = {
            tc: final_phase_misses(rng, p, length)
            if final
            else [rng.random() < p for _ in range(length)]
            for tc in TILES
        }
        for i in range(length):
            reads: dict[int, list[tuple[bytes, int]]] = {}
            for tc, antenna in truth.items():
                if antenna is None:
                    continue
                uid = sim_tag_uid(tc)
                if not misses[tc][i]:
                    reads.setdefault(antenna, []).append((uid, rng.randrange(60, 90)))
                for other in READER.antennas[antenna].neighbours:
                    if rng.random() < q:  # crosstalk: weaker than the tag's own antenna
                        reads.setdefault(other, []).append((uid, rng.randrange(10, 60)))
            t += 1.0
            changes: list[PresenceChange] = [
                c for c in deb.feed_round(rnd(t, reads)) if isinstance(c, TilePlaced | TileLifted)
            ]
            for c in changes:
                tc = TileCopy(c.tile, c.copy)
                if isinstance(c, TilePlaced):
                    assert tc not in placed, f"{tc} placed in {c.zone} while in {placed.get(tc)}"
                    placed[tc] = c.zone
                else:
                    assert placed.pop(tc) == c.zone
            assert dict(deb.presence()) == placed
    expected = {tc: READER.zone_of(a) for tc, a in truth.items() if a is not None}
    assert placed == expected
