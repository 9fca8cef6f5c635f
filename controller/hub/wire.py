"""The hall protocol: MQTT topics and payloads between the tables and the hub (docs/MQTT.md).

    mjtable/<hall>/<table>/status   retained, QoS 1  TableStatus; the Last Will says "offline"
    mjtable/<hall>/<table>/view     retained, QoS 0  PublicView (controller/outputs/view.py)
    mjtable/<hall>/<table>/event    QoS 1            TableEvent: public moves only
    mjtable/<hall>/<table>/deal     QoS 1            SettledDeal, with a per-table `seq`
    mjtable/<hall>/<table>/ledger   retained, QoS 1  every SettledDeal the table published

Every payload is one JSON object naming its `kind` and the wire `version` (gpsd style).
QoS 1 may deliver a message twice; a receiver keys deals on (table, session, deal) and keeps
the highest `seq`. `hall` and `table` are single topic levels (no `/`, `+`, `#`).
"""

from __future__ import annotations

import json
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho

from controller.errors import TableError
from controller.outputs.view import PublicView
from rules.melds import Meld
from rules.seats import Seat
from rules.tiles import parse_tiles

WIRE_VERSION = 1
TOPIC_ROOT = "mjtable"


class WireError(TableError, ValueError):
    """A payload or topic that does not follow docs/MQTT.md."""


class Channel(Enum):
    STATUS = "status"
    VIEW = "view"
    EVENT = "event"
    DEAL = "deal"
    LEDGER = "ledger"


def _check_level(name: str, what: str) -> str:
    if not name or any(c in name for c in "/+#\0") or name != name.strip():
        raise WireError(f"{what} {name!r} is not a single MQTT topic level")
    return name


def topic(hall: str, table: str, channel: Channel) -> str:
    return (
        f"{TOPIC_ROOT}/{_check_level(hall, 'hall')}/{_check_level(table, 'table')}/{channel.value}"
    )


def parse_topic(text: str) -> tuple[str, str, Channel]:
    parts = text.split("/")
    if len(parts) != 4 or parts[0] != TOPIC_ROOT:
        raise WireError(f"not an mjtable topic: {text!r}")
    try:
        return parts[1], parts[2], Channel(parts[3])
    except ValueError:
        raise WireError(f"unknown channel in {text!r}") from None


# ---- payloads -------------------------------------------------------------------------


class Presence(Enum):
    ONLINE = "online"
    OFFLINE = "offline"


def _get(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], optional: bool = False):
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise WireError(f"field {key!r}: expected {kind}, got {value!r}")
    return value


def _seat(text: Any) -> Seat:
    if not isinstance(text, str) or text not in Seat.__members__:
        raise WireError(f"a seat is one of E S W N, not {text!r}")
    return Seat[text]


@dataclass(frozen=True, slots=True)
class TableStatus:
    hall: str
    table: str
    presence: Presence
    session: int | None = None
    deal: int | None = None
    phase: str | None = None
    last_deal_seq: int | None = None  # the seq of the last SettledDeal published
    # what the director's page shows (optional: a table that does not send them shows less)
    session_deal: int | None = None  # the deal's number in its session (1, 2, ...)
    session_deals: int | None = None  # the deals a session has (--deals, the rule set's)
    session_started: str | None = None  # when the session began (ISO 8601 wall time)
    turn: str | None = None  # E S W N: whose turn it is
    players: tuple[str, ...] = ()  # names at E S W N
    scores: tuple[int, ...] = ()  # each seat's running score now, E S W N
    referee_called: bool = False  # the table waits for the referee (its board says so)
    will: bool = False  # the Last Will: the broker lost the table's link (not the table)

    def __post_init__(self) -> None:
        if len(self.players) not in (0, 4) or len(self.scores) not in (0, 4):
            raise WireError("players and scores are given for the four seats E S W N")
        if self.turn is not None and self.turn not in Seat.__members__:
            raise WireError(f"turn {self.turn!r} is not a seat")

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "status",
            "version": WIRE_VERSION,
            "hall": self.hall,
            "table": self.table,
            "presence": self.presence.value,
            "session": self.session,
            "deal": self.deal,
            "phase": self.phase,
            "last_deal_seq": self.last_deal_seq,
            "session_deal": self.session_deal,
            "session_deals": self.session_deals,
            "session_started": self.session_started,
            "turn": self.turn,
            "players": list(self.players),
            "scores": list(self.scores),
            "referee_called": self.referee_called,
            **({"will": True} if self.will else {}),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> TableStatus:
        try:
            presence = Presence(obj.get("presence"))
        except ValueError:
            raise WireError(f"presence {obj.get('presence')!r}") from None
        return cls(
            _get(obj, "hall", str),
            _get(obj, "table", str),
            presence,
            _get(obj, "session", int, True),
            _get(obj, "deal", int, True),
            _get(obj, "phase", str, True),
            _get(obj, "last_deal_seq", int, True),
            _get(obj, "session_deal", int, True),
            _get(obj, "session_deals", int, True),
            _get(obj, "session_started", str, True),
            _get(obj, "turn", str, True),
            tuple(str(p) for p in _get(obj, "players", list, True) or ()),
            tuple(int(v) for v in _get(obj, "scores", list, True) or ()),
            bool(_get(obj, "referee_called", bool, True)),
            bool(_get(obj, "will", bool, True)),
        )


class EventKind(Enum):
    """Public moves. A drawn tile is concealed: a `draw` never carries its tile."""

    DEAL_STARTED = "deal-started"
    DRAW = "draw"
    DISCARD = "discard"
    PUNG = "pung"
    CHOW = "chow"  # rule sets that claim chows (Wellness, 001 IV 2.1)
    KONG = "kong"
    HU = "hu"
    FALSE_HU = "false-hu"
    VOID_REVEALED = "void-revealed"
    PENALTY = "penalty"
    DEAL_ENDED = "deal-ended"


@dataclass(frozen=True, slots=True)
class TableEvent:
    seq: int  # the journal sequence number of the move
    session: int
    deal: int
    kind: EventKind
    seat: Seat | None = None
    tile: str | None = None  # a public tile: the discard, the Hu tile
    meld: str | None = None  # "pung 5s", "promoted-kong 8s", "chow 345m"
    text: str = ""

    def __post_init__(self) -> None:
        if self.kind is EventKind.DRAW and self.tile is not None:
            raise WireError("a draw is published without its tile (concealed)")
        if self.tile is not None and len(parse_tiles(self.tile)) != 1:
            raise WireError(f"one tile expected, not {self.tile!r}")
        if self.meld is not None:
            Meld.parse(self.meld)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "event",
            "version": WIRE_VERSION,
            "seq": self.seq,
            "session": self.session,
            "deal": self.deal,
            "event": self.kind.value,
            "seat": None if self.seat is None else self.seat.name,
            "tile": self.tile,
            "meld": self.meld,
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class SettledDeal:
    """The settlement summary of one deal, deltas in seat order E S W N (fixed seats).

    `seq` grows with every settlement a table makes (the journal sequence number of the
    settlement record): a referee's correction of a deal is published again with a higher
    `seq`, and receivers keep the highest one for each (session, deal). `head` is that
    record's hash: `seq:head` is the table journal's chain head when the deal settled, kept
    off the table (`mjtable hub --heads`) so a journal cut short later is found
    (`mjtable journal verify --anchors`); "" from tables before issue 15.
    """

    seq: int
    session: int
    deal: int
    rules: str
    dealer: Seat
    dice: tuple[int, int]
    winners: tuple[Seat, ...]  # in Hu order
    deltas: tuple[int, int, int, int]
    players: tuple[str, ...] = ()  # names at E S W N, or () when the table does not know them
    head: str = ""  # the settlement record's hash (64 hex digits), "" when not sent
    # the table's signature (controller/hub/signing.py): the key's fingerprint and the
    # Ed25519 signature in base64, "" from a table without a key
    key: str = ""
    sig: str = ""
    # points each seat E S W N paid as penalties (a referee's penalty, the void penalty, a
    # false Hu), already inside `deltas`; and the points paid to nobody (the void penalty),
    # which make a deal's deltas sum below zero (docs/MQTT.md)
    penalties: tuple[int, int, int, int] = (0, 0, 0, 0)
    to_nobody: int = 0

    def __post_init__(self) -> None:
        if len(self.penalties) != 4 or any(p < 0 for p in self.penalties) or self.to_nobody < 0:
            raise WireError(f"penalties {self.penalties}, to nobody {self.to_nobody}")
        if self.head and (
            len(self.head) != 64 or any(c not in "0123456789abcdef" for c in self.head)
        ):
            raise WireError(f"head: 64 hex digits, not {self.head!r}")
        if self.seq < 0 or self.session < 1 or self.deal < 1:
            raise WireError(f"seq {self.seq}, session {self.session}, deal {self.deal}")
        if len(self.dice) != 2 or not all(1 <= d <= 6 for d in self.dice):
            raise WireError(f"two dice of 1-6, not {self.dice}")
        if len(self.deltas) != 4 or len(self.players) not in (0, 4):
            raise WireError("deltas (and players) are given for the four seats E S W N")
        if len(set(self.winners)) != len(self.winners) or len(self.winners) > 3:
            raise WireError(f"winners {self.winners}")

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "deal",
            "version": WIRE_VERSION,
            "seq": self.seq,
            "session": self.session,
            "deal": self.deal,
            "rules": self.rules,
            "dealer": self.dealer.name,
            "dice": list(self.dice),
            "winners": [s.name for s in self.winners],
            "deltas": list(self.deltas),
            "players": list(self.players),
            **({"head": self.head} if self.head else {}),
            **({"penalties": list(self.penalties)} if any(self.penalties) else {}),
            **({"to_nobody": self.to_nobody} if self.to_nobody else {}),
            **({"key": self.key, "sig": self.sig} if self.sig else {}),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> SettledDeal:
        seq, session, deal = (_get(obj, k, int) for k in ("seq", "session", "deal"))
        dice = _get(obj, "dice", list)
        deltas = _get(obj, "deltas", list)
        players = obj.get("players") or []
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in dice + deltas):
            raise WireError("dice and deltas are integers")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise WireError("players are names")
        penalties = obj.get("penalties") or [0, 0, 0, 0]
        to_nobody = obj.get("to_nobody") or 0
        if (
            not isinstance(penalties, list)
            or len(penalties) != 4
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in penalties)
            or not isinstance(to_nobody, int)
        ):
            raise WireError("penalties are four integers, to_nobody one")
        return cls(
            seq,
            session,
            deal,
            rules=_get(obj, "rules", str),
            dealer=_seat(obj.get("dealer")),
            dice=tuple(dice),
            winners=tuple(_seat(s) for s in _get(obj, "winners", list)),
            deltas=tuple(deltas),
            players=tuple(players),
            head=str(obj.get("head") or ""),
            key=str(obj.get("key") or ""),
            sig=str(obj.get("sig") or ""),
            penalties=(penalties[0], penalties[1], penalties[2], penalties[3]),
            to_nobody=to_nobody,
        )


@dataclass(frozen=True, slots=True)
class Ledger:
    """Every deal a table published since its publisher started (retained, for late hubs)."""

    deals: tuple[SettledDeal, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "ledger",
            "version": WIRE_VERSION,
            "deals": [d.to_json() for d in self.deals],
        }


@dataclass(frozen=True, slots=True)
class Received:
    """A decoded message with the table it came from (the topic is authoritative)."""

    hall: str
    table: str
    payload: TableStatus | SettledDeal | Ledger | TableEvent | PublicView | None


def decode(topic_text: str, data: bytes) -> Received:
    """Decode what a subscriber received; raises WireError on anything malformed.
    An empty retained payload (a cleared topic) decodes to `payload=None`."""
    hall, table, channel = parse_topic(topic_text)
    if not data:
        return Received(hall, table, None)
    try:
        obj = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise WireError(f"{topic_text}: not JSON: {err}") from None
    if not isinstance(obj, dict):
        raise WireError(f"{topic_text}: not a JSON object")
    if obj.get("version") != WIRE_VERSION:
        raise WireError(f"{topic_text}: version {obj.get('version')!r}, this is {WIRE_VERSION}")
    kind = obj.get("kind")
    if channel is Channel.STATUS and kind == "status":
        return Received(hall, table, TableStatus.from_json(obj))
    if channel is Channel.DEAL and kind == "deal":
        return Received(hall, table, SettledDeal.from_json(obj))
    if channel is Channel.LEDGER and kind == "ledger":
        deals = _get(obj, "deals", list)
        return Received(hall, table, Ledger(tuple(SettledDeal.from_json(d) for d in deals)))
    raise WireError(f"{topic_text}: kind {kind!r} is not decoded here")


def encode(payload: TableStatus | SettledDeal | Ledger | TableEvent | PublicView) -> bytes:
    return json.dumps(payload.to_json(), separators=(",", ":"), ensure_ascii=False).encode()


# ---- connection options, shared with the hub ------------------------------------------


@dataclass(frozen=True, slots=True)
class BrokerOptions:
    host: str = "127.0.0.1"
    port: int = 1883
    username: str | None = None
    password: str | None = None
    tls_ca: Path | None = None  # a CA file turns TLS on
    tls_insecure: bool = False  # skip the host name check (self-signed test brokers)
    keepalive_s: int = 30
    reconnect_min_s: float = 0.5
    reconnect_max_s: float = 30.0

    @classmethod
    def parse_address(cls, text: str, **options: Any) -> BrokerOptions:
        """`host`, `host:port` or `[v6addr]:port`; 8883 is the default port with TLS."""
        host, port = text, 0
        if text.startswith("["):
            host, _, rest = text[1:].partition("]")
            port = int(rest[1:]) if rest.startswith(":") else 0
        elif text.count(":") == 1:
            host, _, p = text.partition(":")
            port = int(p)
        if not port:
            port = 8883 if options.get("tls_ca") else 1883
        if not host or not 0 < port < 65536:
            raise ValueError(f"a broker address is host[:port], not {text!r}")
        return cls(host=host, port=port, **options)


def make_client(options: BrokerOptions, client_id: str, clean_session: bool = True) -> paho.Client:
    """A paho client (MQTT 3.1.1) with the options' credentials, TLS and backoff."""
    client = paho.Client(
        paho.CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=paho.MQTTv311,
        clean_session=clean_session,
    )
    client.max_inflight_messages_set(WINDOW)
    client.reconnect_delay_set(options.reconnect_min_s, options.reconnect_max_s)  # type: ignore[arg-type]  # paho's hint says int; it waits float seconds
    if options.username is not None:
        client.username_pw_set(options.username, options.password)
    if options.tls_ca is not None:
        client.tls_set(ca_certs=str(options.tls_ca), tls_version=ssl.PROTOCOL_TLS_CLIENT)
        client.tls_insecure_set(options.tls_insecure)
    return client


WINDOW = 8  # QoS 1 messages handed to paho at once, per connection


# ---- what the hub tells the tables -----------------------------------------------------

HUB_ROOT = "mjtable-hub"  # the hub's own topics: mjtable-hub/<hall>/...


def seating_topic(hall: str, table: str) -> str:
    """Retained, QoS 1, written by the hub: the seating of the table's next session."""
    return f"{HUB_ROOT}/{_check_level(hall, 'hall')}/seating/{_check_level(table, 'table')}"


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    id: str  # the roster's stable id
    name: str


@dataclass(frozen=True, slots=True)
class SeatingNotice:
    """Who sits where at a table in a session of the tournament (the hall's seating plan):
    the table starts its next session as `session` with these players at E S W N."""

    hall: str
    table: str
    session: int
    players: tuple[SeatedPlayer, SeatedPlayer, SeatedPlayer, SeatedPlayer]

    def __post_init__(self) -> None:
        if self.session < 1:
            raise WireError(f"session {self.session}")
        if len(self.players) != 4 or len({p.id for p in self.players}) != 4:
            raise WireError("a seating names four different players, E S W N")
        for p in self.players:
            if not p.id or not p.name or any(c in p.id for c in "/+#\0 "):
                raise WireError(f"player {p.id!r} {p.name!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "seating",
            "version": WIRE_VERSION,
            "hall": self.hall,
            "table": self.table,
            "session": self.session,
            "players": [{"id": p.id, "name": p.name} for p in self.players],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> SeatingNotice:
        if obj.get("kind") != "seating" or obj.get("version") != WIRE_VERSION:
            raise WireError(f"not a seating of wire version {WIRE_VERSION}")
        players = _get(obj, "players", list)
        if len(players) != 4 or not all(isinstance(p, dict) for p in players):
            raise WireError("a seating names four players, E S W N")
        seated = tuple(SeatedPlayer(_get(p, "id", str), _get(p, "name", str)) for p in players)
        return cls(
            _get(obj, "hall", str),
            _get(obj, "table", str),
            _get(obj, "session", int),
            (seated[0], seated[1], seated[2], seated[3]),
        )

    @classmethod
    def decode(cls, data: bytes) -> SeatingNotice:
        try:
            obj = json.loads(data)
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise WireError(f"a seating that is not JSON: {err}") from None
        if not isinstance(obj, dict):
            raise WireError("a seating that is not a JSON object")
        return cls.from_json(obj)

    def encode(self) -> bytes:
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False).encode()
