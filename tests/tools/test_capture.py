"""Recorded sessions: the capture format round-trips, bad files name their line, and every
shipped capture replays through the real drivers to its golden output (gpsd-style).

After a deliberate change to a driver or the debouncer, regenerate and review the diff:
    python -m tools.capture regenerate tests/captures/
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from controller.devices.events import LinkState
from tools import capture
from tools.capture_file import CaptureError, CaptureWriter, Chunk, Link

FOLDER = Path(__file__).resolve().parents[1] / "captures"
CAPTURES = sorted(capture.captures(FOLDER))


def test_four_captures_are_shipped_with_golden_output_and_truth() -> None:
    names = {c.name.removesuffix(".jsonl.gz") for c in CAPTURES}
    assert names == {"clean-deal-start", "corrupt-resync", "reader-unplug", "crosstalk"}
    for c in CAPTURES:
        assert capture.golden_path(c).is_file() and capture.truth_path(c).is_file()
        header, _ = capture.read(c)
        assert header["odd"] and header["table"]["model"] and header["reader"]["model"]


@pytest.mark.parametrize("path", CAPTURES, ids=lambda p: p.name)
def test_replay_matches_golden(path: Path) -> None:
    expected = capture.golden_path(path).read_text(encoding="utf-8").splitlines()
    got = capture.replay(path)
    diff = "\n".join(difflib.unified_diff(expected, got, "golden", "replay", lineterm=""))
    assert got == expected, f"regenerate with python -m tools.capture regenerate\n{diff[:3000]}"


def _golden(name: str) -> list[list[str]]:
    return [line.split() for line in (FOLDER / f"{name}.golden").read_text().splitlines()]


def _truth_wall(name: str) -> list[str]:
    records = [json.loads(line) for line in (FOLDER / f"{name}.truth").read_text().splitlines()]
    return next(r for r in records if r["class"] == "deal")["wall"]


def _wall_seen(name: str) -> list[str]:
    return [w[3] for w in _golden(name) if w[2:3] == ["TilePlaced"] and w[4] == "wall"]


@pytest.mark.parametrize("name", ["clean-deal-start", "reader-unplug"])
def test_wall_order_seen_exactly_without_read_noise(name: str) -> None:
    assert _wall_seen(name) == _truth_wall(name)


@pytest.mark.parametrize("name", ["corrupt-resync", "crosstalk"])
def test_wall_order_under_noise_is_the_truth_give_or_take_two(name: str) -> None:
    """Missed reads delay a tile's third sighting by a round, so neighbours may swap (the
    debouncer orders one round's placements by tile): the recogniser must allow for it."""
    seen, truth = _wall_seen(name), _truth_wall(name)
    assert sorted(seen) == sorted(truth)
    at = {tc: i for i, tc in enumerate(truth)}
    assert max(abs(at[tc] - i) for i, tc in enumerate(seen)) <= 2


def test_corrupt_capture_resynchronises() -> None:
    lines = _golden("corrupt-resync")
    reasons = {w[4] for w in lines if w[2:3] == ["FrameError"]}
    assert {"reason=bad-crc", "reason=truncated"} <= reasons
    hands = {w[3] for w in lines if w[2:3] == ["TilePlaced"] and w[4].endswith(".hand")}
    assert len(hands) >= 53  # every dealt tile still reached a hand


def test_unplug_capture_loses_the_link_and_catches_up() -> None:
    lines = _golden("reader-unplug")
    links = [w[4] for w in lines if w[2:3] == ["LinkChanged"]]
    assert links == ["state=down", "state=up"]
    hands = {w[3] for w in lines if w[2:3] == ["TilePlaced"] and w[4].endswith(".hand")}
    assert len(hands) >= 53


def test_crosstalk_never_places_a_tile_in_a_neighbouring_zone_for_good() -> None:
    placed: dict[str, str] = {}
    for w in _golden("crosstalk"):
        if w[2:3] == ["TilePlaced"]:
            placed[w[3]] = w[4]
        elif w[2:3] == ["TileLifted"] and placed.get(w[3]) == w[4]:
            del placed[w[3]]
    zones = {z for z in placed.values()}
    assert zones <= {f"{s}.{k}" for s in "ESWN" for k in ("hand", "river", "void", "melds")}
    assert sum(z.endswith(".hand") for z in placed.values()) >= 50


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_writer_and_reader_round_trip(tmp_path: Path, suffix: str) -> None:
    ticks = iter([0.0, 0.5, 1.25, 2.0])
    path = tmp_path / f"s{suffix}"
    w = CaptureWriter(path, {"odd": "test", "table": {}, "reader": {}}, clock=lambda: next(ticks))
    w.chunk("reader", "tx", bytes.fromhex("04ff011bb4"))
    w.chunk("table", "rx", bytes.fromhex("aa55018081"))
    w.link("reader", LinkState.DOWN)
    w.close()
    header, records = capture.read(path)
    assert header["class"] == "capture" and header["version"] == 1 and header["odd"] == "test"
    assert records == [
        Chunk(0.5, "reader", "tx", bytes.fromhex("04ff011bb4")),
        Chunk(1.25, "table", "rx", bytes.fromhex("aa55018081")),
        Link(2.0, "reader", LinkState.DOWN),
    ]
    if suffix.endswith(".gz"):
        assert path.read_bytes()[:2] == b"\x1f\x8b"


def test_bad_files_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"class": "capture", "version": 1}\n{"t": 1, "dev": "x", "dir": "up"}\n')
    with pytest.raises(CaptureError, match=r"bad.jsonl:2: .*direction"):
        capture.read(path)
    path.write_text('{"class": "journal"}\n')
    with pytest.raises(CaptureError, match=r"bad.jsonl:1: not a version 1 capture"):
        capture.read(path)
    path.write_text(
        '{"class": "capture", "version": 1}\n{"t": 1, "dev": "x", "dir": "tx", "hex": "zz"}\n'
    )
    with pytest.raises(CaptureError, match=r"bad.jsonl:2:"):
        capture.read(path)


def test_regenerate_writes_the_golden_beside_the_capture(tmp_path: Path) -> None:
    src = FOLDER / "clean-deal-start.jsonl.gz"
    (tmp_path / src.name).write_bytes(src.read_bytes())
    written = capture.regenerate(tmp_path)
    assert written == [tmp_path / "clean-deal-start.golden"]
    assert written[0].read_text() == (FOLDER / "clean-deal-start.golden").read_text()


def test_a_fresh_recording_replays_to_what_the_live_host_saw(tmp_path: Path) -> None:
    """The replayer is faithful: the presence changes and table events a live host made of
    the bytes are the ones the replay makes of the recorded bytes."""
    import queue

    from controller.devices.events import LinkChanged
    from controller.profiles import load_tags
    from tools.sim.client import HostClient
    from tools.sim.run import SimConfig, Simulation

    path = tmp_path / "fresh.jsonl"
    sim = Simulation(SimConfig(seed=8, max_moves=6, record=path, folder=tmp_path / "dev"))
    paths = sim.paths()
    client = HostClient(
        paths["table"],
        paths["reader"],
        sim.table_profile,
        sim.reader_profile,
        load_tags("sim-108"),
        reply_timeout=2.0,  # no timeouts on a loaded machine: only the bytes matter here
    )
    client.start()
    try:
        assert sim.wait_for_client(20)
        sim.run()
    finally:
        client.stop()
        sim.close()
    from controller.recognition.presence import TileLifted, TilePlaced

    live: dict[str, list[str]] = {"table": [], "reader": []}
    while True:
        try:
            event = client.events.get_nowait()
        except queue.Empty:
            break
        if isinstance(event, LinkChanged):
            continue
        reader = (
            isinstance(event, TilePlaced | TileLifted) or getattr(event, "device", "") == "reader"
        )
        live["reader" if reader else "table"].append(capture.describe(event))
    # each device's stream is the same; how the two interleave is thread timing
    replayed: dict[str, list[str]] = {"table": [], "reader": []}
    for line in capture.replay(path)[1:-1]:
        _, device, text = line.split(None, 2)
        if "LinkChanged" not in text and not text.startswith("host "):
            replayed[device].append(text)
    assert len(live["reader"]) > 200 and len(live["table"]) >= 3
    assert replayed == live
