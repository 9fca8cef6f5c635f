"""The debouncer as it was before it learnt to work on what changed in a round (issue 17):
every tag of the set stepped every round, straight from the rules in
`controller/recognition/presence.py`'s docstring. Kept as the reference the incremental
debouncer is compared with (`test_debouncer_reference.py`); not used by the daemon."""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from controller.devices.events import TagsRead
from controller.profiles import ReaderProfile, TagMap, TileCopy, Zone
from controller.recognition.presence import (
    Alert,
    DuplicateTile,
    PresenceChange,
    TileLifted,
    TilePlaced,
    UnknownTag,
)


@dataclass(slots=True)
class _Track:
    tc: TileCopy
    zone: Zone | None = None
    misses: int = 0  # rounds in a row without a read that is not crosstalk
    home: Zone | None = None  # the zone it last settled in, kept while it is lifted
    rssi: int | None = None  # its latest read in `home`: crosstalk is weaker than this
    quiet: int = 0  # rounds in a row in which no antenna read it at all
    # per counted round: antennas that read the tag, and the zone credited (None: unread)
    rounds: collections.deque[tuple[frozenset[int], Zone | None]] = field(
        default_factory=collections.deque
    )


class ReferenceDebouncer:
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
        self._holder: dict[TileCopy, bytes] = {}
        self._alerted: set[bytes] = set()
        self._zone_antennas: dict[Zone, frozenset[int]] = {}
        for a in reader.antennas.values():
            self._zone_antennas[a.zone] = self._zone_antennas.get(a.zone, frozenset()) | {a.number}
        self._reads: dict[bytes, dict[int, int]] = {}  # uid → antenna → best RSSI this round
        self._reported: set[int] = set()
        self._pending: list[Alert] = []
        self._last_t: float | None = None

    # -- input ------------------------------------------------------------------
    def observe(self, read: TagsRead) -> None:
        """Add one antenna's inventory answer to the open round."""
        if read.antenna not in self.reader.antennas:
            self.ignored_reads += 1
            return
        self._reported.add(read.antenna)
        self._last_t = read.t
        for i, uid in enumerate(read.uids):
            if self.tags.lookup(uid) is None:
                if uid not in self._alerted:
                    self._alerted.add(uid)
                    self._pending.append(UnknownTag(read.t, uid))
                continue
            rssi = read.rssi[i] if i < len(read.rssi) else 0
            seen = self._reads.setdefault(uid, {})
            seen[read.antenna] = max(rssi, seen.get(read.antenna, rssi))

    def end_round(self, t: float | None = None) -> list[PresenceChange | Alert]:
        """Close the round: the presence changes it settles, alerts first."""
        if t is None:
            t = self._last_t if self._last_t is not None else self.clock()
        for uid in self._reads:
            if uid not in self._tracks:
                tc = self.tags.lookup(uid)
                assert tc is not None
                self._tracks[uid] = _Track(tc)
        lifts: list[TileLifted] = []
        places: list[TilePlaced] = []
        alerts: list[Alert] = self._pending
        for uid, track in list(self._tracks.items()):
            self._step(t, uid, track, self._reads.get(uid, {}), lifts, places, alerts)
        self._reads = {}
        self._reported = set()
        self._pending = []
        self._last_t = None
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
        return {tr.tc: tr.zone for tr in self._tracks.values() if tr.zone is not None}

    def zone_of(self, tc: TileCopy) -> Zone | None:
        uid = self._holder.get(tc)
        return self._tracks[uid].zone if uid is not None else None

    # -- the rules ----------------------------------------------------------------
    def _step(
        self,
        t: float,
        uid: bytes,
        track: _Track,
        seen: dict[int, int],
        lifts: list[TileLifted],
        places: list[TilePlaced],
        alerts: list[Alert],
    ) -> None:
        heard = bool(seen)
        seen = {a: r for a, r in seen.items() if not self._crosstalk(track, a, r)}
        if not seen and track.zone is not None:
            own = self._zone_antennas.get(track.zone, frozenset())
            if not own & self._reported:
                return  # its zone's antennas did not report: no news about this tag
        track.quiet = 0 if heard else track.quiet + 1
        own_reads = [r for a, r in seen.items() if self.reader.antennas[a].zone == track.zone]
        if own_reads:
            track.rssi = max(own_reads)
        credited = self._credit(track, seen) if seen else None
        track.rounds.append((frozenset(seen), credited))
        while len(track.rounds) > self.window:
            track.rounds.popleft()
        track.misses = 0 if seen else track.misses + 1
        gone = track.quiet >= self.vanish or track.misses >= max(self.window, self.vanish)
        if track.zone is not None and gone:
            lifts.append(TileLifted(t, track.tc.tile, track.tc.copy, track.zone))
            self._release(track, uid)
            track.rounds.clear()
            return
        counts = collections.Counter(z for _, z in track.rounds if z is not None)
        if not counts:
            if track.zone is None and (track.rssi is None or track.quiet >= self.window):
                del self._tracks[uid]  # nothing left to remember (its own RSSI forgotten)
            return
        best = max(counts, key=lambda z: (counts[z], z == track.zone))
        if best == track.zone or counts[best] < self.appear:
            return
        if track.zone is not None and counts[best] <= counts[track.zone]:
            return
        holder = self._holder.get(track.tc)
        if holder is not None and holder != uid:
            if uid not in self._alerted:
                self._alerted.add(uid)
                alerts.append(DuplicateTile(t, track.tc.tile, track.tc.copy, (holder, uid)))
            return
        if track.zone is not None:
            lifts.append(TileLifted(t, track.tc.tile, track.tc.copy, track.zone))
        track.zone = track.home = best
        self._holder[track.tc] = uid
        places.append(TilePlaced(t, track.tc.tile, track.tc.copy, best))

    def _crosstalk(self, track: _Track, antenna: int, rssi: int) -> bool:
        """A read outside the tag's own zone, too weak to be the tag lying there."""
        if not self.margin or track.rssi is None:
            return False
        return self.reader.antennas[antenna].zone != track.home and rssi < track.rssi - self.margin

    def _credit(self, track: _Track, seen: dict[int, int]) -> Zone:
        often = collections.Counter(a for readers, _ in track.rounds for a in readers)

        def rank(antenna: int) -> tuple[int, int, bool, int]:
            zone = self.reader.antennas[antenna].zone
            return (seen[antenna], often[antenna], zone == track.zone, -antenna)

        return self.reader.antennas[max(seen, key=rank)].zone

    def _release(self, track: _Track, uid: bytes) -> None:
        track.zone = None
        if self._holder.get(track.tc) == uid:
            del self._holder[track.tc]


def _order(change: PresenceChange) -> tuple[int, int, str]:
    return (change.tile, change.copy, str(change.zone))
