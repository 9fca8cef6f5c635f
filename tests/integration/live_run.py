"""A real `mjtable run` (the daemon with its simulator child) and a crawler of its web server.

`LiveRun` starts the command exactly as a user types it, reads the addresses and the referee
token it prints, drains its output (so a full pipe never stalls it) and waits for its exit.
`Crawler` reads every public stream (server-sent events) from the first moment and polls every
public endpoint while the deal is played, keeping each answer with the moment it arrived on
this machine's monotonic clock (the daemon's clock is the same CLOCK_MONOTONIC, so a broadcast
release time can be compared with it).
"""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urlsplit

from real_things import end_process

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@dataclass(frozen=True, slots=True)
class Printed:
    """What `mjtable run` prints at start-up."""

    scoreboard: str  # http://127.0.0.1:PORT/
    referee: str
    token: str
    journal: Path

    @property
    def base(self) -> str:
        return self.scoreboard.rstrip("/")

    @property
    def port(self) -> int:
        return urlsplit(self.scoreboard).port or 80


class LiveRun:
    """`python -m controller run …` as a child process."""

    def __init__(self, *args: str) -> None:
        cmd = [sys.executable, "-m", "controller", "run", *args]
        self.proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
            cwd=ROOT,
            bufsize=1,
        )
        self.out: list[str] = []
        self.err: deque[str] = deque(maxlen=200)
        self.exited_at: float | None = None
        self._lines = threading.Condition()
        self._readers = [
            threading.Thread(target=self._drain_out, daemon=True),
            threading.Thread(target=self._drain_err, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _drain_out(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._lines:
                self.out.append(line.rstrip("\n"))
                self._lines.notify_all()
        self.proc.wait()
        self.exited_at = time.monotonic()
        with self._lines:
            self._lines.notify_all()

    def _drain_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.err.append(line.rstrip("\n"))

    def printed(self, timeout: float = 60.0) -> Printed:
        """Wait for the start-up lines (scoreboard, referee + token, journal)."""
        want = ("scoreboard:", "referee:", "journal:")
        with self._lines:
            ok = self._lines.wait_for(
                lambda: (
                    all(any(x.startswith(w) for x in self.out) for w in want)
                    or self.exited_at is not None
                ),
                timeout,
            )
            lines = {k: v.strip() for k, _, v in (ln.partition(":") for ln in self.out)}
        assert ok and all(w[:-1] in lines for w in want), self.diagnosis("no start-up lines")
        referee, _, token = lines["referee"].partition("(token ")
        return Printed(
            lines["scoreboard"], referee.strip(), token.rstrip(")"), Path(lines["journal"])
        )

    def wait(self, timeout: float) -> int:
        """The exit status, once every line it printed has been read."""
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(self.diagnosis(f"still running after {timeout:.0f} s")) from None
        for reader in self._readers:
            reader.join(10)
        return code

    def stop(self) -> None:
        """End the daemon (and so its simulator child) if a test left it running."""
        end_process(self.proc)

    def diagnosis(self, what: str) -> str:
        return (
            f"mjtable run: {what} (exit {self.proc.poll()})\n"
            + "\n".join(self.out[-20:])
            + "\n--- stderr ---\n"
            + "\n".join(list(self.err)[-40:])
        )


# --- the crawler --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """One HTTP answer as received."""

    t: float  # time.monotonic() when the body had been read
    path: str
    status: int
    content_type: str
    body: bytes


@dataclass(frozen=True, slots=True)
class StreamEvent:
    t: float  # time.monotonic() when the event's blank line arrived
    path: str
    name: str
    data: str
    id: str | None


POLLED = ("/api/public", "/api/broadcast")  # the data endpoints: polled all the time
PAGES = ("/", "/broadcast", "/referee/login")  # templates: must not change with the deal
GUARDED = ("/referee", "/referee/api/view", "/referee/events")  # 401 without the token
REFEREE_API = "/referee/api/view"
STREAMS = ("/events/public", "/events/broadcast")
POLL_EVERY_S = 0.2  # rate limit of the crawler on a 2-core machine the daemon shares


@dataclass
class Crawl:
    answers: list[Answer] = field(default_factory=list)
    events: list[StreamEvent] = field(default_factory=list)
    errors: list[tuple[float, str]] = field(default_factory=list)  # (when, what)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, item: Answer | StreamEvent) -> None:
        with self.lock:
            (self.answers if isinstance(item, Answer) else self.events).append(item)  # type: ignore[arg-type]


class Crawler:
    """Reads the public streams and polls the public endpoints until the server goes away."""

    def __init__(self, port: int, static: tuple[str, ...], token: str = "") -> None:
        self.port = port
        self.static = static
        self.token = token  # given: the referee's view is polled too (path "auth:…")
        self.crawl = Crawl()
        self.stop = threading.Event()
        self.threads = [
            threading.Thread(target=self._stream, args=(p,), daemon=True) for p in STREAMS
        ]
        self.threads.append(threading.Thread(target=self._poll, daemon=True))

    def start(self) -> Crawler:
        for t in self.threads:
            t.start()
        return self

    def join(self, timeout: float = 15.0) -> Crawl:
        self.stop.set()
        for t in self.threads:
            t.join(timeout)
        return self.crawl

    def get(self, path: str, method: str = "GET", headers: dict[str, str] | None = None) -> Answer:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, path, headers=headers or {})
            resp = conn.getresponse()
            body = resp.read()
            return Answer(
                time.monotonic(), path, resp.status, resp.getheader("Content-Type") or "", body
            )
        finally:
            conn.close()

    def fetch_static(self) -> dict[str, bytes]:
        """Pages, tile drawings and static files (the same bytes for the whole deal)."""
        out = {}
        for path in (*PAGES, *self.static):
            answer = self.get(path)
            assert answer.status == 200, (path, answer.status)
            out[path] = answer.body
        return out

    def _poll(self) -> None:
        rounds = 0
        while not self.stop.is_set():
            paths = list(POLLED)
            if rounds % 10 == 0:
                paths += [*PAGES, *GUARDED]
            if rounds % 25 == 12:  # tile drawings and static files, again mid-deal
                paths += self.static
            try:
                for path in paths:
                    self.crawl.add(self.get(path))
                if self.token:
                    bearer = {"Authorization": f"Bearer {self.token}"}
                    answer = self.get(REFEREE_API, headers=bearer)
                    self.crawl.add(replace(answer, path="auth:" + REFEREE_API))
                if rounds % 10 == 0:  # an action without credentials
                    json_type = {"Content-Type": "application/json"}
                    self.crawl.add(self.get("/referee/api/action", "POST", json_type))
            except OSError as err:
                self.crawl.errors.append((time.monotonic(), f"poll: {err!r}"))
                return  # the server is gone: the daemon has stopped
            rounds += 1
            self.stop.wait(POLL_EVERY_S)

    def _stream(self, path: str) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            conn.request("GET", path, headers={"Accept": "text/event-stream"})
            resp = conn.getresponse()
            if resp.status != 200:
                self.crawl.errors.append((time.monotonic(), f"{path}: HTTP {resp.status}"))
                return
            name, data, ident = "message", [], None
            while True:
                raw = resp.fp.readline()
                if not raw:
                    return  # the server ended the stream (daemon stopped)
                line = raw.decode("utf-8").rstrip("\n")
                if line == "":
                    if data:
                        event = StreamEvent(time.monotonic(), path, name, "\n".join(data), ident)
                        self.crawl.add(event)
                    name, data, ident = "message", [], None
                elif line.startswith(":"):
                    continue  # keepalive comment
                else:
                    key, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if key == "event":
                        name = value
                    elif key == "data":
                        data.append(value)
                    elif key == "id":
                        ident = value
        except OSError as err:
            self.crawl.errors.append((time.monotonic(), f"{path}: {err!r}"))
