"""PN533 driver through pyusb's own code, over the simulated device backend: enumeration,
firmware version, polling tags as they come and go, unplug and reconnect, timeouts, ZLPs."""

import errno

import pytest
import usb.core
import usb.util

from controller.devices import pn532
from controller.devices.events import FrameError, LinkChanged, LinkState, TagsRead
from controller.devices.pn532 import Command, FirmwareVersion, PN532ErrorKind
from controller.devices.pn533_usb import Backoff, NoAnswer, PN533Link, PN533Reader
from tools.sim.usb_backend import PN533_FIRMWARE, Damage, SimPN533, SimTag, SimUsbBackend

UID_A = bytes.fromhex("04a1b2c3d4e5f6")
UID_B = bytes.fromhex("04010203040506")


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def rig():
    device = SimPN533()
    clock = Clock()
    reader = PN533Reader(backend=SimUsbBackend([device]), clock=clock)
    yield device, clock, reader
    reader.close()


def test_pyusb_finds_and_describes_the_simulated_device():
    backend = SimUsbBackend([SimPN533(), SimPN533(0x04E6, 0x5591, address=9)])
    found = list(usb.core.find(find_all=True, backend=backend))
    assert [(d.idVendor, d.idProduct) for d in found] == [(0x04CC, 0x2533), (0x04E6, 0x5591)]
    dev = usb.core.find(idVendor=0x04CC, idProduct=0x2533, backend=backend)
    cfg = dev[0]
    intf = cfg[(0, 0)]
    assert cfg.bConfigurationValue == 1
    assert [(ep.bEndpointAddress, ep.wMaxPacketSize) for ep in intf] == [(0x04, 64), (0x84, 64)]
    assert usb.util.endpoint_type(intf[0].bmAttributes) == usb.util.ENDPOINT_TYPE_BULK
    dev.set_configuration()
    assert dev.get_active_configuration().bConfigurationValue == 1
    usb.util.dispose_resources(dev)


def test_raw_pyusb_exchange_firmware_version():
    backend = SimUsbBackend([SimPN533()])
    dev = usb.core.find(idVendor=0x04CC, idProduct=0x2533, backend=backend)
    dev.set_configuration()
    assert dev.write(0x04, pn532.get_firmware_version()) == 9
    assert bytes(dev.read(0x84, 64)) == pn532.ACK_FRAME
    assert bytes(dev.read(0x84, 64)) == pn532.firmware_version_answer(PN533_FIRMWARE)
    with pytest.raises(usb.core.USBTimeoutError):
        dev.read(0x84, 64, timeout=10)
    usb.util.dispose_resources(dev)


def test_connect_reads_firmware_and_sets_retries(rig):
    device, _, reader = rig
    events = reader.step()
    assert events == [LinkChanged(100.0, "reader", LinkState.UP, "NXP PN533 (PN533 v2.7)")]
    assert reader.firmware == FirmwareVersion(0x33, 2, 7, 0x07)
    assert device.received[:2] == [pn532.get_firmware_version(), pn532.rf_max_retries()]
    assert device.max_retries_set


def test_scl3711_is_found_too():
    device = SimPN533(0x04E6, 0x5591)
    reader = PN533Reader(backend=SimUsbBackend([device]), clock=Clock())
    (event,) = reader.step()
    assert event.state is LinkState.UP and event.detail.startswith("SCM SCL3711")
    reader.close()


def test_polling_follows_tags_added_and_removed(rig):
    device, clock, reader = rig
    reader.step()
    seen = []
    for action in ("none", "add A", "add B", "remove A", "remove B"):
        if action.startswith("add"):
            device.add_tag(UID_A if action.endswith("A") else UID_B)
        elif action.startswith("remove"):
            device.remove_tag(UID_A if action.endswith("A") else UID_B)
        clock.t += 0.1
        (event,) = reader.step()
        assert isinstance(event, TagsRead) and event.antenna == 1
        seen.append(event.uids)
    # max_targets=1: the PN533 lists one target, the first in its field
    assert seen == [(), (UID_A,), (UID_A,), (UID_B,), ()]
    assert device.received[-1] == pn532.in_list_passive_target(1)


def test_two_targets_listed():
    device = SimPN533()
    device.add_tag(UID_A)
    device.add_tag(UID_B)
    reader = PN533Reader(backend=SimUsbBackend([device]), clock=Clock(), max_targets=2)
    reader.step()
    (event,) = reader.step()
    assert event.uids == (UID_A, UID_B)
    reader.close()


def test_unplug_reported_once_then_reconnect_with_backoff(rig):
    device, clock, reader = rig
    device.add_tag(UID_A)
    assert reader.step()[0].state is LinkState.UP
    device.unplug()
    (down,) = reader.step()
    assert down == LinkChanged(100.0, "reader", LinkState.DOWN, "unplugged")
    assert not reader.connected
    for _ in range(40):  # 10 s in 0.25 s steps, device still away
        clock.t += 0.25
        assert reader.step() == []  # the loss was reported; retries are quiet
    assert reader.failures == 5  # attempts at +0.5, +1, +2, +4, +8 s
    device.replug()
    events = []
    while not events:
        clock.t += 0.25
        events = reader.step()
    assert events[0].state is LinkState.UP
    assert clock.t - 100.0 <= 10.0 + 8.0  # within the longest pause
    clock.t += 0.1
    assert reader.step() == [TagsRead(clock.t, 1, (UID_A,))]


def test_backoff_growth():
    backoff = Backoff(first=0.5, most=8.0)
    assert [backoff.delay(n) for n in range(7)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    with pytest.raises(ValueError):
        Backoff(first=0)


def test_absent_device_reported_down_once():
    clock = Clock()
    backend = SimUsbBackend([])
    reader = PN533Reader(backend=backend, clock=clock)
    (event,) = reader.step()
    assert event.state is LinkState.DOWN and event.detail == "no PN533 found"
    clock.t += 100
    assert reader.step() == []
    backend.devices.append(SimPN533())
    clock.t += 100
    assert reader.step()[0].state is LinkState.UP


def test_unplug_during_setup(rig):
    device, clock, reader = rig
    device.unplug()
    assert reader.step()[0].state is LinkState.DOWN
    device.replug()
    clock.t += 1
    assert reader.step()[0].state is LinkState.UP


class MuteOnPoll(SimPN533):
    """A PN533 that never answers InListPassiveTarget (the retries left at 'forever')."""

    def _answer(self, frame):
        if isinstance(frame, pn532.InfoFrame) and frame.code == Command.IN_LIST_PASSIVE_TARGET:
            self.received.append(frame.encode())
            self._queue(pn532.ACK_FRAME)
            return
        if isinstance(frame, pn532.Ack):
            self.received.append(pn532.ACK_FRAME)
        super()._answer(frame)


def test_timeout_aborts_command_and_keeps_link():
    device = MuteOnPoll()
    reader = PN533Reader(backend=SimUsbBackend([device]), clock=Clock())
    reader.step()
    (event,) = reader.step()
    assert isinstance(event, FrameError) and event.reason == "read timed out"
    assert device.received[-1] == pn532.ACK_FRAME  # the host aborted the command
    assert reader.connected and reader.timeouts == 1
    reader.close()


class Garbled(SimPN533):
    def _queue(self, message):
        if message.startswith(b"\x00\x00\xff\x0c"):  # answers with one target: flip a bit
            message = message[:10] + bytes((message[10] ^ 1,)) + message[11:]
        super()._queue(message)


def test_corrupt_answer_counted_not_raised():
    device = Garbled()
    device.add_tag(SimTag(b"\x01\x02\x03\x04", b"\x00\x04", 0x08))  # answer LEN 0C
    reader = PN533Reader(backend=SimUsbBackend([device]), clock=Clock())
    reader.step()
    events = reader.step()  # the damaged answer, asked again with a NACK: damaged again
    assert all(isinstance(e, FrameError) for e in events)
    assert [e.reason for e in events] == ["bad-dcs", "read timed out"]
    assert device.nacks == 1
    assert dict(reader.stats().errors)[PN532ErrorKind.BAD_DCS] == 1
    assert reader.connected
    reader.close()


@pytest.mark.parametrize("where", [Damage.LCS, Damage.DCS])
def test_a_damaged_answer_is_asked_again_and_its_tag_kept(where):
    device = SimPN533()
    device.add_tag(b"\x01\x02\x03\x04")
    reader = PN533Reader(backend=SimUsbBackend([device]), clock=Clock())
    reader.step()
    device.damage(where)
    skipped, read = reader.step()
    assert isinstance(skipped, FrameError) and skipped.reason == f"bad-{where.value}"
    assert isinstance(read, TagsRead) and read.uids == (b"\x01\x02\x03\x04",)
    assert device.nacks == 1 and reader.link is not None and reader.link.resent == 1
    reader.close()


def test_zlp_sent_after_a_64_byte_frame():
    backend = SimUsbBackend([SimPN533()])
    link = PN533Link.open(backend)
    frame = pn532.command_frame(Command.GET_FIRMWARE_VERSION, bytes(55))
    assert len(frame) == 64
    answer = link.exchange(frame, Command.GET_FIRMWARE_VERSION)  # answered: the ZLP ended it
    assert pn532.parse_answer(answer, Command.GET_FIRMWARE_VERSION) == PN533_FIRMWARE
    link.close()


def test_without_zlp_the_device_waits():
    device = SimPN533()
    dev = usb.core.find(idVendor=0x04CC, idProduct=0x2533, backend=SimUsbBackend([device]))
    dev.set_configuration()
    frame = pn532.command_frame(Command.GET_FIRMWARE_VERSION, bytes(55))
    dev.write(0x04, frame)
    with pytest.raises(usb.core.USBTimeoutError):
        dev.read(0x84, 512)
    dev.write(0x04, b"")  # the zero-length packet completes the transfer
    assert bytes(dev.read(0x84, 512)) == pn532.ACK_FRAME
    usb.util.dispose_resources(dev)


def test_64_byte_answer_is_one_transfer():
    # Framing 10 bytes + 2 × (Tg ATQA SAK len UID ATSlen ATS) = 10 + 2 × (6 + 10 + 11) = 64:
    # the device ends that transfer with a ZLP, and the next exchange is not confused by it.
    device = SimPN533()
    device.add_tag(SimTag(bytes(range(10)), b"\x03\x44", 0x20, bytes(11)))
    device.add_tag(SimTag(bytes(range(10, 20)), b"\x03\x44", 0x20, b"\x01" * 11))
    link = PN533Link.open(SimUsbBackend([device]))
    answer = link.exchange(pn532.in_list_passive_target(2), Command.IN_LIST_PASSIVE_TARGET)
    assert len(answer.encode()) == 64
    targets = pn532.parse_answer(answer, Command.IN_LIST_PASSIVE_TARGET)
    assert [t.nfcid for t in targets.targets] == [bytes(range(10)), bytes(range(10, 20))]
    assert [t.ats for t in targets.targets] == [bytes(11), b"\x01" * 11]
    answer = link.exchange(pn532.get_firmware_version(), Command.GET_FIRMWARE_VERSION)
    assert pn532.parse_answer(answer, Command.GET_FIRMWARE_VERSION) == PN533_FIRMWARE
    link.close()


def test_device_gone_raises_enodev_at_the_backend():
    device = SimPN533()
    dev = usb.core.find(idVendor=0x04CC, idProduct=0x2533, backend=SimUsbBackend([device]))
    dev.set_configuration()
    device.unplug()
    with pytest.raises(usb.core.USBError) as info:
        dev.write(0x04, pn532.get_firmware_version())
    assert info.value.errno == errno.ENODEV
    usb.util.dispose_resources(dev)  # releasing a vanished device does not raise


def test_link_exchange_reports_nack():
    class Nacker(SimPN533):
        def _answer(self, frame):
            self._queue(pn532.ACK_FRAME)
            self._queue(pn532.NACK_FRAME)

    link = PN533Link.open(SimUsbBackend([Nacker()]))
    with pytest.raises(NoAnswer, match="Nack"):
        link.exchange(pn532.get_firmware_version(), Command.GET_FIRMWARE_VERSION)
    link.close()
