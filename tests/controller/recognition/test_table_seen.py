"""TableSeen keeps the residue up to date as tiles move instead of working it out again at
every change: after any sequence of placements and lifts it equals the residue worked out
afresh from where the tiles lie (controller/recognition/table_seen.py)."""

from __future__ import annotations

import random

import pytest
from recog_rig import reader

from controller.profiles import TileCopy, Zone, ZoneKind
from controller.recognition.expected import expected, observed, residue
from controller.recognition.presence import TileLifted, TilePlaced
from controller.recognition.table_seen import TableSeen
from rules import ruleset
from rules.deal import Deal
from rules.seats import Seat
from rules.tiles import Tile
from rules.wall import Dice, Wall


@pytest.mark.parametrize("seed", range(8))
def test_residue_kept_up_to_date(seed: int) -> None:
    rng = random.Random(seed)
    rs = ruleset.load("sbr-mil")
    deal = Deal.start(rs, Dice(3, 4), Wall.shuffled(rs, rng).order)
    table = TableSeen(reader())
    table.new_deal(rng.choice(list(Seat)))
    table.residue(deal)  # the residue is followed from here on
    zones: list[Zone | None] = [*sorted(table.layout.watched, key=str), None]
    copies = [TileCopy(t, c) for t in sorted(set(deal.wall_order)) for c in (1, 2, 3, 4)]
    for step in range(300):
        tc = rng.choice(copies)
        zone = rng.choice(zones)
        if zone is None:
            at = table.where.get(tc)
            if at is not None:
                table.place(TileLifted(float(step), tc.tile, tc.copy, at))
        else:
            table.place(TilePlaced(float(step), tc.tile, tc.copy, zone))
        afresh = residue(observed(table.where, table.layout), expected(deal, table.layout))
        assert dict(table.residue(deal)) == dict(afresh), f"seed {seed}, step {step}"


def test_arrivals_say_when_the_tiles_beyond_the_judge_came_where_they_lie() -> None:
    """For the referee's candidates: a tile the judge does not expect in a river has the
    time it came there; a tile the judge expects (or one missing) has none."""
    rs = ruleset.load("sbr-mil")
    deal = Deal.start(rs, Dice(3, 4), Wall.shuffled(rs, random.Random(1)).order)
    table = TableSeen(reader())
    table.new_deal(Seat.E)
    river = table.layout.zone(ZoneKind.RIVER, Seat.S)
    assert river is not None
    first, later = TileCopy(deal.wall_order[0], 1), TileCopy(deal.wall_order[1], 2)
    table.place(TilePlaced(4.0, later.tile, later.copy, river))
    table.place(TilePlaced(2.5, first.tile, first.copy, river))
    arrived = table.arrivals(deal)
    if first.tile == later.tile:  # one kind: the latest copy's time
        assert arrived == {(Seat.S, "river", first.tile): 4.0}
    else:
        assert arrived == {(Seat.S, "river", first.tile): 2.5, (Seat.S, "river", later.tile): 4.0}


def test_regression_a_tile_drawn_unread_moved_when_the_wall_was_last_read() -> None:
    """10/10/2 seed 311 deal 67: the reader reads the wall for its scan only, so every wall
    tile is lifted when that reading stops. A tile drawn and discarded before the hand's
    read came to the river "moved" at the scan's end, before the last move the tiles had
    shown: no evidence of the order of the discards, and the referee entered 30 discards one
    by one. It moved when it reached the river; a tile unread in a hand keeps the time it
    left the hand (seed 313 deal 43)."""
    table = TableSeen(reader())
    table.new_deal(Seat.E)
    wall = Zone(ZoneKind.WALL, None)
    hand = table.layout.zone(ZoneKind.HAND, Seat.S)
    river = table.layout.zone(ZoneKind.RIVER, Seat.S)
    assert hand is not None and river is not None
    drawn, kept = TileCopy(Tile.parse("1m"), 4), TileCopy(Tile.parse("5p"), 2)
    for tc in (drawn, kept):
        table.place(TilePlaced(1.0, tc.tile, tc.copy, wall))
    table.place(TileLifted(6.1, drawn.tile, drawn.copy, wall))  # the scan's end
    table.place(TileLifted(6.1, kept.tile, kept.copy, wall))
    table.place(TilePlaced(6.5, kept.tile, kept.copy, hand))  # drawn and read in the hand
    table.place(TileLifted(9.0, kept.tile, kept.copy, hand))  # discarded, the river unread
    table.place(TilePlaced(11.9, drawn.tile, drawn.copy, river))  # drawn, discarded unread
    table.place(TilePlaced(12.4, kept.tile, kept.copy, river))
    assert table.moved_at() == {drawn: 11.9, kept: 9.0}
