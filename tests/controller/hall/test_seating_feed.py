"""The hub sends each table the seating of its next session, retained on a real Mosquitto."""

from __future__ import annotations

import queue

import paho.mqtt.client as paho
import pytest
from real_things import HubProcess

from controller.hall.feed import next_session
from controller.hub.standings import Standings
from controller.hub.wire import (
    BrokerOptions,
    Presence,
    SeatingNotice,
    SettledDeal,
    TableStatus,
    WireError,
    seating_topic,
)
from controller.outputs.mqtt import MqttPublisher
from rules.seats import Seat

T = 15.0
ROSTER = "id,name\nA1,Ann\nB2,Bo\nC3,Cy\nD4,Di\nE5,Ed\nF6,Flo\nG7,Gus\nH8,Hu\n"
PLAN = """session,table,E,S,W,N
1,T1,A1,B2,C3,D4
1,T2,E5,F6,G7,H8
2,T1,E5,A1,G7,C3
2,T2,B2,H8,D4,F6
"""


def watch(port: int, topic: str) -> queue.Queue[SeatingNotice]:
    got: queue.Queue[SeatingNotice] = queue.Queue()
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=f"watch-{topic}")
    client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
    client.on_message = lambda c, u, m: got.put(SeatingNotice.decode(m.payload))
    client.connect("127.0.0.1", port)
    client.loop_start()
    return got


def test_each_table_finds_its_next_sessions_seating_retained(broker, tmp_path):
    (tmp_path / "players.csv").write_text(ROSTER)
    (tmp_path / "seating.csv").write_text(PLAN)
    hub = HubProcess(
        broker.port, "h1", "--roster", str(tmp_path / "players.csv"),
        "--plan", str(tmp_path / "seating.csv"),
    )  # fmt: skip
    try:
        assert hub.said("seating: table T2 plays session 1 as E5 F6 G7 H8")
        t1 = watch(broker.port, seating_topic("h1", "T1"))  # subscribed after: retained
        first = t1.get(timeout=T)
        assert (first.session, [p.name for p in first.players]) == (1, ["Ann", "Bo", "Cy", "Di"])

        table = MqttPublisher(BrokerOptions(port=broker.port), "h1", "T1")
        table.start()
        assert table.wait_connected(T)
        table.publish_status(session=1, deal=1, phase="playing")
        table.publish_deal(
            SettledDeal(
                seq=4, session=1, deal=1, rules="sbr-mil", dealer=Seat.E, dice=(2, 5),
                winners=(Seat.S,), deltas=(-2, 6, -2, -2),
            )
        )  # fmt: skip
        second = t1.get(timeout=T)
        assert second.session == 2
        assert [p.id for p in second.players] == ["E5", "A1", "G7", "C3"]
        table.stop()
    finally:
        hub.stop()


def test_a_table_past_the_plans_last_session_keeps_its_last_seating_and_next_counts_on():
    standings = Standings()
    standings.apply_status("h1", "T1", TableStatus("h1", "T1", Presence.ONLINE, session=2, deal=3))
    (table,) = standings.snapshot().tables
    assert next_session(table) == 3
    assert next_session(None) == 1


@pytest.mark.parametrize(
    "payload",
    [
        b"not json",
        b'{"kind":"seating","version":1,"hall":"h","table":"T","session":1,"players":[]}',
        b'{"kind":"seating","version":1,"hall":"h","table":"T","session":0,"players":'
        b'[{"id":"a","name":"A"},{"id":"b","name":"B"},{"id":"c","name":"C"},'
        b'{"id":"d","name":"D"}]}',
        b'{"kind":"seating","version":1,"hall":"h","table":"T","session":1,"players":'
        b'[{"id":"a","name":"A"},{"id":"a","name":"B"},{"id":"c","name":"C"},'
        b'{"id":"d","name":"D"}]}',
    ],
)
def test_a_malformed_seating_is_refused_with_a_reason(payload):
    with pytest.raises(WireError):
        SeatingNotice.decode(payload)


def test_with_a_plan_the_standings_key_players_by_roster_id_across_tables():
    """Two players named alike stay two rows; a player who changes tables stays one."""
    from controller.hall.roster import parse_roster
    from controller.hall.seating import PlanSeats, parse_plan

    roster = parse_roster(ROSTER.replace("F6,Flo", "F6,Ann"))  # two players named Ann
    plan = parse_plan(PLAN, roster)
    standings = Standings(seated=PlanSeats("h1", plan, roster))

    def deal(seq: int, session: int, deltas: tuple[int, int, int, int]) -> SettledDeal:
        return SettledDeal(
            seq=seq, session=session, deal=1, rules="sbr-mil", dealer=Seat.E, dice=(1, 1),
            winners=(Seat.E,), deltas=deltas, players=("East", "South", "West", "North"),
        )  # fmt: skip

    standings.apply_deal("h1", "T1", deal(1, 1, (3, -1, -1, -1)))  # A1 B2 C3 D4
    standings.apply_deal("h1", "T2", deal(2, 1, (-2, 2, 0, 0)))  # E5 F6 G7 H8
    standings.apply_deal("h1", "T1", deal(3, 2, (-1, 4, -1, -2)))  # E5 A1 G7 C3
    snap = standings.snapshot()
    by_id = {p.id: p for p in snap.players}
    assert set(by_id) == {"A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8"}
    assert (by_id["A1"].name, by_id["A1"].score, by_id["A1"].tables) == ("Ann", 7, ("T1",))
    assert (by_id["F6"].name, by_id["F6"].score, by_id["F6"].tables) == ("Ann", 2, ("T2",))
    assert (by_id["E5"].score, by_id["E5"].tables) == (-3, ("T1", "T2"))
    t1 = next(t for t in snap.tables if t.table == "T1")
    assert t1.sessions[1].players == ("Ed", "Ann", "Gus", "Cy")
    assert t1.sessions[1].ids == ("E5", "A1", "G7", "C3")
    # a table the plan does not seat keeps the names it publishes
    standings.apply_deal("h1", "T9", deal(4, 1, (1, -1, 0, 0)))
    assert "T9/E" in {p.name for p in standings.snapshot().players}
