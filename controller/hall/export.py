"""The hall's results as a ranking body takes them: one CSV line per player and session, and a
printable standings sheet, players keyed by their roster id through the seating plan.

A table's deals name seats, not people: who sat at East of table T3 in session 2 is what the
seating plan says. A session is *complete* at a table when the table has gone on to a later
session, or has settled as many deals as its session has (the table's status, else its rule
set's `[session] deals`). With `hold`, the standings count a session only once every table
the plan seats in it is complete, so a standings sheet never ranks half a round.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from controller.hall.roster import Roster
from controller.hall.seating import SeatingPlan
from controller.hub.standings import HallStandings, SessionResult, TableResult

RESULT_COLUMNS = ("player_id", "name", "club", "table", "session", "seat", "deals", "score",
                  "rank_points", "penalties")  # fmt: skip
SEAT_NAMES = ("E", "S", "W", "N")


@dataclass(frozen=True, slots=True)
class ResultRow:
    player_id: str
    name: str
    club: str
    table: str
    session: int
    seat: str
    deals: int
    score: int
    rank_points: Fraction
    penalties: int


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    player_id: str
    name: str
    club: str
    sessions: int
    score: int
    rank_points: Fraction
    penalties: int


@dataclass(frozen=True, slots=True)
class HallExport:
    results: tuple[ResultRow, ...]
    standings: tuple[StandingRow, ...]  # best first: rank points, then score
    counted: tuple[int, ...]  # the sessions the standings count
    held: tuple[str, ...]  # why a session is not counted yet ("session 2: T3 playing")
    unplanned: tuple[str, ...]  # deals the plan seats nobody for ("T9 session 1")
    unbalanced: tuple[str, ...] = ()  # sessions whose scores do not sum as payments do


SessionDeals = Callable[[str], int]  # rule set name -> deals in a session (0: no limit)


def session_deals(rules: str) -> int:
    from controller.hub.standings import ruleset_rounds

    params = ruleset_rounds(rules)
    return 0 if params is None else params.deals


def _complete(table: TableResult, result: SessionResult, deals_of: SessionDeals) -> bool:
    status = table.status
    if status is not None and status.session is not None and status.session > result.session:
        return True
    wanted = None
    if status is not None and status.session == result.session and status.session_deals:
        wanted = status.session_deals
    if wanted is None:
        wanted = deals_of(result.rules) or None
    return wanted is not None and result.deals >= wanted


def build(
    standings: HallStandings,
    plan: SeatingPlan,
    roster: Roster,
    hold: bool = True,
    deals_of: SessionDeals = session_deals,
) -> HallExport:
    results: list[ResultRow] = []
    unplanned: list[str] = []
    unbalanced: list[str] = []
    complete: dict[tuple[str, int], bool] = {}
    for table in standings.tables:
        for s in table.sessions:
            seating = plan.at(s.session, table.table)
            if seating is None:
                unplanned.append(f"{table.table} session {s.session}")
                continue
            complete[(table.table, s.session)] = _complete(table, s, deals_of)
            if s.imbalance:
                unbalanced.append(
                    f"{table.table} session {s.session}: the scores sum to "
                    f"{s.imbalance:+d} beyond the points paid to nobody"
                )
            for i, pid in enumerate(seating.players):
                player = roster.get(pid)
                results.append(
                    ResultRow(
                        pid,
                        player.name if player else pid,
                        player.club if player else "",
                        table.table,
                        s.session,
                        SEAT_NAMES[i],
                        s.deals,
                        s.totals[i],
                        s.rank_points[i] if s.rank_points else Fraction(0),
                        s.penalties[i],
                    )
                )
    counted: list[int] = []
    held: list[str] = []
    for number in range(1, plan.sessions + 1):
        waiting = [
            st.table for st in plan.session(number) if not complete.get((st.table, number), False)
        ]
        played = any((st.table, number) in complete for st in plan.session(number))
        if not played:
            continue
        if hold and waiting:
            held.append(f"session {number}: {', '.join(waiting)} not finished")
            continue
        counted.append(number)
    totals: dict[str, list[int | Fraction]] = {}
    for r in results:
        if r.session not in counted:
            continue
        t = totals.setdefault(r.player_id, [0, 0, Fraction(0), 0])
        t[0] += 1
        t[1] += r.score
        t[2] += r.rank_points
        t[3] += r.penalties
    order = sorted(totals, key=lambda pid: (-totals[pid][2], -totals[pid][1], pid))
    standings_rows: list[StandingRow] = []
    for place, pid in enumerate(order, start=1):
        sessions, score, points, pens = totals[pid]
        prev = standings_rows[-1] if standings_rows else None
        rank = place
        if prev is not None and (prev.rank_points, prev.score) == (points, score):
            rank = prev.rank  # tied players share the higher place
        player = roster.get(pid)
        standings_rows.append(
            StandingRow(
                rank,
                pid,
                player.name if player else pid,
                player.club if player else "",
                int(sessions),
                int(score),
                Fraction(points),
                int(pens),
            )
        )
    results.sort(key=lambda r: (r.session, r.table, SEAT_NAMES.index(r.seat)))
    return HallExport(
        tuple(results),
        tuple(standings_rows),
        tuple(counted),
        tuple(held),
        tuple(unplanned),
        tuple(unbalanced),
    )


def _points(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):.2f}"


def results_csv(export: HallExport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULT_COLUMNS)
    for r in export.results:
        writer.writerow(
            [r.player_id, r.name, r.club, r.table, r.session, r.seat, r.deals, r.score,
             _points(r.rank_points), r.penalties]
        )  # fmt: skip
    return out.getvalue()


def standings_csv(export: HallExport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("rank", "player_id", "name", "club", "sessions", "score", "rank_points",
                     "penalties"))  # fmt: skip
    for s in export.standings:
        writer.writerow(
            [s.rank, s.player_id, s.name, s.club, s.sessions, s.score, _points(s.rank_points),
             s.penalties]
        )  # fmt: skip
    return out.getvalue()


def standings_html(export: HallExport, title: str) -> str:
    """A printable standings sheet: one A4 page per ~40 players, the rank, the player and
    their totals, and which sessions it counts."""
    e = html.escape
    rows = "\n".join(
        f"<tr><td>{s.rank}</td><td>{e(s.player_id)}</td><td>{e(s.name)}</td>"
        f"<td>{e(s.club)}</td><td>{s.sessions}</td><td>{_points(s.rank_points)}</td>"
        f"<td>{s.score:+d}</td><td>{s.penalties or ''}</td></tr>"
        for s in export.standings
    )
    counted = ", ".join(str(n) for n in export.counted) or "none yet"
    notes = "".join(
        f"<p class=note>{e(h)}</p>" for h in export.held + export.unplanned + export.unbalanced
    )
    return f"""<!doctype html>
<html lang=en><head><meta charset=utf-8><title>{e(title)}</title>
<style>
body {{ font: 11pt/1.35 "DejaVu Sans", "Noto Sans", sans-serif; margin: 1.5cm; }}
h1 {{ font-size: 16pt; margin: 0 0 .2em; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border-bottom: 1px solid #bbb; padding: .2em .5em; text-align: left; }}
td:nth-child(n+5), th:nth-child(n+5) {{ text-align: right; }}
thead {{ display: table-header-group; }}
tr {{ break-inside: avoid; }}
.note {{ color: #a40; }}
@page {{ size: A4; margin: 1.2cm; }}
</style></head><body>
<h1>{e(title)}</h1>
<p>Sessions counted: {e(counted)}</p>{notes}
<table><thead><tr><th>Rank</th><th>Id</th><th>Player</th><th>Club</th><th>Sessions</th>
<th>Rank points</th><th>Score</th><th>Penalties</th></tr></thead>
<tbody>
{rows}
</tbody></table></body></html>
"""
