"""`mjtable probe`: which devices are plugged in, who they are, which profile fits each, and
the `mjtable run` line to start with.

Candidates: the serial ports pyserial lists (`serial.tools.list_ports`), the udev names in
/dev/serial/by-id, the ports the user names (`--port`), and the USB devices pyusb lists.

Asking is writing, and a byte written to an unknown device may do something (a table board
that takes it for a command), so a port is asked only when the user named it, or its USB
VID:PID or by-id name belongs to a known reader family (`FAMILIES`); every other device is
listed and left alone. A serial port is asked, in turn:

- the UHFReader18 / CF-RU5102 family's "get reader information" (controller/devices/
  uhf_info.py) at the family's speed, at each address 0..7 (readers sharing one RS-485 bus
  answer one by one), then at the broadcast address if none answered; then one inventory
  (0x01, a read) at each address that answered: an answer that carries a tag shows the
  inventory layout its firmware answers in (`layouts_of`); without a tag in the field the
  length of the reader-information answer says which class the reader is and the layout
  its documents give (`ReaderVariant`);
- the PN532's GetFirmwareVersion on HSU at 115200 baud, after the wake-up preamble.

A USB device with a PN533's VID:PID is asked GetFirmwareVersion through pyusb.

A port the user named that is no reader is then asked each table profile's `identify`
command (optional in a profile, docs/PROFILES.md; sim-table has one) in that profile's
framing; the board that answers with its `identity` event names its profile.

A reader profile fits a UHF bus when every reader address its antennas need
((n-1) div 8, controller/daemon/reader_bus.py) answered, and its `inventory-layout` and
`select-antenna` are what those readers answer in; a profile that fits but for them is
named with the reason (`Finding.mismatches`), so a reader of another variant than a profile
says is told apart with the profile to use. A PN532 or PN533 fits the profiles of its model. The ports left unidentified are listed as the table board's possible ports.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import serial
from serial.tools import list_ports

from controller.devices import pn532
from controller.devices.events import TableIdentified
from controller.devices.pn532 import Command, FirmwareVersion, InfoFrame
from controller.devices.serial_link import IO_ERRORS
from controller.devices.table import Identify, TableDriver
from controller.devices.uhf_info import ReaderInfo, parse_reader_info, reader_info_command
from controller.devices.uhf_reader import (
    BROADCAST,
    FINAL_INVENTORY_STATUSES,
    MAX_ANTENNAS,
    InventoryLayout,
    ResponseDecoder,
    UHFCmd,
    inventory_command,
    layouts_of,
)
from controller.profiles import (
    CommandKind,
    ReaderModel,
    ReaderProfile,
    available,
    load_reader,
    load_table,
)

BY_ID = Path("/dev/serial/by-id")
UHF_BAUD = 57600  # the UHFReader18 family's factory speed
PN532_BAUD = 115200  # HSU default (PN532 user manual)
TABLE_BAUD = 57600  # the daemon's table link (controller/devices/serial_link.LinkConfig)
BUS_ADDRESSES = range(MAX_ANTENNAS)  # addresses asked one by one


@dataclass(frozen=True, slots=True)
class Family:
    """A reader family whose devices may be asked: by USB VID:PID or by-id name words."""

    name: str
    model: ReaderModel
    usb_ids: tuple[tuple[int, int], ...] = ()
    words: tuple[str, ...] = ()  # lower-case words of a /dev/serial/by-id name

    def matches(self, vid: int | None, pid: int | None, by_id: str) -> bool:
        if vid is not None and (vid, pid) in self.usb_ids:
            return True
        name = Path(by_id).name.lower()  # the link's name, not the folder it is in
        return bool(name) and any(w in name for w in self.words)


FAMILIES = (
    Family("UHFReader18 / CF-RU5102", ReaderModel.UHF_SERIAL, words=("uhf", "rfid", "ru5102")),
    Family("PN532 on a serial adapter", ReaderModel.PN532_UART, words=("pn532", "nfc")),
    Family("PN533 on USB", ReaderModel.PN533_USB, usb_ids=((0x04CC, 0x2533), (0x04E6, 0x5591))),
)


@dataclass(frozen=True, slots=True)
class SerialCandidate:
    device: str  # the path opened
    by_id: str = ""  # its /dev/serial/by-id name, if any
    vid: int | None = None
    pid: int | None = None
    description: str = ""
    named: bool = False  # the user named it: it may be asked
    serial_number: str = ""  # the USB adapter's (udev's ATTRS{serial}), if it has one
    location: str = ""  # its USB port path ("1-1.2:1.0", udev's KERNELS), if on USB

    @property
    def usb_id(self) -> str:
        return "" if self.vid is None else f"{self.vid:04x}:{self.pid or 0:04x}"

    @property
    def stable_path(self) -> str:
        """The path to give `mjtable run`: the by-id link survives re-enumeration."""
        return self.by_id or self.device

    def family(self) -> Family | None:
        return next((f for f in FAMILIES if f.matches(self.vid, self.pid, self.by_id)), None)


@dataclass(frozen=True, slots=True)
class UhfBus:
    """UHF readers that answered on one line, by address, and the inventory layout read off
    an answer with tags, for the readers that had one in their field."""

    readers: tuple[ReaderInfo, ...]
    layouts: tuple[tuple[int, InventoryLayout], ...] = ()  # address → layout seen

    @property
    def model(self) -> ReaderModel:
        return ReaderModel.UHF_SERIAL

    @property
    def addresses(self) -> frozenset[int]:
        return frozenset(r.adr for r in self.readers)

    def layout_of(self, adr: int) -> tuple[InventoryLayout | None, str]:
        """The layout the reader at `adr` answers in and how that is known."""
        seen = dict(self.layouts).get(adr)
        if seen is not None:
            return seen, "read off an inventory answer"
        info = next((r for r in self.readers if r.adr == adr), None)
        if info is None or info.variant.layout is None:
            return None, "not known: lay a tag on its antenna 1 and probe again"
        return info.variant.layout, f"as the {info.variant.value}'s documents give"

    def misfit(self, profile: ReaderProfile) -> str:
        """Why `profile` does not fit these readers' firmware ("" when it does)."""
        reader = profile.reader
        for adr in sorted(needed_addresses(profile)):
            layout, how = self.layout_of(adr)
            if layout is not None and layout is not reader.inventory_layout:
                return (
                    f"its inventory-layout is {reader.inventory_layout.value}; the reader at "
                    f"address {adr} answers {layout.value} ({how})"
                )
            info = next((r for r in self.readers if r.adr == adr), None)
            if info is not None and reader.select_antenna and not info.variant.selects_antennas:
                return (
                    f"it selects antennas (0x3F); the reader at address {adr} is of the "
                    f"{info.variant.value}, which has none: select-antenna = false"
                )
        return ""

    def __str__(self) -> str:
        return "; ".join(f"UHF reader at address {r.adr}: {r}" for r in self.readers)


@dataclass(frozen=True, slots=True)
class Pn53x:
    firmware: FirmwareVersion
    model: ReaderModel

    def __str__(self) -> str:
        return f"{self.firmware} ({self.model.value})"


@dataclass(frozen=True, slots=True)
class TableBoard:
    """A table board that answered a table profile's `identify` command."""

    profile: str
    model_number: int
    version: int

    def __str__(self) -> str:
        return (
            f"table board of profile {self.profile}: model 0x{self.model_number:04x}, "
            f"firmware version {self.version}"
        )


Identity = UhfBus | Pn53x | TableBoard


@dataclass(frozen=True, slots=True)
class Finding:
    """One device: what it is (None: not identified) and why it was or was not asked."""

    what: str  # the path, or "USB bus B address A"
    label: str  # VID:PID, description, by-id name
    asked: bool
    note: str  # the answer, or why it was not asked / did not answer
    identity: Identity | None = None
    reader_arg: str = ""  # what `mjtable run --reader` takes for it
    profiles: tuple[str, ...] = ()  # reader profiles that fit, real hardware first
    port: SerialCandidate | None = None  # the serial port it is (None: a USB device)
    mismatches: tuple[str, ...] = ()  # "profile: why not", for profiles that fit but for that


@dataclass(slots=True)
class ProbeOptions:
    ports: Sequence[str] = ()  # named by the user: asked
    by_id: Path = BY_ID
    system: bool = True  # list pyserial's ports too
    usb: bool = True
    usb_backend: Any = None
    timeout: float = 0.15  # seconds for one answer
    profiles: Sequence[str] = field(default_factory=lambda: available("readers"))
    tables: Sequence[str] = field(default_factory=lambda: available("tables"))


# --------------------------------------------------------------------------- listing


def by_id_names(folder: Path) -> dict[str, str]:
    """Real device path → its by-id name, for the links in `folder`."""
    out: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for link in sorted(folder.iterdir()):
            with contextlib.suppress(OSError):
                out.setdefault(os.path.realpath(link), str(link))
    return out


def serial_candidates(options: ProbeOptions) -> list[SerialCandidate]:
    names = by_id_names(options.by_id)
    found: dict[str, SerialCandidate] = {}
    if options.system:
        for p in list_ports.comports():
            real = os.path.realpath(p.device)
            found[real] = SerialCandidate(
                p.device,
                names.get(real, ""),
                p.vid,
                p.pid,
                _description(p.description),
                serial_number=p.serial_number or "",
                location=p.location or "",
            )
    for real, link in names.items():
        if real not in found:
            found[real] = SerialCandidate(real, link)
    for port in options.ports:
        real = os.path.realpath(port)
        old = found.get(real, SerialCandidate(port))
        found[real] = replace(old, device=port, named=True)
    return sorted(found.values(), key=lambda c: c.device)


def _description(text: str | None) -> str:
    return "" if not text or text == "n/a" else text


# --------------------------------------------------------------------------- asking


def _exchange(
    port: serial.SerialBase, data: bytes, feed: Callable[[bytes], list], timeout: float
) -> list:
    port.reset_input_buffer()
    port.write(data)
    deadline = time.monotonic() + timeout
    frames: list = []
    while time.monotonic() < deadline and not frames:
        chunk = port.read(max(1, port.in_waiting))
        if chunk:
            frames += feed(chunk)
            deadline = max(deadline, time.monotonic() + 0.02)  # the rest of the answer
    return frames


def ask_uhf(port: serial.SerialBase, timeout: float) -> UhfBus | None:
    port.baudrate = UHF_BAUD
    readers: list[ReaderInfo] = []
    for adr in (*BUS_ADDRESSES, BROADCAST):
        if adr == BROADCAST and readers:
            break
        decoder = ResponseDecoder("probe")
        for resp in _exchange(port, reader_info_command(adr).encode(), decoder.feed, timeout):
            info = parse_reader_info(resp)
            if info is not None and info.adr not in {r.adr for r in readers}:
                readers.append(info)
    if not readers:
        return None
    layouts = []
    for info in sorted(readers, key=lambda r: r.adr):
        layout = inventory_layout(port, info.adr, timeout)
        if layout is not None:
            layouts.append((info.adr, layout))
    return UhfBus(tuple(sorted(readers, key=lambda r: r.adr)), tuple(layouts))


def inventory_layout(port: serial.SerialBase, adr: int, timeout: float) -> InventoryLayout | None:
    """The one layout every tag-carrying frame of an inventory answer at `adr` parses in;
    None without a tag in the field, or when the frames leave more than one (or none)."""
    decoder = ResponseDecoder("probe")
    frames = _exchange(port, inventory_command(adr).encode(), decoder.feed, timeout)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not any(
        f.cmd == UHFCmd.INVENTORY and f.status in FINAL_INVENTORY_STATUSES for f in frames
    ):
        frames += decoder.feed(port.read(max(1, port.in_waiting)))  # the answer's last frames
    found: frozenset[InventoryLayout] | None = None
    for f in frames:
        fits = layouts_of(f)
        if fits:
            found = fits if found is None else found & fits
    return next(iter(found)) if found is not None and len(found) == 1 else None


def ask_pn532(port: serial.SerialBase, timeout: float) -> Pn53x | None:
    port.baudrate = PN532_BAUD
    decoder = pn532.FrameDecoder("probe")
    frame = pn532.WAKEUP + pn532.get_firmware_version()
    frames = _exchange(port, frame, decoder.feed, timeout)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not any(isinstance(f, InfoFrame) for f in frames):
        frames += decoder.feed(port.read(max(1, port.in_waiting)))  # the answer after the ACK
    for f in frames:
        if isinstance(f, InfoFrame):
            answer = pn532.parse_answer(f, Command.GET_FIRMWARE_VERSION)
            if isinstance(answer, FirmwareVersion):
                return Pn53x(answer, ReaderModel.PN532_UART)
    return None


def ask_table(port: serial.SerialBase, timeout: float, tables: Sequence[str]) -> TableBoard | None:
    """Each table profile's `identify` command, in the profile's framing; the first board
    that answers with its `identity` event names its profile."""
    port.baudrate = TABLE_BAUD
    for name in tables:
        profile = load_table(name)
        if profile.command(CommandKind.IDENTIFY) is None:
            continue
        driver = TableDriver(profile)
        for ev in _exchange(
            port, driver.encode(Identify()), lambda b, d=driver: d.feed(0.0, b), timeout
        ):
            if isinstance(ev, TableIdentified):
                return TableBoard(name, ev.model, ev.version)
    return None


def ask_serial(
    c: SerialCandidate, timeout: float, tables: Sequence[str] = ()
) -> tuple[Identity | None, str]:
    try:
        port = serial.serial_for_url(c.device, baudrate=UHF_BAUD, timeout=0.01, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as err:
        return None, f"cannot open: {err}"
    try:
        family = c.family()
        asks = [ask_uhf, ask_pn532]
        if family is not None and family.model is ReaderModel.PN532_UART:
            asks.reverse()
        for ask in asks:
            found = ask(port, timeout)
            if found is not None:
                return found, str(found)
        board = ask_table(port, timeout, tables) if c.named else None
        if board is not None:
            return board, str(board)
        asked = "the UHF reader's or the PN532's question"
        if c.named:
            asked += " nor the table profiles' identify"
        return None, f"no answer to {asked}"
    except IO_ERRORS as err:  # unplugged while asked (termios.error on a buffer reset)
        return None, f"failed while asking: {err}"
    finally:
        port.close()


def usb_findings(options: ProbeOptions) -> list[Finding]:
    import usb.core
    import usb.util

    from controller.devices.pn533_usb import KNOWN_DEVICES, DeviceLost, NoAnswer, PN533Link

    try:
        devices = list(usb.core.find(find_all=True, backend=options.usb_backend))
    except usb.core.NoBackendError:
        return [Finding("USB", "", False, "no USB backend (is libusb-1.0 installed?)")]
    out = []
    for dev in devices:
        vid, pid = dev.idVendor, dev.idProduct
        what = f"USB bus {dev.bus} address {dev.address}"
        known = next((k for k in KNOWN_DEVICES if (k.vendor, k.product) == (vid, pid)), None)
        label = f"{vid:04x}:{pid:04x}" + (f" {known.name}" if known else "")
        if known is None:
            out.append(Finding(what, label, False, "not a known reader: not asked"))
            continue
        try:
            # this device, not the first of its VID:PID (two alike readers are two findings)
            dev.set_configuration()
            usb.util.claim_interface(dev, 0)
            link = PN533Link(dev, known)
            try:
                answer = pn532.parse_answer(
                    link.exchange(pn532.get_firmware_version(), Command.GET_FIRMWARE_VERSION),
                    Command.GET_FIRMWARE_VERSION,
                )
            finally:
                link.close()
        except (NoAnswer, DeviceLost, usb.core.USBError) as err:
            out.append(Finding(what, label, True, f"no answer: {err}"))
            continue
        if not isinstance(answer, FirmwareVersion):
            out.append(Finding(what, label, True, f"unexpected answer: {answer}"))
            continue
        ident = Pn53x(answer, ReaderModel.PN533_USB)
        arg = f"usb:{vid:04x}:{pid:04x}"
        out.append(Finding(what, label, True, str(ident), ident, arg))
    return out


# --------------------------------------------------------------------------- fitting


def needed_addresses(profile: ReaderProfile) -> frozenset[int]:
    return frozenset((n - 1) // MAX_ANTENNAS for n in profile.antennas)


def fitting(identity: Identity, profiles: Iterable[ReaderProfile]) -> tuple[str, ...]:
    """Names of the profiles that fit, real hardware before the simulator's, the closest
    (fewest readers unused) first."""
    if isinstance(identity, TableBoard):
        return (identity.profile,)
    fits: list[tuple[bool, int, str]] = []
    for p in profiles:
        sim = p.reader.name.startswith("sim-")
        if isinstance(identity, UhfBus):
            if p.reader.model is not ReaderModel.UHF_SERIAL:
                continue
            need = needed_addresses(p)
            if need <= identity.addresses and not identity.misfit(p):
                fits.append((sim, len(identity.addresses - need), p.reader.name))
        elif p.reader.model is identity.model:
            fits.append((sim, 0, p.reader.name))
    return tuple(name for _, _, name in sorted(fits))


def mismatches(identity: Identity, profiles: Iterable[ReaderProfile]) -> tuple[str, ...]:
    """ "profile: why not" for the UHF profiles whose readers answered but whose firmware
    settings (inventory layout, antenna selection) are not these readers'."""
    if not isinstance(identity, UhfBus):
        return ()
    out = []
    for p in profiles:
        if p.reader.model is ReaderModel.UHF_SERIAL and needed_addresses(p) <= identity.addresses:
            why = identity.misfit(p)
            if why:
                out.append(f"{p.reader.name}: {why}")
    return tuple(out)


def probe(options: ProbeOptions) -> list[Finding]:
    profiles = [load_reader(name) for name in options.profiles]
    out: list[Finding] = []
    for c in serial_candidates(options):
        label = " ".join(x for x in (c.usb_id, c.description, c.by_id) if x)
        family = c.family()
        if not c.named and family is None:
            why = f"not a known reader family: not asked (name it: mjtable probe --port {c.device})"
            out.append(Finding(c.device, label, False, why, port=c))
            continue
        identity, note = ask_serial(c, options.timeout, options.tables)
        fits = fitting(identity, profiles) if identity is not None else ()
        wrong = mismatches(identity, profiles) if identity is not None else ()
        out.append(Finding(c.device, label, True, note, identity, c.stable_path, fits, c, wrong))
    if options.usb:
        for f in usb_findings(options):
            fits = fitting(f.identity, profiles) if f.identity is not None else ()
            out.append(Finding(f.what, f.label, f.asked, f.note, f.identity, f.reader_arg, fits))
    return out


def run_line(reader: Finding, table: Finding | None) -> str:
    parts = [
        "mjtable run",
        f"--reader {reader.reader_arg}",
        f"--reader-profile {reader.profiles[0]}",
    ]
    if table is not None:
        parts += [f"--table {table.reader_arg}", f"--profile {table.profiles[0]}"]
    else:
        # no board answered: a table with no serial link reads the shuffle, walls and
        # dice off the reader, and the players declare by cards (no seat buttons)
        parts += ["--table none"]
    return " ".join([*parts, "--tags TAG-MAP"])


def report(findings: Sequence[Finding]) -> list[str]:
    """The text `mjtable probe` prints."""
    lines = []
    for f in findings:
        lines.append(f"{f.what}" + (f"  [{f.label}]" if f.label else ""))
        if isinstance(f.identity, UhfBus):
            answered = ", ".join(str(a) for a in sorted(f.identity.addresses))
            lines.append(f"    asked: UHF readers answered at addresses {answered}")
            for r in f.identity.readers:
                layout, how = f.identity.layout_of(r.adr)
                lines.append(f"      address {r.adr}: {r}")
                lines.append(f"        inventory layout: {layout.value if layout else '?'} ({how})")
        else:
            lines.append(f"    {'asked: ' if f.asked else ''}{f.note}")
        if f.identity is not None:
            names = [n + " (simulator)" if n.startswith("sim-") else n for n in f.profiles]
            lines.append(f"    fits: {', '.join(names) or 'none of the shipped profiles'}")
        for why in f.mismatches:
            lines.append(f"    not {why}")
        if isinstance(f.identity, UhfBus) and not f.profiles and f.mismatches:
            lines.append(
                "    (a profile of another variant: copy it and set inventory-layout and "
                "select-antenna as above, docs/PROFILES.md)"
            )
        elif isinstance(f.identity, UhfBus) and not f.profiles:
            lines.append(
                "    (a bus profile needs readers at addresses 0, 1, 2 …: antenna n is on "
                "address (n-1) div 8; set each reader's address, docs/PROFILES.md)"
            )
    readers = [f for f in findings if f.profiles and not isinstance(f.identity, TableBoard)]
    tables = [f for f in findings if isinstance(f.identity, TableBoard)]
    # the table board's port: a USB serial port that is no reader (a bare UART rarely is)
    others = [f.what for f in findings if f.identity is None and f.label and f.what[:4] != "USB "]
    lines.append("")
    if not readers:
        if any(isinstance(f.identity, UhfBus | Pn53x) for f in findings):
            lines.append(
                "no shipped reader profile fits the readers that answered (docs/PROFILES.md)"
            )
        else:
            lines.append("no reader identified (name a port to ask it: mjtable probe --port PATH)")
        return lines
    for f in readers:
        lines.append("start with:")
        lines.append(f"    {run_line(f, tables[0] if tables else None)}")
    if not tables:
        lines.append(
            "no table board answered: --table none runs a table without a serial link (the "
            "reader's profile says how players declare; --declarations cards or tiles where "
            "it says buttons); a table with a board: --table PORT --profile TABLE-PROFILE"
        )
    if not tables and others:
        lines.append(
            f"the table board may be on: {', '.join(others)} (name it with --port to ask it "
            "with the table profiles' identify command)"
        )
    lines.append("TAG-MAP: your tiles' tag map (mjtable enroll writes one)")
    lines.append("then: mjtable calibrate (docs/PROFILES.md) before the first session")
    return lines
