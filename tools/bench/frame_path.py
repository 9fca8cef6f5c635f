"""A reader answer's way through the running daemon, timed from outside: from the moment the
simulated reader writes it on its pseudo-terminal to the journal's fsync of the move it
completed and to the board's push of that move (the server-sent event the board page
receives), beside the reader's own inventory time measured in the same run.

The parts are the ones a user meets: `mjtable run` as it builds the daemon (started through
tools/bench/commit_log.py, which writes each journal commit's time), the simulated table and
reader of `mjtable sim` in this process (real time: answers at the profile's pace, the
players' pauses divided by `SPEED`), the serial path on pseudo-terminals, the journal on
disk with its fsync, and an SSE client of the board's public feed (`BoardClient`). Every
time is the machine's monotonic clock (CLOCK_MONOTONIC), shared by the processes.

Beside it, the disk's own time in the same run (`DiskPeer`): a bare append of a
record-sized write and its fsync in the journal's folder, a few times a second, so the
path's own time is told apart from the disk's (a commit cannot be faster than one fsync).

The board's client and the disk peer each run in a process of their own
(tools/bench/peers.py), not on threads of this one: this process plays the table and the
reader, and a thread of it woken by the board's bytes or by fsync's return stamps its time
only once it holds this process's interpreter lock, which the simulator's threads hand
over up to every `sys.getswitchinterval()` (5 ms) each. Read here, a view was stamped up to
30 ms after the board had sent it (a client in a process of its own received the same view
in under 2.5 ms), and the daemon was charged with the bench's wait. The simulator's tap
stays here: it is stamped as the write begins, so a wait of this process after it
lengthens a measured path, never shortens it.

Which answer a move came from: the daemon decides a move read off the tiles when the
reader round that shows it closes, at the arrival of the round's last answer (the bus's
last address; the journal's `hw.batch` holds each answer's arrival and each round's end),
and stamps the move with the round's last read (controller/journal/inputs.py `round_time`),
which may be an earlier answer of the round; the answer is the last input written before
the end of the round holding that stamp (before the stamp itself when no round ended before
the move's commit: a move a deadline decided); a move whose last input was the table's (a
button) is not counted. The fsync is the commit holding the move's `move.accepted` record;
the push the first public view whose `seq` reaches that record.
"""

from __future__ import annotations

import bisect
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tools.bench import commit_log

SPEED = 10.0  # the players' pauses divided by this: more moves a minute, the reader at its pace
START_TIMEOUT = 30.0  # seconds for the daemon to open its board and the simulator's ports
FIRST_MOVE_TIMEOUT = 180.0  # seconds to the first move: the shuffle and the walls' scan first


@dataclass(frozen=True, slots=True)
class Chunk:
    """Bytes a simulated device moved: `rx` written to the host, `tx` received from it."""

    t: float
    device: str
    direction: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Push:
    """A server-sent event as the board's client finished receiving it."""

    t: float
    name: str
    id: int | None


class BoardClient:
    """The board's public event stream read by `tools.bench.peers board` in a process of its
    own (its docstring says why), each event's arrival written to `folder`."""

    def __init__(self, url: str, folder: Path) -> None:
        self.file = folder / "board-peer"
        self.proc = _peer("board", url, self.file)
        deadline = time.monotonic() + START_TIMEOUT
        while not _lines(self.file):  # subscribed before the play starts
            if self.proc.poll() is not None or time.monotonic() > deadline:
                why = _peer_why(self.proc, self.file)
                self.close()
                raise RuntimeError(f"the board's client did not connect{why}")
            time.sleep(0.05)  # a real process writing its own file: polled, bounded

    def close(self) -> list[Push]:
        """The events received, in order; the client is ended and its file removed."""
        _terminate(self.proc)
        pushes = []
        for row in _lines(self.file)[1:]:  # after the line saying the stream is open
            t, name, ident = row.split()
            pushes.append(Push(float(t), name, None if ident == "-" else int(ident)))
        _remove(self.file)
        return pushes


class DiskPeer:
    """The disk's time, beside the daemon's commits: `tools.bench.peers disk` appending a
    record-sized write to a file in `folder` and fsyncing it a few times a second, timed,
    in a process of its own."""

    def __init__(self, folder: Path) -> None:
        self.file = folder / "disk-peer.times"
        self.proc = _peer("disk", str(folder), self.file)

    def stop(self) -> list[float]:
        """The fsyncs' times in seconds; the peer is ended and its files removed."""
        _terminate(self.proc)
        times = [float(row) for row in _lines(self.file)]
        _remove(self.file)
        return times


def _peer(kind: str, where: str, file: Path) -> subprocess.Popen:
    # stderr into a file: a pipe nobody reads would stop the peer once it is full
    with open(f"{file}.stderr", "wb") as err:
        return subprocess.Popen(
            [sys.executable, "-m", "tools.bench.peers", kind, where, str(file)],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )


def _peer_why(proc: subprocess.Popen, file: Path) -> str:
    """The peer's exit and the end of its stderr, for an error message."""
    code = proc.poll()
    tail = "\n".join(_lines(Path(f"{file}.stderr"))[-3:]).strip()
    return ("" if code is None else f" (tools.bench.peers exited {code})") + (
        f": {tail}" if tail else ""
    )


def _remove(file: Path) -> None:
    file.unlink(missing_ok=True)
    Path(f"{file}.stderr").unlink(missing_ok=True)


def _lines(file: Path) -> list[str]:
    with contextlib.suppress(OSError):
        return file.read_text().splitlines()
    return []


def _daemon(paths: dict[str, str], folder: Path, commits: Path) -> subprocess.Popen:
    cmd = [
        sys.executable, "-m", "tools.bench.commit_log", str(commits),
        "run", "--table", paths["table"], "--reader", paths["reader"],
        "--profile", "sim-table", "--reader-profile", "sim-uhf", "--tags", "sim-108",
        "--journal", str(folder / "path.journal"), "--http", "127.0.0.1:0",
        "--config", os.devnull,
    ]  # fmt: skip
    # into files, not pipes: a pipe nobody reads would stop the daemon once it is full
    with open(folder / "daemon.out", "wb") as out, open(folder / "daemon.stderr", "wb") as err:
        return subprocess.Popen(cmd, stdout=out, stderr=err)


def _why(proc: subprocess.Popen, folder: Path) -> str:
    """The daemon's exit and the end of its stderr, for an error message."""
    code = proc.poll()
    tail = (folder / "daemon.stderr").read_text(errors="replace")[-800:].strip()
    return ("" if code is None else f" (mjtable run exited {code})") + (f": {tail}" if tail else "")


def _scoreboard_url(proc: subprocess.Popen, folder: Path) -> str:
    """The board's address, from the line `mjtable run` prints once it serves it."""
    deadline = time.monotonic() + START_TIMEOUT
    while proc.poll() is None and time.monotonic() < deadline:
        for line in (folder / "daemon.out").read_text(errors="replace").splitlines():
            name, _, value = line.partition(":")
            if name == "scoreboard":
                return value.strip()
        time.sleep(0.1)  # a real process writing its own file: polled, bounded
    raise RuntimeError(f"mjtable run did not open its board{_why(proc, folder)}")


def _terminate(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _quantiles(values: list[float]) -> tuple[float, float]:
    """Median and p99 (inclusive method; one value is its own p99)."""
    if len(values) < 2:
        return values[0], values[0]
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return statistics.median(values), cuts[98]


def inventory_times(chunks: list[Chunk]) -> list[float]:
    """Seconds from each inventory command the reader received to its answer written: the
    wire time and the profile's inventory time of each antenna it read (sim-uhf: 8 for each
    of the first two addresses of its bus, 1 for the third)."""
    from controller.devices.uhf_reader import CommandDecoder, UHFCmd

    decoder = CommandDecoder("bench")
    out, asked = [], None
    for c in chunks:
        if c.device != "reader":
            continue
        if c.direction == "tx":
            commands = decoder.feed(c.data)
            asked = c.t if any(cmd.cmd == UHFCmd.INVENTORY for cmd in commands) else None
        elif asked is not None:
            out.append(c.t - asked)
            asked = None
    return out


@dataclass(frozen=True, slots=True)
class Sample:
    """One move read off the tiles: when its reader answer was written, when the daemon read
    it (the round's end it was decided at), when its record's commit had been fsync'd and
    when the board's client received the view showing it (None: no such view came)."""

    written: float
    read: float
    fsynced: float
    pushed: float | None


def samples(
    chunks: list[Chunk],
    commits: list[tuple[float, list[tuple[int, str, float]]]],
    pushes: list[Push],
    rounds: Sequence[float] = (),
) -> list[Sample]:
    """The moves read off the tiles, each with its answer, fsync and push (the module's
    docstring); `rounds`: the daemon's times of the reader rounds' ends, in order; moves a
    table input decided are left out."""
    inputs = sorted((c for c in chunks if c.direction == "rx"), key=lambda c: c.t)
    times = [c.t for c in inputs]
    views = [p for p in pushes if p.name == "view" and p.id is not None]
    out = []
    for t_commit, records in commits:
        for seq, kind, stamp in records:
            if kind != "move.accepted":
                continue
            j = bisect.bisect_left(rounds, stamp)
            read = rounds[j] if j < len(rounds) and rounds[j] <= t_commit else stamp
            i = bisect.bisect_right(times, read) - 1
            if i < 0 or inputs[i].device != "reader":
                continue  # a button, or before the first answer
            shown = next((p.t for p in views if p.id is not None and p.id >= seq), None)
            out.append(Sample(inputs[i].t, read, t_commit, shown))
    return out


def measure_path(
    folder: Path,
    seconds: float,
    noise: tuple[float, float, float] = (0.0, 0.0, 0.0),
    seed: int = 7,
) -> dict[str, float]:
    """`seconds` of play after the first move read; `noise`: percent of tag reads missed,
    of reads by a neighbour, of reader answers damaged."""
    from tools.sim.noise import NoiseConfig
    from tools.sim.run import SimConfig, Simulation

    chunks: list[Chunk] = []

    def tap(device: str, direction: str, data: bytes) -> None:
        chunks.append(Chunk(time.monotonic(), device, direction, data))

    missed, crosstalk, corrupt = noise
    config = SimConfig(
        deals=1000,  # played until the time is up
        fast=False,
        seed=seed,
        noise=NoiseConfig(missed, 0.0, crosstalk, corrupt),
        folder=folder / "devices",
        speed=SPEED,
    )
    sim = Simulation(config, tap=tap)
    commits_file = folder / "commits.txt"
    proc = _daemon(sim.paths(), folder, commits_file)
    board, timed, disk, pushes = None, 0.0, None, []
    player = threading.Thread(target=sim.run, name="bench-players", daemon=True)
    try:
        board = BoardClient(_scoreboard_url(proc, folder), folder)
        if not sim.wait_for_client(START_TIMEOUT):
            raise RuntimeError("mjtable run did not open the simulator's ports")
        player.start()
        deadline = time.monotonic() + FIRST_MOVE_TIMEOUT
        while not _moved(commits_file):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"no move read within {FIRST_MOVE_TIMEOUT:.0f} s{_why(proc, folder)}"
                )
            time.sleep(0.2)  # a real process writing its own file: polled, bounded
        timed = time.monotonic()
        disk = DiskPeer(folder)
        time.sleep(seconds)
        if proc.poll() is not None:
            raise RuntimeError(f"mjtable run ended while timed{_why(proc, folder)}")
    finally:
        fsyncs = [] if disk is None else disk.stop()
        sim.stop()
        _terminate(proc)
        if board is not None:
            pushes = board.close()
        player.join(10)
        sim.close()
        shutil.rmtree(folder / "devices", ignore_errors=True)
    commits, rounds = _stamped(commits_file, folder / "path.journal")
    moves = samples(chunks, commits, pushes, rounds)
    if not any(m.pushed is not None for m in moves):
        raise RuntimeError(
            f"no move read off the tiles was pushed to the board ({len(moves)} read)"
        )
    for leftover in folder.glob("path.journal*"):
        leftover.unlink()
    commits_file.unlink(missing_ok=True)
    for log in ("daemon.out", "daemon.stderr"):
        (folder / log).unlink(missing_ok=True)
    # the walls' scan polls the wall antenna alone: the reader's time in play is measured in play
    return figures(moves, inventory_times([c for c in chunks if c.t >= timed]), fsyncs)


def figures(moves: list[Sample], inventory: list[float], disk: list[float]) -> dict[str, float]:
    """Medians and p99s in milliseconds; `read`: the answer written → the daemon's read;
    `fsync_to_push`: the move's fsync → its push (the views built and sent); `disk`: the
    disk peer's fsyncs."""
    fsync_p50, fsync_p99 = _quantiles([m.fsynced - m.written for m in moves])
    push_p50, push_p99 = _quantiles([m.pushed - m.written for m in moves if m.pushed is not None])
    read_p50, _ = _quantiles([m.read - m.written for m in moves])
    after_p50, _ = _quantiles([m.pushed - m.fsynced for m in moves if m.pushed is not None])
    inv_p50, inv_p99 = _quantiles(inventory)
    disk_p50, disk_p99 = _quantiles(disk)
    return {
        "moves": float(len(moves)),
        "pushed": float(sum(m.pushed is not None for m in moves)),
        "read_p50_ms": read_p50 * 1e3,
        "fsync_p50_ms": fsync_p50 * 1e3,
        "fsync_p99_ms": fsync_p99 * 1e3,
        "push_p50_ms": push_p50 * 1e3,
        "push_p99_ms": push_p99 * 1e3,
        "fsync_to_push_p50_ms": after_p50 * 1e3,
        "inventory_p50_ms": inv_p50 * 1e3,
        "inventory_p99_ms": inv_p99 * 1e3,
        "disk_fsyncs": float(len(disk)),
        "disk_p50_ms": disk_p50 * 1e3,
        "disk_p99_ms": disk_p99 * 1e3,
    }


def _moved(commits: Path) -> bool:
    with contextlib.suppress(OSError):
        return "move.accepted" in commits.read_text()
    return False


def _stamped(
    commits: Path, journal: Path
) -> tuple[list[tuple[float, list[tuple[int, str, float]]]], list[float]]:
    """The commit log's commits, each record with its journal stamp (`mono`), and the times
    the reader's rounds ended (the arrival of each round's last answer), in order."""
    from controller.daemon.input_log import reader_steps
    from controller.journal.store import Journal

    logged = commit_log.parse(commits.read_text()) if commits.exists() else []
    with Journal.open_readonly(journal) as j:
        records = list(j.records())
    stamps = {r.seq: r.mono for r in records}
    rounds = sorted(step.t for step in reader_steps(records) if step.round_done)
    stamped = [(t, [(s, k, stamps[s]) for s, k in rs if s in stamps]) for t, rs in logged]
    return stamped, rounds
