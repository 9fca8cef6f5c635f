"""A PN53x single-spot reader polled by command exchanges, whatever carries its frames: the
exchange of one command (the PN53x's ACK, then its answer) and the polling driver that
connects, configures, lists the target on the spot and reconnects with backoff.

The transports are `pn533_usb.py` (a PN533's bulk endpoints through pyusb) and
`pn532_uart.py` (a PN532's HSU on a serial line); each gives a `FrameExchange` its `read`,
`write` and `close`, and a `PN53xReader` its `_open` (and, for the PN532, the wake-up and
SAMConfiguration its chip needs first). The frames are pn532.py's.

Every answer is an ACK, then the D5 frame (PN532 user manual §6.2.1). An answer that
arrives damaged (bad LCS or DCS: the decoder skips it and counts it) is asked again with a
NACK from the host, which makes the PN53x send its last answer again (§6.2.1), so the
tags of that poll are not lost. A read that times out is not a lost link: the pending
command is aborted with an ACK from the host (§6.2.1); `silent_limit` polls in a row
without an answer, and the chip counts as lost. A transport failure is `DeviceLost`:
`LinkChanged(DOWN)` once, then attempts spaced by `Backoff` (each one opens the device again
and configures it, a PN532 woken first), and `LinkChanged(UP)` when the device answers.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from controller.devices import pn532
from controller.devices.events import FrameError, LinkChanged, LinkState, TagsRead
from controller.devices.pn532 import (
    Ack,
    Command,
    ErrorFrame,
    FirmwareVersion,
    FrameDecoder,
    InfoFrame,
    Nack,
    PassiveTargets,
    PN532CodecStats,
    PN532ErrorKind,
    Unparsed,
)
from controller.errors import DeviceError

log = logging.getLogger(__name__)

Event = LinkChanged | TagsRead | FrameError
# what a frame damaged on the way looks like to the decoder (junk between frames is not a
# frame: a NACK would not bring it back)
DAMAGED = frozenset(
    {
        PN532ErrorKind.BAD_LCS,
        PN532ErrorKind.BAD_DCS,
        PN532ErrorKind.BAD_POSTAMBLE,
        PN532ErrorKind.BAD_TFI,
        PN532ErrorKind.BAD_LENGTH,
    }
)


class DeviceLost(DeviceError):
    """The device is gone (unplugged) or failed at the transport level."""


class NoAnswer(DeviceError):
    """The PN53x did not answer a command in time, or answered with garbage."""


@dataclass(frozen=True, slots=True)
class Backoff:
    """Pause before the n-th reconnection attempt: first, first*2, ... up to most."""

    first: float = 0.5
    most: float = 8.0

    def __post_init__(self) -> None:
        if not 0 < self.first <= self.most:
            raise ValueError("backoff needs 0 < first <= most")

    def delay(self, attempt: int) -> float:
        return min(self.most, self.first * 2 ** min(attempt, 30))


class FrameExchange:
    """One opened PN53x: the ACK + answer exchange of one command over a byte transport.

    A subclass gives `write(data)`, `read()` (bytes, or None when nothing came within its
    timeout), `close()` (never raises) and may give `discard()` (drop stale input before a
    command); `write` and `read` raise `DeviceLost` when the device is gone.
    """

    name = "PN53x"

    def __init__(self, device: str, nack_retries: int = 1) -> None:
        self.decoder = FrameDecoder(device)
        self.nack_retries = nack_retries
        self.resent = 0  # answers asked again with a NACK after a damaged frame
        self._frames: list[pn532.Frame] = []
        self._damaged_at = 0  # damaged frames the decoder had skipped when the command went out

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def read(self) -> bytes | None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def discard(self) -> None:
        """Drop input nobody asked for (a late answer to an aborted command)."""

    def exchange(self, frame: bytes, command: Command) -> InfoFrame:
        """Send one command frame, wait for the ACK and the D5 answer to `command`."""
        self._frames.clear()
        self.discard()
        self._damaged_at = self._damaged()
        self.write(frame)
        if not isinstance(self._next_frame(), Ack):
            raise NoAnswer(f"no ACK to command 0x{command:02x}")
        answer = self._next_frame(nack=True)
        if isinstance(answer, InfoFrame) and answer.code == command + 1:
            return answer
        raise NoAnswer(f"answer {answer!r} to command 0x{command:02x}")

    def abort(self) -> None:
        """An ACK from the host cancels the PN53x's current command."""
        self.write(pn532.ACK_FRAME)
        self.decoder.flush()
        self._frames.clear()

    def _damaged(self) -> int:
        return sum(n for kind, n in self.decoder.stats().errors if kind in DAMAGED)

    def _next_frame(self, nack: bool = False) -> pn532.Frame:
        """The next frame. With `nack`, a frame the decoder skipped as damaged is asked
        again with a NACK, at most `nack_retries` times."""
        asked = 0
        while not self._frames:
            # a frame skipped since the command went out (it may have come in with the ACK)
            damaged = self._damaged()
            if nack and damaged > self._damaged_at and asked < self.nack_retries:
                asked += 1
                self.resent += 1
                self._damaged_at = damaged
                self.write(pn532.NACK_FRAME)
            data = self.read()
            if data is None:
                self._frames += self.decoder.flush()
                if not self._frames:
                    raise NoAnswer("read timed out")
                break
            self._frames += self.decoder.feed(data)
        frame = self._frames.pop(0)
        if isinstance(frame, Nack | ErrorFrame):
            raise NoAnswer(f"{self.name} answered {type(frame).__name__}")
        return frame


class PN53xReader:
    """Polling driver: each `step()` connects if needed, lists the target on the spot and
    returns the events — `LinkChanged` on connect/loss, `TagsRead(antenna=1)` per poll,
    `FrameError` per damaged frame skipped and per failed exchange. Never raises for device
    trouble. The caller decides the pace; reconnection attempts are spaced by `backoff` on
    the injected clock. A subclass gives `_open` (and `_configure` for what its chip needs
    before GetFirmwareVersion).
    """

    absent = "no PN53x found"  # what a failed `_open` that found nothing says
    # polls in a row without an answer after which the chip counts as lost (a PN532 that
    # reset behind a UART that stayed: asleep until woken again at the next open)
    silent_limit = 3

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff | None = None,
        device: str = "reader",
        max_targets: int = 1,
    ) -> None:
        self.last_answer = b""  # the last poll's answer frame (for the daemon's journal)
        self.clock = clock
        self.backoff = backoff or Backoff()
        self.device = device
        self.max_targets = max_targets
        self.link: FrameExchange | None = None
        self.firmware: FirmwareVersion | None = None
        self.failures = 0  # consecutive failed connection attempts
        self.timeouts = 0
        self._silent = 0  # polls in a row without an answer
        self._next_attempt = 0.0
        self._down_reported = False
        self._decoders_closed: list[PN532CodecStats] = []

    @property
    def connected(self) -> bool:
        return self.link is not None

    def _open(self) -> FrameExchange | None:
        """The opened device, None when none is there; DeviceLost when it is there but
        cannot be set up."""
        raise NotImplementedError

    def _configure(self, link: FrameExchange) -> None:
        """Commands the chip needs after opening, before GetFirmwareVersion."""

    def step(self) -> list[Event]:
        now = self.clock()
        if self.link is None:
            if now < self._next_attempt:
                return []
            return self._connect(now)
        errors = self.link.decoder.stats().errors
        try:
            answer = self.link.exchange(
                pn532.in_list_passive_target(self.max_targets), Command.IN_LIST_PASSIVE_TARGET
            )
        except DeviceLost as err:
            return [self._lost(now, str(err))]
        except NoAnswer as err:
            failed: list[Event] = [*self._skipped(now, errors), self._no_answer(now, str(err))]
            self._silent += 1
            if self._silent < self.silent_limit:
                return failed
            silent = f"{self.link.name}: no answer to {self._silent} polls in a row"
            return [*failed, self._lost(now, silent)]
        self._silent = 0
        self.last_answer = answer.encode()
        skipped = self._skipped(now, errors)
        targets = pn532.parse_answer(answer, Command.IN_LIST_PASSIVE_TARGET)
        if isinstance(targets, Unparsed):
            self.link.decoder.count_error(PN532ErrorKind.MALFORMED)
            return [*skipped, FrameError(now, self.device, targets.detail, answer.encode())]
        assert isinstance(targets, PassiveTargets)
        return [*skipped, targets.event(now)]

    def close(self) -> None:
        if self.link is not None:
            self._retire(self.link)
            self.link = None

    def stats(self) -> PN532CodecStats:
        """Codec counters summed over every connection of this driver."""
        all_stats = list(self._decoders_closed)
        if self.link is not None:
            all_stats.append(self.link.decoder.stats())
        errors: dict[PN532ErrorKind, int] = {}
        for s in all_stats:
            for kind, n in s.errors:
                errors[kind] = errors.get(kind, 0) + n
        return PN532CodecStats(
            sum(s.frames for s in all_stats),
            sum(s.bytes_in for s in all_stats),
            sum(s.junk_bytes for s in all_stats),
            tuple((k, errors[k]) for k in PN532ErrorKind if k in errors),
        )

    def _skipped(
        self, now: float, before: tuple[tuple[PN532ErrorKind, int], ...]
    ) -> list[FrameError]:
        """One `FrameError` per frame the decoder skipped since `before` (its counts)."""
        assert self.link is not None
        was = dict(before)
        return [
            FrameError(now, self.device, kind.value)
            for kind, n in self.link.decoder.stats().errors
            for _ in range(n - was.get(kind, 0))
        ]

    def _connect(self, now: float) -> list[Event]:
        try:
            link = self._open()
            if link is None:
                return self._failed(now, self.absent)
            self.link = link
            self._configure(link)
            fw = pn532.parse_answer(
                link.exchange(pn532.get_firmware_version(), Command.GET_FIRMWARE_VERSION),
                Command.GET_FIRMWARE_VERSION,
            )
            if not isinstance(fw, FirmwareVersion):
                raise NoAnswer(f"firmware version: {fw}")
            link.exchange(pn532.rf_max_retries(), Command.RF_CONFIGURATION)
        except (DeviceLost, NoAnswer) as err:
            self.close()
            return self._failed(now, str(err))
        self.firmware = fw
        self.failures = 0
        self._down_reported = False
        log.info("%s: %s %s connected", self.device, link.name, fw)
        return [LinkChanged(now, self.device, LinkState.UP, f"{link.name} ({fw})")]

    def _failed(self, now: float, reason: str) -> list[Event]:
        self._next_attempt = now + self.backoff.delay(self.failures)
        self.failures += 1
        if self._down_reported:
            return []
        self._down_reported = True  # report the first failure, not every retry
        log.warning("%s: %s", self.device, reason)
        return [LinkChanged(now, self.device, LinkState.DOWN, reason)]

    def _lost(self, now: float, reason: str) -> LinkChanged:
        self.close()
        self._silent = 0
        self.failures = 0
        self._next_attempt = now + self.backoff.delay(0)
        self._down_reported = True
        log.warning("%s: link lost: %s", self.device, reason)
        return LinkChanged(now, self.device, LinkState.DOWN, reason)

    def _no_answer(self, now: float, reason: str) -> FrameError:
        self.timeouts += 1
        assert self.link is not None
        with contextlib.suppress(DeviceLost):  # the next step finds out and reports it
            self.link.abort()
        return FrameError(now, self.device, reason)

    def _retire(self, link: FrameExchange) -> None:
        self._decoders_closed.append(link.decoder.stats())
        link.close()
