"""The referee tools on a real journal: the daemon (`mjtable run`) playing the simulated table
for one deal, read back by replay, report and record export (one daemon run per module)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.journal.store import Journal
from controller.referee.journal_deal import Verdict, read_deal
from controller.referee.rebuild import rebuild
from rules.record import judge, loads

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def daemon_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("daemon") / "table.journal"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "controller",
            "run",
            "--deals",
            "1",
            "--fast",
            "--seed",
            "21",
            "--journal",
            str(path),
            "--http",
            "127.0.0.1:0",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return path


def test_the_daemons_deal_rebuilds_as_settled(daemon_journal: Path) -> None:
    with Journal.open_readonly(daemon_journal) as journal:
        assert journal.verify().ok
        jd = read_deal(journal, 1)
    rb = rebuild(jd)
    assert rb.refused == () and rb.notes == ()
    assert jd.settled is not None and rb.deltas == jd.settled.deltas
    assert rb.next_dealer is not None and rb.next_dealer.name == jd.settled_extra["next_dealer"]
    moves = [s for s in jd.steps if s.verdict is Verdict.ACCEPTED]
    # the daemon journals where each reading came from: antennas (zones) or seat buttons
    assert all(s.evidence for s in moves if s.text.split()[0] in ("draw", "discard", "pass"))
    assert any("button" in e for s in moves for e in s.evidence)
    assert rb.moments[-1].phase.value == "over"


def test_replay_every_moment(daemon_journal: Path, capsys) -> None:
    with Journal.open_readonly(daemon_journal) as journal:
        steps = len(read_deal(journal, 1).steps)
    for k in (0, 1, steps // 2, steps):
        assert main(["replay", str(daemon_journal), "--deal", "1", "--move", str(k)]) == 0
        assert f"step {k}/{steps}" in capsys.readouterr().out


def test_export_judges_to_the_same_ledger(daemon_journal: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "deal.json"
    assert main(["journal", "record", str(daemon_journal), "--deal", "1", "-o", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out}: deal 1 of ")
    record = loads(out.read_text())
    with Journal.open_readonly(daemon_journal) as journal:
        rb = rebuild(read_deal(journal, 1))
    assert judge(record).deltas() == rb.deal.deltas()
    assert main(["judge", "--json", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["record_check"] is None


def test_report_of_the_daemons_session(daemon_journal: Path, tmp_path: Path) -> None:
    out = tmp_path / "s.html"
    before = daemon_journal.read_bytes()
    assert main(["report", str(daemon_journal), "-o", str(out)]) == 0
    html = out.read_text()
    assert "chain intact" in html and "claim window closed" in html and "button" in html
    assert daemon_journal.read_bytes() == before
