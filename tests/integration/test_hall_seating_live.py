"""A hall seats a real table: `mjtable hub --plan --roster` on a real Mosquitto sends table T1
its first session's seating, `mjtable run` plays that session with those players (journalled
with their roster ids), and the hub's standings key them by id."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from live_run import ENV, LiveRun
from real_things import HubProcess, start_broker

from controller.journal.records import RecordKind
from controller.journal.store import Journal

pytestmark = pytest.mark.slow
T = 60.0

ROSTER = "id,name\nCN-01,Wang Wei\nCN-02,Li Na\nRU-01,Anna\nRU-02,Boris\n"
PLAN = "session,table,E,S,W,N\n1,T1,RU-02,CN-01,RU-01,CN-02\n"


def test_a_table_plays_the_session_the_hall_seated_and_the_hub_keys_it_by_id(tmp_path: Path):
    broker = start_broker(tmp_path / "broker")
    (tmp_path / "players.csv").write_text(ROSTER)
    (tmp_path / "seating.csv").write_text(PLAN)
    hub = HubProcess(
        broker.port, "h1", "--roster", str(tmp_path / "players.csv"),
        "--plan", str(tmp_path / "seating.csv"), env=ENV, wait_s=T,
    )  # fmt: skip
    journal = tmp_path / "t1.journal"
    run = None
    try:
        assert hub.said("seating: table T1 plays session 1")
        run = LiveRun("--fast", "--deals", "1", "--journal", str(journal), "--http",
                      "127.0.0.1:0", "--mqtt", f"127.0.0.1:{broker.port}", "--hall", "h1",
                      "--table-name", "T1")  # fmt: skip
        assert run.wait(T * 2) == 0, run.diagnosis("the table")
        with Journal.open(journal) as j:
            (started,) = [r.data() for r in j.records() if r.kind is RecordKind.SESSION_STARTED]
        assert started["players"] == ["Boris", "Wang Wei", "Anna", "Li Na"]
        assert started["player_ids"] == ["RU-02", "CN-01", "RU-01", "CN-02"]
        assert (started["session"], started["seating"]) == (1, "hall")
        api = json.load(urllib.request.urlopen(f"{hub.url}/api/standings", timeout=T))
        players = {p["id"]: p for p in api["players"]}
        assert set(players) == {"RU-02", "CN-01", "RU-01", "CN-02"}, api["players"]
        assert players["CN-01"]["name"] == "Wang Wei"
        (table,) = api["tables"]
        assert sum(p["score"] for p in players.values()) == sum(table["sessions"][0]["totals"])
    finally:
        if run is not None:
            run.stop()
        hub.stop()
        broker.stop()
