"""A reader answer's way through `mjtable run` (tools/bench/frame_path.py): which answer a
move is timed from, and `mjtable bench daemon --path` end to end with figures present and
sane (not a timed pass or fail: the machine is shared)."""

import json
import math
import subprocess
import sys
from pathlib import Path

from controller.journal.records import Record, RecordKind, Source
from tools.bench import commit_log
from tools.bench.frame_path import Chunk, Push, samples

ROOT = Path(__file__).resolve().parents[2]


def _record(seq: int, kind: RecordKind) -> Record:
    return Record(seq, 1.0, "w", Source.JUDGE, kind, None, "{}", "0" * 64, "1" * 64)


def test_commit_log_lines_read_back() -> None:
    records = [_record(7, RecordKind.HW_BATCH), _record(8, RecordKind.MOVE_ACCEPTED)]
    text = (commit_log.line(12.5, records) + commit_log.line(13.0, records[:1])).decode()
    assert commit_log.parse(text) == [
        (12.5, [(7, "hw.batch"), (8, "move.accepted")]),
        (13.0, [(7, "hw.batch")]),
    ]


def test_a_move_is_timed_from_the_answer_the_daemon_read_last() -> None:
    chunks = [
        Chunk(1.000, "reader", "tx", b""),  # a command: not an input of the daemon's
        Chunk(1.010, "reader", "rx", b"a"),
        Chunk(1.100, "reader", "rx", b"b"),
        Chunk(1.150, "table", "rx", b"c"),  # a button
        Chunk(1.300, "reader", "rx", b"d"),
    ]
    commits = [
        # read at 1.1002 (the daemon's stamp), committed at 1.104: answer "b"
        (1.104, [(5, "hw.batch", 1.0), (6, "move.accepted", 1.1002), (7, "claim.window", 1.1)]),
        (1.160, [(8, "move.accepted", 1.1501)]),  # the button's: left out
        (1.305, [(9, "move.accepted", 1.3001)]),  # no view showed it
    ]
    pushes = [Push(1.09, "view", 5), Push(1.107, "meta", None), Push(1.108, "view", 7)]
    moves = samples(chunks, commits, pushes)
    assert [(m.written, m.read, m.fsynced, m.pushed) for m in moves] == [
        (1.100, 1.1002, 1.104, 1.108),
        (1.300, 1.3001, 1.305, None),
    ]


def test_a_move_is_timed_from_the_answer_that_ended_its_round() -> None:
    """A move is decided when its reader round ends, at the bus's last answer; it is stamped
    with the round's last read, which an earlier answer may hold. Timed from that earlier
    answer, the move was charged the bus's last inventory (13 ms of sim-uhf's wall spot) as
    if the daemon had spent it."""
    chunks = [
        Chunk(1.000, "reader", "rx", b"a"),  # the round's last read (address 2)
        Chunk(1.013, "reader", "rx", b"b"),  # address 3: no tag, the round ends
        Chunk(1.200, "reader", "rx", b"c"),
    ]
    commits = [
        (1.016, [(6, "move.accepted", 1.0001)]),
        (1.210, [(7, "move.accepted", 1.2001)]),  # decided by a deadline: no round ended
    ]
    rounds = [1.0132, 1.3]
    moves = samples(chunks, commits, [], rounds)
    assert [(m.written, m.read, m.fsynced) for m in moves] == [
        (1.013, 1.0132, 1.016),
        (1.200, 1.2001, 1.210),
    ]


def test_bench_daemon_path_json(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "controller", "bench", "daemon", "--json", "--frames", "60",
         "--rounds", "10", "--deals", "0", "--path", "8", "--dir", str(tmp_path)],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    for kind in ("clean", "noisy"):
        f = {
            k[len(f"path_{kind}_") :]: v
            for k, v in figures.items()
            if k.startswith(f"path_{kind}_")
        }
        assert set(f) == {
            "moves", "pushed", "read_p50_ms", "fsync_p50_ms", "fsync_p99_ms", "push_p50_ms",
            "push_p99_ms", "fsync_to_push_p50_ms", "inventory_p50_ms", "inventory_p99_ms",
            "disk_fsyncs", "disk_p50_ms", "disk_p99_ms",
        }  # fmt: skip
        assert all(math.isfinite(v) for v in f.values()), f
        assert 1 <= f["pushed"] <= f["moves"]
        # the daemon reads an answer after it was written, and commits the move after that
        assert 0 < f["read_p50_ms"] < f["fsync_p50_ms"] <= f["fsync_p99_ms"]
        assert 0 < f["push_p50_ms"] <= f["push_p99_ms"] and f["fsync_to_push_p50_ms"] > 0
        if f["pushed"] == f["moves"]:  # journal first: each move is pushed after its fsync
            assert f["push_p50_ms"] >= f["fsync_p50_ms"]
        # the disk's own append + fsync, timed beside the moves in the same run
        assert f["disk_fsyncs"] >= 10 and 0 < f["disk_p50_ms"] <= f["disk_p99_ms"]
        # real time: an answer takes at least sim-uhf's 10 ms of one antenna's inventory
        assert 10 <= f["inventory_p50_ms"] <= f["inventory_p99_ms"] < 2000
    assert not list(tmp_path.iterdir())  # scratch journals, devices and logs removed


def test_a_negative_path_time_is_refused_in_one_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "controller", "bench", "daemon", "--path", "-1"],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 2
    assert out.stderr.strip().endswith("argument --path: must be 0 or more, not -1")
