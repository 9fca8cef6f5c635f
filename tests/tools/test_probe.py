"""`mjtable probe` against the simulator's devices on real ptys and the simulated pyusb
backend: a UHF reader bus behind a by-id link that names a reader family, a PN532 on a port
the user names, a PN533 on USB, and devices nobody may write to (a serial adapter with a
generic by-id name, an unknown USB device, a PN532 on a port nobody named) that are listed
and never receive a byte."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.cli import main
from controller.devices.table import Identify
from controller.devices.uhf_info import ReaderInfo, ReaderVariant
from controller.devices.uhf_reader import InventoryLayout
from controller.profiles import available, load_reader, load_table
from rules.tiles import TileSet
from tools.probe import ProbeOptions, UhfBus, fitting, mismatches, probe, report
from tools.sim.devices import SIM_MODEL, DeviceLoop, ReaderBus, VirtualTable, open_endpoint
from tools.sim.noise import Noise, NoiseConfig
from tools.sim.uart_pn532 import UartPN532
from tools.sim.uhf_reader import SimUHFReader
from tools.sim.usb_backend import SimPN533, SimUsbBackend
from tools.sim.world import World

ROOT = Path(__file__).resolve().parents[2]
UHF_LINK = "usb-Chafon_UHF_RFID_Reader_0001-if00-port0"
GENERIC_LINK = "usb-1a86_USB2.0-Serial-if00-port0"


class Rig:
    def __init__(self, folder: Path, reader_profile: str) -> None:
        self.folder = folder
        self.by_id = folder / "by-id"
        self.by_id.mkdir()
        profile = load_reader(reader_profile)
        world = World(TileSet.SUITED_108, profile, seed=1)
        self.bus = ReaderBus(
            world, Noise(NoiseConfig(), profile, 1), open_endpoint(folder, "reader"), None
        )
        self.table = open_endpoint(folder, "table")  # a table board: must hear nothing
        self.module = UartPN532(folder)  # the PN532 on a Pi's UART
        self.pn532, self.uart = self.module.chip, self.module.endpoint
        self.loop = DeviceLoop()
        self.loop.add(self.bus.endpoint, self.bus.on_bytes)
        self.module.attach(self.loop)
        self.loop.add(self.table, self._heard_by_table)
        self.board = VirtualTable(load_table("sim-table"), open_endpoint(folder, "board"), None)
        self.loop.add(self.board.endpoint, self.board.on_bytes)
        self.table_heard = b""
        self.loop.start()
        (self.by_id / UHF_LINK).symlink_to(self.bus.endpoint.slave_name)
        (self.by_id / GENERIC_LINK).symlink_to(self.table.slave_name)
        self.pn533 = SimPN533()
        self.twin = SimPN533(address=6)  # a second reader of the same VID:PID
        self.stranger = SimPN533(0x1234, 0x5678, address=7)  # answers like a PN533, if asked
        self.usb = SimUsbBackend([self.pn533, self.twin, self.stranger])

    def _heard_by_table(self, data: bytes) -> None:
        self.table_heard += data

    def options(self, *ports: str) -> ProbeOptions:
        return ProbeOptions(
            ports=ports, by_id=self.by_id, system=False, usb_backend=self.usb, timeout=0.3
        )

    def close(self) -> None:
        self.loop.stop()
        for ep in (self.bus.endpoint, self.table, self.uart, self.board.endpoint):
            ep.close()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path, "sim-uhf")
    yield r
    r.close()


def test_probe_identifies_each_reader_and_writes_to_no_unknown_device(rig: Rig) -> None:
    findings = {f.what: f for f in probe(rig.options(str(rig.uart.link)))}
    reader = findings[rig.bus.endpoint.slave_name]
    assert isinstance(reader.identity, UhfBus)
    assert sorted(reader.identity.addresses) == [0, 1, 2]  # sim-uhf's 17 antennas: 3 readers
    assert reader.profiles[0] == "sim-uhf"
    assert reader.reader_arg == str(rig.by_id / UHF_LINK)  # the stable by-id path
    pn532 = findings[str(rig.uart.link)]
    assert pn532.asked and "PN532 v1.6" in pn532.note
    assert pn532.profiles == ("pn532-pi-uart",)
    usb = [f for f in findings.values() if f.what.startswith("USB")]
    pn533s = [f for f in usb if "04cc:2533" in f.label]
    assert [f.what for f in pn533s] == ["USB bus 1 address 5", "USB bus 1 address 6"]
    for pn533 in pn533s:
        assert pn533.profiles == ("pn533-usb",) and pn533.reader_arg == "usb:04cc:2533"
    assert len(rig.pn533.received) == len(rig.twin.received) == 1  # each asked once
    stranger = next(f for f in usb if "1234:5678" in f.label)
    assert not stranger.asked and stranger.identity is None
    table = findings[rig.table.slave_name]
    assert not table.asked and "not asked" in table.note
    # nothing was written to the devices nobody may ask
    assert rig.table_heard == b"" and not rig.table.client_open()
    assert rig.stranger.received == [] and rig.stranger.configuration == 0
    lines = report(list(findings.values()))
    run = f"mjtable run --reader {rig.by_id / UHF_LINK} --reader-profile sim-uhf"
    assert any(line.strip().startswith(run) for line in lines)
    # the PN532's line is one `mjtable run` now polls (it said it could not, before)
    pn532_run = f"mjtable run --reader {rig.uart.link} --reader-profile pn532-pi-uart"
    assert any(line.strip().startswith(pn532_run) for line in lines)
    assert not any("does not poll" in line for line in lines)
    assert any(
        line.startswith(f"the table board may be on: {rig.table.slave_name}") for line in lines
    )


def test_a_pn532_on_a_port_nobody_named_is_not_asked(rig: Rig) -> None:
    (rig.by_id / "platform-3f201000.serial").symlink_to(rig.uart.slave_name)
    findings = {f.what: f for f in probe(rig.options())}
    uart = findings[rig.uart.slave_name]
    assert not uart.asked and uart.identity is None
    assert rig.pn532.received == []


def test_a_bus_of_five_readers_fits_the_rs485_profile(tmp_path: Path) -> None:
    rig = Rig(tmp_path, "uhfreader18-rs485")
    try:
        findings = probe(rig.options())
    finally:
        rig.close()
    reader = next(f for f in findings if isinstance(f.identity, UhfBus))
    assert sorted(reader.identity.addresses) == [0, 1, 2, 3, 4]
    # exact fit first, then the bus without the wall reader, then the simulator's profiles
    assert reader.profiles[:2] == ("uhfreader18-rs485", "uhfreader18-rs485-nowall")
    assert set(reader.profiles[2:]) == {"sim-uhf", "sim-uhf-nowall"}


def test_a_bus_missing_a_reader_fits_no_profile_that_needs_it() -> None:
    profiles = [load_reader(n) for n in available("readers")]
    info = [ReaderInfo(a, (3, 1), 9, 3, 0x4E, 0, 30, 10) for a in (0, 2, 3)]  # 1 is silent
    # only the one-reader spot at address 0 is left (these 8-byte answers are UHFReader18s)
    assert fitting(UhfBus(tuple(info)), profiles) == ("uhfreader18-spot",)


def test_probe_cli_help_and_errors(rig: Rig, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--port", str(rig.folder / "nothing")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"mjtable probe: {rig.folder / 'nothing'}: no such device"]
    with pytest.raises(SystemExit) as info:
        main(["probe", "--timeout", "0"])
    assert info.value.code == 2
    assert "must be more than 0" in capsys.readouterr().err
    out = subprocess.run(
        [sys.executable, "-m", "controller", "probe", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "mjtable probe --port /dev/serial0" in out
    assert "left alone" in out and "examples:" in out


def test_probe_cli_on_ptys(rig: Rig) -> None:
    cmd = [sys.executable, "-m", "controller", "probe", "--no-usb", "--no-system"]
    cmd += ["--by-id", str(rig.by_id), "--timeout", "0.3"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"--reader {rig.by_id / UHF_LINK} --reader-profile sim-uhf" in done.stdout
    assert "asked: UHF readers answered at addresses 0, 1, 2" in done.stdout
    assert "      address 2: UHFReader288 class, version 3.1, type 0x09" in done.stdout
    assert "inventory layout: antenna-rssi" in done.stdout
    assert rig.table_heard == b""


def test_regression_probe_suggested_a_table_port_where_no_board_answered(rig: Rig) -> None:
    # the line to start with used to end "--table TABLE-PORT --profile TABLE-PROFILE" with
    # no board found; a table with no serial link runs as it is with `--table none`
    lines = report(probe(rig.options()))
    run = next(line.strip() for line in lines if line.strip().startswith("mjtable run"))
    assert run.endswith("--table none --tags TAG-MAP"), run
    assert "TABLE-PORT" not in "\n".join(lines)
    assert any(line.startswith("no table board answered: --table none") for line in lines)


def test_a_named_table_board_answers_its_profiles_identify(rig: Rig) -> None:
    findings = probe(rig.options(str(rig.board.endpoint.link)))
    board = next(f for f in findings if f.what == str(rig.board.endpoint.link))
    assert board.profiles == ("sim-table",)
    assert f"model 0x{SIM_MODEL:04x}" in board.note
    assert [c for c in rig.board.commands if isinstance(c, Identify)] == [Identify()]
    assert rig.board.start_requests == 0
    lines = report(findings)
    run = next(line.strip() for line in lines if line.strip().startswith("mjtable run"))
    assert f"--table {rig.board.endpoint.link} --profile sim-table" in run
    assert rig.table_heard == b""  # the unnamed port still hears nothing


def test_a_reader_at_another_address_answers_the_broadcast_and_fits_no_profile(
    tmp_path: Path,
) -> None:
    reader = SimUHFReader(antennas=4, adr=0x23)
    ep = open_endpoint(tmp_path, "odd")
    loop = DeviceLoop()
    loop.add(ep, lambda data: ep.write(reader.feed(data)))
    loop.start()
    try:
        options = ProbeOptions(ports=(str(ep.link),), system=False, usb=False, timeout=0.3)
        options.by_id = tmp_path / "none"
        (finding,) = probe(options)
    finally:
        loop.stop()
        ep.close()
    assert isinstance(finding.identity, UhfBus) and finding.identity.addresses == {0x23}
    # 0..7 one by one, then all; then one inventory where a reader answered
    assert [c.adr for c in reader.commands] == [*range(8), 0xFF, 0x23]
    assert reader.commands[-1].cmd == 0x01
    assert finding.profiles == ()
    text = "\n".join(report([finding]))
    assert "fits: none of the shipped profiles" in text and "set each reader's address" in text
    assert "no shipped reader profile fits the readers that answered" in text


def sim_reader_on_a_port(tmp_path: Path, reader) -> tuple[ProbeOptions, Callable[[], None]]:
    ep = open_endpoint(tmp_path, "uhf")
    loop = DeviceLoop()
    loop.add(ep, lambda data: ep.write(reader.feed(data)))
    loop.start()
    options = ProbeOptions(ports=(str(ep.link),), system=False, usb=False, timeout=0.3)
    options.by_id = tmp_path / "none"

    def close() -> None:
        loop.stop()
        ep.close()

    return options, close


def test_a_uhfreader18_class_reader_is_named_with_its_layout_and_the_profile_to_use(
    tmp_path: Path,
) -> None:
    """One antenna, the manual's plain inventory layout, 8 bytes of reader information, no
    antenna selection: probe reads the layout off the inventory answer of a tag in its
    field and names the profile of that variant, and why the others do not fit."""
    reader = SimUHFReader(antennas=1, layout=InventoryLayout.PLAIN)
    reader.place(bytes.fromhex("475458260720000000000001"), 1)
    options, close = sim_reader_on_a_port(tmp_path, reader)
    try:
        (finding,) = probe(options)
    finally:
        close()
    bus = finding.identity
    assert isinstance(bus, UhfBus) and bus.layouts == ((0, InventoryLayout.PLAIN),)
    assert bus.readers[0].variant is ReaderVariant.UHFREADER18
    assert finding.profiles == ("uhfreader18-spot",)
    text = "\n".join(report([finding]))
    assert "inventory layout: plain (read off an inventory answer)" in text
    assert "--reader-profile uhfreader18-spot" in text


def test_without_a_tag_the_reader_information_says_the_variant(tmp_path: Path) -> None:
    reader = SimUHFReader(antennas=1, layout=InventoryLayout.PLAIN)  # nothing in its field
    options, close = sim_reader_on_a_port(tmp_path, reader)
    try:
        (finding,) = probe(options)
    finally:
        close()
    assert finding.identity.layouts == ()
    assert finding.profiles == ("uhfreader18-spot",)
    assert "plain (as the UHFReader18 class's documents give)" in "\n".join(report([finding]))


def test_a_reader_of_another_variant_than_its_profile_is_named_with_the_reason() -> None:
    profiles = [load_reader(n) for n in available("readers")]
    uhf288 = ReaderInfo(0, (2, 1), 0x26, 3, 0x48, 0, 30, 10, 0x0F, 1, 0, 1)
    bus = UhfBus((uhf288,), ((0, InventoryLayout.ANTENNA_RSSI),))
    assert "uhfreader18-spot" not in fitting(bus, profiles)
    (why,) = mismatches(bus, profiles)
    assert why == (
        "uhfreader18-spot: its inventory-layout is plain; the reader at address 0 answers "
        "antenna-rssi (read off an inventory answer)"
    )
    uhf18 = ReaderInfo(0, (2, 36), 0x09, 3, 0x4E, 0, 30, 10)  # 8 bytes, no tag seen
    text = "\n".join(mismatches(UhfBus((uhf18,)), [load_reader("sim-uhf"), *profiles]))
    assert "sim-uhf" not in text  # needs readers that did not answer: not a variant question
    assert fitting(UhfBus((uhf18,)), profiles) == ("uhfreader18-spot",)
