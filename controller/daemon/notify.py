"""systemd's notify protocol, spoken directly: one datagram per message on the Unix socket
named by `$NOTIFY_SOCKET` (sd_notify(3)), so the daemon needs no extra dependency.

    notifier = Notifier.from_environment()
    notifier.ready("playing deal 3")      # READY=1 + STATUS=
    notifier.watchdog()                   # WATCHDOG=1, at most every `watchdog_interval`
    notifier.stopping()                   # STOPPING=1

Messages are `KEY=value` lines. An address starting with `@` is in the abstract namespace
(the `@` stands for a NUL byte). Without `$NOTIFY_SOCKET` (not started by systemd) every call
does nothing. `$WATCHDOG_USEC` (with `$WATCHDOG_PID`, when set, naming this process) gives
the watchdog period; pings are sent at half of it, as sd_watchdog_enabled(3) recommends.
A failing send is logged once and never raised: the table keeps running.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


class Notifier:
    def __init__(
        self,
        address: str | None,
        watchdog_usec: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.address = address
        self.interval = watchdog_usec / 2e6 if watchdog_usec > 0 else 0.0
        self.clock = clock
        self._last_ping: float | None = None
        self._failed = False
        self._sock: socket.socket | None = None
        if address:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @classmethod
    def from_environment(cls, env: Mapping[str, str] | None = None) -> Notifier:
        env = os.environ if env is None else env
        usec = 0
        pid = env.get("WATCHDOG_PID")
        if env.get("WATCHDOG_USEC", "").isdigit() and (pid is None or pid == str(os.getpid())):
            usec = int(env["WATCHDOG_USEC"])
        return cls(env.get("NOTIFY_SOCKET") or None, usec)

    @property
    def enabled(self) -> bool:
        return self._sock is not None

    def send(self, **fields: str) -> bool:
        """One message: `send(READY="1", STATUS="…")`. False when not sent."""
        if self._sock is None or self.address is None:
            return False
        text = "\n".join(f"{k}={v}" for k, v in fields.items())
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            self._sock.sendto(text.encode(), target)
        except OSError as err:
            if not self._failed:
                log.warning("sd_notify to %s failed: %s", self.address, err)
            self._failed = True
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send(READY="1", STATUS=status) if status else self.send(READY="1")

    def status(self, text: str) -> bool:
        return self.send(STATUS=text.replace("\n", " "))

    def stopping(self) -> bool:
        return self.send(STOPPING="1")

    def watchdog(self) -> bool:
        """A watchdog ping, if one is due (half the period since the last)."""
        if not self.interval:
            return False
        now = self.clock()
        if self._last_ping is not None and now - self._last_ping < self.interval:
            return False
        self._last_ping = now
        return self.send(WATCHDOG="1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
