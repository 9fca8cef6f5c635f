"""`mjtable bench daemon`: the daemon's core under a stream of reader frames.

- **commit latency**: from the moment the last byte of an inventory frame is handed to the
  core (`Runtime.handle(DataReceived)`) to the commit (fsync) of its `hw.frame` record, and
  to the end of the scoreboard push that follows it (views built, SSE feeds fed); p50/p99.
  Every frame carries a changed tag set, so every frame is journalled (the worst case: the
  daemon does not store a frame that repeats its antenna's last answer).
- **throughput**: frames handled per second, back to back, the same work per frame, against
  what the serial line can carry at the reader's baud rate (10 bits a byte) for that frame.
- **RSS**: the process's peak resident set after the session (Python and every import).
- **ready**: `mjtable run` on `loop://` devices, from process start to its sd_notify
  `READY=1` datagram on a socket of ours: wall time, the CPU time it used by then and its
  resident memory then. Measured as an installed package starts (its modules' bytecode
  cached: a private `PYTHONPYCACHEPREFIX`, filled by one start that is not counted) and
  with no bytecode written (`ready_cold_*`, `PYTHONDONTWRITEBYTECODE`: a module without a
  .pyc beside its source is compiled at every start, as on this project's build machine,
  which sets that variable).
- **live** (`--live SECONDS`, only when asked): `mjtable run` in real time against its
  built-in simulator (the hardware's pace), its own CPU time (utime + stime from
  /proc/PID/stat) over SECONDS of wall time once the first deal is under way, and its
  resident memory (VmRSS, VmHWM). A process's CPU seconds barely change with the machine's
  load, so the figure holds on a shared machine.
- **a reader answer's way** (`tools/bench/frame_path.py`, `--path SECONDS`, 0 skips it):
  `mjtable run` on the simulator's pseudo-terminals in real time (the reader answering at
  its profile's pace), SECONDS of play clean and SECONDS at 5 % missed / 5 % crosstalk /
  1 % corrupt: from the simulated reader writing the answer that completed a move to the
  journal's fsync of that move and to the board's push of it (the SSE event its client
  receives), p50/p99, beside the reader's inventory time (an inventory command received to
  its answer written) in the same run.
- **polling rounds** (`tools/bench/rounds.py`): CPU microseconds of the core thread per
  reader answer and per polling round of the shipped profile (sim-uhf), clean and noisy,
  beside the yardstick (the stdlib shuffle of 108 tiles) timed in the same run.
- **journal a deal** (`--deals N`, 0 skips it): `mjtable run --fast --deals N` with the
  built-in simulator, clean and at 5 % missed / 5 % crosstalk / 1 % corrupt: the journal's
  bytes divided by the deals settled (issue 15 item 2: ≤ 500 kB noisy); during the noisy
  run the daemon's resident set and the `-wal` file are sampled every 50 ms, the peaks
  reported (issue 15 item 3: RSS ≤ 50 MB, `-wal` ≤ 8 MB).

Real parts: the journal on disk (a scratch directory beside the default journal, i.e. the
same file system), the real drivers, debouncer, recogniser, judge-free idle table, the real
Scoreboard. Targets (issue 5): p99 ≤ 10 ms to commit, ≥ 3× the line rate, RSS ≤ 60 MB,
ready ≤ 1 s; issue 17: ≥ 20× the line rate, ready ≤ 0.5 s; issue 25: a reader answer to
the fsync and to the board's push through `mjtable run`, p99 ≤ 5 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from controller.cli.args import natural_float

TARGETS = {
    "commit_p99_ms": 10.0,
    "ratio": 20.0,
    "rss_mb": 60.0,
    "ready_s": 0.5,
    "noisy_bytes_per_deal": 500_000,
    "run_rss_mb": 50.0,
    "wal_mb": 8.0,
    "path_p99_ms": 5.0,
}
NOISE = ("--missed", "5", "--crosstalk", "5", "--corrupt", "1")
PATH_NOISE = (5.0, 5.0, 1.0)  # the same, for tools/bench/frame_path.py
PATH_KEYS = (
    "moves", "pushed", "read_p50_ms", "fsync_p50_ms", "fsync_p99_ms", "push_p50_ms",
    "push_p99_ms", "fsync_to_push_p50_ms", "inventory_p50_ms", "inventory_p99_ms",
    "disk_fsyncs", "disk_p50_ms", "disk_p99_ms",
)  # fmt: skip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--frames", type=int, default=1500, help="frames timed (default 1500)")
    parser.add_argument("--tags", type=int, default=14, help="tags in each frame (default 14)")
    parser.add_argument("--dir", type=Path, help="scratch folder for journals (default: temp)")
    parser.add_argument(
        "--rounds", type=int, default=300, help="polling rounds timed, clean and noisy (300)"
    )
    parser.add_argument(
        "--live",
        type=float,
        metavar="SECONDS",
        help="also run `mjtable run` in real time for SECONDS: its CPU share and memory",
    )
    parser.add_argument(
        "--noisy", action="store_true", help="--live with 5%% missed reads and 5%% crosstalk"
    )
    parser.add_argument(
        "--deals", type=int, default=3, help="deals played for the journal figures (0: none)"
    )
    parser.add_argument("--seed", type=int, default=7, help="the simulator's seed (default 7)")
    parser.add_argument(
        "--path",
        type=natural_float,
        default=120.0,
        metavar="SECONDS",
        help="time reader answers through `mjtable run` on the simulator's pseudo-terminals, "
        "SECONDS of real-time play clean and SECONDS at 5/5/1 noise: answer to journal fsync "
        "and to board push, beside the reader's inventory time and the disk's own append + "
        "fsync in the same folder (default 120; 0: skip)",
    )


def _frames(n: int, tags: int) -> list[bytes]:
    """`n` inventory answers of antenna 1 (a hand), each with a different tag set."""
    from controller.devices.uhf_reader import EpcRead, inventory_responses
    from controller.profiles import TileCopy, sim_tag_uid
    from rules.tiles import TILES

    copies = [TileCopy(t, c) for t in TILES[:27] for c in range(1, 5)]
    out = []
    for i in range(n):
        chosen = [copies[(i + k * 7) % len(copies)] for k in range(tags)]
        reads = [EpcRead(sim_tag_uid(tc), 0x50) for tc in chosen]
        out.append(b"".join(r.encode() for r in inventory_responses(1, reads, 0, True)))
    return out


def _one_antenna_reader():
    """The simulated reader with one antenna (East's hand): every frame is that antenna's."""
    from controller.profiles import parse_reader

    data = {
        "reader": {
            "name": "bench-uhf",
            "model": "uhf-serial",
            "baud": 57600,
            "address": 0,
            "verified-by": "mjtable bench",
            "date": "2026-11-22",
            "notes": "one antenna of the simulated reader",
        },
        "debounce": {"window": 5, "appear": 3, "vanish": 3},
        "antennas": {"1": {"zone": "hand", "seat": "E"}},
    }
    return parse_reader(data, "tools/bench/daemon.py")


class _Timed:
    """Outputs that time the scoreboard push."""

    def __init__(self, board) -> None:
        self.board = board
        self.pushed_at = 0.0

    def publish(self, public, referee, broadcast) -> None:
        self.board.publish(public, referee=referee, broadcast=broadcast)
        self.pushed_at = time.perf_counter()

    def move_accepted(self, payload, record) -> None:
        pass

    def deal_settled(self, payload, record) -> None:
        pass

    def tick(self) -> None:
        self.board.tick()

    def table_back(self) -> None:
        pass


def measure_core(frames: int, tags: int, folder: Path) -> dict[str, float]:
    from controller.clock import SystemClock
    from controller.daemon.checkpoint import Checkpointer
    from controller.daemon.runtime import Runtime
    from controller.devices.events import DataReceived, LinkChanged, LinkState
    from controller.devices.table import TableDriver
    from controller.devices.uhf_reader import UHFCmd, UHFResponse, UHFStatus
    from controller.journal.store import Journal
    from controller.outputs.scoreboard import Scoreboard
    from controller.profiles import load_table, sim_tag_map
    from controller.recognition.presence import Debouncer
    from controller.recognition.recogniser import Recogniser
    from rules.ruleset import load

    rs = load("sbr-mil")
    reader = _one_antenna_reader()
    tags_map = sim_tag_map(rs.tiles.set)
    clock = SystemClock()
    data = _frames(frames + 50, tags)
    journal = Journal.open(folder / "bench.journal", clock=clock)
    checkpointer = Checkpointer(journal)  # as the daemon runs it: WAL copies off the hot path
    checkpointer.start()
    outputs = _Timed(Scoreboard(referee_token="bench-token-123", clock=clock.monotonic))
    runtime = Runtime(
        rs,
        journal,
        clock,
        Recogniser(rs, reader, tags_map),
        reader,
        Debouncer(reader, tags_map, clock.monotonic),
        TableDriver(load_table("sim-table")),
        lambda device, b: True,
        outputs=outputs,
    )
    # the worst case: every answer committed on its own (the daemon commits its inputs ahead
    # of the next record, or after 1 s / 400 inputs, controller/daemon/input_log.py)
    runtime.inputs.max_items = 1
    committed: list[float] = []
    append, append_many = journal.append, journal.append_many

    def timed_append(*a: Any, **k: Any):
        record = append(*a, **k)
        committed.append(time.perf_counter())
        return record

    def timed_append_many(*a: Any, **k: Any):
        records = append_many(*a, **k)
        committed.append(time.perf_counter())
        return records

    journal.append = timed_append  # type: ignore[method-assign]  # timed in place, for the bench
    journal.append_many = timed_append_many  # type: ignore[method-assign]  # timed in place
    runtime.handle(LinkChanged(clock.monotonic(), "table", LinkState.UP))
    runtime.handle(LinkChanged(clock.monotonic(), "reader", LinkState.UP))
    select_ok = UHFResponse(UHFCmd.SET_ANTENNA, UHFStatus.SUCCESS, b"", 0).encode()
    commit_ms, push_ms = [], []
    start = time.perf_counter()
    for i, frame in enumerate(data):
        runtime.handle(DataReceived(clock.monotonic(), "reader", select_ok))  # not timed
        committed.clear()
        t0 = time.perf_counter()
        runtime.handle(DataReceived(clock.monotonic(), "reader", frame))
        runtime.publish()  # the push a changed view triggers
        if i >= 50 and committed:  # the first frames warm the caches
            commit_ms.append((committed[0] - t0) * 1e3)
            push_ms.append((outputs.pushed_at - t0) * 1e3)
        if i == 49:
            start = time.perf_counter()
    elapsed = time.perf_counter() - start
    checkpointer.stop()
    journal.close()
    baud = reader.reader.baud
    frame_bytes = len(data[0])
    cuts_c = statistics.quantiles(commit_ms, n=100, method="inclusive")
    cuts_p = statistics.quantiles(push_ms, n=100, method="inclusive")
    return {
        "commit_p50_ms": cuts_c[49],
        "commit_p99_ms": cuts_c[98],
        "commit_max_ms": max(commit_ms),
        "push_p50_ms": cuts_p[49],
        "push_p99_ms": cuts_p[98],
        "max_frames_per_s": frames / elapsed,
        "line_frames_per_s": baud / 10 / frame_bytes,
        "frame_bytes": float(frame_bytes),
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far, from /proc (0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_ready(
    folder: Path, timeout: float = 20.0, bytecode: Path | None = None
) -> tuple[float, float, float]:
    """`mjtable run` on loop:// devices: seconds from spawn to its READY=1 datagram, the
    CPU seconds it had used by then (what a busy machine does not stretch) and its resident
    memory then (MB). `bytecode`: a folder for the modules' compiled bytecode (written and
    read there, as an installed package's); None: none written (PYTHONDONTWRITEBYTECODE),
    so a module without a .pyc beside its source is compiled at every start."""
    path = folder / "notify.sock"
    path.unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(timeout)
    env = {**os.environ, "NOTIFY_SOCKET": str(path)}
    env.pop("PYTHONPYCACHEPREFIX", None)
    if bytecode is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    cmd = [
        sys.executable, "-m", "controller", "run", "--table", "loop://", "--reader", "loop://",
        "--journal", str(folder / "ready.journal"), "--http", "127.0.0.1:0",
        "--config", os.devnull,
    ]  # fmt: skip
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            message = sock.recv(4096)
            if b"READY=1" in message.split(b"\n"):
                ready = time.perf_counter() - start
                return ready, _cpu_s(proc.pid), _status_kb(proc.pid, "VmRSS") / 1024
    finally:
        _terminate(proc)
        sock.close()
        path.unlink(missing_ok=True)
        for leftover in folder.glob("ready.journal*"):
            leftover.unlink()


def measure_start(folder: Path) -> dict[str, float]:
    """`measure_ready` as an installed package starts (bytecode cached by a first start
    not counted) and cold (every module compiled from source)."""
    bytecode = folder / "bytecode"
    measure_ready(folder, bytecode=bytecode)  # fills the cache
    ready_s, ready_cpu_s, ready_rss_mb = measure_ready(folder, bytecode=bytecode)
    cold_s, cold_cpu_s, _ = measure_ready(folder)
    shutil.rmtree(bytecode, ignore_errors=True)
    return {
        "ready_s": ready_s,
        "ready_cpu_s": ready_cpu_s,
        "ready_rss_mb": ready_rss_mb,
        "ready_cold_s": cold_s,
        "ready_cold_cpu_s": cold_cpu_s,
    }


def _terminate(proc: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL if it has not ended within 10 s."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _status_kb(pid: int, key: str) -> float:
    """A figure of /proc/PID/status in kB (0 once the process is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return float(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def measure_live(folder: Path, seconds: float, noisy: bool = False) -> dict[str, float]:
    """`mjtable run` (real time, built-in simulator) for `seconds` after its first deal
    started: its CPU share of one core, and its resident memory at the end."""
    from controller.journal.records import RecordKind
    from controller.journal.store import Journal

    journal = folder / "live.journal"
    cmd = [
        sys.executable, "-m", "controller", "run", "--journal", str(journal),
        "--http", "127.0.0.1:0", "--config", os.devnull,
    ]  # fmt: skip
    if noisy:
        cmd += ["--missed", "5", "--crosstalk", "5"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(1.0)
            if journal.exists():
                with Journal.open(journal) as j:
                    if any(r.kind is RecordKind.DEAL_STARTED for r in j.records()):
                        break
        cpu0, t0 = _cpu_s(proc.pid), time.monotonic()
        time.sleep(seconds)
        cpu1, t1 = _cpu_s(proc.pid), time.monotonic()
        return {
            "live_cpu_percent": 100 * (cpu1 - cpu0) / (t1 - t0),
            "live_rss_mb": _status_kb(proc.pid, "VmRSS") / 1024,
            "live_peak_rss_mb": _status_kb(proc.pid, "VmHWM") / 1024,
        }
    finally:
        _terminate(proc)


def measure_journal(folder: Path, deals: int, seed: int, noise: tuple[str, ...] = ()) -> dict:
    """`mjtable run --fast --deals N` with the simulator: journal bytes a settled deal, and
    the daemon's peak RSS and `-wal` size sampled every 50 ms while it plays."""
    from controller.journal.records import RecordKind
    from controller.journal.store import Journal

    path = folder / f"run-{len(noise)}.journal"
    cmd = [
        sys.executable, "-m", "controller", "run", "--fast", "--deals", str(deals),
        "--seed", str(seed), "--journal", str(path), "--http", "127.0.0.1:0",
        "--config", os.devnull, *noise,
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    rss = wal = 0
    wal_path = Path(f"{path}-wal")
    while proc.poll() is None:
        rss = max(rss, _status_kb(proc.pid, "VmRSS"))
        with contextlib.suppress(OSError):
            wal = max(wal, wal_path.stat().st_size)
        time.sleep(0.05)
    _, err = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"mjtable run exited {proc.returncode}: {err.decode()[-500:]}")
    with Journal.open_readonly(path) as journal:
        settled = sum(1 for r in journal.records() if r.kind is RecordKind.DEAL_SETTLED)
    size = path.stat().st_size
    for leftover in (path, wal_path, Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    return {
        "bytes_per_deal": size / max(1, settled),
        "deals": settled,
        "run_rss_mb": rss / 1024,
        "wal_mb": wal / 2**20,
    }


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        from tools.bench.rounds import measure_rounds

        figures = measure_core(args.frames, args.tags, Path(tmp))
        figures |= measure_start(Path(tmp))
        figures |= measure_rounds(Path(tmp), args.rounds)
        if args.path > 0:
            from tools.bench.frame_path import measure_path

            for kind, noise in (("clean", (0.0, 0.0, 0.0)), ("noisy", PATH_NOISE)):
                try:
                    path = measure_path(Path(tmp), args.path, noise, args.seed)
                except RuntimeError as err:
                    print(f"mjtable bench daemon: --path, {kind}: {err}", file=sys.stderr)
                    return 1
                figures |= {f"path_{kind}_{k}": v for k, v in path.items()}
        if args.live:
            figures |= measure_live(Path(tmp), args.live, args.noisy)
        if args.deals > 0:
            clean = measure_journal(Path(tmp), args.deals, args.seed)
            noisy = measure_journal(Path(tmp), args.deals, args.seed, NOISE)
            figures["clean_bytes_per_deal"] = clean["bytes_per_deal"]
            figures["noisy_bytes_per_deal"] = noisy["bytes_per_deal"]
            figures["run_rss_mb"] = noisy["run_rss_mb"]
            figures["wal_mb"] = max(clean["wal_mb"], noisy["wal_mb"])
    keys = (
        "commit_p50_ms", "commit_p99_ms", "push_p99_ms", "max_frames_per_s",
        "line_frames_per_s", "rss_mb", "ready_s", "ready_cpu_s", "ready_rss_mb",
        "ready_cold_s", "ready_cold_cpu_s", "yardstick_us",
        "clean_us_per_answer", "clean_us_per_round", "noisy_us_per_answer", "noisy_us_per_round",
        "clean_line_answers_per_s", "noisy_line_answers_per_s",
        "clean_bytes_per_deal", "noisy_bytes_per_deal", "run_rss_mb", "wal_mb",
    )  # fmt: skip
    if args.path > 0:
        keys += tuple(f"path_{kind}_{k}" for kind in ("clean", "noisy") for k in PATH_KEYS)
    if args.live:
        keys += ("live_cpu_percent", "live_rss_mb", "live_peak_rss_mb")
    if args.json:
        print(json.dumps({k: round(figures[k], 3) for k in keys if k in figures}))
        return 0
    ratio = figures["max_frames_per_s"] / figures["line_frames_per_s"]
    rows = [
        ("reader frame → journal commit p50", f"{figures['commit_p50_ms']:.2f} ms", ""),
        ("reader frame → journal commit p99", f"{figures['commit_p99_ms']:.2f} ms", "≤ 10 ms"),
        ("reader frame → scoreboard push p99", f"{figures['push_p99_ms']:.2f} ms", ""),
        ("sustained frames/s", f"{figures['max_frames_per_s']:.0f}", ""),
        (
            f"line rate ({int(figures['frame_bytes'])}-byte frame)",
            f"{figures['line_frames_per_s']:.1f}/s → {ratio:.1f}×",
            "≥ 20×",
        ),
        ("peak RSS", f"{figures['rss_mb']:.1f} MB", "≤ 60 MB"),
        ("ready (READY=1), bytecode cached", f"{figures['ready_s']:.2f} s", "≤ 0.5 s"),
        ("CPU used by then", f"{figures['ready_cpu_s']:.2f} s", "≤ 0.5 s"),
        ("resident memory then", f"{figures['ready_rss_mb']:.1f} MB", ""),
        ("ready, no bytecode (all compiled)", f"{figures['ready_cold_s']:.2f} s", ""),
        ("CPU used by then", f"{figures['ready_cold_cpu_s']:.2f} s", ""),
        ("yardstick (stdlib shuffle of 108)", f"{figures['yardstick_us']:.1f} µs", ""),
    ]
    for kind in ("clean", "noisy"):
        for unit in ("answer", "round"):
            us = figures[f"{kind}_us_per_{unit}"]
            value = f"{us:.0f} µs = {us / figures['yardstick_us']:.1f} yardsticks"
            rows.append((f"CPU per reader {unit}, {kind} (sim-uhf)", value, ""))
        cpu = 1e6 / figures[f"{kind}_us_per_answer"]
        line = figures[f"{kind}_line_answers_per_s"]
        rows.append(
            (f"answers/s a core takes, {kind}", f"{cpu:.0f} ({cpu / line:.0f}× the line)", "≥ 20×")
        )
    if args.path > 0:
        rows += _path_rows(figures)
    if args.live:
        how = f"run{', noisy' if args.noisy else ''}, {args.live:.0f} s real time"
        rows += [
            (f"CPU of one core ({how})", f"{figures['live_cpu_percent']:.2f} %", "≤ 5 %"),
            (
                "resident memory then (peak)",
                f"{figures['live_rss_mb']:.1f} MB ({figures['live_peak_rss_mb']:.1f})",
                "≤ 50 MB",
            ),
        ]
    if "noisy_bytes_per_deal" in figures:
        rows += [
            ("journal a deal, clean", f"{figures['clean_bytes_per_deal'] / 1e3:.0f} kB", ""),
            ("journal a deal, 5/5/1 noise", f"{figures['noisy_bytes_per_deal'] / 1e3:.0f} kB",
             "≤ 500 kB"),
            ("mjtable run peak RSS (noisy)", f"{figures['run_rss_mb']:.1f} MB", "≤ 50 MB"),
            ("peak -wal size", f"{figures['wal_mb']:.2f} MB", "≤ 8 MB"),
        ]  # fmt: skip
    for name, value, target in rows:
        print(f"{name:40} {value:>28}  {target}")
    return 0


def _path_rows(figures: dict[str, float]) -> list[tuple[str, str, str]]:
    """The rows of `tools/bench/frame_path.py`'s figures, clean and noisy."""
    from tools.bench.peers import RECORD_BYTES

    rows = []
    for kind, how in (("clean", "clean"), ("noisy", "5/5/1 noise")):
        f = {k: figures[f"path_{kind}_{k}"] for k in PATH_KEYS}
        inventory = f["inventory_p50_ms"]
        disk_p50, disk_p99 = f["disk_p50_ms"], f["disk_p99_ms"]
        rows += [
            (f"mjtable run, {how}: moves timed", f"{f['moves']:.0f} ({f['pushed']:.0f} pushed)", ""),
            ("reader inventory (command → answer)",
             f"p50 {inventory:.1f} ms, p99 {f['inventory_p99_ms']:.1f} ms", ""),
            ("answer written → daemon's read p50", f"{f['read_p50_ms']:.2f} ms", ""),
            (f"the disk: {RECORD_BYTES} B append + fsync p50 / p99",
             f"{disk_p50:.2f} / {disk_p99:.2f} ms ({f['disk_fsyncs']:.0f})", ""),
        ]  # fmt: skip
        for what, name in (("fsync", "journal fsync"), ("push", "board push (SSE)")):
            p50, p99 = f[f"{what}_p50_ms"], f[f"{what}_p99_ms"]
            target = f"p99 ≤ {TARGETS['path_p99_ms']:.0f} ms"
            rows += [
                (f"answer → {name} p50 / p99", f"{p50:.2f} / {p99:.2f} ms", target),
                ("  p99 ÷ reader inventory p50", f"{p99 / inventory:.3f}", ""),
                ("  beyond the disk's p50 / p99",
                 f"{p50 - disk_p50:.2f} / {p99 - disk_p99:.2f} ms", ""),
                ("  ÷ the disk's p50 / p99", f"{p50 / disk_p50:.1f}× / {p99 / disk_p99:.1f}×", ""),
            ]  # fmt: skip
        rows.append(("fsync → board push p50", f"{f['fsync_to_push_p50_ms']:.2f} ms", ""))
    return rows
