"""Two neighbours the wall scan read in the same rounds (`WallScanned.uncertain`): the scan
put them the wrong way round, so the draw from there is a WALL_MISMATCH on the scanned wall.
The runtime retries it on the swapped order, re-judges the deal on it, and journals which
order the draw confirmed (`wall_check`); a restart replays the swap. Without the doubt the
draw is refused, as before. The deal's moves are a bot's, on the true wall."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rig import Rig, play, rec_types, wall_copies

from controller.daemon.replay import recover
from controller.devices.events import DiceRolled, ShuffleDone, WallsUp
from controller.journal.records import RecordKind
from controller.journal.store import Journal
from controller.outputs.scoreboard import ActionKind, RefereeAction
from controller.recognition.wall_doubt import swapped
from controller.referee.journal_deal import read_deal
from controller.referee.rebuild import rebuild
from rules import moves as mv
from rules.deal import Deal
from rules.wall import Dice
from tools.sim.player import plan_deal

DICE = Dice(6, 4)
SEED = 5


def first_draw_pair(rig: Rig, tiles: tuple) -> int:
    """The position of the deal's first live draw, when it and its neighbour differ."""
    deal = Deal.start(rig.rs, DICE, tiles)
    k = deal.wall.next_index()
    assert k is not None and tiles[k] != tiles[k + 1], "pick a seed whose pair differs"
    return k


def deal_on_scan(rig: Rig, scan: tuple, uncertain: tuple[int, ...], truth: tuple):
    rig.link("table", True)
    rig.link("reader", True)
    rig.table(ShuffleDone(0.0))
    rig.rt.recognised([rec_types.WallScanned(scan, uncertain)], rig.clock.now)
    rig.table(WallsUp(0.0))
    rig.rec.outbox = [rec_types.HandsDealt()]
    rig.table(DiceRolled(0.0, DICE.a, DICE.b))
    return plan_deal(rig.rs, DICE, truth, random.Random(SEED))


def checks(rig: Rig) -> list[dict]:
    return [
        r.data()["wall_check"]
        for r in rig.records(RecordKind.MOVE_ACCEPTED)
        if "wall_check" in r.data()
    ]


def test_a_draw_confirms_the_swapped_order_of_two_neighbours(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "t.journal")
    order = wall_copies(rig.rs, SEED)
    truth = tuple(tc.tile for tc in order)
    k = first_draw_pair(rig, truth)
    scan = swapped(order, k)  # the scan read k and k + 1 in the same rounds, and erred
    plan = deal_on_scan(rig, scan, (k,), truth)
    play(rig, plan.moves)
    assert rig.records(RecordKind.MOVE_REJECTED) == []
    assert checks(rig) == [{"positions": [k, k + 1], "order": "swapped"}]
    (started,) = [r.data() for r in rig.records(RecordKind.DEAL_STARTED)]
    assert started["wall_uncertain"] == [k]
    (settled,) = [r.data() for r in rig.records(RecordKind.DEAL_SETTLED)]
    expected = Deal.replay(rig.rs, DICE, truth, plan.moves)
    assert settled["deltas"] == list(expected.deltas())  # dealer on East: fixed = deal seats
    rebuilt = rebuild(read_deal(rig.journal, 1))  # the referee's replay takes the swap too
    assert rebuilt.refused == () and rebuilt.wall == truth


def test_a_restart_after_the_swap_replays_it(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    rig = Rig(path)
    order = wall_copies(rig.rs, SEED)
    truth = tuple(tc.tile for tc in order)
    k = first_draw_pair(rig, truth)
    plan = deal_on_scan(rig, swapped(order, k), (k, k + 40), truth)
    moves = list(plan.moves)
    drawn = next(i for i, m in enumerate(moves) if isinstance(m, mv.Draw))
    play(rig, moves[: drawn + 3])
    assert checks(rig) == [{"positions": [k, k + 1], "order": "swapped"}]
    rig.close()
    with Journal.open_readonly(path) as journal:
        rec = recover(journal, rig.rs)
    assert rec.started is not None and rec.started.wall_order == truth
    assert rec.started.uncertain == (k + 40,)  # the other pair is still open
    again = Rig(path, clock=rig.clock)  # the daemon restarted on the same journal
    assert again.rt.deal is not None and again.rt.deal.wall_order == truth
    assert again.rt.deal.history == rec.moves
    assert again.rt.doubt.uncertain == (k + 40,)


def test_a_restarted_recogniser_learns_the_open_pairs(tmp_path: Path) -> None:
    from controller.daemon.runtime import Runtime
    from controller.recognition.recogniser import Recogniser

    rig = Rig(tmp_path / "t.journal")
    order = wall_copies(rig.rs, SEED)
    truth = tuple(tc.tile for tc in order)
    k = first_draw_pair(rig, truth)
    plan = deal_on_scan(rig, swapped(order, k), (k,), truth)
    play(rig, list(plan.moves)[:3])  # void choices: the pair is still in the wall
    with Journal.open_readonly(tmp_path / "t.journal") as journal:
        rec = recover(journal, rig.rs)
    recogniser = Recogniser(rig.rs, rig.reader, rig.tags)
    Runtime(
        rig.rs, rig.journal, rig.clock, recogniser, rig.reader, rig.rt.debouncer,
        rig.rt.driver, lambda d, b: True, recovered=rec,
    )  # fmt: skip
    assert recogniser.wall.uncertain == (k,)


def test_a_scan_that_was_right_is_confirmed_as_scanned(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "t.journal")
    order = wall_copies(rig.rs, SEED)
    truth = tuple(tc.tile for tc in order)
    k = first_draw_pair(rig, truth)
    play(rig, deal_on_scan(rig, order, (k,), truth).moves)
    assert checks(rig) == [{"positions": [k, k + 1], "order": "scanned"}]
    assert rig.records(RecordKind.MOVE_REJECTED) == []


@pytest.mark.parametrize("uncertain", [(), "far"])
def test_regression_two_neighbours_swapped_with_no_doubt_recorded(tmp_path: Path, uncertain):
    """Issue 13 item 6: the scan had positions 106 and 107 swapped without marking the pair
    uncertain: "wall-mismatch: next wall tile is 5p, not 3m", six refused discards, the deal
    abandoned. The pair a draw comes from is in doubt whether marked or not."""
    rig = Rig(tmp_path / "t.journal")
    order = wall_copies(rig.rs, SEED)
    truth = tuple(tc.tile for tc in order)
    k = first_draw_pair(rig, truth)
    doubt = () if uncertain == () else (k + 20,)
    play(rig, deal_on_scan(rig, swapped(order, k), doubt, truth).moves[:12])
    assert rig.records(RecordKind.MOVE_REJECTED) == []
    assert checks(rig) == [{"positions": [k, k + 1], "order": "swapped"}]
    assert rig.rt.deal.wall_order[k : k + 2] == truth[k : k + 2]


def test_a_draw_that_no_neighbour_swap_explains_is_a_wall_mismatch(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "t.journal")
    order = wall_copies(rig.rs, SEED)
    truth = tuple(tc.tile for tc in order)
    k = first_draw_pair(rig, truth)
    far = next(j for j in range(k + 2, len(order)) if truth[j] not in (truth[k], truth[k + 1]))
    scan = list(order)
    scan[k], scan[far] = scan[far], scan[k]  # not two neighbours
    play(rig, deal_on_scan(rig, tuple(scan), (), truth).moves[:12])
    rejected = [r.data() for r in rig.records(RecordKind.MOVE_REJECTED)]
    assert rejected and rejected[0]["reason"] == "wall-mismatch"
    assert checks(rig) == []


def dealt_and_live_pair(rig: Rig, tiles: tuple) -> int:
    """A position dealt to a seat whose physical neighbour stays in the wall (differing)."""
    deal = Deal.start(rig.rs, DICE, tiles)
    dealt = {t.index for t in deal.deal_takes}
    return next(p for p in sorted(dealt) if p + 1 not in dealt and tiles[p] != tiles[p + 1])


def test_regression_the_dealt_hands_show_two_neighbours_swapped(tmp_path: Path) -> None:
    """Campaign seed 200 deal 22 (5/5/1): the scan swapped a dealt position and its neighbour
    in the live wall; S's hand never matched the judge, S's void choice was never read, and
    the deal was ended by the referee. The dealt hands say so (`WallSwapped`): the runtime
    re-judges on that order, journals it with the next accepted move, and a restart and the
    referee's rebuild take it."""
    path = tmp_path / "t.journal"
    rig = Rig(path)
    order = wall_copies(rig.rs, SEED)
    truth = tuple(tc.tile for tc in order)
    k = dealt_and_live_pair(rig, truth)
    plan = deal_on_scan(rig, swapped(order, k), (), truth)
    assert rig.rt.deal.wall_order != truth
    why = f"the dealt hands show wall positions {k} and {k + 1} the other way round"
    rig.rt.recognised([rec_types.WallSwapped(k, why)], rig.clock.now)
    assert rig.rt.deal.wall_order == truth
    moves = list(plan.moves)
    play(rig, moves[:10])
    assert checks(rig) == [{"positions": [k, k + 1], "order": "swapped"}]
    first = rig.records(RecordKind.MOVE_ACCEPTED)[0].data()
    assert first["move"] == "void" and "wall_check" in first  # the very next move carries it
    rig.close()
    with Journal.open_readonly(path) as journal:
        assert recover(journal, rig.rs).started.wall_order == truth
    again = Rig(path, clock=rig.clock)  # restarted: the swap is replayed, the deal goes on
    assert again.rt.deal.wall_order == truth
    again.link("table", True)
    again.link("reader", True)
    again.wait_ready()
    play(again, moves[10:])
    assert again.records(RecordKind.MOVE_REJECTED) == []
    (settled,) = [r.data() for r in again.records(RecordKind.DEAL_SETTLED)]
    assert settled["deltas"] == list(Deal.replay(again.rs, DICE, truth, moves).deltas())
    rebuilt = rebuild(read_deal(again.journal, 1))
    assert rebuilt.refused == () and rebuilt.wall == truth
    again.close()


def wall_read(rig: Rig, tc) -> None:
    """One reader round in which the wall antenna reads `tc` (the walls being built)."""
    from controller.devices.events import ReaderPolled, TagsRead
    from controller.tag_maps import sim_tag_uid

    antenna = next(a.number for a in rig.reader.antennas.values() if a.zone.kind.value == "wall")
    rig.clock.advance(0.05)
    t = rig.clock.now
    rig.rt.handle(ReaderPolled(t, "reader", (TagsRead(t, antenna, (sim_tag_uid(tc),), (0x5D,)),)))
    rig.rt.tick()


def test_regression_a_boards_shuffle_sent_while_the_daemon_was_down(tmp_path: Path) -> None:
    """Campaign seed 200 deal 87 (5/5/1): killed at a settlement, the daemon came back after
    the board had sent its shuffle; the walls and the dice that followed were ignored in
    `settled` ("dice 6+1 in phase settled: ignored") and the whole deal was lost. Tiles
    crossing the wall antenna between deals, before any shuffle was heard since the start,
    mean the walls are being built: the shuffle is taken as missed."""
    rig = Rig(tmp_path / "t.journal")
    rig.wait_ready()
    assert rig.rt.machine.phase == "idle"
    order = wall_copies(rig.rs, SEED)
    for tc in order[:12]:
        wall_read(rig, tc)
    assert rig.rt.machine.phase == "shuffling"
    rig.rt.recognised([rec_types.WallScanned(order)], rig.clock.now)
    rig.table(WallsUp(0.0))
    rig.rec.outbox = [rec_types.HandsDealt()]
    rig.table(DiceRolled(0.0, DICE.a, DICE.b))
    assert len(rig.records(RecordKind.DEAL_STARTED)) == 1


def test_a_wall_read_after_a_heard_shuffle_is_no_shuffle_for_a_board(tmp_path: Path) -> None:
    """Once the board's shuffles are heard, only the board says when the next one is."""
    rig = Rig(tmp_path / "t.journal")
    order = wall_copies(rig.rs, SEED)
    plan = deal_on_scan(rig, order, (), tuple(tc.tile for tc in order))
    play(rig, plan.moves)
    assert rig.rt.machine.phase == "settled"
    for tc in order[:12]:
        wall_read(rig, tc)
    assert rig.rt.machine.phase == "settled"


def test_regression_a_swap_after_a_fixed_draw_stopped_the_restarted_daemon(tmp_path: Path):
    """10/10/2 seed 311, deal 24: the scan had two tiles of the live wall the wrong way round
    (not neighbours, so no swap explained it). The draw was entered as the wall said and the
    referee fixed its tile, which re-judged the deal with the two swapped back. Later a draw
    showed an uncertain pair of neighbours swapped; the live judge swapped them on its own
    wall. A restart replayed that swap on the wall as scanned, without the referee's fix,
    refused the fixed draw ("the swapped wall does not fit") and the daemon stopped. Now the
    restart swaps the pair on the wall the judge holds, as the live daemon did."""
    path = tmp_path / "t.journal"
    rig = Rig(path)
    order = wall_copies(rig.rs, SEED)
    truth = tuple(tc.tile for tc in order)
    live = Deal.start(rig.rs, DICE, truth).wall.remaining()
    a, b = live[0], live[1]
    assert truth[a] != truth[b]
    k = next(
        p
        for p in live[6:]
        if p + 1 in live and truth[p] != truth[p + 1] and {p, p + 1}.isdisjoint({a, b})
    )
    scan = list(swapped(order, k))
    scan[a], scan[b] = scan[b], scan[a]  # misread far apart: only the referee can fix it
    moves = list(deal_on_scan(rig, tuple(scan), (k,), truth).moves)
    first = next(i for i, m in enumerate(moves) if isinstance(m, mv.Draw))
    play(rig, moves[:first])
    drawn = moves[first]
    rig.seen(mv.Draw(drawn.seat, truth[b]))  # as the scan said
    rig.step(0.2)
    fixed = rig.rt.referee(
        RefereeAction(
            ActionKind.FIX_TILE,
            "the tile was misread",
            client="ref-1",
            target_seq=rig.rt.last_accepted_seq,
            tile=str(drawn.tile),
        )
    )
    assert fixed.accepted, fixed.detail
    rest = moves[first + 1 :]
    while rest and {"positions": [k, k + 1], "order": "swapped"} not in checks(rig):
        play(rig, rest[:1])
        rest = rest[1:]
    play(rig, rest[:4])  # the deal goes on after the swap
    assert {"positions": [k, k + 1], "order": "swapped"} in checks(rig)
    assert rig.records(RecordKind.MOVE_REJECTED) == []
    live_judge = rig.rt.deal
    assert live_judge is not None and not live_judge.over
    rig.close()
    with Journal.open_readonly(path) as journal:
        rec = recover(journal, rig.rs)  # it raised ReplayError
    assert rec.started is not None and rec.started.wall_order == live_judge.wall_order
    assert rec.moves == live_judge.history
    with Journal.open_readonly(path) as journal:  # the referee's rebuild agrees
        rebuilt = rebuild(read_deal(journal, 1))
    assert rebuilt.refused == () and rebuilt.deal.history == live_judge.history


def test_regression_a_cancelled_draw_left_its_swap_in_the_wall(tmp_path: Path) -> None:
    """10/10/2 seed 311 deal 5: a draw the table never made was taken as showing two
    neighbours of the scan the other way round, and the wall was swapped. The referee
    cancelled the draw, but the swap stayed: the next draw from there was taken as the
    other tile, and the referee fixed it by hand. A cancelled draw's swap goes with it."""
    rig = Rig(tmp_path / "t.journal")
    order = wall_copies(rig.rs, SEED)
    truth = tuple(tc.tile for tc in order)
    k = first_draw_pair(rig, truth)
    plan = deal_on_scan(rig, order, (k,), truth)  # the scan was right
    moves = list(plan.moves)
    drawn = next(i for i, m in enumerate(moves) if isinstance(m, mv.Draw))
    play(rig, moves[:drawn])
    draw = moves[drawn]
    rig.seen(mv.Draw(draw.seat, truth[k + 1]))  # read wrong: the pair's other tile
    assert checks(rig) == [{"positions": [k, k + 1], "order": "swapped"}]
    assert rig.rt.deal.wall_order == swapped(truth, k)
    cancel = RefereeAction(ActionKind.CANCEL, "not what the table showed", client="r", count=1)
    assert rig.rt.referee(cancel).accepted
    assert rig.rt.deal.wall_order == truth  # the scan's order again
    rig.seen(draw)  # the draw the table made: the wall's own tile
    assert isinstance(rig.rt.deal.history[-1], mv.Draw) and rig.rt.deal.history[-1] == draw
    rebuilt = rebuild(read_deal(rig.journal, 1))
    assert rebuilt.refused == () and rebuilt.wall == truth
