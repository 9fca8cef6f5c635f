"""The web server's connections: one selector thread, a bounded pool of workers, capped
event streams, timeouts. Requests in, `Request` values to a handler, `Response`s out.

    accept ──► selector thread ──(a whole request head)──► worker pool (`workers` threads)
                 ▲  holds idle and half-sent connections         │ answer, write
                 └──────────── kept alive ◄──────────────────────┤
                                                                 └─► stream thread (SSE),
                                                                     at most `streams`

An event stream's events are written by the thread that publishes them while its client
keeps up; its thread sends the retained state, what a client behind left queued, and the
keepalives (controller/outputs/http_messages.py `Subscriber`).

An idle connection costs a file descriptor and a slot in the selector, never a thread, so
a few hundred idle browsers (or a port scan) do not starve the scoreboard. Limits
(`ServerLimits`): at most `connections` open (one more is answered 503 and closed); a
request head must arrive within `header_timeout` of its first byte (of the connection's
opening for a new one; 408 and closed otherwise); a kept-alive connection waits
`idle_timeout` for its next request. A request target that does not decode (`%00`, bad
UTF-8, control characters) is a 400; targets are logged escaped (`%r`).

`email` (headers, the Date line) and `http.cookies` are imported at the first request, not
with the daemon (start-up and ~1.2 MB of resident memory for a table nobody browses).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import selectors
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, unquote, urlsplit

from controller.errors import TableError
from controller.outputs.http_messages import (
    KEEPALIVE_S,
    MAX_BODY,
    SECURITY_HEADERS,
    EventStream,
    Method,
    Request,
    Response,
)

if TYPE_CHECKING:
    import email.message

log = logging.getLogger(__name__)

Answer = Callable[[Request], Response | EventStream]


@dataclass(frozen=True, slots=True)
class ServerLimits:
    workers: int = field(default=8, metadata={"range": (1, 64)})  # threads answering requests
    streams: int = field(default=64, metadata={"range": (0, 1024)})  # open event streams
    connections: int = field(default=512, metadata={"range": (1, 10_000)})  # open sockets
    header_timeout: float = 10.0  # seconds for a request head (and its body) to arrive
    idle_timeout: float = 30.0  # seconds a kept-alive connection waits for its next request
    max_head: int = 16 * 1024  # bytes of request line and headers

    def __post_init__(self) -> None:
        if self.workers < 1 or self.streams < 0 or self.connections < 1:
            raise ValueError("workers and connections are at least 1, streams at least 0")
        if not (self.header_timeout > 0 and self.idle_timeout > 0):
            raise ValueError("the timeouts are more than 0 seconds")


class _Conn:
    """One client connection and the bytes read from it not yet used."""

    __slots__ = ("addr", "buf", "deadline", "sock")

    def __init__(self, sock: socket.socket, addr: str, deadline: float) -> None:
        self.sock = sock
        self.addr = addr
        self.buf = bytearray()
        self.deadline = deadline

    def head_complete(self) -> bool:
        return b"\r\n\r\n" in self.buf


class _BadRequest(TableError):
    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


class Engine:
    """Serves `answer` on (host, port) until `close()`."""

    def __init__(self, host: str, port: int, answer: Answer, limits: ServerLimits) -> None:
        self.limits = limits
        self._answer = answer
        try:
            self._listener = socket.create_server((host, port), backlog=128)
        except OSError as err:  # the port is taken, the address is not this machine's, ...
            where = f"{host}:{port}"
            raise OSError(err.errno, f"cannot listen on {where}: {err.strerror or err}") from err
        self._listener.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._returned: queue.SimpleQueue[_Conn] = queue.SimpleQueue()
        self._work: queue.SimpleQueue[_Conn | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._open = 0  # connections open, wherever they are
        self._streams: set[threading.Thread] = set()
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []

    @property
    def address(self) -> tuple[str, int]:
        host, port = self._listener.getsockname()[:2]
        return str(host), int(port)

    @property
    def open_connections(self) -> int:
        with self._lock:
            return self._open

    def start(self) -> None:
        self._selector.register(self._listener, selectors.EVENT_READ)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        loop = threading.Thread(target=self._loop, name="mjtable-http", daemon=True)
        self._threads.append(loop)
        for i in range(self.limits.workers):
            worker = threading.Thread(target=self._worker, name=f"mjtable-http-{i}", daemon=True)
            self._threads.append(worker)
        for thread in self._threads:
            thread.start()

    def close(self) -> None:
        self._stopping.set()
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")
        for _ in range(self.limits.workers):
            self._work.put(None)
        for thread in self._threads:
            thread.join(timeout=5)
        with self._lock:
            streams = tuple(self._streams)
        for thread in streams:  # their channels were closed by the caller: they end
            thread.join(timeout=5)
        self._wake_r.close()
        self._wake_w.close()

    # --- the selector thread ---------------------------------------------------------------

    def _loop(self) -> None:
        held: dict[socket.socket, _Conn] = {}
        try:
            while not self._stopping.is_set():
                now = time.monotonic()
                soonest = min((c.deadline for c in held.values()), default=now + 1.0)
                for key, _ in self._selector.select(max(0.0, min(soonest - now, 1.0))):
                    if key.fileobj is self._listener:
                        self._accept(held)
                    elif key.fileobj is self._wake_r:
                        with contextlib.suppress(OSError):
                            self._wake_r.recv(4096)
                    else:
                        self._read(held[key.fileobj], held)  # type: ignore[index]  # the other keys are clients' sockets
                while not self._returned.empty():
                    conn = self._returned.get()
                    held[conn.sock] = conn
                    self._selector.register(conn.sock, selectors.EVENT_READ)
                self._expire(held, time.monotonic())
        finally:
            for conn in tuple(held.values()):
                self._drop(conn, held)
            self._selector.close()
            self._listener.close()

    def _accept(self, held: dict[socket.socket, _Conn]) -> None:
        while True:
            try:
                sock, addr = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as err:  # out of file descriptors: the next select retries
                log.warning("web server: accept failed: %s", err)
                return
            with self._lock:
                full = self._open >= self.limits.connections
                if not full:
                    self._open += 1
            if full:
                _refuse(sock, HTTPStatus.SERVICE_UNAVAILABLE, "too many connections")
                continue
            sock.setblocking(False)
            conn = _Conn(sock, str(addr[0]), time.monotonic() + self.limits.header_timeout)
            held[sock] = conn
            self._selector.register(sock, selectors.EVENT_READ)

    def _read(self, conn: _Conn, held: dict[socket.socket, _Conn]) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._drop(conn, held)
            return
        if not conn.buf:  # the first byte of a request: its head has header_timeout to come
            conn.deadline = time.monotonic() + self.limits.header_timeout
        conn.buf += data
        if conn.head_complete():
            self._selector.unregister(conn.sock)
            del held[conn.sock]
            self._work.put(conn)
        elif len(conn.buf) > self.limits.max_head:
            self._drop(conn, held, (HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "head too large"))

    def _expire(self, held: dict[socket.socket, _Conn], now: float) -> None:
        for conn in [c for c in held.values() if c.deadline <= now]:
            if conn.buf:  # half a request: say why it is closed
                log.debug("%s: request head not complete in time, closed", conn.addr)
                self._drop(conn, held, (HTTPStatus.REQUEST_TIMEOUT, "request head not complete"))
            else:
                self._drop(conn, held)

    def _drop(
        self,
        conn: _Conn,
        held: dict[socket.socket, _Conn],
        why: tuple[HTTPStatus, str] | None = None,
    ) -> None:
        """Forget and close a held connection, answering `why` first when given."""
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(conn.sock)
        held.pop(conn.sock, None)
        if why is None:
            conn.sock.close()
        else:
            _refuse(conn.sock, *why)
        self._closed()

    def _closed(self) -> None:
        with self._lock:
            self._open -= 1

    # --- workers ---------------------------------------------------------------------------

    def _worker(self) -> None:
        while (conn := self._work.get()) is not None:
            try:
                keep = self._serve(conn)
            except Exception:  # a bug here must not kill the worker: log it, drop the client
                log.exception("web server: request from %s failed", conn.addr)
                keep = False
            if keep is None:
                continue  # an event stream owns the connection now
            if keep and not self._stopping.is_set():
                conn.deadline = time.monotonic() + self.limits.idle_timeout
                if conn.head_complete():
                    self._work.put(conn)  # a pipelined request is already here
                else:
                    conn.sock.setblocking(False)
                    self._returned.put(conn)
                    with contextlib.suppress(OSError):
                        self._wake_w.send(b"x")
            else:
                conn.sock.close()
                self._closed()

    def _serve(self, conn: _Conn) -> bool | None:
        """Answer one request; True to keep the connection, None when a stream took it."""
        conn.sock.setblocking(True)
        conn.sock.settimeout(self.limits.header_timeout)
        try:
            request, keep, target = self._parse(conn)
        except _BadRequest as err:
            _send(conn.sock, Response.text(str(err), err.status), keep=False)
            return False
        except (TimeoutError, OSError):
            return False  # the body did not come, or the client went away
        try:
            answer = self._answer(request)
        except Exception:
            log.exception("handler failed for %s %r", request.method.value, target)
            answer = Response.text("internal error", HTTPStatus.INTERNAL_SERVER_ERROR)
        log.debug("%s %s %r", conn.addr, request.method.value, target)
        if isinstance(answer, EventStream):
            return self._start_stream(conn, answer)
        return _send(conn.sock, answer, keep) and keep

    def _parse(self, conn: _Conn) -> tuple[Request, bool, str]:
        head, _, rest = bytes(conn.buf).partition(b"\r\n\r\n")
        line, _, fields = head.partition(b"\r\n")
        parts = line.decode("latin-1").split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            raise _BadRequest(HTTPStatus.BAD_REQUEST, "bad request line")
        verb, target, version = parts
        headers = _parse_headers(fields)
        connection = (headers.get("Connection") or "").lower()
        keep = "close" not in connection and (version == "HTTP/1.1" or "keep-alive" in connection)
        try:
            method = Method(verb)
        except ValueError:
            raise _BadRequest(HTTPStatus.NOT_IMPLEMENTED, f"method {verb!r} not served") from None
        if headers.get("Transfer-Encoding"):
            raise _BadRequest(HTTPStatus.LENGTH_REQUIRED, "a body needs a Content-Length")
        try:
            length = int(headers.get("Content-Length") or 0)
        except ValueError:
            raise _BadRequest(HTTPStatus.BAD_REQUEST, "bad Content-Length") from None
        if length > MAX_BODY or length < 0:
            raise _BadRequest(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request body too large")
        path, query = _decode_target(target)
        body = bytearray(rest[:length])
        while len(body) < length:
            chunk = conn.sock.recv(min(65536, length - len(body)))
            if not chunk:
                raise OSError("the client closed during the body")
            body += chunk
        conn.buf = bytearray(rest[length:])
        request = Request(
            method=method,
            path=path,
            query=query,
            headers=tuple((k.lower(), v) for k, v in headers.items()),
            cookies=_parse_cookies(headers.get("Cookie")),
            body=bytes(body),
            client=conn.addr,
        )
        return request, keep, target

    # --- event streams ---------------------------------------------------------------------

    def _start_stream(self, conn: _Conn, stream: EventStream) -> bool | None:
        with self._lock:
            if len(self._streams) >= self.limits.streams or self._stopping.is_set():
                busy = Response.text("too many event streams", HTTPStatus.SERVICE_UNAVAILABLE)
                _send(conn.sock, busy, keep=False)
                return False
            thread = threading.Thread(
                target=self._stream, args=(conn, stream), name="mjtable-sse", daemon=True
            )
            self._streams.add(thread)
        thread.start()
        return None

    def _stream(self, conn: _Conn, stream: EventStream) -> None:
        try:
            _stream_events(conn.sock, stream)  # closes the socket
        finally:
            self._closed()
            with self._lock:
                self._streams.discard(threading.current_thread())


def _decode_target(target: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The decoded path and the query of a request target; 400 when it does not decode."""
    if not target.startswith("/"):
        raise _BadRequest(HTTPStatus.BAD_REQUEST, "the target is not a path")
    parts = urlsplit(target)
    try:
        path = unquote(parts.path, errors="strict")
        query = tuple(
            (k, v)
            for k, vs in parse_qs(parts.query, keep_blank_values=True, errors="strict").items()
            for v in vs
        )
    except UnicodeDecodeError:
        raise _BadRequest(HTTPStatus.BAD_REQUEST, "the target is not UTF-8") from None
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in path):
        raise _BadRequest(HTTPStatus.BAD_REQUEST, "control characters in the path")
    return path, query


def _parse_cookies(raw: str | None) -> tuple[tuple[str, str], ...]:
    if not raw:
        return ()
    from http.cookies import CookieError, SimpleCookie

    jar = SimpleCookie()
    try:
        jar.load(raw)
    except CookieError:
        return ()
    return tuple((k, m.value) for k, m in jar.items())


_MAX_HEADERS = 100  # lines, the blank one included, as http.client: more is a bad request


def _parse_headers(fields: bytes) -> email.message.Message:
    """The request's header fields, as `http.client.parse_headers` reads them (RFC 5322 with
    ISO-8859-1), without importing http.client (and with it ssl and OpenSSL's libssl: 1.5 MB
    of the daemon's resident memory)."""
    if fields.count(b"\r\n") + 2 > _MAX_HEADERS:  # its lines and the blank one, as http.client
        raise _BadRequest(HTTPStatus.BAD_REQUEST, "bad headers")
    import email.parser

    return email.parser.HeaderParser().parsestr(fields.decode("iso-8859-1") + "\r\n\r\n")


def _head(status: HTTPStatus, headers: list[tuple[str, str]]) -> bytes:
    import email.utils

    lines = [f"HTTP/1.1 {status.value} {status.phrase}"]
    lines.append(f"Date: {email.utils.formatdate(usegmt=True)}")
    lines.append("Server: mjtable")
    lines += [f"{k}: {v}" for k, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _send(sock: socket.socket, response: Response, keep: bool) -> bool:
    """Write `response`; False when the client is gone."""
    headers = [
        ("Content-Type", response.content_type),
        ("Content-Length", str(len(response.body))),
    ]
    own = {k.lower() for k, _ in response.headers}
    if "cache-control" not in own:
        headers.append(("Cache-Control", "no-store"))
    # a response may widen a security header (the hub's viewer page connects to its broker)
    headers += [h for h in SECURITY_HEADERS if h[0].lower() not in own]
    headers += response.headers
    if not keep:
        headers.append(("Connection", "close"))
    try:
        sock.sendall(_head(response.status, headers) + response.body)
    except OSError:
        return False
    return True


def _refuse(sock: socket.socket, status: HTTPStatus, message: str) -> None:
    """A short answer on a connection the selector gives up on, then close it."""
    body = message.encode()
    head = _head(
        status,
        [
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
        ],
    )
    with contextlib.suppress(OSError):
        sock.setblocking(False)
        sock.send(head + body)  # fits any fresh socket buffer; not waited for
    sock.close()


def _stream_events(sock: socket.socket, stream: EventStream) -> None:
    """Serve `stream` on `sock` until the client or the channel ends it, then close `sock`.

    Publishers write to the socket's descriptor number (the sink), so the socket is closed
    here and nowhere else, and only once the sink is detached: `detach` waits for a write
    under way, and no write starts after it. Closed anywhere else first, the number could
    be reused by a file or a client opened meanwhile, and a publisher would write the
    board's events into it.
    """
    sub = stream.channel.subscribe()
    if sub is None:
        _send(sock, Response.text("shutting down", HTTPStatus.SERVICE_UNAVAILABLE), keep=False)
        sock.close()
        return
    try:
        headers = [
            ("Content-Type", "text/event-stream; charset=utf-8"),
            ("Cache-Control", "no-store"),
            ("X-Accel-Buffering", "no"),
            *SECURITY_HEADERS,
            *stream.headers,
            ("Connection", "close"),
        ]
        sock.settimeout(KEEPALIVE_S)  # a browser that stops reading is dropped
        sock.sendall(_head(HTTPStatus.OK, headers) + b"retry: 2000\n\n")
        # a socket with a timeout is non-blocking underneath (the socket module's notes on
        # timeouts): os.write takes what fits and never waits, as a publisher's write must
        fd = sock.fileno()
        sub.attach(lambda data: os.write(fd, data))
        while True:
            data = sub.take(KEEPALIVE_S)
            if data is None:
                break
            sock.sendall(data or b": keepalive\n\n")
    except OSError:
        pass  # the browser went away: normal for a stream
    finally:
        sub.detach()  # before the socket closes: its descriptor may be reused at once
        stream.channel.unsubscribe(sub)
        sock.close()
