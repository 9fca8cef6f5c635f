"""Issue 13: the referee puts a deal right from the referee page. Each action is a journalled
correction, undoable, applied to the live judge by rebuilding the deal from the journal as
the referee tools do; an action that would make the deal illegal is refused with the judge's
reason and writes nothing. A restart keeps what the referee did."""

from __future__ import annotations

import dataclasses
import threading

import pytest
from rig import Rig, begin_deal, play

from controller.daemon.runtime import Stop
from controller.journal.payloads import table_seat
from controller.journal.records import RecordKind
from controller.locale import Said, says
from controller.outputs.scoreboard import ActionKind, RefereeAction
from controller.referee.journal_deal import read_deal
from controller.referee.rebuild import rebuild
from controller.words import seat_name, seat_said
from rules import moves as mv
from rules.seats import Seat


def bare(moves) -> list:
    """Moves without their times (a rebuilt deal reads them back from the journal)."""
    return [dataclasses.replace(m, t=None) for m in moves]


def first_draw(moves) -> int:
    return next(i for i, x in enumerate(moves) if isinstance(x, mv.Draw))


def act(rig: Rig, kind: ActionKind, **fields) -> object:
    fields.setdefault("note", "test")
    return rig.rt.referee(RefereeAction(kind, client="ref-1", **fields))


def entered_draw(rig: Rig, move: mv.Draw) -> object:
    side = table_seat(move.seat, rig.rt.dealt_by)
    return act(rig, ActionKind.MOVE, seat=side, move="draw", tile=str(move.tile))


def test_a_draw_the_reader_missed_is_entered_by_hand_and_the_deal_goes_on(rig):
    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    result = entered_draw(rig, moves[k])
    assert result.accepted, result.detail
    assert bare(rig.rt.deal.history[-1:]) == bare([moves[k]])
    accepted = rig.records(RecordKind.MOVE_ACCEPTED)[-1].data()
    assert "entered by the referee (ref-1): test" in accepted["evidence"]
    correction = rig.records(RecordKind.CORRECTION)[-1].data()
    assert (correction["action"], correction["referee"]) == ("enter-move", "ref-1")
    play(rig, moves[k + 1 :])  # the rest of the deal is read as usual and settles
    assert len(rig.records(RecordKind.DEAL_SETTLED)) == 1


def test_a_move_the_judge_refuses_changes_nothing_and_says_why(rig):
    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    last = rig.rt.seq
    wrong = next(t for t in moves[k].tile.suit.tiles if t != moves[k].tile)
    result = entered_draw(rig, mv.Draw(moves[k].seat, wrong))
    assert not result.accepted and "the judge refuses" in result.detail
    assert "wall" in result.detail  # the judge's reason: not the wall's next tile
    side = table_seat(moves[k].seat.next, rig.rt.dealt_by)
    result = act(rig, ActionKind.MOVE, seat=side, move="draw", tile=str(moves[k].tile))
    assert not result.accepted and "turn" in result.detail
    assert rig.rt.seq == last  # nothing journalled


def test_cancel_and_undo_the_cancel(rig):
    plan = begin_deal(rig, 4)
    moves = list(plan.moves)
    k = first_draw(moves) + 2
    play(rig, moves[:k])
    before = rig.rt.deal.history
    result = act(rig, ActionKind.CANCEL, count=1)
    assert result.accepted, result.detail
    assert bare(rig.rt.deal.history) == bare(before[:-1])
    cancel = result.seq
    result = act(rig, ActionKind.UNDO, target_seq=cancel)
    assert result.accepted, result.detail
    assert bare(rig.rt.deal.history) == bare(before)
    # a correction is undone once
    assert not act(rig, ActionKind.UNDO, target_seq=result.seq).accepted


def test_undo_an_entered_move(rig):
    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    entered = entered_draw(rig, moves[k])
    assert act(rig, ActionKind.UNDO, target_seq=entered.seq).accepted
    assert bare([moves[k]])[0] not in bare(rig.rt.deal.history)
    assert rig.rt.deal.phase.value == "draw"


def test_cancelling_a_move_others_built_on_is_refused(rig):
    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[: k + 2])  # the draw and its discard
    draw_seq = next(
        r.seq for r in rig.records(RecordKind.MOVE_ACCEPTED) if r.data()["judge"]["move"] == "draw"
    )
    last = rig.rt.seq
    result = act(rig, ActionKind.CANCEL, target_seq=draw_seq)
    assert not result.accepted and "would refuse" in result.detail
    assert rig.rt.seq == last


def test_a_penalty_counts_in_the_settlement_and_can_be_undone(rig):
    plan = begin_deal(rig, 5)
    moves = list(plan.moves)
    play(rig, moves[:10])
    result = act(rig, ActionKind.PENALTY, seat=Seat.S, points=8, paid_to=Seat.N, confirmed=True)
    assert result.accepted, result.detail
    assert any(isinstance(m, mv.Penalty) for m in rig.rt.deal.history)
    assert act(rig, ActionKind.UNDO, target_seq=result.seq).accepted
    assert not any(isinstance(m, mv.Penalty) for m in rig.rt.deal.history)


def test_abandon_ends_and_settles_the_deal(rig):
    plan = begin_deal(rig, 5)
    play(rig, list(plan.moves)[:12])
    assert act(rig, ActionKind.ABANDON, confirmed=True).accepted
    assert rig.rt.deal.over
    settled = rig.records(RecordKind.DEAL_SETTLED)
    assert len(settled) == 1


def test_regression_a_deal_the_referee_ended_was_journalled_as_time_up(rig):
    """A referee trying the page ended a deal; `journal summary` and the report said it
    ended with the session's time ("time-up"), as the settlement journalled it, while the
    board said the referee ended it. The settlement, the board and the report say `referee`."""
    from controller.locale import Language, translator
    from controller.referee.report import deal_sheet
    from controller.referee.session import rebuild_all

    plan = begin_deal(rig, 5)
    play(rig, list(plan.moves)[:12])
    assert act(rig, ActionKind.ABANDON, confirmed=True).accepted
    (settled,) = rig.records(RecordKind.DEAL_SETTLED)
    assert settled.data()["end"] == "referee"
    assert rig.rt.public().end == "referee"
    (sd,) = [d for d in rebuild_all(rig.journal) if d.number == settled.deal]
    assert "<td>end</td><td>referee</td>" in deal_sheet(sd)
    assert "<td>由裁判结束</td>" in deal_sheet(sd, translator(Language.ZH_CN))


def test_a_referee_call_is_shown_until_answered(rig):
    from controller.alerts import AlertKind
    from controller.recognition.recogniser import RefereeAlert

    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    alert = RefereeAlert(
        AlertKind.STALLED,
        moves[k].seat,
        says("the judge waits for {seat}'s draw", seat=seat_said("E")),
    )
    rig.rt.recognised([alert], rig.clock.now)
    side = seat_name(table_seat(moves[k].seat, rig.rt.dealt_by).name)
    assert rig.rt.referee_called == f"{side}'s draw was not read"  # the best candidate's words
    assert "waits for East's draw" in rig.rt.call.cause  # the alert, in words, in the details
    assert rig.rt.public().referee_called
    assert rig.records(RecordKind.ALERT)[-1].data()["referee_called"] is True
    assert entered_draw(rig, moves[k]).accepted
    assert rig.rt.referee_called is None and not rig.rt.public().referee_called


def test_a_restart_keeps_the_referees_corrections(tmp_path):
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    plan = begin_deal(rig, 4)
    moves = list(plan.moves)
    k = first_draw(moves) + 2
    play(rig, moves[:k])
    assert act(rig, ActionKind.CANCEL, count=1).accepted
    corrected = bare(rig.rt.deal.history)
    rig.close()
    again = Rig(path, clock=rig.clock)
    assert bare(again.rt.deal.history) == corrected
    with again.journal as j:
        assert bare(rebuild(read_deal(j, again.rt.deal_no)).deal.history) == corrected


def test_a_referee_call_offers_the_missed_draw_and_entering_it_answers_the_call(rig):
    """The call says "E drew 3p — not read": the judge knows the wall's next tile, so the call comes with
    the move, which the page enters with one tap (a `move` action like any other)."""
    from controller.alerts import AlertKind
    from controller.recognition.recogniser import RefereeAlert

    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    rig.rt.recognised([RefereeAlert(AlertKind.STALLED, None, Said("no move read"))], rig.clock.now)
    side = table_seat(moves[k].seat, rig.rt.dealt_by)
    expected = {"seat": side.name, "move": "draw", "tile": str(moves[k].tile)}
    (alert,) = [a.data() for a in rig.records(RecordKind.ALERT) if a.data()["code"] == "stalled"]
    assert alert["candidates"] == [
        {
            "text": f"{seat_name(side.name)} drew {moves[k].tile}: enter it",
            "headline": f"{seat_name(side.name)}'s draw was not read",
            "move": expected,
        }
    ]
    move = alert["candidates"][0]["move"]
    result = act(rig, ActionKind.MOVE, seat=Seat.parse(move["seat"]), move=move["move"],
                 tile=move["tile"])  # fmt: skip
    assert result.accepted and rig.rt.referee_called is None


def test_regression_each_referee_answer_raised_a_new_recovery_call(rig):
    """A 10/10/2 campaign (seed 310, deal 14): the table held something no move explains,
    and every move the referee entered re-read the table, failed again and raised a new
    RECOVERY call (30 in one deal). A re-reading after an answer raises none; the stall
    watch calls again if the table stays unexplained."""
    from controller.alerts import AlertKind
    from controller.recognition.recogniser import RefereeAlert

    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    # the re-reading after the answer finds nothing that explains the table
    rig.rec.outbox = [RefereeAlert(AlertKind.RECOVERY, None, Said("no legal sequence"))]
    assert entered_draw(rig, moves[k]).accepted
    assert any(c[0] == "reconcile" for c in rig.rec.calls)  # the table was read again
    codes = [a.data()["code"] for a in rig.records(RecordKind.ALERT)]
    assert "recovery" not in codes and rig.rt.referee_called is None


def test_regression_a_restart_after_a_cancel_and_more_moves_could_not_replay(tmp_path):
    """10/10/2 campaign, seed 310 deal 10: the referee cancelled a false Hu, the deal went
    on, and the daemon killed then could not start again ("record 7695: the judge refuses
    Draw W 2s on replay"): the restart replayed the accepted moves as if nothing had been
    cancelled. The judge is rebuilt at each correction of the open deal."""
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    moves = list(begin_deal(rig, 4).moves)
    k = first_draw(moves) + 2
    play(rig, moves[:k])
    assert act(rig, ActionKind.CANCEL, count=1).accepted  # the last move did not happen...
    play(rig, moves[k - 1 : k + 6])  # ...it happens again, and the deal goes on
    before = bare(rig.rt.deal.history)
    rig.close()
    again = Rig(path, clock=rig.clock)  # raised ReplayError before
    assert bare(again.rt.deal.history) == before
    again.close()


def test_a_referee_action_is_a_queue_item_the_core_answers(rig):
    """Issue 25 item 2: the web server's thread queues the action like any input; the core
    thread runs it and hands back the result; with no core running the asker is told."""
    begin_deal(rig, 3)
    note = RefereeAction(ActionKind.NOTE, client="ref-1", note="seen from the hall")
    with pytest.raises(TimeoutError):
        rig.rt.ask(note, timeout=0.05)
    rig.rt.inbox.get_nowait()  # the unanswered item: the core never ran it
    core = threading.Thread(target=rig.rt.run, daemon=True)
    core.start()
    try:
        result = rig.rt.ask(note)
    finally:
        rig.rt.put(Stop("test"))
        core.join(5)
    assert result is not None and result.accepted, result
    (written,) = [r for r in rig.records(RecordKind.CORRECTION) if r.seq == result.seq]
    assert written.data()["reason"] == "seen from the hall"


def test_regression_a_cancelled_discard_took_the_table_back_by_a_draw_it_never_saw(rig):
    """Issue 25 item 3: the table machine went back to the discarder's turn by the shortest
    path it could find, journalled as `drawn`; a correction now says what it is."""
    plan = begin_deal(rig, 4)
    moves = list(plan.moves)
    k = next(i for i, x in enumerate(moves) if isinstance(x, mv.Discard) and i > 0)
    play(rig, moves[: k + 1])
    assert rig.rt.machine.phase == "playing.claim_window"
    assert act(rig, ActionKind.CANCEL, count=1).accepted
    assert rig.rt.machine.phase == "playing.awaiting_discard"
    last = rig.records(RecordKind.TABLE_PHASE)[-1].data()
    assert (last["from"], last["to"], last["trigger"]) == (
        "playing.claim_window",
        "playing.awaiting_discard",
        "corrected",
    )


def _called(rig):
    from controller.alerts import AlertKind
    from controller.recognition.recogniser import RefereeAlert

    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    rig.rt.recognised([RefereeAlert(AlertKind.STALLED, None, Said("no move read"))], rig.clock.now)
    return moves[k], rig.rt.call.to_json()


def _answer(rig, call: dict, name: str) -> object:
    move = call["candidates"][0]["move"]
    action = RefereeAction(
        ActionKind.MOVE, "from the call", Seat.parse(move["seat"]), client="ref-1",
        move=move["move"], tile=move["tile"], call=name,
    )  # fmt: skip
    return rig.rt.referee(action)


def test_two_referees_answering_the_same_call_change_the_deal_once(rig):
    """Issue 27, bad input: the second tap on the same call (another referee's page, or a
    page from before the first answer) is refused in one sentence and changes nothing."""
    _, call = _called(rig)
    first = _answer(rig, call, call["id"])
    assert first.accepted, first.detail
    before = (len(rig.rt.deal.history), rig.rt.seq)
    second = _answer(rig, call, call["id"])
    assert not second.accepted and second.detail.startswith("That call was already answered")
    assert (len(rig.rt.deal.history), rig.rt.seq) == before  # nothing journalled, nothing changed


def test_an_answer_naming_a_call_that_never_stood_here_is_refused(rig):
    """A stale page after a daemon restart names a call of the journal's past."""
    _, call = _called(rig)
    seq = rig.rt.seq
    refused = _answer(rig, call, "1.0")
    assert not refused.accepted and "already answered" in refused.detail
    assert rig.rt.seq == seq and rig.rt.call is not None  # the call still stands
    assert _answer(rig, call, call["id"]).accepted


def test_a_call_raised_again_before_an_answer_keeps_its_name(rig):
    from controller.alerts import AlertKind
    from controller.recognition.recogniser import RefereeAlert

    _, call = _called(rig)
    again = RefereeAlert(AlertKind.UNRECOGNISED, None, Said("fits no legal move"))
    rig.rt.recognised([again], rig.clock.now)
    assert rig.rt.call.to_json()["id"] == call["id"]  # a tap made meanwhile still counts
    assert _answer(rig, call, call["id"]).accepted


def test_a_settled_deals_corrections_stay_undoable_and_the_undo_resettles_it(rig):
    """Issue 27 item 3: after "End the deal here…" the page promised an undo, but the
    corrections list was empty (the deal had settled). The last settled deal's corrections
    stay listed; undoing one re-judges the settled deal and the totals follow at once."""
    plan = begin_deal(rig, 5)
    play(rig, list(plan.moves)[:12])
    penalty = act(rig, ActionKind.PENALTY, seat=Seat.S, points=8, paid_to=Seat.N, confirmed=True)
    assert penalty.accepted, penalty.detail
    assert act(rig, ActionKind.ABANDON, confirmed=True).accepted
    assert rig.rt.deal.over and len(rig.records(RecordKind.DEAL_SETTLED)) == 1
    with_penalty = list(rig.rt.totals)
    number, listed = rig.rt.desk.settled_listing()
    assert number == rig.rt.deal_no and rig.rt.desk.listing() == ()
    assert [c.seq for c in listed if "penalty" in c.text] == [penalty.seq]
    undone = act(rig, ActionKind.UNDO, target_seq=penalty.seq)
    assert undone.accepted, undone.detail
    assert with_penalty[Seat.S] - rig.rt.totals[Seat.S] == -8  # South no longer pays
    assert with_penalty[Seat.N] - rig.rt.totals[Seat.N] == 8
    _, listed = rig.rt.desk.settled_listing()
    assert not next(c for c in listed if c.seq == penalty.seq).active
    # undone twice: one sentence, nothing written
    seq = rig.rt.seq
    again = act(rig, ActionKind.UNDO, target_seq=penalty.seq)
    assert not again.accepted and "already withdrawn" in again.detail and rig.rt.seq == seq


def test_undoing_a_deals_end_after_the_next_deal_began_says_it_stays_unfinished(rig):
    """Issue 27 item 3: undoing "End the deal here…" once the next deal had begun re-judged
    the deal without its end and said only "deal 1 judged again": it cannot be played on
    (its tiles are off the table). The page says so before and after the undo, the end
    stays listed (undone), and the scores made before the end stand."""
    plan = begin_deal(rig, 7)
    moves = list(plan.moves)
    hu = next(i for i, m in enumerate(moves) if isinstance(m, mv.SelfDrawnHu))
    play(rig, moves[: hu + 3])
    assert any(rig.rt.deal.deltas())  # the Hu is paid before the end
    end = act(rig, ActionKind.ABANDON, confirmed=True)
    assert end.accepted, end.detail
    first = rig.rt.deal_no
    paid = list(rig.rt.totals)
    assert sorted(paid) == sorted(rig.rt.deal.deltas())
    play(rig, list(begin_deal(rig, 8).moves)[:6])  # the next deal begins
    assert rig.rt.deal_no == first + 1
    number, listed = rig.rt.desk.settled_listing()
    (shown,) = [c for c in listed if c.seq == end.seq]
    assert number == first and shown.active
    assert "cannot be played on" in shown.undo_means and "unfinished" in shown.undo_means
    undone = act(rig, ActionKind.UNDO, target_seq=end.seq)
    assert undone.accepted, undone.detail
    assert f"deal {first} judged again without its end" in undone.detail
    assert "stays unfinished" in undone.detail and "the scores do not change" in undone.detail
    assert list(rig.rt.totals) == paid
    _, listed = rig.rt.desk.settled_listing()
    (shown,) = [c for c in listed if c.seq == end.seq]
    assert not shown.active and shown.undo_means.startswith("Undone: ")
    assert rig.rt.deal_no == first + 1 and not rig.rt.deal.over  # the next deal goes on


def test_the_claim_clock_stops_while_a_call_stands(rig):
    """Issue 27 item 4: a fast table had run far ahead of the judge by the time of the
    call. While a call stands the claim window does not close on time; once the call goes
    off the window runs out with the time it had left."""
    from controller.alerts import AlertKind
    from controller.daemon import machine as m
    from controller.recognition.recogniser import RefereeAlert

    plan = begin_deal(rig, 2)
    moves = list(plan.moves)
    first_discard = next(i for i, x in enumerate(moves) if isinstance(x, mv.Discard))
    play(rig, moves[: first_discard + 1])
    rig.step(1.0)
    left = rig.rt.public().claim_remaining_s
    rig.rt.recognised([RefereeAlert(AlertKind.STALLED, None, Said("no move read"))], rig.clock.now)
    for _ in range(10):
        rig.step(1.0)  # ten seconds: the claim clock would have closed the window thrice
    assert rig.rt.machine.phase == m.CLAIM_WINDOW and rig.rt.public().referee_called
    assert rig.rt.public().claim_remaining_s == pytest.approx(left, abs=0.05)
    rig.rt.referee_answered()  # the referee's decision: the call goes off
    rig.step(left - 0.1)
    assert rig.rt.machine.phase == m.CLAIM_WINDOW
    rig.step(0.2)
    assert rig.rt.machine.phase == m.AWAITING_DRAW


def test_regression_the_corrections_list_did_not_name_the_move_entered(rig):
    """A referee trying the page found every row of "Corrections" saying "#N move entered by
    127.0.0.1: chosen from the referee call", never which move: two entered draws could not
    be told apart to undo the wrong one. A row names the move, in the page's language."""
    from controller.locale import Language, Said, translator
    from controller.referee.trial import move_said, say

    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    assert entered_draw(rig, moves[k]).accepted
    (row,) = rig.rt.desk.listing()
    assert say(moves[k], rig.rt.dealt_by) in row.text, row.text
    assert row.text.endswith("entered by ref-1: test")
    zh = translator(Language.ZH_CN)
    chinese = Said.from_json(row.words).say(zh)
    assert move_said(moves[k], rig.rt.dealt_by).say(zh) in chinese and "录入" in chinese


def test_regression_an_answer_from_the_call_was_listed_in_english_on_a_chinese_page(rig):
    """The note the page journals with a candidate's answer ("chosen from the referee call",
    referee.js FROM_CALL) was not a catalog message: a Chinese referee read it in English in
    the corrections list. It is one now, and the page sends exactly it."""
    import re
    from pathlib import Path

    from controller.daemon.referee_desk import FROM_CALL
    from controller.locale import Language, Said, translator

    script = (Path(__file__).parents[3] / "controller/web/referee.js").read_text()
    assert re.search(r'const FROM_CALL = "([^"]+)"', script)[1] == FROM_CALL
    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    side = table_seat(moves[k].seat, rig.rt.dealt_by)
    action = dict(seat=side, move="draw", tile=str(moves[k].tile), note=FROM_CALL)
    assert act(rig, ActionKind.MOVE, **action).accepted
    (row,) = rig.rt.desk.listing()
    chinese = Said.from_json(row.words).say(translator(Language.ZH_CN))
    assert chinese.endswith("从裁判呼叫中选择") and FROM_CALL not in chinese, chinese


def test_regression_a_tile_typed_by_its_chinese_name_was_refused(rig):
    """A Chinese referee typed 六条 in the tile field and got "tile: unexpected character
    '六' (tiles look like 5p)". A tile is taken by its code or by its name in any of the
    table's languages."""
    from controller.locale import Language, translator
    from controller.words import tile_code, tile_said

    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    draw = moves[k]
    side = table_seat(draw.seat, rig.rt.dealt_by)
    name = tile_said(str(draw.tile)).say(translator(Language.ZH_CN))
    assert name != str(draw.tile)
    result = act(rig, ActionKind.MOVE, seat=side, move="draw", tile=name)
    assert result.accepted, result.detail
    assert bare(rig.rt.deal.history[-1:]) == bare([draw])
    for lang in Language:  # every tile's name in every language reads back as its code
        for code in ("1m", "9p", "5s", "1z", "7z"):
            assert tile_code(f" {tile_said(code).say(translator(lang))} ") == code, lang
    wrong = act(rig, ActionKind.MOVE, seat=side, move="discard", tile="十条")
    assert not wrong.accepted and "tiles look like 5p" in wrong.detail


def test_regression_recorded_as_named_another_number_than_the_corrections_row(rig):
    """A referee at 10/10/2: the page said "Recorded as #57" (the correction's record) while
    the row under "Corrections" read "#56 …" (the move it corrected), so the referee could
    not find what was just done to undo it. Each row is named by its own record, the one
    the answer names and Undo takes; a cancel or a fixed tile names the move it is about."""
    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    entered = entered_draw(rig, moves[k])
    fixed_tile = next(t for t in moves[k].tile.suit.tiles if t != moves[k].tile)
    fixed = act(rig, ActionKind.FIX_TILE, target_seq=rig.rt.last_accepted_seq, tile=str(fixed_tile))
    cancelled = act(rig, ActionKind.CANCEL, count=1)
    penalty = act(rig, ActionKind.PENALTY, seat=Seat.S, points=8, confirmed=True)
    answers = [entered, fixed, cancelled, penalty]
    assert all(a.accepted for a in answers), [a.detail for a in answers]
    rows = {row.seq: row.text for row in rig.rt.desk.listing()}
    for answer in answers:
        assert rows[answer.seq].startswith(f"#{answer.seq} "), (answer.seq, rows)
    move = rig.records(RecordKind.CORRECTION)[1].data()["corrects"]
    assert f"tile of #{move} fixed to" in rows[fixed.seq]
    assert f"move #{move} cancelled" in rows[cancelled.seq]


def test_regression_an_alert_for_the_dealer_at_side_west_was_journalled_at_side_east(rig):
    """The recogniser names the side a player sits at (its alert's `seat` and sentence); the
    runtime mapped that seat again as if it were a deal seat, so an alert about the dealer
    sitting at West was journalled at East. It is journalled as the recogniser said it, its
    evidence in English and as sentences beside it."""
    from controller.alerts import AlertKind
    from controller.locale import Language, translator
    from controller.recognition.alert_said import reconciled, seat_said as side_said
    from controller.recognition.recogniser import DealerMoved, RefereeAlert

    begin_deal(rig, 3)
    rig.rt.recognised([DealerMoved(Seat.W)], rig.clock.now)
    assert rig.rt.dealt_by is Seat.W
    said = says(
        "{side} hand holds {n} tiles: {tally}", side=side_said(Seat.W), n="+1", tally="W.hand 9m +1"
    )
    alert = RefereeAlert(AlertKind.LONG_HAND, Seat.W, said, (reconciled(),))
    rig.rt.recognised([alert], rig.clock.now)
    data = rig.records(RecordKind.ALERT)[-1].data()
    assert (data["seat"], data["message"]) == ("W", "W hand holds +1 tiles: W.hand 9m +1")
    assert data["evidence"] == ["reconciled from the tiles on the table"]
    zh = translator(Language.ZH_CN)
    assert [Said.from_json(w).say(zh) for w in data["evidence_words"]] == ["根据牌桌上的牌核对得出"]


def as_entered(rig: Rig, move: mv.Move) -> RefereeAction:
    """`move` as the referee page enters it: a `move` action at the table's fixed seat."""
    tile = getattr(move, "tile", None)
    side = table_seat(move.seat, rig.rt.dealt_by)
    name = {mv.Draw: "draw", mv.Discard: "discard"}[type(move)]
    return RefereeAction(
        ActionKind.MOVE, "test", side, client="ref-1", move=name, tile=str(tile or "")
    )


def run_of(rig: Rig, n: int) -> tuple[list[mv.Move], list[mv.Move]]:
    """A deal played up to its first draw: the moves played, and the next `n` player moves
    (draws and discards; the claim windows between them close as nobody claims)."""
    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = first_draw(moves)
    play(rig, moves[:k])
    ahead = [m for m in moves[k:] if isinstance(m, mv.Draw | mv.Discard)]
    assert all(isinstance(m, mv.Draw | mv.Discard | mv.CloseClaims) for m in moves[k:][:8])
    return moves[:k], ahead[:n]


def test_a_run_of_moves_the_reader_missed_is_entered_with_one_action_each_undoable(rig):
    _, ahead = run_of(rig, 4)
    result = act(rig, ActionKind.MOVES, moves=tuple(as_entered(rig, m) for m in ahead))
    assert result.accepted, result.detail
    assert result.detail == "4 moves accepted"
    played = [m for m in rig.rt.deal.history if isinstance(m, mv.Draw | mv.Discard)]
    assert bare(played[-4:]) == bare(ahead)
    entered = [c.data() for c in rig.records(RecordKind.CORRECTION)]
    assert [(c["action"], c["referee"]) for c in entered] == [("enter-move", "ref-1")] * 4
    # each is its own correction: the last one is undone alone
    assert act(rig, ActionKind.UNDO, target_seq=result.seq).accepted
    played = [m for m in rig.rt.deal.history if isinstance(m, mv.Draw | mv.Discard)]
    assert bare(played[-3:]) == bare(ahead[:3])


def test_a_run_of_moves_stops_at_the_first_the_judge_refuses_and_keeps_those_before(rig):
    _, ahead = run_of(rig, 3)
    wrong = next(t for t in ahead[2].tile.suit.tiles if t != ahead[2].tile)
    run = [*ahead[:2], dataclasses.replace(ahead[2], tile=wrong), ahead[2]]
    result = act(rig, ActionKind.MOVES, moves=tuple(as_entered(rig, m) for m in run))
    assert result.accepted, result.detail
    assert result.detail.startswith("2 moves accepted; then the judge refuses"), result.detail
    played = [m for m in rig.rt.deal.history if isinstance(m, mv.Draw | mv.Discard)]
    assert bare(played[-2:]) == bare(ahead[:2])
    assert len(rig.records(RecordKind.CORRECTION)) == 2


def test_a_run_of_moves_whose_first_is_refused_changes_nothing(rig):
    _, ahead = run_of(rig, 2)
    last = rig.rt.seq
    result = act(rig, ActionKind.MOVES, moves=tuple(as_entered(rig, m) for m in ahead[1:]))
    assert not result.accepted and "the judge refuses" in result.detail
    assert rig.rt.seq == last
