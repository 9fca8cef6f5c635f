"""`mjtable run` as a new user runs it: no hardware, so the simulator starts as a child;
it prints where to look, plays, and stops cleanly on --deals or SIGTERM."""

import signal
import subprocess
import sys

import pytest
from harness import ENV, ROOT

from controller.journal import Journal
from controller.journal_records import RecordKind

pytestmark = pytest.mark.slow


def run_cmd(journal, *extra):
    cmd = [
        sys.executable, "-m", "controller", "run", "--fast", "--seed", "3", "--journal",
        str(journal), "--http", "127.0.0.1:0", "--config", "/dev/null", *extra,
    ]  # fmt: skip
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=ENV, cwd=ROOT)  # fmt: skip


def test_deals_limit_exits_zero_with_a_sound_journal(tmp_path):
    journal = tmp_path / "t.journal"
    proc = run_cmd(journal, "--deals", "1")
    out, err = proc.communicate(timeout=240)
    assert proc.returncode == 0, err[-2000:]
    assert "scoreboard: http://127.0.0.1:" in out and "token" in out and str(journal) in out
    assert "stopped: deals" in out
    with Journal.open_readonly(journal) as j:
        assert j.verify().ok
        kinds = [r.kind for r in j.records()]
    assert kinds.count(RecordKind.DEAL_SETTLED) == 1
    assert kinds[-2:] == [RecordKind.SESSION_ENDED, RecordKind.DAEMON_STOPPED]


def test_sigterm_stops_cleanly(tmp_path):
    journal = tmp_path / "t.journal"
    proc = run_cmd(journal)
    for line in proc.stdout:
        if line.startswith("playing"):
            break
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err[-2000:]
    with Journal.open_readonly(journal) as j:
        last = j.last()
    assert last.kind is RecordKind.DAEMON_STOPPED and last.data()["reason"] == "sigterm"
    assert not (tmp_path / "t.journal-wal").exists()  # closed: checkpointed and removed
