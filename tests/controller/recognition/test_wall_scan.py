"""The wall order from the wall antenna (controller/recognition/wall_scan.py): tiles cross
its field single-file, each read for `linger` rounds; missed reads at either end of a stay
must not reorder neighbours (hand-worked reads), and the scan completes only when every
copy was seen and the field is empty."""

from __future__ import annotations

import random

from recog_rig import reader

from controller.alerts import AlertKind
from controller.devices.events import TagsRead
from controller.profiles import TileCopy, sim_tag_map, sim_tag_uid
from controller.recognition.recogniser import Recogniser, WallScanned
from controller.recognition.wall_scan import WallScan
from rules import ruleset
from rules.seats import Seat
from rules.tiles import TileSet

TAGS = sim_tag_map(TileSet.SUITED_108)
COPIES = [TileCopy(t, c) for t in TileSet.SUITED_108.kinds for c in range(1, 5)]


def reads(order, linger=5, missed=frozenset()):
    """Round r reads the tiles that entered in rounds r-linger+1..r, minus (tile, r) misses."""
    out = []
    for r in range(len(order) + linger):
        field = [order[i] for i in range(max(0, r - linger + 1), min(len(order), r + 1))]
        uids = tuple(sim_tag_uid(tc) for tc in field if (tc, r) not in missed)
        out.append(TagsRead(float(r), 17, uids))
    return out


def scan_of(order, **kw) -> WallScan:
    scan = WallScan(reader(), TAGS)
    for read in reads(order, **kw):
        scan.feed(read)
    return scan


def test_clean_reads_give_the_build_order() -> None:
    order = COPIES[:]
    random.Random(1).shuffle(order)
    scan = scan_of(order)
    assert scan.complete and scan.order() == tuple(order)


def test_a_tile_missed_on_its_first_two_rounds_keeps_its_place() -> None:
    order = COPIES[:]
    # tile 10 entered in round 10 but was read first in round 12: sorting by first sightings
    # alone would put it after tiles 11 and 12; its last sighting (round 14) places it
    scan = scan_of(order, missed={(order[10], 10), (order[10], 11)})
    assert scan.order() == tuple(order)


def test_a_tile_missed_on_its_last_round_keeps_its_place() -> None:
    order = COPIES[:]
    scan = scan_of(order, missed={(order[20], 24), (order[21], 21)})
    assert scan.order() == tuple(order)


def test_the_recogniser_says_wall_scanned_when_the_field_is_clear() -> None:
    rs = ruleset.load("sbr-mil")
    rec = Recogniser(rs, reader(), TAGS)
    rec.new_deal(Seat.E)
    order = COPIES[::-1]
    out = []
    all_reads = reads(order)
    for read in all_reads[:-1]:
        out += rec.on_wall_read(read)
    assert out == []  # the last tile is still in the field
    (done,) = rec.on_wall_read(TagsRead(999.0, 17, ()))
    assert isinstance(done, WallScanned) and done.order == tuple(order)
    assert rec.on_wall_read(TagsRead(1000.0, 17, ())) == []  # once


def test_a_foreign_tag_is_reported_and_an_incomplete_scan_is_not_complete() -> None:
    rec = Recogniser(ruleset.load("sbr-mil"), reader(), TAGS)
    rec.new_deal(Seat.E)
    foreign = bytes.fromhex("e280689400000000deadbeef")
    got = rec.on_wall_read(TagsRead(0.0, 17, (foreign, sim_tag_uid(COPIES[0]))))
    assert [a.kind for a in got] == [AlertKind.UNKNOWN_TAG]
    scan = WallScan(reader(), TAGS)
    scan.feed(TagsRead(0.0, 17, (sim_tag_uid(COPIES[0]),)))
    assert scan.feed(TagsRead(1.0, 17, ())) == []
    assert not scan.complete and len(scan.order()) == 1


def test_neighbours_read_in_the_same_rounds_are_marked_uncertain() -> None:
    order = COPIES[:]
    # tile 30 missed on its first round, tile 31 on its last: both read in rounds 31..34
    scan = scan_of(order, missed={(order[30], 30), (order[31], 35)})
    assert scan.uncertain() == (30,)
    assert scan_of(order).uncertain() == ()


def test_regression_the_wall_order_was_worked_out_at_every_look_at_the_table() -> None:
    # the dealt-hands check asks for the order at every look at the table of a deal in
    # play; worked out afresh each time (quadratic in the tiles) it took ~6 % of a core of
    # the daemon in real-time play. It is kept until the next read of a wall antenna, and
    # that read's order is the one worked out from all reads so far.
    order = COPIES[:]
    random.Random(2).shuffle(order)
    all_reads = reads(order)
    scan = WallScan(reader(), TAGS)
    for read in all_reads[:60]:
        scan.feed(read)
    partial = scan.order()
    assert scan.order() is partial  # kept, not worked out again
    assert partial == tuple(order[: len(partial)])
    for read in all_reads[60:]:
        scan.feed(read)
    assert scan.order() == tuple(order) != partial  # the reads since were taken in
    scan.reset()
    assert scan.order() == ()
