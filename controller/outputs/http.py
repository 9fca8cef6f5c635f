"""A small HTTP server for the daemon's pages: routes, static files, server-sent events.

Built on the standard library (`ThreadingHTTPServer`, one thread per connection), which is
light enough for a Raspberry Pi and needs no dependency. A handler takes a `Request` and
returns a `Response`, or an `EventStream` to keep the connection open and push server-sent
events (SSE) from an `EventChannel` to the browser.

    server = WebServer()                      # 127.0.0.1, a free port
    server.route("GET", "/api/state", lambda req: Response.json({"ok": True}))
    feed = EventChannel()
    server.route("GET", "/events", lambda req: EventStream(feed))
    server.static("/static/", Path("controller/web"))
    server.start()                            # serves on a thread; server.url
    feed.publish("state", '{"ok": true}')     # every connected browser gets it
    server.close()

The server binds to 127.0.0.1 unless another host is passed explicitly (DESIGN.md: the
referee view is reachable from elsewhere only by choice). Every response carries a strict
Content-Security-Policy (`default-src 'self'`): pages load nothing from outside the Pi.
"""

from __future__ import annotations

import contextlib
import json
import logging
import mimetypes
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
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


class _Subscriber:
    """One connected client's queue of pending events."""

    __slots__ = ("closed", "cond", "overflowed", "pending")

    def __init__(self) -> None:
        self.pending: deque[Event] = deque()
        self.cond = threading.Condition()
        self.closed = False
        self.overflowed = False

    def push(self, event: Event) -> None:
        with self.cond:
            if len(self.pending) >= SUBSCRIBER_BACKLOG:
                # A client this far behind is dropped; EventSource reconnects by itself and
                # gets the retained state again, which is all a scoreboard needs.
                self.overflowed = True
            else:
                self.pending.append(event)
            self.cond.notify()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify()

    def take(self, timeout: float) -> list[Event] | None:
        """Pending events ([] on timeout), or None once closed or overflowed."""
        with self.cond:
            if not self.pending and not (self.closed or self.overflowed):
                self.cond.wait(timeout)
            if self.closed or self.overflowed:
                return None
            events = list(self.pending)
            self.pending.clear()
            return events


class EventChannel:
    """Fans events out to every subscribed client.

    With `retain=True` (the default) the last event of each name is kept and sent first to
    a client that connects later, so a freshly loaded page shows the current state at once.
    """

    def __init__(self, *, retain: bool = True) -> None:
        self._lock = threading.Lock()
        self._subscribers: set[_Subscriber] = set()
        self._retained: dict[str, Event] = {}
        self._retain = retain
        self._closed = False

    def publish(self, name: str, data: str, id: int | None = None) -> None:
        event = Event(name, data, id)
        with self._lock:
            if self._retain:
                self._retained[name] = event
            subscribers = tuple(self._subscribers)
        for sub in subscribers:
            sub.push(event)

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

    def _subscribe(self) -> _Subscriber | None:
        sub = _Subscriber()
        with self._lock:
            if self._closed:
                return None
            self._subscribers.add(sub)
            for event in self._retained.values():
                sub.push(event)
        return sub

    def _unsubscribe(self, sub: _Subscriber) -> None:
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


Handler = Callable[[Request], Response | EventStream]


@dataclass(frozen=True, slots=True)
class _Route:
    method: Method
    path: str
    handler: Handler
    prefix: bool


@dataclass(frozen=True, slots=True)
class RouteInfo:
    """What `WebServer.routes()` tells about a route (tests crawl these)."""

    method: Method
    path: str
    prefix: bool


@dataclass(slots=True)
class _Static:
    prefix: str
    root: Path
    cache_s: int


@dataclass(slots=True)
class _Registry:
    routes: list[_Route] = field(default_factory=list)
    statics: list[_Static] = field(default_factory=list)
    channels: set[EventChannel] = field(default_factory=set)


class WebServer:
    """Routes, static directories and SSE on a `ThreadingHTTPServer` thread."""

    def __init__(self, host: str = LOOPBACK, port: int = 0) -> None:
        self._host = host
        self._port = port
        self._registry = _Registry()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- configuration -------------------------------------------------------------------

    def route(self, method: str | Method, path: str, handler: Handler, *, prefix: bool = False):
        """Serve `path` (or every path under it with `prefix=True`) with `handler`."""
        self._registry.routes.append(_Route(Method(method), path, handler, prefix))

    def static(self, prefix: str, root: Path, *, cache_s: int = 0) -> None:
        """Serve the files under `root` at `prefix` (e.g. "/static/"); no directory listing."""
        if not prefix.endswith("/"):
            raise ValueError(f"a static prefix ends with '/': {prefix!r}")
        self._registry.statics.append(_Static(prefix, root.resolve(), cache_s))

    def routes(self) -> tuple[RouteInfo, ...]:
        return tuple(RouteInfo(r.method, r.path, r.prefix) for r in self._registry.routes)

    # --- running -------------------------------------------------------------------------

    def start(self) -> None:
        registry = self._registry

        class _Handler(_RequestHandler):
            pass

        _Handler.registry = registry
        try:
            self._httpd = ThreadingHTTPServer((self._host, self._port), _Handler)
        except OSError as err:  # the port is taken, the address is not this machine's, ...
            where = f"{self._host}:{self._port}"
            raise OSError(err.errno, f"cannot listen on {where}: {err.strerror or err}") from err
        self._httpd.daemon_threads = True
        # A short poll interval keeps close() quick; the idle cost is negligible on a Pi.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.05,), name="mjtable-http", daemon=True
        )
        self._thread.start()
        log.info("web server on %s", self.url)

    @property
    def address(self) -> tuple[str, int]:
        if self._httpd is None:
            raise RuntimeError("the server is not started")
        host, port = self._httpd.server_address[:2]
        return str(host), int(port)

    @property
    def port(self) -> int:
        return self.address[1]

    @property
    def url(self) -> str:
        host, port = self.address
        return f"http://{host}:{port}"

    def close(self) -> None:
        """Idempotent: stop accepting, end every event stream, release the port."""
        for channel in tuple(self._registry.channels):
            channel.close()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> WebServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _parse_cookies(raw: str | None) -> tuple[tuple[str, str], ...]:
    if not raw:
        return ()
    jar = SimpleCookie()
    try:
        jar.load(raw)
    except CookieError:
        return ()
    return tuple((k, m.value) for k, m in jar.items())


class _RequestHandler(BaseHTTPRequestHandler):
    registry: _Registry
    server_version = "mjtable"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.client_address[0], *args)

    def do_GET(self) -> None:
        self._dispatch(Method.GET)

    def do_POST(self) -> None:
        self._dispatch(Method.POST)

    def _dispatch(self, method: Method) -> None:
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            self._send(Response.text("bad Content-Length", HTTPStatus.BAD_REQUEST))
            return
        if length > MAX_BODY or length < 0:
            self._send(Response.text("request body too large", HTTPStatus.REQUEST_ENTITY_TOO_LARGE))
            return
        body = self.rfile.read(length) if length else b""
        request = Request(
            method=method,
            path=path,
            query=tuple(
                (k, v)
                for k, vs in parse_qs(parts.query, keep_blank_values=True).items()
                for v in vs
            ),
            headers=tuple((k.lower(), v) for k, v in self.headers.items()),
            cookies=_parse_cookies(self.headers.get("Cookie")),
            body=body,
            client=str(self.client_address[0]),
        )
        try:
            answer = self._answer(request)
        except Exception:
            log.exception("handler failed for %s %s", method.value, path)
            answer = Response.text("internal error", HTTPStatus.INTERNAL_SERVER_ERROR)
        if isinstance(answer, EventStream):
            self._stream(answer)
        else:
            self._send(answer, head_only=False)

    def _answer(self, request: Request) -> Response | EventStream:
        allowed: set[Method] = set()
        for route in self.registry.routes:
            hit = (
                request.path.startswith(route.path) if route.prefix else request.path == route.path
            )
            if hit:
                if route.method is request.method:
                    return route.handler(request)
                allowed.add(route.method)
        if allowed:
            return Response(
                HTTPStatus.METHOD_NOT_ALLOWED,
                b"method not allowed",
                headers=(("Allow", ", ".join(sorted(m.value for m in allowed))),),
            )
        if request.method is Method.GET:
            for static in self.registry.statics:
                if request.path.startswith(static.prefix):
                    return _static_file(static, request.path[len(static.prefix) :])
        return Response.text("not found", HTTPStatus.NOT_FOUND)

    def _send(self, response: Response, head_only: bool = False) -> None:
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        names = {k.lower() for k, _ in response.headers}
        if "cache-control" not in names:
            self.send_header("Cache-Control", "no-store")
        for name, value in (*SECURITY_HEADERS, *response.headers):
            self.send_header(name, value)
        self.end_headers()
        if not head_only:
            with contextlib.suppress(OSError):
                self.wfile.write(response.body)

    def _stream(self, stream: EventStream) -> None:
        self.registry.channels.add(stream.channel)
        sub = stream.channel._subscribe()
        if sub is None:
            self._send(Response.text("shutting down", HTTPStatus.SERVICE_UNAVAILABLE))
            return
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Accel-Buffering", "no")
            for name, value in (*SECURITY_HEADERS, *stream.headers):
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(b"retry: 2000\n\n")
            self.wfile.flush()
            while True:
                events = sub.take(KEEPALIVE_S)
                if events is None:
                    break
                payload = b"".join(e.encode() for e in events) if events else b": keepalive\n\n"
                self.wfile.write(payload)
                self.wfile.flush()
        except OSError:
            pass  # the browser went away: normal for a stream
        finally:
            stream.channel._unsubscribe(sub)
        self.close_connection = True


_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json; charset=utf-8",
    ".png": "image/png",
    ".ico": "image/x-icon",
}


def _static_file(static: _Static, rel: str) -> Response:
    # Resolve and check containment: no "..", no symlink escaping the web directory.
    target = (static.root / rel).resolve()
    if not target.is_relative_to(static.root) or not target.is_file():
        return Response.text("not found", HTTPStatus.NOT_FOUND)
    kind = _TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0]
    cache = f"max-age={static.cache_s}" if static.cache_s else "no-cache"
    return Response(
        HTTPStatus.OK,
        target.read_bytes(),
        kind or "application/octet-stream",
        (("Cache-Control", cache),),
    )


def json_event(channel: EventChannel, name: str, value: Mapping[str, Any] | Iterable[Any]) -> None:
    """Publish `value` as one JSON event."""
    channel.publish(name, json.dumps(value, separators=(",", ":"), ensure_ascii=False))
