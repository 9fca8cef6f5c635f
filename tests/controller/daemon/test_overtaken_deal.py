"""A deal the table's next shuffle overtook before it was ended (issue 18, campaign
`--declarations tiles --seed 501` deal 6): the live daemon abandoned it at the shuffle, was
killed, and the restart resumed it in phase `shuffling`. The referee then entered its moves
(each a `machine` alert "no way from shuffling to ...") and ended it: the settlement raised
"Can't trigger event 'settlement_done' from state(s) shuffling" and the next deal's walls were
never scanned (the recogniser still held the old deal): a second deal lost. Now the shuffle
calls the referee for the deal (`deal-overtaken`), live or after a restart; its moves and its
end settle it while the table machine follows the table."""

from __future__ import annotations

from pathlib import Path

import pytest
from rig import Rig, begin_deal, play, rec_types, wall_copies

from controller.devices.events import Button, DiceRolled, SeatButton, ShuffleDone, WallsUp
from controller.journal.payloads import table_seat
from controller.journal.records import RecordKind
from controller.outputs.scoreboard import ActionKind, RefereeAction
from rules import moves as mv
from rules.seats import Seat
from rules.wall import Dice


def codes(rig: Rig) -> list[str]:
    return [r.data()["code"] for r in rig.records(RecordKind.ALERT)]


def overtaken(tmp_path: Path, restart: bool) -> tuple[Rig, mv.Draw]:
    """Deal 1 in play, the table shuffles for deal 2 (the daemon is killed and restarted);
    returns the rig and deal 1's next move (a draw the reader never saw)."""
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    moves = list(begin_deal(rig, 5).moves)
    k = next(i for i, x in enumerate(moves) if isinstance(x, mv.Draw) and i > 8)
    play(rig, moves[:k])
    rig.table(ShuffleDone(0.0))  # the players moved on: the next deal's shuffle
    assert rig.rt.machine.phase == "shuffling" and "deal-overtaken" in codes(rig)
    assert rig.rt.deal is not None and rig.rt.referee_called
    if not restart:
        return rig, moves[k]
    rig.close()  # killed here
    again = Rig(path, clock=rig.clock)
    again.wait_ready()
    return again, moves[k]


@pytest.mark.parametrize("restart", [True, False], ids=["restarted", "live"])
def test_regression_a_deal_ended_after_the_next_shuffle_settles_without_a_machine_error(
    tmp_path: Path, restart: bool
):
    rig, missed = overtaken(tmp_path, restart)
    rt = rig.rt
    assert rt.deal_no == 1 and rt.deal is not None and not rt.deal.over
    assert rt.machine.phase == "shuffling"  # the table's phase, not the old deal's
    (call,) = [
        r.data() for r in rig.records(RecordKind.ALERT) if r.data()["code"] == "deal-overtaken"
    ][-1:]
    assert call["referee_called"] is True and rt.referee_called
    side = table_seat(missed.seat, rt.dealt_by)
    entered = rt.referee(
        RefereeAction(ActionKind.MOVE, seat=side, move="draw", tile=str(missed.tile), note="t")
    )
    assert entered.accepted, entered.detail
    ended = rt.referee(RefereeAction(ActionKind.ABANDON, confirmed=True, note="t"))
    assert ended.accepted, ended.detail
    (settled,) = rig.records(RecordKind.DEAL_SETTLED)
    assert settled.deal == 1
    assert rt.machine.phase == "shuffling" and rt.referee_called is None
    assert not {"internal-error", "machine", "recovery"} & set(codes(rig)), codes(rig)
    # the next deal's walls are scanned and it starts as usual
    rt.recognised([rec_types.WallScanned(wall_copies(rig.rs, 6))], rig.clock.now)
    rig.table(WallsUp(0.0))
    rig.rec.outbox = [rec_types.HandsDealt()]
    rig.table(DiceRolled(0.0, 3, 4))
    assert rt.deal_no == 2 and rt.deal is not None and rt.deal.dice == Dice(3, 4)
    assert rt.machine.phase == "choosing_void"
    assert "no-wall-scan" not in codes(rig)


@pytest.mark.parametrize("restart", [True, False], ids=["restarted", "live"])
def test_a_deal_overtaken_and_never_ended_is_abandoned_when_the_next_one_starts(
    tmp_path: Path, restart: bool
):
    rig, _missed = overtaken(tmp_path, restart)
    before = codes(rig).count("deal-abandoned")
    rig.rt.recognised([rec_types.WallScanned(wall_copies(rig.rs, 6))], rig.clock.now)
    rig.table(WallsUp(0.0))
    rig.rec.outbox = [rec_types.HandsDealt()]
    rig.table(DiceRolled(0.0, 3, 4))
    assert rig.rt.deal_no == 2 and rig.rt.referee_called is None
    abandoned = [r for r in rig.records(RecordKind.ALERT) if r.data()["code"] == "deal-abandoned"]
    assert len(abandoned) == before + 1 and abandoned[-1].deal == 1
    assert not rig.records(RecordKind.DEAL_SETTLED)
    assert not {"internal-error", "machine"} & set(codes(rig))


def test_a_button_pressed_while_the_table_shuffles_on_is_not_read_against_that_deal(tmp_path):
    rig, _missed = overtaken(tmp_path, restart=False)
    given: list = []
    rig.rec.on_button = lambda press, deal: given.append(deal) or []
    rig.table(SeatButton(0.0, Seat.N, Button.HU))
    assert given == [None]


@pytest.mark.parametrize("restart", [True, False], ids=["restarted", "live"])
def test_regression_a_deal_overtaken_call_offered_no_end_the_deal_button(
    tmp_path: Path, restart: bool
):
    """A referee trying the page at 10/10/2: the call for a deal the next shuffle overtook
    (its tiles gone, nothing of it can be read) offered no candidate at all, and the way
    to end it was four taps down "Something else…". Its first candidate ends it (the page
    asks first, as its form does); the end is listed and undoable like any correction."""
    rig, _missed = overtaken(tmp_path, restart)
    rt = rig.rt
    first, *rest = rt.call.to_json()["candidates"]
    assert first["action"] == {"kind": "abandon"}
    assert first["text"] == "End this deal here (the payments so far stand)"
    assert rt.referee_called == "The table moved on to the next deal before this one ended"
    assert rest and rest[0]["move"] is not None  # then the judge's own next step (the wall)
    ended = rt.referee(
        RefereeAction(ActionKind.ABANDON, "t", client="ref-1", confirmed=True, call=rt.call.name)
    )
    assert ended.accepted, ended.detail
    (settled,) = rig.records(RecordKind.DEAL_SETTLED)
    assert settled.deal == 1 and rt.referee_called is None
    number, (row,) = rt.desk.settled_listing()
    assert number == 1 and row.seq == ended.seq and row.active
    undone = rt.referee(RefereeAction(ActionKind.UNDO, "t", client="ref-1", target_seq=row.seq))
    assert undone.accepted, undone.detail


def test_regression_the_referee_page_named_deals_by_the_journals_count(tmp_path: Path):
    """A referee at 10/10/2: the board said "Deal 1" while the referee page's settled box,
    its chain heads and its undo sentences said "Deal 2" (the journal counts every deal,
    an abandoned one too; the session counts those played). The page names a deal as the
    board does."""
    rig, _missed = overtaken(tmp_path, restart=False)
    rt = rig.rt
    rt.recognised([rec_types.WallScanned(wall_copies(rig.rs, 6))], rig.clock.now)
    rig.table(WallsUp(0.0))
    rig.rec.outbox = [rec_types.HandsDealt()]
    rig.table(DiceRolled(0.0, 3, 4))
    assert rt.deal_no == 2 and rt.session_deal() == 1  # deal 1 was abandoned: not counted
    ended = rt.referee(RefereeAction(ActionKind.ABANDON, "t", client="ref-1", confirmed=True))
    assert ended.accepted, ended.detail
    seen = []
    rt.outputs.publish = lambda public, referee, broadcast: seen.append((public, referee))
    rt.publish()
    public, referee = seen[-1]
    assert public.session_deal == 1
    assert (referee.settled_deal, referee.settled_number) == (2, 1)
    assert referee.heads[-1]["session_deal"] == 1
    # the journal panel too: journal deal 2 is the session's deal 1, dealt and settled
    lines = [line.split("\t")[2] for line in referee.journal_tail]
    assert [x for x in lines if " dealt: " in x][-1].startswith("deal 1 dealt")
    assert [x for x in lines if " settled (" in x][-1].startswith("deal 1 settled")
    (row,) = referee.settled_corrections
    assert row.seq == ended.seq and row.undo_means.startswith("Undo judges deal 1 again")
    undone = rt.referee(RefereeAction(ActionKind.UNDO, "t", client="ref-1", target_seq=row.seq))
    assert undone.accepted and undone.detail.startswith("deal 1 judged again"), undone.detail
