"""One serial device link on pyserial: open by path or URL, a reader thread, reconnect with
backoff, link state events and a ring buffer of recent traffic for fault dumps.

Threading: each `SerialLink` owns one daemon thread that blocks in `read` (at most
`read_timeout` at a time) and hands every chunk to the `sink` callback as `DataReceived`,
and every state change as `LinkChanged`. The daemon runs several links and gives them all
one thread-safe sink (e.g. `queue.Queue.put`), so its main loop sees one ordered stream.
`write` may be called from any thread. The device's codec stays outside (bytes in, frames
out), as in pyserial's transport / packetizer / protocol layering.

Unplug handling (HARDWARE-NOTES: on a pty an unplug gives `SerialException` on read/write,
`OSError` EIO on `in_waiting`, `termios.error` on buffer resets): the port is closed,
`LinkChanged(DOWN)` is reported once, and the same path or URL is reopened with
exponential backoff; the first failure is logged as a warning, retries only at debug, and
the next success as `LinkChanged(UP)`. A path (or a symlink such as /dev/serial/by-id/…)
is reopened by name, so a re-enumerated adapter is found again. Errors raised by the sink
are bugs, not link faults: they are logged with the traceback and the link carries on.
"""

from __future__ import annotations

import collections
import logging
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import serial

from controller.devices.events import DataReceived, LinkChanged, LinkState

log = logging.getLogger(__name__)

IO_ERRORS = (serial.SerialException, OSError, termios.error)


class Direction(Enum):
    RX = "rx"
    TX = "tx"


@dataclass(frozen=True, slots=True)
class Traffic:
    t: float
    direction: Direction
    data: bytes


@dataclass(frozen=True, slots=True)
class LinkConfig:
    url: str  # a device path (/dev/ttyUSB0, a symlink) or a pyserial URL (loop://, socket://…)
    baudrate: int = field(default=57600, metadata={"range": (50, 4_000_000)})
    read_timeout: float = 0.05  # seconds a read blocks; bounds how fast `stop` returns
    backoff_initial: float = 0.2
    backoff_max: float = 5.0
    history: int = 256  # traffic entries kept for `dump`
    exclusive: bool = True  # flock the port (POSIX); a second opener fails
    parity: str = serial.PARITY_NONE  # pyserial's "N", "E", "O" (8 data bits, 1 stop bit)


Sink = Callable[[LinkChanged | DataReceived], Any]
Opener = Callable[..., serial.SerialBase]


class SerialLink:
    def __init__(
        self,
        device: str,
        config: LinkConfig,
        sink: Sink,
        clock: Callable[[], float] = time.monotonic,
        opener: Opener = serial.serial_for_url,
    ) -> None:
        self.device = device
        self.config = config
        self.clock = clock
        self._sink = sink
        self._opener = opener
        self._port: serial.SerialBase | None = None
        self._state: LinkState | None = None  # None: nothing reported yet
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._history: collections.deque[Traffic] = collections.deque(maxlen=config.history)
        self._write_failed: BaseException | None = None
        self.failures = 0  # failed opens since the last success

    # -- public -------------------------------------------------------------------
    @property
    def state(self) -> LinkState:
        return self._state or LinkState.DOWN

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"link-{self.device}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the reader thread and close the port; safe to call twice."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close()

    def write(self, data: bytes) -> bool:
        """Send `data`; False when the link is down or the write failed (the reader thread
        then reconnects)."""
        with self._lock:
            port = self._port
            if port is None:
                return False
            try:
                port.write(data)
            except IO_ERRORS as err:
                self._write_failed = err
                return False
            self._history.append(Traffic(self.clock(), Direction.TX, bytes(data)))
        return True

    def history(self) -> tuple[Traffic, ...]:
        with self._lock:
            return tuple(self._history)

    def dump(self) -> list[str]:
        """Recent traffic as readable hex lines, oldest first, 16 bytes a line."""
        lines = []
        for entry in self.history():
            data = entry.data
            head = f"{entry.t:14.6f} {self.device} {entry.direction.value}"
            for i in range(0, max(len(data), 1), 16):
                chunk = data[i : i + 16].hex(" ")
                lines.append(f"{head} {chunk}" if i == 0 else f"{' ' * len(head)} {chunk}")
        return lines

    # -- the reader thread -----------------------------------------------------------
    def _run(self) -> None:
        delay = self.config.backoff_initial
        while not self._stop.is_set():
            if self._port is None:
                if self._open():
                    delay = self.config.backoff_initial
                else:
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.config.backoff_max)
                continue
            self._read_once()
        self._close()

    def _open(self) -> bool:
        try:
            port = self._opener(
                self.config.url,
                baudrate=self.config.baudrate,
                parity=self.config.parity,
                timeout=self.config.read_timeout,
                exclusive=self.config.exclusive,
                do_not_open=True,
            )
            port.open()
        except IO_ERRORS as err:
            self.failures += 1
            if self.failures == 1:
                log.warning("%s: cannot open %s: %s", self.device, self.config.url, err)
            else:
                log.debug("%s: retry %d failed: %s", self.device, self.failures, err)
            self._set_state(LinkState.DOWN, str(err))
            return False
        with self._lock:
            self._port = port
            self._write_failed = None
        if self.failures:
            log.info("%s: reopened %s after %d tries", self.device, self.config.url, self.failures)
        self.failures = 0
        self._set_state(LinkState.UP, self.config.url)
        return True

    def _read_once(self) -> None:
        port = self._port
        assert port is not None
        try:
            if self._write_failed is not None:
                raise self._write_failed
            data = port.read(max(1, port.in_waiting))
        except IO_ERRORS as err:
            log.warning("%s: link lost: %s", self.device, err)
            self._close()
            self._set_state(LinkState.DOWN, str(err))
            return
        if data:
            t = self.clock()
            with self._lock:
                self._history.append(Traffic(t, Direction.RX, data))
            self._deliver(DataReceived(t, self.device, data))

    def _close(self) -> None:
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except IO_ERRORS as err:
                log.debug("%s: close: %s", self.device, err)

    def _set_state(self, state: LinkState, detail: str) -> None:
        if state is self._state:
            return
        if self._state is not None or state is LinkState.UP:
            log.info("%s: link %s (%s)", self.device, state.value, detail)
        self._state = state
        self._deliver(LinkChanged(self.clock(), self.device, state, detail))

    def _deliver(self, item: LinkChanged | DataReceived) -> None:
        try:
            self._sink(item)
        except Exception:
            log.exception("%s: the event sink failed (a bug, not a link fault)", self.device)
