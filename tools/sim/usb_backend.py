"""A simulated PN533 USB reader behind a pyusb backend (`usb.backend.IBackend`).

pyusb's own `usb.core` code (find, Device, configuration, interface claiming, bulk
transfers, resource disposal) runs unchanged against this backend, so the driver under test
is the real one. The device answers the PN53x command set from a set of tags in its field,
and can be unplugged (every call on its handles then fails with ENODEV, it disappears from
enumeration) and plugged back (a new address, as after a real re-enumeration).

USB behaviour modelled (HARDWARE-NOTES, libnfc pn53x_usb): one configuration (value 1),
interface 0 with bulk OUT 0x04 and bulk IN 0x84, 64-byte packets. A transfer ends with a
short packet; a message that is a multiple of 64 bytes needs a zero-length packet after it,
both ways — without it the device keeps waiting for the rest of the host's frame, and the
host's read runs on into the next message. Every answer is an ACK transfer, then the reply.

The same firmware with PN532 identity is the simulated PN532 module (`serial_feed`, its HSU
side; tools/sim/uart_pn532.py puts it on a pty): it sleeps until the wake-up preamble. Both
send their last answer again on a NACK from the host, and `damage` spoils the checksums of
the next answers (PN532 user manual §6.2.1).
"""

from __future__ import annotations

import errno
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum

import usb.backend
from usb.core import USBError, USBTimeoutError

from controller.devices.pn532 import (
    ACK_FRAME,
    ERROR_FRAME,
    Ack,
    Command,
    FirmwareVersion,
    FrameDecoder,
    InfoFrame,
    Nack,
    PassiveTarget,
    empty_answer,
    firmware_version_answer,
    in_list_passive_target_answer,
)

PACKET = 64
PN533_FIRMWARE = FirmwareVersion(0x33, 2, 7, 0x07)  # IC PN533, v2.7, ISO 14443-A/B + 18092
PN532_FIRMWARE = FirmwareVersion(0x32, 1, 6, 0x07)  # IC PN532, v1.6
EP_OUT = 0x04
EP_IN = 0x84
LIBUSB_ERROR_NO_DEVICE = -4  # libusb error codes, as the real backend reports them
LIBUSB_ERROR_TIMEOUT = -7
LIBUSB_ERROR_NOT_FOUND = -5


@dataclass(frozen=True, slots=True)
class DeviceDescriptor:
    idVendor: int
    idProduct: int
    bus: int
    address: int
    bLength: int = 18
    bDescriptorType: int = 0x01
    bcdUSB: int = 0x0200
    bDeviceClass: int = 0x00
    bDeviceSubClass: int = 0x00
    bDeviceProtocol: int = 0x00
    bMaxPacketSize0: int = 64
    bcdDevice: int = 0x0200
    iManufacturer: int = 0  # no string descriptors: pyusb would ask with control transfers
    iProduct: int = 0
    iSerialNumber: int = 0
    bNumConfigurations: int = 1
    port_number: int = 1
    port_numbers: tuple[int, ...] = (1,)
    speed: int = 2  # full speed


@dataclass(frozen=True, slots=True)
class ConfigurationDescriptor:
    bLength: int = 9
    bDescriptorType: int = 0x02
    wTotalLength: int = 32
    bNumInterfaces: int = 1
    bConfigurationValue: int = 1
    iConfiguration: int = 0
    bmAttributes: int = 0x80  # bus powered
    bMaxPower: int = 50  # 100 mA
    extra_descriptors: bytes = b""


@dataclass(frozen=True, slots=True)
class InterfaceDescriptor:
    bLength: int = 9
    bDescriptorType: int = 0x04
    bInterfaceNumber: int = 0
    bAlternateSetting: int = 0
    bNumEndpoints: int = 2
    bInterfaceClass: int = 0xFF  # vendor specific
    bInterfaceSubClass: int = 0xFF
    bInterfaceProtocol: int = 0xFF
    iInterface: int = 0
    extra_descriptors: bytes = b""


@dataclass(frozen=True, slots=True)
class EndpointDescriptor:
    bEndpointAddress: int
    bLength: int = 7
    bDescriptorType: int = 0x05
    bmAttributes: int = 0x02  # bulk
    wMaxPacketSize: int = PACKET
    bInterval: int = 0
    bRefresh: int = 0
    bSynchAddress: int = 0
    extra_descriptors: bytes = b""


_ENDPOINTS = (EndpointDescriptor(EP_OUT), EndpointDescriptor(EP_IN))


class Damage(Enum):
    """How an answer frame is damaged on its way (a bit flipped in one checksum)."""

    LCS = "lcs"  # LEN + LCS != 0: the decoder skips it as bad-lcs
    DCS = "dcs"  # TFI + PD + DCS != 0: bad-dcs


def _damaged(frame: bytes, where: Damage) -> bytes:
    at = 4 if where is Damage.LCS else len(frame) - 2  # normal frames: 00 00 FF LEN LCS ..
    return frame[:at] + bytes((frame[at] ^ 0x01,)) + frame[at + 1 :]


def _no_device() -> USBError:
    return USBError(
        "No such device (it may have been disconnected)", LIBUSB_ERROR_NO_DEVICE, errno.ENODEV
    )


@dataclass(slots=True)
class SimTag:
    """An ISO 14443-A tag: 7-byte UID, ATQA 00 44, SAK 00 (MIFARE Ultralight / NTAG)."""

    nfcid: bytes
    sens_res: bytes = b"\x00\x44"
    sel_res: int = 0x00
    ats: bytes = b""  # ISO 14443-4 cards only (sel_res bit 0x20)


@dataclass(slots=True)
class _Handle:
    device: SimPN533
    generation: int
    claimed: set[int] = field(default_factory=set)


class SimPN533:
    """The device: its USB identity, its plug state, the tags in its field, and the PN53x
    firmware answering frames. With PN532 firmware it also takes SAMConfiguration, and
    `serial_feed` is its UART (HSU) side. Thread-safe: a simulator thread moves tags while
    the driver polls."""

    def __init__(
        self,
        vendor: int = 0x04CC,
        product: int = 0x2533,
        firmware: FirmwareVersion = PN533_FIRMWARE,
        bus: int = 1,
        address: int = 5,
    ) -> None:
        self.vendor, self.product, self.firmware = vendor, product, firmware
        self.bus, self.address = bus, address
        self.plugged = True
        self.generation = 0
        self.configuration = 0
        self.max_retries_set = False
        self.received: list[bytes] = []  # every host frame, for tests
        self.nacks = 0  # NACKs from the host (answers sent again)
        self.asleep = firmware.ic == 0x32  # a PN532 on its UART waits for the wake-up
        self._last_reply = b""
        self._damage: deque[Damage] = deque()
        self._tags: list[SimTag] = []
        self._lock = threading.RLock()
        self._rx = bytearray()
        self._tx: deque[bytes] = deque()
        self._decoder = FrameDecoder("sim-pn53x", idle=b"\x00\x55")

    # --- the world --------------------------------------------------------------------
    def add_tag(self, nfcid: bytes | SimTag) -> None:
        tag = nfcid if isinstance(nfcid, SimTag) else SimTag(nfcid)
        with self._lock:
            if all(t.nfcid != tag.nfcid for t in self._tags):
                self._tags.append(tag)

    def remove_tag(self, nfcid: bytes) -> None:
        with self._lock:
            self._tags = [t for t in self._tags if t.nfcid != nfcid]

    def unplug(self) -> None:
        with self._lock:
            self.plugged = False
            self.generation += 1
            self._reset()

    def replug(self) -> None:
        with self._lock:
            self.plugged = True
            self.generation += 1
            self.address = self.address % 127 + 1  # a new address after re-enumeration
            self.configuration = 0
            self.max_retries_set = False
            self.asleep = self.firmware.ic == 0x32  # powered up again: asleep
            self._reset()

    def brown_out(self) -> None:
        """The chip resets where it is (its supply dipped; the link stays): asleep again if
        it is a PN532 on its UART, its configuration lost, the tags still in its field."""
        with self._lock:
            self.max_retries_set = False
            self.asleep = self.firmware.ic == 0x32
            self._reset()

    def _reset(self) -> None:
        self._rx.clear()
        self._tx.clear()
        self._last_reply = b""
        self._decoder = FrameDecoder("sim-pn53x", idle=b"\x00\x55")

    # --- USB side -----------------------------------------------------------------------
    def descriptor(self) -> DeviceDescriptor:
        return DeviceDescriptor(self.vendor, self.product, self.bus, self.address)

    def receive(self, data: bytes) -> None:
        """A bulk OUT transfer: packets of 64; a short packet (or a ZLP) ends the message."""
        with self._lock:
            self._rx += data
            if len(data) % PACKET == 0 and data:
                return  # wait for the short packet / ZLP that ends the message
            message, self._rx = bytes(self._rx), bytearray()
            for frame in self._decoder.feed(message):
                self._answer(frame)

    def send(self, size: int) -> bytes:
        """A bulk IN transfer of at most `size` bytes: whole packets until a short one."""
        with self._lock:
            if not self._tx:
                raise USBTimeoutError("Operation timed out", LIBUSB_ERROR_TIMEOUT, errno.ETIMEDOUT)
            out = bytearray()
            while self._tx and len(out) + len(self._tx[0]) <= size:
                packet = self._tx.popleft()
                out += packet
                if len(packet) < PACKET:
                    break
            return bytes(out)

    def _queue(self, message: bytes) -> None:
        if self._damage and message not in (ACK_FRAME, ERROR_FRAME):
            message = _damaged(message, self._damage.popleft())
        for i in range(0, len(message), PACKET):
            self._tx.append(message[i : i + PACKET])
        if len(message) % PACKET == 0:
            self._tx.append(b"")  # ZLP ends a transfer that filled its last packet

    def serial_feed(self, data: bytes) -> bytes:
        """The same firmware on a UART (HSU): host bytes in, every answer byte out. A PN532
        sleeps after power-up (`asleep`) and hears nothing until the 0x55 of the HSU
        wake-up preamble (HARDWARE-NOTES)."""
        with self._lock:
            if self.asleep:
                woken = data.find(0x55)
                if woken < 0:
                    return b""
                self.asleep, data = False, data[woken:]
            for frame in self._decoder.feed(data):
                self._answer(frame)
            out = b"".join(self._tx)
            self._tx.clear()
            return out

    def damage(self, *where: Damage) -> None:
        """The next answer frames (not ACKs) leave with a bad LCS or DCS, one per item."""
        with self._lock:
            self._damage.extend(where)

    # --- PN53x firmware -----------------------------------------------------------------
    def _answer(self, frame: object) -> None:
        if isinstance(frame, Ack):
            return  # the host aborts a pending command; nothing is pending here
        if isinstance(frame, Nack):
            # the host got a damaged answer: the last one is sent again (§6.2.1)
            self.nacks += 1
            self._queue(self._last_reply or ERROR_FRAME)
            return
        if not isinstance(frame, InfoFrame) or not frame.data:
            self._queue(ERROR_FRAME)
            return
        self.received.append(frame.encode())
        reply = self._reply(frame)
        self._last_reply = reply
        self._queue(ACK_FRAME)
        self._queue(reply)

    def _reply(self, frame: InfoFrame) -> bytes:
        code, params = frame.data[0], frame.data[1:]
        if code == Command.GET_FIRMWARE_VERSION:
            return firmware_version_answer(self.firmware)
        if code == Command.RF_CONFIGURATION and params[:1] == b"\x05" and len(params) == 4:
            self.max_retries_set = True
            return empty_answer(Command.RF_CONFIGURATION)
        if code == Command.IN_LIST_PASSIVE_TARGET and len(params) == 2 and params[0] in (1, 2):
            found = self._tags[: params[0]]
            return in_list_passive_target_answer(
                PassiveTarget(i + 1, t.sens_res, t.sel_res, t.nfcid, t.ats)
                for i, t in enumerate(found)
            )
        if code == Command.SAM_CONFIGURATION and self.firmware.ic == 0x32 and params[:1] == b"\x01":
            return empty_answer(Command.SAM_CONFIGURATION)
        return ERROR_FRAME  # a PN533 has no SAM: SAMConfiguration lands here


class SimUsbBackend(usb.backend.IBackend):
    """pyusb backend over simulated devices (pass it as `backend=` to `usb.core.find`)."""

    def __init__(self, devices: Iterable[SimPN533] = ()) -> None:
        super().__init__()
        self.devices = list(devices)

    def enumerate_devices(self) -> Iterator[SimPN533]:
        return iter([d for d in self.devices if d.plugged])

    def get_device_descriptor(self, dev: SimPN533) -> DeviceDescriptor:
        return dev.descriptor()

    def get_configuration_descriptor(self, dev: SimPN533, config: int) -> ConfigurationDescriptor:
        if config != 0:
            raise IndexError("configuration index out of range")
        return ConfigurationDescriptor()

    def get_interface_descriptor(
        self, dev: SimPN533, intf: int, alt: int, config: int
    ) -> InterfaceDescriptor:
        if (config, intf, alt) != (0, 0, 0):
            raise IndexError("interface index out of range")
        return InterfaceDescriptor()

    def get_endpoint_descriptor(
        self, dev: SimPN533, ep: int, intf: int, alt: int, config: int
    ) -> EndpointDescriptor:
        self.get_interface_descriptor(dev, intf, alt, config)
        if not 0 <= ep < len(_ENDPOINTS):
            raise IndexError("endpoint index out of range")
        return _ENDPOINTS[ep]

    def open_device(self, dev: SimPN533) -> _Handle:
        if not dev.plugged:
            raise _no_device()
        return _Handle(dev, dev.generation)

    def close_device(self, dev_handle: _Handle) -> None:
        dev_handle.claimed.clear()  # closing never fails, even on a vanished device

    def set_configuration(self, dev_handle: _Handle, config_value: int) -> None:
        dev = self._live(dev_handle)
        if config_value not in (0, 1):
            raise USBError("Entity not found", LIBUSB_ERROR_NOT_FOUND, errno.ENOENT)
        dev.configuration = config_value

    def get_configuration(self, dev_handle: _Handle) -> int:
        return self._live(dev_handle).configuration

    def set_interface_altsetting(self, dev_handle: _Handle, intf: int, altsetting: int) -> None:
        self._live(dev_handle)
        if (intf, altsetting) != (0, 0):
            raise USBError("Entity not found", LIBUSB_ERROR_NOT_FOUND, errno.ENOENT)

    def claim_interface(self, dev_handle: _Handle, intf: int) -> None:
        self._live(dev_handle)
        if intf != 0:
            raise USBError("Entity not found", LIBUSB_ERROR_NOT_FOUND, errno.ENOENT)
        dev_handle.claimed.add(intf)

    def release_interface(self, dev_handle: _Handle, intf: int) -> None:
        dev_handle.claimed.discard(intf)
        self._live(dev_handle)

    def bulk_write(self, dev_handle: _Handle, ep: int, intf: int, data, timeout: int) -> int:
        dev = self._ready(dev_handle, intf, ep, EP_OUT)
        payload = bytes(data)
        dev.receive(payload)
        return len(payload)

    def bulk_read(self, dev_handle: _Handle, ep: int, intf: int, buff, timeout: int) -> int:
        dev = self._ready(dev_handle, intf, ep, EP_IN)
        data = dev.send(len(buff) * buff.itemsize)
        buff[: len(data)] = type(buff)(buff.typecode, data)
        return len(data)

    def clear_halt(self, dev_handle: _Handle, ep: int) -> None:
        self._live(dev_handle)

    def _live(self, handle: _Handle) -> SimPN533:
        dev = handle.device
        if not dev.plugged or handle.generation != dev.generation:
            raise _no_device()
        return dev

    def _ready(self, handle: _Handle, intf: int, ep: int, expected: int) -> SimPN533:
        dev = self._live(handle)
        if dev.configuration != 1 or intf not in handle.claimed or ep != expected:
            raise USBError("Input/Output Error", -1, errno.EIO)
        return dev
