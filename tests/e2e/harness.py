"""End-to-end harness: the simulator as its own process on real pseudo-terminals, the daemon
(`python -m controller run --table PTY --reader PTY`) as another, the journal read back.

The simulated referee is off (`--no-referee`): a referee's correction reaches the daemon
through its referee view, not the table, and a deal it corrected cannot be compared.

The processes and the truth live in `tools/campaign/` (the recognition campaign, `mjtable
bench recognition`, plays the same way at length); this module names what the tests use.
"""

from tools.campaign.procs import (
    ENV,
    ROOT,
    DaemonFailed,
    kill,
    last_seq,
    poll,
    start_daemon,
    start_sim,
    wait_daemon,
    wait_deal_end,
    wait_for,
    wait_records,
)
from tools.campaign.truth import (
    DealJournal,
    DealTruth,
    Simultaneous,
    comparable,
    read_journal,
    read_truth,
    truth_deltas,
)

__all__ = [
    "ENV",
    "ROOT",
    "DaemonFailed",
    "DealJournal",
    "DealTruth",
    "Simultaneous",
    "comparable",
    "kill",
    "last_seq",
    "poll",
    "read_journal",
    "read_truth",
    "start_daemon",
    "start_sim",
    "truth_deltas",
    "wait_daemon",
    "wait_deal_end",
    "wait_for",
    "wait_records",
]
