"""The physical table of the simulator: which tagged tile lies where.

A tile copy (`5p#2`, one tag) is always in exactly one place:

- `IN_MACHINE` — inside the table (being shuffled; no antenna sees it);
- a `WallSpot` — a built wall, by its index in the wall's physical order (rules.wall); the
  built walls lie over no antenna;
- a `Zone` of the reader profile — a seat's hand, river, melds or void spot, or the `wall`
  spot that sees tiles single-file while the table builds its walls.

Declaration cards (issue 18: the Win cards, the void indicator cards) lie in a zone or off
the table (`lay_card`); nothing shuffles them.

Actions are the operator's and the players' hands: `shuffle`, `pass_wall_spot` (one tile
of the wall build crosses the wall antenna), `move(tile, from, to)`. Button presses are the
table's business (tools/sim/devices.py). The world is shared between the simulator's
player thread and the device threads, so every access takes the lock, and `version` counts
changes (the reader answers from `tags_by_antenna`, taken under the same lock).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from controller.errors import TableError
from controller.profiles import (
    COPIES,
    Card,
    ReaderProfile,
    TileCopy,
    Zone,
    ZoneKind,
    sim_card_uid,
    sim_tag_uid,
)
from rules.seats import Seat
from rules.tiles import Tile, TileSet


class Hidden(Enum):
    IN_MACHINE = "machine"


IN_MACHINE = Hidden.IN_MACHINE


@dataclass(frozen=True, slots=True)
class WallSpot:
    """A tile in a built wall: its index in the physical wall order (rules.wall)."""

    index: int

    def __str__(self) -> str:
        return f"wall[{self.index}]"


Place = Zone | WallSpot | Hidden
WALL_SCAN = Zone(ZoneKind.WALL)


def zone(kind: ZoneKind, seat: Seat) -> Zone:
    return Zone(kind, seat)


def place_name(place: Place) -> str:
    return place.value if isinstance(place, Hidden) else str(place)


class WorldError(TableError, ValueError):
    """An impossible physical action (a tile taken from where it is not)."""


class World:
    def __init__(self, tileset: TileSet, reader: ReaderProfile, seed: int | None = None) -> None:
        self.tileset = tileset
        self.reader = reader
        self.rng = random.Random(seed)
        self.copies = tuple(TileCopy(t, c) for t in tileset.kinds for c in range(1, COPIES + 1))
        # the tags of the reader's kind: EPCs, or ISO 15693 UIDs for a FEIG reader
        self.tags = reader.reader.model.tags
        self.uids: Mapping[TileCopy, bytes] = {tc: sim_tag_uid(tc, self.tags) for tc in self.copies}
        self.version = 0
        self._lock = threading.RLock()
        self._where: dict[TileCopy, Place] = dict.fromkeys(self.copies, IN_MACHINE)
        self._cards: dict[Card, Zone] = {}  # the declaration cards lying in a zone
        self._foreign: dict[bytes, Zone] = {}  # tags of no tile of the set (a badge, a
        # tile of another set) lying in a zone
        self._antennas: dict[Zone, tuple[int, ...]] = {}
        for a in reader.antennas.values():
            self._antennas[a.zone] = (*self._antennas.get(a.zone, ()), a.number)

    # -- looking --------------------------------------------------------------------------
    def where(self, tc: TileCopy) -> Place:
        with self._lock:
            return self._where[tc]

    def in_place(self, place: Place) -> tuple[TileCopy, ...]:
        with self._lock:
            return tuple(sorted(tc for tc, p in self._where.items() if p == place))

    def find(self, tile: Tile, place: Place) -> TileCopy:
        """A copy of `tile` lying at `place` (the lowest copy number)."""
        with self._lock:
            for c in range(1, COPIES + 1):
                tc = TileCopy(tile, c)
                if self._where.get(tc) == place:
                    return tc
        raise WorldError(f"no {tile} at {place_name(place)}")

    def has_zone(self, z: Zone) -> bool:
        return z in self._antennas

    def antennas_of(self, z: Zone) -> tuple[int, ...]:
        return self._antennas.get(z, ())

    def tags_by_antenna(self) -> dict[int, list[bytes]]:
        """What each antenna would read with no noise: the tags lying in its zone."""
        out: dict[int, list[bytes]] = {n: [] for n in self.reader.antennas}
        with self._lock:
            for tc, p in self._where.items():
                if isinstance(p, Zone):
                    for n in self._antennas.get(p, ()):
                        out[n].append(self.uids[tc])
            for uid, z in self._foreign.items():
                for n in self._antennas.get(z, ()):
                    out[n].append(uid)
            for card, z in self._cards.items():
                for n in self._antennas.get(z, ()):
                    out[n].append(sim_card_uid(card, self.tags))
        return out

    def cards(self) -> dict[Card, Zone]:
        """The declaration cards lying in a zone."""
        with self._lock:
            return dict(self._cards)

    def snapshot(self) -> dict[TileCopy, Place]:
        with self._lock:
            return dict(self._where)

    # -- acting ---------------------------------------------------------------------------
    def shuffle(self) -> tuple[TileCopy, ...]:
        """Every tile falls into the machine (and the cards leave the table); returns the
        order the walls will be built in."""
        with self._lock:
            for tc in self.copies:
                self._where[tc] = IN_MACHINE
            self._cards.clear()  # the players take their cards back
            order = list(self.copies)
            self.rng.shuffle(order)
            self.version += 1
            return tuple(order)

    def move(self, tc: TileCopy, frm: Place, to: Place) -> None:
        with self._lock:
            if self._where[tc] != frm:
                raise WorldError(f"{tc} is at {place_name(self._where[tc])}, not {place_name(frm)}")
            self._where[tc] = to
            self.version += 1

    def lay_card(self, card: Card, z: Zone | None) -> None:
        """Lay a declaration card in zone `z` (None: take it off the table)."""
        with self._lock:
            if z is None:
                self._cards.pop(card, None)
            else:
                self._cards[card] = z
            self.version += 1

    def place_foreign(self, uid: bytes, z: Zone | None) -> None:
        """Put a foreign tag into zone `z` (None: take it away)."""
        with self._lock:
            if z is None:
                self._foreign.pop(uid, None)
            else:
                self._foreign[uid] = z
            self.version += 1

    def move_many(self, moves: Iterable[tuple[TileCopy, Place, Place]]) -> None:
        with self._lock:
            moves = list(moves)
            for tc, frm, _ in moves:
                if self._where[tc] != frm:
                    raise WorldError(f"{tc} is not at {place_name(frm)}")
            for tc, _, to in moves:
                self._where[tc] = to
            self.version += 1
