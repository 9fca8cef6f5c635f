"""TableSeen keeps the residue up to date as tiles move instead of working it out again at
every change: after any sequence of placements and lifts it equals the residue worked out
afresh from where the tiles lie (controller/recognition/table_seen.py)."""

from __future__ import annotations

import random

import pytest
from recog_rig import reader

from controller.profiles import TileCopy, Zone
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
