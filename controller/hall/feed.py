"""The hub's seating feed: each table of the plan gets, retained on the hall broker, the
seating of the session it plays next (docs/MQTT.md "Seating").

A table's next session is one past the latest session it has settled a deal in or says it
is playing; a table never heard from plays session 1 next. The notice is published again
only when it changes, so a table that restarts finds it retained, and a director who edits
the plan and restarts the hub sends the tables their new seatings.
"""

from __future__ import annotations

import logging
import threading

from controller.hall.roster import Roster
from controller.hall.seating import SeatingPlan
from controller.hub.standings import HallStandings, TableResult
from controller.hub.wire import (
    BrokerOptions,
    SeatedPlayer,
    SeatingNotice,
    make_client,
    seating_topic,
)

log = logging.getLogger(__name__)


def next_session(table: TableResult | None) -> int:
    latest = 0
    if table is not None:
        latest = max((s.session for s in table.sessions), default=0)
        if table.status is not None and table.status.session is not None:
            latest = max(latest, table.status.session)
    return latest + 1


def notices(standings: HallStandings, hall: str, plan: SeatingPlan, roster: Roster):
    """The seating notice each planned table should hold now (None past the plan's end)."""
    tables = {t.table: t for t in standings.tables if t.hall == hall}
    names = roster.names()
    result: dict[str, SeatingNotice | None] = {}
    for table in plan.tables:
        seating = plan.at(next_session(tables.get(table)), table)
        if seating is None:
            result[table] = None
            continue
        players = tuple(SeatedPlayer(pid, names.get(pid, pid)) for pid in seating.players)
        result[table] = SeatingNotice(
            hall, table, seating.session, (players[0], players[1], players[2], players[3])
        )
    return result


class SeatingFeed:
    """Publishes the notices (retained, QoS 1) with its own connection as the hub's user."""

    def __init__(
        self,
        options: BrokerOptions,
        hall: str,
        plan: SeatingPlan,
        roster: Roster,
        client_id: str = "mjtable-hub-seating",
    ) -> None:
        self.hall, self.plan, self.roster = hall, plan, roster
        self._client = make_client(options, client_id)
        self._options = options
        self._lock = threading.Lock()
        self._sent: dict[str, SeatingNotice | None] = {}

    def start(self) -> None:
        self._client.connect_async(self._options.host, self._options.port)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def update(self, standings: HallStandings) -> list[SeatingNotice]:
        """Publish the notices that changed; returns them. paho queues what it cannot send
        yet and sends it once connected."""
        published: list[SeatingNotice] = []
        with self._lock:
            for table, notice in notices(standings, self.hall, self.plan, self.roster).items():
                if table in self._sent and self._sent[table] == notice:
                    continue
                if notice is None:
                    continue  # past the plan's end: the last seating stays
                self._client.publish(
                    seating_topic(self.hall, table), notice.encode(), qos=1, retain=True
                )
                self._sent[table] = notice
                published.append(notice)
                log.info(
                    "seating: table %s plays session %d as %s",
                    table,
                    notice.session,
                    " ".join(p.id for p in notice.players),
                )
        return published
