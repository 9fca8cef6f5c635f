"""Penalties reach the hall: the table publishes what each seat paid as penalties and what
went to nobody; the hub's standings, the export and the page show them and flag a session
whose scores do not sum as payments do."""

from __future__ import annotations

from pathlib import Path

from controller.cli import main
from controller.hall.export import build, results_csv
from controller.hall.roster import parse_roster
from controller.hall.seating import parse_plan
from controller.hub.page import render_fragment
from controller.hub.standings import Standings
from controller.hub.wire import SettledDeal
from controller.journal.store import Journal
from controller.outputs.hall_results import HallResults
from rules.seats import Seat
from tests.tools.test_referee import bot_journal


def published(path: Path) -> list[SettledDeal]:
    out: list[SettledDeal] = []
    with Journal.open(path) as journal:
        HallResults(journal, out.append).start()
    return out


def test_a_referee_penalty_is_published_as_the_seats_penalty_and_to_nobody(tmp_path):
    path = tmp_path / "t.journal"
    bot_journal(path, [3, 4])
    (before,) = [d for d in published(path) if d.deal == 2]
    assert main(["correct", str(path), "penalty", "--deal", "2", "--seat", "S", "--points",
                 "8", "--referee", "Li", "--why", "slow play"]) == 0  # fmt: skip
    assert main(["correct", str(path), "penalty", "--deal", "2", "--seat", "W", "--points",
                 "4", "--to", "E", "--referee", "Li", "--why", "touching the wall"]) == 0  # fmt: skip
    (after,) = [d for d in published(path) if d.deal == 2]
    assert after.penalties[1] == before.penalties[1] + 8
    assert after.penalties[2] == before.penalties[2] + 4
    assert after.to_nobody == before.to_nobody + 8
    assert sum(after.deltas) + after.to_nobody == 0
    assert after.seq > before.seq  # the correction's record anchors it
    assert SettledDeal.from_json(after.to_json()) == after


def deal(seq: int, number: int, deltas, penalties=(0, 0, 0, 0), to_nobody=0) -> SettledDeal:
    return SettledDeal(
        seq=seq, session=1, deal=number, rules="sbr-mil", dealer=Seat.E, dice=(1, 2),
        winners=(), deltas=deltas, penalties=penalties, to_nobody=to_nobody,
    )  # fmt: skip


def test_the_export_carries_penalties_and_flags_a_session_that_does_not_sum():
    roster = parse_roster("id,name\nA,Ann\nB,Bo\nC,Cy\nD,Di\n")
    plan = parse_plan("session,table,E,S,W,N\n1,T1,A,B,C,D\n", roster)
    standings = Standings()
    standings.apply_deal("h", "T1", deal(1, 1, (10, -2, -4, -52), (0, 0, 0, 48), 48))
    export = build(standings.snapshot(), plan, roster)
    assert 'data-penalties="48"' in render_fragment(standings.snapshot())
    assert "penalties paid — T1/N 48" in render_fragment(standings.snapshot())
    assert export.unbalanced == ()
    assert [r.penalties for r in export.results] == [0, 0, 0, 48]
    assert results_csv(export).splitlines()[4].endswith(",48")
    standings.apply_deal("h", "T1", deal(2, 2, (3, -1, -1, 0)))  # sums to +1
    snap = standings.snapshot()
    assert build(snap, plan, roster).unbalanced == (
        "T1 session 1: the scores sum to +1 beyond the points paid to nobody",
    )
    assert 'data-imbalance="1"' in render_fragment(snap)


def test_a_deals_penalties_are_signed_by_the_table():
    import dataclasses

    from controller.hub.signing import Check, TableKey, check

    key = TableKey.make()
    signed = key.sign("h", "T1", deal(1, 1, (10, -2, -4, -52), (0, 0, 0, 48), 48))
    assert check("h", "T1", signed, key.public) is Check.GOOD
    forged = dataclasses.replace(signed, penalties=(0, 0, 0, 0), deltas=(10, -2, -4, -4))
    assert check("h", "T1", forged, key.public) is Check.BAD
