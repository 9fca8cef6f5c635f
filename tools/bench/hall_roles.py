"""The child processes of `mjtable bench hall` (tools/bench/hall.py), one role each:

    python -m tools.bench.hall_roles tables  SPEC.json   simulated tables, real publishers
    python -m tools.bench.hall_roles viewers SPEC.json   WebSocket viewers, one thread

`tables`: each table is a real `MqttPublisher` with its own connection, replaying the
recorded deal of a real table (its wire payloads, decoded into the views and events the
daemon hands the publisher) at `move_s` a move: the view, the move's events and status, and
the broadcast view of `lag` moves before (the organiser's delay). Each replayed view and
event gets a `seq` of its own (the recorded one plus a lap's offset), so a viewer's message
names the publish it came from; its wall time is written to OUT at SIGTERM.
`viewers`: paho clients over WebSockets driven by one selector loop (a phone each, watching
one table's view and events); prints `ready` once every one is subscribed, and at SIGTERM
writes what each received (table, channel, seq, wall time) to OUT.
"""

from __future__ import annotations

import dataclasses
import json
import selectors
import signal
import sys
import threading
import time
import types
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

import paho.mqtt.client as paho

from controller.hub.wire import BrokerOptions, EventKind, TableEvent, TableStatus
from controller.outputs.mqtt import MqttPublisher
from controller.outputs.view import BroadcastView, PublicView
from rules.seats import Seat

LAP = 1_000_000  # a replayed seq: recorded seq + lap * LAP


def _value(kind: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        inner = next(a for a in get_args(kind) if a is not type(None))
        return _value(inner, value)
    if origin is tuple:
        return tuple(_value(get_args(kind)[0], v) for v in value)
    if dataclasses.is_dataclass(kind):
        return view_from_json(kind, value)
    return value


def view_from_json(cls: Any, obj: dict[str, Any]) -> Any:
    """A view dataclass (controller/outputs/view.py) from its `to_json()`."""
    hints = get_type_hints(cls)
    given = {
        f.name: _value(hints[f.name], obj[f.name])
        for f in dataclasses.fields(cls)
        if f.init and f.name in obj
    }
    return cls(**given)


def event_from_json(obj: dict[str, Any]) -> TableEvent:
    seat = obj.get("seat")
    return TableEvent(obj["seq"], obj["session"], obj["deal"], EventKind(obj["event"]),
                      Seat[seat] if seat else None, obj.get("tile"), obj.get("meld"),
                      obj.get("text", ""))  # fmt: skip


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """One recorded moment of the table: its view, then what was published with it."""

    view: PublicView
    events: tuple[TableEvent, ...]
    status: TableStatus | None
    broadcast: BroadcastView | None


def read_moves(path: Path) -> list[Move]:
    """The recording (JSON lines `{"channel", "payload"}`, in the order published) as moves."""
    moves: list[Move] = []
    events: list[TableEvent] = []
    status = broadcast = None
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        obj = item["payload"]
        if item["channel"] == "event":
            events.append(event_from_json(obj))
        elif item["channel"] == "status":
            status = TableStatus.from_json(obj)
        elif item["channel"] == "broadcast":
            broadcast = BroadcastView(view_from_json(PublicView, obj["public"]),
                                      view_from_json(BroadcastView, obj).hands, obj["shown_at"])  # fmt: skip
        elif item["channel"] == "view":
            moves.append(Move(view_from_json(PublicView, obj), tuple(events), status, broadcast))
            events, status = [], None
    return moves


def _options(spec: dict[str, Any], user: str, password: str) -> BrokerOptions:
    return BrokerOptions(port=spec["port"], username=user, password=password)


def run_tables(spec: dict[str, Any]) -> None:
    moves = read_moves(Path(spec["moves"]))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    published: list[tuple[str, str, int, float]] = []  # table, channel, seq, wall time
    tables = []
    for name, password in spec["tables"].items():
        publisher = MqttPublisher(_options(spec, f"table-{spec['hall']}-{name}", password),
                                  spec["hall"], name)  # fmt: skip
        publisher.start()
        tables.append((name, publisher))
    move_s, lag = spec["move_s"], spec["lag"]
    start = time.monotonic()
    step = 0
    print("publishing", flush=True)
    while not stop.is_set():
        for i, (name, publisher) in enumerate(tables):
            # the tables' moves are spread over the move's time, as a hall's are
            due = start + (step + i / len(tables)) * move_s
            if stop.wait(max(0.0, due - time.monotonic())):
                break
            lap, at = divmod(step + i * 7, len(moves))
            move = moves[at]
            shift = lap * LAP
            if move.status is not None:
                publisher.publish_status(move.status.session, move.status.deal, move.status.phase)
            for event in move.events:
                event = dataclasses.replace(event, seq=event.seq + shift)
                published.append((name, "event", event.seq, time.time()))
                publisher.publish_event(event)
            # a table republishes a view under the same seq (the claim countdown): the
            # replayed view's seq is its place in the recording, one per publish
            view = dataclasses.replace(move.view, seq=at + shift)
            published.append((name, "view", view.seq, time.time()))
            publisher.publish_view(view)
            held = moves[(at - lag) % len(moves)].broadcast
            if held is not None:
                publisher.publish_broadcast(held)
        step += 1
    for _, publisher in tables:
        publisher.stop(2)
    Path(spec["out"]).write_text(json.dumps(published), encoding="utf-8")


class _Viewer:
    __slots__ = ("client", "got", "subscribed", "table")

    def __init__(self, table: str, port: int, hall: str) -> None:
        self.table, self.got, self.subscribed = table, [], False
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, transport="websockets")
        self.client.on_message = self._message
        self.client.on_subscribe = self._ack
        self.client.connect("127.0.0.1", port, keepalive=60)
        self.client.subscribe([(f"mjtable/{hall}/{table}/view", 0),
                               (f"mjtable/{hall}/{table}/event", 0)])  # fmt: skip

    def _message(self, client, userdata, msg) -> None:
        now = time.time()
        obj = json.loads(msg.payload)
        self.got.append((msg.topic.rsplit("/", 1)[1], obj["seq"], now))

    def _ack(self, client, userdata, mid, codes, properties) -> None:
        self.subscribed = True


def run_viewers(spec: dict[str, Any]) -> None:
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    viewers = [_Viewer(t, spec["ws_port"], spec["hall"]) for t in spec["watch"]]
    selector = selectors.DefaultSelector()
    for v in viewers:
        selector.register(v.client.socket(), selectors.EVENT_READ, v)
    said_ready = False
    last_misc = 0.0
    while not stop.is_set():
        for v in viewers:
            if v.client.want_write():
                v.client.loop_write()
        for key, _ in selector.select(0.05):
            client = key.data.client
            client.loop_read(64)
            while client.socket() is not None and client.socket().pending():
                client.loop_read(64)
        now = time.monotonic()
        if now - last_misc >= 1.0:
            last_misc = now
            for v in viewers:
                v.client.loop_misc()
        if not said_ready and all(v.subscribed for v in viewers):
            said_ready = True
            print(f"ready {time.time()}", flush=True)
    out = {"subscribed": {}, "got": []}
    for i, v in enumerate(viewers):
        out["got"].append([v.table, v.got])
        out["subscribed"][i] = v.subscribed
        v.client.disconnect()
    Path(spec["out"]).write_text(json.dumps(out), encoding="utf-8")


def main(argv: list[str]) -> int:
    role, spec = argv[0], json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    {"tables": run_tables, "viewers": run_viewers}[role](spec)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
