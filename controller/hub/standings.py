"""Hall standings: session totals per table and WMT rank points, from settled deals.

Pure and idempotent: the standings are a function of the *set* of deals held, each
(hall, table, session, deal) keeping the deal with the highest `seq` (a referee's correction
is republished with a higher seq). Applying deals in any order, any number of times, gives
the same standings — what QoS 1 redelivery and the retained ledger need.

WMT (000 §2.10): a match is rounds of 8 hands; at the end of each round the players rank by
the round's score and get 4/3/2/1 points. The rule set's `[session]` gives
`hands-per-round` and `rank-points`. Ties are not covered by 000: players tied on a round's
score share the points of the places they occupy together, equally (two tied for first get
(4+3)/2 = 3.5 each). A round's points are awarded once all its deals are in.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, Protocol

from controller.hub.wire import Presence, SettledDeal, TableStatus
from rules.ruleset import SessionParams
from rules.seats import SEATS, Seat


class Applied(Enum):
    NEW = "new"
    CORRECTED = "corrected"  # replaced a deal held with a lower seq
    DUPLICATE = "duplicate"  # the same seq again (QoS 1 redelivery, the ledger)
    STALE = "stale"  # a lower seq than the one held


@dataclass(frozen=True, slots=True)
class RoundResult:
    number: int  # 1-based within the session
    deals: int
    complete: bool
    totals: tuple[int, ...]  # E S W N
    rank_points: tuple[Fraction, ...] | None  # None until the round is complete


@dataclass(frozen=True, slots=True)
class SessionResult:
    session: int
    rules: str
    deals: int
    players: tuple[str, ...]  # E S W N
    totals: tuple[int, ...]
    rounds: tuple[RoundResult, ...]  # empty when the rules have no rounds
    rank_points: tuple[Fraction, ...]  # over the complete rounds
    ids: tuple[str, ...] = ()  # the roster ids at E S W N, where the seating plan seats them
    penalties: tuple[int, ...] = (0, 0, 0, 0)  # points paid as penalties, E S W N
    # what the deltas sum to beyond the points paid to nobody: 0 for every table that
    # settles by its rules (payments move points between players); else the hub flags it
    imbalance: int = 0


@dataclass(frozen=True, slots=True)
class TableResult:
    hall: str
    table: str
    presence: str  # "online" | "offline" | "unknown" (no status seen)
    session: int | None
    deal: int | None
    phase: str | None
    sessions: tuple[SessionResult, ...]
    status: TableStatus | None = None  # the table's last status (its deal, clock, scores)
    last_seen: str | None = None  # when the hub last heard from the table (ISO 8601)
    lost_at: str | None = None  # when the broker said (Last Will) it lost the table's link
    called_since: str | None = None  # when the hub first heard the table call the referee


@dataclass(frozen=True, slots=True)
class PlayerResult:
    name: str
    score: int
    rank_points: Fraction
    deals: int
    rounds: int
    tables: tuple[str, ...] = ()  # where the player sat
    id: str = ""  # the roster's id, when the hall's seating plan seats the player


class Seated(Protocol):
    """Who the hall's seating plan sat where (controller/hall/): the hub keys those players
    by their roster id, not by the names the tables publish."""

    def ids(self, hall: str, table: str, session: int) -> tuple[str, ...] | None:
        """The player ids at E S W N, or None where the plan does not seat that table."""
        ...

    def name(self, player_id: str) -> str | None:
        """The roster's name of an id, None for a key that is not an id."""
        ...


@dataclass(frozen=True, slots=True)
class HallStandings:
    tables: tuple[TableResult, ...]
    players: tuple[PlayerResult, ...]  # best first: rank points, then score, then name

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "standings",
            "version": 1,
            "tables": [_table_json(t) for t in self.tables],
            "players": [
                {
                    "name": p.name,
                    "id": p.id,
                    "score": p.score,
                    "rank_points": float(p.rank_points),
                    "deals": p.deals,
                    "rounds": p.rounds,
                    "tables": list(p.tables),
                }
                for p in self.players
            ],
        }


def _table_json(t: TableResult) -> dict[str, Any]:
    def round_json(r: RoundResult) -> dict[str, Any]:
        points = None if r.rank_points is None else [float(p) for p in r.rank_points]
        return {
            "round": r.number,
            "deals": r.deals,
            "complete": r.complete,
            "totals": list(r.totals),
            "rank_points": points,
        }

    return {
        "hall": t.hall,
        "table": t.table,
        "presence": t.presence,
        "session": t.session,
        "deal": t.deal,
        "phase": t.phase,
        "last_seen": t.last_seen,
        "lost_at": t.lost_at,
        "called_since": t.called_since,
        "status": None if t.status is None else t.status.to_json(),
        "sessions": [
            {
                "session": s.session,
                "rules": s.rules,
                "deals": s.deals,
                "players": list(s.players),
                "ids": list(s.ids),
                "penalties": list(s.penalties),
                "imbalance": s.imbalance,
                "totals": list(s.totals),
                "rounds": [round_json(r) for r in s.rounds],
                "rank_points": [float(p) for p in s.rank_points],
            }
            for s in t.sessions
        ],
    }


def rank_points(totals: Sequence[int], points: Sequence[int]) -> tuple[Fraction, ...]:
    """Places by score, highest first; tied players share their places' points equally.

    >>> [str(p) for p in rank_points([10, -4, 10, -16], [4, 3, 2, 1])]
    ['7/2', '2', '7/2', '1']
    """
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    result = [Fraction(0)] * len(totals)
    place = 0
    while place < len(order):
        tied = [i for i in order if totals[i] == totals[order[place]]]
        share = Fraction(sum(points[place : place + len(tied)]), len(tied))
        for i in tied:
            result[i] = share
        place += len(tied)
    return tuple(result)


RoundRules = Callable[[str], SessionParams | None]


def ruleset_rounds(name: str) -> SessionParams | None:
    """The `[session]` of a shipped rule set; None when the hub does not know it."""
    from rules.ruleset import UnknownRuleSet, load
    from rules.schema import SchemaError

    try:
        return load(name).session
    except (UnknownRuleSet, SchemaError, OSError):
        return None


_Key = tuple[str, str]  # hall, table


class Standings:
    """Thread-safe: the MQTT thread applies, HTTP threads take snapshots."""

    def __init__(
        self, round_rules: RoundRules = ruleset_rounds, seated: Seated | None = None
    ) -> None:
        self._round_rules = round_rules
        self._seated = seated
        self._lock = threading.Lock()
        self._deals: dict[_Key, dict[tuple[int, int], SettledDeal]] = {}
        self._status: dict[_Key, TableStatus | None] = {}
        self._seen: dict[_Key, str] = {}  # the last message's wall time per table
        self._lost: dict[_Key, str] = {}  # the Last Will's arrival, until the table speaks
        self._called: dict[_Key, str] = {}  # since when the table waits for the referee
        self.version = 0  # grows with every change; pages poll or wait on it

    def apply_deal(self, hall: str, table: str, deal: SettledDeal) -> Applied:
        with self._lock:
            held = self._deals.setdefault((hall, table), {})
            old = held.get((deal.session, deal.deal))
            if old is not None and old.seq == deal.seq:
                return Applied.DUPLICATE
            if old is not None and old.seq > deal.seq:
                return Applied.STALE
            held[(deal.session, deal.deal)] = deal
            self.version += 1
            return Applied.NEW if old is None else Applied.CORRECTED

    def apply_status(
        self, hall: str, table: str, status: TableStatus | None, wall: str = ""
    ) -> None:
        """`None`: the retained status was cleared (the table was taken out of the hall).
        A Last Will keeps the table's last status (what it was doing) and notes when the
        broker lost it; the same Will again (retained, after a reconnect) changes nothing.
        `wall`: when the hub received it (its own clock: the table's does not matter)."""
        key = (hall, table)
        with self._lock:
            self._deals.setdefault(key, {})
            if status is not None and status.will:
                if key in self._lost:
                    return
                self._lost[key] = wall
            else:
                self._lost.pop(key, None)
                self._status[key] = status
                if status is not None and status.referee_called:
                    self._called.setdefault(key, wall)
                else:
                    self._called.pop(key, None)
            self.version += 1

    def seen(self, hall: str, table: str, wall: str) -> None:
        """A message from the table arrived at `wall` (ISO 8601): not a change by itself."""
        with self._lock:
            self._seen[(hall, table)] = wall

    def caught_up(self, hall: str, table: str) -> bool:
        """The table's retained status is here, and the last deal it says it published too
        (what a one-off reader of the hall, such as an export, waits for)."""
        with self._lock:
            status = self._status.get((hall, table))
            if status is None:
                return False
            if status.last_deal_seq is None:
                return True
            held = self._deals.get((hall, table), {})
            return any(d.seq >= status.last_deal_seq for d in held.values())

    def snapshot(self) -> HallStandings:
        with self._lock:
            deals = {key: dict(held) for key, held in self._deals.items()}
            status = dict(self._status)
            seen, lost, called = dict(self._seen), dict(self._lost), dict(self._called)
        tables = [
            dataclasses.replace(
                _table(key, status.get(key), held, self._round_rules, key in lost, self._seated),
                status=status.get(key),
                last_seen=seen.get(key),
                lost_at=lost.get(key),
                called_since=called.get(key),
            )
            for key, held in sorted(deals.items())
        ]
        by_table = {key: list(held.values()) for key, held in deals.items()}
        return HallStandings(tuple(tables), _players(tables, by_table, self._seated))


def _table(
    key: _Key,
    status: TableStatus | None,
    deals: dict[tuple[int, int], SettledDeal],
    round_rules: RoundRules,
    lost: bool = False,
    seated: Seated | None = None,
) -> TableResult:
    sessions = sorted({s for s, _ in deals})
    results = tuple(
        _session(key, s, [deals[k] for k in sorted(deals) if k[0] == s], round_rules, seated)
        for s in sessions
    )
    presence = "unknown" if status is None else status.presence.value
    if lost:
        presence = Presence.OFFLINE.value
    elif status is not None and status.presence is Presence.ONLINE:
        return TableResult(*key, presence, status.session, status.deal, status.phase, results)
    return TableResult(*key, presence, None, None, None, results)


def unnamed(name: str, seat: Seat) -> bool:
    """A seat the table has no player's name for: none, or the table's default for it
    ("East", or "E"), which every table has, so two tables' "East" are not one player."""
    return not name.strip() or name.strip().lower() in (seat.name.lower(), SEAT_WORDS[seat])


SEAT_WORDS = {Seat.E: "east", Seat.S: "south", Seat.W: "west", Seat.N: "north"}


def _names(key: _Key, deal: SettledDeal, seated: Seated | None = None) -> tuple[str, ...]:
    """Who sat where: the roster ids where the hall's seating plan seats the table in that
    session; else a named player by name (one person over the tables of the hall), an
    unnamed seat as `table/seat`, never merged."""
    ids = seated.ids(key[0], key[1], deal.session) if seated is not None else None
    if ids is not None:
        return ids
    names = deal.players or ("",) * 4
    return tuple(
        f"{key[1]}/{seat.name}" if unnamed(name, seat) else name
        for seat, name in zip(SEATS, names, strict=True)
    )


def _sum(deals: Sequence[SettledDeal]) -> tuple[int, ...]:
    return tuple(sum(d.deltas[i] for d in deals) for i in range(4))


def _session(
    key: _Key,
    session: int,
    deals: list[SettledDeal],
    round_rules: RoundRules,
    seated: Seated | None = None,
) -> SessionResult:
    last = deals[-1]
    params = round_rules(last.rules)
    rounds: list[RoundResult] = []
    earned = [Fraction(0)] * 4
    if params is not None and params.hands_per_round > 0 and len(params.rank_points) >= 4:
        size = params.hands_per_round
        for number in range(1, (max(d.deal for d in deals) - 1) // size + 2):
            members = [d for d in deals if (d.deal - 1) // size + 1 == number]
            complete = len(members) == size
            totals = _sum(members)
            points = rank_points(totals, params.rank_points[:4]) if complete else None
            if points is not None:
                earned = [a + b for a, b in zip(earned, points, strict=True)]
            rounds.append(RoundResult(number, len(members), complete, totals, points))
    ids = seated.ids(key[0], key[1], session) if seated is not None else None
    players = _names(key, last)
    if seated is not None and ids is not None:
        players = tuple(seated.name(i) or i for i in ids)
    return SessionResult(
        session,
        last.rules,
        len(deals),
        players,
        _sum(deals),
        tuple(rounds),
        tuple(earned),
        ids or (),
        tuple(sum(d.penalties[i] for d in deals) for i in range(4)),
        sum(sum(d.deltas) + d.to_nobody for d in deals),
    )


def _players(
    tables: list[TableResult],
    deals: dict[_Key, list[SettledDeal]],
    seated: Seated | None = None,
) -> tuple[PlayerResult, ...]:
    score: dict[str, int] = {}
    played: dict[str, int] = {}
    points: dict[str, Fraction] = {}
    rounds: dict[str, int] = {}
    where: dict[str, list[str]] = {}
    for key, held in deals.items():
        for d in held:  # each deal's score goes to whoever sat there in that deal
            for name, delta in zip(_names(key, d, seated), d.deltas, strict=True):
                score[name] = score.get(name, 0) + delta
                played[name] = played.get(name, 0) + 1
                if key[1] not in where.setdefault(name, []):
                    where[name].append(key[1])
    for t in tables:
        for s in t.sessions:
            complete = sum(r.complete for r in s.rounds)
            for name, earned in zip(s.ids or s.players, s.rank_points, strict=True):
                points[name] = points.get(name, Fraction(0)) + earned
                rounds[name] = rounds.get(name, 0) + complete

    def shown(key: str) -> tuple[str, str]:  # (name, id)
        named = seated.name(key) if seated is not None else None
        return (key, "") if named is None else (named, key)

    result = [
        PlayerResult(
            shown(n)[0],
            score[n],
            points.get(n, Fraction(0)),
            played[n],
            rounds.get(n, 0),
            tuple(sorted(where[n])),
            shown(n)[1],
        )
        for n in score
    ]
    result.sort(key=lambda p: (-p.rank_points, -p.score, p.name, p.id))
    return tuple(result)
