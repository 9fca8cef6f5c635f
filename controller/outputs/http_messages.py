"""What the web server speaks: requests, responses, server-sent events and their channels.

Values and the fan-out of events; no sockets (controller/outputs/http_engine.py serves them,
controller/outputs/http.py routes them).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs

MAX_BODY = 64 * 1024  # referee forms and JSON actions are tiny; anything larger is refused
KEEPALIVE_S = 15.0  # an SSE comment line this often keeps proxies and dead-peer detection honest
SUBSCRIBER_BACKLOG = 256  # events queued for one slow client before it is dropped

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    (
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; form-action 'self'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)


class Method(Enum):
    GET = "GET"
    POST = "POST"


@dataclass(frozen=True, slots=True)
class Request:
    method: Method
    path: str  # decoded, without the query string
    query: tuple[tuple[str, str], ...]
    headers: tuple[tuple[str, str], ...]  # names lower-cased
    cookies: tuple[tuple[str, str], ...]
    body: bytes
    client: str  # peer address

    def header(self, name: str) -> str | None:
        key = name.lower()
        return next((v for k, v in self.headers if k == key), None)

    def cookie(self, name: str) -> str | None:
        return next((v for k, v in self.cookies if k == name), None)

    def param(self, name: str) -> str | None:
        return next((v for k, v in self.query if k == name), None)

    def json(self) -> Any:
        """The body as JSON; raises `ValueError` when it is not."""
        return json.loads(self.body.decode("utf-8"))

    def form(self) -> dict[str, str]:
        """An `application/x-www-form-urlencoded` body (first value of each field)."""
        fields = parse_qs(self.body.decode("utf-8", "replace"), keep_blank_values=True)
        return {k: v[0] for k, v in fields.items()}


@dataclass(frozen=True, slots=True)
class Response:
    status: HTTPStatus
    body: bytes = b""
    content_type: str = "text/plain; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def json(
        cls,
        value: Any,
        status: HTTPStatus = HTTPStatus.OK,
        headers: tuple[tuple[str, str], ...] = (),
    ) -> Response:
        body = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
        return cls(status, body, "application/json; charset=utf-8", headers)

    @classmethod
    def text(cls, text: str, status: HTTPStatus = HTTPStatus.OK) -> Response:
        return cls(status, text.encode())

    @classmethod
    def html(
        cls,
        html: str,
        status: HTTPStatus = HTTPStatus.OK,
        headers: tuple[tuple[str, str], ...] = (),
    ) -> Response:
        return cls(status, html.encode(), "text/html; charset=utf-8", headers)

    @classmethod
    def redirect(cls, location: str, headers: tuple[tuple[str, str], ...] = ()) -> Response:
        return cls(HTTPStatus.SEE_OTHER, b"", headers=(("Location", location), *headers))


@dataclass(frozen=True, slots=True)
class Event:
    """One server-sent event: `event: <name>` / `data: <data>` / `id: <id>`."""

    name: str
    data: str
    id: int | None = None

    def encode(self) -> bytes:
        lines = [f"event: {self.name}"]
        if self.id is not None:
            lines.append(f"id: {self.id}")
        lines += [f"data: {line}" for line in self.data.split("\n")]
        return ("\n".join(lines) + "\n\n").encode()


Sink = Callable[[bytes], int]
"""Writes what it can of the bytes to a client without waiting and says how many it took;
`BlockingIOError` when none fit (controller/outputs/http_engine.py: the stream's socket)."""


class Subscriber:
    """One connected client's events, written as they are published: by the publishing
    thread itself while the client keeps up (once its stream has a `sink`, nothing queued
    and no send under way), else queued, in order, for the stream's thread to send. A view
    reaches the board when the core publishes it, not when the stream's thread next holds
    the interpreter lock (the core is busy with the referee's view and the other outputs
    meanwhile, and `sys.getswitchinterval()` is 5 ms); a client behind (its socket full)
    costs the publisher one refused write, never a wait."""

    __slots__ = ("_sending", "_sink", "closed", "cond", "overflowed", "pending")

    def __init__(self) -> None:
        self.pending: deque[bytes] = deque()
        self.cond = threading.Condition()
        self.closed = False
        self.overflowed = False
        self._sink: Sink | None = None
        self._sending = False  # the stream's thread holds bytes taken and not yet sent

    def attach(self, sink: Sink) -> None:
        """Events pushed from now on may be written through `sink` by the pushing thread."""
        with self.cond:
            self._sink = sink

    def detach(self) -> None:
        """No more writes through the sink (its socket is about to close)."""
        with self.cond:
            self._sink = None

    def push(self, data: bytes) -> None:
        """One encoded event (`Event.encode`), written now or queued."""
        with self.cond:
            if self._sink is not None and not (self.pending or self._sending or self.closed):
                data = data[self._write(self._sink, data) :]
                if not data:
                    return
            if len(self.pending) >= SUBSCRIBER_BACKLOG:
                # A client this far behind is dropped; EventSource reconnects by itself and
                # gets the retained state again, which is all a scoreboard needs.
                self.overflowed = True
            else:
                self.pending.append(data)
            self.cond.notify()

    @staticmethod
    def _write(sink: Sink, data: bytes) -> int:
        try:
            return sink(data)
        except OSError:  # full (BlockingIOError), or gone: the stream's thread sends or ends
            return 0

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify()

    def take(self, timeout: float) -> bytes | None:
        """The bytes queued (b"" on timeout), or None once closed or overflowed. The caller
        sends them before it takes again: until then the pushing threads queue behind."""
        with self.cond:
            self._sending = False
            if not self.pending and not (self.closed or self.overflowed):
                self.cond.wait(timeout)
            if self.closed or self.overflowed:
                return None
            data = b"".join(self.pending)
            self.pending.clear()
            self._sending = True
            return data


class EventChannel:
    """Fans events out to every subscribed client.

    With `retain=True` (the default) the last event of each name is kept and sent first to
    a client that connects later, so a freshly loaded page shows the current state at once.
    """

    def __init__(self, *, retain: bool = True) -> None:
        self._lock = threading.Lock()
        self._subscribers: set[Subscriber] = set()
        self._retained: dict[str, Event] = {}
        self._retain = retain
        self._closed = False

    def publish(self, name: str, data: str, id: int | None = None) -> None:
        event = Event(name, data, id)
        encoded = event.encode()
        with self._lock:
            if self._retain:
                self._retained[name] = event
            subscribers = tuple(self._subscribers)
        for sub in subscribers:
            sub.push(encoded)

    def retained(self) -> tuple[Event, ...]:
        with self._lock:
            return tuple(self._retained.values())

    def forget(self) -> None:
        """Drop the retained events (e.g. when a new session starts)."""
        with self._lock:
            self._retained.clear()

    @property
    def subscriber_count(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def subscribe(self) -> Subscriber | None:
        """A new client's queue, holding the retained events already; None once closed.
        The client calls `unsubscribe` with it when its stream ends."""
        sub = Subscriber()
        with self._lock:
            if self._closed:
                return None
            self._subscribers.add(sub)
            for event in self._retained.values():
                sub.push(event.encode())
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            self._subscribers.discard(sub)

    def close(self) -> None:
        """Ends every open stream (used on shutdown)."""
        with self._lock:
            self._closed = True
            subscribers = tuple(self._subscribers)
            self._subscribers.clear()
        for sub in subscribers:
            sub.close()


@dataclass(frozen=True, slots=True)
class EventStream:
    """A handler's answer meaning: keep the connection open and stream `channel`."""

    channel: EventChannel
    headers: tuple[tuple[str, str], ...] = ()
