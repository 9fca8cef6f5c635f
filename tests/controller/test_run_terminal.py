"""`mjtable run` on a real terminal (a pseudo-terminal): what a player at the table reads.
Each case runs the real command with the built-in simulator (issue 28 items 9 and 10)."""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from real_things import read_terminal

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
    try:
        text = read_terminal(leader, proc, timeout, until=until, interrupt=interrupt)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(leader)
    return proc.returncode, text


def test_regression_log_lines_were_written_onto_the_end_of_the_status_line(tmp_path: Path):
    """A lost reader logs a WARNING while the status line is up: it went onto the end of it
    ("…N North -56 2026-11-28 04:06:26,936 WARNING …"); every log line starts a line now."""
    _, text = on_a_terminal(
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


def run_until(args: list[str], until: str, timeout: float = 90.0) -> tuple[subprocess.Popen, str]:
    """`mjtable ARGS` with its output on a pipe, read until `until` is printed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    seen = ""
    end = time.monotonic() + timeout
    while until not in seen and time.monotonic() < end:
        line = proc.stdout.readline()
        if not line:
            break
        seen += line
    assert until in seen, seen
    return proc, seen


def test_regression_ctrl_c_before_any_settlement_said_only_stopped(tmp_path: Path):
    """Ctrl-C before the first deal settled printed only "stopped: sigint": it says that no
    deal settled and where the journal is."""
    journal = tmp_path / "t.journal"
    args = ["run", "--http", "127.0.0.1:0", "--journal", str(journal)]
    proc, _ = run_until(args, "playing; Ctrl-C stops")
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert "stopped: sigint" in rest
    assert f"No deal settled in this run; the journal is {journal.resolve()}" in rest, rest


def test_regression_a_restart_after_kill_9_mid_deal_said_nothing_of_it(tmp_path: Path):
    """`kill -9` in deal 2 (South deals), then `mjtable run` again: the new session started
    without a word about the deal left unsettled, and its first hands, dealt from East as
    the restarted simulator deals them, raised a false "Dealer side" alert."""
    journal = tmp_path / "t.journal"
    args = ["run", "--fast", "--http", "127.0.0.1:0", "--journal", str(journal)]
    proc, _ = run_until(args, "Deal 2: dealer S")
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    proc.stdout.close()
    again = subprocess.run(
        [sys.executable, "-m", "controller", *args, "--deals", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = again.stdout + again.stderr
    assert again.returncode == 0, out
    assert "the last run stopped in the middle of deal 2 of session 1" in out, out
    assert "stays unsettled" in out
    assert "Dealer side" not in out, out
    assert "Deal 1 of 1: dealer E" in out


def test_regression_missing_ports_printed_playing_and_waited_silently(tmp_path: Path):
    """`--table /dev/ttyUSB7 --reader /dev/ttyUSB8` (ports that do not exist) printed
    "playing; Ctrl-C stops" and waited: it names each missing device and says it waits for
    it; the public view (the board, the status line) says the same."""
    import json
    import urllib.request

    table, reader = tmp_path / "ttyUSB7", tmp_path / "ttyUSB8"
    args = ["run", "--table", str(table), "--reader", str(reader)]
    args += ["--http", "127.0.0.1:0", "--journal", str(tmp_path / "t.journal")]
    proc, seen = run_until(args, "Ctrl-C stops")
    try:
        # the port it bound (port 0: a free one, never another process's)
        board = re.search(r"scoreboard: (http://127\.0\.0\.1:\d+)/", seen)
        assert board, seen
        assert f"waiting for the table controller: {table} does not exist" in seen, seen
        assert f"waiting for the tile reader: {reader} does not exist" in seen
        assert "waiting; Ctrl-C stops" in seen and "playing" not in seen
        # "waiting" is printed just before the core's loop publishes its first view (the
        # board's /api/public answers {"kind": "none"} until then: CI once read it then);
        # the board's event feed hands over the first view the moment it is published
        with urllib.request.urlopen(f"{board.group(1)}/events/public", timeout=20) as feed:
            data = next(line for line in feed if line.startswith(b"data: "))
        public = json.loads(data[len(b"data: ") :])
        assert public["waiting_for"] == ["the table controller", "the tile reader"], public
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
