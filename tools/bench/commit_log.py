"""`python -m tools.bench.commit_log FILE ARGS…`: the `mjtable ARGS…` command line, with the
time of each journal commit written to FILE (`mjtable bench daemon`'s look inside the
daemon it times from outside, tools/bench/frame_path.py).

One line a commit, written once its fsync has returned (controller/journal/store.py
`add_commit_observer`): `T SEQ:KIND …`, T the monotonic clock in seconds (CLOCK_MONOTONIC,
the bench's clock too), then each record the commit holds. The daemon is the one `mjtable
run` builds; the observer costs it one small unbuffered write per commit.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from controller.journal.records import Record


def line(t: float, records: Sequence[Record]) -> bytes:
    return (" ".join([f"{t:.6f}", *(f"{r.seq}:{r.kind}" for r in records)]) + "\n").encode()


def parse(text: str) -> list[tuple[float, list[tuple[int, str]]]]:
    """The commits a file holds: (T, [(seq, kind), …]) in the order they were written."""
    out = []
    for row in text.splitlines():
        t, *records = row.split()
        out.append((float(t), [(int(s), k) for s, k in (r.split(":", 1) for r in records)]))
    return out


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2:
        print("usage: python -m tools.bench.commit_log FILE ARGS…", file=sys.stderr)
        return 2
    from controller.cli import main as mjtable
    from controller.journal.store import add_commit_observer

    fd = os.open(argv[0], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)

    def write(t: float, records: Sequence[Record]) -> None:
        os.write(fd, line(t, records))

    add_commit_observer(write)
    try:
        return mjtable(list(argv[1:]))
    finally:
        os.close(fd)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
