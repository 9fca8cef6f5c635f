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
