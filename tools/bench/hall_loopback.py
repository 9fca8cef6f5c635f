"""A hall's two brokers on loopback, from the files `mjtable hall broker-config` writes:
Mosquitto (the tables' and the hub's: passwords, ACL, the bridge) and the viewers' broker
(Aedes under Node.js, MQTT over WebSockets). For `mjtable bench hall` and the tests.

The viewers' broker needs its npm packages: `npm ci` in controller/hub/viewer_broker/ (the
CI does it); the written `viewers/` folder links to them.
"""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import threading
import time
from collections import deque
from pathlib import Path

from controller.errors import TableError
from controller.hub.broker_config import VIEWER_BROKER, HallBroker, Listener, Viewers, write
from controller.hub.wire import BrokerOptions


class HallPartMissing(TableError, RuntimeError):
    """A part the loopback hall needs is not installed (the message says how to get it)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _exe(name: str, how: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/local/sbin:/usr/bin")
    if found is None:
        raise HallPartMissing(f"{name} is not installed ({how})")
    return found


class _Process:
    """A child whose output is kept (the last lines), stopped by its own pid only."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(
            argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.log: deque[str] = deque(maxlen=200)
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.log.append(line.rstrip())

    def stop(self, kill: bool = False) -> None:
        if self.proc.poll() is None:
            self.proc.kill() if kill else self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def _wait_port(port: int, proc: _Process, what: str, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.proc.poll() is not None:
            raise RuntimeError(f"{what} exited: {list(proc.log)[-5:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout_s} s")


class LoopbackHall:
    """`hall`'s brokers for `tables` under `folder`; `start()`, then clients connect to
    `mqtt_port` (with `options(user)`) and viewers to `ws_port`."""

    def __init__(self, folder: Path, hall: str, tables: tuple[str, ...], max_viewers: int):
        self.folder, self.hall = folder, hall
        self.mqtt_port, self.ws_port, self.bridge_port = free_port(), free_port(), free_port()
        self.broker = HallBroker(
            hall,
            tables,
            Listener("127.0.0.1", self.mqtt_port),
            Viewers("127.0.0.1", self.ws_port, max_viewers, self.bridge_port),
        )
        self.out = folder / "hall-broker"
        self.credentials = write(self.broker, self.out)
        modules = VIEWER_BROKER / "node_modules"
        if not (modules / "aedes").is_dir():
            raise HallPartMissing(
                f"the viewers' broker's packages are not installed (npm ci in {VIEWER_BROKER})"
            )
        (self.out / "viewers" / "node_modules").symlink_to(modules)
        self.mosquitto: _Process | None = None
        self.viewers: _Process | None = None

    def password(self, user: str) -> str:
        return self.credentials[user].read_text(encoding="utf-8").strip()

    def options(self, user: str, **more) -> BrokerOptions:
        return BrokerOptions(
            port=self.mqtt_port, username=user, password=self.password(user), **more
        )

    def start(self) -> LoopbackHall:
        self.start_viewers()
        self.start_mosquitto()
        return self

    def start_mosquitto(self) -> None:
        exe = _exe("mosquitto", "apt-get install mosquitto")
        conf = self.folder / "mosquitto.conf"
        main = [
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "persistence true",
            f"persistence_location {self.folder}/",
            # started as root, mosquitto would drop to user "mosquitto"
            f"user {getpass.getuser()}",
        ]
        drop_in = (self.out / "mjtable-hall.conf").read_text(encoding="utf-8")
        conf.write_text("\n".join(main) + "\n" + drop_in, encoding="utf-8")
        self.mosquitto = _Process([exe, "-c", str(conf)], self.folder)
        _wait_port(self.mqtt_port, self.mosquitto, "mosquitto")

    def start_viewers(self) -> None:
        node = _exe("node", "apt-get install nodejs")
        viewers = self.out / "viewers"
        self.viewers = _Process([node, "server.mjs", "viewers.json"], viewers)
        _wait_port(self.ws_port, self.viewers, "the viewers' broker")

    @property
    def pids(self) -> dict[str, int]:
        return {
            name: p.proc.pid
            for name, p in (("mosquitto", self.mosquitto), ("viewers", self.viewers))
            if p is not None
        }

    def stop(self) -> None:
        for part in (self.mosquitto, self.viewers):
            if part is not None:
                part.stop()
