"""Seating plans: which player sits at which table and wind in each session of a tournament.

A plan is generated (`generate`) or written by the director and read back (`read_plan`). The
file is a CSV, one line per table and session, the player ids at East, South, West, North::

    session,table,E,S,W,N
    1,T1,CN-0012,RU-0301,CN-0040,RU-0007
    1,T2,...

What a generated plan aims for, in this order (each the least the search found):
- no pair of players meets at a table more often than needed: over S sessions each player
  shares a table with 3·S others, so among N players some pair meets at least
  ⌈3·S / (N − 1)⌉ times (`PlanQuality.needed`); the plan's most is `most_meetings`;
- no player sits at the same table in two sessions running (`same_table`);
- each player's winds spread as evenly as the sessions allow, never the same wind in two
  sessions running where the table can avoid it (`same_wind`, `wind_spread`).

The meetings are a "social golfer" problem (groups of four, no pair twice): the groups of each
session are found by a tabu search over swaps of two players, weighted so that a pair's
second meeting costs far more than a first; tables are then given to the groups so nobody
keeps a table, and winds inside each group so nobody keeps a wind. Seeded: the same roster,
sessions, tables and seed give the same plan.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from controller.hall.roster import Roster, RosterError, check_id, parse_csv
from rules.seats import SEATS

PLAN_COLUMNS = ("session", "table", "e", "s", "w", "n")
_WIND_COLUMNS = PLAN_COLUMNS[2:]
_TOPIC_FORBIDDEN = set("/+#\0,")


@dataclass(frozen=True, slots=True)
class TableSeating:
    """One table in one session: the player ids at East, South, West and North."""

    session: int
    table: str
    players: tuple[str, str, str, str]


@dataclass(frozen=True, slots=True)
class SeatingPlan:
    tables: tuple[str, ...]
    seatings: tuple[TableSeating, ...]  # by session, then by the order of `tables`
    _at: dict[tuple[int, str], TableSeating] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_at", {(s.session, s.table): s for s in self.seatings})

    @property
    def sessions(self) -> int:
        return max((s.session for s in self.seatings), default=0)

    def session(self, number: int) -> tuple[TableSeating, ...]:
        return tuple(s for s in self.seatings if s.session == number)

    def at(self, session: int, table: str) -> TableSeating | None:
        return self._at.get((session, table))


@dataclass(frozen=True, slots=True)
class PlanQuality:
    players: int
    sessions: int
    most_meetings: int  # the most sessions any pair shares a table
    needed: int  # the least `most_meetings` can be (⌈3·S / (N − 1)⌉)
    pairs_over: int  # pairs who meet more often than `needed`
    same_table: int  # times a player sits at the table of the session before
    same_wind: int  # times a player has the wind of the session before
    wind_spread: int  # the largest gap between a player's most and least used wind

    @property
    def even(self) -> bool:
        """Nobody meets more than needed, keeps a table or keeps a wind."""
        return self.most_meetings <= self.needed and not self.same_table and not self.same_wind

    def lines(self) -> list[str]:
        return [
            f"{self.players} players, {self.sessions} sessions",
            f"most meetings of a pair: {self.most_meetings} (the least possible: "
            f"{self.needed}); pairs meeting more often: {self.pairs_over}",
            f"a player at the table of the session before: {self.same_table} times",
            f"a player with the wind of the session before: {self.same_wind} times; "
            f"largest wind imbalance of a player: {self.wind_spread}",
        ]


@dataclass(frozen=True, slots=True)
class PlanSeats:
    """The plan as the hub's standings read it (`controller.hub.standings.Seated`): who sat
    at a table of this hall in a session, by roster id, and the roster's names."""

    hall: str
    plan: SeatingPlan
    roster: Roster

    def ids(self, hall: str, table: str, session: int) -> tuple[str, ...] | None:
        seating = self.plan.at(session, table) if hall == self.hall else None
        return None if seating is None else seating.players

    def name(self, player_id: str) -> str | None:
        player = self.roster.get(player_id)
        return None if player is None else player.name


class PlanError(RosterError):
    """A seating plan that cannot be taken (a file's line, or what cannot be generated)."""


def table_names(count: int, names: Sequence[str] | None = None) -> tuple[str, ...]:
    if names:
        if len(names) != count:
            raise PlanError(f"{len(names)} table names for {count} tables")
        for name in names:
            if not name or set(name) & _TOPIC_FORBIDDEN or name != name.strip():
                raise PlanError(f"table name {name!r} is not one MQTT topic level")
        if len(set(names)) != len(names):
            raise PlanError("a table name is given twice")
        return tuple(names)
    return tuple(f"T{i}" for i in range(1, count + 1))


def needed_meetings(players: int, sessions: int) -> int:
    return math.ceil(3 * sessions / (players - 1)) if players > 1 else 0


# ---- generation -------------------------------------------------------------------------


def generate(
    roster: Roster,
    sessions: int,
    tables: Sequence[str] | None = None,
    seed: int = 0,
    effort: int = 1,
) -> SeatingPlan:
    """A plan for `sessions` sessions of every roster player (a multiple of four players).

    `effort` multiplies the search's steps (more steps: fewer repeated meetings on hard
    cases; the result is still a function of the arguments)."""
    ids = roster.ids
    if len(ids) < 4 or len(ids) % 4:
        raise PlanError(f"{len(ids)} players: a plan seats a multiple of four players")
    if sessions < 1:
        raise PlanError("a plan has at least one session")
    names = table_names(len(ids) // 4, tables)
    rng = random.Random(seed)
    n = len(ids)
    last_table = [-1] * n
    table_count = [[0] * len(names) for _ in range(n)]
    tabled: list[list[list[int]]] = []
    for groups in _plan_groups(n, sessions, rng, effort):
        placed = _place_tables(groups, last_table, table_count)
        for t, g in enumerate(placed):
            for p in g:
                last_table[p] = t
                table_count[p][t] += 1
        tabled.append(placed)
    seated = _place_winds(n, tabled, rng)
    seatings = [
        TableSeating(number, names[t], (ids[g[0]], ids[g[1]], ids[g[2]], ids[g[3]]))
        for number, session in enumerate(seated, start=1)
        for t, g in enumerate(session)
    ]
    return SeatingPlan(names, tuple(seatings))


def _excess_weight(times: int, needed: int) -> int:
    """What a pair that meets `times` times costs: nothing up to `needed`, then a weight that
    makes one more meeting of a pair cost more than any number of the meetings it could
    trade for."""
    return 0 if times <= needed else 16 ** (times - needed)


SAMPLE = 6  # conflicted players whose swaps a step of the search weighs


def _plan_groups(n: int, sessions: int, rng: random.Random, effort: int) -> list[list[list[int]]]:
    """Groups of four for every session at once: a tabu search over swaps of two players of
    one session, minimising the weights of the pairs who meet more often than needed."""
    needed = needed_meetings(n, sessions)
    plan: list[list[list[int]]] = []
    for _ in range(sessions):
        order = list(range(n))
        rng.shuffle(order)
        plan.append([order[i : i + 4] for i in range(0, n, 4)])
    if n == 4:
        return plan
    where = [[0] * n for _ in range(sessions)]
    meets = [[0] * n for _ in range(n)]
    for s, groups in enumerate(plan):
        for gi, g in enumerate(groups):
            for p in g:
                where[s][p] = gi
            for a, b in itertools.combinations(g, 2):
                meets[a][b] += 1
                meets[b][a] += 1
    weight = [_excess_weight(m, needed) for m in range(sessions + 2)]

    def total() -> int:
        return sum(weight[meets[a][b]] for a, b in itertools.combinations(range(n), 2))

    def leaving(p: int, group: list[int], skip: int) -> int:  # p leaves the group
        return sum(
            weight[meets[p][x] - 1] - weight[meets[p][x]] for x in group if x not in (p, skip)
        )

    def joining(p: int, group: list[int], skip: int) -> int:  # p joins it in skip's place
        return sum(weight[meets[p][x] + 1] - weight[meets[p][x]] for x in group if x != skip)

    cost = total()
    best_cost, best = cost, [[list(g) for g in groups] for groups in plan]
    tabu: dict[tuple[int, int, int], int] = {}  # (session, player, group) -> free from step
    steps = effort * (500 + 50 * n)
    tenure = 4 + n // 8
    for step in range(steps):
        if best_cost == 0:
            break
        conflicted = [
            (s, p)
            for s in range(sessions)
            for p in range(n)
            if any(meets[p][x] > needed for x in plan[s][where[s][p]] if x != p)
        ]
        if not conflicted:
            break
        candidates: list[tuple[int, int, int, int, int]] = []  # (s, p, gp, q, gq)
        best_delta: int | None = None
        for s, p in rng.sample(conflicted, min(len(conflicted), SAMPLE)):
            groups = plan[s]
            gp = where[s][p]
            out_p = leaving(p, groups[gp], -1)
            for q in range(n):
                gq = where[s][q]
                if gq == gp:
                    continue
                delta = (
                    out_p
                    + leaving(q, groups[gq], -1)
                    + joining(p, groups[gq], q)
                    + joining(q, groups[gp], p)
                )
                free = tabu.get((s, p, gq), -1) < step and tabu.get((s, q, gp), -1) < step
                if not free and cost + delta >= best_cost:
                    continue  # tabu, unless it beats the best found (aspiration)
                if best_delta is None or delta < best_delta:
                    best_delta, candidates = delta, [(s, p, gp, q, gq)]
                elif delta == best_delta:
                    candidates.append((s, p, gp, q, gq))
        if best_delta is None:
            continue
        s, p, gp, q, gq = rng.choice(candidates)
        groups = plan[s]
        for x in groups[gp]:
            if x != p:
                meets[p][x] -= 1
                meets[x][p] -= 1
                meets[q][x] += 1
                meets[x][q] += 1
        for y in groups[gq]:
            if y != q:
                meets[q][y] -= 1
                meets[y][q] -= 1
                meets[p][y] += 1
                meets[y][p] += 1
        groups[gp][groups[gp].index(p)] = q
        groups[gq][groups[gq].index(q)] = p
        where[s][p], where[s][q] = gq, gp
        tabu[(s, p, gp)] = step + tenure + rng.randrange(tenure)
        tabu[(s, q, gq)] = step + tenure + rng.randrange(tenure)
        cost += best_delta
        if cost < best_cost:
            best_cost, best = cost, [[list(g) for g in groups] for groups in plan]
    return best


def _place_tables(
    groups: list[list[int]], last_table: list[int], table_count: list[list[int]]
) -> list[list[int]]:
    """The groups in table order: nobody at the table of the session before where it can be
    avoided, then as few returns to a table as possible (greedy, then improving swaps)."""
    size = len(groups)

    def cost(g: int, t: int) -> int:
        return sum(
            1000 * (last_table[p] == t) + table_count[p][t] * table_count[p][t] for p in groups[g]
        )

    costs = [[cost(g, t) for t in range(size)] for g in range(size)]
    table_of = list(range(size))  # group g at table table_of[g]
    improved = True
    while improved:
        improved = False
        for a, b in itertools.combinations(range(size), 2):
            ta, tb = table_of[a], table_of[b]
            if costs[a][tb] + costs[b][ta] < costs[a][ta] + costs[b][tb]:
                table_of[a], table_of[b] = tb, ta
                improved = True
    placed: list[list[int]] = [[] for _ in range(size)]
    for g, t in enumerate(table_of):
        placed[t] = groups[g]
    return placed


WIND_TRIES = 12  # fresh starts of the winds' search, the best kept


def _place_winds(n: int, plan: list[list[list[int]]], rng: random.Random) -> list[list[list[int]]]:
    """Each table's players ordered E S W N: nobody with the same wind in two sessions
    running where it can be avoided, then each player's winds as even as possible.

    From a random start, passes over every table of every session take the best of its 24
    orders given the others until a pass changes nothing; a few such starts, the best kept
    (a pass can stop where no single table's change helps)."""
    best: list[list[list[int]]] = []
    best_cost: tuple[int, int] | None = None
    for _ in range(WIND_TRIES):
        tried = [[rng.sample(g, 4) for g in session] for session in plan]
        cost = _settle_winds(n, tried)
        if best_cost is None or cost < best_cost:
            best, best_cost = tried, cost
        if cost[0] == 0 and cost[1] == _least_wind_cost(n, len(plan)):
            break
    return best


def _least_wind_cost(n: int, sessions: int) -> int:
    """The summed squares of the wind counts when every player's winds are as even as can
    be."""
    base, extra = divmod(sessions, 4)
    return n * (extra * (base + 1) ** 2 + (4 - extra) * base**2)


def _settle_winds(n: int, plan: list[list[list[int]]]) -> tuple[int, int]:
    """Improve the orders in place; returns (winds kept into the next session, summed
    squares of the players' wind counts)."""
    wind = [[0] * n for _ in plan]  # wind[s][p]
    count = [[0] * 4 for _ in range(n)]
    for s, session in enumerate(plan):
        for g in session:
            for w, p in enumerate(g):
                wind[s][p] = w
                count[p][w] += 1

    def cost(s: int, order: tuple[int, ...]) -> int:
        total = 0
        for w, p in enumerate(order):
            c = count[p][w] + 1  # p's count of w were it to sit there
            total += c * c - (c - 1) * (c - 1)
            total += 1000 * sum(1 for t in (s - 1, s + 1) if 0 <= t < len(plan) and wind[t][p] == w)
        return total

    changed = True
    while changed:
        changed = False
        for s, session in enumerate(plan):
            for gi, g in enumerate(session):
                for p in g:
                    count[p][wind[s][p]] -= 1
                    wind[s][p] = -1
                best = min(itertools.permutations(g), key=lambda o: cost(s, o))
                for w, p in enumerate(best):
                    wind[s][p] = w
                    count[p][w] += 1
                if list(best) != g:
                    session[gi] = list(best)
                    changed = True
    kept = sum(1 for s in range(1, len(plan)) for p in range(n) if wind[s][p] == wind[s - 1][p])
    return kept, sum(c * c for row in count for c in row)


# ---- what a plan achieves ---------------------------------------------------------------


def quality(plan: SeatingPlan) -> PlanQuality:
    meets: dict[frozenset[str], int] = {}
    last: dict[str, tuple[str, int]] = {}
    winds: dict[str, list[int]] = {}
    same_table = same_wind = 0
    for number in range(1, plan.sessions + 1):
        now: dict[str, tuple[str, int]] = {}
        for s in plan.session(number):
            for a, b in itertools.combinations(s.players, 2):
                key = frozenset((a, b))
                meets[key] = meets.get(key, 0) + 1
            for w, p in enumerate(s.players):
                now[p] = (s.table, w)
                winds.setdefault(p, [0, 0, 0, 0])[w] += 1
        for p, (table, wind) in now.items():
            if p in last:
                same_table += last[p][0] == table
                same_wind += last[p][1] == wind
        last.update(now)
    players = len(winds)
    needed = needed_meetings(players, plan.sessions)
    return PlanQuality(
        players=players,
        sessions=plan.sessions,
        most_meetings=max(meets.values(), default=0),
        needed=needed,
        pairs_over=sum(1 for m in meets.values() if m > needed),
        same_table=same_table,
        same_wind=same_wind,
        wind_spread=max((max(c) - min(c) for c in winds.values()), default=0),
    )


# ---- the plan file ----------------------------------------------------------------------


def format_plan(plan: SeatingPlan) -> str:
    lines = ["session,table,E,S,W,N"]
    lines += [f"{s.session},{s.table},{','.join(s.players)}" for s in plan.seatings]
    return "\n".join(lines) + "\n"


def parse_plan(text: str, roster: Roster, source: str = "seating") -> SeatingPlan:
    """A plan file checked against the roster: known ids, each player at most once in a
    session, each table once in a session, sessions numbered from 1 without a gap."""
    known = set(roster.ids)
    seatings: list[TableSeating] = []
    seen: dict[tuple[int, str], int] = {}  # (session, player or table) -> line
    tables: list[str] = []
    for number, row in parse_csv(text, source, PLAN_COLUMNS, PLAN_COLUMNS):
        try:
            session = int(row["session"])
        except ValueError:
            raise PlanError(
                f"{source}:{number}: session {row['session']!r} is not a number"
            ) from None
        if session < 1:
            raise PlanError(f"{source}:{number}: sessions are numbered from 1")
        table = row["table"]
        if not table or set(table) & _TOPIC_FORBIDDEN:
            raise PlanError(f"{source}:{number}: table {table!r} is not one MQTT topic level")
        if (session, "table:" + table) in seen:
            raise PlanError(
                f"{source}:{number}: table {table} of session {session} is already "
                f"seated on line {seen[(session, 'table:' + table)]}"
            )
        seen[(session, "table:" + table)] = number
        ids = tuple(row[c] for c in _WIND_COLUMNS)
        for seat, pid in zip(SEATS, ids, strict=True):
            why = check_id(pid)
            if why:
                raise PlanError(f"{source}:{number}: {seat.name}: {why}")
            if pid not in known:
                raise PlanError(f"{source}:{number}: {seat.name}: {pid!r} is not in the roster")
            if (session, pid) in seen:
                where = (
                    "on this line"
                    if seen[(session, pid)] == number
                    else (f"on line {seen[(session, pid)]}")
                )
                raise PlanError(
                    f"{source}:{number}: {pid} is seated twice in session {session}, {where}"
                )
            seen[(session, pid)] = number
        if table not in tables:
            tables.append(table)
        seatings.append(TableSeating(session, table, (ids[0], ids[1], ids[2], ids[3])))
    if not seatings:
        raise PlanError(f"{source}: no seatings")
    numbers = sorted({s.session for s in seatings})
    if numbers != list(range(1, len(numbers) + 1)):
        gap = next(i for i in range(1, len(numbers) + 2) if i not in numbers)
        raise PlanError(f"{source}: no seating for session {gap}")
    seatings.sort(key=lambda s: (s.session, tables.index(s.table)))
    return SeatingPlan(tuple(tables), tuple(seatings))


def read_plan(path: Path, roster: Roster) -> SeatingPlan:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise PlanError(f"{path}: cannot read: {err}") from None
    return parse_plan(text, roster, str(path))
