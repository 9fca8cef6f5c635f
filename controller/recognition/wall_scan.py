"""The wall order from the wall antenna: raw `TagsRead` of the spot inside the table that
tiles cross single-file while the walls are built (DESIGN.md "Hardware").

A tile stays in the antenna's field for a few inventory rounds while the next ones arrive,
so the order follows the first and last sightings, counted in reads of the wall antennas
(not in time: a reader that falls behind still keeps the order); see `order` for how a
missed read at either end of a stay is absorbed. The table builds
the walls in `rules.wall` physical order (East's right end first, East = the dealer), as the
simulator's table does, so the sighting order is the wall order itself.

The scan is complete when every tile copy of the set was seen once and the antenna's field
is empty again; an unknown tag or a tile copy seen under two tags is reported, not placed.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.devices.events import TagsRead
from controller.profiles import ReaderProfile, TagMap, TileCopy, ZoneKind


@dataclass(frozen=True, slots=True)
class ScanProblem:
    """An unknown tag, or a second tag claiming a tile copy already seen."""

    uid: bytes
    copy: TileCopy | None  # None: the tag map does not know the tag


class WallScan:
    def __init__(self, reader: ReaderProfile, tags: TagMap) -> None:
        self.tags = tags
        self.antennas = frozenset(
            a.number for a in reader.antennas.values() if a.zone.kind is ZoneKind.WALL
        )
        self.size = tags.header.tileset.value
        self.reset()

    def reset(self) -> None:
        self._rounds = 0
        self._first: dict[TileCopy, int] = {}
        self._last: dict[TileCopy, int] = {}
        self._uid_of: dict[TileCopy, bytes] = {}
        self._reported: set[bytes] = set()
        self._order: tuple[TileCopy, ...] | None = None  # `order()`, until the next read
        self.done = False

    @property
    def available(self) -> bool:
        """The reader has a wall antenna at all."""
        return bool(self.antennas)

    def feed(self, read: TagsRead) -> list[ScanProblem]:
        if read.antenna not in self.antennas or self.done:
            return []
        self._rounds += 1
        self._order = None
        problems = []
        for uid in read.uids:
            tc = self.tags.lookup(uid)
            if tc is None or self._uid_of.setdefault(tc, uid) != uid:
                if uid not in self._reported:
                    self._reported.add(uid)
                    problems.append(ScanProblem(uid, tc))
                continue
            self._first.setdefault(tc, self._rounds)
            self._last[tc] = self._rounds
        return problems

    @property
    def complete(self) -> bool:
        return len(self._first) == self.size

    def field_clear(self, read: TagsRead) -> bool:
        """This read of a wall antenna saw no known tag: the last tile has left."""
        return read.antenna in self.antennas and not any(
            self.tags.lookup(u) is not None for u in read.uids
        )

    def order(self) -> tuple[TileCopy, ...]:
        """Each tile entered the field in a round e with last - L + 1 <= e <= first, where
        L is the longest stay seen (a stay read with no miss at either end). Rounds are
        handed out in order, each to the tile whose window is open with the earliest
        centre (earliest deadline first): one missed read at either end no longer swaps
        two neighbours, as sorting by first sightings alone did about once in four deals
        at 5% missed reads. Kept until the next read of a wall antenna: the dealt-hands
        check asks for it at every look at the table while the deal is in play, and
        working it out (quadratic in the tiles) each time took some 6 % of a core of the
        daemon in real-time play."""
        if self._order is None:
            self._order = self._work_out_order()
        return self._order

    def _work_out_order(self) -> tuple[TileCopy, ...]:
        first, last = self._first, self._last
        if not first:
            return ()
        stay = max(last[tc] - first[tc] + 1 for tc in first)
        lo = {tc: last[tc] - stay + 1 for tc in first}
        left = sorted(first, key=lambda tc: (lo[tc], first[tc]))
        out: list[TileCopy] = []
        r = lo[left[0]]
        while left:
            open_ = [tc for tc in left if lo[tc] <= r]
            if not open_:
                r = lo[left[0]]
                continue
            pick = min(open_, key=lambda tc: (lo[tc] + first[tc], first[tc], tc))
            out.append(pick)
            left.remove(pick)
            r += 1
        return tuple(out)

    def uncertain(self) -> tuple[int, ...]:
        """Indices i of `order()` where tiles i and i + 1 were read in the same rounds
        (their stays' centres coincide): the scan cannot tell which came first."""
        first, last = self._first, self._last
        order = self.order()
        centre = [first[tc] + last[tc] for tc in order]
        return tuple(i for i in range(len(order) - 1) if centre[i] == centre[i + 1])
