"""`mjtable run --reader-profile sim-feig`: the built-in simulator's FEIG ISO 15693 readers on
a real pty (tools/sim/feig_reader.py), their tiles tagged with NXP ICODE UIDs, polled by the
daemon's reader bus through FeigPoller, at 5 % missed reads, 5 % crosstalk and 1 % damaged
frames: the deal settles as the simulator's truth says (dealer, moves, deltas)."""

import subprocess
import sys

import pytest
from harness import ENV, ROOT, comparable, read_journal, read_truth, truth_deltas

from controller.daemon.input_log import reader_steps
from controller.devices.events import TagsRead
from controller.journal.records import RecordKind
from controller.journal.store import Journal

pytestmark = pytest.mark.slow


def test_a_deal_read_through_feig_readers_settles_as_the_truth(tmp_path):
    journal, truth = tmp_path / "t.journal", tmp_path / "truth.jsonl"
    cmd = [
        sys.executable, "-m", "controller", "run", "--fast", "--seed", "11", "--deals", "1",
        "--reader-profile", "sim-feig", "--missed", "5", "--crosstalk", "5", "--corrupt", "1",
        "--truth", str(truth), "--journal", str(journal), "--http", "127.0.0.1:0",
        "--config", "/dev/null",
    ]  # fmt: skip
    done = subprocess.run(cmd, cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Deal 1 of 1 settled" in done.stdout and "Traceback" not in done.stderr
    (played,) = [d for d in read_truth(truth) if d.complete][:1]
    (judged,) = read_journal(journal)[:1]
    assert judged.dealer == played.dealer
    assert comparable(judged.moves) == comparable(played.moves)
    assert judged.deltas == truth_deltas("sbr-mil", played)
    with Journal.open_readonly(journal) as j:
        assert j.verify().ok
        records = list(j.records())
    started = next(r.data() for r in records if r.kind is RecordKind.DAEMON_STARTED)
    assert started["config"]["profiles"][1:] == ["sim-feig", "sim-108-icode"]
    reads = [e for s in reader_steps(records) for e in s.events if isinstance(e, TagsRead)]
    uids = {u for e in reads for u in e.uids}
    assert uids and all(len(u) == 8 and u[:2] == b"\xe0\x04" for u in uids)
    assert {e.antenna for e in reads} == set(range(1, 18))  # every reader answered
    assert not any(r.kind is RecordKind.ALERT and "unknown" in str(r.data()) for r in records)
