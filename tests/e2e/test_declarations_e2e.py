"""Tables without buttons (issue 18 item 1): the simulator's players lay Win and void cards
(`cards`) or only move tiles (`tiles`), the daemon reads them with the same
`--declarations`, and its journalled deals equal the simulator's truth, with 5% missed reads
and 5% crosstalk, through the real processes and ptys (as tests/e2e/test_daemon_sim.py)."""

import signal

import pytest
from harness import (
    comparable,
    kill,
    read_journal,
    read_truth,
    start_daemon,
    start_sim,
    truth_deltas,
    wait_daemon,
    wait_deal_end,
)

from controller.journal.records import RecordKind
from controller.journal.store import Journal

pytestmark = pytest.mark.slow
NOISE = ("--missed", "5", "--crosstalk", "5")


def play(tmp_path, mode, deals, seed):
    sim, paths = start_sim(tmp_path, deals + 1, seed, "--declarations", mode, *NOISE)
    journal = tmp_path / "table.journal"
    daemon = start_daemon(paths, journal, deals, "sim-uhf", "--declarations", mode)
    try:
        wait_daemon(daemon, journal, 40 * deals)
        wait_deal_end(paths["truth"], deals)
    finally:
        kill(daemon)
        kill(sim, signal.SIGTERM)
    return journal, paths["truth"]


@pytest.mark.parametrize("mode", ["cards", "tiles"])
def test_noisy_deals_declared_without_buttons_match_the_truth(tmp_path, mode):
    deals = 5
    journal, truth_path = play(tmp_path, mode, deals, 1800)
    truth = [d for d in read_truth(truth_path) if d.complete][:deals]
    judged = read_journal(journal)[:deals]
    assert len(truth) == deals and len(judged) == deals
    for t, j in zip(truth, judged, strict=True):
        assert j.dealer == t.dealer, f"deal {t.number}"
        assert comparable(j.moves) == comparable(t.moves), f"deal {t.number}: moves differ"
        assert j.deltas == truth_deltas("sbr-mil", t), f"deal {t.number}: deltas differ"
    with Journal.open_readonly(journal) as jr:
        records = list(jr.records())
    # nobody pressed a button: every declaration came from the cards or the tiles
    moves = [r.data() for r in records if r.kind is RecordKind.MOVE_ACCEPTED]
    evidence = " ".join(str(m.get("evidence", "")) for m in moves)
    assert "button" not in evidence
    if mode == "cards":
        assert "card:hu#" in evidence
    calls = [r.data()["code"] for r in records if r.kind is RecordKind.ALERT]
    assert not [c for c in calls if c in ("stalled", "unrecognised", "ambiguous")], calls


def test_mjtable_run_plays_its_own_simulator_without_buttons(tmp_path):
    """`mjtable run --declarations tiles` with no hardware: the built-in simulator's players
    only move tiles and the daemon reads them; a mode that does not exist is one line."""
    import subprocess
    import sys

    from harness import ENV, ROOT

    journal = tmp_path / "t.journal"
    cmd = [
        sys.executable, "-m", "controller", "run", "--fast", "--seed", "5", "--journal",
        str(journal), "--http", "127.0.0.1:0", "--config", "/dev/null", "--deals", "2",
        "--declarations", "tiles",
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    with Journal.open_readonly(journal) as j:
        assert j.verify().ok
        records = list(j.records())
    assert sum(r.kind is RecordKind.DEAL_SETTLED for r in records) == 2
    evidence = " ".join(
        str(r.data().get("evidence", "")) for r in records if r.kind is RecordKind.MOVE_ACCEPTED
    )
    assert "button" not in evidence and "card:" not in evidence
    bad = subprocess.run(
        [*cmd[:-1], "cardz"], capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=60
    )
    assert bad.returncode == 2 and "invalid choice: 'cardz'" in bad.stderr
