"""PN533 single-spot reader over USB through pyusb: the bulk-endpoint transport, the
command exchange, and a polling driver that reconnects with backoff after an unplug.

The PN533 speaks the PN532 frames (see pn532.py) over two bulk endpoints (HARDWARE-NOTES,
libnfc pn53x_usb)::

    host ──bulk OUT 0x04──▶ PN533   00 00 FF LEN LCS D4 cmd .. DCS 00   (+ ZLP if len % 64 == 0)
    host ◀──bulk IN 0x84─── PN533   00 00 FF 00 FF 00                   (ACK, its own transfer)
    host ◀──bulk IN 0x84─── PN533   00 00 FF LEN LCS D5 cmd+1 .. DCS 00 (the answer)

64-byte packets; a transfer that fills its last packet is ended by a zero-length packet.
Known devices: NXP PN533 04cc:2533, SCM SCL3711 04e6:5591.

An unplugged device fails every call with `USBError` errno ENODEV: the driver reports
`LinkChanged(DOWN)`, drops the device, and looks for it again with growing pauses, as the
serial links do. A read timeout (`USBTimeoutError`) is not a lost link: the pending command
is aborted with an ACK (PN532 user manual: an ACK from the host aborts the command).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import usb.core
import usb.util

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

log = logging.getLogger(__name__)

EP_OUT = 0x04
EP_IN = 0x84
PACKET = 64
READ_SIZE = 512  # one IN transfer: an extended frame's worth, several packets


@dataclass(frozen=True, slots=True)
class UsbId:
    vendor: int
    product: int
    name: str


KNOWN_DEVICES = (UsbId(0x04CC, 0x2533, "NXP PN533"), UsbId(0x04E6, 0x5591, "SCM SCL3711"))


def parse_usb_address(text: str) -> tuple[UsbId, ...]:
    """`usb` (any known PN533) or `usb:VID:PID` in hex (`usb:04cc:2533`): the devices to
    look for. Raises ValueError naming what is wrong."""
    if text == "usb":
        return KNOWN_DEVICES
    parts = text.split(":")
    if len(parts) != 3 or parts[0] != "usb":
        raise ValueError(f"a USB reader is 'usb' or 'usb:VID:PID' (hex), not {text!r}")
    try:
        vendor, product = int(parts[1], 16), int(parts[2], 16)
    except ValueError:
        raise ValueError(f"{text!r}: VID and PID are hexadecimal numbers") from None
    if not (0 <= vendor <= 0xFFFF and 0 <= product <= 0xFFFF):
        raise ValueError(f"{text!r}: VID and PID are 16-bit numbers")
    known = next((k for k in KNOWN_DEVICES if (k.vendor, k.product) == (vendor, product)), None)
    return (known or UsbId(vendor, product, f"USB {vendor:04x}:{product:04x}"),)


class DeviceLost(Exception):
    """The USB device is gone (unplugged, ENODEV) or failed at the transport level."""


class NoAnswer(Exception):
    """The PN533 did not answer a command in time, or answered with garbage."""


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


class PN533Link:
    """One opened PN533: transfers and the ACK + answer exchange for one command."""

    def __init__(self, dev: usb.core.Device, usb_id: UsbId, timeout_ms: int = 250) -> None:
        self.dev = dev
        self.usb_id = usb_id
        self.timeout_ms = timeout_ms
        self.decoder = FrameDecoder("pn533")
        self._frames: list[pn532.Frame] = []

    @classmethod
    def open(
        cls, backend=None, timeout_ms: int = 250, devices: tuple[UsbId, ...] = KNOWN_DEVICES
    ) -> PN533Link | None:
        """Find the first of `devices`, configure it, claim interface 0. None if absent.

        Raises DeviceLost when it is there but cannot be set up, and
        `usb.core.NoBackendError` when no pyusb backend (libusb) is available.
        """
        for usb_id in devices:
            dev = usb.core.find(idVendor=usb_id.vendor, idProduct=usb_id.product, backend=backend)
            if dev is None:
                continue
            try:
                dev.set_configuration()
                usb.util.claim_interface(dev, 0)
            except usb.core.USBError as err:
                usb.util.dispose_resources(dev)
                raise DeviceLost(f"{usb_id.name}: setup failed: {err}") from err
            return cls(dev, usb_id, timeout_ms)
        return None

    def close(self) -> None:
        usb.util.dispose_resources(self.dev)

    def exchange(self, frame: bytes, command: Command) -> InfoFrame:
        """Send one command frame, wait for the ACK and the D5 answer to `command`."""
        self._frames.clear()
        self.write(frame)
        if not isinstance(self._next_frame(), Ack):
            raise NoAnswer(f"no ACK to command 0x{command:02x}")
        answer = self._next_frame()
        if isinstance(answer, InfoFrame) and answer.code == command + 1:
            return answer
        raise NoAnswer(f"answer {answer!r} to command 0x{command:02x}")

    def abort(self) -> None:
        """An ACK from the host cancels the PN533's current command."""
        self.write(pn532.ACK_FRAME)
        self.decoder.flush()
        self._frames.clear()

    def write(self, data: bytes) -> None:
        self._transfer(lambda: self.dev.write(EP_OUT, data, self.timeout_ms))
        if len(data) % PACKET == 0:
            # USB: a transfer filling its last packet is only ended by a zero-length packet.
            self._transfer(lambda: self.dev.write(EP_OUT, b"", self.timeout_ms))

    def _next_frame(self) -> pn532.Frame:
        while not self._frames:
            data = self._transfer(lambda: self.dev.read(EP_IN, READ_SIZE, self.timeout_ms))
            if data is None:
                self._frames += self.decoder.flush()
                if not self._frames:
                    raise NoAnswer("read timed out")
                break
            self._frames += self.decoder.feed(bytes(data))
        frame = self._frames.pop(0)
        if isinstance(frame, Nack | ErrorFrame):
            raise NoAnswer(f"PN533 answered {type(frame).__name__}")
        return frame

    def _transfer(self, call: Callable):
        """Run one transfer; None on a timeout, DeviceLost on any other USB failure."""
        try:
            return call()
        except usb.core.USBTimeoutError:
            return None
        except usb.core.USBError as err:
            reason = "unplugged" if err.errno == errno.ENODEV else f"USB error: {err}"
            raise DeviceLost(reason) from err


class PN533Reader:
    """Polling driver: each `step()` connects if needed, lists the target on the spot and
    returns the events — `LinkChanged` on connect/loss, `TagsRead(antenna=1)` per poll,
    `FrameError` on a failed exchange. Never raises for device trouble. The caller decides
    the pace; reconnection attempts are spaced by `backoff` on the injected clock.
    """

    def __init__(
        self,
        backend=None,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff | None = None,
        device: str = "reader",
        max_targets: int = 1,
        timeout_ms: int = 250,
        devices: tuple[UsbId, ...] = KNOWN_DEVICES,
    ) -> None:
        self.backend = backend
        self.devices = devices
        self.last_answer = b""  # the last poll's answer frame (for the daemon's journal)
        self.clock = clock
        self.backoff = backoff or Backoff()
        self.device = device
        self.max_targets = max_targets
        self.timeout_ms = timeout_ms
        self.link: PN533Link | None = None
        self.firmware: FirmwareVersion | None = None
        self.failures = 0  # consecutive failed connection attempts
        self.timeouts = 0
        self._next_attempt = 0.0
        self._down_reported = False
        self._decoders_closed: list[PN532CodecStats] = []

    @property
    def connected(self) -> bool:
        return self.link is not None

    def step(self) -> list[LinkChanged | TagsRead | FrameError]:
        now = self.clock()
        if self.link is None:
            if now < self._next_attempt:
                return []
            return self._connect(now)
        try:
            answer = self.link.exchange(
                pn532.in_list_passive_target(self.max_targets), Command.IN_LIST_PASSIVE_TARGET
            )
        except DeviceLost as err:
            return [self._lost(now, str(err))]
        except NoAnswer as err:
            return [self._no_answer(now, str(err))]
        self.last_answer = answer.encode()
        targets = pn532.parse_answer(answer, Command.IN_LIST_PASSIVE_TARGET)
        if isinstance(targets, Unparsed):
            self.link.decoder.count_error(PN532ErrorKind.MALFORMED)
            return [FrameError(now, self.device, targets.detail, answer.encode())]
        assert isinstance(targets, PassiveTargets)
        return [targets.event(now)]

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

    def _connect(self, now: float) -> list[LinkChanged | TagsRead | FrameError]:
        try:
            link = PN533Link.open(self.backend, self.timeout_ms, self.devices)
            if link is None:
                return self._failed(now, "no PN533 found")
            self.link = link
            fw = pn532.parse_answer(
                link.exchange(pn532.get_firmware_version(), Command.GET_FIRMWARE_VERSION),
                Command.GET_FIRMWARE_VERSION,
            )
            if not isinstance(fw, FirmwareVersion):
                raise NoAnswer(f"firmware version: {fw}")
            link.exchange(pn532.rf_max_retries(), Command.RF_CONFIGURATION)
        except usb.core.NoBackendError:
            return self._failed(now, "no USB backend (is libusb-1.0 installed?)")
        except (DeviceLost, NoAnswer) as err:
            self.close()
            return self._failed(now, str(err))
        self.firmware = fw
        self.failures = 0
        self._down_reported = False
        log.info("%s: %s %s connected", self.device, link.usb_id.name, fw)
        return [LinkChanged(now, self.device, LinkState.UP, f"{link.usb_id.name} ({fw})")]

    def _failed(self, now: float, reason: str) -> list[LinkChanged | TagsRead | FrameError]:
        self._next_attempt = now + self.backoff.delay(self.failures)
        self.failures += 1
        if self._down_reported:
            return []
        self._down_reported = True  # report the first failure, not every retry
        log.warning("%s: %s", self.device, reason)
        return [LinkChanged(now, self.device, LinkState.DOWN, reason)]

    def _lost(self, now: float, reason: str) -> LinkChanged:
        self.close()
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

    def _retire(self, link: PN533Link) -> None:
        self._decoders_closed.append(link.decoder.stats())
        with contextlib.suppress(usb.core.USBError):  # a vanished device may refuse release
            link.close()
