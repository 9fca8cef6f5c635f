"""Who plays at this table: the players of the open session and of the next one.

Three sources, in this order of precedence:
- the operator, who names the players at the table (`mjtable run --players A,B,C,D`);
- the hall: the hub sends each table the seating of the session it plays next (retained on
  the hall broker, docs/HALL.md); the table starts that session under the hall's session
  number, with the players' roster ids;
- the table's config (`[table] players`).

A seating for a session this table has already started or played is not taken: the table
keeps its players and says so (an alert, journalled). The session's players are journalled
in its `session.started` record with where they came from; a restarted daemon reads them
back from there.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from controller.locale import Said, says

if TYPE_CHECKING:  # paho is imported only where the hall is used
    from controller.hub.wire import SeatingNotice


class Source(Enum):
    CONFIG = "config"
    HALL = "hall"
    OPERATOR = "operator"


@dataclass(frozen=True, slots=True)
class Players:
    names: tuple[str, str, str, str]  # E S W N
    ids: tuple[str, ...] = ()  # the hall roster's ids, E S W N, when the hall seated them
    source: Source = Source.CONFIG
    hall_session: int | None = None  # the hall's session number the seating is for

    def payload(self) -> dict[str, object]:
        """What `session.started` records of them (besides its `players`)."""
        return {
            "seating": self.source.value,
            **({"player_ids": list(self.ids)} if self.ids else {}),
        }


@dataclass(frozen=True, slots=True)
class Offered:
    taken: bool
    message: Said | str  # "" when nothing needs saying (the same seating again)


class Lineup:
    """The open session's players and the hall's seating waiting for the next session."""

    def __init__(
        self,
        configured: tuple[str, str, str, str],
        operator: bool = False,
        now: Players | None = None,
    ) -> None:
        source = Source.OPERATOR if operator else Source.CONFIG
        self._default = Players(configured, source=source)
        self.now = now or self._default
        self.pending: SeatingNotice | None = None

    def offer(self, notice: SeatingNotice, last_session: int) -> Offered:
        """The hub's seating for `notice.session`; `last_session`: the highest session
        number this table has started."""
        names = ", ".join(p.name for p in notice.players)
        if self.now.hall_session == notice.session and self.now.ids == tuple(
            p.id for p in notice.players
        ):
            return Offered(False, "")  # the open session's own seating, delivered again
        if self._default.source is Source.OPERATOR:
            return Offered(
                False,
                says(
                    "the hall seats {names} for session {session}; the operator named "
                    "this table's players, so they stay",
                    names=names,
                    session=notice.session,
                ),
            )
        if notice.session <= last_session:
            return Offered(
                False,
                says(
                    "the hall seats {names} for session {session}, which this table has "
                    "already started: it keeps its players ({players})",
                    names=names,
                    session=notice.session,
                    players=", ".join(self.now.names),
                ),
            )
        if self.pending == notice:
            return Offered(True, "")
        self.pending = notice
        return Offered(
            True,
            says(
                "the hall seats {names} for session {session}", names=names, session=notice.session
            ),
        )

    def start(self, last_session: int) -> tuple[int, Players]:
        """The number and players of the session starting now; they become `now`."""
        notice, self.pending = self.pending, None
        if notice is not None and notice.session > last_session:
            p = notice.players
            self.now = Players(
                (p[0].name, p[1].name, p[2].name, p[3].name),
                tuple(x.id for x in p),
                Source.HALL,
                notice.session,
            )
            return notice.session, self.now
        self.now = self._default
        return last_session + 1, self.now

    @staticmethod
    def recorded(payload: dict[str, object], configured: tuple[str, str, str, str]) -> Players:
        """The players a `session.started` record names (a restart reads them back)."""
        names = payload.get("players")
        if not isinstance(names, list) or len(names) != 4:
            return Players(configured)
        ids = payload.get("player_ids")
        try:
            source = Source(payload.get("seating", "config"))
        except ValueError:
            source = Source.CONFIG
        session = payload.get("session")
        return Players(
            (str(names[0]), str(names[1]), str(names[2]), str(names[3])),
            tuple(str(i) for i in ids) if isinstance(ids, list) else (),
            source,
            session if source is Source.HALL and isinstance(session, int) else None,
        )
