"""The simulator's devices on real pseudo-terminals: the automatic table (TableSide, the
sim-table profile) and the reader bus (SimUHFReader answering from the world; for a FEIG
ISO 15693 profile, tools/sim/feig_reader.py's FeigLine on the same line and pace).

Each device owns a pty pair; its slave is reached through a stable symlink in the
simulator's folder (`table`, `reader`), replaced atomically as udev does for
/dev/serial/by-id, so a client reopens the same path after an unplug. An unplug closes the
master (the client's reads fail with EIO) and removes the symlink; a replug makes a new pty
behind the same symlink.

Linux pty quirk: while no process holds the slave open, polling the master reports POLLHUP
(and bytes written to the master are lost). That is how a device knows a client has opened
it (`client_open`); the reader also counts the commands it receives.

A reader bus: the UHFReader18 family carries one byte of antenna bits, so a reader has at
most 8 antennas; a profile with more (sim-uhf has 17) is served by several readers on one
serial line (the family's RS-485 address byte): reader address k holds profile antennas
8k+1 .. 8k+8 as its ports 1..8. A broadcast (0xFF) command is answered by address 0 alone,
so a single-reader client sees an ordinary reader.

Pace (`paced`, every mode but `--fast`): a device answers when real hardware would. The
reader's answer reaches the host after the wire time of the command and of the answer at the
profile's baud rate (10 bits a byte) plus the profile's inventory time of every antenna the
command inventoried (`inventory-ms`); the table board's acknowledgement after the wire time
of the command and the acknowledgement at the table profile's baud rate. The device thread
keeps such answers in a queue until they are due (`DeviceLoop.later`), so one thread still
serves every device. An antenna counts as inventoried (what the simulation's pace waits
for) when its answer has reached the host. Unpaced, every answer is written at once: the
host's polling sets the pace.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import logging
import math
import os
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from controller.devices.events import CommandAcked, FrameError, TableEvent, TableIdentified
from controller.devices.table import (
    Buzzer,
    Command,
    Identify,
    Light,
    RaiseWalls,
    ShowCountdown,
    ShowScore,
    StartShuffle,
    TableSide,
    Unsupported,
)
from controller.devices.uhf_reader import (
    BROADCAST,
    MAX_ANTENNAS,
    CommandDecoder,
    UHFCmd,
    UHFCommand,
    UHFResponse,
    inventory_responses,
)
from controller.profiles import CommandKind, EventKind, ReaderModel, TableProfile
from rules.seats import SEATS, Seat
from tools.sim.feig_reader import FeigLine
from tools.sim.noise import Noise
from tools.sim.uhf_reader import SimUHFReader
from tools.sim.world import World

log = logging.getLogger(__name__)

Tap = Callable[[str, str, bytes], None]  # device, "rx"|"tx" (host's view), bytes
SIM_MODEL, SIM_VERSION = 0x5101, 1  # what the simulated board answers to `identify`
Later = Callable[[float, Callable[[], None]], None]  # run this after that many seconds


def wire_seconds(nbytes: int, baud: int) -> float:
    """Seconds `nbytes` take on a serial line at `baud` (8N1: 10 bits a byte)."""
    return nbytes * 10 / baud


def _at_once(delay: float, action: Callable[[], None]) -> None:
    action()


class PtyEndpoint:
    """One pty pair behind a symlink; the simulator holds the master."""

    def __init__(self, name: str, link: Path) -> None:
        self.name = name
        self.link = link
        self.master: int | None = None
        self.slave_name = ""
        self.plug()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        self.slave_name = os.ttyname(slave)
        os.close(slave)
        os.set_blocking(master, False)
        tmp = self.link.with_name(self.link.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(self.slave_name)
        tmp.replace(self.link)
        self.master = master

    def unplug(self) -> None:
        """The cable is pulled: the client's port fails, the by-id link disappears."""
        if self.master is not None:
            os.close(self.master)
            self.master = None
        self.link.unlink(missing_ok=True)

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def client_open(self) -> bool:
        if self.master is None:
            return False
        p = select.poll()
        p.register(self.master, select.POLLIN)
        return not any(ev & select.POLLHUP for _, ev in p.poll(0))

    def read(self) -> bytes:
        if self.master is None:
            return b""
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, OSError):  # EIO: no client holds the slave
            return b""

    def write(self, data: bytes) -> bool:
        if self.master is None or not data:
            return False
        try:
            os.write(self.master, data)
        except OSError:
            return False
        return True

    def close(self) -> None:
        self.unplug()


class NoBoard:
    """A table with no serial link (`mjtable sim --table none`, issue 18): it still
    shuffles, builds its walls and rolls its dice, but says nothing of it; the players'
    presses go nowhere (no buttons), and there are no seat displays or lights."""

    endpoint: PtyEndpoint | None = None
    scores_shown = 0
    referee_called = False

    def send(self, event: TableEvent) -> bool:
        return False


class VirtualTable:
    """The table's controller board: sends events, acknowledges and records commands. An
    event its profile has no message for is not sent (a board that does not report the
    shuffle, the walls or the dice: `sim-table-buttons`)."""

    def __init__(
        self,
        profile: TableProfile,
        endpoint: PtyEndpoint,
        tap: Tap | None,
        on_command: Callable[[CommandKind, Command], None] | None = None,
        later: Later = _at_once,
        paced: bool = False,
    ) -> None:
        self.side = TableSide(profile)
        self.endpoint = endpoint
        self.tap = tap
        self.on_command = on_command  # the truth's record of what the host asked for
        self.later = later
        self.paced = paced
        self.baud = profile.table.baud
        self.commands: list[Command] = []
        self.start_requests = 0
        self.lit: set[Seat] = set()  # the seats' lights: all four is the host's referee call
        self.scores_shown = 0  # show-score commands received (the players read them)
        self.lock = threading.Lock()

    @property
    def referee_called(self) -> bool:
        """The host lit every seat's light: the players wait for the referee."""
        return len(self.lit) == len(SEATS)

    def send(self, event: TableEvent) -> bool:
        try:
            data = self.side.encode(event)
        except Unsupported:
            return False  # this board does not say it
        with self.lock:
            if not self.endpoint.client_open():
                return False  # nobody listening: a real board's bytes go nowhere too
            ok = self.endpoint.write(data)
        if ok and self.tap:
            self.tap("table", "rx", data)
        return ok

    def on_bytes(self, data: bytes) -> None:
        if self.tap:
            self.tap("table", "tx", data)
        items = self.side.feed(time.monotonic(), data)
        if not self.paced:
            self._take(items)
            return
        ack = 0  # the acknowledgement's bytes, when the board acknowledges
        if self.side.profile.event(EventKind.ACK) is not None:
            ack = len(self.side.encode(CommandAcked(0.0, CommandKind.LIGHT)))
        commands = sum(1 for i in items if not isinstance(i, FrameError))
        delay = wire_seconds(len(data) + ack * commands, self.baud)
        self.later(delay, lambda: self._take(items))

    def _take(self, items: list) -> None:
        for item in items:
            if isinstance(item, StartShuffle):
                self.start_requests += 1
            if isinstance(item, Light):
                (self.lit.add if item.on else self.lit.discard)(item.seat)
            if isinstance(item, ShowScore):
                self.scores_shown += 1
            if isinstance(item, FrameError):
                continue  # counted by the codec; a real board ignores a bad frame too
            self.commands.append(item)
            kind = _COMMAND_KINDS[type(item)]
            if self.on_command is not None:
                self.on_command(kind, item)
            if isinstance(item, Identify) and self.side.profile.event(EventKind.IDENTITY):
                self.send(TableIdentified(0.0, SIM_MODEL, SIM_VERSION))
            elif self.side.profile.event(EventKind.ACK) is not None:
                self.send(CommandAcked(0.0, kind))


_COMMAND_KINDS = {
    StartShuffle: CommandKind.START_SHUFFLE,
    RaiseWalls: CommandKind.RAISE_WALLS,
    ShowScore: CommandKind.SHOW_SCORE,
    Light: CommandKind.LIGHT,
    Buzzer: CommandKind.BUZZER,
    ShowCountdown: CommandKind.SHOW_COUNTDOWN,
    Identify: CommandKind.IDENTIFY,
}


class _WorldReader(SimUHFReader):
    """One reader of the bus: its ports answer from the world's tags, through the noise."""

    def __init__(self, bus: ReaderBus, adr: int, first: int, ports: int) -> None:
        super().__init__(antennas=ports, adr=adr)
        self.bus = bus
        self.first = first  # profile antenna number of port 1
        self.polled: list[int] = []  # profile antennas the answers being made inventory

    def answer(self, command: UHFCommand) -> list[UHFResponse]:
        if command.cmd != UHFCmd.INVENTORY:
            return super().answer(command)
        ports = [a for a in range(1, self.antennas + 1) if self.enabled & (1 << (a - 1))]
        fields = self.bus.world.tags_by_antenna()
        frames: list[UHFResponse] = []
        for i, port in enumerate(ports):
            reads = self.bus.noise.reads(self.first + port - 1, fields)
            frames += inventory_responses(port, reads, self.adr, more=i < len(ports) - 1)
            self.polled.append(self.first + port - 1)
        return frames


class ReaderBus:
    """The readers of a profile on one serial line (see the module docstring): the UHF
    family by address, or a FEIG ISO 15693 profile's `FeigLine`."""

    def __init__(
        self,
        world: World,
        noise: Noise,
        endpoint: PtyEndpoint,
        tap: Tap | None,
        later: Later = _at_once,
        paced: bool = False,
    ):
        self.world = world
        self.noise = noise
        self.endpoint = endpoint
        self.tap = tap
        self.later = later
        self.paced = paced
        self.baud = world.reader.reader.baud
        self.decoder = CommandDecoder("sim-bus")
        numbers = sorted(world.reader.antennas)
        top = numbers[-1]
        self.readers: dict[int, _WorldReader] = {}
        # a FEIG ISO 15693 profile: one reader per antenna, FEIG frames (tools/sim/feig_reader.py)
        self.feig = (
            FeigLine(world, noise)
            if world.reader.reader.model is ReaderModel.FEIG_ISO15693
            else None
        )
        for adr in range((top + MAX_ANTENNAS - 1) // MAX_ANTENNAS if self.feig is None else 0):
            first = adr * MAX_ANTENNAS + 1
            self.readers[adr] = _WorldReader(self, adr, first, min(MAX_ANTENNAS, top - first + 1))
        self.commands = 0
        self.cond = threading.Condition()
        self._inventories: dict[int, int] = dict.fromkeys(numbers, 0)

    def inventoried(self, antennas: list[int]) -> None:
        with self.cond:
            for antenna in antennas:
                if antenna in self._inventories:
                    self._inventories[antenna] += 1
            self.cond.notify_all()

    def rounds(self) -> int:
        """Complete inventory rounds: how often the least polled antenna was inventoried."""
        with self.cond:
            return min(self._inventories.values())

    def wait_rounds(self, target: int, stall: float) -> bool:
        """Until `target` rounds are complete; False when no antenna was inventoried for
        `stall` seconds (no host polls)."""
        return self._wait(lambda: min(self._inventories.values()), target, stall)

    def inventories(self, antennas: frozenset[int]) -> int:
        """How often the least polled of `antennas` was inventoried."""
        with self.cond:
            return min(self._inventories[a] for a in antennas)

    def wait_inventories(self, antennas: frozenset[int], target: int, stall: float) -> bool:
        return self._wait(lambda: min(self._inventories[a] for a in antennas), target, stall)

    def _wait(self, count: Callable[[], int], target: int, stall: float) -> bool:
        """Wait for `count()` to reach `target` as long as it keeps growing: a host polling
        at a real reader's pace takes longer than `stall` for several rounds, but not for one."""
        with self.cond:
            while (now := count()) < target:
                if not self.cond.wait_for(lambda: count() != now, stall):
                    return False
            return True

    def on_bytes(self, data: bytes) -> None:
        if self.tap:
            self.tap("reader", "tx", data)
        if self.feig is not None:
            answer, polled = self.feig.answer(data, self._count)
        else:
            answer, polled = self._uhf_answer(data)
        if not self.paced:
            self._deliver(answer, polled)
            return
        inventory = sum(self.world.reader.antennas[a].inventory_s for a in polled)
        delay = wire_seconds(len(data) + len(answer), self.baud) + inventory
        self.later(delay, lambda: self._deliver(answer, polled))

    def _count(self) -> None:
        with self.cond:
            self.commands += 1
            self.cond.notify_all()

    def _uhf_answer(self, data: bytes) -> tuple[bytes, list[int]]:
        out = bytearray()
        polled: list[int] = []
        for command in self.decoder.feed(data):
            self._count()
            adr = 0 if command.adr == BROADCAST else command.adr
            reader = self.readers.get(adr)
            if reader is None:
                continue  # nobody at that address: the host times out
            for resp in reader.answer(command):
                out += self.noise.frame(resp.encode())
            polled.extend(reader.polled)
            reader.polled.clear()
        return bytes(out), polled

    def _deliver(self, answer: bytes, polled: list[int]) -> None:
        if answer:
            if self.tap:  # first: the host may read the answer before this thread runs again
                self.tap("reader", "rx", answer)
            self.endpoint.write(answer)
        if polled:
            self.inventoried(polled)


class DeviceLoop:
    """One thread serving every pty endpoint: reads what the client wrote, answers."""

    def __init__(self) -> None:
        self._handlers: list[tuple[PtyEndpoint, Callable[[bytes], None]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sim-devices", daemon=True)
        self._due: list[tuple[float, int, Callable[[], None]]] = []  # a heap, by due time
        self._order = itertools.count()  # equal due times keep their order

    def add(self, endpoint: PtyEndpoint, handler: Callable[[bytes], None]) -> None:
        self._handlers.append((endpoint, handler))

    def later(self, delay: float, action: Callable[[], None]) -> None:
        """Run `action` on the device thread `delay` seconds from now (a device's answer
        on its way; called from a handler, i.e. on the device thread)."""
        heapq.heappush(self._due, (time.monotonic() + delay, next(self._order), action))

    def _run_due(self) -> int:
        """Run the actions that are due; milliseconds until the next one (20 at most)."""
        now = time.monotonic()
        while self._due and self._due[0][0] <= now:
            _, _, action = heapq.heappop(self._due)
            try:
                action()
            except Exception:
                log.exception("sim: a delayed answer failed")
        if not self._due:
            return 20
        return min(20, max(0, math.ceil((self._due[0][0] - now) * 1000)))

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.is_set():
            wait_ms = self._run_due()
            fds = {ep.master: (ep, h) for ep, h in self._handlers if ep.master is not None}
            if not fds:
                self._stop.wait(wait_ms / 1000)
                continue
            p = select.poll()
            for fd in fds:
                p.register(fd, select.POLLIN)
            try:
                ready = p.poll(wait_ms)
            except (OSError, ValueError):
                continue  # an endpoint was unplugged under us
            hung = False
            for fd, ev in ready:
                ep, handler = fds[fd]
                if ev & select.POLLIN:
                    data = ep.read()
                    if data:
                        try:
                            handler(data)
                        except Exception:
                            log.exception("sim %s: handler failed", ep.name)
                        continue
                if ev & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                    hung = True
            if hung:
                self._stop.wait(0.01)  # no client on some pty: POLLHUP would spin


def open_endpoint(folder: Path, name: str) -> PtyEndpoint:
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        (folder / name).unlink()
    return PtyEndpoint(name, folder / name)
