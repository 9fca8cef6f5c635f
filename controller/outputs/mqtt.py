"""The table-side MQTT publisher: one table's status, public view, moves and settled deals
to the hall broker, in the protocol of `controller/hub/wire.py` (docs/MQTT.md).

It keeps QoS 1 messages in its own FIFO and hands them to paho only while the broker is
connected, a few at a time; after a reconnect nothing new is handed over until paho has
re-sent, and had acknowledged, what was in flight, so the broker receives them in order.
The FIFO lives in memory: deals and status are never dropped, events beyond `queue_limit`
are (counted). A daemon restarted while the broker is down loses its FIFO; it republishes
the journal's settled deals (controller/outputs/hall_results.py: same `seq`, or a corrected
deal under its correction's), which receivers ignore when held already.
A table with no broker configured simply has no publisher. With a table key
(controller/hub/signing.py) every deal is signed as it is published: a settlement, a
correction and a deal republished from the journal alike.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as paho

from controller.hub.signing import TableKey
from controller.hub.wire import (
    WINDOW,
    BrokerOptions,
    Channel,
    EventKind,
    Ledger,
    Presence,
    SeatingNotice,
    SettledDeal,
    TableEvent,
    TableStatus,
    WireError,
    encode,
    make_client,
    seating_topic,
    topic,
)
from controller.outputs.view import BroadcastView, PublicView
from rules.melds import Meld, MeldKind
from rules.seats import Seat
from rules.tiles import Tile

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Outgoing:
    topic: str
    payload: bytes
    retain: bool
    essential: bool  # deals and status: never dropped


@dataclass(slots=True)
class PublisherStats:
    connects: int = 0
    disconnects: int = 0
    dropped_events: int = 0
    handed: int = 0  # QoS 1 messages handed to paho


class MqttPublisher:
    """Publishes one table to the hall broker. Thread-safe; `publish_*` never block on the
    network. `start()` returns at once: the connection is made (and remade) in the
    background with exponential backoff between `reconnect_min_s` and `reconnect_max_s`."""

    def __init__(
        self,
        options: BrokerOptions,
        hall: str,
        table: str,
        queue_limit: int = 10_000,
        key: TableKey | None = None,
        on_seating: Callable[[SeatingNotice], None] | None = None,
    ) -> None:
        self.options, self.hall, self.table = options, hall, table
        # the hall's seating of this table's next session (docs/HALL.md), read from the hub's
        # retained topic; None: not subscribed
        self.on_seating = on_seating
        self._seating_refused = 0
        self.key = key  # signs every deal published (None: published unsigned)
        self.queue_limit = queue_limit
        self._topics = {c: topic(hall, table, c) for c in Channel}
        self._client = make_client(options, f"mjtable-{hall}-{table}")
        self._client.will_set(
            self._topics[Channel.STATUS],
            encode(TableStatus(hall, table, Presence.OFFLINE, will=True)),
            qos=1,
            retain=True,
        )
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
        self._cond = threading.Condition()
        self._fifo: deque[_Outgoing] = deque()
        self._in_flight: list[paho.MQTTMessageInfo] = []
        self._handing = False  # the pump holds a message between the FIFO and paho
        self._connected = False
        self._resync = False
        self._stopping = False
        self.stats = PublisherStats()
        self._ledger: dict[tuple[int, int], SettledDeal] = {}
        self._status = TableStatus(hall, table, Presence.ONLINE)
        self._view: bytes | None = None
        self._broadcast: bytes | None = None
        self._pump = threading.Thread(target=self._run_pump, name=f"mqtt-{table}", daemon=True)

    # -- public API --
    def start(self) -> None:
        self._client.connect_async(self.options.host, self.options.port, self.options.keepalive_s)
        self._client.loop_start()
        self._pump.start()

    def stop(self, drain_timeout_s: float = 5.0) -> bool:
        """Deliver what is queued (bounded wait), say "offline", disconnect. True if drained."""
        drained = self.wait_drained(drain_timeout_s)
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            connected = self._connected
            offline = _replace_status(self._status, presence=Presence.OFFLINE)
        if connected:
            info = self._client.publish(
                self._topics[Channel.STATUS], encode(offline), qos=1, retain=True
            )
            kept_for_reconnection(info).wait_for_publish(drain_timeout_s)
        self._client.disconnect()
        self._client.loop_stop()
        self._pump.join(drain_timeout_s)
        return drained

    @property
    def connected(self) -> bool:
        with self._cond:
            return self._connected

    @property
    def pending(self) -> int:
        """QoS 1 messages not yet acknowledged by the broker."""
        with self._cond:
            return len(self._fifo) + self._count_in_flight() + self._handing

    def wait_drained(self, timeout_s: float) -> bool:
        """Wait until the broker has acknowledged everything queued so far."""
        with self._cond:
            return self._cond.wait_for(
                lambda: not self._fifo and not self._handing and not self._count_in_flight(),
                timeout_s,
            )

    def wait_connected(self, timeout_s: float, connected: bool = True) -> bool:
        """Wait, bounded, until the link is up (or, with `connected=False`, down)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._connected is connected, timeout_s)

    def publish_status(
        self, session: int | None, deal: int | None, phase: str | None, **more: Any
    ) -> TableStatus:
        """`more`: TableStatus's optional fields (session_deal, scores, ...)."""
        with self._cond:
            self._status = _replace_status(
                self._status, session=session, deal=deal, phase=phase, **more
            )
            self._enqueue(Channel.STATUS, encode(self._status), retain=True, essential=True)
            return self._status

    def publish_view(self, view: PublicView) -> None:
        """The latest public view, retained, QoS 0: only the newest one matters, so one
        published while the broker is away is sent on reconnection instead."""
        data = encode(view)
        with self._cond:
            self._view = data
            if not self._connected:
                return
        self._client.publish(self._topics[Channel.VIEW], data, qos=0, retain=True)

    def publish_broadcast(self, view: BroadcastView) -> None:
        """The delayed feed (hands and waits, never the wall), retained, QoS 0, as the
        scoreboard releases it once the organiser's delay has passed (`[http]
        broadcast_delay`): called by `Scoreboard.on_release`, never with a view still held."""
        data = encode(view)
        with self._cond:
            self._broadcast = data
            if not self._connected:
                return
        self._client.publish(self._topics[Channel.BROADCAST], data, qos=0, retain=True)

    def publish_event(self, event: TableEvent) -> bool:
        """False when the queue is full and the event was dropped (counted)."""
        with self._cond:
            return self._enqueue(Channel.EVENT, encode(event), retain=False, essential=False)

    def publish_deal(self, deal: SettledDeal) -> None:
        """The deal (signed with the table's key), then the retained ledger and status that
        include it."""
        if self.key is not None:
            deal = self.key.sign(self.hall, self.table, deal)
        with self._cond:
            self._ledger[(deal.session, deal.deal)] = deal
            ledger = Ledger(tuple(sorted(self._ledger.values(), key=lambda d: d.seq)))
            self._status = _replace_status(self._status, last_deal_seq=deal.seq)
            self._enqueue(Channel.DEAL, encode(deal), retain=False, essential=True)
            self._enqueue(Channel.LEDGER, encode(ledger), retain=True, essential=True)
            self._enqueue(Channel.STATUS, encode(self._status), retain=True, essential=True)

    # -- internals (the caller holds self._cond) --
    def _count_in_flight(self) -> int:
        self._in_flight = [i for i in self._in_flight if not i.is_published()]
        return len(self._in_flight)

    def _enqueue(self, channel: Channel, data: bytes, retain: bool, essential: bool) -> bool:
        if not essential and len(self._fifo) + self._count_in_flight() >= self.queue_limit:
            if self.stats.dropped_events == 0:
                log.warning("MQTT queue full (%d): dropping events", self.queue_limit)
            self.stats.dropped_events += 1
            return False
        self._fifo.append(_Outgoing(self._topics[channel], data, retain, essential))
        self._cond.notify_all()
        return True

    def _may_send(self) -> bool:
        if self._stopping or not self._connected or not self._fifo:
            return False
        in_flight = self._count_in_flight()
        # after a reconnect paho first re-sends what was in flight: wait for it, keep order
        return in_flight == 0 if self._resync else in_flight < WINDOW

    def _run_pump(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._stopping or self._may_send())
                if self._stopping:
                    return
                self._resync = False
                msg = self._fifo.popleft()
                self._handing = True
            # outside the lock: paho calls on_publish while holding its own mutex
            info = self._client.publish(msg.topic, msg.payload, qos=1, retain=msg.retain)
            with self._cond:
                self._in_flight.append(kept_for_reconnection(info))
                self._handing = False
                self.stats.handed += 1
                self._cond.notify_all()

    # -- paho callbacks (paho's network thread) --
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.warning("MQTT broker %s refused the connection: %s", self.options.host, reason_code)
            return
        with self._cond:
            self.stats.connects += 1
            self._connected = True
            # the Will may have said "offline" meanwhile: say "online" again, first
            self._fifo.appendleft(
                _Outgoing(self._topics[Channel.STATUS], encode(self._status), True, True)
            )
            latest = ((Channel.VIEW, self._view), (Channel.BROADCAST, self._broadcast))
            self._cond.notify_all()
        log.info("MQTT connected to %s:%d", self.options.host, self.options.port)
        if self.on_seating is not None:
            client.subscribe(seating_topic(self.hall, self.table), qos=1)
        for channel, data in latest:
            if data is not None:
                client.publish(self._topics[channel], data, qos=0, retain=True)

    def _on_message(self, client, userdata, message) -> None:
        """The hub's seating for this table: handed on, or refused (counted, logged once)."""
        if self.on_seating is None or not message.payload:
            return
        try:
            notice = SeatingNotice.decode(message.payload)
            if (notice.hall, notice.table) != (self.hall, self.table):
                raise WireError(f"a seating for {notice.hall}/{notice.table}")
        except WireError as err:
            self._seating_refused += 1
            (log.warning if self._seating_refused == 1 else log.debug)(
                "a seating this table cannot take: %s", err
            )
            return
        try:
            self.on_seating(notice)
        except Exception:
            log.exception("the seating listener failed")

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._cond:
            if self._stopping:  # our own disconnect at a clean stop
                log.info("MQTT disconnected (%s)", reason_code)
            elif self._connected:
                log.warning("MQTT connection lost (%s); buffering", reason_code)
            self.stats.disconnects += 1
            self._connected = False
            self._resync = True
            self._cond.notify_all()

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        with self._cond:
            self._cond.notify_all()


def kept_for_reconnection(info: paho.MQTTMessageInfo) -> paho.MQTTMessageInfo:
    """`info` of a QoS 1 message handed to paho, made safe to ask `is_published()`.

    A message handed over just as the link broke (the socket gone, paho's `on_disconnect` not
    yet called) is kept by paho and sent once it has reconnected, but its `rc` says
    `MQTT_ERR_NO_CONN`, and `is_published()` raises for that code forever, even after the
    broker's PUBACK. Such a message is in flight like any other: its code is cleared."""
    if info.rc == paho.MQTT_ERR_NO_CONN:
        info.rc = paho.MQTT_ERR_SUCCESS
    return info


def _replace_status(status: TableStatus, **changes: Any) -> TableStatus:
    return dataclasses.replace(status, **changes)


# journal `move` names (docs/JOURNAL.md) → public event kinds; a void choice, a pass and a
# window close are not published (the void stays hidden until its tile is discarded)
_PUBLIC_MOVES = {
    "draw": EventKind.DRAW,
    "replacement-draw": EventKind.DRAW,
    "discard": EventKind.DISCARD,
    "pung": EventKind.PUNG,
    "chow": EventKind.CHOW,
    "kong": EventKind.KONG,
    "concealed-kong": EventKind.KONG,
    "promoted-kong": EventKind.KONG,
    "postponed-kong": EventKind.KONG,
    "hu": EventKind.HU,
    "penalty": EventKind.PENALTY,
}


def public_event(
    payload: Mapping[str, Any], seq: int, session: int, deal: int
) -> TableEvent | None:
    """The public event of a `move.accepted` payload, or None if nothing of it is public.

    Only a discard carries its tile; a kong names its meld (laid out for all to see, 004
    Lesson 3); a draw never names its tile (concealed), and a Hu names none either (the
    discard or the added kong tile is public as its own event, a self-drawn tile is not)."""
    kind = _PUBLIC_MOVES.get(str(payload.get("move")))
    if kind is None:
        return None
    seat = payload.get("seat")
    tile = payload.get("tile")
    meld = f"{payload['move']} {tile}" if kind is EventKind.KONG and tile else None
    if kind is EventKind.CHOW and tile:
        # the journal names a chow by its lowest tile; the meld says which three (laid out)
        meld = str(Meld(MeldKind.CHOW, Tile.parse(tile)))
    return TableEvent(
        seq=seq,
        session=session,
        deal=deal,
        kind=kind,
        seat=Seat.parse(seat) if seat else None,
        tile=tile if kind is EventKind.DISCARD else None,
        meld=meld,
    )
