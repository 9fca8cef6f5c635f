"""`mjtable replay`: one moment printed (`--move K`, or stdout not a terminal), and the
interactive stepper driven through a real terminal under tmux (send-keys, capture-pane).
The test waits on the pane's output stream (pipe-pane into a FIFO, select), never sleeps."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.cli import main
from tests.tools.test_referee import bot_journal, capped_journal

ROOT = Path(__file__).resolve().parents[2]


def test_move_k_prints_that_moment(tmp_path: Path, capsys) -> None:
    path = capped_journal(tmp_path / "t.journal")
    assert main(["replay", str(path), "--deal", "1", "--move", "0"]) == 0
    screen = capsys.readouterr().out
    assert "step 0/7" in screen and "deal started, dice 6+4, dealer S" in screen
    assert "Wall: 55 tiles left" in screen and "void ?" in screen
    # a moment printed once has no keys to press (its header listed them, issue 16)
    assert "q quit" not in screen
    assert main(["replay", str(path), "--move", "4"]) == 0
    screen = capsys.readouterr().out
    # deal seat N (the fourth to choose) sits at the table's E seat: the dealer is at S
    assert "#4 record 5" in screen and "E void suit p 5p — judge: accepted" in screen
    assert "evidence: E scripted" in screen and "void p (laid 5p)" in screen


def test_not_a_terminal_prints_the_last_step(tmp_path: Path) -> None:
    path = capped_journal(tmp_path / "t.journal")
    done = subprocess.run(
        [sys.executable, "-m", "controller", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "step 7/7" in done.stdout and "settled (time-up): -9 +27 -9 -9" in done.stdout


def test_bad_deal_or_step(tmp_path: Path, capsys) -> None:
    path = capped_journal(tmp_path / "t.journal")
    assert main(["replay", str(path), "--deal", "3"]) == 2
    assert "no deal 3 in" in capsys.readouterr().err
    assert main(["replay", str(path), "--move", "8"]) == 2
    assert "deal 1 has steps 0-7, not 8" in capsys.readouterr().err


class Pane:
    """One tmux server on its own socket, one pane running a command; its output stream is
    piped into a FIFO so the test can wait for a screen with select()."""

    def __init__(self, tmp: Path, command: str) -> None:
        self.sock = str(tmp / "tmux.sock")
        fifo = tmp / "pane.fifo"
        os.mkfifo(fifo)
        # the command waits for Enter, so no output is drawn before the pipe is attached
        self.tmux(
            "new-session",
            "-d",
            "-s",
            "r",
            "-x",
            "150",
            "-y",
            "60",
            "-c",
            str(ROOT),
            f"read go; exec {command}",
        )
        self.tmux("pipe-pane", "-t", "r", f"cat > {fifo}")
        self.fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.seen = b""

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", self.sock, *args], capture_output=True, text=True, timeout=30, check=True
        )
        return done.stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "r", *keys)

    def wait_for(self, *texts: str, timeout: float = 30.0) -> str:
        """Read the pane's output until every text has appeared since the last wait."""
        deadline = time.monotonic() + timeout
        buf = b""
        while not all(t.encode() in buf for t in texts):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {texts}; got {buf[-400:]!r}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                chunk = os.read(self.fd, 65536)
                if not chunk and not texts:
                    break
                buf += chunk
        self.seen += buf
        return self.screen()

    def wait_closed(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "the pane did not close"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready and not os.read(self.fd, 65536):
                return  # EOF: the pane's process exited and the pipe closed

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "r")

    def close(self) -> None:
        os.close(self.fd)
        subprocess.run(["tmux", "-S", self.sock, "kill-server"], capture_output=True, check=False)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_interactive_stepping_under_tmux(tmp_path: Path) -> None:
    path = tmp_path / "b.journal"
    bot_journal(path, [5])
    pane = Pane(tmp_path, f"{sys.executable} -m controller replay {path} --deal 1")
    try:
        pane.keys("Enter")
        screen = pane.wait_for("step 0/", "phase ")
        assert "deal started" in screen and "E wall" in screen and "q quit" in screen
        last = int(screen.split("step 0/")[1].split()[0])
        pane.keys("n", "n", "n")
        screen = pane.wait_for("step 3/", "phase ")
        assert "#3 record" in screen and "void suit" in screen
        pane.keys("p")
        assert "#2 record" in pane.wait_for("step 2/", "phase ")
        pane.keys("Right")
        assert "#3 record" in pane.wait_for("step 3/", "phase ")
        pane.keys("Left", "Left")
        assert "#1 record" in pane.wait_for("step 1/", "phase ")
        pane.keys("g")
        pane.wait_for(f"go to step (0-{last}): ")
        pane.keys("1", "2", "Enter")
        screen = pane.wait_for("step 12/", "phase ")
        assert "#12 record" in screen
        # past the end: it stays where it is and says why (it jumped to the end silently)
        pane.keys("g", "9", "9", "9", "Enter")
        screen = pane.wait_for(f"no step 999: this deal has steps 0-{last}")
        assert "step 12/" in screen
        pane.keys("End")
        screen = pane.wait_for(f"step {last}/{last}", "phase ")
        assert "settled" in screen
        pane.keys("n")  # past the end: stays on the last step
        assert f"step {last}/{last}" in pane.wait_for(f"step {last}/{last}", "phase ")
        pane.keys("Home")
        assert "deal started" in pane.wait_for("step 0/", "phase ")
        pane.keys("q")
        pane.wait_closed()
    finally:
        pane.close()


def test_regression_long_lines_break_between_words_not_inside_one(tmp_path: Path) -> None:
    """Issue 16 item 10: at 80 columns the terminal cut replay's long lines mid-word."""
    from controller.cli.replay import wrapped
    from controller.referee.journal_deal import open_checked
    from controller.referee.session import rebuild_all
    from controller.referee.text import render

    path = tmp_path / "b.journal"
    bot_journal(path, [3])
    journal, _ = open_checked(path)
    with journal:
        deal = rebuild_all(journal)[0]
    screen = render(deal.rebuilt, 30, deal.before)
    assert max(len(line) for line in screen.splitlines()) > 80  # the wall line is long
    narrow = wrapped(screen, 80)
    assert max(len(line) for line in narrow.splitlines()) < 80
    assert narrow.split() == screen.split()  # every word kept, none cut
    assert wrapped(screen, 200) == screen
