"""`mjtable run` on a real terminal (a pseudo-terminal): what a player at the table reads.
Each case runs the real command with the built-in simulator (issue 28 items 9 and 10)."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING ")


def on_a_terminal(args: list[str], until: str, timeout: float = 90.0, interrupt: str = ""):
    """Run `mjtable ARGS` with stdout and stderr on one pseudo-terminal; read until `until`
    is seen (or the command ends), sending SIGINT first once `interrupt` is seen."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env={**os.environ, "COLUMNS": "200"},
    )
    os.close(follower)
    out = b""
    sent = False
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the command ended: the terminal is gone
                    break
                if not chunk:
                    break
                out += chunk
            text = out.decode(errors="replace")
            if interrupt and not sent and interrupt in text:
                proc.send_signal(signal.SIGINT)
                sent = True
            if until in text:
                break
            if proc.poll() is not None and not ready:
                break
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(leader)
    return proc.returncode, out.decode(errors="replace")


def test_regression_log_lines_were_written_onto_the_end_of_the_status_line(tmp_path: Path):
    """A lost reader logs a WARNING while the status line is up: it went onto the end of it
    ("…N North -56 2026-11-28 04:06:26,936 WARNING …"); every log line starts a line now."""
    code, text = on_a_terminal(
        [
            "run",
            "--fast",
            "--deals",
            "1",
            "--unplug",
            "reader:1@2",
            "--http",
            "127.0.0.1:0",
            "--journal",
            str(tmp_path / "t.journal"),
        ],
        until="stopped: deals",
    )
    logs = list(LOG_LINE.finditer(text))
    assert logs, text  # the lost reader was logged
    for found in logs:
        before = text[: found.start()]
        # a log line starts a fresh line: after a newline, or after the status line's
        # carriage return and erase
        assert before.endswith(("\n", "\r\x1b[2K")), repr(text[found.start() - 80 : found.end()])
