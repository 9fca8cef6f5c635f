"""Seating plans: generated plans seat everyone and spread the meetings, tables and winds;
plan and roster files are checked line by line."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from controller.hall.roster import Player, Roster, RosterError, parse_roster
from controller.hall.seating import (
    PlanError,
    SeatingPlan,
    TableSeating,
    format_plan,
    generate,
    needed_meetings,
    parse_plan,
    quality,
)

ROOT = Path(__file__).resolve().parents[3]


def roster(n: int) -> Roster:
    return Roster(tuple(Player(f"P{i:03d}", f"Player {i}") for i in range(1, n + 1)))


def meetings(plan: SeatingPlan) -> Counter[frozenset[str]]:
    """Counted here from the seatings, apart from `quality`'s own count."""
    met: Counter[frozenset[str]] = Counter()
    for s in plan.seatings:
        for a, b in itertools.combinations(s.players, 2):
            met[frozenset((a, b))] += 1
    return met


@pytest.mark.parametrize(("players", "sessions"), [(8, 3), (16, 4), (16, 5), (32, 7), (48, 8)])
def test_a_generated_plan_seats_everyone_once_and_no_pair_meets_more_than_needed(players, sessions):
    r = roster(players)
    plan = generate(r, sessions, seed=3)
    assert plan.sessions == sessions
    for number in range(1, sessions + 1):
        seated = [p for s in plan.session(number) for p in s.players]
        assert sorted(seated) == sorted(r.ids)  # everyone, once
        assert len(plan.session(number)) == players // 4
    # 3·S seat-mates among N − 1 others: some pair meets ⌈3S/(N−1)⌉ times, no more is needed
    assert max(meetings(plan).values()) == needed_meetings(players, sessions)
    q = quality(plan)
    assert q.most_meetings == q.needed and q.pairs_over == 0


@pytest.mark.parametrize(("players", "sessions"), [(32, 7), (48, 8), (200, 6)])
def test_with_enough_tables_nobody_keeps_a_table_or_a_wind_from_one_session_to_the_next(
    players, sessions
):
    plan = generate(roster(players), sessions, seed=1)
    last: dict[str, tuple[str, int]] = {}
    for number in range(1, sessions + 1):
        now = {p: (s.table, w) for s in plan.session(number) for w, p in enumerate(s.players)}
        for p, (table, wind) in now.items():
            if p in last:
                assert last[p][0] != table, f"{p} keeps table {table} into session {number}"
                assert last[p][1] != wind, f"{p} keeps wind {wind} into session {number}"
        last = now
    assert quality(plan).even


def test_with_four_tables_a_plan_where_nobody_meets_twice_cannot_spare_every_table():
    """16 players, 4 sessions, nobody meeting twice: each new table gathers one player from
    each table of the session before, so one of them sits where they sat (the quality says
    so instead of hiding it)."""
    q = quality(generate(roster(16), 4, seed=2))
    assert q.most_meetings == 1
    assert q.same_table == 4 * 3  # one player per table, sessions 2-4


def test_the_same_arguments_give_the_same_plan_and_another_seed_another():
    r = roster(32)
    assert generate(r, 5, seed=9) == generate(r, 5, seed=9)
    assert generate(r, 5, seed=9) != generate(r, 5, seed=10)


def test_named_tables_and_a_plan_file_read_back_as_written():
    plan = generate(roster(12), 3, tables=["A", "B", "C"], seed=4)
    assert plan.tables == ("A", "B", "C")
    assert parse_plan(format_plan(plan), roster(12)) == plan


def test_quality_counts_a_hand_made_plan():
    r = roster(8)
    ids = r.ids
    plan = SeatingPlan(
        ("T1", "T2"),
        (
            TableSeating(1, "T1", ids[0:4]),  # type: ignore[arg-type]  # four ids
            TableSeating(1, "T2", ids[4:8]),  # type: ignore[arg-type]
            TableSeating(2, "T1", ids[0:4]),  # type: ignore[arg-type]  # the same again
            TableSeating(2, "T2", (ids[5], ids[4], ids[7], ids[6])),
        ),
    )
    q = quality(plan)
    assert (q.most_meetings, q.needed, q.pairs_over) == (2, 1, 12)
    assert q.same_table == 8
    assert q.same_wind == 4  # T1 kept its winds; T2's players all moved
    assert q.wind_spread == 2  # T1's East sat East twice
    assert not q.even


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("id,name,rank\nA,Ann,1\n", "roster:1: unknown column 'rank'"),
        ("name\nAnn\n", "no 'id' column"),
        ("id,name\nA,Ann\nA,Bo\n", "roster:3: id 'A' already given on line 2"),
        ("id,name\nA B,Ann\n", "roster:2: id 'A B'"),
        ("id,name\nA,\n", "roster:2: player A has no name"),
        ("id,name\nA,Ann,x\n", "roster:2: 3 fields"),
        ("id,name\n# a comment\n\n", "no players"),
    ],
)
def test_a_malformed_roster_names_its_line(text, message):
    with pytest.raises(RosterError, match=message.replace("(", r"\(")):
        parse_roster(text)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("1,T2,P005,P006,P007,P999", "seating:3: N: 'P999' is not in the roster"),
        ("1,T2,P001,P006,P007,P008", "seating:3: P001 is seated twice in session 1, on line 2"),
        ("1,T1,P005,P006,P007,P008", "seating:3: table T1 of session 1 is already seated"),
        ("x,T2,P005,P006,P007,P008", "seating:3: session 'x' is not a number"),
        ("1,T/2,P005,P006,P007,P008", "seating:3: table 'T/2' is not one MQTT topic level"),
        ("3,T2,P005,P006,P007,P008", "no seating for session 2"),
        ("1,T2,P005,P005,P007,P008", "seated twice in session 1, on this line"),
    ],
)
def test_a_malformed_plan_names_its_line(line, message):
    text = "session,table,E,S,W,N\n1,T1,P001,P002,P003,P004\n" + line + "\n"
    with pytest.raises(PlanError, match=message):
        parse_plan(text, roster(8))


def mjtable(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller", *args],
        capture_output=True, text=True, timeout=120, cwd=cwd,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip


def test_hall_seat_writes_a_plan_and_checks_it(tmp_path):
    (tmp_path / "players.csv").write_text(
        "id,name,club\n" + "".join(f"P{i},Player {i},C{i % 3}\n" for i in range(1, 17))
    )
    made = mjtable("hall", "seat", "--roster", "players.csv", "--sessions", "5", "--out",
                   "seating.csv", cwd=tmp_path)  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert "most meetings of a pair: 1 (the least possible: 1)" in made.stdout
    plan_text = (tmp_path / "seating.csv").read_text()
    assert plan_text.startswith("session,table,E,S,W,N\n") and plan_text.count("\n") == 21
    checked = mjtable("hall", "seat", "--roster", "players.csv", "--check", "seating.csv",
                      cwd=tmp_path)  # fmt: skip
    assert checked.returncode == 0 and checked.stdout == made.stdout


def test_hall_seat_refuses_a_bad_roster_in_one_line_and_writes_nothing(tmp_path):
    (tmp_path / "players.csv").write_text("id,name\nA,Ann\nA,Bo\n")
    (tmp_path / "seating.csv").write_text("kept\n")
    done = mjtable("hall", "seat", "--roster", "players.csv", "--sessions", "2", "--out",
                   "seating.csv", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == ("mjtable hall: players.csv:3: id 'A' already given on line 2")
    assert (tmp_path / "seating.csv").read_text() == "kept\n"


def test_a_roster_that_is_no_multiple_of_four_is_refused_with_the_count(tmp_path):
    with pytest.raises(PlanError, match="10 players: a plan seats a multiple of four"):
        generate(roster(10), 2)
