"""The reader side of the daemon: one serial line carrying one or more UHF readers of the
UHFReader18 family (8 antenna ports per reader address), or FEIG ISO 15693 readers (one
antenna each), polled in turn.

A reader profile numbers its antennas 1..8·k; antenna n is port (n-1) mod 8 + 1 of the
reader at address (n-1) div 8 (the simulator's bus does the same, tools/sim/devices.py).
Each address gets a sans-I/O `UHFPoller` that selects all its ports with one 0x3F mask and
inventories them with one command (`together`): a round of the sim-uhf bus (17 antennas,
3 addresses) is 6 command/answer pairs on the line instead of 34, and the pty or USB
adapter's latency is paid per pair. When the turn comes back to the first address, a
debouncer round is over (`round_done`).

FEIG ID ISC.MR101-class readers (controller/devices/iso15693_feig.py) have one antenna each:
antenna n is the reader at COM-ADR n - 1, and its `FeigPoller` asks one inventory (and
its further data sets) per turn. That choice of pollers by the profile's model is the bus's
only branch on it; the turns, the pace and the focus are the same for both.

Pace: a round starts no sooner than `interval` seconds after the previous one started (the
profile's `rounds-per-second`; 0 under `--fast`): when an answer ends a round early, the next
round's first command waits for a `tick`. So the polling rate is the profile's, not the
line's: a reader answering at once is not polled hundreds of times a second. A poller's reply
timeout adds the profile's inventory time of its antennas to `reply_timeout`.

Focus: while the walls are built only the wall antenna has anything to say, and the wall
order can only be told as finely as that antenna is read (docs/RECOGNITION.md "The wall
scan"), so `focus(antennas)` polls those antennas alone until `focus(None)`. A change of
focus takes effect at the end of the current round, so no answer to a command of the old
schedule reaches a poller of the new one.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.devices.events import FrameError, ReaderPolled, TagsRead
from controller.devices.uhf_poller import PollerConfig, PollStep, UHFPoller
from controller.devices.uhf_reader import MAX_ANTENNAS
from controller.profiles import ReaderModel, ReaderProfile

if TYPE_CHECKING:  # imported where a FEIG reader is polled: nothing at a UHF table's start
    from controller.devices.iso15693_feig import FeigPoller, FeigStep


@dataclass(frozen=True, slots=True)
class BusStep:
    events: tuple[TagsRead | FrameError, ...] = ()
    send: bytes = b""
    round_done: bool = False
    answer: bytes = b""  # every byte received since the last command (the whole answer)


class ReaderBus:
    def __init__(
        self, profile: ReaderProfile, reply_timeout: float = 0.5, interval: float = 0.0
    ) -> None:
        self.profile = profile
        self.antennas = frozenset(profile.antennas)
        self.reply_timeout = reply_timeout
        self.interval = interval
        self.rounds = 0
        self.turn = 0
        self._round_started = 0.0
        self._waiting = False  # a round is over early: the next starts at a tick
        self.focused: frozenset[int] | None = None
        self._next_focus: frozenset[int] | None = None
        self._focus_changed = False
        self._raw = bytearray()
        self._build(self.antennas)

    def _build(self, antennas: Collection[int]) -> None:
        self.pollers: list[UHFPoller] | list[FeigPoller]
        if self.profile.reader.model is ReaderModel.FEIG_ISO15693:
            from controller.devices.iso15693_feig import FeigPoller

            self.addresses = [n - 1 for n in sorted(antennas)]
            self.pollers = [
                FeigPoller(
                    adr=n - 1,
                    antenna=n,
                    reply_timeout=self.reply_timeout + self.profile.antennas[n].inventory_s,
                )
                for n in sorted(antennas)
            ]
            self._restart = [p.cycle_start() for p in self.pollers]
            self.turn = 0
            return
        ports: dict[int, list[int]] = {}
        for n in sorted(antennas):
            ports.setdefault((n - 1) // MAX_ANTENNAS, []).append((n - 1) % MAX_ANTENNAS + 1)
        self.addresses = sorted(ports)
        reader = self.profile.reader
        self.pollers = [
            UHFPoller(
                PollerConfig(
                    tuple(ports[a]),
                    adr=a,
                    reply_timeout=self.reply_timeout
                    + sum(
                        self.profile.antennas[a * MAX_ANTENNAS + p].inventory_s for p in ports[a]
                    ),
                    layout=reader.inventory_layout,
                    select_antenna=reader.select_antenna,
                    # one inventory for all ports needs answers that name their antenna
                    together=reader.select_antenna and reader.inventory_layout.antenna_byte,
                    base=a * MAX_ANTENNAS,
                )
            )
            for a in self.addresses
        ]
        # a poller that sends its first command again has finished its cycle
        self._restart = [p.cycle_start() for p in self.pollers]
        self.turn = 0

    def focus(self, antennas: Collection[int] | None) -> None:
        """Poll only `antennas` (None: every antenna) from the next round on."""
        wanted = None if not antennas else frozenset(antennas) & self.antennas or None
        if wanted != (self._next_focus if self._focus_changed else self.focused):
            self._next_focus, self._focus_changed = wanted, True

    def start(self, t: float) -> BusStep:
        """Begin polling (again, after a reconnect) at the first address."""
        self._apply_focus()
        self.turn = 0
        self._raw.clear()
        self._waiting = False
        self._round_started = t
        return BusStep(send=self.pollers[0].start(t).send)

    def polled(self, ev: ReaderPolled) -> BusStep:
        """A poll its driver made (not expected of a bus reader): one round."""
        return BusStep(ev.events, round_done=True, answer=ev.answer)

    def feed(self, t: float, data: bytes) -> BusStep:
        self._raw += data
        step = self.pollers[self.turn].feed(t, data)
        if self._waiting:  # a late answer between rounds: nothing is sent until the tick
            return BusStep(step.events) if step.events else _NOTHING
        return self._step(t, step)

    def tick(self, t: float) -> BusStep:
        if self._waiting:
            if t < self._round_started + self.interval:
                return _NOTHING
            self._waiting = False
            self._round_started = t
            return BusStep(send=self.pollers[0].start(t).send)
        return self._step(t, self.pollers[self.turn].tick(t))

    def _apply_focus(self) -> None:
        if self._focus_changed:
            self._focus_changed = False
            self.focused = self._next_focus
            self._build(self.focused or self.antennas)

    def _step(self, t: float, step: PollStep | FeigStep) -> BusStep:
        events = step.events
        if not step.send:
            return BusStep(events) if events else _NOTHING
        # the answer is complete (or timed out): a new command goes out
        answer = bytes(self._raw)
        self._raw.clear()
        if step.send != self._restart[self.turn]:
            return BusStep(events, step.send, answer=answer)
        self.turn = (self.turn + 1) % len(self.pollers)
        if self.turn:
            return BusStep(events, self.pollers[self.turn].start(t).send, False, answer)
        self.rounds += 1
        self._apply_focus()
        if t < self._round_started + self.interval:
            self._waiting = True  # the next round starts at a tick
            return BusStep(events, b"", True, answer)
        self._round_started = t
        return BusStep(events, self.pollers[0].start(t).send, True, answer)


_NOTHING = BusStep()


class PolledRounds:
    """A reader its own driver polls (a PN53x over USB or a UART,
    controller/devices/polled_link.py): no bytes to decode and no commands to send, each
    poll is one `BusStep`, so the core takes it as it takes a bus reader's. A poll that got
    no answer says nothing of the spot: it ends no round, so a few failed polls do not lift
    the tiles lying there (the driver reports the chip lost when it stays silent,
    controller/devices/pn53x_reader.py)."""

    interval = 0.0

    def focus(self, antennas: Collection[int] | None) -> None:
        pass  # its driver polls its one antenna

    def start(self, t: float) -> BusStep:
        return _NOTHING

    def tick(self, t: float) -> BusStep:
        return _NOTHING

    def feed(self, t: float, data: bytes) -> BusStep:
        return _NOTHING

    def polled(self, ev: ReaderPolled) -> BusStep:
        read = any(isinstance(e, TagsRead) for e in ev.events)
        return BusStep(ev.events, round_done=read, answer=ev.answer)


def reader_rounds(profile: ReaderProfile, interval: float) -> ReaderBus | PolledRounds:
    """The core's reader: a bus it polls, or rounds a reader's own driver polls."""
    if profile.reader.model.on_bus:
        return ReaderBus(profile, interval=interval)
    return PolledRounds()
