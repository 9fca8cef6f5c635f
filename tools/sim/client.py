"""A minimal host for the simulator's devices: the real drivers (SerialLink, TableDriver,
UHFPoller, Debouncer) wired to the two ptys, for tests, capture recording and tools.
It is not the daemon (no state machine, no journal): it turns bytes into typed events.

`BusPoller` polls a reader profile whose antennas span several readers of the UHF family on
one serial line (8 antennas per address, see tools/sim/devices.py): one `UHFPoller` per
address, each running one full antenna cycle in turn; antenna numbers are mapped back to
the profile's (address k, port p → 8k + p). When the cycle returns to address 0, a
debouncer round is complete (`BusStep.round_done`).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from controller.devices.events import DataReceived, FrameError, LinkChanged, LinkState, TagsRead
from controller.devices.serial_link import LinkConfig, SerialLink
from controller.devices.table import Command, TableDriver
from controller.devices.uhf_poller import PollerConfig, PollStep, UHFPoller
from controller.devices.uhf_reader import MAX_ANTENNAS, UHFCodecStats
from controller.profiles import ReaderProfile, TableProfile, TagMap
from controller.recognition.presence import Debouncer


@dataclass(frozen=True, slots=True)
class BusStep:
    events: tuple[TagsRead | FrameError, ...] = ()
    send: bytes = b""
    round_done: bool = False


class BusPoller:
    def __init__(self, profile: ReaderProfile, reply_timeout: float = 0.5) -> None:
        groups: dict[int, list[int]] = {}
        for n in sorted(profile.antennas):
            groups.setdefault((n - 1) // MAX_ANTENNAS, []).append((n - 1) % MAX_ANTENNAS + 1)
        reader = profile.reader
        self.pollers = [
            UHFPoller(
                PollerConfig(
                    tuple(ports),
                    adr=adr,
                    reply_timeout=reply_timeout,
                    layout=reader.inventory_layout,
                    select_antenna=reader.select_antenna,
                )
            )
            for adr, ports in sorted(groups.items())
        ]
        self.offsets = [MAX_ANTENNAS * adr for adr in sorted(groups)]
        self._first = [p.cycle_start() for p in self.pollers]
        self.current = 0

    @property
    def timeouts(self) -> int:
        return sum(p.timeouts for p in self.pollers)

    def stats(self) -> UHFCodecStats:
        all_stats = [p.stats() for p in self.pollers]
        errors: dict = {}
        for s in all_stats:
            for kind, n in s.errors:
                errors[kind] = errors.get(kind, 0) + n
        return UHFCodecStats(
            sum(s.frames for s in all_stats),
            sum(s.bytes_in for s in all_stats),
            sum(s.junk_bytes for s in all_stats),
            tuple(errors.items()),
        )

    def start(self, t: float) -> BusStep:
        self.current = 0
        return BusStep(send=self.pollers[0].start(t).send)

    def feed(self, t: float, data: bytes) -> BusStep:
        return self._wrap(t, self.pollers[self.current].feed(t, data))

    def tick(self, t: float) -> BusStep:
        return self._wrap(t, self.pollers[self.current].tick(t))

    def _wrap(self, t: float, step: PollStep) -> BusStep:
        offset = self.offsets[self.current]
        events = tuple(
            replace(e, antenna=e.antenna + offset) if isinstance(e, TagsRead) else e
            for e in step.events
        )
        send, done = step.send, False
        if send and send == self._first[self.current]:
            # this reader's cycle is over: hand the line to the next address
            self.current = (self.current + 1) % len(self.pollers)
            done = self.current == 0
            send = self.pollers[self.current].start(t).send
        return BusStep(events, send, done)


Item = LinkChanged | DataReceived


class HostClient:
    """Both devices through the real drivers; every typed event goes to `events` (a queue),
    presence changes included. Start with `start()`, end with `stop()`."""

    def __init__(
        self,
        table_path: str,
        reader_path: str,
        table: TableProfile,
        reader: ReaderProfile,
        tags: TagMap,
        clock: Callable[[], float] = time.monotonic,
        reply_timeout: float = 0.5,
    ) -> None:
        self.clock = clock
        self.inbox: queue.Queue[Item] = queue.Queue()
        self.events: queue.Queue = queue.Queue()
        cfg = LinkConfig(table_path, read_timeout=0.02, backoff_initial=0.05, backoff_max=0.5)
        self.table_link = SerialLink("table", cfg, self.inbox.put, clock)
        self.reader_link = SerialLink(
            "reader", replace(cfg, url=reader_path), self.inbox.put, clock
        )
        self.driver = TableDriver(table)
        self.poller = BusPoller(reader, reply_timeout)
        self.debouncer = Debouncer(reader, tags, clock)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sim-client", daemon=True)
        self._polling = False

    def start(self) -> None:
        self.table_link.start()
        self.reader_link.start()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.table_link.stop()
        self.reader_link.stop()

    def command(self, command: Command) -> bool:
        return self.table_link.write(self.driver.encode(command))

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                item = self.inbox.get(timeout=0.02)
            except queue.Empty:
                item = None
            t = self.clock()
            if isinstance(item, LinkChanged):
                self.events.put(item)
                if item.device == "reader":
                    self._polling = item.state is LinkState.UP
                    if self._polling:
                        self._send(self.poller.start(t))
            elif isinstance(item, DataReceived):
                if item.device == "table":
                    for ev in self.driver.feed(item.t, item.data):
                        self.events.put(ev)
                elif self._polling:
                    self._send(self.poller.feed(item.t, item.data))
            if self._polling:
                self._send(self.poller.tick(t))

    def _send(self, step: BusStep) -> None:
        for ev in step.events:
            if isinstance(ev, TagsRead):
                self.debouncer.observe(ev)
            else:
                self.events.put(ev)
        if step.round_done:
            for change in self.debouncer.end_round():
                self.events.put(change)
        if step.send:
            self.reader_link.write(step.send)
