"""The publishing hub of the web scoreboard: latest views, live feeds, broadcast delay, referee.

The daemon calls `publish(public, referee=..., broadcast=...)` after every journalled
record, and `tick()` from its timer loop. The scoreboard keeps the latest view of each
audience and pushes it to the browsers (server-sent events):

| page           | data                      | feed                 | who            |
|----------------|---------------------------|----------------------|----------------|
| `/`            | `/api/public`             | `/events/public`     | anyone         |
| `/broadcast`   | `/api/broadcast`          | `/events/broadcast`  | anyone, delayed|
| `/referee`     | `/referee/api/view`       | `/referee/events`    | token holder   |

`/words.json` is the catalog every page's JS says its words with (controller/locale): the
language of `?lang=` (picked on the page), else of the browser's Accept-Language.

Only `PublicView.to_json()` ever reaches a public feed: hands, the wall and the void before it
is revealed exist only in `RefereeView`/`BroadcastView`. A `BroadcastView` is held back until
`clock() >= shown_at + delay_s` on the injected clock, never earlier. Referee routes answer
401 with no data unless the request carries `Authorization: Bearer <token>` or the session
cookie set by the login form; referee actions (corrections, penalties) are validated into
`RefereeAction` values and handed to `on_action`, which journals them.
"""

from __future__ import annotations

import hmac
import html
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from http import HTTPStatus
from pathlib import Path
from typing import Any

from controller.locale import N_, negotiate, translator
from controller.outputs import tiles_svg
from controller.outputs.http import EventChannel, EventStream, Request, Response, WebServer
from controller.outputs.view import BroadcastView, PublicView, RefereeView
from rules.seats import Seat
from rules.tiles import Suit

log = logging.getLogger(__name__)

WEB_ROOT = Path(__file__).resolve().parent.parent / "web"
DEFAULT_BROADCAST_DELAY_S = 30.0
COOKIE = "mjtable_referee"
MAX_SESSIONS = 32  # referee browser sessions kept; the oldest is logged out beyond that
MAX_PENDING_BROADCAST = 20_000  # views waiting for their delay (hours of play at most rates)
MAX_NOTE = 500
MAX_NAME = 24  # characters of the name a referee gives at the login
REFEREE = "referee"  # the journal's name for a referee who gave none (or a Bearer token)
LOGIN_ATTEMPTS = 5  # wrong tokens from one address within LOGIN_WINDOW_S before a lock-out
LOGIN_WINDOW_S = 60.0
MAX_TRACKED_CLIENTS = 1024  # addresses whose wrong tokens are remembered (the oldest go first)
MAX_PENALTY = 1000


class ActionKind(Enum):
    """What a referee does from the referee page (docs/REFEREE.md "At the table"); each is
    journalled as a correction record (who, when, what, why) and undoable (`undo`)."""

    MOVE = "move"  # a move the reader missed, entered by hand: seat, move, tile
    MOVES = "moves"  # several such moves in their order, one tap (a call's first candidate)
    CANCEL = "cancel"  # the last `count` moves did not happen (or the one at target_seq)
    NOBODY_CLAIMED = "nobody-claimed"  # the open claim window closes: nobody claimed
    FIX_TILE = "fix-tile"  # the move at target_seq took `tile`, not what was read
    PENALTY = "penalty"  # points taken from a seat, paid to a seat or to nobody
    UNDO = "undo"  # the correction at target_seq no longer applies
    ABANDON = "abandon"  # the deal ends here: payments made so far stand
    NOTE = "note"  # a remark in the journal, nothing changes
    DICE = "dice"  # a table with no board: the dice rolled ("3+5") and the dealer's `seat`


# actions that change points or end a deal: the page asks first, and so does the daemon
CONFIRMED = frozenset({ActionKind.PENALTY, ActionKind.ABANDON})
MAX_CANCEL = 8
MAX_MOVES = 8  # moves entered by one `moves` action (a fast table's run beyond the judge)
# the moves a referee enters by hand (the deal record's names); the judge's own bookkeeping
# (close-claims, correction, end-deal, penalty) goes through the other actions
MOVE_NAMES = (
    "draw",
    "replacement",
    "discard",
    "void",
    "pung",
    "kong",
    "chow",
    "hu",
    "self-drawn-hu",
    "rob-kong",
    "pass",
)

# the suits a void chosen by the table's button may name (a laid tile names its own)
SUITS = tuple(s.value for s in Suit)


@dataclass(frozen=True, slots=True)
class RefereeAction:
    kind: ActionKind
    note: str
    seat: Seat | None = None  # the table's fixed seat
    points: int = 0  # penalty points (> 0)
    paid_to: Seat | None = None  # None: paid to nobody (like the 48-point void penalty)
    target_seq: int | None = None  # the journal record a correction is about
    client: str = ""  # the referee's name (given at the login, else "referee"), for the journal
    move: str = ""  # MOVE: the deal record's move name ("draw", "discard", "pung", ...)
    tile: str = ""  # MOVE, FIX_TILE: the tile ("3p")
    suit: str = ""  # MOVE void with no tile laid (chosen by the table's button): "m", "p", ...
    count: int = 0  # CANCEL: how many of the last moves
    dice: str = ""  # DICE: "a+b"
    confirmed: bool = False  # PENALTY, ABANDON: the referee said yes to the question
    call: str = ""  # the referee call it answers, as the page names it ("": none named)
    moves: tuple[RefereeAction, ...] = ()  # MOVES: each a MOVE action, entered in this order


class RejectReason(Enum):
    INVALID = "invalid"  # the request itself is malformed
    NOT_NOW = "not-now"  # the daemon cannot apply it in the current phase
    NO_SUCH_RECORD = "no-such-record"
    UNAVAILABLE = "unavailable"  # no daemon is listening for actions


@dataclass(frozen=True, slots=True)
class ActionResult:
    accepted: bool
    seq: int | None = None  # the journal record written for it
    reason: RejectReason | None = None
    detail: str = ""
    # `detail` as a sentence the page says in its language (controller/locale Said JSON)
    words: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "accepted": self.accepted,
            "seq": self.seq,
            "reason": None if self.reason is None else self.reason.value,
            "detail": self.detail,
        }
        if self.words is not None:
            out["words"] = self.words
        return out


ActionHandler = Callable[[RefereeAction], ActionResult]


def _seat_or_none(value: Any, name: str) -> Seat | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise ValueError(f"{name}: a seat is one of E S W N")
    return Seat.parse(value)


ACTION_FIELDS = frozenset(
    {
        "kind",
        "call",
        "note",
        "seat",
        "points",
        "paid_to",
        "target_seq",
        "move",
        "tile",
        "suit",
        "count",
        "confirmed",
        "dice",
        "moves",
    }
)


def _whole(data: dict[str, Any], name: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name}: a whole number from {low} to {high}")
    return value


def _text(data: dict[str, Any], name: str, limit: int = 16) -> str:
    value = data.get(name, "")
    if not isinstance(value, str) or len(value) > limit:
        raise ValueError(f"{name}: text of at most {limit} characters")
    return value.strip()


def parse_action(data: Any, client: str = "") -> RefereeAction:
    """A referee action from its JSON form; `ValueError` names the bad field."""
    if not isinstance(data, dict):
        raise ValueError("an action is a JSON object")
    unknown = set(data) - ACTION_FIELDS
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
    try:
        kind = ActionKind(data.get("kind"))
    except ValueError:
        raise ValueError(f"kind: one of {', '.join(k.value for k in ActionKind)}") from None
    note = _text(data, "note", MAX_NOTE)
    seat = _seat_or_none(data.get("seat"), "seat")
    paid_to = _seat_or_none(data.get("paid_to"), "paid_to")
    confirmed = data.get("confirmed", False)
    if not isinstance(confirmed, bool):
        raise ValueError("confirmed: true or false")
    if kind in CONFIRMED and not confirmed:
        raise ValueError(f"confirmed: a {kind.value} is applied only once confirmed")
    call = _text(data, "call", 32)
    action = RefereeAction(kind, note, seat, client=client, confirmed=confirmed, call=call)
    if kind is ActionKind.PENALTY:
        points = _whole(data, "points", 1, MAX_PENALTY)
        if seat is None:
            raise ValueError("seat: a penalty names the seat that pays")
        if paid_to == seat:
            raise ValueError("paid_to: a seat cannot pay itself")
        return replace(action, points=points, paid_to=paid_to)
    if kind is ActionKind.MOVE:
        return _entered(data, action)
    if kind is ActionKind.MOVES:
        listed = data.get("moves")
        if not isinstance(listed, list) or not 1 <= len(listed) <= MAX_MOVES:
            raise ValueError(f"moves: a list of 1 to {MAX_MOVES} moves, each as a move action")
        moves = []
        for i, one in enumerate(listed):
            if not isinstance(one, dict) or set(one) - {"seat", "move", "tile", "suit"}:
                raise ValueError(f"moves[{i}]: an object of seat, move, tile, suit")
            try:
                seated = replace(action, seat=_seat_or_none(one.get("seat"), "seat"))
                moves.append(_entered(one, seated))
            except ValueError as err:
                raise ValueError(f"moves[{i}]: {err}") from None
        return replace(action, moves=tuple(moves))
    if kind is ActionKind.CANCEL:
        if "target_seq" in data:
            return replace(action, target_seq=_whole(data, "target_seq", 1, 2**62))
        return replace(action, count=_whole(data, "count", 1, MAX_CANCEL, 1))
    if kind is ActionKind.FIX_TILE:
        tile = _text(data, "tile")
        if not tile:
            raise ValueError("tile: the tile that was really there")
        return replace(action, target_seq=_whole(data, "target_seq", 1, 2**62), tile=tile)
    if kind is ActionKind.UNDO:
        return replace(action, target_seq=_whole(data, "target_seq", 1, 2**62))
    if kind is ActionKind.DICE:
        dice = _text(data, "dice")
        a, plus, b = dice.partition("+")
        if not (plus and a in "123456" and b in "123456" and len(a) == len(b) == 1):
            raise ValueError('dice: the two dice rolled, as "3+5"')
        if seat is None:
            raise ValueError("seat: the dealer's side")
        return replace(action, dice=dice)
    if kind is ActionKind.NOTE and not note:
        raise ValueError("note: the remark")
    return action


def _entered(data: dict[str, Any], action: RefereeAction) -> RefereeAction:
    """A MOVE action's fields (`data`'s move, tile, suit) on `action` (which has its seat)."""
    move = _text(data, "move")
    if move not in MOVE_NAMES:
        raise ValueError(f"move: one of {', '.join(MOVE_NAMES)}")
    if action.seat is None:
        raise ValueError("seat: the seat that made the move")
    suit = _text(data, "suit")
    if suit and (move != "void" or suit not in SUITS):
        raise ValueError(f"suit: a void's suit, one of {', '.join(SUITS)}")
    return replace(action, kind=ActionKind.MOVE, move=move, tile=_text(data, "tile"), suit=suit)


class Scoreboard:
    def __init__(
        self,
        *,
        referee_token: str | None = None,
        broadcast_delay_s: float = DEFAULT_BROADCAST_DELAY_S,
        clock: Callable[[], float] = time.monotonic,
        on_action: ActionHandler | None = None,
        web_root: Path = WEB_ROOT,
    ) -> None:
        if broadcast_delay_s < 0:
            raise ValueError("the broadcast delay cannot be negative")
        if referee_token is not None and len(referee_token) < 8:
            raise ValueError("a referee token has at least 8 characters")
        self.delay_s = broadcast_delay_s
        self._token = referee_token
        self._clock = clock
        self._on_action = on_action
        self._web_root = web_root
        self._lock = threading.RLock()
        self._public: PublicView | None = None
        self._referee: RefereeView | None = None
        self._broadcast: BroadcastView | None = None
        self._pending: deque[BroadcastView] = deque()
        # each login's session cookie → the name the referee gave (REFEREE: none)
        self._sessions: OrderedDict[str, str] = OrderedDict()
        self._failed_logins: dict[str, deque[float]] = {}
        self.public_feed = EventChannel()
        self.broadcast_feed = EventChannel()
        self.referee_feed = EventChannel()
        self.broadcast_feed.publish("meta", json.dumps({"delay_s": self.delay_s}))
        self._released: list[Callable[[BroadcastView], None]] = []

    # --- the daemon's side ---------------------------------------------------------------

    def publish(
        self,
        public: PublicView,
        *,
        referee: RefereeView | None = None,
        broadcast: BroadcastView | None = None,
    ) -> None:
        if not isinstance(public, PublicView):
            raise TypeError(f"the public feed takes a PublicView, not {type(public).__name__}")
        with self._lock:
            self._public = public
            shown = public.to_json()
            self.public_feed.publish("view", _dump(shown), public.seq)
            if referee is not None:
                self._referee = referee
                # the referee's view is built on the public one, unless a settled deal is
                # held on the public feed: its JSON is not made twice
                made = referee.json_with(shown) if referee.public is public else referee.to_json()
                self.referee_feed.publish("view", _dump(made), referee.public.seq)
            if broadcast is not None:
                self._pending.append(broadcast)
                while len(self._pending) > MAX_PENDING_BROADCAST:
                    self._pending.popleft()
            self.tick()

    def on_release(self, listener: Callable[[BroadcastView], None]) -> None:
        """Call `listener` with each broadcast view released (the newest of a tick), once its
        delay has passed: the hall's delayed feed (controller/outputs/mqtt.py) follows it."""
        with self._lock:
            self._released.append(listener)

    def tick(self) -> BroadcastView | None:
        """Release the broadcast views whose delay has passed; returns the newest released."""
        now = self._clock()
        released = None
        with self._lock:
            while self._pending and self._pending[0].shown_at + self.delay_s <= now:
                released = self._pending.popleft()
            if released is not None:
                self._broadcast = released
                self.broadcast_feed.publish("view", _dump(released.to_json()), released.public.seq)
                for listener in self._released:
                    listener(released)
        return released

    def next_release_at(self) -> float | None:
        """The clock time at which `tick()` has something to release (for the timer loop)."""
        with self._lock:
            return self._pending[0].shown_at + self.delay_s if self._pending else None

    def start_timer(self, interval_s: float = 0.25) -> Callable[[], None]:
        """Tick on a thread (real clock); returns the function that stops it."""
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(interval_s):
                try:
                    self.tick()
                except Exception:
                    log.exception("broadcast release failed")

        threading.Thread(target=loop, name="mjtable-broadcast", daemon=True).start()
        return stop.set

    @property
    def latest_public(self) -> PublicView | None:
        return self._public

    @property
    def released_broadcast(self) -> BroadcastView | None:
        return self._broadcast

    @property
    def latest_referee(self) -> RefereeView | None:
        return self._referee

    # --- the web side --------------------------------------------------------------------

    def mount(self, server: WebServer) -> None:
        """Register every page, API and feed route on `server`."""
        page = self._page
        server.route("GET", "/", lambda r: page("index.html"))
        server.route("GET", "/broadcast", lambda r: page("broadcast.html"))
        server.route("GET", "/api/public", lambda r: self._json(self._public))
        server.route("GET", "/api/broadcast", self._api_broadcast)
        server.route("GET", "/events/public", lambda r: EventStream(self.public_feed))
        server.route("GET", "/events/broadcast", self._events_broadcast)
        server.route("GET", "/words.json", words_catalog)
        server.route("GET", "/tiles/sprite.svg", self._sprite)
        server.route("GET", "/tiles/", self._tile, prefix=True)
        server.route("GET", "/referee/login", lambda r: self._login_page(HTTPStatus.OK))
        server.route("POST", "/referee/login", self._login)
        server.route("POST", "/referee/logout", self._logout)
        server.route("GET", "/referee", self._guard(lambda r: page("referee.html")))
        server.route("GET", "/referee/api/view", self._guard(lambda r: self._json(self._referee)))
        server.route(
            "GET", "/referee/events", self._guard(lambda r: EventStream(self.referee_feed))
        )
        server.route("POST", "/referee/api/action", self._guard(self._action))
        server.static("/static/", self._web_root)

    def _page(self, name: str) -> Response:
        return Response.html((self._web_root / name).read_text(encoding="utf-8"))

    @staticmethod
    def _json(view: PublicView | RefereeView | BroadcastView | None) -> Response:
        return Response.json({"kind": "none"} if view is None else view.to_json())

    def _api_broadcast(self, request: Request) -> Response:
        self.tick()
        return self._json(self._broadcast)

    def _events_broadcast(self, request: Request) -> EventStream:
        self.tick()
        return EventStream(self.broadcast_feed)

    @staticmethod
    def _sprite(request: Request) -> Response:
        return Response(
            HTTPStatus.OK,
            tiles_svg.sprite().encode(),
            "image/svg+xml",
            (("Cache-Control", "max-age=86400"),),
        )

    @staticmethod
    def _tile(request: Request) -> Response:
        name = request.path.removeprefix("/tiles/").removesuffix(".svg")
        try:
            tile = tiles_svg.parse_name(name)
        except ValueError:
            return Response.text("no such tile", HTTPStatus.NOT_FOUND)
        return Response(
            HTTPStatus.OK,
            tiles_svg.tile_svg(tile).encode(),
            "image/svg+xml",
            (("Cache-Control", "max-age=86400"),),
        )

    # --- referee authentication ----------------------------------------------------------

    def authorised(self, request: Request) -> bool:
        if self._token is None:
            return False
        auth = request.header("authorization") or ""
        scheme, _, given = auth.partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(
            given.strip().encode(), self._token.encode()
        ):
            return True
        return self._session_name(request) is not None

    def _session_name(self, request: Request) -> str | None:
        """The name given at the login of the request's session (None: not logged in)."""
        cookie = request.cookie(COOKIE)
        if cookie is None:
            return None
        with self._lock:
            for session, name in self._sessions.items():
                if hmac.compare_digest(cookie.encode(), session.encode()):
                    return name
        return None

    def referee_name(self, request: Request) -> str:
        """Who takes an action, for the journal and the corrections list: the name given at
        the login, else REFEREE (a Bearer token, a login with no name). Never the address:
        a referee reads "entered by Ann", not "entered by 192.168.1.20"."""
        return self._session_name(request) or REFEREE

    def _guard(self, handler: Callable[[Request], Response | EventStream]):
        def guarded(request: Request) -> Response | EventStream:
            # a wrong Bearer token counts against the address like a wrong login: after
            # LOGIN_ATTEMPTS in LOGIN_WINDOW_S every token from it is refused (429) a while
            if self._locked_out(request.client):
                return self._too_many(request)
            if not self.authorised(request):
                if (request.header("authorization") or "").lower().startswith("bearer "):
                    self._wrong_token(request.client, "Bearer token")
                return self._unauthorised(request)
            return handler(request)

        return guarded

    def _locked_out(self, client: str) -> bool:
        now = self._clock()
        with self._lock:
            recent = self._failed_logins.get(client)
            if recent is None:
                return False
            while recent and recent[0] <= now - LOGIN_WINDOW_S:
                recent.popleft()
            if not recent:
                del self._failed_logins[client]
                return False
            return len(recent) >= LOGIN_ATTEMPTS

    def _wrong_token(self, client: str, what: str) -> None:
        with self._lock:
            recent = self._failed_logins.pop(client, deque())
            recent.append(self._clock())
            self._failed_logins[client] = recent  # most recent last: the oldest are dropped
            while len(self._failed_logins) > MAX_TRACKED_CLIENTS:
                del self._failed_logins[next(iter(self._failed_logins))]
        log.warning("referee %s refused from %s", what, client)

    def _too_many(self, request: Request) -> Response:
        wait = (("Retry-After", str(int(LOGIN_WINDOW_S))),)
        if "text/html" in (request.header("accept") or ""):
            page = self._login_page(HTTPStatus.TOO_MANY_REQUESTS, N_("Too many tries; wait."))
            return Response(page.status, page.body, page.content_type, wait)
        return Response.json({"error": "too many wrong tokens"}, HTTPStatus.TOO_MANY_REQUESTS, wait)

    def _unauthorised(self, request: Request) -> Response:
        if "text/html" in (request.header("accept") or ""):
            return self._login_page(HTTPStatus.UNAUTHORIZED)
        return Response.json(
            {"error": "unauthorised"},
            HTTPStatus.UNAUTHORIZED,
            (("WWW-Authenticate", 'Bearer realm="mjtable referee"'),),
        )

    def _login_page(self, status: HTTPStatus, message: str = "") -> Response:
        text = (self._web_root / "login.html").read_text(encoding="utf-8")
        text = text.replace("{{message}}", html.escape(message))
        return Response.html(text, status)

    def _login(self, request: Request) -> Response:
        if self._locked_out(request.client):
            return self._too_many(request)
        token = request.form().get("token", "")
        if self._token is None or not hmac.compare_digest(token.encode(), self._token.encode()):
            self._wrong_token(request.client, "login")
            return self._login_page(HTTPStatus.UNAUTHORIZED, N_("Wrong token."))
        session = secrets.token_urlsafe(32)
        given = "".join(c for c in request.form().get("name", "") if c.isprintable())
        name = " ".join(given.split())[:MAX_NAME]
        with self._lock:
            self._sessions[session] = name or REFEREE
            while len(self._sessions) > MAX_SESSIONS:
                self._sessions.popitem(last=False)
        log.info("referee %r logged in from %s", name or REFEREE, request.client)
        cookie = f"{COOKIE}={session}; Path=/; HttpOnly; SameSite=Strict"
        return Response.redirect("/referee", (("Set-Cookie", cookie),))

    def _logout(self, request: Request) -> Response:
        cookie = request.cookie(COOKIE)
        with self._lock:
            if cookie is not None:
                self._sessions.pop(cookie, None)
        expired = f"{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
        return Response.redirect("/referee/login", (("Set-Cookie", expired),))

    def _action(self, request: Request) -> Response:
        # JSON only: a cross-site form cannot send it without a CORS preflight (CSRF).
        kind = (request.header("content-type") or "").split(";")[0].strip()
        origin = request.header("origin")
        host = request.header("host")
        if kind != "application/json" or (origin is not None and origin != f"http://{host}"):
            return _result(ActionResult(False, None, RejectReason.INVALID, "JSON from this page"))
        try:
            action = parse_action(request.json(), self.referee_name(request))
        except ValueError as err:
            return _result(ActionResult(False, None, RejectReason.INVALID, str(err)))
        if self._on_action is None:
            return _result(ActionResult(False, None, RejectReason.UNAVAILABLE, "no daemon"))
        result = self._on_action(action)
        log.info("referee action %s from %s: %s", action.kind.value, request.client, result)
        return _result(result)


def _result(result: ActionResult) -> Response:
    status = HTTPStatus.OK
    if result.reason is RejectReason.INVALID:
        status = HTTPStatus.BAD_REQUEST
    elif result.reason is RejectReason.UNAVAILABLE:
        status = HTTPStatus.SERVICE_UNAVAILABLE
    elif not result.accepted:
        status = HTTPStatus.CONFLICT
    return Response.json(result.to_json(), status)


def _dump(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def words_catalog(request: Request) -> Response:
    """The page's words: the catalog of the language the page picked (`?lang=zh-CN`) or,
    without one, the browser's first choice the table speaks (Accept-Language)."""
    lang = negotiate(request.param("lang") or request.header("accept-language"))
    return Response.json(translator(lang).to_json(), headers=(("Vary", "Accept-Language"),))
