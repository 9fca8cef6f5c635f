"""The table as the reader shows it in one deal: where each tile copy lies, tallied over the
watched zones, its difference from the judge (the residue, kept up to date as tiles move),
which hand and river tiles came from the wall with no draw of them judged yet, and the recent
changes kept as evidence."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from controller.locale import Said
from controller.profiles import ReaderProfile, TileCopy, Zone, ZoneKind
from controller.recognition.alert_said import tile_changed
from controller.recognition.expected import Layout, Spot, Tally, expected, observed, residue
from controller.recognition.presence import TileLifted, TilePlaced
from rules.deal import Deal
from rules.seats import Seat
from rules.tiles import Tile

NOTES_KEPT = 64  # recent changes kept as evidence

JudgeKey = tuple[int, int]  # the judge's state: the deal's id and the moves in its history


def judge_key(deal: Deal) -> JudgeKey:
    return (id(deal), len(deal.history))


class TableSeen:
    """Where the reader last saw each tile copy, and what that says beside the judge."""

    def __init__(self, reader: ReaderProfile) -> None:
        self.reader = reader
        self.layout = Layout(reader, Seat.E)
        self.where: dict[TileCopy, Zone] = {}
        self.seen: Tally = Counter()  # `where` tallied over the watched zones
        # off the wall, and no draw of it taken by the judge yet: read first on a zone beside
        # the hand (crosstalk), it is still new when it reaches the hand or the river
        self.new: set[TileCopy] = set()
        self._last_zone: dict[TileCopy, Zone] = {}  # kept when a tile is lifted
        self._since: dict[TileCopy, float] = {}  # when each tile reached the zone it lies in
        self._left: dict[TileCopy, tuple[Zone, float]] = {}  # the zone a tile last left, when
        # a tile lifted from the zone it lay in: the zone it had left to come there (read
        # again there, it had not moved, and came from there as before)
        self._came: dict[TileCopy, tuple[Zone, float] | None] = {}
        self._forget_deal()

    def _forget_deal(self) -> None:
        self._notes: list[tuple[Spot, Said]] = []
        self._res_for: JudgeKey | None = None  # the judge state `_res` is against
        self._res: Tally = Counter()

    def new_deal(self, dealer_side: Seat) -> None:
        """A shuffle: seats from the new dealer's side; every tile comes from the machine
        again."""
        self.layout = Layout(self.reader, dealer_side)
        self.seen = observed(self.where, self.layout)
        self._last_zone.clear()
        self.new.clear()
        self._forget_deal()

    def follow(self, layout: Layout, seen: Tally) -> None:
        """The dealt hands show the dealer at another side: seats from there
        (`wall_checks.dealer_shown`)."""
        self.layout, self.seen, self._res_for = layout, seen, None

    def reset(self, presence: Mapping[TileCopy, Zone]) -> None:
        """What the reader sees now, after a restart or a reconnection."""
        self.where = dict(presence)
        self.seen = observed(self.where, self.layout)
        self._res_for = None
        # a tile still where it was read last keeps its time; one found elsewhere has none
        self._since = {
            tc: t for tc, t in self._since.items() if self._last_zone.get(tc) == presence.get(tc)
        }
        self._left = {
            tc: zt
            for tc, zt in self._left.items()
            if tc in self._since and zt[0] != presence.get(tc)
        }
        self._came.clear()
        # a tile read now was not drawn now: where it lies is where it came from
        for tc, z in presence.items():
            self._last_zone.setdefault(tc, z)
        self.new &= presence.keys()

    def dealt(self) -> None:
        """The hands hold their dealt tiles: none is fresh, and the dealing is no evidence."""
        self.new.clear()
        self._notes.clear()

    def drawn(self, seat: Seat, tile: Tile | None) -> None:
        """The judge accepted `seat`'s draw of `tile`: the tiles in its hand are no longer
        new, unless the tile drawn is a new one in its river (it went straight on there; a
        tile in the hand then is a later draw)."""
        rz = self.layout.zone(ZoneKind.RIVER, seat)
        went = next((tc for tc in self.new if tc.tile == tile and self.where.get(tc) == rz), None)
        if went is not None:
            self.new.discard(went)
            return
        hz = self.layout.zone(ZoneKind.HAND, seat)
        # (by where it was read last: a copy lifted just now is as much that draw's)
        self.new = {tc for tc in self.new if self._last_zone.get(tc) != hz}

    @property
    def fresh(self) -> set[TileCopy]:
        """The new copies in a hand: drawn, the draw not judged yet."""
        return {tc for tc in self.new if (z := self.where.get(tc)) and z.kind is ZoneKind.HAND}

    @property
    def straight(self) -> set[TileCopy]:
        """The new copies in a river: drawn and discarded, the hand's stay unread."""
        return {tc for tc in self.new if (z := self.where.get(tc)) and z.kind is ZoneKind.RIVER}

    def place(self, change: TilePlaced | TileLifted) -> None:
        """A tile settled in a zone or left it; the change is kept as evidence."""
        tc = TileCopy(change.tile, change.copy)
        if isinstance(change, TilePlaced):
            self._moved(tc, change.zone, change.t)
            self._put(tc, change.zone)
            prev = self._last_zone.get(tc)
            if prev is None or prev.kind is ZoneKind.WALL:
                self.new.add(tc)
            elif prev.seat != change.zone.seat:
                self.new.discard(tc)  # another seat's tile (a claim, crosstalk)
            self._last_zone[tc] = change.zone
            placed = True
        else:
            if self.where.get(tc) == change.zone:
                self._put(tc, None)
                self._came[tc] = self._left.get(tc)
                self._left[tc] = (change.zone, change.t)
            placed = False
        if change.zone in self.layout.watched:
            said = tile_changed(self.layout, change.zone, tc, placed, change.t)
            self._notes.append((Spot(change.zone, change.tile), said))
            del self._notes[:-NOTES_KEPT]

    def _moved(self, tc: TileCopy, zone: Zone, t: float) -> None:
        """The times kept for `moved_at` as `tc` is placed in `zone` at `t`."""
        prev = self.where.get(tc)
        left = self._left.pop(tc, None)
        came = self._came.pop(tc, None)
        if prev == zone or (prev is None and left is not None and left[0] == zone):
            if left is not None and prev == zone:
                self._left[tc] = left
            elif came is not None:
                self._left[tc] = came  # (a river tile read again keeps its hand's time)
            return  # read again where it was (a read missed meanwhile): it had not moved
        self._since[tc] = t
        if prev is not None:
            self._left[tc] = (prev, t)  # straight from another zone
        elif left is not None:
            self._left[tc] = left  # lifted from there, and now read here

    def _put(self, tc: TileCopy, zone: Zone | None) -> None:
        """Move a tile in `where`, keeping the tally and the residue up to date."""
        for z, step in ((self.where.get(tc), -1), (zone, 1)):
            if z is None or z not in self.layout.watched:
                continue
            spot = Spot(z, tc.tile)
            self.seen[spot] += step
            if self._res_for is not None:
                self._res[spot] += step
                if not self._res[spot]:
                    del self._res[spot]
        if zone is None:
            self.where.pop(tc, None)
        else:
            self.where[tc] = zone

    def moved_at(self) -> dict[TileCopy, float]:
        """When each tile lying in a zone moved there: when it left the zone it was in
        before, if that was read (a tile then unread for a while arrives late: 10/10/2 seed
        313 deal 43, a 2s discarded at 5.4 s was read in the river only at 42.7 s), else
        when it was read arriving. Not the wall: the reader reads it for the scan only and
        then stops, so its tiles leave it all at once, the drawn ones too long before their
        draw (10/10/2 seed 311 deal 67: a tile drawn and discarded unread in the hand moved,
        by this, at the scan's end, before the last move read; it was no evidence of the
        order of the discards, and the referee entered 30 discards one by one)."""
        out = {}
        for tc in self.where:
            t = self._since.get(tc)
            left = self._left.get(tc)
            if t is None:
                continue
            if left is not None and left[0].kind is not ZoneKind.WALL:
                t = min(t, left[1])
            out[tc] = t
        return out

    def arrived_at(self, spots: frozenset[Spot]) -> float | None:
        """When the last of the tiles lying at `spots` moved there (`moved_at`), or None
        when no time is known."""
        moved = self.moved_at()
        times = [
            moved[tc] for tc, z in self.where.items() if tc in moved and Spot(z, tc.tile) in spots
        ]
        return max(times, default=None)

    def residue(self, deal: Deal) -> Tally:
        """What the reader shows minus what the judge expects (worked out again only when
        the judge changed)."""
        key = judge_key(deal)
        if self._res_for != key:
            self._res = residue(self.seen, expected(deal, self.layout))
            self._res_for = key
        return self._res

    def hands(self) -> int:
        """The tiles the watched hand zones hold."""
        return sum(n for s, n in self.seen.items() if s.zone.kind is ZoneKind.HAND)

    def differences(self, deal: Deal) -> dict[tuple[Seat, str, Tile], int]:
        """The residue per deal seat, zone kind and tile."""
        out: dict[tuple[Seat, str, Tile], int] = {}
        for spot, n in self.residue(deal).items():
            if spot.zone.seat is not None:
                out[(self.layout.seat(spot.zone.seat), spot.zone.kind.value, spot.tile)] = n
        return out

    def arrivals(self, deal: Deal) -> dict[tuple[Seat, str, Tile], float]:
        """When the tiles the reader shows beyond the judge (a positive residue) came where
        they lie (`moved_at`; the latest copy of a kind), per deal seat, zone kind and tile;
        a tile whose time is not known is left out."""
        res = self.residue(deal)
        moved = self.moved_at()
        late: dict[Spot, float] = {}
        for tc, zone in self.where.items():
            t = moved.get(tc)
            spot = Spot(zone, tc.tile)
            if t is not None and res.get(spot, 0) > 0:
                late[spot] = max(t, late.get(spot, t))
        return {
            (self.layout.seat(s.zone.seat), s.zone.kind.value, s.tile): t
            for s, t in late.items()
            if s.zone.seat is not None
        }

    def evidence(self, spots: frozenset[Spot], consume: bool = False) -> tuple[Said, ...]:
        """The recent changes at `spots`; `consume`: they explained a move, and are dropped."""
        used = [text for spot, text in self._notes if spot in spots]
        if consume:
            self._notes = [(s, x) for s, x in self._notes if s not in spots]
        return tuple(used)
