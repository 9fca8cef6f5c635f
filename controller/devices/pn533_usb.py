"""PN533 single-spot reader over USB through pyusb: the bulk-endpoint transport under the
command exchange and polling driver of pn53x_reader.py (reconnection with backoff included).

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
`DeviceLost`, `NoAnswer` and `Backoff` are pn53x_reader.py's, named here too for callers.
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

from controller.devices.pn53x_reader import (
    Backoff,
    DeviceLost,
    FrameExchange,
    NoAnswer,
    PN53xReader,
)

__all__ = ["KNOWN_DEVICES", "Backoff", "DeviceLost", "NoAnswer", "PN533Link", "PN533Reader"]

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


class PN533Link(FrameExchange):
    """One opened PN533: bulk transfers carrying the exchange of pn53x_reader.py."""

    def __init__(self, dev: usb.core.Device, usb_id: UsbId, timeout_ms: int = 250) -> None:
        super().__init__("pn533")
        self.dev = dev
        self.usb_id = usb_id
        self.name = usb_id.name
        self.timeout_ms = timeout_ms

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
        with contextlib.suppress(usb.core.USBError):  # a vanished device may refuse release
            usb.util.dispose_resources(self.dev)

    def write(self, data: bytes) -> None:
        self._transfer(lambda: self.dev.write(EP_OUT, data, self.timeout_ms))
        if len(data) % PACKET == 0:
            # USB: a transfer filling its last packet is only ended by a zero-length packet.
            self._transfer(lambda: self.dev.write(EP_OUT, b"", self.timeout_ms))

    def read(self) -> bytes | None:
        data = self._transfer(lambda: self.dev.read(EP_IN, READ_SIZE, self.timeout_ms))
        return None if data is None else bytes(data)

    def _transfer(self, call: Callable):
        """Run one transfer; None on a timeout, DeviceLost on any other USB failure."""
        try:
            return call()
        except usb.core.USBTimeoutError:
            return None
        except usb.core.USBError as err:
            reason = "unplugged" if err.errno == errno.ENODEV else f"USB error: {err}"
            raise DeviceLost(reason) from err


class PN533Reader(PN53xReader):
    """The polling driver of pn53x_reader.py on a PN533 found through pyusb."""

    absent = "no PN533 found"

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
        super().__init__(clock, backoff, device, max_targets)
        self.backend = backend
        self.devices = devices
        self.timeout_ms = timeout_ms

    def _open(self) -> PN533Link | None:
        try:
            return PN533Link.open(self.backend, self.timeout_ms, self.devices)
        except usb.core.NoBackendError:
            raise DeviceLost("no USB backend (is libusb-1.0 installed?)") from None
