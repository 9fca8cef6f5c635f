"""Issue 15 item 1: garbage through the real pty path into a running daemon. A megabyte of
random bytes and mutated frames on each line (the table's and the reader's), written as fast
as the ptys take them: the daemon's memory stays flat, its core loop keeps ticking (its
systemd watchdog pings, sent from the core thread, keep coming) and SIGTERM ends it at once.

Bounds are generous for a loaded test machine (a blocked loop used to mean 30 s and a
SIGTERM ignored); the figures measured are printed with `-s`."""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

from harness import ENV, ROOT

from controller.devices.uhf_reader import EpcRead, inventory_responses

MB = 1 << 20
MAX_GAP_S = 1.0  # the longest pause of the core loop tolerated (the watchdog asks 0.05 s)
MAX_GROWTH_MB = 20.0
STOP_S = 2.0


def _garbage(rng: random.Random, size: int, frames: list[bytes]) -> bytes:
    """Random bytes with good frames, damaged frames and runs of one byte mixed in."""
    out = bytearray()
    while len(out) < size:
        pick = rng.random()
        if pick < 0.5:
            out += rng.randbytes(rng.randint(1, 512))
        elif pick < 0.7:
            frame = bytearray(rng.choice(frames))
            frame[rng.randrange(len(frame))] ^= 1 << rng.randrange(8)
            out += frame
        elif pick < 0.8:
            out += rng.choice(frames)
        else:
            out += bytes([rng.choice((0x00, 0xFF, 0xAA, 0x55))]) * rng.randint(64, 4096)
    return bytes(out[:size])


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _drain(fd: int, stop: threading.Event) -> None:
    """Read what the daemon writes (its poll commands), so its writes never block."""
    while not stop.is_set():
        try:
            os.read(fd, 4096)
        except BlockingIOError:
            time.sleep(0.01)
        except OSError:
            return


def test_a_megabyte_of_garbage_on_each_line_leaves_the_daemon_well(tmp_path: Path) -> None:
    rng = random.Random(15)
    tags = [EpcRead(rng.randbytes(12), rssi=0x50) for _ in range(14)]
    frames = [r.encode() for r in inventory_responses(1, tags, 0)]
    frames += [bytes([0xAA, 0x55, 0x04, 0x12, 0x04, 0xFF, 0xF4, 0x19])]  # a table frame
    ptys = {}
    for name in ("table", "reader"):
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        ptys[name] = (master, slave, os.ttyname(slave))
    sock_path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(20)
    env = {**ENV, "NOTIFY_SOCKET": str(sock_path), "WATCHDOG_USEC": "100000"}
    journal = tmp_path / "g.journal"
    cmd = [
        sys.executable, "-m", "controller", "run", "--table", ptys["table"][2],
        "--reader", ptys["reader"][2], "--journal", str(journal), "--http", "127.0.0.1:0",
        "--config", os.devnull,
    ]  # fmt: skip
    err = open(tmp_path / "daemon.stderr", "wb")  # noqa: SIM115
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err)
    stop = threading.Event()
    drains = [
        threading.Thread(target=_drain, args=(m, stop), daemon=True) for m, _, _ in ptys.values()
    ]
    try:
        while b"READY=1" not in sock.recv(4096).split(b"\n"):
            pass
        for t in drains:
            t.start()
        time.sleep(1.0)
        before = _rss_mb(proc.pid)
        pings: list[float] = []
        sock.settimeout(0.05)
        data = {name: _garbage(rng, MB, frames) for name in ptys}
        sent = dict.fromkeys(ptys, 0)
        while any(sent[n] < MB for n in ptys) and proc.poll() is None:
            for name, (master, _, _) in ptys.items():
                if sent[name] < MB:
                    with contextlib.suppress(BlockingIOError):
                        sent[name] += os.write(master, data[name][sent[name] : sent[name] + 4096])
            try:
                while True:
                    if b"WATCHDOG=1" in sock.recv(4096).split(b"\n"):
                        pings.append(time.monotonic())
            except (TimeoutError, BlockingIOError):
                pass
        end = time.monotonic() + 2.0  # what is still in the ptys is read too
        while time.monotonic() < end:
            try:
                if b"WATCHDOG=1" in sock.recv(4096).split(b"\n"):
                    pings.append(time.monotonic())
            except (TimeoutError, BlockingIOError):
                pass
        assert proc.poll() is None, (tmp_path / "daemon.stderr").read_text()[-2000:]
        after = _rss_mb(proc.pid)
        gaps = [b - a for a, b in itertools.pairwise(pings)]
        print(f"rss {before:.1f} -> {after:.1f} MB, {len(pings)} pings, max gap {max(gaps):.3f} s")
        assert sent == dict.fromkeys(ptys, MB)
        assert len(pings) > 10 and max(gaps) < MAX_GAP_S
        assert after - before < MAX_GROWTH_MB
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        assert time.monotonic() - t0 < STOP_S and proc.returncode == 0
        check = subprocess.run(
            [sys.executable, "-m", "controller", "journal", "verify", str(journal)],
            capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=120,
        )  # fmt: skip
        assert check.returncode == 0, check.stdout + check.stderr
        assert journal.stat().st_size < 20 * MB  # the garbage is counted, not kept byte by byte
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        err.close()
        sock.close()
        for master, slave, _ in ptys.values():
            os.close(master)
            os.close(slave)
