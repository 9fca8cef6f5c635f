"""Frames of one reader answer are committed in one transaction (`Journal.append_many`), the
chain stays sound, and a deal's records are checked without rescanning the deal (the bug:
every noisy frame re-read every record of its deal, a deal of 15,000 frames took 90 s)."""

import time

import pytest

from controller.journal.records import JournalError, RecordKind, Source, Stamp
from controller.journal.store import Journal

WALL = "2026-11-22T10:00:00.000+00:00"


def started(n: int) -> dict:
    return {"deal": n, "rules": "sbr-mil", "dealer": "E", "dice": [3, 4], "players": list("ESWN")}


def frame(i: int) -> tuple:
    payload = {"device": "reader", "hex": f"{i:04x}", "antenna": 1}
    return (Source.READER, RecordKind.HW_FRAME, payload, 1, Stamp(float(i), WALL))


def test_append_many_commits_every_record_in_order_and_the_chain_verifies(tmp_path):
    path = tmp_path / "t.journal"
    with Journal.open(path) as j:
        j.append(Source.DAEMON, RecordKind.DEAL_STARTED, started(1), deal=1)
        records = j.append_many([frame(i) for i in range(5)])
        assert [r.seq for r in records] == [2, 3, 4, 5, 6]
        assert records[0].prev_hash == j.get(1).hash
        assert j.append_many([]) == []
    with Journal.open_readonly(path) as j:
        assert j.verify().ok and j.last().seq == 6


def test_append_many_is_all_or_nothing(tmp_path):
    with Journal.open(tmp_path / "t.journal") as j:
        j.append(Source.DAEMON, RecordKind.DEAL_STARTED, started(1), deal=1)
        bad = (Source.READER, RecordKind.HW_FRAME, {"device": "reader", "hex": "00"}, 9, None)
        bad = (*bad[:4], Stamp(1.0, WALL))
        with pytest.raises(JournalError, match="never started"):
            j.append_many([frame(1), bad])
        assert j.last().seq == 1
        j.append_many([frame(2)])  # the marks are still right after the rollback
        assert j.last().seq == 2


def test_deal_marks_follow_another_writer(tmp_path):
    path = tmp_path / "t.journal"
    with Journal.open(path) as a, Journal.open(path) as b:
        a.append(Source.DAEMON, RecordKind.DEAL_STARTED, started(1), deal=1)
        a.append_many([frame(1)])
        settled = {"deal": 1, "winners": [], "deltas": [0, 0, 0, 0], "ledger": [], "end": "referee"}
        b.append(Source.JUDGE, RecordKind.DEAL_SETTLED, settled, deal=1)
        with pytest.raises(JournalError, match="already settled"):
            a.append(Source.JUDGE, RecordKind.MOVE_ACCEPTED, {"seat": "E", "move": "pass"}, deal=1)


def test_regression_deal_checks_do_not_rescan_the_deal(tmp_path):
    """The time to append a frame does not grow with the frames already in the deal."""
    with Journal.open(tmp_path / "t.journal") as j:
        j.append(Source.DAEMON, RecordKind.DEAL_STARTED, started(1), deal=1)
        for k in range(40):
            j.append_many([frame(k * 500 + i) for i in range(500)])
        statements: list[str] = []
        j._conn.set_trace_callback(statements.append)
        t0 = time.perf_counter()
        j.append_many([frame(10**6)])
        assert time.perf_counter() - t0 < 0.5
        assert not [s for s in statements if "DISTINCT kind" in s]
        j._conn.set_trace_callback(None)
