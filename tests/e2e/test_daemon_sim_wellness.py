"""Wellness end to end (issue 8 item 2): the simulator (its own process, real ptys, 5%
missed reads and 5% crosstalk) plays seeded Wellness deals on 136 tagged tiles with the
South round's wind; the daemon (its own process, `--rules wellness --prevalent S`) reads
them, chows included, and its journal's moves and deltas equal the simulator's truth."""

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
from rules import moves as mv

pytestmark = pytest.mark.slow
DEALS = 6
WELLNESS = ("--rules", "wellness", "--prevalent", "S")


def test_seeded_wellness_deals_with_noise_match_the_truth(tmp_path):
    sim, paths = start_sim(tmp_path, DEALS + 1, 31, *WELLNESS, "--missed", "5", "--crosstalk", "5")
    journal = tmp_path / "table.journal"
    daemon = start_daemon(paths, journal, DEALS, "sim-uhf", *WELLNESS, tags="sim-136")
    try:
        wait_daemon(daemon, journal, 40 * DEALS)
        wait_deal_end(paths["truth"], DEALS)
    finally:
        kill(daemon)
        kill(sim, signal.SIGTERM)
    truth = [d for d in read_truth(paths["truth"], "wellness") if d.complete][:DEALS]
    judged = read_journal(journal)[:DEALS]
    assert len(truth) == DEALS and len(judged) == DEALS
    chows = 0
    for t, j in zip(truth, judged, strict=True):
        assert j.dealer == t.dealer, f"deal {t.number}"
        assert comparable(j.moves) == comparable(t.moves), f"deal {t.number}: moves differ"
        assert j.deltas == truth_deltas("wellness", t), f"deal {t.number}: deltas differ"
        chows += sum(isinstance(m, mv.Chow) for m in j.moves)
    assert chows >= DEALS  # the bots chow about every other discard they can
    with Journal.open_readonly(journal) as jr:
        started = [r.data() for r in jr.records() if r.kind is RecordKind.DEAL_STARTED]
    assert {d["prevalent"] for d in started} == {"S"} and all(
        len(d["wall"]) == 136 for d in started
    )
