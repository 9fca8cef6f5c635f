"""The daemon runtime on a fake clock: real journal, real table driver, the judge, and a
scripted recogniser. Bot deals planned through the judge are offered move by move; the
journal must hold the same moves and the judge's deltas, in fixed seats."""

import dataclasses
import gc
import weakref

import pytest
from rig import Rig, begin_deal, play, rec_types

from controller.daemon import machine as m
from controller.journal.payloads import fixed_order, move_from_judge_json, to_physical
from controller.journal.records import RecordKind
from controller.journal.store import add_commit_observer
from controller.locale import Language, Said, translator
from rules import moves as mv
from rules.deal import Deal
from rules.seats import Seat
from rules.tiles import Tile
from rules.wall import Dice


def judged(rig, plan):
    deal = Deal.start(rig.rs, plan.dice, rig.rt.deal.wall_order)
    for move in plan.moves:
        assert deal.apply(move), move
    return deal


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_deal_is_journalled_and_settled_like_the_judge(rig, seed, fast):
    assert rig.rt.machine.phase == "idle"
    plan = begin_deal(rig, seed)
    assert rig.rt.machine.phase == "choosing_void"
    truth = judged(rig, plan)
    play(rig, plan.moves, fast=fast)
    assert rig.rt.machine.phase == "settled"
    accepted = rig.records(RecordKind.MOVE_ACCEPTED)
    wanted = [x for x in plan.moves if not isinstance(x, mv.CloseClaims)]
    assert [
        dataclasses.replace(move_from_judge_json(r.data()["judge"]), t=None) for r in accepted
    ] == [dataclasses.replace(x, t=None) for x in wanted]
    assert not rig.records(RecordKind.MOVE_REJECTED)
    (settled,) = rig.records(RecordKind.DEAL_SETTLED)
    assert settled.data()["deltas"] == list(fixed_order(truth.deltas(), Seat.E))
    # the chain head at the settlement is on the referee page (issue 15 item 5)
    seen = []
    rig.rt.outputs.publish = lambda public, referee, broadcast: seen.append(referee)
    rig.rt.publish()
    assert seen[-1].heads == (
        {"deal": 1, "session_deal": 1, "seq": settled.seq, "hash": settled.hash},
    )
    assert rig.journal.verify().ok
    closed = [
        r.data() for r in rig.records(RecordKind.CLAIM_WINDOW) if r.data()["state"] == "closed"
    ]
    opened = [r for r in rig.records(RecordKind.CLAIM_WINDOW) if r.data()["state"] == "opened"]
    assert len(closed) == len(opened) > 0
    if fast:
        assert {c["closed_by"] for c in closed} & {"draw", "play"}
    else:
        assert {c["closed_by"] for c in closed} <= {"timer", "all-answered"}


def test_the_phase_and_window_a_discard_opens_are_one_commit(rig):
    """A discard's `move.accepted` was followed by two more commits, each an fsync, before
    the board showed the discard: the table's phase, then the claim window opened."""
    commits = []
    stop = add_commit_observer(lambda t, records: commits.append(list(records)))
    try:
        play(rig, begin_deal(rig, 2).moves, fast=True)
    finally:
        stop()
    opened = 0
    for records in commits:
        for i, r in enumerate(records):
            if r.kind is RecordKind.CLAIM_WINDOW and r.data()["state"] == "opened":
                opened += 1
                phase = records[i - 1] if i else None
                assert phase is not None and phase.kind is RecordKind.TABLE_PHASE, records
                assert phase.data()["to"] in (m.CLAIM_WINDOW, m.ROBBING_WINDOW)
    assert opened > 10


def offered_commits(rig, plan):
    """Each move of `plan` offered as the tiles show it (`play(fast=True)`: the next move
    closes a claim window early), and the commits each offer made."""
    made = []
    stop = add_commit_observer(lambda t, records: made[-1][1].append(list(records)))
    try:
        for move in plan.moves:
            if isinstance(move, mv.CloseClaims):
                continue
            made.append((move, []))
            rig.seen(move)
            rig.step(0.2)
        if rig.rt.deal.window is not None:  # the last window closes on time
            made.append((mv.CloseClaims(), []))
            rig.step(rig.rs.play.claim_seconds + 0.01)
    finally:
        stop()
    return made


def test_a_draw_after_a_discard_is_one_commit(rig):
    """A draw that closed the claim window early was three commits (three fsyncs) before its
    `move.accepted`, and a fourth for its phase, before the board showed it: the window
    closed, the table's phase after the close, the draw, the phase after the draw. Each
    reader answer is now one commit; the records and their order are the same."""
    offered = offered_commits(rig, begin_deal(rig, 2))
    draws = 0
    for move, commits in offered:
        during = [c for c in commits if not all(r.kind is RecordKind.HW_BATCH for r in c)]
        assert len(during) == 1, (move, commits)
        (records,) = during
        kinds = [r.kind for r in records if r.kind is not RecordKind.HW_BATCH]  # the inputs
        closed = [r.data() for r in records if r.kind is RecordKind.CLAIM_WINDOW]
        if isinstance(move, mv.Draw) and closed and closed[0]["state"] == "closed":
            draws += 1
            assert closed[0]["closed_by"] == "draw"
            assert kinds == [
                RecordKind.CLAIM_WINDOW,  # closed by the draw
                RecordKind.TABLE_PHASE,  # the claims passed
                RecordKind.MOVE_ACCEPTED,  # the draw
                RecordKind.TABLE_PHASE,  # to discard
            ], records
            closing, drawn = [r.data() for r in records if r.kind is RecordKind.TABLE_PHASE]
            assert closing["to"] == m.AWAITING_DRAW and drawn["trigger"] == "drawn"
    assert draws > 10
    assert rig.rt.machine.phase == "settled"
    # the settlement is the last move's commit (here the last window's close), with the
    # table's phase after it
    last = offered[-1][1][-1]
    assert [r.kind for r in last][-2:] == [RecordKind.DEAL_SETTLED, RecordKind.TABLE_PHASE]


def test_a_draw_after_a_discard_copies_the_judge_before_it_comes(rig, monkeypatch):
    """A draw after a discard was judged on two copies of the judge made on its way to the
    commit: the claim clock's trial (the window closed), and another one made to see
    whether the draw fits a swapped scan pair (`ScanDoubt.reorder`). The tick after the
    discard makes the trial; the draw copies nothing on its way to the commit."""
    copies = []
    copy = Deal.copy

    def counted(deal):
        copies.append(len(deal.history))
        return copy(deal)

    monkeypatch.setattr(Deal, "copy", counted)
    plan = begin_deal(rig, 2)
    draws = 0
    for move in (x for x in plan.moves if not isinstance(x, mv.CloseClaims)):
        window = rig.rt.deal.window is not None
        ahead = len(copies)  # since the last move: the tick's
        rig.seen(move)
        if isinstance(move, mv.Draw) and window:
            draws += 1
            assert ahead == 1, move  # the trial the tick read on
            assert len(copies) == ahead, move  # the draw: none
        copies.clear()
        rig.step(0.2)
    assert draws > 10


def test_a_moves_trial_and_the_judge_before_it_go_once_it_is_committed(rig):
    """Each move is decided on a trial (a copy) of the judge, which becomes the judge
    once committed: the judge before it goes then, by its reference count (nothing holds
    it: not the claim clock's trial, not the views), and a deal played through the core
    leaves nothing for the cyclic collector. A long session keeps one judge, not its
    deals' judges waiting for a collection among the allocations of the moves after."""
    plan = begin_deal(rig, 2)
    gc.collect()
    gc.disable()
    try:
        for move in plan.moves:
            before = weakref.ref(rig.rt.deal)
            if isinstance(move, mv.CloseClaims):  # closed by the claim clock
                if rig.rt.deal.window is None:
                    continue
                rig.step(rig.rs.play.claim_seconds + 0.01)
            else:
                rig.seen(move)
                rig.step(0.2)
            assert before() is None or before() is rig.rt.deal, move
        assert rig.rt.machine.phase == "settled"
        assert gc.collect() == 0
    finally:
        gc.enable()


class Killed(BaseException):
    """The process killed while a move's records were being committed (SIGKILL)."""


@pytest.mark.parametrize("which", ["draw after a discard", "discard"])
def test_a_kill_between_decision_and_commit_loses_and_doubles_nothing(tmp_path, which):
    """A move is decided (the judge plays it, on the trial it was read against when it
    closes a claim window early) before its records are committed in one transaction: a
    kill before that commit leaves none of them, the restart knows nothing of the move, and
    the table shows it again (here: offered again), once."""
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    plan = begin_deal(rig, 2)
    moves = [x for x in plan.moves if not isinstance(x, mv.CloseClaims)]
    truth = judged(rig, plan)
    for cut, move in enumerate(moves):
        window = rig.rt.deal.window is not None
        if which == "discard" and isinstance(move, mv.Discard) and cut > 8:
            break
        if which != "discard" and isinstance(move, mv.Draw) and window and cut > 8:
            break
        rig.seen(move)
        rig.step(0.2)
    before = rig.records()
    history = list(rig.rt.deal.history)
    append, append_many = rig.journal.append, rig.journal.append_many

    def killed(entries):
        if any(kind is RecordKind.MOVE_ACCEPTED for _, kind, *_ in entries):
            raise Killed
        return append_many(entries)

    def killed_one(source, kind, payload, **at):
        if kind is RecordKind.MOVE_ACCEPTED:
            raise Killed
        return append(source, kind, payload, **at)

    rig.journal.append_many, rig.journal.append = killed, killed_one
    with pytest.raises(Killed):
        rig.seen(move)
    rig.close()

    again = Rig(path, clock=rig.clock)
    assert [r.hash for r in again.records()[: len(before)]] == [r.hash for r in before]
    assert again.records(RecordKind.MOVE_ACCEPTED) == [
        r for r in before if r.kind is RecordKind.MOVE_ACCEPTED
    ]
    assert list(again.rt.deal.history) == history  # nothing of the move, nothing lost
    again.wait_ready()
    for x in moves[cut:]:
        again.seen(x)
        again.step(0.2)
    again.step(again.rs.play.claim_seconds + 0.01)  # the last window closes on time
    assert again.rt.machine.phase == "settled"
    accepted = again.records(RecordKind.MOVE_ACCEPTED)
    assert [
        dataclasses.replace(move_from_judge_json(r.data()["judge"]), t=None) for r in accepted
    ] == [dataclasses.replace(x, t=None) for x in moves]
    opened = [r for r in again.records(RecordKind.CLAIM_WINDOW) if r.data()["state"] == "opened"]
    closed = [r for r in again.records(RecordKind.CLAIM_WINDOW) if r.data()["state"] == "closed"]
    assert len(closed) == len(opened)
    (settled,) = again.records(RecordKind.DEAL_SETTLED)
    assert settled.data()["deltas"] == list(fixed_order(truth.deltas(), Seat.E))
    assert again.journal.verify().ok
    again.close()


def test_deal_started_names_the_wall_in_drawing_order(rig):
    begin_deal(rig, 5, Dice(2, 2))
    (started,) = rig.records(RecordKind.DEAL_STARTED)
    data = started.data()
    assert data["dealer"] == "E" and data["dice"] == [2, 2] and data["session"] == 1
    wall = [Tile.parse(t) for t in data["wall"]]
    physical = to_physical(rig.rs, Dice(2, 2), wall)
    assert physical == rig.rt.deal.wall_order
    # drawing order: the first 4 tiles are East's first two stacks (004 Lesson 2)
    assert tuple(wall[:4]) == tuple(t.tile for t in rig.rt.deal.deal_takes[:4])


def test_every_record_is_stamped_with_the_event_time(rig):
    begin_deal(rig, 1)
    kinds = {r.kind for r in rig.records()}
    assert {RecordKind.DAEMON_STARTED, RecordKind.HW_LINK, RecordKind.HW_BATCH} <= kinds
    assert {RecordKind.TABLE_PHASE, RecordKind.SESSION_STARTED, RecordKind.DEAL_STARTED} <= kinds
    monos = [r.mono for r in rig.records()]
    assert monos == sorted(monos)


def test_a_claim_after_the_window_is_refused_with_how_late_it_came(rig):
    plan = begin_deal(rig, 2)
    moves = list(plan.moves)
    first_discard = next(i for i, x in enumerate(moves) if isinstance(x, mv.Discard))
    play(rig, moves[: first_discard + 1])
    assert rig.rt.machine.phase == m.CLAIM_WINDOW
    rig.step(3.01)
    assert rig.rt.machine.phase == m.AWAITING_DRAW
    rig.step(1.0)
    rig.seen(mv.Pung(Seat.S))
    (rejected,) = rig.records(RecordKind.MOVE_REJECTED)
    data = rejected.data()
    assert data["move"] == "pung" and data["seat"] == "S"
    assert data["reason"] in ("wrong-phase", "claim-not-admissible")
    assert data["detail"].startswith("read 1.0 s after the claim window closed")


def test_regression_lateness_is_measured_from_when_the_button_was_read(rig):
    """Issue 13 item 2: a PUNG journalled at 2929.453 was refused at 2930.454 as "closed
    0.1 s before" although the timer closed the window at 2930.323: the claim was timed
    when it was judged, not when it was read."""
    plan = begin_deal(rig, 2)
    moves = list(plan.moves)
    first_discard = next(i for i, x in enumerate(moves) if isinstance(x, mv.Discard))
    play(rig, moves[: first_discard + 1])
    rig.step(3.01)  # the claim clock closes the window
    closed = rig.clock.now
    rig.step(1.0)
    read_at = closed - 0.4  # the button was read while the window was still open
    rig.rt.recognised(
        [rec_types.MoveSeen(mv.Pung(Seat.S), (Said("held"),), read_at)], rig.clock.now
    )
    (rejected,) = rig.records(RecordKind.MOVE_REJECTED)
    assert rejected.data()["detail"].startswith("read 0.4 s before the last claim window closed")


def test_the_window_stays_open_until_the_claim_clock_runs_out(rig):
    plan = begin_deal(rig, 2)
    moves = list(plan.moves)
    first_discard = next(i for i, x in enumerate(moves) if isinstance(x, mv.Discard))
    play(rig, moves[: first_discard + 1])
    rig.step(2.5)
    assert rig.rt.machine.phase == m.CLAIM_WINDOW
    assert rig.rt.public().claim_remaining_s == pytest.approx(0.3, abs=0.01)
    rig.step(0.31)
    assert rig.rt.machine.phase == m.AWAITING_DRAW


def test_a_lost_device_degrades_the_table_and_invents_no_move(rig):
    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = next(i for i, x in enumerate(moves) if i > 5 and isinstance(x, mv.Discard))
    play(rig, moves[:k])
    before = rig.rt.deal.snapshot()
    phase = rig.rt.machine.phase
    rig.link("table", False)
    assert rig.rt.machine.phase == "degraded"
    alerts = [r.data() for r in rig.records(RecordKind.ALERT)]
    assert alerts[-1]["code"] == "device-lost"
    # a button while degraded reaches nobody; timers are frozen
    from controller.devices.events import Button, SeatButton

    rig.rec.outbox = [rec_types.MoveSeen(moves[k], ())]
    rig.table(SeatButton(0.0, Seat.S, Button.PUNG))
    assert rig.rec.outbox, "the recogniser was not asked while degraded"
    rig.step(60.0)
    assert rig.rt.deal.snapshot() == before
    rig.link("table", True)
    assert rig.rt.machine.phase == "degraded"  # until the reader has re-inventoried
    for _ in range(200):
        rig.step(0.6)  # the silent reader times out antenna by antenna: rounds go by
        if rig.rt.machine.phase != "degraded":
            break
    # the re-inventory reconciles: the stand-in recovers the move made meanwhile
    assert any(c[0] == "reconcile" for c in rig.rec.calls)
    assert phase == m.AWAITING_DISCARD
    assert rig.rt.machine.phase == m.CLAIM_WINDOW
    assert rig.rt.deal.river(moves[k].seat)[-1] == moves[k].tile


def test_over_time_warning_once_per_move(tmp_path):
    from rules.ruleset import load

    rs = load("sbr-mil")
    rs = dataclasses.replace(rs, play=dataclasses.replace(rs.play, move_seconds=20.0))
    rig = Rig(tmp_path / "t.journal", rs=rs)
    rig.link("table", True)
    rig.link("reader", True)
    plan = begin_deal(rig, 4)
    play(rig, [x for x in plan.moves][:4])
    for _ in range(5):
        rig.step(10.0)
    over = [r.data() for r in rig.records(RecordKind.ALERT) if r.data()["code"] == "over-time"]
    assert len(over) == 1
    rig.close()


def test_deals_limit_stops_cleanly(tmp_path):
    rig = Rig(tmp_path / "t.journal", deals=1)
    rig.link("table", True)
    rig.link("reader", True)
    plan = begin_deal(rig, 1)
    play(rig, plan.moves)
    assert rig.rt.stopped == "deals"
    kinds = [r.kind for r in rig.records()][-2:]
    assert kinds == [RecordKind.SESSION_ENDED, RecordKind.DAEMON_STOPPED]
    rig.close()


def test_regression_the_shuffle_that_settles_the_last_deal_journals_nothing_after_the_stop(
    tmp_path,
):
    """The bug: the session's last deal ended when the next shuffle closed its last claim
    window; the daemon settled it, stopped, and then journalled the new shuffle's phase after
    `daemon.stopped`."""
    from controller.devices.events import ShuffleDone

    rig = Rig(tmp_path / "t.journal", deals=1)
    rig.link("table", True)
    rig.link("reader", True)
    moves = list(begin_deal(rig, 1).moves)
    while isinstance(moves[-1], mv.CloseClaims):
        moves.pop()  # the last window stays open: the shuffle closes it
    play(rig, moves, fast=True)
    assert rig.rt.deal.window is not None and rig.rt.stopped is None
    rig.table(ShuffleDone(0.0))
    assert rig.rt.stopped == "deals"
    kinds = [r.kind for r in rig.records()][-3:]
    assert kinds == [RecordKind.TABLE_PHASE, RecordKind.SESSION_ENDED, RecordKind.DAEMON_STOPPED]
    rig.close()


def test_a_pung_of_the_void_suit_is_accepted_and_alerted(rig):
    # 004 Lesson 5 (issue 14): a set of the void suit is accepted and penalised, and the
    # referee is told; seed 5's plan opens a window on 7p where S (void p) holds two 7p
    plan = begin_deal(rig, 5)
    moves = list(plan.moves)
    play(rig, moves[:40])
    deal = rig.rt.deal
    assert deal.window is not None and deal.window.tile is Tile.P7
    assert deal.void(Seat.S).value == "p" and deal.held(Seat.S, Tile.P7) == 2
    rig.seen(mv.Pung(Seat.S))
    assert not rig.records(RecordKind.MOVE_REJECTED)
    rig.step(rig.rs.play.claim_seconds + 0.01)
    assert [str(m) for m in rig.rt.deal.melds(Seat.S)][-1] == "pung 7p"
    alerts = [r.data() for r in rig.records(RecordKind.ALERT)]
    void_set = [a for a in alerts if a["code"] == "void-suit-set"]
    said = "South's pung of 7 Dots is of the void suit: South pays 48 points to nobody"
    assert [{k: v for k, v in a.items() if k != "words"} for a in void_set] == [
        {"code": "void-suit-set", "message": said, "severity": "warning", "seat": "S"}
    ]
    # in words on the referee page and in `mjtable run`'s terminal (issue 16: the seat was
    # missing and the meld's kind was a code, "concealed-kong 3 Bamboo is of the void suit"),
    # in the reader's language (the record keeps the sentence, `words`)
    words = [a.text for a in rig.rt.alerts if a.text.startswith("Void suit set")]
    assert words == [f"Void suit set: {said}"]
    sentence = Said.from_json(void_set[0]["words"])
    assert (
        sentence.say(translator(Language.ZH_CN)) == "南家的碰七筒是定缺花色：南家付48分，无人收取"
    )
    assert sentence.say(translator(Language.RU)) == (
        "Юг: панг 7 точек запрещённой масти; Юг платит 48 очков, никто не получает"
    )
    assert rig.rt.machine.phase == m.AWAITING_DISCARD


def test_regression_a_restart_after_the_deals_limit_starts_the_next_session_from_zero(tmp_path):
    """Issue 16 item 10: after `--deals N` a restart showed session 2 with session 1's totals."""
    path = tmp_path / "t.journal"
    rig = Rig(path, deals=1)
    rig.link("table", True)
    rig.link("reader", True)
    play(rig, begin_deal(rig, 1).moves)
    assert rig.rt.stopped == "deals" and any(rig.rt.totals)
    rig.close()
    again = Rig(path, deals=1)
    assert again.recovered.session is None
    assert again.recovered.totals == (0, 0, 0, 0)
    assert [s.score for s in again.rt.public().seats] == [0, 0, 0, 0]
    again.link("table", True)
    again.link("reader", True)
    for _ in range(400):  # a restart is degraded until the reader has been read round
        if again.rt.machine.phase != "degraded":
            break
        again.step(0.6)
    begin_deal(again, 2)
    shown = again.rt.public()
    # the journal's deal 2 is the new session's first: "Session 2 · Deal 1 of 1"
    assert (shown.session, shown.deal, shown.session_deal, shown.session_deals) == (2, 2, 1, 1)
    assert [s.score for s in shown.seats] == [0, 0, 0, 0]
    again.close()


def test_regression_a_settled_deal_corrected_beside_the_daemon_moves_its_totals(tmp_path):
    """Issue 16 item 6: after `mjtable correct` the daemon's session totals (scoreboard,
    seat displays) kept the journalled result, live and after a restart."""
    from controller.cli import main

    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    play(rig, begin_deal(rig, 1).moves)
    assert rig.rt.deal.over and rig.rt.deals_done == 1
    before = list(rig.rt.totals)
    penalty = ["penalty", "--deal", "1", "--seat", "N", "--points", "8", "--to", "W"]
    assert main(["correct", str(path), *penalty, "--referee", "Li", "--why", "seen"]) == 0

    def to_table() -> int:  # the seat displays' score commands go to the table
        return sum(1 for device, _ in rig.sent if device == "table")

    sent = to_table()
    rig.step(2.1)
    expected = [before[0], before[1], before[2] + 8, before[3] - 8]
    assert rig.rt.totals == expected
    assert [s.score for s in rig.rt.public().seats] == expected
    assert to_table() >= sent + 4  # every seat's display told
    sent = to_table()
    rig.step(2.1)  # nothing new: nothing sent again
    assert rig.rt.totals == expected and to_table() == sent
    rig.close()
    again = Rig(path)
    assert list(again.recovered.totals) == expected
    assert again.recovered.settled == {1: tuple(expected)}
    again.close()


def _settled_deltas(rig) -> list[int]:
    settled = [r for r in rig.rt.journal.records() if r.kind.value == "deal.settled"]
    return settled[-1].data()["deltas"]


def test_regression_a_cli_correction_of_the_deal_in_progress_was_not_seen_until_a_restart(
    tmp_path,
):
    """Issue 13: `mjtable correct` beside the running daemon on the deal being played (a
    penalty) reached the tools but not the daemon's judge: the deal settled without it. The
    daemon takes it within RECHECK_S, once, as after the referee page's actions."""
    from controller.cli import main

    plain = Rig(tmp_path / "plain.journal")  # the same deal with no correction
    plain.link("table", True)
    plain.link("reader", True)
    play(plain, begin_deal(plain, 1).moves)
    without = _settled_deltas(plain)
    plain.close()

    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    moves = begin_deal(rig, 1).moves
    play(rig, moves[:12])
    assert not rig.rt.deal.over
    penalty = ["penalty", "--deal", "1", "--seat", "N", "--points", "8", "--to", "W"]
    assert main(["correct", str(path), *penalty, "--referee", "Li", "--why", "seen"]) == 0
    rig.step(2.1)
    rig.step(2.1)  # taken once, not again
    play(rig, moves[12:])
    assert rig.rt.deal.over
    # fixed seats E S W N: W +8 and N -8 beside the same deal played without it
    assert [a - b for a, b in zip(_settled_deltas(rig), without, strict=True)] == [0, 0, 8, -8]
    rig.close()


def test_regression_a_restart_lost_the_result_screen(tmp_path):
    """Issue 16: after the settlement the public view holds the deal's result (hands, ledger,
    changes) until the next deal's play begins; a daemon restart in between lost it."""
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    play(rig, begin_deal(rig, 1).moves)
    held = rig.rt.public()
    assert held.end is not None and all(s.hand is not None for s in held.seats)
    rig.close()
    again = Rig(path)
    # the restart says what it found in words (it said "restarted in settled (deal -, 0 moves
    # replayed)")
    said = [a.text for a in again.rt.alerts]
    assert "Restarted: between deals (deal settled): nothing to replay" in said, said
    shown = again.rt.public()
    same = ("deal", "session", "session_deal", "seats", "ledger", "end", "dealer")
    assert {k: getattr(shown, k) for k in same} == {k: getattr(held, k) for k in same}
    again.wait_ready()
    plan = begin_deal(again, 2)
    assert again.rt.public().deal == 1 and again.rt.public().end == held.end
    first = next(i for i, x in enumerate(plan.moves) if isinstance(x, mv.Discard | mv.Draw))
    play(again, plan.moves[: first + 1])
    live = again.rt.public()
    assert (live.deal, live.end, live.session_deal) == (2, None, 2)
    again.close()


def test_a_restart_mid_deal_says_which_deal_and_how_many_moves():
    from controller.daemon.recovery import restarted_words
    from controller.daemon.replay import Recovered

    rec = Recovered(deal_no=5, phase=m.AWAITING_DISCARD, moves=[mv.CloseClaims()] * 43)
    assert str(restarted_words(rec)) == (
        "deal 5 resumed (waiting for a discard): 43 moves replayed from the journal"
    )
    one = Recovered(deal_no=2, phase=m.CLAIM_WINDOW, moves=[mv.CloseClaims()])
    assert (
        str(restarted_words(one))
        == "deal 2 resumed (claims open): 1 move replayed from the journal"
    )


def test_regression_tiles_on_the_last_discard_are_read_against_the_open_window(rig):
    """Tiles are read as if an open claim window had closed now; on the last discard that
    close ends the deal, and a pung shown by the tiles (issue 18: no PUNG button) was read
    against a finished deal and never offered (an e2e cards deal lost its last pung). While
    closing would end the deal, the tiles are read against the deal as it is."""
    import random

    from rig import wall_copies

    from tools.sim.player import plan_deal

    def last_discard(seed: int) -> int | None:
        tiles = tuple(tc.tile for tc in wall_copies(rig.rs, seed))
        plan = plan_deal(rig.rs, Dice(6, 4), tiles, random.Random(seed))
        deal = Deal.start(rig.rs, plan.dice, tiles)
        for i, move in enumerate(plan.moves):
            deal.apply(move)
            if deal.window is not None and deal.window.last:
                return i
        return None

    seed = next(s for s in range(1, 60) if last_discard(s) is not None)
    plan = begin_deal(rig, seed)
    play(rig, plan.moves[: last_discard(seed) + 1], fast=True)
    assert rig.rt.deal.window is not None and rig.rt.deal.window.last
    assert rig.rt._as_seen() is rig.rt.deal
    assert not rig.rt._as_seen().over
