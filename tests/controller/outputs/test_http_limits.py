"""The web server under idle, half-sent and malformed connections (issue 15), on real
sockets to 127.0.0.1: bounded threads, a connection cap, header and idle timeouts, 400s.

Timeouts are configured short (`ServerLimits`); waits are bounded by generous socket
timeouts, never asserted as durations.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from http import HTTPStatus

import pytest
from outputs_client import fetch

from controller.outputs.http import Response, ServerLimits, WebServer
from controller.outputs.scoreboard import Scoreboard

PATIENCE = 20.0  # seconds a client waits for the server before the test fails


def wait_until(condition, what: str) -> None:
    done = threading.Event()
    for _ in range(int(PATIENCE / 0.01)):
        if condition():
            return
        done.wait(0.01)
    raise AssertionError(f"not within {PATIENCE} s: {what}")


def connect(server: WebServer) -> socket.socket:
    return socket.create_connection(server.address, timeout=PATIENCE)


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    out = bytearray()
    while chunk := sock.recv(65536):
        out += chunk
    return bytes(out)


@pytest.fixture
def scoreboard_server() -> Iterator[WebServer]:
    server = WebServer()
    Scoreboard(referee_token="a-long-token").mount(server)
    server.start()
    yield server
    server.close()


def test_300_idle_connections_neither_block_nor_cost_threads(scoreboard_server) -> None:
    server = scoreboard_server
    before = threading.active_count()
    with ExitStack() as stack:
        idle = [stack.enter_context(connect(server)) for _ in range(300)]
        wait_until(lambda: server.connections == 300, "300 connections accepted")
        reply = fetch(server.url, "/api/public", timeout=PATIENCE)
        assert reply.status == 200 and reply.json() is not None
        assert threading.active_count() == before  # no thread per connection
        # an idle client that speaks at last is answered too
        idle[0].sendall(b"GET /api/public HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        assert read_all(idle[0]).startswith(b"HTTP/1.1 200 OK\r\n")


def test_server_threads_are_bounded_by_the_limits() -> None:
    before = threading.active_count()
    server = WebServer(limits=ServerLimits(workers=3, streams=0))
    server.start()
    try:
        assert threading.active_count() - before == 1 + 3
    finally:
        server.close()
    assert threading.active_count() == before


def test_a_connection_over_the_cap_gets_503() -> None:
    server = WebServer(limits=ServerLimits(connections=3))
    server.route("GET", "/ok", lambda req: Response.text("ok"))
    server.start()
    try:
        with ExitStack() as stack:
            for _ in range(3):
                stack.enter_context(connect(server))
            wait_until(lambda: server.connections == 3, "3 connections accepted")
            with connect(server) as extra:
                assert read_all(extra).startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
        wait_until(lambda: server.connections == 0, "the idle ones closed by their clients")
        assert fetch(server.url, "/ok", timeout=PATIENCE).text == "ok"
    finally:
        server.close()


@pytest.mark.parametrize(
    "target", ["/static/%00", "/api/public%00", "/%ff", "/a%0d%0aSet-Cookie:%20x", "nothing"]
)
def test_malformed_targets_are_400_without_a_traceback(scoreboard_server, target, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    with connect(scoreboard_server) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
        reply = read_all(sock)
    assert reply.startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert b"Connection: close" in reply
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert fetch(scoreboard_server.url, "/api/public").status == 200


@pytest.mark.parametrize("fields", [99, 100, 101])
def test_more_than_99_header_fields_are_400_as_http_client_had_it(scoreboard_server, fields):
    """The headers are parsed without http.client (issue 17: its ssl import cost 1.5 MB of
    resident memory); its limit of 100 header lines, the blank one included, stays."""
    lines = "".join(f"X-F{i}: {i}\r\n" for i in range(fields - 2))  # with Host and Connection
    with connect(scoreboard_server) as sock:
        sock.sendall(
            f"GET /api/public HTTP/1.1\r\nHost: t\r\n{lines}Connection: close\r\n\r\n".encode()
        )
        reply = read_all(sock)
    status = b"400 Bad Request" if fields > 99 else b"200 OK"  # the blank line is the 100th
    assert reply.startswith(b"HTTP/1.1 " + status + b"\r\n")


def test_request_targets_are_logged_escaped(scoreboard_server, caplog) -> None:
    caplog.set_level(logging.DEBUG, logger="controller.outputs.http_engine")
    reply = fetch(scoreboard_server.url, "/nothing-here?x=%1b[31m")
    assert reply.status == HTTPStatus.NOT_FOUND
    (line,) = [r.getMessage() for r in caplog.records if "nothing-here" in r.getMessage()]
    assert line.endswith("GET '/nothing-here?x=%1b[31m'") and "\x1b" not in line


def test_an_incomplete_request_is_closed_after_the_header_timeout() -> None:
    server = WebServer(limits=ServerLimits(header_timeout=0.3))
    server.start()
    try:
        with connect(server) as sock:
            sock.sendall(b"GET /api/public HTTP/1.1\r\nHost: t\r\n")  # no blank line: never ends
            reply = read_all(sock)  # returns only because the server closed
        assert reply.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
        with connect(server) as silent:  # a connection that never says anything
            assert read_all(silent) == b""
        wait_until(lambda: server.connections == 0, "both connections closed")
    finally:
        server.close()


def test_a_kept_alive_connection_is_closed_after_the_idle_timeout() -> None:
    server = WebServer(limits=ServerLimits(idle_timeout=0.3, header_timeout=30.0))
    server.route("GET", "/ok", lambda req: Response.text("ok"))
    server.start()
    try:
        with connect(server) as sock:
            request = b"GET /ok HTTP/1.1\r\nHost: t\r\n\r\n"
            sock.sendall(request + request)  # two pipelined requests, then silence
            reply = read_all(sock)
        assert reply.count(b"HTTP/1.1 200 OK\r\n") == 2 and reply.endswith(b"ok")
    finally:
        server.close()
