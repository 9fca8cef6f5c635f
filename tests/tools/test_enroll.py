"""Enrolment against the simulated reader on a real pty: a scripted operator presents the
tiles the tool asks for; a repeated tile, a foreign tag and two tags at once are refused;
the tool is killed half-way and resumes where it stopped; the result is the sim tag set."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import termios
import threading
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.devices.iso15693_feig import inventory_request
from controller.devices.pn532 import sam_configuration
from controller.profiles import (
    TagFamily,
    TagMap,
    TagsHeader,
    TileCopy,
    Zone,
    ZoneKind,
    format_tags,
    load_reader,
    load_tags,
    sim_tag_map,
    sim_tag_uid,
)
from rules.seats import Seat
from rules.tiles import Tile, TileSet
from tools.enroll import EnrolError, Enrolment, Presentations, order_of
from tools.sim.devices import DeviceLoop, ReaderBus, open_endpoint
from tools.sim.noise import Noise, NoiseConfig
from tools.sim.uart_pn532 import UartPN532
from tools.sim.usb_spot import nfc_uid
from tools.sim.world import IN_MACHINE, World

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20.0
SPOT = Zone(ZoneKind.HAND, Seat.E)  # antenna 1 of sim-uhf: the enrolment antenna
FOREIGN = bytes.fromhex("04a1b2c3d4e5f6")  # a 7-byte NFC badge among 12-byte EPC tags


@pytest.fixture
def reader(tmp_path: Path) -> Iterator[tuple[World, str]]:
    profile = load_reader("sim-uhf")
    world = World(TileSet.SUITED_108, profile, seed=1)
    bus = ReaderBus(
        world, Noise(NoiseConfig(), profile, 1), open_endpoint(tmp_path, "reader"), None
    )
    loop = DeviceLoop()
    loop.add(bus.endpoint, bus.on_bytes)
    loop.start()
    yield world, str(bus.endpoint.link)
    loop.stop()
    bus.endpoint.close()


class Operator:
    """Reads the tool's lines and moves tiles on the enrolment antenna accordingly."""

    def __init__(self, world: World, proc: subprocess.Popen) -> None:
        self.world = world
        self.proc = proc
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put("<eof>")

    def line(self) -> str:
        got = self.lines.get(timeout=WAIT)
        self.seen.append(got)
        return got

    def expect(self, prefix: str) -> str:
        while True:
            got = self.line()
            assert got != "<eof>", f"the tool ended before {prefix!r}: {self.seen[-5:]}"
            if got.startswith(prefix):
                return got

    def show(self, *tiles: TileCopy) -> None:
        for tc in tiles:
            self.world.move(tc, IN_MACHINE, SPOT)

    def lift(self, *tiles: TileCopy) -> None:
        for tc in tiles:
            self.world.move(tc, SPOT, IN_MACHINE)

    def work(self, until: int, interludes: dict) -> str:
        """Present what is asked until `until` tiles are enrolled; returns the last line."""
        while True:
            got = self.line()
            if got == "<eof>" or got.startswith("complete:"):
                return got
            if " next: " not in got:
                continue
            count = int(got.split("/")[0])
            if count == until:
                return got
            if count in interludes:
                interludes.pop(count)(self)
            tc = TileCopy.parse(got.split(" next: ")[1])
            self.show(tc)
            self.expect(f"enrolled {tc} ")
            self.lift(tc)


def repeated(op: Operator) -> None:
    first = TileCopy(Tile.parse("1m"), 1)
    op.show(first)
    assert op.expect("already").startswith("already enrolled as 1m#1: ignored")
    op.lift(first)


def foreign(op: Operator) -> None:
    op.world.place_foreign(FOREIGN, SPOT)
    assert "UID length 7" in op.expect("foreign tag 04a1b2c3d4e5f6")
    op.world.place_foreign(FOREIGN, None)


def two_at_once(op: Operator) -> None:
    a, b = order_of(TileSet.SUITED_108)[-2:]
    op.show(a, b)
    op.expect("2 tags on the antenna: present one tile at a time")
    op.lift(a, b)


def operator_terminal() -> None:
    """In the child before exec: SIGINT as at an operator's terminal, where Ctrl-C stops the
    tool. A shell that started pytest in the background (`cmd &` in a script) leaves SIGINT
    ignored, children inherit that, and a Python that starts with SIGINT ignored never raises
    KeyboardInterrupt: the tests' Ctrl-C would wait for nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def enroll(reader_path: str, out: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "controller", "enroll", "--reader", reader_path]
    cmd += ["--set", "club-a", "--out", str(out), "--tiles", "108"]
    return subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, preexec_fn=operator_terminal
    )


def test_enrol_interrupt_and_resume(reader: tuple[World, str], tmp_path: Path) -> None:
    world, path = reader
    out = tmp_path / "club-a.toml"
    proc = enroll(path, out)
    try:
        op = Operator(world, proc)
        assert op.expect("0/108 next: 1m#1")
        first = TileCopy(Tile.parse("1m"), 1)
        op.show(first)
        op.expect("enrolled 1m#1 ")
        op.lift(first)
        last = op.work(30, {5: repeated, 6: foreign, 7: two_at_once})
        assert last == "30/108 next: 8m#3"
        proc.send_signal(signal.SIGKILL)  # the operator's laptop dies
        proc.wait(WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert not interludes_left(op)
    saved = load_tags(str(out))
    assert len(saved.by_uid) == 30
    assert set(saved.by_uid.values()) == set(order_of(TileSet.SUITED_108)[:30])

    proc = enroll(path, out)
    try:
        op = Operator(world, proc)
        assert op.expect("resuming: ") == "resuming: 30/108 enrolled"
        assert op.line() == "30/108 next: 8m#3"
        tc = TileCopy.parse("8m#3")
        op.show(tc)
        op.expect("enrolled 8m#3 ")
        op.lift(tc)
        assert op.work(-1, {}) == f"complete: 108/108 in {out}"
        assert proc.wait(WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    done = load_tags(str(out))
    assert done.missing() == ()
    assert dict(done.by_uid) == dict(sim_tag_map(TileSet.SUITED_108).by_uid)
    assert done.header.name == "club-a" and done.header.written_by == "mjtable enroll"


def interludes_left(op: Operator) -> list[str]:
    wanted = ["already enrolled as 1m#1", "foreign tag", "2 tags on the antenna"]
    return [w for w in wanted if not any(line.startswith(w) for line in op.seen)]


def test_presentations_need_stable_reads_and_fire_once() -> None:
    p = Presentations(stable=2)
    a, b = frozenset({b"a" * 12}), frozenset({b"b" * 12})
    assert p.feed(a) is None and p.feed(a) == a and p.feed(a) is None
    assert p.feed(frozenset()) is None and p.feed(frozenset()) is None
    assert p.feed(a) is None and p.feed(a) == a  # lifted and shown again: a new presentation
    assert p.feed(b) is None and p.feed(a) is None  # flicker never settles
    assert p.feed(a) == a


def test_extra_tag_after_completion_and_mismatched_resume(tmp_path: Path) -> None:
    out = tmp_path / "s.toml"
    e = Enrolment(out, "s", TileSet.SUITED_108)
    uids = list(sim_tag_map(TileSet.SUITED_108).by_uid)
    by_copy = {tc: uid for uid, tc in sim_tag_map(TileSet.SUITED_108).by_uid.items()}
    for tc in order_of(TileSet.SUITED_108):
        assert e.present(frozenset({by_copy[tc]})).kind == "enrolled"
    assert e.next is None
    extra = bytes(12)
    assert extra not in uids
    assert e.present(frozenset({extra})).kind == "extra"
    with pytest.raises(EnrolError, match="holds set 's'"):
        Enrolment(out, "other", TileSet.SUITED_108)
    with pytest.raises(EnrolError, match="108 tiles"):
        Enrolment(out, "s", TileSet.FULL_136)


def test_a_file_that_is_not_a_prefix_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "gap.toml"
    header = TagsHeader("gap", TileSet.SUITED_108)
    tc = TileCopy(Tile.parse("5p"), 2)
    out.write_text(format_tags(TagMap(header, types.MappingProxyType({bytes(12): tc}))))
    with pytest.raises(EnrolError, match="not a prefix"):
        Enrolment(out, "gap", TileSet.SUITED_108)


def test_enrol_nfc_tiles_with_a_pn532_on_a_serial_port(tmp_path: Path) -> None:
    """`mjtable enroll --reader-profile pn532-pi-uart`: the tool wakes and polls the
    simulated PN532 module on a pty (tools/sim/uart_pn532.py); each tile's 7-byte NFC UID
    becomes the copy asked for."""
    loop = DeviceLoop()
    module = UartPN532(tmp_path)
    module.attach(loop)
    loop.start()
    out = tmp_path / "club-nfc.toml"
    cmd = [sys.executable, "-m", "controller", "enroll", "--reader", str(module.path)]
    cmd += ["--reader-profile", "pn532-pi-uart", "--set", "club-nfc", "--out", str(out)]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, preexec_fn=operator_terminal
    )
    shown = order_of(TileSet.SUITED_108)[:3]
    try:
        op = Operator(None, proc)  # type: ignore[arg-type]  # it moves tags on the chip
        assert op.line() == "0/108 next: 1m#1"
        assert op.line() == "reader link up"
        for n, tc in enumerate(shown):
            if n:
                assert op.expect(f"{n}/108 next: ") == f"{n}/108 next: {tc}"
            uid = nfc_uid(sim_tag_uid(tc))
            module.chip.add_tag(uid)
            assert op.expect("enrolled ") == f"enrolled {tc} {uid.hex()}"
            module.chip.remove_tag(uid)
        assert op.expect("3/108 next: ") == "3/108 next: 1m#4"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(WAIT)
        loop.stop()
        module.close()
    saved = load_tags(str(out))
    assert dict(saved.by_uid) == {nfc_uid(sim_tag_uid(tc)): tc for tc in shown}
    assert module.chip.received[0] == sam_configuration()  # woken and configured first


def test_enrol_icode_tiles_with_feig_readers_on_a_serial_line(tmp_path: Path) -> None:
    """`mjtable enroll --reader-profile sim-feig --antenna 5`: the tool polls the FEIG
    reader at COM-ADR 4 (antenna 5, S's hand) on the simulated line at 38400 baud, and each
    tile's ICODE UID (MSB first, e0 04 …) becomes the copy asked for; a
    tile shown again is not enrolled twice."""
    profile = load_reader("sim-feig")
    world = World(TileSet.SUITED_108, profile, seed=1)
    bus = ReaderBus(world, Noise(NoiseConfig(), profile, 1), open_endpoint(tmp_path, "r"), None)
    loop = DeviceLoop()
    loop.add(bus.endpoint, bus.on_bytes)
    loop.start()
    spot = Zone(ZoneKind.HAND, Seat.S)
    out = tmp_path / "club-icode.toml"
    cmd = [sys.executable, "-m", "controller", "enroll", "--reader", str(bus.endpoint.link)]
    cmd += ["--reader-profile", "sim-feig", "--antenna", "5", "--set", "club-icode"]
    cmd += ["--out", str(out)]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, preexec_fn=operator_terminal
    )
    shown = order_of(TileSet.SUITED_108)[:3]
    try:
        op = Operator(world, proc)
        for n, tc in enumerate(shown):
            assert op.expect(f"{n}/108 next: ") == f"{n}/108 next: {tc}"
            world.move(tc, IN_MACHINE, spot)
            uid = sim_tag_uid(tc, TagFamily.ISO15693)
            assert uid[:2] == bytes.fromhex("e004")
            assert op.expect("enrolled ") == f"enrolled {tc} {uid.hex()}"
            world.move(tc, spot, IN_MACHINE)
        assert op.expect("3/108 next: ") == "3/108 next: 1m#4"
        assert line_speed(bus.endpoint.slave_name) == termios.B38400
        world.move(shown[0], IN_MACHINE, spot)  # the first tile again
        assert op.expect("already ").startswith(f"already enrolled as {shown[0]}")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(WAIT)
        loop.stop()
        bus.endpoint.close()
    saved = load_tags(str(out))
    assert dict(saved.by_uid) == {sim_tag_uid(tc, TagFamily.ISO15693): tc for tc in shown}
    assert bus.feig is not None and set(bus.feig.readers[4].requests) == {
        inventory_request(4)
    }  # the reader at COM-ADR 4 alone was asked, new inventories only


def line_speed(tty: str) -> int:
    """The speed the client set on the pty (termios is the tty's, shared by every opener; a
    Linux pty keeps the speed but clears the parity bits, so the parity is tested with the
    link's opener, tests/controller/devices/test_serial_link.py)."""
    fd = os.open(tty, os.O_RDWR | os.O_NOCTTY)
    try:
        return termios.tcgetattr(fd)[4]
    finally:
        os.close(fd)
