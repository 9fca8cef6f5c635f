"""The scoreboard hub over real HTTP: nothing hidden leaks, the referee needs the token, the
broadcast view is never early (injected clock), referee actions reach the callback as values."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from hypothesis import given, settings, strategies as st
from outputs_client import SseReader, fetch
from outputs_views import (
    REVEAL,
    broadcast_view,
    leaks,
    public_steps,
    referee_view,
)

from controller.outputs.http import Method, WebServer
from controller.outputs.scoreboard import (
    COOKIE,
    ActionKind,
    ActionResult,
    RefereeAction,
    RejectReason,
    Scoreboard,
    parse_action,
)
from rules.seats import Seat

TOKEN = "ref-token-7f3a9c"
DELAY = 30.0


class FakeClock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def actions() -> list[RefereeAction]:
    return []


@pytest.fixture
def board(clock, actions):
    def on_action(action: RefereeAction) -> ActionResult:
        actions.append(action)
        if action.kind is ActionKind.UNDO and action.target_seq == 999:
            return ActionResult(False, None, RejectReason.NO_SUCH_RECORD, "no record 999")
        return ActionResult(True, 100 + len(actions))

    sb = Scoreboard(referee_token=TOKEN, broadcast_delay_s=DELAY, clock=clock, on_action=on_action)
    server = WebServer()
    sb.mount(server)
    server.start()
    yield sb, server
    server.close()


def publish_deal(sb: Scoreboard, clock: FakeClock, step_s: float = 1.0) -> None:
    for view in public_steps():
        clock.t += step_s
        sb.publish(view, referee=referee_view(view), broadcast=broadcast_view(view, clock.t))


def public_get_paths(server: WebServer) -> list[str]:
    paths = []
    for route in server.routes():
        if route.method is not Method.GET or route.path.startswith("/referee/api"):
            continue
        if route.path in ("/referee", "/referee/events") or route.path.startswith("/events/"):
            continue  # streams are read by SseReader; referee routes are tested apart
        paths.append(route.path + ("5p.svg" if route.prefix else ""))
    return paths


def test_public_endpoints_and_streams_never_leak_hidden_information(board, clock):
    sb, server = board
    feeds = ["/events/public", "/events/broadcast"]
    readers = {path: SseReader(server.url, path) for path in feeds}
    bodies: dict[str, str] = {}
    # Tile drawings and static files name every tile by design; they must not depend on the
    # deal at all (identical before and during it), and the rest is scanned for secrets.
    constant = ["/tiles/sprite.svg", "/tiles/5p.svg", "/static/board.js", "/static/style.css"]
    before = {path: fetch(server.url, path).body for path in constant}
    for i, view in enumerate(public_steps()):
        clock.t += 1.0
        sb.publish(view, referee=referee_view(view), broadcast=broadcast_view(view, clock.t))
        # Crawl every public page, API and static file at every step of the deal.
        for path in public_get_paths(server) + constant:
            reply = fetch(server.url, path)
            assert reply.status == 200, path
            if path in constant:
                assert reply.body == before[path], path
            else:
                bodies[f"{path}@{view.seq}"] = reply.text
        public = fetch(server.url, "/api/public").json()
        assert public["seq"] == view.seq
        for seat in public["seats"]:
            if i < REVEAL or seat["seat"] != "W":
                assert seat["void"] is None, (view.seq, seat)
    late = SseReader(server.url, "/events/public")  # a client connecting mid-deal
    assert late.next_event()[0] == "view"
    server.close()  # ends the streams, so reading them to the end terminates
    for path, reader in [*readers.items(), ("late", late)]:
        events = []
        while (event := reader.next_event()) is not None:
            events.append(event)
        bodies[path] = "\n".join(reader.raw_lines)
        if path == "/events/public":
            assert [json.loads(d)["seq"] for n, d in events if n == "view"] == list(range(1, 9))
    for where, text in bodies.items():
        assert leaks(text) == [], where
    # The test can fail: the same scan finds the secrets in the referee's view.
    assert leaks(json.dumps(referee_view(public_steps()[-1]).to_json()))


def test_every_referee_endpoint_refuses_without_the_token(board, clock):
    sb, server = board
    publish_deal(sb, clock)
    clock.t += DELAY + 10
    sb.tick()
    guarded = [(r.method.value, r.path) for r in server.routes() if r.path.startswith("/referee")]
    guarded = [g for g in guarded if g[1] not in ("/referee/login", "/referee/logout")]
    assert ("GET", "/referee/api/view") in guarded and ("POST", "/referee/api/action") in guarded
    bad_credentials = [
        {},
        {"Authorization": "Bearer wrong-token"},
        {"Authorization": f"Basic {TOKEN}"},
        {"Authorization": f"Bearer {TOKEN[:-1]}"},
        {"Cookie": f"{COOKIE}={TOKEN}"},  # the token is not a session id
        {"Accept": "text/html"},
    ]
    body = json.dumps({"kind": "penalty", "seat": "E", "points": 8}).encode()
    for method, path in guarded:
        for headers in bad_credentials:
            headers = {**headers, "Content-Type": "application/json"}
            reply = fetch(server.url, path, method=method, headers=headers, body=body)
            # after five wrong Bearer tokens this address is locked out: 429, still nothing
            refused = (HTTPStatus.UNAUTHORIZED, HTTPStatus.TOO_MANY_REQUESTS)
            assert reply.status in refused, (method, path, headers)
            assert leaks(reply.text) == [], (method, path)
            assert "Li Wei" not in reply.text  # not even public data behind the referee door
    clock.t += 60.0  # the lock-out ends
    ok = fetch(server.url, "/referee/api/view", headers={"Authorization": f"Bearer {TOKEN}"})
    assert ok.status == 200
    assert ok.json()["wall_remaining"][:3] == ["1s", "2s", "3s"]
    assert leaks(ok.text)


def test_referee_without_a_configured_token_is_closed(clock):
    sb = Scoreboard(referee_token=None, clock=clock)
    with WebServer() as server:
        sb.mount(server)
        for headers in ({}, {"Authorization": "Bearer "}, {"Authorization": "Bearer None"}):
            assert fetch(server.url, "/referee/api/view", headers=headers).status == 401
        reply = fetch(server.url, "/referee/login", method="POST", body=b"token=")
        assert reply.status == 401


def test_login_form_sets_a_session_cookie_and_logout_ends_it(board, clock):
    sb, server = board
    publish_deal(sb, clock)
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    wrong = fetch(server.url, "/referee/login", method="POST", body=b"token=nope", headers=form)
    assert wrong.status == 401 and "Wrong token" in wrong.text
    assert "set-cookie" not in wrong.headers
    right = fetch(
        server.url, "/referee/login", method="POST", body=f"token={TOKEN}".encode(), headers=form
    )
    assert right.status == HTTPStatus.SEE_OTHER and right.headers["location"] == "/referee"
    cookie = right.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    session = cookie.split(";")[0]
    assert TOKEN not in session
    view = fetch(server.url, "/referee/api/view", headers={"Cookie": session})
    assert view.status == 200 and view.json()["kind"] == "referee"
    page = fetch(server.url, "/referee", headers={"Cookie": session})
    assert page.status == 200 and "penalty-form" in page.text
    stream = SseReader(server.url, "/referee/events", headers={"Cookie": session})
    name, data = stream.next_event()
    assert name == "view" and json.loads(data)["kind"] == "referee"
    stream.close()
    fetch(server.url, "/referee/logout", method="POST", headers={"Cookie": session})
    assert fetch(server.url, "/referee/api/view", headers={"Cookie": session}).status == 401


def test_regression_the_referee_was_journalled_by_its_address(board, actions):
    """A referee at 10/10/2 read "#57 … entered by 127.0.0.1" under "Corrections": the
    journal named the device's address. A referee is named by the name given at the login
    ("Ann"), else "referee" (no name given, or a Bearer token); the address stays in the log."""
    _sb, server = board
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    sessions = []
    for name in ("Ann%09 Lee%00", ""):  # (a tab, a NUL: not written into the journal)
        body = f"token={TOKEN}&name={name}".encode()
        right = fetch(server.url, "/referee/login", method="POST", body=body, headers=form)
        assert right.status == HTTPStatus.SEE_OTHER
        sessions.append(right.headers["set-cookie"].split(";")[0])
    sent = json.dumps({"kind": "cancel", "count": 1, "note": "x"}).encode()
    for session in sessions:
        headers = {"Cookie": session, "Content-Type": "application/json"}
        reply = fetch(server.url, "/referee/api/action", method="POST", body=sent, headers=headers)
        assert reply.status == 200
    bearer = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    fetch(server.url, "/referee/api/action", method="POST", body=sent, headers=bearer)
    assert [a.client for a in actions] == ["Ann Lee", "referee", "referee"]


def test_referee_actions_are_validated_and_handed_over(board, actions):
    _, server = board
    auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}

    def post(data, headers=auth):
        body = json.dumps(data).encode()
        return fetch(server.url, "/referee/api/action", method="POST", body=body, headers=headers)

    unconfirmed = {"kind": "penalty", "seat": "S", "points": 48, "note": "void held at Hu"}
    reply = post(unconfirmed)  # a penalty is applied only once the referee said yes
    assert reply.status == 400 and "confirmed" in reply.json()["detail"]
    reply = post({**unconfirmed, "confirmed": True})
    assert reply.status == 200 and reply.json() == {
        "accepted": True,
        "seq": 101,
        "reason": None,
        "detail": "",
    }
    assert actions[0] == RefereeAction(
        ActionKind.PENALTY, "void held at Hu", Seat.S, 48, None, None, "referee", confirmed=True
    )
    reply = post({"kind": "move", "seat": "E", "move": "draw", "tile": "3p", "note": "missed"})
    assert reply.status == 200
    assert (actions[1].kind, actions[1].seat, actions[1].move, actions[1].tile) == (
        ActionKind.MOVE,
        Seat.E,
        "draw",
        "3p",
    )
    reply = post({"kind": "undo", "target_seq": 999, "note": "x"})
    assert reply.status == HTTPStatus.CONFLICT and reply.json()["reason"] == "no-such-record"
    reply = post({"kind": "penalty", "seat": "S", "points": 0, "confirmed": True})
    assert reply.status == 400 and "points" in reply.json()["detail"]
    as_form = {**auth, "Content-Type": "application/x-www-form-urlencoded"}
    yes = {"kind": "penalty", "seat": "S", "points": 8, "confirmed": True}
    assert post(yes, as_form).status == 400
    cross = {**auth, "Origin": "http://evil.example"}
    assert post(yes, cross).status == 400
    assert len(actions) == 3  # refused requests never reached the daemon


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "object"),
        ({"kind": "nap"}, "kind"),
        ({"kind": "penalty", "seat": "X", "points": 8, "confirmed": True}, "seat"),
        ({"kind": "penalty", "points": 8, "confirmed": True}, "seat"),
        ({"kind": "penalty", "seat": "E", "points": True, "confirmed": True}, "points"),
        ({"kind": "penalty", "seat": "E", "points": 1001, "confirmed": True}, "points"),
        (
            {"kind": "penalty", "seat": "E", "points": 8, "paid_to": "E", "confirmed": True},
            "paid_to",
        ),
        ({"kind": "penalty", "seat": "E", "points": 8}, "confirmed"),
        ({"kind": "abandon", "confirmed": "yes"}, "confirmed"),
        ({"kind": "undo", "note": "x"}, "target_seq"),
        ({"kind": "fix-tile", "target_seq": 3}, "tile"),
        ({"kind": "move", "seat": "E"}, "move"),
        ({"kind": "move", "seat": "E", "move": "correction"}, "move: one of draw"),
        ({"kind": "move", "seat": "E", "move": "close-claims"}, "move: one of draw"),
        ({"kind": "move", "move": "draw"}, "seat"),
        ({"kind": "move", "seat": "E", "move": "draw", "suit": "s"}, "suit"),
        ({"kind": "move", "seat": "E", "move": "void", "suit": "x"}, "suit"),
        ({"kind": "cancel", "count": 9}, "count"),
        ({"kind": "note", "note": " "}, "note"),
        ({"kind": "note", "note": "x" * 501}, "note"),
        ({"kind": "penalty", "seat": "E", "points": 8, "sql": 1}, "unknown"),
        ({"kind": "dice", "dice": "3+7", "seat": "E"}, "dice"),
        ({"kind": "dice", "dice": "35", "seat": "E"}, "dice"),
        ({"kind": "dice", "dice": "3+5"}, "seat"),
        ({"kind": "moves"}, "moves: a list of 1 to 8"),
        ({"kind": "moves", "moves": []}, "moves: a list of 1 to 8"),
        ({"kind": "moves", "moves": [{"seat": "E", "move": "draw"}] * 9}, "moves: a list"),
        ({"kind": "moves", "moves": ["E draw"]}, r"moves\[0\]: an object"),
        ({"kind": "moves", "moves": [{"seat": "E", "move": "draw", "kind": "x"}]}, "moves"),
        (
            {"kind": "moves", "moves": [{"seat": "E", "move": "draw"}, {"move": "discard"}]},
            r"moves\[1\]: seat",
        ),
        ({"kind": "moves", "moves": [{"seat": "E", "move": "nap"}]}, r"moves\[0\]: move"),
    ],
)
def test_parse_action_names_the_bad_field(data, field):
    with pytest.raises(ValueError, match=field):
        parse_action(data)


def test_a_run_of_moves_is_parsed_into_move_actions_in_their_order():
    data = {
        "kind": "moves",
        "note": "from the call",
        "call": "c7",
        "moves": [
            {"seat": "N", "move": "draw", "tile": "3p"},
            {"seat": "N", "move": "discard", "tile": "7m"},
            {"seat": "E", "move": "pung"},
        ],
    }
    action = parse_action(data, "ref-1")
    assert action.kind is ActionKind.MOVES and action.call == "c7"
    assert [(m.kind, m.seat, m.move, m.tile) for m in action.moves] == [
        (ActionKind.MOVE, Seat.N, "draw", "3p"),
        (ActionKind.MOVE, Seat.N, "discard", "7m"),
        (ActionKind.MOVE, Seat.E, "pung", ""),
    ]
    assert {(m.client, m.note) for m in action.moves} == {("ref-1", "from the call")}


def test_broadcast_is_held_for_the_delay(board, clock):
    sb, server = board
    views = public_steps()
    shown = clock.t
    sb.publish(views[0], broadcast=broadcast_view(views[0], shown))
    assert fetch(server.url, "/api/broadcast").json() == {"kind": "none"}
    clock.t = shown + DELAY - 0.001
    assert fetch(server.url, "/api/broadcast").json() == {"kind": "none"}
    assert sb.next_release_at() == shown + DELAY
    clock.t = shown + DELAY
    released = fetch(server.url, "/api/broadcast").json()
    assert released["kind"] == "broadcast" and released["public"]["seq"] == 1
    assert released["hands"][0]["standing"][0] == "1s"
    assert sb.next_release_at() is None


@settings(max_examples=150, deadline=None)
@given(
    gaps=st.lists(st.floats(0, 20, allow_nan=False), min_size=1, max_size=12),
    probes=st.lists(st.floats(0, 120, allow_nan=False), min_size=1, max_size=12),
    delay=st.sampled_from([0.0, 5.0, 30.0]),
)
def test_broadcast_never_released_early(gaps, probes, delay):
    clock = FakeClock(0.0)
    sb = Scoreboard(broadcast_delay_s=delay, clock=clock)
    views = public_steps()
    times = []
    t = 0.0
    for i, gap in enumerate(gaps):
        t += gap
        times.append(t)
        clock.t = t
        sb.publish(views[i % len(views)], broadcast=broadcast_view(views[i % len(views)], t))
        _check_release(sb, clock.t, delay, times)
    for probe in sorted(probes):
        clock.t = t + probe
        sb.tick()
        _check_release(sb, clock.t, delay, times)


def _check_release(sb: Scoreboard, now: float, delay: float, times: list[float]) -> None:
    released = sb.released_broadcast
    due = [s for s in times if s + delay <= now]
    if not due:
        assert released is None
    else:
        assert released is not None
        assert released.shown_at + delay <= now  # never early
        assert released.shown_at == due[-1]  # and the newest that is due


def test_public_feed_takes_only_public_views(board):
    sb, _ = board
    view = public_steps()[0]
    with pytest.raises(TypeError):
        sb.publish(referee_view(view))  # type: ignore[arg-type]


def test_tiles_are_served(board):
    _, server = board
    reply = fetch(server.url, "/tiles/5p.svg")
    assert reply.status == 200 and reply.headers["content-type"] == "image/svg+xml"
    assert fetch(server.url, "/tiles/back.svg").status == 200
    assert fetch(server.url, "/tiles/0p.svg").status == 404
    sprite = fetch(server.url, "/tiles/sprite.svg").text
    assert 'id="t-9s"' in sprite and 'id="t-back"' in sprite


def test_rejects_bad_configuration():
    with pytest.raises(ValueError):
        Scoreboard(referee_token="short")
    with pytest.raises(ValueError):
        Scoreboard(broadcast_delay_s=-1)


def test_login_is_locked_after_repeated_wrong_tokens(board, clock):
    _, server = board
    form = {"Content-Type": "application/x-www-form-urlencoded"}

    def login(token: str) -> int:
        body = f"token={token}".encode()
        return fetch(server.url, "/referee/login", method="POST", body=body, headers=form).status

    assert [login(f"guess-{i}") for i in range(5)] == [401] * 5
    assert login(TOKEN) == HTTPStatus.TOO_MANY_REQUESTS  # even the right one, for a while
    clock.t += 60.0
    assert login(TOKEN) == HTTPStatus.SEE_OTHER


def test_wrong_bearer_tokens_back_off_per_address(board, clock):
    _, server = board

    def view(token: str) -> tuple[int, str | None]:
        reply = fetch(server.url, "/referee/api/view", headers={"Authorization": f"Bearer {token}"})
        return reply.status, reply.headers.get("retry-after")

    assert [view(f"guess-{i}")[0] for i in range(5)] == [401] * 5
    assert view(TOKEN) == (HTTPStatus.TOO_MANY_REQUESTS, "60")  # even the right one
    assert fetch(server.url, "/api/public").status == 200  # the public side is not locked
    clock.t += 59.0
    assert view(TOKEN)[0] == HTTPStatus.TOO_MANY_REQUESTS
    clock.t += 1.0  # the wrong tokens are a minute old: forgotten
    assert view(TOKEN)[0] == 200
    # no Authorization at all (a browser opening the page) is not a wrong token
    assert [fetch(server.url, "/referee/api/view").status for _ in range(8)] == [401] * 8
    assert view(TOKEN)[0] == 200


def test_the_hall_feed_is_given_each_broadcast_view_only_once_its_delay_has_passed(clock):
    """The table's delayed MQTT feed (`Scoreboard.on_release`, docs/MQTT.md "Viewers")
    follows the same release as the /broadcast page: never a view still held."""
    sb = Scoreboard(broadcast_delay_s=DELAY, clock=clock)
    released: list = []
    sb.on_release(lambda view: released.append((clock.t, view.public.seq)))
    first, second = public_steps()[:2]
    sb.publish(first, broadcast=broadcast_view(first, clock.t))
    clock.t += 1.0
    sb.publish(second, broadcast=broadcast_view(second, clock.t))
    clock.t += DELAY - 1.001
    sb.tick()
    assert released == []
    clock.t += 0.001
    sb.tick()
    assert released == [(clock.t, first.seq)]
    clock.t += 5.0
    sb.tick()
    sb.tick()
    assert [seq for _, seq in released] == [first.seq, second.seq]
