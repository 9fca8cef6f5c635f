"""`wall_doubt.dealt_swap`: the dealt hands show two neighbours of the scan the other way
round (campaign seed 200 deal 22), found copy by copy: a copy dealt to one seat lies at
another (or, while only the dealt tiles are on the table, still in the wall) and its
neighbour's copy lies where it was dealt. Anything else is not taken for a swap."""

from __future__ import annotations

import random

from controller.profiles import TileCopy
from controller.recognition.wall_doubt import dealt_swap, swapped
from rules import ruleset
from rules.deal import Deal
from rules.wall import Dice

RS = ruleset.load("sbr-mil")
DICE = Dice(3, 5)


def table(seed: int = 3):
    copies = [TileCopy(t, c) for t in RS.tiles.set.kinds for c in range(1, 5)]
    random.Random(seed).shuffle(copies)
    truth = tuple(copies)
    deal = Deal.start(RS, DICE, tuple(tc.tile for tc in truth))
    where = {truth[t.index]: t.seat for t in deal.deal_takes}  # the physical dealt hands
    return truth, where


def judged_on(scan) -> Deal:
    return Deal.start(RS, DICE, tuple(tc.tile for tc in scan))


def pair(truth, want_dealt: bool) -> int:
    deal = judged_on(truth)
    dealt = {t.index: t.seat for t in deal.deal_takes}
    for p in sorted(dealt):
        q = p + 1
        if truth[p].tile == truth[q].tile:
            continue
        if want_dealt and q in dealt and dealt[q] is not dealt[p]:
            return p
        if not want_dealt and q not in dealt:
            return p
    raise AssertionError("no such pair")


def test_two_dealt_neighbours_at_different_seats() -> None:
    truth, where = table()
    k = pair(truth, want_dealt=True)
    scan = swapped(truth, k)
    found = dealt_swap(judged_on(scan), scan, where.get, len(where))
    assert found == k


def test_a_dealt_position_and_the_live_wall_while_only_the_dealt_tiles_are_out() -> None:
    truth, where = table()
    k = pair(truth, want_dealt=False)
    scan = swapped(truth, k)
    assert dealt_swap(judged_on(scan), scan, where.get, len(where)) == k
    # a tile drawn already (a fast table): a dealt copy at no seat may be in transit
    assert dealt_swap(judged_on(scan), scan, where.get, len(where) + 1) is None


def test_the_right_scan_and_a_tile_in_transit_are_no_swap() -> None:
    truth, where = table()
    deal = judged_on(truth)
    assert dealt_swap(deal, truth, where.get, len(where)) is None
    lifted = dict(where)
    lifted.pop(truth[deal.deal_takes[5].index])  # one dealt tile not read yet
    assert dealt_swap(deal, truth, lifted.get, len(lifted)) is None


def test_two_far_apart_positions_are_not_a_neighbour_swap() -> None:
    truth, where = table()
    deal = judged_on(truth)
    a, b = deal.deal_takes[0].index, deal.deal_takes[20].index
    scan = list(truth)
    scan[a], scan[b] = scan[b], scan[a]
    if truth[a].tile != truth[b].tile:
        assert dealt_swap(judged_on(tuple(scan)), tuple(scan), where.get, len(where)) is None


def test_the_recogniser_says_so_once_the_dealt_hands_are_read() -> None:
    """Through the recogniser: the wall antenna reads the walls with two neighbours the
    wrong way round; the dealt tiles land where they really were dealt; `WallSwapped` comes
    once, and the hands fit the judge re-judged on that order."""
    from recog_rig import reader

    from controller.devices.events import TagsRead
    from controller.profiles import Zone, ZoneKind
    from controller.recognition.presence import TilePlaced
    from controller.recognition.recogniser import HandsDealt, Recogniser, WallSwapped
    from controller.tag_maps import sim_tag_map, sim_tag_uid
    from rules.seats import Seat

    truth, _ = table()
    k = pair(truth, want_dealt=True)
    scan = swapped(truth, k)
    prof = reader()
    wall = next(a.number for a in prof.antennas.values() if a.zone.kind is ZoneKind.WALL)
    rec = Recogniser(RS, prof, sim_tag_map(RS.tiles.set))
    rec.new_deal(Seat.E)
    said, t = [], 0.0
    for tc in scan:  # single file past the wall antenna, a round each
        t += 0.05
        said += rec.on_wall_read(TagsRead(t, wall, (sim_tag_uid(tc),)))
    said += rec.on_wall_read(TagsRead(t + 0.05, wall, ()))
    deal = judged_on(scan)
    said += rec.start_deal(deal)
    for take in Deal.start(RS, DICE, tuple(tc.tile for tc in truth)).deal_takes:
        tc = truth[take.index]
        t += 0.01
        change = TilePlaced(t, tc.tile, tc.copy, Zone(ZoneKind.HAND, take.seat))
        said += rec.on_presence(change, deal)
    swaps = [r for r in said if isinstance(r, WallSwapped)]
    assert [s.index for s in swaps] == [k]
    fixed = Deal.replay(RS, DICE, tuple(tc.tile for tc in truth), deal.history)
    assert any(isinstance(r, HandsDealt) for r in rec.tick(t + 0.1, fixed))
