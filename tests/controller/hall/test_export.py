"""`mjtable hall export`: tables publish on a real Mosquitto, the export keys their seats to
roster ids through the seating plan and holds back a session some table has not finished."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

from controller.hall.export import build, results_csv
from controller.hall.roster import parse_roster
from controller.hall.seating import parse_plan
from controller.hub.standings import Standings
from controller.hub.wire import BrokerOptions, SettledDeal
from controller.outputs.mqtt import MqttPublisher
from rules.seats import Seat

ROOT = Path(__file__).resolve().parents[3]
T = 15.0

ROSTER = """id,name,club
A1,Ann,North
B2,Bo,North
C3,Cy,South
D4,Di,South
E5,Ed,East
F6,Flo,East
G7,Gus,West
H8,Hu,West
"""
PLAN = """session,table,E,S,W,N
1,T1,A1,B2,C3,D4
1,T2,E5,F6,G7,H8
2,T1,E5,A1,G7,C3
2,T2,B2,H8,D4,F6
"""


def deal(seq: int, session: int, number: int, deltas: tuple[int, int, int, int]) -> SettledDeal:
    return SettledDeal(
        seq=seq, session=session, deal=number, rules="sbr-chengdu2016", dealer=Seat.E,
        dice=(3, 4), winners=(Seat.E,), deltas=deltas,
    )  # fmt: skip


def test_export_keys_scores_to_player_ids_and_holds_a_session_until_its_last_table(
    broker, tmp_path
):
    (tmp_path / "players.csv").write_text(ROSTER)
    (tmp_path / "seating.csv").write_text(PLAN)
    t1 = MqttPublisher(BrokerOptions(port=broker.port), "h1", "T1")
    t2 = MqttPublisher(BrokerOptions(port=broker.port), "h1", "T2")
    for pub in (t1, t2):
        pub.start()
        assert pub.wait_connected(T)
    # session 1: T1 has played both its deals and gone on; T2 is still in its second deal
    t1.publish_deal(deal(10, 1, 1, (6, -2, -2, -2)))
    t1.publish_deal(deal(20, 1, 2, (-1, 3, -1, -1)))
    t1.publish_status(session=2, deal=1, phase="playing", session_deals=2)
    t2.publish_deal(deal(11, 1, 1, (-4, 4, 0, 0)))
    t2.publish_status(session=1, deal=2, phase="playing", session_deals=2)
    assert t1.wait_drained(T) and t2.wait_drained(T)

    def export(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "controller", "hall", "export",
             "--roster", "players.csv", "--plan", "seating.csv", "--hall", "h1",
             "--broker", f"127.0.0.1:{broker.port}", "--wait", "5", *extra],
            capture_output=True, text=True, timeout=60, cwd=tmp_path,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )  # fmt: skip

    held = export("--out", "results.csv", "--standings", "standings.csv", "--sheet", "s.html")
    assert held.returncode == 0, held.stderr
    rows = list(csv.DictReader(io.StringIO((tmp_path / "results.csv").read_text())))
    by_player = {(r["player_id"], r["session"]): r for r in rows}
    assert by_player[("A1", "1")]["score"] == "5" and by_player[("A1", "1")]["name"] == "Ann"
    assert by_player[("B2", "1")]["score"] == "1" and by_player[("B2", "1")]["seat"] == "S"
    assert by_player[("F6", "1")]["table"] == "T2" and by_player[("F6", "1")]["score"] == "4"
    assert {r["player_id"] for r in rows} == {"A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8"}
    # the standings wait for T2: session 1 is not counted yet, and the export says why
    assert "not counted: session 1: T2 not finished" in held.stderr
    assert (tmp_path / "standings.csv").read_text().strip() == (
        "rank,player_id,name,club,sessions,score,rank_points,penalties"
    )
    assert "Sessions counted: none yet" in (tmp_path / "s.html").read_text()

    t2.publish_deal(deal(21, 1, 2, (0, 0, 5, -5)))
    t2.publish_status(session=2, deal=1, phase="playing", session_deals=2)
    assert t2.wait_drained(T)
    counted = export("--out", "results.csv", "--standings", "standings.csv")
    assert counted.returncode == 0, counted.stderr
    standings = list(csv.DictReader(io.StringIO((tmp_path / "standings.csv").read_text())))
    assert [(s["player_id"], s["score"]) for s in standings[:2]] == [("A1", "5"), ("G7", "5")]
    assert standings[0]["rank"] == standings[1]["rank"] == "1"  # tied on points and score
    assert sum(int(s["score"]) for s in standings) == 0
    for pub in (t1, t2):
        pub.stop()


def test_a_deal_at_a_table_the_plan_does_not_seat_is_listed_not_guessed():
    roster = parse_roster(ROSTER)
    plan = parse_plan(PLAN, roster)
    standings = Standings()
    standings.apply_deal("h1", "T9", deal(5, 1, 1, (1, -1, 0, 0)))
    export = build(standings.snapshot(), plan, roster)
    assert export.unplanned == ("T9 session 1",)
    assert export.results == () and results_csv(export).count("\n") == 1


def test_export_without_a_broker_says_so(tmp_path):
    (tmp_path / "players.csv").write_text(ROSTER)
    (tmp_path / "seating.csv").write_text(PLAN)
    done = subprocess.run(
        [sys.executable, "-m", "controller", "hall", "export", "--roster", "players.csv",
         "--plan", "seating.csv", "--broker", "127.0.0.1:1", "--wait", "0.5",
         "--out", "results.csv"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().endswith("mjtable hall: no broker answered at 127.0.0.1:1")
    assert not (tmp_path / "results.csv").exists()
