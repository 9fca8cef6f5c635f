"""The reader side of the daemon: one serial line carrying one or more UHF readers of the
UHFReader18 family (8 antenna ports per reader address), polled in turn.

A reader profile numbers its antennas 1..8·k; antenna n is port (n-1) mod 8 + 1 of the
reader at address (n-1) div 8 (the simulator's bus does the same, tools/sim/devices.py).
Each address gets a sans-I/O `UHFPoller`; they take turns, one full antenna cycle each.
When the turn comes back to the first address, a debouncer round is over (`round_done`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.devices.events import FrameError, TagsRead
from controller.devices.uhf_reader import (
    MAX_ANTENNAS,
    PollerConfig,
    PollStep,
    UHFPoller,
    set_antenna_command,
)
from controller.profiles import ReaderProfile


@dataclass(frozen=True, slots=True)
class BusStep:
    events: tuple[TagsRead | FrameError, ...] = ()
    send: bytes = b""
    round_done: bool = False


class ReaderBus:
    def __init__(self, profile: ReaderProfile, reply_timeout: float = 0.5) -> None:
        ports: dict[int, list[int]] = {}
        for n in sorted(profile.antennas):
            ports.setdefault((n - 1) // MAX_ANTENNAS, []).append((n - 1) % MAX_ANTENNAS + 1)
        self.addresses = sorted(ports)
        self.pollers = [
            UHFPoller(PollerConfig(tuple(ports[a]), adr=a, reply_timeout=reply_timeout))
            for a in self.addresses
        ]
        # a poller whose next command selects its first antenna has finished its cycle
        self._restart = [
            set_antenna_command(p.config.antennas[0], p.config.adr).encode() for p in self.pollers
        ]
        self.turn = 0
        self.rounds = 0

    def start(self, t: float) -> BusStep:
        """Begin polling (again, after a reconnect) at the first address."""
        self.turn = 0
        return BusStep(send=self.pollers[0].start(t).send)

    def feed(self, t: float, data: bytes) -> BusStep:
        return self._step(t, self.pollers[self.turn].feed(t, data))

    def tick(self, t: float) -> BusStep:
        return self._step(t, self.pollers[self.turn].tick(t))

    def _step(self, t: float, step: PollStep) -> BusStep:
        base = MAX_ANTENNAS * self.addresses[self.turn]
        events = tuple(
            replace(e, antenna=e.antenna + base) if isinstance(e, TagsRead) else e
            for e in step.events
        )
        if not step.send or step.send != self._restart[self.turn]:
            return BusStep(events, step.send)
        self.turn = (self.turn + 1) % len(self.pollers)
        done = self.turn == 0
        if done:
            self.rounds += 1
        return BusStep(events, self.pollers[self.turn].start(t).send, done)
