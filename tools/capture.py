"""Recorded device sessions (gpsd-style logs): the capture format (read and written by
`tools/capture_file.py`) and the replayer that runs a capture through the real drivers into
a readable event stream.

A capture is JSON lines, gzip-compressed when the file name ends in `.gz`
(`session.jsonl` or `session.jsonl.gz`). The first line is the header::

    {"class": "capture", "version": 1, "date": "2026-11-22",
     "table": {"profile": "sim-table", "model": "sim-table", "firmware": "mjtable-sim 1"},
     "reader": {"profile": "sim-uhf", "model": "uhf-serial", "firmware": "…"},
     "odd": "what is unusual in this capture (noise, an unplug…)", "source": "how it was made"}

(`"table": null` in a capture of the reader alone, as `mjtable calibrate --record` writes),
then one record per line, `t` in seconds from the start, `dir` from the host's view::

    {"t": 0.0132, "dev": "reader", "dir": "tx", "hex": "06ff3f0169e9"}    host → device
    {"t": 0.0141, "dev": "reader", "dir": "rx", "hex": "0500 3f00…"}      device → host
    {"t": 20.0, "dev": "reader", "link": "down"}                           cable pulled / back

`replay(path)` feeds the bytes through `TableDriver` (and `TableSide` for the host's
commands), the UHF bus poller (tools/sim/client.py, built on `UHFPoller`) on the recorded
times, and the tag `Debouncer`, and returns the event stream as text lines: the golden output.
`python -m tools.capture regenerate tests/captures/` rewrites every `<name>.golden` beside
its capture; review the change as a diff. `python -m tools.capture show FILE` prints one.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import fields
from enum import Enum
from pathlib import Path
from typing import Any

from controller.devices.events import FrameError, LinkChanged, TagsRead
from controller.devices.table import TableDriver, TableSide
from controller.profiles import load_reader, load_table, load_tags
from controller.recognition.presence import Debouncer
from rules.seats import Seat
from tools.capture_file import Link, read

GOLDEN_SUFFIX = ".golden"


def _value(v: Any) -> str:
    if isinstance(v, Seat):
        return str(v)
    if isinstance(v, Enum):
        return str(v.value)
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def describe(event: Any) -> str:
    """`ClassName key=value ...` for a typed event, `t` left out."""
    from controller.recognition.presence import TileLifted, TilePlaced

    if isinstance(event, TilePlaced | TileLifted):
        return f"{type(event).__name__} {event.tile}#{event.copy} {event.zone}"
    parts = [type(event).__name__]
    for f in fields(event):
        if f.name != "t":
            parts.append(f"{f.name}={_value(getattr(event, f.name))}")
    return " ".join(parts)


def replay(path: Path) -> list[str]:
    """The golden text of a capture: every event the drivers and the debouncer produce."""
    from tools.sim.client import line_poller

    header, records = read(path)
    # a capture of the reader alone (mjtable calibrate --record) has no table
    table_profile = load_table(header["table"]["profile"]) if header.get("table") else None
    reader_profile = load_reader(header["reader"]["profile"])
    tags = load_tags(header.get("tags", "sim-108"))
    driver = TableDriver(table_profile) if table_profile else None
    board = TableSide(table_profile, "table-host") if table_profile else None
    poller = line_poller(reader_profile)
    debouncer = Debouncer(reader_profile, tags)
    out = [f"# {path.name}: {header.get('odd', '')}".rstrip()]
    started = False

    def emit(t: float, device: str, text: str) -> None:
        out.append(f"{t:9.3f} {device:<6} {text}")

    for rec in records:
        if started:
            for event in poller.tick(rec.t).events:
                emit(rec.t, "reader", describe(event))
        if isinstance(rec, Link):
            emit(rec.t, rec.device, describe(LinkChanged(rec.t, rec.device, rec.state)))
            if rec.device == "reader":
                started = False  # the host restarts its antenna cycle on reconnect
            continue
        if rec.device == "table":
            if driver is None or board is None:
                continue
            if rec.direction == "rx":
                items = driver.feed(rec.t, rec.data)
            else:
                items = board.feed(rec.t, rec.data)
            for item in items:
                emit(rec.t, "table", ("" if rec.direction == "rx" else "host ") + describe(item))
            continue
        if rec.direction == "tx":
            if not started:
                poller.start(rec.t)
                started = True
            continue
        step = poller.feed(rec.t, rec.data)
        for event in step.events:
            if isinstance(event, TagsRead):
                debouncer.observe(event)
            elif isinstance(event, FrameError):
                emit(rec.t, "reader", describe(event))
        if step.round_done:
            for change in debouncer.end_round(rec.t):
                emit(rec.t, "reader", describe(change))
    for change in debouncer.end_round():
        emit(records[-1].t if records else 0.0, "reader", describe(change))
    stats = poller.stats()
    out.append(
        f"# table errors={driver.errors if driver else '-'} reader frames={stats.frames} "
        f"junk-bytes={stats.junk_bytes} timeouts={poller.timeouts}"
    )
    return out


def captures(folder: Path) -> Iterator[Path]:
    for p in sorted(Path(folder).iterdir()):
        if p.name.endswith((".jsonl", ".jsonl.gz")):
            yield p


def golden_path(capture: Path) -> Path:
    name = capture.name.removesuffix(".gz").removesuffix(".jsonl")
    return capture.with_name(name + GOLDEN_SUFFIX)


def truth_path(capture: Path) -> Path:
    """The simulator's ground truth of a recorded capture (JSON lines, tools/sim/run.py)."""
    return golden_path(capture).with_suffix(".truth")


def regenerate(folder: Path) -> list[Path]:
    written = []
    for cap in captures(folder):
        gp = golden_path(cap)
        gp.write_text("\n".join(replay(cap)) + "\n", encoding="utf-8")
        written.append(gp)
    return written


def record(args: argparse.Namespace) -> None:
    """One deal start through the simulator, its devices driven by tools/sim/client.py; the
    simulator's truth goes beside the capture (`<name>.truth`)."""
    from tools.sim.client import HostClient
    from tools.sim.noise import NoiseConfig, Unplug
    from tools.sim.run import SimConfig, Simulation

    noise = NoiseConfig(
        args.missed,
        args.repeated,
        args.crosstalk,
        args.corrupt,
        tuple(Unplug.parse(u) for u in args.unplug),
    )
    config = SimConfig(
        seed=args.seed,
        max_moves=args.max_moves,
        noise=noise,
        record=args.capture,
        truth=truth_path(args.capture),
        odd=args.odd,
    )
    sim = Simulation(config)
    paths = sim.paths()
    client = HostClient(
        paths["table"],
        paths["reader"],
        sim.table_profile,
        sim.reader_profile,
        load_tags(f"sim-{sim.rs.tiles.set.value}"),
    )
    client.start()
    try:
        if not sim.wait_for_client(10):
            raise SystemExit("the client did not open the devices")
        sim.run()
    finally:
        client.stop()
        sim.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.capture", description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("regenerate", help="rewrite the golden output of every capture")
    r.add_argument("folder", type=Path)
    s = sub.add_parser("show", help="print the replayed event stream of a capture")
    s.add_argument("capture", type=Path)
    rec = sub.add_parser("record", help="record a simulated session with the built-in client")
    rec.add_argument("capture", type=Path)
    rec.add_argument("--odd", required=True, help="what is unusual in this capture")
    rec.add_argument("--seed", type=int, default=0)
    rec.add_argument("--max-moves", type=int, default=8)
    for name in ("missed", "repeated", "crosstalk", "corrupt"):
        rec.add_argument(f"--{name}", type=float, default=0.0)
    rec.add_argument("--unplug", action="append", default=[], metavar="DEV:S@T")
    args = parser.parse_args(argv)
    if args.cmd == "record":
        record(args)
        print(f"recorded {args.capture}")
        return 0
    if args.cmd == "regenerate":
        for p in regenerate(args.folder):
            print(f"wrote {p}")
        return 0
    sys.stdout.write("\n".join(replay(args.capture)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
