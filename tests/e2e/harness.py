"""End-to-end harness: the simulator as its own process on real pseudo-terminals, the daemon
(`python -m controller run --table PTY --reader PTY`) as another, the journal read back.

The simulated referee is off (`--no-referee`): a referee's correction reaches the daemon
through its referee view, not the table, and a deal it corrected cannot be compared.

Ground truth is the simulator's `--truth` file: each deal's dice, dealer side and wall (tile
copies in physical order) and every move as the simulated players made it. The truth moves
are turned back into judge moves and re-judged here, independently of the daemon, to get
the deal's deltas; the daemon's journal must hold the same moves and the same deltas.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from controller.daemon.records import fixed_order, move_from_judge_json
from controller.journal import Journal
from controller.journal_records import RecordKind
from controller.profiles import TileCopy
from rules import moves as mv
from rules.deal import Deal
from rules.melds import MeldKind
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import Suit, Tile
from rules.wall import Dice

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@dataclass
class DealTruth:
    number: int
    dealer: Seat
    dice: Dice
    wall: tuple  # tiles, physical order
    moves: list  # judge moves (deal seats), CloseClaims included
    prevalent: Seat = Seat.E  # the round wind (Wellness scores it)
    complete: bool = False  # the simulator wrote its deal-end
    corrected: bool = False  # a referee took moves back: not something the table shows


def start_sim(folder: Path, deals: int, seed: int, *extra: str) -> tuple[subprocess.Popen, dict]:
    truth = folder / "truth.jsonl"
    cmd = [
        sys.executable, "-m", "controller", "sim", "--fast", "--deals", str(deals),
        "--seed", str(seed), "--dir", str(folder), "--truth", str(truth), "--glimpse", "3",
        "--no-referee", *extra,
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=ENV, cwd=ROOT)
    paths: dict = {"truth": truth}
    while len(paths) < 3:
        line = proc.stdout.readline()
        assert line, "the simulator ended before printing its devices"
        name, _, path = line.strip().partition(": ")
        if name in ("table", "reader"):
            paths[name] = path
    return proc, paths


def start_daemon(
    paths: dict,
    journal: Path,
    deals: int = 0,
    reader_profile: str = "sim-uhf",
    *extra: str,
    tags: str = "sim-108",
) -> subprocess.Popen:
    cmd = [
        sys.executable, "-m", "controller", "run", "--table", paths["table"],
        "--reader", paths["reader"], "--profile", "sim-table", "--reader-profile", reader_profile,
        "--tags", tags, "--journal", str(journal), "--http", "127.0.0.1:0",
        "--config", os.devnull, *extra,
    ]  # fmt: skip
    if deals:
        cmd += ["--deals", str(deals)]
    return subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT
    )


def poll(ready, timeout: float, every: float):
    """`ready()` until it gives a true value (returned) or `timeout` runs out (returns the
    last value). The daemon and the simulator are real child processes writing their own
    files: there is no clock of theirs to inject, so this polls, bounded, at `every` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = ready()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(every)


def _records(journal: Path, first: int = 1) -> list:
    """The journal's records from seq `first` (a read-only view); none while the daemon is
    still creating it."""
    if not journal.exists():
        return []
    try:
        with Journal.open_readonly(journal) as j:
            return list(j.records(first))
    except Exception:
        return []


def wait_records(journal: Path, kind: RecordKind, n: int, timeout: float) -> bool:
    """Until the journal holds `n` records of `kind`."""
    return poll(lambda: sum(r.kind is kind for r in _records(journal)) >= n, timeout, 0.2)


def wait_for(journal: Path, test, after: int = 0, timeout: float = 60.0) -> int:
    """Until a record after seq `after` satisfies `test(record)`; returns its seq (0: none in
    time), reading only the records it has not seen."""
    seen = after

    def found() -> int:
        nonlocal seen
        for r in _records(journal, seen + 1):
            seen = r.seq
            if test(r):
                return r.seq
        return 0

    return poll(found, timeout, 0.05)


def wait_deal_end(truth: Path, deal: int, timeout: float = 15.0) -> bool:
    """Until the simulator's truth says deal `deal` ended (the daemon may settle a deal a
    few reader rounds before the simulator has finished pacing its last move)."""
    mark = f'"class": "deal-end", "deal": {deal},'
    return poll(lambda: truth.exists() and mark in truth.read_text(), timeout, 0.1)


def last_seq(journal: Path) -> int:
    if not journal.exists():
        return 0
    with Journal.open_readonly(journal) as j:
        last = j.last()
        return 0 if last is None else last.seq


def kill(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
    proc.wait(30)


# --- truth -----------------------------------------------------------------------------------


def read_truth(path: Path, rules: str = "sbr-mil") -> list[DealTruth]:
    rs = load(rules)
    deals: dict[int, DealTruth] = {}
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        if rec["class"] == "deal":
            wall = tuple(TileCopy.parse(t).tile for t in rec["wall"])
            deals[rec["deal"]] = DealTruth(
                rec["deal"],
                Seat.parse(rec["dealer"]),
                Dice(*rec["dice"]),
                wall,
                [],
                Seat.parse(rec.get("prevalent", "E")),
            )
        elif rec["class"] == "move":
            deals[rec["deal"]].moves.append(rec)
        elif rec["class"] == "deal-end":
            deals[rec["deal"]].complete = True
    out = []
    for d in deals.values():
        d.moves = _judge_moves(rs, d)
        out.append(d)
    return out


def _judge_moves(rs, d: DealTruth) -> list:
    deal = Deal.start(rs, d.dice, d.wall, prevalent=d.prevalent)
    moves = []
    for rec in d.moves:
        if rec["move"] == "penalty":
            continue  # a referee's penalty: nothing on the table (its points are not known)
        if rec["move"] == "correction":
            d.corrected = True
            move = mv.Correction(int(rec.get("undo", 1)))
            assert deal.apply(move)
            moves.append(move)
            continue
        move = _move(rec, deal)
        if isinstance(move, mv.CloseClaims) and deal.window is None:
            continue  # the judge closed it when the last eligible player answered
        result = deal.apply(move)
        assert result, f"truth move {rec} refused: {result}"
        moves.append(move)
    return moves


def _move(rec: dict, deal: Deal) -> mv.Move:
    name = rec["move"]
    seat = Seat.parse(rec["seat"]) if "seat" in rec else None
    tiles = [TileCopy.parse(t).tile for t in rec.get("tiles", [])]
    if name == "close-claims":
        return mv.CloseClaims()
    if name == "void":
        return mv.ChooseVoid(seat, Suit(rec["suit"]), tiles[0] if tiles else None)
    if name == "draw":
        return mv.Draw(seat, tiles[0])
    if name == "replacement":
        return mv.ReplacementDraw(seat, tiles[0])
    if name == "discard":
        return mv.Discard(seat, tiles[0])
    if name == "chow":  # the tiles are the two laid from the hand; `tile` the chow's lowest
        return mv.Chow(seat, Tile.parse(rec["tile"]))
    if name == "kong":
        if not tiles:
            return mv.Kong(seat, MeldKind.KONG)
        for kind in (MeldKind.CONCEALED_KONG, MeldKind.PROMOTED_KONG, MeldKind.POSTPONED_KONG):
            move = mv.Kong(seat, kind, tiles[0])
            if deal.check(move) is None:
                return move
        raise AssertionError(f"no kong fits {rec}")
    return {
        "pung": mv.Pung,
        "hu": mv.Hu,
        "self-drawn-hu": mv.SelfDrawnHu,
        "rob-kong": mv.RobKong,
        "pass": mv.Pass,
    }[name](seat)


def truth_deltas(rules: str, d: DealTruth) -> list[int]:
    deal = Deal.replay(load(rules), d.dice, d.wall, d.moves, prevalent=d.prevalent)
    return list(fixed_order(deal.deltas(), d.dealer))


@dataclass(frozen=True)
class Simultaneous:
    """Moves the players make at the same time, whose order the reader's polling (or the
    table's serial line) decides and the game does not: kept as a sorted tuple, so two
    blocks compare as multisets."""

    what: str
    moves: tuple


def _simultaneous(m: mv.Move) -> str | None:
    """Which kind of simultaneous block `m` belongs to, if any.

    - void choices: 004 Lesson 2, each player lays a tile face down, hidden and independent;
      the judge takes all four before the first discard.
    - the claims of one window (passes and the window's close are dropped already): several
      players may declare on one discard (004 Lesson 4) and `rules.claims.resolve` orders them
      by seat from the discarder, never by arrival. A run of claims is one window: a discard,
      a kong or a draw always comes between two windows. A declared (own-turn) kong is not a
      claim and ends the run."""
    if isinstance(m, mv.ChooseVoid):
        return "void choices"
    if isinstance(m, mv.Hu | mv.RobKong | mv.Pung | mv.Chow):  # chow: 001 IV 2.1
        return "claims"
    if isinstance(m, mv.Kong) and m.kind is MeldKind.KONG:
        return "claims"
    return None


def comparable(moves) -> list:
    """Moves as the table shows them: no window closes (the daemon's clock decides when),
    no passes (a silent player and a Pass button are the same claim outcome), no times, and
    each run of simultaneous moves (`_simultaneous`) as one `Simultaneous` block; every
    other move keeps its place."""
    out: list = []
    for m in moves:
        if isinstance(m, mv.CloseClaims | mv.Pass):
            continue
        if isinstance(m, mv.Kong) and m.kind is MeldKind.KONG:
            m = replace(m, tile=None)  # a melded kong's tile is the discard either way
        m = replace(m, t=None)
        what = _simultaneous(m)
        if what is None:
            out.append(m)
        elif out and isinstance(out[-1], Simultaneous) and out[-1].what == what:
            out[-1] = Simultaneous(what, tuple(sorted((*out[-1].moves, m), key=repr)))
        else:
            out.append(Simultaneous(what, (m,)))
    return out


# --- the journal -----------------------------------------------------------------------------


@dataclass
class DealJournal:
    number: int
    dealer: Seat
    moves: list
    deltas: list[int] | None


def read_journal(path: Path) -> list[DealJournal]:
    out: dict[int, DealJournal] = {}
    with Journal.open_readonly(path) as j:
        assert j.verify().ok
        for r in j.records():
            if r.kind is RecordKind.DEAL_STARTED:
                out[r.deal] = DealJournal(r.deal, Seat.parse(r.data()["dealer"]), [], None)
            elif r.kind is RecordKind.MOVE_ACCEPTED and r.deal in out:
                out[r.deal].moves.append(move_from_judge_json(r.data()["judge"]))
            elif r.kind is RecordKind.DEAL_SETTLED:
                out[r.deal].deltas = r.data()["deltas"]
    return list(out.values())
