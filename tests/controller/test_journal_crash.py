"""A writer killed with SIGKILL in the middle of appending leaves a consistent journal in which
every record it reported as committed is present (issue 5: "a record is committed before
anything acts on it"). Real child processes, real SQLite files, no sleeps."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from controller.journal.store import Journal

ROOT = Path(__file__).resolve().parents[2]

# The child appends frames forever and prints "seq hash" after each append has returned:
# whatever it printed, the parent may rely on.
CHILD = textwrap.dedent(
    """
    import sys
    from controller.journal.store import Journal
    from controller.journal.records import RecordKind, Source

    journal = Journal.open(sys.argv[1])
    i = 0
    while True:
        i += 1
        payload = {"device": "reader", "hex": f"{i:08x}" * 8, "antenna": i % 8 + 1}
        rec = journal.append(Source.READER, RecordKind.HW_FRAME, payload)
        sys.stdout.write(f"{rec.seq} {rec.hash}\\n")
        sys.stdout.flush()
    """
)


def _run_and_kill(path: Path, lines_before_kill: int) -> list[tuple[int, str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert child.stdout is not None
    reported: list[tuple[int, str]] = []
    try:
        for _ in range(lines_before_kill):
            line = child.stdout.readline()
            if not line:
                break
            seq, digest = line.split()
            reported.append((int(seq), digest))
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        assert child.stderr is not None
        errors = child.stderr.read()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL, errors
    if lines_before_kill:
        assert reported, f"the child reported nothing: {errors}"
    return reported


def test_sigkill_mid_append_loses_nothing_reported(tmp_path: Path) -> None:
    path = tmp_path / "crash.journal"
    rng = random.Random(5)
    reported: dict[int, str] = {}
    # 0 lines: killed while starting up or creating the file; otherwise mid-append
    for lines in [0, 1, *(rng.randint(1, 60) for _ in range(20)), 0, 3]:
        got = _run_and_kill(path, lines)
        for seq, digest in got:
            assert reported.setdefault(seq, digest) == digest, f"record {seq} was reported twice"
        # the next writer opens the killed one's journal (WAL recovery) and continues the chain
    with Journal.open_readonly(path) as journal:
        check = journal.verify()
        assert check.ok, check.finding
        assert check.records >= max(reported)
        for seq, digest in reported.items():
            record = journal.get(seq)
            assert record is not None, f"committed record {seq} is missing"
            assert record.hash == digest
    assert len(reported) > 50


def test_kill_while_creating_never_leaves_a_foreign_file(tmp_path: Path) -> None:
    # killed right after the start, again and again: the file is absent or a valid journal
    path = tmp_path / "young.journal"
    for _ in range(4):
        _run_and_kill(path, 0)
        if path.exists():
            with Journal.open_readonly(path) as journal:
                assert journal.verify().ok
    _run_and_kill(path, 2)
    with Journal.open_readonly(path) as journal:
        assert journal.verify().records >= 2
