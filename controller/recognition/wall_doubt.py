"""Wall positions the scan could not order (`WallScanned.uncertain`, docs/RECOGNITION.md "The
wall scan"): a draw the judge refuses as WALL_MISMATCH is tried again on the wall with such
a pair swapped, since the physical order of those two tiles is unknown.

A pair is (i, i + 1) in physical order: the scan read tiles i and i + 1 in exactly the same
wall-antenna rounds. Live draws take i before i + 1 (clockwise, top before bottom); kong
replacements from the tail take i + 1 first. A swap is only possible while both tiles are
still in the wall: a tile already taken showed which one lay there. The judge is re-judged
from its whole history on the swapped wall (`Deal.replay`), so nothing it accepted changes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from controller.profiles import TileCopy
from rules.deal import Deal
from rules.moves import Draw, ReplacementDraw
from rules.seats import Seat


@dataclass(frozen=True, slots=True)
class WallSwap:
    """The judge re-judged on the wall with positions `index` and `index + 1` swapped."""

    index: int
    deal: Deal


def pair_of(index: int | None, uncertain: Collection[int]) -> int | None:
    """The uncertain pair (its first index) that holds wall position `index`, if any."""
    if index is None:
        return None
    if index in uncertain:
        return index
    return index - 1 if index - 1 in uncertain else None


def next_index(deal: Deal, move: Draw | ReplacementDraw) -> int | None:
    w = deal.wall
    return w.next_index() if isinstance(move, Draw) else w.next_replacement_index()


def swapped(order: tuple, index: int) -> tuple:
    out = list(order)
    out[index], out[index + 1] = out[index + 1], out[index]
    return tuple(out)


def swap_for(
    deal: Deal, uncertain: Collection[int], move: Draw | ReplacementDraw
) -> WallSwap | None:
    """The re-judged deal on which `move` is accepted, when the tile it names lies in the
    other position of an uncertain pair holding the position it is drawn from; else None.

    The pair the draw comes from is always in doubt, marked or not: a scan misorders two
    neighbours whenever one of them was read once less than the scan could tell (issue 13
    item 6: positions 106 and 107 swapped with no doubt recorded lost a deal). A live draw
    takes i before i + 1, a replacement from the tail i + 1 before i."""
    index = next_index(deal, move)
    i = pair_of(index, uncertain)
    if i is None and index is not None:
        i = index if isinstance(move, Draw) else index - 1
    if i is None or i < 0 or move.tile is None:
        return None
    left = set(deal.wall.remaining())
    if i not in left or i + 1 not in left or deal.wall_order[i] == deal.wall_order[i + 1]:
        return None
    try:
        alt = Deal.replay(
            deal.rs, deal.dice, swapped(deal.wall_order, i), deal.history, prevalent=deal.prevalent
        )
    except ValueError:
        return None  # an accepted move does not fit the swapped wall
    return WallSwap(i, alt) if alt.check(move) is None else None


def dealt_swap(
    deal: Deal,
    order: Sequence[TileCopy],
    seat_of: Callable[[TileCopy], Seat | None],
    on_table: int,
) -> int | None:
    """The pair (i, i + 1) of the scan that the dealt hands show the other way round, if
    exactly one explains every dealt copy that lies elsewhere; else None.

    `order`: the scanned tile copies in physical order; `seat_of(copy)`: the deal seat whose
    zones hold that copy (None: no seat's, so in the wall or not read); `on_table`: tile
    copies in all seats' zones. A dealt copy lying at no seat is only taken as still in the
    wall while exactly the dealt tiles are on the table (no draw yet: a tile in transit, or
    a live tile drawn at a fast table, must not pass for a swap)."""
    takes = deal.deal_takes
    if len(order) != len(deal.wall_order) or not takes:
        return None
    dealt = {t.index: t.seat for t in takes}
    wrong = [p for p, s in dealt.items() if seat_of(order[p]) is not s]
    if not 1 <= len(wrong) <= 2:
        return None
    for p in wrong:
        for q in (p - 1, p + 1):
            if not 0 <= q < len(order) or order[p].tile == order[q].tile:
                continue
            if set(wrong) - {p, q}:
                continue
            if seat_of(order[q]) is not dealt[p] or seat_of(order[p]) is not dealt.get(q):
                continue
            if q not in dealt and on_table != len(takes):
                continue
            return min(p, q)
    return None
