"""Who plays at the table: the hall's seating starts the next session under the hall's
session number and is journalled with it; a seating for a session already started is not
taken (said); the operator's players stay; a restart reads the players back."""

from __future__ import annotations

from rig import Rig, begin_deal

from controller.alerts import AlertKind
from controller.daemon.contracts import SeatingReceived
from controller.daemon.lineup import Lineup, Players, Source
from controller.hub.wire import SeatedPlayer, SeatingNotice
from controller.journal.records import RecordKind

CONFIGURED = ("Ann", "Bo", "Cy", "Di")


def notice(session: int, *names: str, table: str = "table") -> SeatingNotice:
    players = tuple(SeatedPlayer(f"id-{n}", n) for n in names)
    return SeatingNotice("h1", table, session, (players[0], players[1], players[2], players[3]))


def test_the_halls_seating_starts_the_next_session_with_its_number_and_ids():
    lineup = Lineup(CONFIGURED)
    offered = lineup.offer(notice(3, "Wu", "Li", "Ma", "Xu"), last_session=1)
    assert offered.taken and str(offered.message) == "the hall seats Wu, Li, Ma, Xu for session 3"
    assert lineup.offer(notice(3, "Wu", "Li", "Ma", "Xu"), last_session=1).message == ""
    number, players = lineup.start(last_session=1)
    assert number == 3
    assert players == Players(
        ("Wu", "Li", "Ma", "Xu"), ("id-Wu", "id-Li", "id-Ma", "id-Xu"), Source.HALL, 3
    )
    # the next session, with no seating from the hall, is the config's again
    assert lineup.start(last_session=3) == (4, Players(CONFIGURED))


def test_a_seating_for_a_session_already_started_is_not_taken_and_said():
    lineup = Lineup(CONFIGURED)
    offered = lineup.offer(notice(2, "Wu", "Li", "Ma", "Xu"), last_session=2)
    assert not offered.taken
    assert str(offered.message) == (
        "the hall seats Wu, Li, Ma, Xu for session 2, which this table has already "
        "started: it keeps its players (Ann, Bo, Cy, Di)"
    )
    assert lineup.start(last_session=2) == (3, Players(CONFIGURED))


def test_the_operators_players_stay_whatever_the_hall_seats():
    lineup = Lineup(CONFIGURED, operator=True)
    offered = lineup.offer(notice(1, "Wu", "Li", "Ma", "Xu"), last_session=0)
    assert not offered.taken and "the operator named this table's players" in str(offered.message)
    assert lineup.start(0) == (1, Players(CONFIGURED, source=Source.OPERATOR))


def test_the_session_is_journalled_with_the_halls_players_and_a_restart_reads_them(tmp_path):
    path = tmp_path / "t.journal"
    rig = Rig(path, deals=1, players=CONFIGURED)
    rig.rt.handle(SeatingReceived(notice(2, "Wu", "Li", "Ma", "Xu")))
    rig.link("table", True)
    rig.link("reader", True)
    begin_deal(rig, 1)
    (started,) = rig.records(RecordKind.SESSION_STARTED)
    assert started.data()["session"] == 2
    assert started.data()["players"] == ["Wu", "Li", "Ma", "Xu"]
    assert started.data()["player_ids"] == ["id-Wu", "id-Li", "id-Ma", "id-Xu"]
    assert started.data()["seating"] == "hall"
    (dealt,) = rig.records(RecordKind.DEAL_STARTED)
    assert dealt.data()["players"] == ["Wu", "Li", "Ma", "Xu"]
    assert [s.player for s in rig.rt.public().seats] == ["Wu", "Li", "Ma", "Xu"]
    alerts = [r.data() for r in rig.records(RecordKind.ALERT)]
    assert any(a["code"] == AlertKind.SEATING.value for a in alerts)
    rig.close()

    again = Rig(path, deals=5, players=CONFIGURED)  # session 2 is still open
    assert again.rt.lineup.now.names == ("Wu", "Li", "Ma", "Xu")
    # the hub's retained seating of that session, delivered again, says nothing
    before = len(again.records(RecordKind.ALERT))
    again.rt.handle(SeatingReceived(notice(2, "Wu", "Li", "Ma", "Xu")))
    assert len(again.records(RecordKind.ALERT)) == before
    # another seating for the open session is refused and said
    again.rt.handle(SeatingReceived(notice(2, "Qi", "Li", "Ma", "Xu")))
    (said,) = again.records(RecordKind.ALERT)[before:]
    assert "which this table has already started: it keeps its players" in said.data()["message"]
    assert again.rt.lineup.now.names == ("Wu", "Li", "Ma", "Xu")
    again.close()
