"""The generic web server: routes, static files, limits, server-sent events (real sockets)."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from http import HTTPStatus
from pathlib import Path

import pytest
from outputs_client import SseReader, fetch

from controller.outputs.http import (
    MAX_BODY,
    SUBSCRIBER_BACKLOG,
    Event,
    EventChannel,
    EventStream,
    Response,
    WebServer,
)


@pytest.fixture
def web(tmp_path: Path):
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "page.html").write_text("<p>hello</p>")
    (tmp_path / "secret.txt").write_text("outside the web root")
    server = WebServer()
    server.static("/static/", tmp_path / "web")
    yield server
    server.close()


def test_binds_loopback_by_default(web: WebServer):
    web.start()
    assert web.address[0] == "127.0.0.1"
    assert web.port > 0


def test_routes_methods_and_request_fields(web: WebServer):
    seen = []

    def echo(req):
        seen.append(req)
        return Response.json({"q": req.param("q"), "c": req.cookie("k"), "body": req.json()})

    web.route("POST", "/api/echo", echo)
    web.start()
    r = fetch(
        web.url,
        "/api/echo?q=1",
        method="POST",
        body=b'{"a": 2}',
        headers={"Cookie": "k=v", "Content-Type": "application/json"},
    )
    assert r.status == 200
    assert r.json() == {"q": "1", "c": "v", "body": {"a": 2}}
    assert seen[0].header("content-type") == "application/json"
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["cache-control"] == "no-store"
    assert fetch(web.url, "/api/echo").status == HTTPStatus.METHOD_NOT_ALLOWED
    assert fetch(web.url, "/nothing").status == HTTPStatus.NOT_FOUND


def test_static_files_and_no_escape(web: WebServer):
    web.start()
    r = fetch(web.url, "/static/page.html")
    assert r.status == 200 and r.text == "<p>hello</p>"
    assert r.headers["content-type"].startswith("text/html")
    for path in ("/static/../secret.txt", "/static/%2e%2e/secret.txt", "/static/", "/static/x"):
        r = fetch(web.url, path)
        assert r.status == 404, path
        assert b"outside" not in r.body


def test_oversized_body_is_refused(web: WebServer):
    web.route("POST", "/api/x", lambda req: Response.text("ok"))
    web.start()
    r = fetch(web.url, "/api/x", method="POST", body=b"x" * (MAX_BODY + 1))
    assert r.status == HTTPStatus.REQUEST_ENTITY_TOO_LARGE


def test_bad_content_length_is_a_400(web: WebServer):
    web.route("POST", "/api/x", lambda req: Response.text("ok"))
    web.start()
    r = fetch(web.url, "/api/x", method="POST", headers={"Content-Length": "many"})
    assert r.status == HTTPStatus.BAD_REQUEST


def test_handler_exception_is_a_500_and_the_server_lives_on(web: WebServer):
    def boom(req):
        raise RuntimeError("bug in a handler")

    web.route("GET", "/boom", boom)
    web.route("GET", "/ok", lambda req: Response.text("ok"))
    web.start()
    assert fetch(web.url, "/boom").status == 500
    assert fetch(web.url, "/ok").text == "ok"


def test_event_encoding_multiline():
    assert Event("view", "a\nb", 7).encode() == b"event: view\nid: 7\ndata: a\ndata: b\n\n"


def test_sse_retained_then_live_then_closed_on_shutdown(web: WebServer):
    channel = EventChannel()
    web.route("GET", "/events", lambda req: EventStream(channel))
    web.start()
    channel.publish("view", "first")
    channel.publish("view", "second")  # replaces "first" as the retained one
    channel.publish("other", "x")
    reader = SseReader(web.url, "/events")
    assert reader.status == 200
    assert reader.resp.getheader("Content-Type").startswith("text/event-stream")
    assert reader.next_event() == ("view", "second")
    assert reader.next_event() == ("other", "x")
    channel.publish("view", "third")
    assert reader.next_event() == ("view", "third")
    web.close()
    assert reader.next_event() is None  # shutdown ends the stream instead of hanging
    reader.close()


def test_sse_fans_out_to_many_clients_and_forgets_gone_ones(web: WebServer):
    channel = EventChannel(retain=False)
    web.route("GET", "/events", lambda req: EventStream(channel))
    web.start()
    readers = [SseReader(web.url, "/events") for _ in range(3)]
    # The subscription is made before the headers are sent; wait for all three to be in.
    for r in readers:
        assert r.status == 200
    assert channel.subscriber_count == 3
    channel.publish("tick", "1")
    for r in readers:
        assert r.next_event() == ("tick", "1")
    readers[0].resp.close()
    readers[0].close()
    # A gone client is noticed on a later write; publish until its thread has left.
    deadline = time.monotonic() + 5
    pause = threading.Event()
    while channel.subscriber_count != 2 and time.monotonic() < deadline:
        channel.publish("tick", "x")
        pause.wait(0.01)
    assert channel.subscriber_count == 2
    for r in readers[1:]:
        r.close()


def test_sse_events_published_faster_than_a_client_reads_arrive_whole_and_in_order(
    web: WebServer,
):
    """Written by the publisher while the client keeps up, queued for the stream's thread
    once its socket is full: one stream, every event once, in the order published."""
    channel = EventChannel(retain=False)
    web.route("GET", "/events", lambda req: EventStream(channel))
    web.start()
    reader = SseReader(web.url, "/events")
    assert reader.status == 200
    deadline = time.monotonic() + 5
    while channel.subscriber_count != 1 and time.monotonic() < deadline:
        threading.Event().wait(0.01)
    body = "x" * 20_000  # 5 MB in all: more than the sockets hold, the rest queued
    for i in range(SUBSCRIBER_BACKLOG):  # fewer than a client may fall behind by
        channel.publish("tick", f"{i} {body}")
    got = [reader.next_event() for _ in range(SUBSCRIBER_BACKLOG)]
    assert got == [("tick", f"{i} {body}") for i in range(SUBSCRIBER_BACKLOG)]
    reader.close()


def _nonblocking_pair() -> tuple[socket.socket, socket.socket]:
    """A stream's socket as the server holds it (a timeout: non-blocking underneath) and
    the client's end."""
    server, client = socket.socketpair()
    server.settimeout(5)
    client.settimeout(5)
    return server, client


def test_a_published_event_is_written_by_the_publisher_while_the_client_keeps_up():
    """No stream thread takes anything here: the event is on the client's socket when
    `publish` returns. Before, every event waited for the stream's thread to wake and to
    hold the interpreter lock, which the publishing core keeps while it goes on with the
    other outputs."""
    channel = EventChannel()
    server, client = _nonblocking_pair()
    sub = channel.subscribe()
    assert sub is not None
    sub.attach(lambda data: os.write(server.fileno(), data))
    channel.publish("view", '{"seq":7}', 7)
    expected = Event("view", '{"seq":7}', 7).encode()
    assert client.recv(len(expected) + 1, socket.MSG_DONTWAIT) == expected
    assert sub.take(0) == b""  # nothing left for the stream's thread
    server.close()
    client.close()


def test_a_client_behind_gets_the_rest_in_order_from_its_stream():
    """What a full socket refused, and whatever is published while the stream's thread is
    sending, is queued behind it and sent by that thread in order; the publisher never
    waits for the client."""
    channel = EventChannel(retain=False)
    server, client = _nonblocking_pair()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    sub = channel.subscribe()
    assert sub is not None
    written: list[int] = []

    def sink(data: bytes) -> int:
        written.append(n := os.write(server.fileno(), data))
        return n

    sub.attach(sink)
    events = [Event("view", str(i) * 50_000, i) for i in range(4)]
    for e in events:
        channel.publish(e.name, e.data, e.id)  # returns at once: the socket is full
    assert len(written) == 1 and 0 < written[0] < len(events[0].encode())
    received = bytearray()
    reader = threading.Thread(target=lambda: _drain(client, received, len(events)))
    reader.start()
    data = sub.take(0)  # the stream's thread: the rest, then what comes while it sends
    assert data
    channel.publish("view", "late", 9)  # queued behind the bytes being sent
    server.sendall(data)
    late = sub.take(0)
    assert late == Event("view", "late", 9).encode()
    server.sendall(late)
    reader.join(10)
    assert bytes(received) == b"".join(e.encode() for e in [*events, Event("view", "late", 9)])
    sub.detach()
    channel.publish("view", "after", 10)  # detached: queued, never written to the socket
    assert sub.take(0) == Event("view", "after", 10).encode()
    server.close()
    client.close()


def _drain(sock: socket.socket, into: bytearray, events: int) -> None:
    while into.count(b"\n\n") < events + 1:
        chunk = sock.recv(65536)
        if not chunk:
            return
        into += chunk


def test_static_prefix_must_end_with_slash(tmp_path: Path):
    with pytest.raises(ValueError):
        WebServer().static("/static", tmp_path)


def test_regression_the_viewer_pages_own_csp_is_not_narrowed_by_a_second_header(web: WebServer):
    """The hub's viewer page allows its broker's WebSocket port (`connect-src`): a second
    Content-Security-Policy header would only narrow the first, and the page's connection
    was blocked."""
    import http.client

    own = "default-src 'self'; connect-src 'self' ws://*:8083"
    web.route("GET", "/own", lambda r: Response.html("<p>x</p>", headers=(
        ("Content-Security-Policy", own),)))  # fmt: skip
    web.start()
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=5)
    try:
        conn.request("GET", "/own")
        headers = conn.getresponse().getheaders()
    finally:
        conn.close()
    policies = [v for k, v in headers if k.lower() == "content-security-policy"]
    assert policies == [own]
    assert [v for k, v in headers if k.lower() == "x-frame-options"] == ["DENY"]


def test_detach_waits_for_a_write_under_way_and_no_write_starts_after_it():
    """The stream closes its socket after `detach`: a publisher still inside the sink then
    must have finished, and none may start, or it writes to a descriptor number the OS may
    have given to another file or client meanwhile."""
    channel = EventChannel(retain=False)
    sub = channel.subscribe()
    assert sub is not None
    entered, release, calls = threading.Event(), threading.Event(), []

    def sink(data: bytes) -> int:
        calls.append(data)
        entered.set()
        release.wait(5)
        return len(data)

    sub.attach(sink)
    publisher = threading.Thread(target=channel.publish, args=("view", "1"))
    publisher.start()
    assert entered.wait(5)
    detacher = threading.Thread(target=sub.detach)
    detacher.start()
    detacher.join(0.2)
    assert detacher.is_alive()  # the write under way holds it
    release.set()
    detacher.join(5)
    publisher.join(5)
    assert not detacher.is_alive()
    channel.publish("view", "2")
    assert len(calls) == 1  # nothing through the sink once detached


def test_a_client_gone_while_events_are_published_writes_nothing_into_descriptors_opened_then(
    web: WebServer, tmp_path: Path
):
    """A client leaves while the core publishes as fast as it can, and sockets and files
    are opened meanwhile (taking the descriptor numbers the stream's socket frees): none of
    them receives a byte; the events reach only the clients still there."""
    channel = EventChannel(retain=False)
    web.route("GET", "/events", lambda req: EventStream(channel))
    web.start()
    leaving, staying = SseReader(web.url, "/events"), SseReader(web.url, "/events")
    assert leaving.status == staying.status == 200
    deadline = time.monotonic() + 5
    while channel.subscriber_count != 2 and time.monotonic() < deadline:
        threading.Event().wait(0.01)
    stop = threading.Event()

    def publish() -> None:
        n = 0
        while not stop.wait(0.0002):  # ~5,000 events a second, leaving the others time
            channel.publish("tick", str(n))
            n += 1

    heard: list[tuple[str, str] | None] = []
    listener = threading.Thread(target=lambda: _listen(staying, heard))
    publisher = threading.Thread(target=publish)
    listener.start()
    publisher.start()
    opened: list[tuple[socket.socket, socket.socket]] = []
    files = []
    try:
        leaving.resp.close()
        leaving.close()
        deadline = time.monotonic() + 5
        gone_at = None
        while time.monotonic() < deadline:
            opened.append(socket.socketpair())
            files.append(open(tmp_path / f"f{len(files)}", "wb"))  # noqa: SIM115 - kept open
            if gone_at is None and channel.subscriber_count == 1:
                gone_at = len(opened)
            if gone_at is not None and len(opened) > gone_at + 50:
                break
        assert gone_at is not None, "the gone client's stream did not end"
    finally:
        stop.set()
        publisher.join(5)
    channel.close()  # ends the staying client's stream: its listener reads to the end
    listener.join(5)
    staying.close()
    assert len(heard) > 1  # the staying client was served throughout
    for pair in opened:
        for end in pair:
            with pytest.raises(BlockingIOError):
                end.recv(1, socket.MSG_DONTWAIT)
    for pair in opened:
        for end in pair:
            end.close()
    for f in files:
        f.close()
        assert Path(f.name).stat().st_size == 0


def _listen(reader: SseReader, into: list) -> None:
    with contextlib.suppress(OSError, ValueError):
        while (event := reader.next_event()) is not None:
            into.append(event)
