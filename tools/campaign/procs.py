"""The simulator and the daemon as separate processes on real pseudo-terminals, as a table
and its Pi are: start them, watch the daemon's journal, kill the daemon, read its stderr.

Each child gets its own process group (a SIGKILL of the daemon is a SIGKILL of the daemon
alone, never of the simulated table) and writes its stderr to a file, never to a pipe
nobody reads (a full pipe would block a noisy daemon mid-deal).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.errors import TableError
from controller.journal.records import Record, RecordKind
from controller.journal.store import Journal

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

# alerts after which a deal cannot end right by itself: a waiting test stops at once
FATAL_ALERTS = frozenset({"deal-abandoned", "internal-error"})


class DaemonFailed(TableError):
    """The daemon exited badly, or its journal says a deal is lost: the message carries the
    alert and the tail of the daemon's stderr."""


@dataclass
class Child:
    """A child process with its stderr in a file (`tail()` reads its end)."""

    proc: subprocess.Popen[str]
    stderr_path: Path
    name: str = "child"
    stdout_lines: list[str] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def poll(self) -> int | None:
        return self.proc.poll()

    def wait(self, timeout: float | None = None) -> int:
        return self.proc.wait(timeout)

    def send_signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    def tail(self, chars: int = 3000) -> str:
        try:
            return self.stderr_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


def _spawn(cmd: list[str], stderr_path: Path, name: str, stdout: Any) -> Child:
    err = open(stderr_path, "a")  # noqa: SIM115 - the child holds it; closed with ours below
    try:
        proc = subprocess.Popen(
            cmd,
            stdout=stdout,
            stderr=err,
            text=True,
            env=ENV,
            cwd=ROOT,
            start_new_session=True,
        )
    finally:
        err.close()
    return Child(proc, stderr_path, name)


def start_sim(
    folder: Path, deals: int, seed: int, *extra: str, glimpse: int = 3
) -> tuple[Child, dict[str, Any]]:
    """`mjtable sim --fast` on ptys in `folder`; returns it and {table, reader, truth}."""
    truth = folder / "truth.jsonl"
    cmd = [
        sys.executable, "-m", "controller", "sim", "--fast", "--deals", str(deals),
        "--seed", str(seed), "--dir", str(folder), "--truth", str(truth),
        "--glimpse", str(glimpse), "--no-referee", *extra,
    ]  # fmt: skip
    child = _spawn(cmd, folder / "sim.stderr", "simulator", subprocess.PIPE)
    paths: dict[str, Any] = {"truth": truth}
    assert child.proc.stdout is not None
    while len(paths) < 3:
        line = child.proc.stdout.readline()
        if not line:
            raise DaemonFailed(f"the simulator ended before printing its devices\n{child.tail()}")
        name, _, path = line.strip().partition(": ")
        if name in ("table", "reader"):
            paths[name] = path
    return child, paths


def start_daemon(
    paths: dict[str, Any],
    journal: Path,
    deals: int = 0,
    reader_profile: str = "sim-uhf",
    *extra: str,
    tags: str = "sim-108",
) -> Child:
    """`mjtable run` on the simulator's ptys, its stderr appended to `<journal>.stderr`;
    `--fast` as the simulator (`start_sim`): the reader is polled as fast as it answers."""
    cmd = [
        sys.executable, "-m", "controller", "run", "--fast", "--table", paths["table"],
        "--reader", paths["reader"], "--profile", "sim-table", "--reader-profile", reader_profile,
        "--tags", tags, "--journal", str(journal), "--http", "127.0.0.1:0",
        "--config", os.devnull, *extra,
    ]  # fmt: skip
    if deals:
        cmd += ["--deals", str(deals)]
    stderr = journal.with_name(journal.name + ".stderr")
    return _spawn(cmd, stderr, "daemon", subprocess.DEVNULL)


def poll(ready: Callable[[], Any], timeout: float, every: float) -> Any:
    """`ready()` until it gives a true value (returned) or `timeout` runs out (returns the
    last value). The daemon and the simulator are real child processes writing their own
    files: there is no clock of theirs to inject, so this polls, bounded, at `every` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = ready()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(every)


def records(journal: Path, first: int = 1) -> list[Record]:
    """The journal's records from seq `first` (a read-only view); none while the daemon is
    still creating it."""
    if not journal.exists():
        return []
    try:
        with Journal.open_readonly(journal) as j:
            return list(j.records(first))
    except Exception:
        return []


def wait_records(journal: Path, kind: RecordKind, n: int, timeout: float) -> bool:
    """Until the journal holds `n` records of `kind`."""
    return poll(lambda: sum(r.kind is kind for r in records(journal)) >= n, timeout, 0.2)


def wait_for(
    journal: Path, test: Callable[[Record], bool], after: int = 0, timeout: float = 60.0
) -> int:
    """Until a record after seq `after` satisfies `test(record)`; returns its seq (0: none in
    time), reading only the records it has not seen."""
    seen = after

    def found() -> int:
        nonlocal seen
        for r in records(journal, seen + 1):
            seen = r.seq
            if test(r):
                return r.seq
        return 0

    return poll(found, timeout, 0.05)


def wait_daemon(daemon: Child, journal: Path, timeout: float, after: int = 0) -> int:
    """Until the daemon exits; returns its exit code. Fails at once, with the alert and the
    daemon's stderr, when it exits non-zero, when its journal shows a lost deal
    (`FATAL_ALERTS`), or when `timeout` runs out."""
    seen = after
    deadline = time.monotonic() + timeout
    while True:
        for r in records(journal, seen + 1):
            seen = r.seq
            if r.kind is RecordKind.ALERT and r.data().get("code") in FATAL_ALERTS:
                kill(daemon)
                raise DaemonFailed(f"journal record {r.seq}: {r.payload}\n{daemon.tail()}")
        code = daemon.poll()
        if code is not None:
            if code != 0:
                raise DaemonFailed(f"the daemon exited {code}\n{daemon.tail()}")
            return code
        if time.monotonic() >= deadline:
            kill(daemon)
            raise DaemonFailed(
                f"the daemon still runs after {timeout:g} s\n{daemon.tail()}\n"
                f"where its journal stopped:\n{journal_tail(journal)}"
            )
        time.sleep(0.1)


def journal_tail(journal: Path, n: int = 15) -> str:
    """The journal's last `n` records other than device input and frames, one line each
    (seq, kind, payload cut short): what a daemon that never finished was doing, for a
    failure's message."""
    shown = [
        r for r in records(journal) if r.kind not in (RecordKind.HW_BATCH, RecordKind.HW_FRAME)
    ]
    return "\n".join(f"  {r.seq} {r.kind.value} {r.payload[:200]}" for r in shown[-n:])


def wait_deal_end(truth: Path, deal: int, timeout: float = 15.0) -> bool:
    """Until the simulator's truth says deal `deal` ended (the daemon may settle a deal a
    few reader rounds before the simulator has finished pacing its last move)."""
    mark = f'"class": "deal-end", "deal": {deal},'
    return poll(lambda: truth.exists() and mark in truth.read_text(), timeout, 0.1)


def last_seq(journal: Path) -> int:
    if not journal.exists():
        return 0
    with Journal.open_readonly(journal) as j:
        last = j.last()
        return 0 if last is None else last.seq


def kill(proc: Child | subprocess.Popen[str], sig: int = signal.SIGKILL) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(sig)
    proc.wait(30)
