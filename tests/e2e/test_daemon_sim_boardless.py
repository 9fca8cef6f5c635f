"""Issue 18 items 2 and 3: tables whose board does not say what the table does, played by the
simulator (its own process, real ptys, 5% missed reads and 5% crosstalk) against the daemon
(its own process), the journal compared with the simulator's truth.

- A board with seat buttons only (`sim-table-buttons`: no shuffle-done, walls-up or dice):
  the daemon reads the shuffle, the walls and the dice off the reader and takes the
  declarations from the buttons; moves, deltas, dealer, wall and dice equal the truth.
- No serial link at all (`--table none` on both sides): the same for everything the reader
  shows. With no buttons the declarations (pung, kong, Hu) need the tiles and cards of issue
  18 item 1; until then the simulated deals are cut before their first declaration and the
  next shuffle overtakes them (the next deal's start abandons them): what is compared is every deal's start (dealer, wall, dice)
  and its moves, which must be the truth's."""

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from harness import (
    ENV,
    ROOT,
    DaemonFailed,
    comparable,
    kill,
    last_seq,
    read_journal,
    read_truth,
    start_daemon,
    start_sim,
    truth_deltas,
    wait_daemon,
    wait_deal_end,
    wait_for,
    wait_records,
)

from controller.journal.records import RecordKind
from controller.journal.store import Journal
from tools.campaign.procs import Child
from tools.campaign.run import wall_scan

pytestmark = pytest.mark.slow
NOISE = ("--missed", "5", "--crosstalk", "5")


def started(journal: Path) -> list[dict]:
    """Each deal's start, its scanned wall as the deal came to know it: a scan that swapped
    two neighbours is put right by the dealt hands or a draw, and the move that showed it
    records the swap (`wall_check`, controller/daemon/scan_doubt.py); applied here (a CI run
    failed on deal 6's start with the swap of positions 83 and 84 the daemon had recorded)."""
    starts: list[dict] = []
    latest: dict[int, dict] = {}  # each deal's last start, which its moves follow
    with Journal.open_readonly(journal) as j:
        for r in j.records():
            if r.kind is RecordKind.DEAL_STARTED:
                starts.append(r.data())
                latest[r.deal] = starts[-1]
            elif r.kind is RecordKind.MOVE_ACCEPTED and r.deal in latest:
                check = r.data().get("wall_check")
                if check and check.get("order") == "swapped":
                    i, k = check["positions"]
                    wall = latest[r.deal]["wall_copies"]
                    wall[i], wall[k] = wall[k], wall[i]
    return starts


def check_starts(journal: Path, truth: list) -> None:
    """Each deal the daemon started is the truth's: the dealer the hands showed, the scanned
    wall, and dice read off the hands that break the wall where the table's roll did."""
    starts = started(journal)
    judged = read_journal(journal)
    assert len(starts) >= len(truth)
    for t, s, j in zip(truth, starts, judged, strict=False):
        assert j.dealer == t.dealer, f"deal {t.number}: dealer"
        assert s["wall_copies"] == list(t.copies), f"deal {t.number}: wall"
        assert s["dice_from"] == "hands"
        rolled = sorted((t.dice.a, t.dice.b))
        readings = s.get("dice_readings", [s["dice"]])
        assert rolled in readings and s["dice"] in readings, f"deal {t.number}: dice"


def test_a_board_with_buttons_only_plays_noisy_deals_like_the_truth(tmp_path):
    deals = 6
    sim, paths = start_sim(tmp_path, deals + 1, 303, "--table-profile", "sim-table-buttons", *NOISE)
    journal = tmp_path / "table.journal"
    daemon = start_daemon(paths, journal, deals, "sim-uhf", "--profile", "sim-table-buttons")
    try:
        wait_daemon(daemon, journal, 30 * deals)
        wait_deal_end(paths["truth"], deals)
    finally:
        kill(daemon)
        kill(sim, signal.SIGTERM)
    truth = [d for d in read_truth(paths["truth"]) if d.complete][:deals]
    judged = read_journal(journal)[:deals]
    assert len(truth) == deals and len(judged) == deals
    for t, j in zip(truth, judged, strict=True):
        assert comparable(j.moves) == comparable(t.moves), f"deal {t.number}: moves differ"
        assert j.deltas == truth_deltas("sbr-mil", t), f"deal {t.number}: deltas differ"
    check_starts(journal, truth)
    with Journal.open_readonly(journal) as j:
        codes = [r.data()["code"] for r in j.records() if r.kind is RecordKind.ALERT]
    assert "dice-ambiguous" not in codes and "no-wall-scan" not in codes


def start_boardless_sim(folder: Path, deals: int, seed: int, *extra: str) -> tuple[Child, dict]:
    """`mjtable sim --table none --fast`: it prints its reader alone."""
    truth = folder / "truth.jsonl"
    cmd = [
        sys.executable, "-m", "controller", "sim", "--fast", "--table", "none", "--deals",
        str(deals), "--seed", str(seed), "--dir", str(folder), "--truth", str(truth),
        "--glimpse", "3", "--no-referee", *extra,
    ]  # fmt: skip
    err = open(folder / "sim.stderr", "a")  # noqa: SIM115 - the child holds it
    try:
        proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=err, text=True, env=ENV, cwd=ROOT,
            start_new_session=True,
        )  # fmt: skip
    finally:
        err.close()
    child = Child(proc, folder / "sim.stderr", "simulator")
    assert proc.stdout is not None
    line = proc.stdout.readline()
    name, _, path = line.strip().partition(": ")
    if name != "reader":
        kill(child)
        raise DaemonFailed(f"the simulator printed {line!r}, not its reader\n{child.tail()}")
    return child, {"table": "none", "reader": path, "truth": truth}


DECLARED = ("pung", "kong", "hu", "self-drawn-hu", "rob-kong", "chow")  # a pass is silence


def test_a_table_with_no_serial_link_follows_the_reader(tmp_path):
    """Each deal is cut after its first 18 moves (`--max-moves`): with seed 7 none of these
    is a declaration (checked below, from the truth), so every one is a tile moved and the
    journal must hold exactly the truth's moves; the next deal abandons the cut deal. (A
    deal played on past a declaration stalls: the players, who see no referee call without
    seat lights, play on, and the recogniser's multi-move search of the growing difference
    takes the core for seconds per reader round.)"""
    deals = 5
    sim, paths = start_boardless_sim(tmp_path, deals, 7, "--max-moves", "18", *NOISE)
    journal = tmp_path / "table.journal"
    daemon = start_daemon(paths, journal)  # `--table none`
    try:
        assert wait_deal_end(paths["truth"], deals, timeout=60 * deals), sim.tail()
        assert sim.wait(30) == 0
        # the last cut deal's moves are read before its tiles would leave
        wait_records(journal, RecordKind.MOVE_ACCEPTED, 1, 5)
    finally:
        kill(daemon, signal.SIGTERM)
        kill(sim, signal.SIGTERM)
    assert daemon.returncode == 0, daemon.tail()
    moves = [json.loads(x) for x in paths["truth"].read_text().splitlines()]
    moves = [m for m in moves if m["class"] == "move"]
    assert len(moves) >= deals * 15
    assert not [
        m for m in moves if m["move"] in DECLARED or (m["move"] == "void" and not m.get("tiles"))
    ]
    truth = [d for d in read_truth(paths["truth"]) if d.complete]
    assert len(truth) == deals
    check_starts(journal, truth)
    judged = read_journal(journal)
    for t, j in zip(truth, judged, strict=False):
        assert comparable(j.moves) == comparable(t.moves), f"deal {t.number}: moves differ"
    assert [j.abandoned for j in judged[:deals]] == [True] * (deals - 1) + [False]
    with Journal.open_readonly(journal) as j:
        links = [r.data()["device"] for r in j.records() if r.kind is RecordKind.HW_LINK]
        config = next(r.data() for r in j.records() if r.kind is RecordKind.DAEMON_STARTED)
        calls = [
            r.data()["code"]
            for r in j.records()
            if r.kind is RecordKind.ALERT and r.data().get("referee_called")
        ]
    # each cut deal overtaken by the next shuffle calls the referee to end it (nobody does:
    # the next deal's start abandons it), and nothing else does
    assert set(calls) <= {"deal-overtaken"}, calls
    assert set(links) == {"reader"}  # no table link was ever opened
    assert config["config"]["devices"] == ["none", paths["reader"]]


def test_mjtable_run_table_none_plays_its_built_in_simulator_without_a_board(tmp_path):
    """`mjtable run --table none`: the built-in simulator has no board, the daemon reads the
    table off the reader; SIGTERM stops both cleanly."""
    journal = tmp_path / "t.journal"
    cmd = [
        sys.executable, "-m", "controller", "run", "--table", "none", "--fast", "--seed", "7",
        "--journal", str(journal), "--http", "127.0.0.1:0", "--config", "/dev/null",
    ]  # fmt: skip
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT
    )  # fmt: skip
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("playing"):
                break
        assert any(x.startswith("simulator:  table none, reader ") for x in lines), lines
        seen = wait_for(journal, lambda r: r.kind is RecordKind.DEAL_STARTED, timeout=60)
        assert seen
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err[-2000:]
    with Journal.open_readonly(journal) as j:
        assert j.verify().ok
        deal = j.get(seen).data()
        last = j.last()
    assert deal["dice_from"] == "hands" and deal["wall_copies"]
    assert last.kind is RecordKind.DAEMON_STOPPED and last.data()["reason"] == "sigterm"


def _phase_to(name):
    return lambda r: r.kind is RecordKind.TABLE_PHASE and r.data()["to"] == name


def test_sigkill_on_a_buttons_only_board_loses_nothing(tmp_path):
    """Killed while the walls are built, before the dice are read off the hands, while they
    are dealt and in a claim window, each time restarted on the same journal: the shuffle,
    walls and dice are read again off the reader, and the deals equal the truth."""
    deals = 2
    profile = ("--table-profile", "sim-table-buttons")
    sim, paths = start_sim(tmp_path, deals + 1, 7, *profile)
    journal = tmp_path / "table.journal"
    moments = {
        "wall scan": wall_scan(),
        "walls up": _phase_to("walls_up"),
        "dealing": _phase_to("dealing"),
        "claim window": lambda r: (
            r.kind is RecordKind.CLAIM_WINDOW and r.data()["state"] == "opened"
        ),
    }
    daemon = None
    extra = ("sim-uhf", "--profile", "sim-table-buttons")
    try:
        for moment, test in moments.items():
            after = last_seq(journal)
            daemon = start_daemon(paths, journal, 0, *extra)
            if moment == "wall scan":
                assert wait_for(journal, _phase_to("shuffling"), after), moment
            seen = wait_for(journal, test, after)
            assert seen, f"no {moment} seen"
            kill(daemon, signal.SIGKILL)
        daemon = start_daemon(paths, journal, deals, *extra)
        wait_daemon(daemon, journal, 120)
        wait_deal_end(paths["truth"], deals)
    finally:
        if daemon is not None:
            kill(daemon)
        kill(sim, signal.SIGTERM)
    truth = [d for d in read_truth(paths["truth"]) if d.complete][:deals]
    judged = read_journal(journal)[:deals]
    assert len(judged) == deals
    for t, j in zip(truth, judged, strict=True):
        assert j.dealer == t.dealer, f"deal {t.number}"
        assert comparable(j.moves) == comparable(t.moves), f"deal {t.number}: moves differ"
        assert j.deltas == truth_deltas("sbr-mil", t), f"deal {t.number}: deltas differ"
    check_starts(journal, truth)


def test_wellness_dice_read_off_the_hands_break_the_wall_by_their_sum(tmp_path):
    """Wellness counts the indent by the dice sum: every roll of a sum breaks the wall at one
    place, so a sum of 2 or 12 is one reading and any other several, all journalled; the
    136-tile deals on a buttons-only board equal the truth."""
    deals = 3
    wellness = ("--rules", "wellness", "--prevalent", "S")
    buttons = "sim-table-buttons"
    sim, paths = start_sim(tmp_path, deals + 1, 31, *wellness, "--table-profile", buttons, *NOISE)
    journal = tmp_path / "table.journal"
    daemon = start_daemon(
        paths, journal, deals, "sim-uhf", *wellness, "--profile", buttons, tags="sim-136"
    )
    try:
        wait_daemon(daemon, journal, 40 * deals)
        wait_deal_end(paths["truth"], deals)
    finally:
        kill(daemon)
        kill(sim, signal.SIGTERM)
    truth = [d for d in read_truth(paths["truth"], "wellness") if d.complete][:deals]
    judged = read_journal(journal)[:deals]
    assert len(truth) == deals and len(judged) == deals
    for t, j in zip(truth, judged, strict=True):
        assert comparable(j.moves) == comparable(t.moves), f"deal {t.number}: moves differ"
        assert j.deltas == truth_deltas("wellness", t), f"deal {t.number}: deltas differ"
    check_starts(journal, truth)
    for t, s in zip(truth, started(journal), strict=False):
        total = t.dice.a + t.dice.b
        rolls = [[a, total - a] for a in range(1, 7) if a <= total - a <= 6]
        assert s.get("dice_readings", [s["dice"]]) == rolls, f"deal {t.number}"
