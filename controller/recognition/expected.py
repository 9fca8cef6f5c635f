"""What the table should look like: the tiles every watched zone holds according to the deal
judge, and the difference (the residue) between that and what the reader sees.

The physical convention is tools/sim/player.py (module docstring): standing tiles lie in the
hand zone, the face-down void tile (定缺) in the void zone until it is discarded, discards in
the river until claimed, declared melds in the melds zone. After a Hu on a discard (or a
robbed kong) the first Hu declarer counted counter-clockwise from the discarder takes the
tile into the hand zone; the judge does not add it to any hand, so it is added here. A seat
that is out keeps its hand (face down) in its hand zone. At a table whose only declarations
are the tiles (`Layout.open_hands`, issue 18) a Hu is shown by laying the hand open in the
melds zone: a winner's hand, and the tile taken, lie there.

Zones the reader does not watch are left out: tiles there are invisible, so a table without
a melds or void antenna still works, with less evidence. The wall-scan zone is never part of
the comparison (tiles only cross it while the walls are built).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from controller.profiles import DeclarationSource, ReaderProfile, TileCopy, Zone, ZoneKind
from rules.deal import Deal
from rules.melds import MeldKind
from rules.moves import Discard, Hu, Kong, RobKong
from rules.seats import SEATS, Seat
from rules.tiles import TILES, Tile

ADDED_KONGS = (MeldKind.PROMOTED_KONG, MeldKind.POSTPONED_KONG)  # robbable (004)


@dataclass(frozen=True, slots=True)
class Spot:
    """One tile kind in one zone: the unit of the comparison."""

    zone: Zone
    tile: Tile

    def __str__(self) -> str:
        return f"{self.zone} {self.tile}"


Tally = Counter[Spot]


class Layout:
    """Deal seats ↔ the table's physical sides, and which zones the reader watches.
    deal seat = (side - dealer_side) mod 4 (the daemon contract)."""

    __slots__ = ("dealer_side", "open_hands", "sources", "watched")

    def __init__(self, reader: ReaderProfile, dealer_side: Seat = Seat.E) -> None:
        self.dealer_side = dealer_side
        self.watched = frozenset(z for z in reader.zones if z.kind is not ZoneKind.WALL)
        self.sources = frozenset(reader.reader.declarations)
        # nothing but the tiles declares a Hu: the winner lays the hand open in the melds
        self.open_hands = self.sources == {DeclarationSource.TILES}

    def side(self, seat: Seat) -> Seat:
        return SEATS[(self.dealer_side + seat) % 4]

    def seat(self, side: Seat) -> Seat:
        return SEATS[(side - self.dealer_side) % 4]

    def zone(self, kind: ZoneKind, seat: Seat) -> Zone | None:
        """The zone of a deal seat, or None when the reader does not watch it."""
        z = Zone(kind, self.side(seat))
        return z if z in self.watched else None

    def describe(self, zone: Zone) -> str:
        """`S.river (deal W)`: the physical zone and whose it is in this deal."""
        if zone.seat is None:
            return str(zone)
        return f"{zone} (deal {self.seat(zone.seat)})"


def observed(presence: Mapping[TileCopy, Zone], layout: Layout) -> Tally:
    out: Tally = Counter()
    for tc, z in presence.items():
        if z in layout.watched:
            out[Spot(z, tc.tile)] += 1
    return out


def expected(deal: Deal, layout: Layout) -> Tally:
    out: Tally = Counter()
    shown = {w.seat for w in deal.winners} if layout.open_hands else set()
    for seat in SEATS:
        counts = list(deal.counts(seat))
        laid = deal.laid_tile(seat)
        vz = layout.zone(ZoneKind.VOID, seat)
        if laid is not None and vz is not None:
            counts[laid] -= 1
            out[Spot(vz, laid)] += 1
        hz = layout.zone(ZoneKind.HAND if seat not in shown else ZoneKind.MELDS, seat)
        if hz is not None:
            for i, n in enumerate(counts):
                if n:
                    out[Spot(hz, TILES[i])] += n
        rz = layout.zone(ZoneKind.RIVER, seat)
        if rz is not None:
            for t in deal.river(seat):
                out[Spot(rz, t)] += 1
        mz = layout.zone(ZoneKind.MELDS, seat)
        if mz is not None:
            for m in deal.melds(seat):
                for t in m.tiles:
                    out[Spot(mz, t)] += 1
    for seat, tile in taken_by_winners(deal):
        hz = layout.zone(ZoneKind.MELDS if layout.open_hands else ZoneKind.HAND, seat)
        if hz is not None:
            out[Spot(hz, tile)] += 1
    return out


def taken_by_winners(deal: Deal) -> list[tuple[Seat, Tile]]:
    """The discards (and robbed kong tiles) that Hu declarers took into their hands: one per
    Hu event, by the first declarer counter-clockwise from the discarder (player.py)."""
    open_tile: Tile | None = None
    tile_of: dict[Seat, Tile | None] = {}
    for m in deal.moves:
        if isinstance(m, Discard) or (isinstance(m, Kong) and m.kind in ADDED_KONGS):
            open_tile = m.tile
        elif isinstance(m, Hu | RobKong):
            tile_of[m.seat] = open_tile
    groups: dict[int, list] = {}
    for won in deal.winners:
        if won.from_seat is not None:
            groups.setdefault(won.order, []).append(won)
    out = []
    for group in groups.values():
        frm = group[0].from_seat
        taker = min((w.seat for w in group), key=lambda s: (s - frm) % 4)
        tile = tile_of.get(taker)
        if tile is not None:
            out.append((taker, tile))
    return out


def residue(seen: Tally, want: Tally) -> Tally:
    """seen - want, keeping negative counts (tiles missing) and dropping zeros."""
    out: Tally = Counter()
    for spot in set(seen) | set(want):
        d = seen[spot] - want[spot]
        if d:
            out[spot] = d
    return out


def weight(tally: Iterable[int] | Tally) -> int:
    values = tally.values() if isinstance(tally, Counter) else tally
    return sum(abs(v) for v in values)


def fmt_tally(tally: Mapping[Spot, int]) -> str:
    """`E.hand 5p -1, E.river 5p +1`: a residue for the referee."""
    return ", ".join(f"{s} {n:+d}" for s, n in sorted(tally.items(), key=lambda kv: str(kv[0])))
