"""A small HTTP server for the daemon's pages: routes, static files, server-sent events.

Built on the standard library (controller/outputs/http_engine.py: a selector thread and a
bounded pool of workers, with timeouts and a connection cap), light enough for a Raspberry
Pi and needing no dependency; the values it speaks are in http_messages.py. A handler takes a `Request` and
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

import json
import logging
import mimetypes
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any

from controller.outputs.http_engine import Engine, ServerLimits
from controller.outputs.http_messages import (
    KEEPALIVE_S,
    MAX_BODY,
    SECURITY_HEADERS,
    SUBSCRIBER_BACKLOG,
    Event,
    EventChannel,
    EventStream,
    Method,
    Request,
    Response,
)

__all__ = [
    "KEEPALIVE_S",
    "LOOPBACK",
    "MAX_BODY",
    "SECURITY_HEADERS",
    "SUBSCRIBER_BACKLOG",
    "Event",
    "EventChannel",
    "EventStream",
    "Method",
    "Request",
    "Response",
    "RouteInfo",
    "ServerLimits",
    "WebServer",
    "json_event",
]

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"


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
    """Routes, static directories and SSE, served by `http_engine.Engine` (one selector
    thread, `limits.workers` request threads, at most `limits.streams` event streams)."""

    def __init__(
        self, host: str = LOOPBACK, port: int = 0, limits: ServerLimits | None = None
    ) -> None:
        self._host = host
        self._port = port
        self.limits = limits or ServerLimits()
        self._registry = _Registry()
        self._engine: Engine | None = None

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
        """Listen and serve on threads of its own; OSError naming HOST:PORT if it cannot."""
        self._engine = Engine(self._host, self._port, self._answer, self.limits)
        self._engine.start()
        log.info("web server on %s", self.url)

    @property
    def address(self) -> tuple[str, int]:
        if self._engine is None:
            raise RuntimeError("the server is not started")
        return self._engine.address

    @property
    def port(self) -> int:
        return self.address[1]

    @property
    def connections(self) -> int:
        """Client connections open now (idle, answering or streaming)."""
        return 0 if self._engine is None else self._engine.open_connections

    @property
    def url(self) -> str:
        host, port = self.address
        return f"http://{host}:{port}"

    def close(self) -> None:
        """Idempotent: stop accepting, end every event stream, release the port."""
        for channel in tuple(self._registry.channels):
            channel.close()
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    def __enter__(self) -> WebServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _answer(self, request: Request) -> Response | EventStream:
        answer = self._route(request)
        if isinstance(answer, EventStream):
            self._registry.channels.add(answer.channel)
        return answer

    def _route(self, request: Request) -> Response | EventStream:
        allowed: set[Method] = set()
        for route in self._registry.routes:
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
            for static in self._registry.statics:
                if request.path.startswith(static.prefix):
                    return _static_file(static, request.path[len(static.prefix) :])
        return Response.text("not found", HTTPStatus.NOT_FOUND)


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
