"""`mjtable calibrate` live against the simulator's reader bus on a real pty (missed reads and
crosstalk injected) with a scripted operator placing tiles as told, live against a simulated
PN533 behind pyusb, and from a recorded capture; the profile it writes loads, and its
numbers follow from what the simulator's noise does."""

from __future__ import annotations

import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.cli import main
from controller.devices.pn532 import sam_configuration
from controller.devices.pn532_uart import PN532UartReader
from controller.devices.pn533_usb import Backoff, PN533Reader
from controller.devices.uhf_reader import InventoryLayout
from controller.profiles import CalibrationState, Zone, ZoneKind, load_reader
from rules.seats import Seat
from rules.tiles import TileSet
from tools.calibrate import SerialRounds, SpotRounds, guided
from tools.calibration import derive
from tools.sim.devices import DeviceLoop, ReaderBus, open_endpoint
from tools.sim.noise import CROSSTALK_RSSI, OWN_RSSI, Noise, NoiseConfig
from tools.sim.uart_pn532 import UartPN532
from tools.sim.uhf_reader import SimUHFReader
from tools.sim.usb_backend import SimPN533, SimUsbBackend
from tools.sim.world import IN_MACHINE, World

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0
SPOTS = {1: Zone(ZoneKind.HAND, Seat.E), 2: Zone(ZoneKind.RIVER, Seat.E)}


@pytest.fixture
def bus(tmp_path: Path) -> Iterator[tuple[World, str]]:
    profile = load_reader("uhfreader18-rs485")  # five 4-port readers on one line
    world = World(TileSet.SUITED_108, profile, seed=3)
    noise = Noise(NoiseConfig(missed=8, crosstalk=20), profile, 3)
    reader = ReaderBus(world, noise, open_endpoint(tmp_path, "reader"), None)
    loop = DeviceLoop()
    loop.add(reader.endpoint, reader.on_bytes)
    loop.start()
    yield world, str(reader.endpoint.link)
    loop.stop()
    reader.endpoint.close()


class Lines:
    def __init__(self, proc: subprocess.Popen) -> None:
        self.q: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, args=(proc,), daemon=True).start()

    def _pump(self, proc: subprocess.Popen) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put("<eof>")

    def expect(self, text: str) -> str:
        while True:
            got = self.q.get(timeout=WAIT)
            self.seen.append(got)
            assert got != "<eof>", f"ended before {text!r}: {self.seen[-8:]}"
            if text in got:
                return got


def test_live_calibration_on_the_simulated_bus(bus: tuple[World, str], tmp_path: Path) -> None:
    world, path = bus
    profile_path = tmp_path / "table.toml"
    shutil.copy(ROOT / "hw_profiles/readers/uhfreader18-rs485.toml", profile_path)
    cmd = [sys.executable, "-m", "controller", "calibrate", "--reader", path]
    cmd += ["--reader-profile", str(profile_path), "--antennas", "1,2", "--rounds", "120"]
    capture = tmp_path / "cal.jsonl.gz"
    cmd += ["--record", str(capture)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        out = Lines(proc)
        out.expect("[1/2] antenna 1 (E.hand): put 1 to 4 tiles on it")
        first = world.in_place(IN_MACHINE)[:3]
        world.move_many((tc, IN_MACHINE, SPOTS[1]) for tc in first)
        assert out.expect("[1/2] antenna 1 (E.hand): ").endswith("3 tiles: recording 120 rounds")
        out.expect("[1/2] antenna 1 (E.hand): 60/120 rounds: own reads")
        out.expect("[1/2] antenna 1 (E.hand): done")
        out.expect("[2/2] antenna 2 (E.river): put 1 to 4 tiles")
        second = world.in_place(IN_MACHINE)[:2]
        world.move_many((tc, IN_MACHINE, SPOTS[2]) for tc in second)
        out.expect("[2/2] antenna 2 (E.river): lift the tiles from antenna 1")  # left there
        world.move_many((tc, SPOTS[1], IN_MACHINE) for tc in first)
        out.expect("2 tiles: recording 120 rounds")
        out.expect("[2/2] antenna 2 (E.river): done")
        read_rate = out.expect("own antenna read its tiles in")
        margin = out.expect("debounce: window")
        out.expect(f"wrote {profile_path}")
        assert proc.wait(timeout=WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    got = load_reader(str(profile_path))
    cal = got.calibration
    assert cal.state is CalibrationState.MEASURED and cal.source == f"live {path}"
    assert cal.rounds == 240 and cal.tiles == 5
    assert 0.85 <= cal.read_rate <= 0.99  # 8% of reads missed
    assert f"{cal.read_rate:.1%}" in read_rate
    assert cal.own_rssi == (OWN_RSSI, OWN_RSSI, OWN_RSSI)
    assert cal.crosstalk_reads > 0 and cal.crosstalk_rssi_max == CROSSTALK_RSSI
    # the margin lies between the own reads' spread (0) and the gap to crosstalk
    assert got.debounce.crosstalk_margin == (OWN_RSSI - CROSSTALK_RSSI) // 2
    assert f"crosstalk-margin {got.debounce.crosstalk_margin}" in margin
    assert got.debounce.vanish > cal.longest_miss
    shipped = load_reader("uhfreader18-rs485")
    assert got.antennas == shipped.antennas and got.reader == shipped.reader
    assert shipped.calibration.state is CalibrationState.GUESSED
    assert "# reader address 4: port 1 = antenna 33" in profile_path.read_text()
    # the recorded traffic gives the same figures again, each tile's spot inferred
    again = subprocess.run(
        [sys.executable, "-m", "controller", "calibrate", "--capture", str(capture), "--dry-run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert again.returncode == 0, again.stderr
    rate = next(x for x in again.stdout.splitlines() if "own antenna read its tiles in" in x)
    inferred = float(rate.split(" in ")[1].split("%")[0]) / 100
    assert abs(inferred - cal.read_rate) < 0.03
    assert f"crosstalk-margin {got.debounce.crosstalk_margin}" in again.stdout
    shown = subprocess.run(
        [sys.executable, "-m", "tools.capture", "show", str(capture)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=True,
    ).stdout
    assert "TilePlaced" in shown and "# table errors=- reader frames=" in shown


def test_live_calibration_of_a_pn533_on_usb() -> None:
    device = SimPN533()
    profile = load_reader("pn533-usb")
    uid = bytes.fromhex("04a1b2c3d4e5f6")
    lines: list[str] = []

    def say(line: str) -> None:
        lines.append(line)
        if "put one tile on it" in line:
            device.add_tag(uid)

    reader = PN533Reader(backend=SimUsbBackend([device]), backoff=Backoff(0.1, 1.0))
    source = SpotRounds(say, reader, pause=0.0)
    try:
        tally = guided(source, profile, [1], 80, say)
    finally:
        source.close()
    assert tally is not None
    f = tally.figures()
    assert (f.tiles, f.tag_rounds, f.own_reads, f.own_rssi) == (1, 80, 80, ())
    assert derive(f).debounce.crosstalk_margin == 0  # no RSSI from a PN53x
    assert lines[0].startswith("[1/1] antenna 1 (wall): put one tile on it")
    assert any("1 tiles: recording 80 rounds" in line for line in lines)


def test_calibration_from_a_capture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capture = ROOT / "tests/captures/crosstalk.jsonl.gz"
    out = tmp_path / "from-capture.toml"
    assert main(["calibrate", "--capture", str(capture), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    got = load_reader(str(out))
    assert got.calibration.source == "capture crosstalk.jsonl.gz"
    assert got.calibration.crosstalk_reads > 0
    assert f"wrote {out}" in text and "crosstalk-margin" in text
    # every pair that read each other's tiles is a pair of neighbours in the profile
    assert "does not list as neighbours" not in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--reader", "/dev/null"], "--reader needs --reader-profile"),
        (["--reader", "/dev/null", "--reader-profile", "sim-uhf"], "give --out PATH"),
        (
            ["--reader", "usb", "--reader-profile", "sim-uhf", "--out", "x.toml"],
            "does not fit sim-uhf (uhf-serial)",
        ),
        (
            ["--reader", "/dev/null", "--reader-profile", "sim-uhf", "--antennas", "1,99"],
            "antenna 99 is not in reader profile sim-uhf",
        ),
        (["--capture", "nothing.jsonl"], "nothing.jsonl: no such file"),
        (["--reader", "/dev/null", "--reader-profile", "nope"], "no such profile"),
        (["--reader", "/dev/ttyNOPE9", "--reader-profile", "sim-uhf"], "no such device"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if "--antennas" in args:
        args = [*args, "--out", str(tmp_path / "x.toml")]
    assert main(["calibrate", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


def test_help_explains_with_examples() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "controller", "calibrate", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "examples:" in out and "mjtable calibrate --capture" in out


def test_live_calibration_of_a_pn532_on_a_serial_port(tmp_path: Path) -> None:
    """`mjtable calibrate --reader PATH --reader-profile pn532-pi-uart` against the simulated
    module on a pty: woken, one tile laid when asked, the rounds measured."""
    loop = DeviceLoop()
    module = UartPN532(tmp_path)
    module.attach(loop)
    loop.start()
    uid = bytes.fromhex("04a1b2c3d4e5f6")
    lines: list[str] = []

    def say(line: str) -> None:
        lines.append(line)
        if "put one tile on it" in line:
            module.chip.add_tag(uid)

    source = SpotRounds(say, PN532UartReader(str(module.path)), pause=0.0)
    try:
        tally = guided(source, load_reader("pn532-pi-uart"), [1], 60, say)
    finally:
        source.close()
        loop.stop()
        module.close()
    assert tally is not None
    f = tally.figures()
    assert (f.tiles, f.tag_rounds, f.own_reads, f.own_rssi) == (1, 60, 60, ())
    assert lines[1] == f"reader link up (PN532 on {module.path} (PN532 v1.6))"
    assert module.chip.received[0] == sam_configuration()


SPOT = (
    Path(__file__).resolve().parents[2] / "hw_profiles" / "readers" / "uhfreader18-spot.toml"
).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        (
            'inventory-layout = "plain"',
            'inventory-layout = "antenna-rssi"',
            "answers in the plain inventory layout, not the profile's antenna-rssi: its tiles "
            'would go unread; set inventory-layout = "plain"',
        ),
        ("select-antenna = false", "select-antenna = true", "set select-antenna = false"),
    ],
)
def test_a_reader_of_another_variant_than_its_profile_stops_calibrate_named(
    tmp_path: Path, old: str, new: str, named: str
) -> None:
    """A one-antenna UHFReader18-class reader (plain layout, no 0x3F) calibrated with a
    profile that says otherwise: the session stops at once with the setting to change,
    instead of waiting for tiles it cannot read."""
    profile_path = tmp_path / "wrong.toml"
    profile_path.write_text(SPOT.replace(old, new), encoding="utf-8")
    reader = SimUHFReader(antennas=1, layout=InventoryLayout.PLAIN)
    reader.place(bytes.fromhex("475458260720000000000001"), 1)
    ep = open_endpoint(tmp_path, "uhf")
    loop = DeviceLoop()
    loop.add(ep, lambda data: ep.write(reader.feed(data)))
    loop.start()
    lines: list[str] = []
    source = SerialRounds(str(ep.link), load_reader(str(profile_path)), lines.append)
    try:
        tally = guided(source, load_reader(str(profile_path)), [1], 10, lines.append)
    finally:
        source.close()
        loop.stop()
        ep.close()
    assert tally is None and named in source.misfit and lines[-1] == source.misfit
