"""`mjtable calibrate`: collect inventory rounds of tiles lying at known spots, live from the
reader (guided, antenna by antenna, like `mjtable enroll`) or from a recorded capture
(tools/capture.py), and write the reader profile's `[debounce]` and `[calibration]` from
what they show (the arithmetic: tools/calibration.py).

Live, one step per antenna: the operator is asked to put a few tiles on it and nothing on
the others; once `settle` rounds in a row read tiles on that antenna and no tile elsewhere,
`rounds` rounds are recorded with the tiles left where they are, with a progress line at
each quarter. Output lines (one per fact, flushed; tests read them):
`[2/17] antenna 2 (E.river): put 1 to 4 tiles on it ...`, `... lift the tiles from antenna 1`,
`... 3 tiles: recording 100 rounds`, `... 50/100 rounds: own reads 96.0%, ...`, `... done`.

`--record FILE` keeps the reader's traffic of a live session as a capture (UHF readers),
so the same figures can be drawn again with `--capture FILE`.

A UHF reader whose firmware answers otherwise than the profile says is named and the session
stops (`SerialRounds.misfit`): inventory answers that do not parse in the profile's
`inventory-layout` but do in another (tiles would go unread), or antenna selection (0x3F)
refused as an illegal command by a reader that has none (`select-antenna = false`).

Rounds come from the real drivers: a UHF bus through `BusPoller` (tools/sim/client.py) on a
`SerialLink`, a PN532 on a serial port or a PN533 on USB through the daemon's polling driver
(`PN532UartReader`, `PN533Reader`); a single-spot reader's round is one poll.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from controller.devices.events import DataReceived, FrameError, LinkChanged, LinkState, TagsRead
from controller.devices.pn53x_reader import PN53xReader
from controller.devices.serial_link import LinkConfig, SerialLink
from controller.devices.uhf_reader import ResponseDecoder, UHFCmd, UHFStatus, layouts_of
from controller.profiles import ReaderModel, ReaderProfile, load_reader
from tools.calibration import Round, Tally
from tools.capture_file import CaptureWriter

Say = Callable[[str], None]
Stop = Callable[[], bool]


def _add(current: dict[bytes, dict[int, int]], read: TagsRead) -> None:
    for i, uid in enumerate(read.uids):
        rssi = read.rssi[i] if i < len(read.rssi) else 0
        seen = current.setdefault(uid, {})
        seen[read.antenna] = max(rssi, seen.get(read.antenna, rssi))


class SerialRounds:
    """Rounds from a UHF reader bus on a serial line."""

    def __init__(
        self,
        url: str,
        profile: ReaderProfile,
        say: Say,
        clock=time.monotonic,
        baud: int = 0,
        record: CaptureWriter | None = None,
    ) -> None:
        self.profile = profile
        self.record = record  # every byte both ways, for `--capture` later
        self.say = say
        self.clock = clock
        self.inbox: queue.Queue[LinkChanged | DataReceived] = queue.Queue()
        config = LinkConfig(
            url, baudrate=baud or profile.reader.baud, read_timeout=0.02, backoff_max=2.0
        )
        self.link = SerialLink("reader", config, self.inbox.put, clock)
        from tools.sim.client import BusPoller

        self.poller = BusPoller(profile)
        self.polling = False
        self.misfit = ""  # why the reader's firmware is not the profile's (the session stops)
        self._current: dict[bytes, dict[int, int]] = {}
        self.link.start()

    def _check(self, error: FrameError) -> None:
        """Whether a damaged or refused answer shows the profile's firmware settings wrong."""
        reader = self.profile.reader
        for resp in ResponseDecoder("calibrate").feed(error.data):
            if (
                resp.cmd == 0x00
                and resp.status == UHFStatus.ILLEGAL_COMMAND
                and (reader.select_antenna)
            ):
                self.misfit = (
                    f"the reader at address {resp.adr} refuses antenna selection (0x3F) as an "
                    "illegal command: a one-antenna reader; set select-antenna = false in the "
                    "reader profile (mjtable probe names the profile that fits)"
                )
            elif resp.cmd == UHFCmd.INVENTORY:
                seen = layouts_of(resp)
                if seen and reader.inventory_layout not in seen:
                    layout = sorted(x.value for x in seen)[0]
                    self.misfit = (
                        f"the reader at address {resp.adr} answers in the {layout} inventory "
                        f"layout, not the profile's {reader.inventory_layout.value}: its tiles "
                        f'would go unread; set inventory-layout = "{layout}" in the reader '
                        "profile (mjtable probe names the profile that fits)"
                    )

    def next_round(self, stop: Stop) -> Round | None:
        while not stop():
            try:
                item = self.inbox.get(timeout=0.05)
            except queue.Empty:
                item = None
            t = self.clock()
            step = None
            if self.record is not None and isinstance(item, LinkChanged):
                self.record.link("reader", item.state)
            if self.record is not None and isinstance(item, DataReceived):
                self.record.chunk("reader", "rx", item.data)
            if isinstance(item, LinkChanged):
                self.polling = item.state is LinkState.UP
                self.say(f"reader link {item.state.value}")
                self._current = {}
                step = self.poller.start(t) if self.polling else None
            elif isinstance(item, DataReceived) and self.polling:
                step = self.poller.feed(item.t, item.data)
            elif self.polling:
                step = self.poller.tick(t)
            if step is None:
                continue
            done = step.round_done
            for event in step.events:
                if isinstance(event, TagsRead):
                    _add(self._current, event)
                elif isinstance(event, FrameError) and event.data:
                    self._check(event)
            if self.misfit:
                self.say(self.misfit)
                return None
            if step.send and self.link.write(step.send) and self.record is not None:
                self.record.chunk("reader", "tx", step.send)
            if done:
                out, self._current = self._current, {}
                return out
        return None

    def close(self) -> None:
        self.link.stop()
        if self.record is not None:
            self.record.close()


class SpotRounds:
    """Rounds from a single-spot PN53x (a PN532 on a serial port, a PN533 on USB) through
    the daemon's polling driver (controller/devices/pn53x_reader.py): one poll each."""

    def __init__(self, say: Say, reader: PN53xReader, pause: float = 0.02) -> None:
        self.reader = reader
        self.say = say
        self.pause = pause

    def next_round(self, stop: Stop) -> Round | None:
        while not stop():
            current: dict[bytes, dict[int, int]] = {}
            polled = False
            for event in self.reader.step():
                if isinstance(event, LinkChanged):
                    self.say(f"reader link {event.state.value} ({event.detail})")
                elif isinstance(event, TagsRead):
                    _add(current, event)
                    polled = True
            if polled:
                return current
            time.sleep(self.pause)  # a real device's pace; nothing to wait on in the driver
        return None

    def close(self) -> None:
        self.reader.close()


def _step_line(tally: Tally) -> str:
    f = tally.figures()
    return (
        f"own reads {f.read_rate:.1%}, longest miss {f.longest_miss}, crosstalk {f.crosstalk_reads}"
    )


def guided(
    source: Any,
    profile: ReaderProfile,
    antennas: Sequence[int],
    rounds: int,
    say: Say,
    settle: int = 3,
    stop: Stop = lambda: False,
) -> Tally | None:
    """The live session (module docstring); None when stopped before the end."""
    tally = Tally()
    single = len(profile.antennas) == 1
    for i, a in enumerate(antennas, 1):
        tag = f"[{i}/{len(antennas)}] antenna {a} ({profile.antennas[a].zone})"
        what = "one tile" if single else "1 to 4 tiles"
        say(f"{tag}: put {what} on it, nothing on the other antennas")
        calm, found, warned = 0, set(), ""
        while calm < settle:
            r = source.next_round(stop)
            if r is None:
                return None
            on_a = {uid for uid, seen in r.items() if a in seen}
            stray = sorted({x for uid, seen in r.items() if uid not in on_a | found for x in seen})
            if on_a and not stray:
                calm, found = calm + 1, found | on_a
                continue
            calm, found = 0, set()
            warn = (
                f"{tag}: lift the tiles from antenna {', '.join(map(str, stray))}" if stray else ""
            )
            if warn and warn != warned:
                say(warn)
            warned = warn
        say(f"{tag}: {len(found)} tiles: recording {rounds} rounds")
        placed = dict.fromkeys(found, a)
        step = Tally()
        quarter = max(1, rounds // 4)
        for n in range(1, rounds + 1):
            r = source.next_round(stop)
            if r is None:
                return None
            tally.add(r, placed)
            step.add(r, placed)
            if n % quarter == 0 and n < rounds:
                say(f"{tag}: {n}/{rounds} rounds: {_step_line(step)}")
        say(f"{tag}: done: {_step_line(step)}")
    return tally


def capture_rounds(path: Path) -> tuple[ReaderProfile, list[Round]]:
    """The inventory rounds of a capture's reader traffic, replayed through the real poller
    on the recorded times (as tools/capture.replay does)."""
    from tools.capture_file import CaptureError, Link, read
    from tools.sim.client import BusPoller

    header, records = read(path)
    try:
        profile = load_reader(header["reader"]["profile"])
    except (KeyError, TypeError):
        raise CaptureError(f"{path}:1: the header names no reader profile") from None
    if profile.reader.model is not ReaderModel.UHF_SERIAL:
        raise CaptureError(f"{path}: a {profile.reader.model.value} capture (UHF only)")
    poller = BusPoller(profile)
    out: list[Round] = []
    current: dict[bytes, dict[int, int]] = {}
    started = False

    def take(events: Sequence[Any], done: bool) -> None:
        nonlocal current
        for e in events:
            if isinstance(e, TagsRead):
                _add(current, e)
        if done:
            out.append(current)
            current = {}

    for rec in records:
        if started:
            step = poller.tick(rec.t)
            take(step.events, step.round_done)
        if isinstance(rec, Link):
            if rec.device == "reader":
                started, current = False, {}
            continue
        if rec.device != "reader":
            continue
        if rec.direction == "tx":
            if not started:
                poller.start(rec.t)
                started = True
            continue
        step = poller.feed(rec.t, rec.data)
        take(step.events, step.round_done)
    return profile, out
