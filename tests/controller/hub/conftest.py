"""A real Mosquitto broker on 127.0.0.1 for the hub and publisher tests.

Each test gets its own broker process on a free port with a temp config. Start-up is awaited
by reading the broker's log for its "running" line (no polling, no sleeps). Without
mosquitto installed the tests skip, except in CI (`CI=true`), where they fail.
"""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def _mosquitto() -> str | None:
    return shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    """One broker process; `kill()` then `start()` restarts it on the same port."""

    def __init__(self, exe: str, workdir: Path, extra_config: str = "") -> None:
        self.exe, self.workdir = exe, workdir
        self.port = free_port()
        self.extra_config = extra_config
        self.proc: subprocess.Popen[str] | None = None
        self.log: list[str] = []

    def config(self) -> Path:
        path = self.workdir / "mosquitto.conf"
        lines = [
            f"listener {self.port} 127.0.0.1",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
            "persistence true",
            f"persistence_location {self.workdir}/",
            # started as root, mosquitto drops to user "mosquitto", who cannot read tmp_path
            f"user {getpass.getuser()}",
            self.extra_config or "allow_anonymous true",
        ]
        path.write_text("\n".join(lines) + "\n")
        return path

    def start(self, timeout_s: float = 10.0) -> None:
        running = threading.Event()
        self.proc = subprocess.Popen(
            [self.exe, "-c", str(self.config())],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )

        def read(stream) -> None:
            for line in stream:
                self.log.append(line.rstrip())
                if " running" in line:
                    running.set()
            running.set()  # exited: let start() see it

        threading.Thread(target=read, args=(self.proc.stderr,), daemon=True).start()
        assert running.wait(timeout_s), "mosquitto did not start:\n" + "\n".join(self.log)
        assert self.proc.poll() is None, "mosquitto exited:\n" + "\n".join(self.log)

    def kill(self) -> None:
        """SIGKILL: the broker dies without a goodbye, as a crashed or unplugged one would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture
def mosquitto_exe() -> str:
    exe = _mosquitto()
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("mosquitto is not installed, and CI must run the broker tests")
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    return exe


@pytest.fixture
def make_broker(mosquitto_exe: str, tmp_path: Path) -> Iterator[Callable[[str], Mosquitto]]:
    """A started broker with extra config lines (TLS, passwords), stopped after the test."""
    made: list[Mosquitto] = []

    def make(extra_config: str) -> Mosquitto:
        b = Mosquitto(mosquitto_exe, tmp_path, extra_config)
        made.append(b)
        b.start()
        return b

    yield make
    for b in made:
        b.stop()


@pytest.fixture
def broker(mosquitto_exe: str, tmp_path: Path) -> Iterator[Mosquitto]:
    b = Mosquitto(mosquitto_exe, tmp_path)
    b.start()
    yield b
    b.stop()
