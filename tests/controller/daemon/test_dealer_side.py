"""Issue 13 item 7: after a deal the daemon lost, its idea of the next dealer was wrong; the
recogniser saw the dealt hands at another side ("dealer-side: ... seats follow the table")
but the journal kept the old dealer and the next deal was settled with every delta shifted
one seat (journal [11,-6,-4,-1], truth [-6,-4,-1,11]). The table's dealer is journalled
(a `dealer` correction of `deal.started`) and every reader takes it."""

from __future__ import annotations

from pathlib import Path

from rig import Rig, begin_deal, play, rec_types

from controller.journal.payloads import fixed_order
from controller.journal.records import RecordKind
from controller.journal.store import Journal
from controller.journal.summary import summarise
from controller.referee.journal_deal import read_deal
from rules.deal import Deal
from rules.seats import Seat


def test_regression_the_dealt_hands_name_the_dealer_and_the_settlement_follows(tmp_path: Path):
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    plan = begin_deal(rig, 3)  # the daemon thinks E deals
    assert rig.rt.dealt_by is Seat.E
    rig.rt.recognised([rec_types.DealerMoved(Seat.N)], rig.clock.now)  # the table says N
    (correction,) = [r.data() for r in rig.records(RecordKind.CORRECTION)]
    assert correction["action"] == "dealer" and correction["details"] == {"dealer": "N"}
    moves = list(plan.moves)
    half = len(moves) // 2
    play(rig, moves[:half])
    rig.close()
    again = Rig(path, clock=rig.clock)  # a restart mid-deal keeps N as the dealer
    assert again.rt.dealt_by is Seat.N
    again.wait_ready()
    play(again, moves[half:])
    (settled,) = [r.data() for r in again.records(RecordKind.DEAL_SETTLED)]
    judge = Deal.replay(again.rs, plan.dice, again.rt.deal.wall_order, moves)
    assert settled["deltas"] == list(fixed_order(judge.deltas(), Seat.N))
    with Journal.open_readonly(path) as j:
        assert read_deal(j, 1).dealer is Seat.N
        assert summarise(j.records())[0].dealer is Seat.N
    again.close()
