"""The campaign's referee counts its work as the referee page offers it (issue 27 item 5):
a call put right by its first candidate is one tap; an answer the page does not offer is
"Something else…", the form and its button; a call gone with no answer is the table's.
The referee answers through the real web server and its referee API."""

from __future__ import annotations

import dataclasses
import json

import pytest
from outputs_views import public_steps, referee_view

from controller.daemon.candidates import candidates
from controller.daemon.referee_call import RefereeCall
from controller.journal.payloads import move_payload
from controller.journal.records import RecordKind, Source
from controller.journal.store import Journal
from controller.outputs.http import WebServer
from controller.outputs.scoreboard import (
    ActionKind,
    ActionResult,
    RefereeAction,
    RejectReason,
    Scoreboard,
)
from controller.referee.scripted import write_deal
from rules import moves as mv
from rules.bots import play_deal
from rules.deal import Deal
from rules.move_json import move_to_json
from rules.ruleset import load
from rules.seats import Seat
from tools.campaign.referee import MANUAL_TAP, SETTLE_S, TOKEN, TruthReferee


@pytest.fixture
def page(tmp_path):
    actions: list[RefereeAction] = []

    def on_action(action: RefereeAction) -> ActionResult:
        actions.append(action)
        return ActionResult(True, 900 + len(actions))

    sb = Scoreboard(referee_token=TOKEN, on_action=on_action)
    server = WebServer()
    sb.mount(server)
    server.start()
    ref = TruthReferee(tmp_path / "j", tmp_path / "t", "sbr-mil", url=server.url)
    yield sb, ref, actions
    server.close()


def _call(n: int, answers: int = 0) -> dict:
    draw = {"seat": "E", "move": "draw", "tile": "7s"}
    first = {"text": "East drew 7s: enter it", "headline": "East's draw", "move": draw}
    return {"id": f"{n}.{answers}", "headline": "East's draw", "candidates": [first]}


def _show(sb, ref, call) -> None:
    """The page shows `call` (None: no call), and the referee has looked at it."""
    view = public_steps()[6]
    sb.publish(view, referee=dataclasses.replace(referee_view(view), call=call))
    ref.follow(call)


def test_taps_and_first_candidates_are_counted_as_the_page_offers_them(page):
    sb, ref, actions = page
    _show(sb, ref, _call(41))
    # (the truth names no draw's tile: the button's draw is the same move)
    assert ref._post({"kind": "move", "seat": "E", "move": "draw", "note": "x"})
    assert actions[-1].call == "41.0"  # the candidate's button names its call
    _show(sb, ref, _call(41, 1))  # answered, standing until the table agrees
    _show(sb, ref, _call(57))  # the next call: the first is counted
    assert ref._post({"kind": "cancel", "count": 2, "note": "not what the table showed"})
    assert actions[-1].call == ""  # "Something else…": the manual form names no call
    _show(sb, ref, _call(60))
    _show(sb, ref, None)  # gone with no answer: the table caught up
    tally = ref.finish().summary()
    assert tally["calls"] == 3 and tally["by_first_candidate"] == 1 and tally["by_table"] == 1
    assert tally["first_candidate_percent"] == 50.0
    assert tally["max_taps"] == MANUAL_TAP and tally["mean_taps"] == (1 + MANUAL_TAP) / 2
    assert tally["over_3_taps"] == 0
    assert tally["abandoned"] == 0 and tally["mean_seconds"] is not None
    # each call as the referee met it, for reading a run's calls (calls.jsonl)
    log = ref.tally.log
    assert [c["call"] for c in log] == ["41", "57", "60"]
    assert log[0]["answers"] == ["first: entered E draw"] and log[0]["taps"] == 1
    assert log[1]["answers"] == ["form: cancelled 2 move(s) (first button: entered E draw)"]
    assert log[2]["answers"] == [] and log[0]["headline"] == "East's draw"


def _run_call(n: int, second_tile: str) -> dict:
    """A call whose first button enters two moves (East's draw of 7s and discard)."""
    run = [
        {"seat": "E", "move": "draw", "tile": "7s"},
        {"seat": "E", "move": "discard", "tile": second_tile},
    ]
    first = {"text": "Enter the 2 moves", "headline": "East's draw", "move": None}
    first["action"] = {"kind": "moves", "moves": run}
    alone = {"text": "East drew 7s: enter it", "headline": "East's draw", "move": run[0]}
    return {"id": f"{n}.0", "headline": "East's draw", "candidates": [first, alone]}


def test_a_button_that_enters_the_tables_next_moves_is_one_tap(page):
    sb, ref, actions = page
    ref._next = [
        {"kind": "move", "seat": "E", "move": "draw", "tile": "7s", "note": "as shown"},
        {"kind": "move", "seat": "E", "move": "discard", "tile": "1p", "note": "as shown"},
        {"kind": "move", "seat": "S", "move": "draw", "tile": "4m", "note": "as shown"},
    ]
    intent = {"kind": "move", "seat": "E", "move": "draw", "tile": "7s", "note": "as shown"}
    _show(sb, ref, _run_call(70, "1p"))
    assert ref._post(dict(intent))
    sent = actions[-1]
    assert sent.kind is ActionKind.MOVES and sent.call == "70.0"
    assert [(m.seat, m.move, m.tile) for m in sent.moves] == [
        (Seat.E, "draw", "7s"),
        (Seat.E, "discard", "1p"),
    ]
    # a run that is not what the table did next: the referee does not tap it
    _show(sb, ref, _run_call(71, "9p"))
    assert ref._post(dict(intent))
    assert actions[-1].kind is ActionKind.MOVE
    _show(sb, ref, None)
    log = ref.finish().log
    assert log[0]["taps"] == 1 and log[0]["answers"] == [
        "first: entered 2 moves (entered E draw first)"
    ]
    assert log[1]["taps"] == MANUAL_TAP and log[1]["answers"][0].startswith("form: entered E draw")


def _claims_call(n: int) -> dict:
    close = {"text": "Nobody claimed South's 9p: close the claims", "headline": "Claims open"}
    close["move"], close["action"] = None, {"kind": "nobody-claimed"}
    return {"id": f"{n}.0", "headline": "Claims open", "candidates": [close]}


def test_nobody_claimed_is_tapped_when_the_tables_next_move_is_a_draw(page):
    sb, ref, actions = page
    draw = {"kind": "move", "seat": "W", "move": "draw", "tile": "4m", "note": "as shown"}
    pung = {"kind": "move", "seat": "N", "move": "pung", "note": "as shown"}
    ref._next = [draw]
    _show(sb, ref, _claims_call(80))
    assert ref._post(dict(draw))
    assert actions[-1].kind is ActionKind.NOBODY_CLAIMED and actions[-1].call == "80.0"
    ref._next = [pung, draw]  # North punged: closing the claims would be wrong
    _show(sb, ref, _claims_call(81))
    assert ref._post(dict(pung))
    assert actions[-1].kind is ActionKind.MOVE and actions[-1].move == "pung"
    _show(sb, ref, None)
    log = ref.finish().log
    assert log[0]["taps"] == 1 and log[0]["answers"] == [
        "first: nobody claimed (then entered W draw)"
    ]
    assert log[1]["taps"] == MANUAL_TAP


# --- the referee at a table a missed draw left ahead of the judge ---------------------------

RULES = "sbr-mil"


def _copies(wall) -> list[str]:
    """The wall's tile copies, physical order ("5p#1", "5p#2", ...)."""
    seen: dict = {}
    out = []
    for tile in wall:
        seen[tile] = seen.get(tile, 0) + 1
        out.append(f"{tile}#{seen[tile]}")
    return out


def _truth_line(move: mv.Move) -> dict:
    data = move_to_json(move)
    out = {"class": "move", "deal": 1, "move": data["move"]}
    if "seat" in data:
        out["seat"] = data["seat"]
    if isinstance(move, mv.ChooseVoid):
        out["suit"] = move.suit.value
    tile = getattr(move, "tile", None)
    if tile is not None:
        out["tiles"] = [f"{tile}#1"]
    return out


@pytest.fixture
def behind(tmp_path):
    """A deal the judge follows up to East's first discard while the table shows South's
    draw and discard too (the simulator's truth): the journal, the truth, the bot deal."""
    rs = load(RULES)
    full, _record = play_deal(rs, 7)
    moves = full.history
    assert [type(m) for m in moves[4:9]] == [
        mv.Discard,
        mv.CloseClaims,
        mv.Draw,
        mv.Discard,
        mv.CloseClaims,
    ]
    wall, dice = full.wall.order, full.wall.dice
    copies = _copies(wall)
    deal = {"class": "deal", "deal": 1, "dealer": "E", "dice": [dice.a, dice.b]}
    lines = [{**deal, "wall": copies, "prevalent": "E"}, *map(_truth_line, moves[:9])]
    truth = tmp_path / "truth.jsonl"
    truth.write_text("".join(json.dumps(line) + "\n" for line in lines))
    journal = tmp_path / "table.journal"
    with Journal.open(journal) as j:
        write_deal(j, rs, dice, wall, moves[:6], settle=False, wall_copies=copies)
    return journal, truth, full


def _stalled(
    full: Deal, upto: int, seq: int, answers: int = 0, differences=None, wall=None
) -> dict:
    """The daemon's call while its judge holds `full`'s first `upto` moves (on `wall`, as
    scanned: the truth's by default)."""
    judge = Deal.start(load(RULES), full.wall.dice, tuple(wall or full.wall.order))
    for move in full.history[:upto]:
        assert judge.apply(move)
    offered = candidates(judge, Seat.E, differences)
    call = RefereeCall("stalled", "no move read for 5.0 s", offered, alert_seq=seq)
    return {**call.to_json(), "id": f"{seq}.{answers}"}


def _page(sb, seq: int, call) -> None:
    view = dataclasses.replace(public_steps()[6], deal=1, seq=seq)
    sb.publish(view, referee=dataclasses.replace(referee_view(view), call=call))


def _payload(move: mv.Move) -> dict:
    return move_payload(move, Seat.E, ["S.hand: entered by the referee"], None)


def test_referee_gives_one_answer_per_look_not_eight_moves_at_once(page, behind):
    """The referee entered every move the table showed beyond the judge in one look, up to
    eight, without looking at the page between them: the call's first candidate (South's
    draw) was tapped, and South's discard after it went through the form (3 taps), so no
    call counted as put right by its first candidate (10/10/2 seed 311: 0 of 9, 55 taps a
    call). A referee taps one answer, then looks at the table and the page again."""
    sb, ref, actions = page
    ref.journal, ref.truth, full = behind
    call = _stalled(full, 6, 40)
    assert call["candidates"][0]["move"]["move"] == "draw"
    _page(sb, 100, call)
    ref.poll()
    assert len(actions) == 1  # the draw, by its button; nothing more before looking again
    assert (actions[0].move, actions[0].seat, actions[0].call) == ("draw", Seat.S, "40.0")
    # the daemon took the draw (journalled) and the call stands until the table agrees:
    # its first candidate is now South's discard, which the reader sees in the river
    with Journal.open(ref.journal) as j:
        j.append(Source.JUDGE, RecordKind.MOVE_ACCEPTED, _payload(full.history[6]), deal=1)
    discard = full.history[7]
    seen = {(Seat.S, "river", discard.tile): 1}
    _page(sb, 101, _stalled(full, 7, 40, answers=1, differences=seen))
    ref.poll()
    assert len(actions) == 1  # looking at the table: the reader may catch up by itself
    ref._tapped_at -= SETTLE_S
    ref.poll()
    assert len(actions) == 2 and (actions[1].move, actions[1].tile) == (
        "discard",
        str(discard.tile),
    )
    assert actions[1].call == "40.1"  # its button, not the form
    _page(sb, 102, None)
    ref.poll()
    tally = ref.finish().summary()
    assert tally["calls"] == 1 and tally["by_first_candidate"] == 1
    assert tally["max_taps"] == 2 and tally["first_candidate_percent"] == 100.0


def test_a_wall_scanned_with_two_tiles_swapped_is_still_the_truths_deal(page, behind):
    """The referee looked the deal up in the truth by the scanned wall's tile copies, all
    108 of them: a scan that read one stack's two tiles in the wrong order found no deal,
    the call got no answer and the deal was ended 30 s later (25/25/4 seed 312 deal 2)."""
    sb, ref, actions = page
    journal, ref.truth, full = behind
    rs = load(RULES)
    wall = list(full.wall.order)
    copies = _copies(wall)
    far = len(wall) - 2  # a stack at the end of the wall, long before anyone draws it
    wall[far], wall[far + 1] = wall[far + 1], wall[far]
    copies[far], copies[far + 1] = copies[far + 1], copies[far]
    ref.journal = journal.with_name("swapped.journal")
    with Journal.open(ref.journal) as j:
        write_deal(j, rs, full.wall.dice, wall, full.history[:6], settle=False, wall_copies=copies)
    _page(sb, 100, _stalled(full, 6, 40))
    ref.poll()
    assert [(a.move, a.seat) for a in actions] == [("draw", Seat.S)]


def test_regression_a_refused_answer_ended_the_deal_instead_of_taking_the_move_before_back(
    tmp_path, behind
):
    """10/10/2 seed 313 deal 44: the table showed a Hu on a discard whose claim window the
    judge had closed; the referee entered the Hu, the judge refused it, and 30 s later the
    deal was ended "for want of another way". A referee takes the move before it back and
    enters both again (here: the draw refused, the discard before it taken back)."""
    actions: list[RefereeAction] = []

    def on_action(action: RefereeAction) -> ActionResult:
        actions.append(action)
        if action.kind is ActionKind.MOVE:
            return ActionResult(False, None, RejectReason.NOT_NOW, "the judge refuses it")
        return ActionResult(True, 900 + len(actions))

    sb = Scoreboard(referee_token=TOKEN, on_action=on_action)
    server = WebServer()
    sb.mount(server)
    server.start()
    try:
        journal, truth, full = behind
        ref = TruthReferee(journal, truth, RULES, url=server.url)
        _page(sb, 100, _stalled(full, 6, 40))
        ref.poll()
        assert [a.kind for a in actions] == [ActionKind.MOVE]  # refused: nothing changed
        ref._tapped_at = float("-inf")
        ref.poll()  # the same journal, the same call: the move before is taken back
        assert [(a.kind, a.count) for a in actions[1:]] == [(ActionKind.CANCEL, 1)]
        ref._tapped_at = float("-inf")
        ref.poll()
        assert len(actions) == 2  # once: a refused cancel is not followed by another
    finally:
        server.close()


def test_regression_a_draw_the_scan_misread_was_entered_and_taken_back_sixty_times(page, behind):
    """10/10/2 seed 311 deal 30: the scan had misread the tile South drew next. The referee
    entered the draw with the table's tile, the judge refused it (the wall gives another),
    the discard before it was taken back and entered again, and so on 60 times: each answer
    was taken, so the call never ran out of time. A referee taps the call's button (the
    draw as the wall says) and fixes its tile at the next look; and an answer that brings
    the journal no nearer the table does not count as progress."""
    sb, ref, actions = page
    journal, ref.truth, full = behind
    rs = load(RULES)
    wall = list(full.wall.order)
    copies = _copies(wall)
    drawn = full.history[6]
    assert isinstance(drawn, mv.Draw)
    at = Deal.start(rs, full.wall.dice, tuple(wall)).wall.remaining()
    probe = Deal.start(rs, full.wall.dice, tuple(wall))
    for move in full.history[:6]:
        assert probe.apply(move)
    here = probe.wall.next_index()
    far = next(j for j in reversed(at) if wall[j] != wall[here])  # misread at the wall's end
    wall[here], wall[far] = wall[far], wall[here]
    copies[here], copies[far] = copies[far], copies[here]
    ref.journal = journal.with_name("misread.journal")
    with Journal.open(ref.journal) as j:
        write_deal(j, rs, full.wall.dice, wall, full.history[:6], settle=False, wall_copies=copies)
    call = _stalled(full, 6, 40, wall=wall)
    assert call["candidates"][0]["move"]["tile"] == str(wall[here]) != str(drawn.tile)
    _page(sb, 100, call)
    ref.poll()
    sent = [(a.move, a.seat, a.tile, a.call) for a in actions]
    assert sent == [("draw", Seat.S, str(wall[here]), "40.0")]  # the wall's, by the button
    assert ref._shown is not None and ref._shown.first_only  # the button, one tap
    # an answer taken that leaves the journal where it was is no progress: the call's
    # clock is not started again (the journal here does not change)
    stood = ref._called_since
    assert stood is not None
    ref._called_since = (stood[0], stood[1] - 20)
    ref._tapped_at = float("-inf")
    _page(sb, 101, call)
    ref.poll()
    assert len(actions) == 2 and ref._called_since[1] == stood[1] - 20


def test_regression_a_discard_taken_as_another_tile_was_cancelled_with_six_moves_after_it(
    page, tmp_path
):
    """10/10/2 seed 311 deal 24: the judge took West's 7m as a discard of 1m and followed
    the table six moves on. The referee cancelled the six moves through the form (the call
    over 3 taps). When what followed the discard agrees with the table, a referee fixes the
    discard's tile: the call's first button (`fix-tile` on its record), one tap."""
    sb, ref, actions = page
    rs = load(RULES)
    full, _record = play_deal(rs, 7)
    moves = full.history
    probe = Deal.start(rs, full.wall.dice, full.wall.order)
    for d, m in enumerate(moves):
        before = list(probe.hand(m.seat)) if isinstance(m, mv.Discard) else []
        assert probe.apply(m)
        if not isinstance(m, mv.Discard):
            continue
        earlier = any(isinstance(x, mv.Discard) and x.seat is m.seat for x in moves[:d])
        after = moves[d + 1 : d + 5]
        others = all(
            getattr(x, "seat", None) not in (m.seat, None) or isinstance(x, mv.CloseClaims)
            for x in after
        )
        same = [t for t in before if t.suit is m.tile.suit and t != m.tile]
        if earlier and others and same and not any(isinstance(x, mv.Claim) for x in after):
            break
    else:
        raise AssertionError("no discard to misread in the deal")
    wrong = mv.Discard(m.seat, same[0])
    judged = [*moves[:d], wrong, *moves[d + 1 : d + 5]]
    wall, dice = full.wall.order, full.wall.dice
    copies = _copies(wall)
    deal = {"class": "deal", "deal": 1, "dealer": "E", "dice": [dice.a, dice.b]}
    truth = tmp_path / "truth.jsonl"
    lines = [{**deal, "wall": copies, "prevalent": "E"}, *map(_truth_line, moves[: d + 5])]
    truth.write_text("".join(json.dumps(line) + "\n" for line in lines))
    ref.journal, ref.truth = tmp_path / "wrong.journal", truth
    with Journal.open(ref.journal) as j:
        judge = write_deal(j, rs, dice, wall, judged, settle=False, wall_copies=copies)
    seen = {
        (m.seat, "hand", wrong.tile): 1,
        (m.seat, "hand", m.tile): -1,
        (m.seat, "river", m.tile): 1,
        (m.seat, "river", wrong.tile): -1,
    }
    with Journal.open_readonly(ref.journal) as j:
        records = [r.seq for r in j.records() if r.kind is RecordKind.MOVE_ACCEPTED]
    offered = candidates(judge, Seat.E, seen, record_back=lambda n: records[-n])
    call = RefereeCall("stalled", "no move read for 5.0 s", offered, alert_seq=40)
    _page(sb, 100, {**call.to_json(), "id": "40.0"})
    ref.poll()
    assert [(a.kind, a.tile, a.call) for a in actions] == [
        (ActionKind.FIX_TILE, str(m.tile), "40.0")
    ]
    played = [x for x in judged if isinstance(x, mv.PlayerMove)]
    assert actions[0].target_seq == records[played.index(wrong)]  # the wrong discard's record
    assert ref._shown is not None and ref._shown.first_only and ref._shown.taps == 1
