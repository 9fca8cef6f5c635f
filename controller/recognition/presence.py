"""The tag debouncer: raw per-antenna inventories (`TagsRead`) → settled tile presence per
zone, as `TilePlaced` / `TileLifted` changes and `Alert`s.

RFID is noisy: rounds miss tags, repeat them, and neighbouring antennas read the same tag.
The rules, with `window` n, `appear` k and `vanish` m from the reader profile's `[debounce]`:

- Each inventory round credits a tag to one zone: the antenna with the highest RSSI among
  those that read it; on equal RSSI the antenna that read it most often in the window, then
  the tag's current zone, then the lower antenna number. Crosstalk from a neighbour (weaker
  and rarer) therefore only gets a round when the tag's own antenna missed it.
- A tag appears in zone Z (or moves to it) when Z was credited in at least k of the last n
  rounds and more often than its current zone. With k > n/2 (the profile enforces it) a
  tag whose own antenna reads it k times in every window settles in the right zone within
  n rounds, whatever its neighbours read.
- A tag disappears after m rounds in a row in which no antenna read it; its window is then
  cleared, so coming back takes k fresh reads.
- Crosstalk never moves a tag (seed 707 deal 4: S's hand antenna lost 1m#2 for about eight
  rounds while the river antenna read it, and a discard that never happened was judged). A
  real antenna loses tags for seconds when a hand covers them, and a neighbour's field still
  reaches them, weaker: the RSSI of a tag's reads in its own zone is remembered (also while it
  is lifted, until no antenna has read it for n rounds), and a read in another zone weaker
  than that by more than the profile's `crosstalk-margin` is crosstalk: it earns no credit.
  It still counts as a read against `m` (the tag is near), but after max(n, m) rounds in a
  row with crosstalk alone the tag disappears (in transit for the recogniser), never moving
  to the neighbour's zone; a real move reads at full strength in its new zone. A reader
  without RSSI (all reads 0) keeps the rules above. A round in which none of the antennas of the
  tag's zone reported (antenna fault) tells nothing about it and is not counted.
- A declaration card's tag (the tag map's `card:…`, issue 18) is debounced by the same rules
  and reported as `CardPlaced` / `CardLifted`.
- A tag has one zone at a time, so a tile is never in two zones. An unknown UID raises
  `UnknownTag` once; a second tag of a tile copy already present (a map with duplicates,
  see `controller.profiles.TagMap`) raises `DuplicateTile` once and is not placed.

A round is closed by the caller (`end_round`), who knows when the reader finished polling
every antenna; `feed_round` does both steps. Times come from the reads or the injected clock.
A round steps only what it changed (`end_round`'s docstring; issue 17): its outputs are the
same as stepping every tag every round, which `tests/controller/test_debouncer_reference.py`
checks against that straightforward debouncer.
"""

from __future__ import annotations

import collections
import functools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from controller.devices.events import TagsRead
from controller.profiles import Card, ReaderProfile, TagMap, TileCopy, Zone, ZoneKind
from rules.tiles import Tile

__all__ = [
    "Alert",
    "CardLifted",
    "CardPlaced",
    "Debouncer",
    "DuplicateTile",
    "PresenceChange",
    "TileLifted",
    "TilePlaced",
    "UnknownTag",
    "Zone",
    "ZoneKind",
]


@dataclass(frozen=True, slots=True)
class TilePlaced:
    t: float
    tile: Tile
    copy: int
    zone: Zone


@dataclass(frozen=True, slots=True)
class TileLifted:
    t: float
    tile: Tile
    copy: int
    zone: Zone


@dataclass(frozen=True, slots=True)
class UnknownTag:
    """A tag the tag map does not know (a foreign tile, or one not enrolled)."""

    t: float
    uid: bytes


@dataclass(frozen=True, slots=True)
class DuplicateTile:
    """Two tags claim one tile copy (a fifth copy on the table); `uids` are both tags."""

    t: float
    tile: Tile
    copy: int
    uids: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class CardPlaced:
    """(issue 18) A declaration card settled in a zone."""

    t: float
    card: Card
    zone: Zone


@dataclass(frozen=True, slots=True)
class CardLifted:
    t: float
    card: Card
    zone: Zone


PresenceChange = TilePlaced | TileLifted | CardPlaced | CardLifted
Alert = UnknownTag | DuplicateTile


@dataclass(slots=True)
class _Track:
    tc: TileCopy | Card
    seq: int  # creation order: tracks are stepped in it (a duplicate's fate depends on it)
    zone: Zone | None = None
    misses: int = 0  # rounds in a row without a read that is not crosstalk
    home: Zone | None = None  # the zone it last settled in, kept while it is lifted
    rssi: int | None = None  # its latest read in `home`: crosstalk is weaker than this
    quiet: int = 0  # rounds in a row in which no antenna read it at all
    # per counted round: antennas that read the tag, and the zone credited (None: unread)
    rounds: collections.deque[tuple[frozenset[int], Zone | None]] = field(
        default_factory=collections.deque
    )
    at: int = 0  # zoneless: the round it was last stepped in (later ones were unread)
    steady: int | None = None  # its one antenna, while every round of its window is alike


class Debouncer:
    def __init__(
        self,
        reader: ReaderProfile,
        tags: TagMap,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.reader = reader
        self.tags = tags
        self.clock = clock
        d = reader.debounce
        self.window, self.appear, self.vanish = d.window, d.appear, d.vanish
        self.margin = d.crosstalk_margin
        self.ignored_reads = 0  # reads from antennas the profile does not list
        self._tracks: dict[bytes, _Track] = {}
        self._holder: dict[TileCopy | Card, bytes] = {}
        self._alerted: set[bytes] = set()
        self._zone_of: dict[int, Zone] = {a.number: a.zone for a in reader.antennas.values()}
        self._members: dict[Zone, set[bytes]] = {z: set() for z in self._zone_of.values()}
        self._blocked: set[bytes] = set()  # zoneless tracks a duplicate keeps out of a zone
        self._reads: dict[bytes, dict[int, int]] = {}  # uid → antenna → best RSSI this round
        self._reported: set[int] = set()
        self._pending: list[Alert] = []
        self._last_t: float | None = None
        self._round = 0  # rounds ended
        self._seq = 0

    # -- input ------------------------------------------------------------------
    def observe(self, read: TagsRead) -> None:
        """Add one antenna's inventory answer to the open round."""
        antenna = read.antenna
        if antenna not in self._zone_of:
            self.ignored_reads += 1
            return
        self._reported.add(antenna)
        self._last_t = read.t
        reads = self._reads
        rssis = read.rssi
        lookup = self.tags.item
        for i, uid in enumerate(read.uids):
            seen = reads.get(uid)
            if seen is None:
                if uid not in self._tracks and lookup(uid) is None:
                    if uid not in self._alerted:
                        self._alerted.add(uid)
                        self._pending.append(UnknownTag(read.t, uid))
                    continue
                reads[uid] = seen = {}
            rssi = rssis[i] if i < len(rssis) else 0
            best = seen.get(antenna)
            if best is None or rssi > best:
                seen[antenna] = rssi

    def end_round(self, t: float | None = None) -> list[PresenceChange | Alert]:
        """Close the round: the presence changes it settles, alerts first.

        Only what the round changed is stepped: the tags read (a tag read by its one
        antenna as in every round of its window only has its RSSI noted), the settled tags
        its zone's antennas missed, and a tag a duplicate keeps out of a zone. A lifted tag
        nobody reads is caught up when it is read again (`_catch_up`): its unread rounds
        only count up, and whether it would have been forgotten meanwhile is arithmetic."""
        if t is None:
            t = self._last_t if self._last_t is not None else self.clock()
        self._round += 1
        reads = self._reads
        tracks = self._tracks
        work: list[_Track] = []
        uids: list[bytes] = []
        for uid, seen in reads.items():
            track = tracks.get(uid)
            if track is None or (track.zone is None and self._forgotten(uid, track)):
                tc = self.tags.item(uid)
                assert tc is not None
                self._seq += 1
                tracks[uid] = track = _Track(tc, self._seq, at=self._round - 1)
            elif track.steady is not None and len(seen) == 1 and track.steady in seen:
                track.rssi = seen[track.steady]  # nothing else changes
                continue
            work.append(track)
            uids.append(uid)
        zones = {self._zone_of[a] for a in self._reported}
        for zone in zones:
            members = self._members[zone]
            if members:
                for uid in members.difference(reads):
                    work.append(tracks[uid])
                    uids.append(uid)
        for uid in self._blocked.difference(reads):
            work.append(tracks[uid])
            uids.append(uid)
        lifts: list[TileLifted | CardLifted] = []
        places: list[TilePlaced | CardPlaced] = []
        alerts: list[Alert] = self._pending
        order: Sequence[int]
        if len(work) > 1:
            order = sorted(range(len(work)), key=lambda i: work[i].seq)
        else:
            order = range(len(work))
        empty: dict[int, int] = {}
        for i in order:
            track, uid = work[i], uids[i]
            if track.zone is None:
                self._catch_up(track)
            self._step(t, uid, track, reads.get(uid, empty), lifts, places, alerts)
        reads.clear()
        self._reported.clear()
        self._pending = []
        self._last_t = None
        if not (alerts or lifts or places):
            return []
        return [*alerts, *sorted(lifts, key=_order), *sorted(places, key=_order)]

    def feed_round(
        self, reads: Iterable[TagsRead], t: float | None = None
    ) -> list[PresenceChange | Alert]:
        for read in reads:
            self.observe(read)
        return self.end_round(t)

    # -- state ------------------------------------------------------------------
    def presence(self) -> Mapping[TileCopy, Zone]:
        """Every tile copy currently settled in a zone."""
        return {
            tr.tc: tr.zone
            for tr in self._tracks.values()
            if tr.zone is not None and isinstance(tr.tc, TileCopy)
        }

    def cards(self) -> Mapping[Card, Zone]:
        """(issue 18) Every declaration card currently settled in a zone."""
        return {
            tr.tc: tr.zone
            for tr in self._tracks.values()
            if tr.zone is not None and isinstance(tr.tc, Card)
        }

    def zone_of(self, tc: TileCopy) -> Zone | None:
        uid = self._holder.get(tc)
        return self._tracks[uid].zone if uid is not None else None

    # -- the rules ----------------------------------------------------------------
    def _unread(self, track: _Track) -> int:
        """Rounds a zoneless track has not been stepped in (none of them read it)."""
        return self._round - 1 - track.at

    def _forgotten(self, uid: bytes, track: _Track) -> bool:
        """Whether a zoneless track would have been dropped in its unread rounds: once no
        credited round is left in its window and its own RSSI is forgotten."""
        k = self._unread(track)
        if k <= 0:
            return False
        first = 1  # the first unread round after which its window holds no credit
        for age, (_, zone) in enumerate(reversed(track.rounds)):
            if zone is not None:
                first = self.window - age
                break
        if track.rssi is not None:
            first = max(first, self.window - track.quiet)
        if max(first, 1) > k:
            return False
        del self._tracks[uid]
        return True

    def _catch_up(self, track: _Track) -> None:
        """The unread rounds of a zoneless track: they only count up (nothing settles)."""
        k = self._unread(track)
        if k > 0:
            track.quiet += k
            track.misses += k
            track.rounds.extend(_UNREAD for _ in range(min(k, self.window)))
            while len(track.rounds) > self.window:
                track.rounds.popleft()

    def _step(
        self,
        t: float,
        uid: bytes,
        track: _Track,
        seen: dict[int, int],
        lifts: list[TileLifted | CardLifted],
        places: list[TilePlaced | CardPlaced],
        alerts: list[Alert],
    ) -> None:
        track.at = self._round
        track.steady = None
        self._blocked.discard(uid)
        heard = bool(seen)
        if heard and track.rssi is not None and self.margin:
            seen = {a: r for a, r in seen.items() if not self._crosstalk(track, a, r)}
        if not seen and track.zone is not None:
            own = self._zone_antennas(track.zone)
            if own.isdisjoint(self._reported):
                return  # its zone's antennas did not report: no news about this tag
        track.quiet = 0 if heard else track.quiet + 1
        zone_of = self._zone_of
        own_reads = [r for a, r in seen.items() if zone_of[a] == track.zone]
        if own_reads:
            track.rssi = max(own_reads)
        credited = self._credit(track, seen) if seen else None
        rounds = track.rounds
        rounds.append((frozenset(seen), credited) if seen else _UNREAD)
        while len(rounds) > self.window:
            rounds.popleft()
        track.misses = 0 if seen else track.misses + 1
        gone = track.quiet >= self.vanish or track.misses >= max(self.window, self.vanish)
        if track.zone is not None and gone:
            lifts.append(_lifted(t, track.tc, track.zone))
            self._release(track, uid)
            rounds.clear()
            return
        counts: dict[Zone, int] = {}
        for _, z in rounds:
            if z is not None:
                counts[z] = counts.get(z, 0) + 1
        if not counts:
            if track.zone is None and (track.rssi is None or track.quiet >= self.window):
                del self._tracks[uid]  # nothing left to remember (its own RSSI forgotten)
            return
        best = max(counts, key=lambda z: (counts[z], z == track.zone))
        if best == track.zone or counts[best] < self.appear:
            self._settle(track)
            return
        if track.zone is not None and counts[best] <= counts.get(track.zone, 0):
            return
        holder = self._holder.get(track.tc)
        if holder is not None and holder != uid:
            self._blocked.add(uid)  # stepped every round until the holder goes
            if uid not in self._alerted and isinstance(track.tc, TileCopy):
                self._alerted.add(uid)
                alerts.append(DuplicateTile(t, track.tc.tile, track.tc.copy, (holder, uid)))
            return
        if track.zone is not None:
            lifts.append(_lifted(t, track.tc, track.zone))
            self._members[track.zone].discard(uid)
        track.zone = track.home = best
        self._holder[track.tc] = uid
        self._members[best].add(uid)
        tc = track.tc
        if isinstance(tc, TileCopy):
            places.append(TilePlaced(t, tc.tile, tc.copy, best))
        else:
            places.append(CardPlaced(t, tc, best))

    def _settle(self, track: _Track) -> None:
        """Note a settled track whose window is one antenna of its zone in every round:
        the next such round changes nothing but its RSSI."""
        if track.zone is None or track.misses or track.quiet:
            return
        rounds = track.rounds
        if len(rounds) != self.window:
            return
        first = rounds[0]
        antennas, zone = first
        if zone != track.zone or len(antennas) != 1:
            return
        for entry in rounds:
            if entry != first:
                return
        (track.steady,) = antennas

    def _zone_antennas(self, zone: Zone) -> frozenset[int]:
        return self._antennas_of.get(zone, frozenset())

    @functools.cached_property
    def _antennas_of(self) -> dict[Zone, frozenset[int]]:
        out: dict[Zone, frozenset[int]] = {}
        for a, z in self._zone_of.items():
            out[z] = out.get(z, frozenset()) | {a}
        return out

    def _crosstalk(self, track: _Track, antenna: int, rssi: int) -> bool:
        """A read outside the tag's own zone, too weak to be the tag lying there."""
        if not self.margin or track.rssi is None:
            return False
        return self._zone_of[antenna] != track.home and rssi < track.rssi - self.margin

    def _credit(self, track: _Track, seen: dict[int, int]) -> Zone:
        if len(seen) == 1:
            (antenna,) = seen
            return self._zone_of[antenna]
        often: dict[int, int] = {}
        for readers, _ in track.rounds:
            for a in readers:
                often[a] = often.get(a, 0) + 1

        def rank(antenna: int) -> tuple[int, int, bool, int]:
            zone = self._zone_of[antenna]
            return (seen[antenna], often.get(antenna, 0), zone == track.zone, -antenna)

        return self._zone_of[max(seen, key=rank)]

    def _release(self, track: _Track, uid: bytes) -> None:
        if track.zone is not None:
            self._members[track.zone].discard(uid)
        track.zone = None
        if self._holder.get(track.tc) == uid:
            del self._holder[track.tc]


_UNREAD: tuple[frozenset[int], Zone | None] = (frozenset(), None)


def _lifted(t: float, tc: TileCopy | Card, zone: Zone) -> TileLifted | CardLifted:
    if isinstance(tc, TileCopy):
        return TileLifted(t, tc.tile, tc.copy, zone)
    return CardLifted(t, tc, zone)


def _order(change: PresenceChange) -> tuple[int, int, str]:
    if isinstance(change, CardPlaced | CardLifted):
        return (1 << 10, 0, f"{change.card} {change.zone}")  # after the tiles
    return (change.tile, change.copy, str(change.zone))
