"""A polled reader link: one thread steps a PN53x driver (controller/devices/pn53x_reader.py:
a PN533 on USB, pn533_usb.py, or a PN532 on a serial line, pn532_uart.py) at a steady pace
and hands the daemon what it read, as SerialLink does for the byte-stream devices (one
thread-safe sink, `LinkChanged` on connect and loss).

The driver does the exchanges and the decoding, so there is no byte stream to hand over:
each poll is one `ReaderPolled` (its `TagsRead`, a `FrameError` per damaged frame or failed
exchange, and the answer frame's bytes); an answered one is one round of the debouncer
(controller/daemon/reader_bus.py `PolledRounds`).
Reconnection after an unplug is the driver's (backoff on its clock); this thread only keeps
stepping it. Errors raised by the sink are bugs, not link faults: logged with the
traceback, and the link carries on.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from controller.devices.events import FrameError, LinkChanged, ReaderPolled, TagsRead
from controller.devices.pn53x_reader import PN53xReader

log = logging.getLogger(__name__)


class PolledReaderLink:
    def __init__(
        self,
        reader: PN53xReader,
        sink: Callable[[LinkChanged | ReaderPolled], Any],
        interval: float = 0.02,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.reader = reader
        self.device = reader.device
        self.interval = interval  # seconds between polls: a debouncer round
        self.clock = clock
        self._sink = sink
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def poll(self) -> list[LinkChanged | ReaderPolled]:
        """One step of the driver, as the items the daemon's queue takes, in the driver's
        order (a failed poll's errors before the loss they led to; tests call it)."""
        out: list[LinkChanged | ReaderPolled] = []
        reads: list = []
        for ev in [*self.reader.step(), None]:
            if not isinstance(ev, TagsRead | FrameError) and reads:
                answer, self.reader.last_answer = self.reader.last_answer, b""
                out.append(ReaderPolled(reads[-1].t, self.device, tuple(reads), answer))
                reads = []
            if isinstance(ev, LinkChanged):
                out.append(ev)
            elif ev is not None:
                reads.append(ev)
        return out

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._run, name=f"mjtable-{self.device}", daemon=True
        )
        self._thread.start()

    def write(self, data: bytes) -> bool:
        return False  # the driver does its own exchanges: nothing to send from outside

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        self.reader.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            started = self.clock()
            try:
                for item in self.poll():
                    self._sink(item)
            except Exception:
                log.exception("%s: polling failed", self.device)
            self._stop.wait(max(0.0, self.interval - (self.clock() - started)))
