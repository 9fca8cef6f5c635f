"""The hub's MQTT side: subscribes to every table of a hall and feeds the standings.

It subscribes (again, after every reconnect) to the tables' retained status and ledger and
to their deal stream, at QoS 1. A malformed message is counted and logged, never raised out
of paho's loop. Duplicates are the standings' business (they are idempotent). With a gate
(controller/hub/trust.py) a deal whose signature does not hold is refused before the
standings see it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from controller.hub.standings import Applied, Standings
from controller.hub.trust import Gate
from controller.hub.wire import (
    TOPIC_ROOT,
    BrokerOptions,
    Channel,
    Ledger,
    SettledDeal,
    TableStatus,
    WireError,
    decode,
    make_client,
    parse_topic,
)

log = logging.getLogger(__name__)


@dataclass(slots=True)
class HubStats:
    connects: int = 0
    messages: int = 0
    rejected: int = 0
    applied: int = 0
    duplicates: int = 0
    refused: int = 0  # deals refused for their signature (each time one arrives)


class HubSubscriber:
    def __init__(
        self,
        options: BrokerOptions,
        standings: Standings,
        hall: str | None = None,
        client_id: str = "mjtable-hub",
        on_change: Callable[[], None] | None = None,
        on_link: Callable[[bool], None] | None = None,
        on_deal: Callable[[str, str, SettledDeal], None] | None = None,
        gate: Gate | None = None,
    ) -> None:
        self.options, self.standings, self.hall = options, standings, hall
        self.gate = gate
        self.on_change = on_change
        self.on_deal = on_deal  # each new or corrected deal: (hall, table, deal)
        self.stats = HubStats()
        self._cond = threading.Condition()
        self._connected = False
        self._stopping = False
        # a persistent session: the broker keeps QoS 1 deals for the hub while it is away
        self._client = make_client(options, client_id, clean_session=False)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._client.on_subscribe = self._on_subscribe
        self._client.on_connect_fail = self._on_connect_fail
        self.on_link = on_link  # called with True / False when the broker is gained / lost
        self.ever_connected = False
        self.link_since = _now()  # when the link last changed (or the hub started)
        self.last_lost: str | None = None  # when the link was last lost
        self._unreachable_said = False

    def topics(self) -> list[tuple[str, int]]:
        hall = self.hall or "+"
        channels = (Channel.STATUS, Channel.LEDGER, Channel.DEAL)
        return [(f"{TOPIC_ROOT}/{hall}/+/{c.value}", 1) for c in channels]

    def start(self) -> None:
        self._client.connect_async(self.options.host, self.options.port, self.options.keepalive_s)
        self._client.loop_start()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
        self._client.disconnect()
        self._client.loop_stop()

    def wait_until(self, predicate: Callable[[], bool], timeout_s: float) -> bool:
        """Wait, bounded, until `predicate()` holds; re-checked after every message."""
        with self._cond:
            return self._cond.wait_for(predicate, timeout_s)

    @property
    def connected(self) -> bool:
        """Connected and subscribed (the broker acknowledged the subscriptions)."""
        with self._cond:
            return self._connected

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.warning("MQTT broker %s refused the hub: %s", self.options.host, reason_code)
            return
        client.subscribe(self.topics())
        with self._cond:
            self.stats.connects += 1
        log.info("hub connected to %s:%d", self.options.host, self.options.port)

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties) -> None:
        if any(rc.is_failure for rc in reason_codes):
            log.warning("the broker refused the hub's subscriptions: %s", reason_codes)
            return
        with self._cond:
            self._connected = True
            self.ever_connected = True
            self.link_since = _now()
            self._unreachable_said = False
            self._cond.notify_all()
        self._link(True)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self._cond:
            if self._stopping:  # our own disconnect at a clean stop
                log.info("hub disconnected (%s)", reason_code)
            elif self._connected:
                log.warning("hub lost the broker (%s); reconnecting", reason_code)
            was, self._connected = self._connected, False
            if was:
                self.link_since = self.last_lost = _now()
            self._cond.notify_all()
        if was and not self._stopping:
            self._link(False)

    def _on_connect_fail(self, client, userdata) -> None:
        """The broker cannot be reached (paho tries again by itself): said once per outage."""
        with self._cond:
            said, self._unreachable_said = self._unreachable_said, True
        if not said:
            log.warning(
                "the MQTT broker %s:%d cannot be reached; the hub keeps trying",
                self.options.host,
                self.options.port,
            )
            self._link(False)

    def _link(self, up: bool) -> None:
        if self.on_link is not None:
            try:
                self.on_link(up)
            except Exception:
                log.exception("hub link listener failed")

    def _on_message(self, client, userdata, message) -> None:
        try:
            received = decode(message.topic, message.payload)
        except (WireError, ValueError) as err:
            with self._cond:
                self.stats.rejected += 1
                first = self.stats.rejected == 1
                self._cond.notify_all()
            (log.warning if first else log.debug)("rejected MQTT message: %s", err)
            return
        now = _now()
        payload = received.payload
        if not (isinstance(payload, TableStatus) and payload.will):
            self.standings.seen(received.hall, received.table, now)  # the table spoke
        changed = False
        offered: list[tuple[str, str, SettledDeal]] = []
        if self.gate is not None:
            offered += self.gate.refresh()  # refused deals a new key now verifies
        if payload is None and parse_topic(message.topic)[2] is not Channel.STATUS:
            pass  # a cleared retained ledger: the deals held stay
        elif isinstance(payload, TableStatus) or payload is None:
            self.standings.apply_status(received.hall, received.table, payload, now)
            changed = True
        elif isinstance(payload, (Ledger, SettledDeal)):
            deals = payload.deals if isinstance(payload, Ledger) else (payload,)
            admitted = [d for d in deals if self._admit(received.hall, received.table, d)]
            changed |= len(admitted) < len(deals)  # the director's page shows a refusal
            offered += [(received.hall, received.table, d) for d in admitted]
        kept = [(h, t, d) for h, t, d in offered if self._apply(h, t, d)]
        changed |= bool(kept)
        with self._cond:
            self.stats.messages += 1
            self._cond.notify_all()
        for hall, table, deal in kept if self.on_deal is not None else ():
            try:
                self.on_deal(hall, table, deal)  # type: ignore[misc]  # not None: the loop's guard
            except Exception:
                log.exception("hub deal listener failed")
        if changed and self.on_change is not None:
            try:
                self.on_change()
            except Exception:
                log.exception("hub change listener failed")

    def _admit(self, hall: str, table: str, deal: SettledDeal) -> bool:
        """The gate's word on the deal's signature (a refusal is counted)."""
        if self.gate is None or self.gate.admit(hall, table, deal):
            return True
        with self._cond:
            self.stats.refused += 1
        return False

    def _apply(self, hall: str, table: str, deal: SettledDeal) -> bool:
        """Into the standings: True if it is new or corrects the one held."""
        fresh = self.standings.apply_deal(hall, table, deal) in (Applied.NEW, Applied.CORRECTED)
        with self._cond:
            if fresh:
                self.stats.applied += 1
            else:
                self.stats.duplicates += 1
        return fresh


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
