"""`python -m tools.bench.peers board URL FILE` / `… disk FOLDER FILE`: the two observers
beside the daemon that `mjtable bench daemon --path` times (tools/bench/frame_path.py),
each in a process of its own, writing one line per observation to FILE as it is made.

- `board`: a client of the board's public event stream (`/events/public`); a line
  `T NAME ID` when an event's closing blank line has been read (ID `-` when it has none).
- `disk`: every `DISK_EVERY` seconds a bare append of `RECORD_BYTES` to a file in FOLDER
  and its fsync; a line `SECONDS` each (the file is removed at the end).

T is CLOCK_MONOTONIC (`time.monotonic()`), the clock of the simulator's taps and of the
daemon's commit log. Each runs alone because a thread of the bench's own process stamps
late: that process also plays the simulated table and reader (their pseudo-terminal
threads and the players), and a thread woken by a socket or by fsync's return stamps its
time only once it holds that process's interpreter lock, which the simulator's threads
hand over at most every `sys.getswitchinterval()` (5 ms) each, so an event read there was
stamped up to 30 ms after it arrived, and the daemon charged with the bench's wait. Here
each wakes into a process with nothing else to run; the operating system's scheduler
remains (the machine's other processes), as it does for any client. Ends on SIGTERM.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

DISK_EVERY = 0.25  # seconds between the disk peer's fsyncs
RECORD_BYTES = 512  # the disk peer's write: a move.accepted record is 200-500 bytes


def board(url: str, out: int, path: str = "/events/public") -> int:
    """Read the board's event stream until it ends, a line for each event received."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port)
    conn.request("GET", path, headers={"Accept": "text/event-stream"})
    response = conn.getresponse()
    if response.status != 200:
        print(f"the board's {path} answered {response.status}", file=sys.stderr)
        return 1
    os.write(out, b"open\n")  # the stream is up: the bench may start the play
    name, ident = "message", "-"
    with contextlib.suppress(OSError, ValueError, http.client.HTTPException):
        while line := response.readline():
            text = line.decode().rstrip("\r\n")
            if not text:  # the blank line that ends an event: a page has it now
                os.write(out, f"{time.monotonic():.6f} {name} {ident}\n".encode())
                name, ident = "message", "-"
            elif text.startswith("event:"):
                name = text[6:].strip()
            elif text.startswith("id:"):
                ident = text[3:].strip()
    return 0


def disk(folder: Path, out: int, stop: threading.Event) -> int:
    """Append and fsync every `DISK_EVERY` seconds until `stop`, a line for each fsync."""
    target = folder / "disk-peer"
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    record = bytes(RECORD_BYTES)
    try:
        while not stop.wait(DISK_EVERY):
            t = time.monotonic()
            os.write(fd, record)
            os.fsync(fd)
            os.write(out, f"{time.monotonic() - t:.6f}\n".encode())
    finally:
        os.close(fd)
        target.unlink(missing_ok=True)
    return 0


def main(argv: Sequence[str]) -> int:
    if len(argv) != 3 or argv[0] not in ("board", "disk"):
        print(
            "usage: python -m tools.bench.peers board URL FILE | disk FOLDER FILE", file=sys.stderr
        )
        return 2
    kind, where, file = argv
    out = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
    try:
        if kind == "board":  # SIGTERM's default ends it mid-read: every line is written already
            return board(where, out)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        return disk(Path(where), out, stop)
    finally:
        os.close(out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
