"""`mjtable journal summary` on a daemon journal of several deals: each deal's `moves` is the
number of its own `move.accepted` records (reported as the same count for every deal; on a
daemon journal it is not: the deals below have different lengths, and so do their counts)."""

from rig import Rig, begin_deal, play

from controller.journal.records import RecordKind
from controller.journal.summary import summarise
from rules import moves as mv


def test_moves_are_counted_per_deal(tmp_path):
    rig = Rig(tmp_path / "t.journal")
    rig.link("table", True)
    rig.link("reader", True)
    played = []
    for seed in (3, 5, 8):
        plan = begin_deal(rig, seed)
        play(rig, plan.moves)
        played.append(sum(not isinstance(m, mv.CloseClaims) for m in plan.moves))
    records = rig.records()
    rig.close()
    summaries = summarise(records)
    per_deal = [
        sum(r.kind is RecordKind.MOVE_ACCEPTED and r.deal == s.deal for r in records)
        for s in summaries
    ]
    assert [s.moves for s in summaries] == per_deal == played
    assert len(set(played)) == 3  # three deals of different lengths
    assert all(s.settled for s in summaries)
