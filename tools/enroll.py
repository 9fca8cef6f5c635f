"""Tag enrolment: the operator presents the tiles of a set one at a time, in order (1m#1,
1m#2, … 9s#4, then honours for 136 tiles), on one antenna of the reader; each new tag is
written to the tag map `hw_profiles/tags/<set>.toml` (format: docs/PROFILES.md).

The reader is polled through the real drivers on one antenna: a UHF reader through
SerialLink and UHFPoller, a FEIG ISO 15693 reader through SerialLink and FeigPoller (antenna
n is the reader at COM-ADR n - 1, at the profile's baud rate and parity), a single-spot PN53x (a PN532 on a serial port, a PN533 on USB:
`--reader usb`) through the daemon's polling driver (controller/devices/pn53x_reader.py). A
presentation is a set of tags the antenna reads in `stable` inventories in a row; it is
handled once, and the next one starts when the set changes (the tile is lifted):

- one new tag: it becomes the next tile copy; the file is rewritten at once (atomically,
  fsync'd), so a Ctrl-C or a kill loses nothing and a new run resumes where it stopped;
- a tag already in the map: "already enrolled as X: ignored";
- a foreign tag (a UID of another length than the set's tags: a badge, a card) or an extra
  tag (the set is complete): ignored with a message;
- several tags at once: "present one tile at a time".

Output lines (one per fact, flushed; scripts and tests read them):
`resuming: 37/108 enrolled`, `37/108 next: 1p#2`, `enrolled 1p#1 <uid>`,
`already enrolled as 1m#1: ignored (<uid>)`, `foreign tag <uid>: ignored (…)`,
`extra tag <uid>: ignored (the set is complete)`, `2 tags on the antenna: …`,
`complete: 108/108 in <path>`.
"""

from __future__ import annotations

import os
import queue
import sys
import time
import tomllib
import types
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from controller.devices.events import DataReceived, LinkChanged, LinkState, TagsRead
from controller.devices.iso15693_feig import FeigPoller
from controller.devices.pn53x_reader import Backoff, PN53xReader
from controller.devices.serial_link import LinkConfig, SerialLink
from controller.devices.uhf_poller import PollerConfig, UHFPoller
from controller.devices.uhf_reader import MAX_ANTENNAS
from controller.errors import TableError
from controller.profiles import (
    COPIES,
    ReaderModel,
    ReaderProfile,
    TagMap,
    TagsHeader,
    TileCopy,
    format_tags,
    parse_tags,
)
from rules.schema import SchemaError
from rules.tiles import TileSet


class EnrolError(TableError, ValueError):
    """The output file cannot be resumed (another set, another tile set, damaged)."""


def order_of(tileset: TileSet) -> tuple[TileCopy, ...]:
    return tuple(TileCopy(t, c) for t in tileset.kinds for c in range(1, COPIES + 1))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one presentation did (for the output line and for tests)."""

    kind: str  # enrolled | already | foreign | extra | several
    uid: bytes = b""
    copy: TileCopy | None = None
    detail: str = ""


class Enrolment:
    """The tag map being written: which copies have a tag, which copy comes next."""

    def __init__(self, path: Path, name: str, tileset: TileSet) -> None:
        self.path = Path(path)
        self.header = TagsHeader(name, tileset, "mjtable enroll", time.strftime("%Y-%m-%d"))
        self.by_uid: dict[bytes, TileCopy] = {}
        self.order = order_of(tileset)
        self.resumed = False
        if self.path.exists():
            self._resume(name, tileset)

    def _resume(self, name: str, tileset: TileSet) -> None:
        try:
            data = tomllib.loads(self.path.read_text(encoding="utf-8"))
            old = parse_tags(data, str(self.path), strict=True)
        except (tomllib.TOMLDecodeError, SchemaError) as err:
            raise EnrolError(f"{self.path}: cannot resume: {err}") from None
        if old.header.name != name or old.header.tileset is not tileset:
            raise EnrolError(
                f"{self.path} holds set {old.header.name!r} ({old.header.tileset.value} tiles),"
                f" not {name!r} ({tileset.value})"
            )
        self.header = old.header
        self.by_uid = dict(old.by_uid)
        self.resumed = True
        done = set(self.by_uid.values())
        if done != set(self.order[: len(done)]):
            raise EnrolError(f"{self.path}: the enrolled tiles are not a prefix of the order")

    @property
    def count(self) -> int:
        return len(self.by_uid)

    @property
    def total(self) -> int:
        return len(self.order)

    @property
    def next(self) -> TileCopy | None:
        return self.order[self.count] if self.count < self.total else None

    def present(self, uids: frozenset[bytes]) -> Outcome:
        if len(uids) > 1:
            return Outcome("several", detail=f"{len(uids)} tags")
        (uid,) = uids
        if uid in self.by_uid:
            return Outcome("already", uid, self.by_uid[uid])
        lengths = {len(u) for u in self.by_uid}
        if lengths and len(uid) not in lengths:
            have = "/".join(str(n) for n in sorted(lengths))
            return Outcome("foreign", uid, detail=f"UID length {len(uid)}, the set uses {have}")
        tc = self.next
        if tc is None:
            return Outcome("extra", uid)
        self.by_uid[uid] = tc
        self.save()
        return Outcome("enrolled", uid, tc)

    def save(self) -> None:
        """Rewrite the file atomically: a kill leaves the old or the new file, never half."""
        tags = TagMap(self.header, types.MappingProxyType(dict(self.by_uid)))
        note = [
            f"Written by mjtable enroll: {self.count}/{self.total} tiles enrolled.",
            "Run the same command again to resume an unfinished enrolment.",
        ]
        text = format_tags(tags, note)
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        dir_fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def describe(outcome: Outcome) -> str:
    uid = outcome.uid.hex()
    match outcome.kind:
        case "enrolled":
            return f"enrolled {outcome.copy} {uid}"
        case "already":
            return f"already enrolled as {outcome.copy}: ignored ({uid})"
        case "foreign":
            return f"foreign tag {uid}: ignored ({outcome.detail})"
        case "extra":
            return f"extra tag {uid}: ignored (the set is complete)"
    return f"{outcome.detail} on the antenna: present one tile at a time"


class Presentations:
    """Inventories of one antenna → presentations: a non-empty tag set read `stable` times
    in a row, reported once until the set changes."""

    def __init__(self, stable: int = 2) -> None:
        self.stable = stable
        self._last: frozenset[bytes] = frozenset()
        self._streak = 0
        self._handled = False

    def feed(self, uids: frozenset[bytes]) -> frozenset[bytes] | None:
        if uids != self._last:
            self._last, self._streak, self._handled = uids, 0, False
        self._streak += 1
        if uids and not self._handled and self._streak >= self.stable:
            self._handled = True
            return uids
        return None


def poller_for(
    profile: ReaderProfile, antenna: int, reply_timeout: float
) -> UHFPoller | FeigPoller:
    """One antenna of the profile; on a UHF reader bus (tools/sim/devices.py) antenna 8k+p is
    port p of the reader at address k; a FEIG reader's antenna n is the one at COM-ADR n-1."""
    if antenna not in profile.antennas:
        raise EnrolError(f"antenna {antenna} is not in reader profile {profile.reader.name}")
    if profile.reader.model is ReaderModel.FEIG_ISO15693:
        return FeigPoller(adr=antenna - 1, antenna=antenna, reply_timeout=reply_timeout)
    adr = profile.reader.address
    port = antenna
    if antenna > MAX_ANTENNAS:
        adr, port = (antenna - 1) // MAX_ANTENNAS, (antenna - 1) % MAX_ANTENNAS + 1
    return UHFPoller(PollerConfig((port,), adr=adr, reply_timeout=reply_timeout))


def run_enrolment(
    enrolment: Enrolment,
    url: str,
    profile: ReaderProfile,
    antenna: int = 1,
    out: TextIO = sys.stdout,
    stable: int = 2,
    reply_timeout: float = 0.5,
    clock: Callable[[], float] = time.monotonic,
    stop: Callable[[], bool] = lambda: False,
) -> bool:
    """Poll the reader until the set is complete (True) or `stop()` (False)."""

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    def progress() -> None:
        nxt = enrolment.next
        if nxt is None:
            say(f"complete: {enrolment.count}/{enrolment.total} in {enrolment.path}")
        else:
            say(f"{enrolment.count}/{enrolment.total} next: {nxt}")

    if enrolment.resumed:
        say(f"resuming: {enrolment.count}/{enrolment.total} enrolled")
    progress()
    if enrolment.next is None:
        return True
    watch = Presentations(stable)
    reads = (
        _serial_reads(url, profile, antenna, reply_timeout, clock, say)
        if profile.reader.model.on_bus
        else _spot_reads(url, profile, antenna, say)
    )
    try:
        for event in reads:
            if stop():
                return False
            if event is None:
                continue
            shown = watch.feed(frozenset(event.uids))
            if shown is None:
                continue
            outcome = enrolment.present(shown)
            say(describe(outcome))
            if outcome.kind == "enrolled":
                progress()
                if enrolment.next is None:
                    return True
        return False
    finally:
        reads.close()


Reads = Generator[TagsRead | None, None, None]  # None: nothing yet (a chance to stop)


def _serial_reads(
    url: str,
    profile: ReaderProfile,
    antenna: int,
    reply_timeout: float,
    clock: Callable[[], float],
    say: Callable[[str], None],
) -> Reads:
    """The enrolment antenna's inventories from a reader on a serial line: SerialLink and
    the model's poller (UHFPoller, FeigPoller)."""
    inbox: queue.Queue[LinkChanged | DataReceived] = queue.Queue()
    reader = profile.reader
    config = LinkConfig(
        url,
        baudrate=reader.baud,
        parity=reader.parity.pyserial,
        read_timeout=0.02,
        backoff_max=2.0,
    )
    link = SerialLink("reader", config, inbox.put, clock)
    poller = poller_for(profile, antenna, reply_timeout)
    polling = False
    link.start()
    try:
        while True:
            try:
                item = inbox.get(timeout=0.05)
            except queue.Empty:
                item = None
            t = clock()
            step = None
            if isinstance(item, LinkChanged):
                polling = item.state is LinkState.UP
                say(f"reader link {item.state.value}")
                step = poller.start(t) if polling else None
            elif isinstance(item, DataReceived) and polling:
                step = poller.feed(item.t, item.data)
            elif polling:
                step = poller.tick(t)
            if step is None:
                yield None
                continue
            if step.send:
                link.write(step.send)
            yield None
            for event in step.events:
                if isinstance(event, TagsRead):
                    yield event
    finally:
        link.stop()


def _spot_reads(
    url: str,
    profile: ReaderProfile,
    antenna: int,
    say: Callable[[str], None],
    pause: float = 0.02,
) -> Reads:
    """The polls of a single-spot PN53x: a PN532 on the serial port `url`, or a PN533 on
    USB (`usb`, `usb:VID:PID`), through the daemon's drivers (controller/devices/)."""
    if antenna != 1:
        raise EnrolError(f"a {profile.reader.model.value} reader has one spot, antenna 1")
    reader: PN53xReader
    if profile.reader.model is ReaderModel.PN532_UART:
        from controller.devices.pn532_uart import PN532UartReader

        reader = PN532UartReader(url, baudrate=profile.reader.baud, backoff=Backoff(0.1, 1.0))
    else:
        from controller.devices.pn533_usb import PN533Reader, parse_usb_address

        try:
            devices = parse_usb_address(url)
        except ValueError as err:
            raise EnrolError(str(err)) from None
        reader = PN533Reader(backoff=Backoff(0.1, 1.0), devices=devices)
    try:
        while True:
            polled = False
            for event in reader.step():
                if isinstance(event, LinkChanged):
                    say(f"reader link {event.state.value}")
                elif isinstance(event, TagsRead):
                    polled = True
                    yield event
            if not polled:
                yield None
            time.sleep(pause)
    finally:
        reader.close()
