"""The simulator through real ptys: a host client on the real drivers sees what the world
holds; noise and an unplug are survived; the CLI prints its devices and writes the truth."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from controller.devices.events import (
    DiceRolled,
    FrameError,
    LinkChanged,
    LinkState,
    SeatButton,
    ShuffleDone,
    WallsUp,
)
from controller.profiles import Zone, ZoneKind, load_reader, load_table, load_tags
from controller.recognition.presence import TilePlaced
from tools.sim.client import HostClient
from tools.sim.devices import open_endpoint
from tools.sim.noise import NoiseConfig, Unplug
from tools.sim.run import SimConfig, Simulation, default_kind

WAIT = 20.0  # an upper bound on a condition, never slept
ROOT = Path(__file__).resolve().parents[2]


def drain(q: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def client_for(paths: dict[str, str], reply_timeout: float = 2.0) -> HostClient:
    return HostClient(
        paths["table"],
        paths["reader"],
        load_table("sim-table"),
        load_reader("sim-uhf"),
        load_tags("sim-108"),
        # the simulator answers at once; a lost answer costs less time (but a loaded
        # machine may delay an answer: tests that count errors wait longer)
        reply_timeout=reply_timeout,
    )


def truth(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def settled_zones(sim: Simulation) -> dict:
    return {tc: p for tc, p in sim.world.snapshot().items() if isinstance(p, Zone)}


@pytest.fixture
def session(tmp_path: Path, request) -> Iterator[tuple[Simulation, HostClient]]:
    config: SimConfig = request.param(tmp_path)
    sim = Simulation(config)
    client = client_for(sim.paths(), 0.1 if config.noise.corrupt else 2.0)
    client.start()
    try:
        assert sim.wait_for_client(WAIT)
        yield sim, client
    finally:
        client.stop()
        sim.close()


def clean(tmp: Path) -> SimConfig:
    return SimConfig(deals=1, seed=11, folder=tmp, truth=tmp / "truth.jsonl", max_moves=30)


@pytest.mark.parametrize("session", [clean], indirect=True)
def test_clean_deal_host_sees_the_world_and_the_wall_order(session, tmp_path: Path) -> None:
    sim, client = session
    assert sim.run() == 1
    client.stop()
    events = drain(client.events)
    kinds = [type(e) for e in events if not isinstance(e, LinkChanged | TilePlaced)]
    # the table's events come in the physical order of a deal start
    table = [k for k in kinds if k in (ShuffleDone, WallsUp, DiceRolled)]
    assert table == [ShuffleDone, WallsUp, DiceRolled]
    assert not [e for e in events if isinstance(e, FrameError)]
    # the tiles crossed the wall antenna single-file: the host sees the wall order
    records = truth(tmp_path / "truth.jsonl")
    deal = next(r for r in records if r["class"] == "deal")
    wall_seen = [
        f"{e.tile}#{e.copy}"
        for e in events
        if isinstance(e, TilePlaced) and e.zone == Zone(ZoneKind.WALL)
    ]
    assert wall_seen == deal["wall"]
    assert sorted(deal["wall"]) == sorted(str(tc) for tc in sim.world.copies)
    # at the end the host's presence is the world's
    assert dict(client.debouncer.presence()) == settled_zones(sim)
    dice = next(e for e in events if isinstance(e, DiceRolled))
    assert [dice.a, dice.b] == deal["dice"]
    moves = [r for r in records if r["class"] == "move"]
    assert len(moves) == 30 and all("t" in m for m in moves)
    assert [m["move"] for m in moves[:4]] == ["void"] * 4
    buttons = [e for e in events if isinstance(e, SeatButton)]
    assert len(buttons) == sum("button" in m for m in moves)


def noisy(tmp: Path) -> SimConfig:
    return SimConfig(
        deals=1,
        seed=5,
        folder=tmp,
        max_moves=25,
        noise=NoiseConfig(missed=5, repeated=2, crosstalk=2, corrupt=0.5),
    )


@pytest.mark.parametrize("session", [noisy], indirect=True)
def test_noise_is_seen_as_frame_errors_and_presence_still_settles(session) -> None:
    sim, client = session
    sim.run()
    client.stop()
    events = drain(client.events)
    assert sim.noise.counts["corrupt"] > 0 and sim.noise.counts["crosstalk"] > 0
    assert any(isinstance(e, FrameError) for e in events)
    presence = client.debouncer.presence()
    world = settled_zones(sim)
    wrong = {tc: (presence.get(tc), z) for tc, z in world.items() if presence.get(tc) != z}
    assert len(wrong) <= 2, wrong  # 5 % misses may keep a tile or two from settling in time


def unplugged(tmp: Path) -> SimConfig:
    return SimConfig(
        deals=1,
        seed=3,
        folder=tmp,
        truth=tmp / "truth.jsonl",
        max_moves=40,
        noise=NoiseConfig(unplugs=(Unplug("reader", 0.5, 0.3), Unplug("table", 0.4, 0.4))),
    )


@pytest.mark.parametrize("session", [unplugged], indirect=True)
def test_unplug_and_replug_at_the_same_path(session, tmp_path: Path) -> None:
    sim, client = session
    sim.run()
    # the last steps waited for reader rounds again: the client is back
    client.stop()
    links = [e for e in drain(client.events) if isinstance(e, LinkChanged)]
    for device in ("reader", "table"):
        states = [e.state for e in links if e.device == device]
        assert states[:3] == [LinkState.UP, LinkState.DOWN, LinkState.UP], device
        assert (tmp_path / device).is_symlink()
    faults = [r for r in truth(tmp_path / "truth.jsonl") if r["class"] == "fault"]
    assert [(f["device"], f["link"]) for f in faults] == [
        ("reader", "down"),
        ("table", "down"),
        ("reader", "up"),
        ("table", "up"),
    ]
    assert dict(client.debouncer.presence()) == settled_zones(sim)


def test_cli_prints_devices_waits_for_a_client_and_writes_truth(tmp_path: Path) -> None:
    truth_path = tmp_path / "truth.jsonl"
    cmd = [
        sys.executable,
        "-m",
        "controller",
        "sim",
        "--deals",
        "2",
        "--fast",
        "--seed",
        "9",
        "--truth",
        str(truth_path),
        "--max-moves",
        "8",
        "--dir",
        str(tmp_path / "dev"),
        "--missed",
        "1",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline().strip() for _ in range(2)]
        assert lines[0].startswith("table: ") and lines[1].startswith("reader: ")
        paths = dict(line.split(": ", 1) for line in lines)
        assert not truth_path.exists() or truth_path.read_text() == ""  # waiting
        client = client_for(paths)
        client.start()
        try:
            assert proc.wait(timeout=60) == 0
        finally:
            client.stop()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    records = truth(truth_path)
    assert [r["deal"] for r in records if r["class"] == "deal"] == [1, 2]
    ends = [r for r in records if r["class"] == "deal-end"]
    assert len(ends) == 2 and all(r["next_dealer"] in "ESWN" for r in ends)
    assert sum(r["class"] == "move" for r in records) == 16


def test_cli_gives_up_without_a_client(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "controller", "sim", "--fast", "--wait", "0.3"]
    cmd += ["--dir", str(tmp_path)]
    started = time.monotonic()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "no client" in done.stderr
    assert time.monotonic() - started < 25


def test_pn533_usb_reader_is_in_process(tmp_path: Path) -> None:
    from controller.devices.events import TagsRead
    from controller.devices.pn533_usb import PN533Reader
    from tools.sim.usb_spot import nfc_uid

    sim = Simulation(SimConfig(reader="pn533-usb", folder=tmp_path, max_moves=0, seed=2))
    try:
        assert "reader" in sim.paths() and sim.usb_backend is not None
        reader = PN533Reader(backend=sim.usb_backend)
        order = sim.world.shuffle()
        sim.usb.spot = Zone(ZoneKind.WALL)
        sim.world.move(order[0], sim.world.where(order[0]), Zone(ZoneKind.WALL))
        sim.usb.sync()
        seen: list[TagsRead] = []
        for _ in range(5):
            seen += [e for e in reader.step() if isinstance(e, TagsRead)]
        assert seen and seen[-1].uids == (nfc_uid(sim.world.uids[order[0]]),)
        reader.close()
    finally:
        sim.close()


@pytest.mark.parametrize(
    ("kind", "profile", "message"),
    [
        ("uhf", "sim-feig", "sim-feig is a feig-iso15693 reader: --reader feig, not uhf"),
        ("feig", "sim-uhf", "sim-uhf is a uhf-serial reader: --reader uhf, not feig"),
    ],
)
def test_a_reader_kind_that_is_not_the_profiles_model_is_one_error(kind, profile, message):
    """The simulated line speaks the profile's protocol: a FEIG profile is answered in FEIG
    frames, never by UHF readers, and `mjtable sim` picks the kind from the profile."""
    with pytest.raises(ValueError, match=message):
        Simulation(SimConfig(reader=kind, reader_profile=profile))
    assert default_kind("sim-feig") == "feig" and default_kind("sim-uhf") == "uhf"


def test_regression_the_simulated_feig_line_reopens_at_its_profiles_line_setting(tmp_path):
    """sim-feig at the factory's even parity: a Linux pty refused the restarted daemon's
    second open (tcsetattr EINVAL), and the reader link stayed down for the rest of a
    campaign after the first kill. The simulator's readers run at no parity; the line opens
    again and again at the profile's setting, as the daemon's reconnects do."""
    reader = load_reader("sim-feig").reader
    endpoint = open_endpoint(tmp_path, "reader")
    try:
        for _ in range(3):
            port = serial.serial_for_url(
                str(endpoint.link), baudrate=reader.baud, parity=reader.parity.pyserial
            )
            port.close()
    finally:
        endpoint.close()
