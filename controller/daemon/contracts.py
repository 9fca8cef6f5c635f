"""What the daemon's core talks to: the recogniser and output contracts, the items of its
queue, its settings, and the constants others read (controller/daemon/runtime.py)."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from controller.alerts import AlertKind
from controller.daemon.settlement import Settlement
from controller.devices.events import (
    DataReceived,
    LinkChanged,
    ReaderPolled,
    SeatButton,
    TagsRead,
)
from controller.journal.records import Record, RecordKind
from controller.outputs.scoreboard import ActionResult, RefereeAction
from controller.outputs.view import PublicView
from controller.recognition.presence import (
    DuplicateTile,
    PresenceChange,
    UnknownTag as UnknownTagSeen,
)
from controller.words import record_said
from rules import moves as mv
from rules.deal import Deal
from rules.seats import Seat

if TYPE_CHECKING:  # paho is imported only where the hall is used
    from controller.hub.wire import SeatingNotice

log = logging.getLogger(__name__)

DEVICES = ("table", "reader")
# the recogniser's alerts that stop the deal until the referee answers (the table shows
# "referee called"); the others inform
REFEREE_CALLS = frozenset(
    {
        AlertKind.STALLED,
        AlertKind.UNRECOGNISED,
        AlertKind.AMBIGUOUS,
        AlertKind.WALL_MISMATCH,
        AlertKind.RECOVERY,
        AlertKind.SHORT_HAND,
        AlertKind.LONG_HAND,
        AlertKind.DECLARATION_WITHOUT_TILES,
        AlertKind.TILES_WITHOUT_DECLARATION,
    }
)
RECONCILE_TRIES = 3  # reconciliations tried again, `settle` rounds apart, before an alert


class RecogniserLike(Protocol):
    """The recogniser contract (controller/recognition/recogniser.py)."""

    def new_deal(self, dealer_side: Seat) -> None: ...
    def on_wall_read(self, read: TagsRead) -> list[Any]: ...
    def start_deal(self, deal: Deal) -> list[Any]: ...
    def on_presence(self, change: PresenceChange, deal: Deal | None) -> list[Any]: ...
    def on_button(self, press: SeatButton, deal: Deal | None) -> list[Any]: ...
    def on_accepted(self, move: mv.Move, deal: Deal) -> None: ...
    def taken_back(self, moves: Sequence[mv.Move], deal: Deal) -> None: ...
    def on_tag_alert(self, alert: UnknownTagSeen | DuplicateTile) -> list[Any]: ...
    def tick(self, now: float, deal: Deal | None) -> list[Any]: ...
    def holds_window(self) -> bool: ...
    def reconcile(self, presence: Mapping[Any, Any], deal: Deal) -> list[Any]: ...
    def buttons_unheard(self, deal: Deal) -> None: ...
    def differences(self, deal: Deal) -> Mapping[tuple[Seat, str, Any], int]: ...
    def arrivals(self, deal: Deal) -> Mapping[tuple[Seat, str, Any], float]: ...
    def ahead(self, deal: Deal) -> tuple[mv.Move, ...]: ...


class Outputs(Protocol):
    """Where views go: the scoreboard, seat displays, MQTT (controller/daemon/app.py)."""

    def publish(self, public: PublicView, referee: Any, broadcast: Any) -> None: ...
    def move_accepted(self, payload: Mapping[str, Any], record: Record) -> None: ...
    def deal_settled(self, settled: Settlement, record: Record) -> None: ...
    def tick(self) -> None: ...
    def table_back(self) -> None: ...  # the table's link is up again: displays sent again


class NoOutputs:
    def publish(self, public: PublicView, referee: Any, broadcast: Any) -> None:
        pass

    def move_accepted(self, payload: Mapping[str, Any], record: Record) -> None:
        pass

    def deal_settled(self, settled: Settlement, record: Record) -> None:
        pass

    def tick(self) -> None:
        pass

    def table_back(self) -> None:
        pass


@dataclass(frozen=True, slots=True)
class Stop:
    reason: str


@dataclass(slots=True)
class RefereeAsked:
    """A referee action from the web server, queued for the core thread like any input; the
    core puts its answer in `result` (None: the core failed on it) and sets `done`."""

    action: RefereeAction
    done: threading.Event = field(default_factory=threading.Event)
    result: ActionResult | None = None


@dataclass(frozen=True, slots=True)
class RuntimeConfig:
    table: str = "table"
    players: tuple[str, str, str, str] = ("East", "South", "West", "North")
    deals: int = 0  # stop after this many settled deals (0: until stopped)
    settle_rounds: int = 0  # reader rounds after a reconnect before reconciling (0: profile)
    prevalent: Seat = Seat.E  # the session's round wind (001 II 3; [table] prevalent)
    # poll the reader as fast as it answers (`--fast`, a simulator); False: no more rounds a
    # second than the reader profile's `rounds-per-second`
    fast_polling: bool = False
    players_by_operator: bool = False  # `mjtable run --players`: the hall's seating not taken
    config_echo: Mapping[str, Any] | None = None  # recorded in daemon.started


@dataclass(frozen=True, slots=True)
class SeatingReceived:
    """The hall's seating of this table's next session, from the hub (lineup.py)."""

    notice: SeatingNotice


Item = DataReceived | LinkChanged | ReaderPolled | Stop | RefereeAsked | SeatingReceived


# the records that name their deal in words ("deal 3 dealt"): the page names it as its session
_NAMES_ITS_DEAL = frozenset({RecordKind.DEAL_STARTED, RecordKind.DEAL_SETTLED})


def tail_line(record: Record, session_deal: int = 0) -> str:
    """A line of the referee page's journal panel: the seq, the wall time (the page shows it
    in the referee's local time), the record in words and the same as a sentence the page
    says in its own language (controller/locale `Said`, as JSON), separated by tabs. A deal's
    start or settlement names the deal as the board does (`session_deal`, its number in
    the session), not by the journal's count."""
    try:
        data = record.data()
        if session_deal and record.kind in _NAMES_ITS_DEAL:
            data = {**data, "deal": session_deal}
        said = record_said(record.kind.value, data)
    except (ValueError, TypeError, KeyError, AttributeError):
        return f"{record.seq}\t{record.wall}\t{record.kind.value} {record.payload[:120]}"
    words = json.dumps(said.to_json(), ensure_ascii=False, separators=(",", ":"))
    return f"{record.seq}\t{record.wall}\t{said}\t{words}"
