"""The recognition campaign: N deals against the simulator with noise, the daemon killed
(SIGKILL) and restarted K times at moments spread over every phase of a deal, then every
journalled deal compared with the simulator's truth (issue 13, docs/RECOGNITION.md).

A deal is **matched** when the journal settled it with the truth's dealer, moves (as the
table shows them, `truth.comparable`) and deltas; **wrong** when it settled it otherwise;
**lost** when it never settled it (never started, abandoned, or still open at the end).
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import socket
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.daemon.contracts import REFEREE_CALLS
from controller.journal.records import Record, RecordKind
from tools.campaign.procs import (
    Child,
    kill,
    last_seq,
    records,
    start_daemon,
    start_sim,
    wait_deal_end,
    wait_for,
)
from tools.campaign.referee import TruthReferee, config_text
from tools.campaign.truth import (
    DealJournal,
    DealTruth,
    comparable,
    read_journal,
    read_truth,
    truth_deltas,
)

# the alerts that call the referee are the daemon's (controller/daemon/contracts.py)


def _phase(name: str) -> Callable[[Record], bool]:
    return lambda r: r.kind is RecordKind.TABLE_PHASE and r.data()["to"] == name


def _move(name: str) -> Callable[[Record], bool]:
    return lambda r: r.kind is RecordKind.MOVE_ACCEPTED and r.data()["move"] == name


def wall_scan() -> Callable[[Record], bool]:
    """A batch of reads committed while the table shuffles: the wall antenna's (it is polled
    alone while the walls are built). Follows the phase records it is shown."""
    shuffling = False

    def test(r: Record) -> bool:
        nonlocal shuffling
        if r.kind is RecordKind.TABLE_PHASE:
            shuffling = r.data()["to"] == "shuffling"
        return shuffling and r.kind is RecordKind.HW_BATCH and r.data().get("reads", 0) > 0

    return test


# the moments a kill is aimed at, in turn: every phase of a deal
MOMENTS: dict[str, Callable[[Record], bool]] = {
    "shuffle": _phase("shuffling"),
    "wall scan": wall_scan(),  # a fresh one for each kill
    "dice": _phase("dice_rolled"),
    "dealing": _phase("dealing"),
    "void choice": _phase("choosing_void"),
    "play": _move("discard"),
    "claim window": lambda r: r.kind is RecordKind.CLAIM_WINDOW and r.data()["state"] == "opened",
    "draw": _move("draw"),
    "settlement": lambda r: r.kind is RecordKind.DEAL_SETTLED,
}


@dataclass(frozen=True, slots=True)
class CampaignConfig:
    deals: int = 10
    kills: int = 2
    seed: int = 1
    missed: float = 5.0
    crosstalk: float = 5.0
    corrupt: float = 1.0
    repeated: float = 0.0
    rules: str = "sbr-mil"
    reader_profile: str = "sim-uhf"
    tags: str = "sim-108"
    folder: Path | None = None  # kept when given; a temporary one otherwise
    deal_timeout: float = 60.0  # seconds a deal may take before the campaign gives up on it
    referee: bool = True  # a referee answers the table's calls (tools/campaign/referee.py)
    declarations: str = "buttons"  # or "cards", "tiles": how the players declare (issue 18)


@dataclass(slots=True)
class DealResult:
    number: int  # the simulator's deal number
    status: str  # matched / wrong / lost
    detail: str = ""
    alerts: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)  # the referee calls, with their cause


@dataclass(slots=True)
class CampaignReport:
    config: CampaignConfig
    deals: list[DealResult] = field(default_factory=list)
    kills: list[str] = field(default_factory=list)  # the moments the daemon was killed at
    kills_missed: int = 0  # moments that did not come in time
    answers: list[str] = field(default_factory=list)  # what the referee did
    page: dict[str, object] = field(default_factory=dict)  # its calls and taps (CallTally)
    seconds: float = 0.0
    folder: str = ""
    daemon_failed: str = ""  # the daemon stopped on its own (its last words), the run cut short

    def count(self, status: str) -> int:
        return sum(d.status == status for d in self.deals)

    @property
    def alerts(self) -> Counter[str]:
        return Counter(a for d in self.deals for a in d.alerts)

    @property
    def referee_calls(self) -> int:
        return sum(n for code, n in self.alerts.items() if code in REFEREE_CALLS)

    @property
    def ok(self) -> bool:
        return self.count("matched") == len(self.deals) == self.config.deals

    def summary(self) -> dict[str, object]:
        return {
            "played": len(self.deals),
            "matched": self.count("matched"),
            "lost": self.count("lost"),
            "wrong": self.count("wrong"),
            "stalls": self.alerts.get("stalled", 0),
            "referee_calls": self.referee_calls,
            "deals_with_calls": sum(bool(d.calls) for d in self.deals),
            "kills": len(self.kills),
            "kills_missed": self.kills_missed,
            "referee_answers": len(self.answers),
            "referee_page": dict(self.page),
            "alerts": dict(sorted(self.alerts.items())),
            "seconds": round(self.seconds, 1),
            "daemon_failed": self.daemon_failed,
        }


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on now (the daemon binds it a moment later)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def compare(truth: list[DealTruth], judged: list[DealJournal], rules: str) -> list[DealResult]:
    """Each truth deal against the journalled deal with the same wall (the scan's order:
    the same tile copies at nine positions in ten at least, since a draw may have shown two
    neighbours the other way round)."""
    by_wall = {j.wall: j for j in judged if j.wall}
    out = []
    for t in truth:
        j = by_wall.get(t.copies) or _nearest(t.copies, judged)
        if j is None:
            out.append(DealResult(t.number, "lost", "the daemon never started this deal"))
            continue
        alerts = list(j.alerts)
        calls = list(j.calls)
        if j.deltas is None:
            why = "abandoned" if j.abandoned else "never settled"
            out.append(
                DealResult(t.number, "lost", f"journal deal {j.number} {why}", alerts, calls)
            )
        elif j.dealer != t.dealer:
            detail = f"journal deal {j.number}: dealer {j.dealer.name}, truth {t.dealer.name}"
            out.append(DealResult(t.number, "wrong", detail, alerts, calls))
        elif comparable(j.moves) != comparable(t.moves):
            out.append(
                DealResult(t.number, "wrong", f"journal deal {j.number}: moves", alerts, calls)
            )
        elif j.deltas != truth_deltas(rules, t):
            detail = f"journal deal {j.number}: deltas {j.deltas}, truth {truth_deltas(rules, t)}"
            out.append(DealResult(t.number, "wrong", detail, alerts, calls))
        else:
            out.append(DealResult(t.number, "matched", "", alerts, calls))
    return out


def _nearest(wall: tuple[str, ...], judged: list[DealJournal]) -> DealJournal | None:
    def agree(j: DealJournal) -> int:
        return sum(a == b for a, b in zip(wall, j.wall, strict=False))

    best = max(judged, key=agree, default=None)
    return best if best is not None and agree(best) >= 0.9 * len(wall) else None


class Campaign:
    """One campaign: the simulator for `deals` (+1, so the last deal's window closes by the
    next shuffle), the daemon restarted after each kill."""

    def __init__(self, config: CampaignConfig, progress: Callable[[str], None] | None = None):
        self.config = config
        self.rng = random.Random(config.seed)
        self.progress = progress or (lambda line: None)
        self.report = CampaignReport(config)
        self._read_to = 0
        self._settled_n = 0
        self._last_daemon: Child | None = None  # the daemon started last

    def run(self) -> CampaignReport:
        c = self.config
        keep = c.folder is not None
        folder = c.folder or Path(tempfile.mkdtemp(prefix="mjtable-campaign-"))
        folder.mkdir(parents=True, exist_ok=True)
        self.report.folder = str(folder)
        t0 = time.monotonic()
        sim, paths = start_sim(folder, c.deals + 1, c.seed, *self._sim_args())
        journal = folder / "table.journal"
        self._folder = folder
        self.referee = TruthReferee(journal, paths["truth"], c.rules)
        watching = threading.Event()
        watcher = threading.Thread(target=self._watch, args=(watching,), daemon=True)
        if c.referee:
            (folder / "daemon.toml").write_text(config_text())
            watcher.start()
        daemon: Child | None = None
        try:
            daemon = self._daemon(paths, journal)
            for k in range(c.kills):
                daemon = self._kill_once(k, daemon, paths, journal, sim)
                if daemon is None:
                    break
            if daemon is not None:
                self._wait_end(daemon, journal, sim)
            wait_deal_end(paths["truth"], c.deals, timeout=5.0)
        finally:
            watching.set()
            if daemon is not None:
                kill(daemon, signal.SIGTERM)
            kill(sim, signal.SIGTERM)
        code = self._last_daemon.poll() if self._last_daemon is not None else None
        if code not in (None, 0, -signal.SIGTERM):
            self.report.daemon_failed = _last_words(folder / "table.journal.stderr")
        self.report.answers = list(self.referee.answered)
        tally = self.referee.finish()
        self.report.page = tally.summary()
        with open(folder / "calls.jsonl", "w", encoding="utf-8") as out:
            out.writelines(json.dumps(call) + "\n" for call in tally.log)
        truth = [d for d in read_truth(paths["truth"], c.rules) if d.complete][: c.deals]
        self.report.deals = compare(truth, read_journal(journal), c.rules)
        self.report.seconds = time.monotonic() - t0
        if not keep and self.report.ok:
            shutil.rmtree(folder, ignore_errors=True)
        return self.report

    def _sim_args(self) -> list[str]:
        c = self.config
        args = ["--rules", c.rules, "--reader-profile", c.reader_profile]
        args += ["--declarations", c.declarations]
        for name in ("missed", "crosstalk", "corrupt", "repeated"):
            value = getattr(c, name)
            if value:
                args += [f"--{name}", f"{value:g}"]
        return args

    def _watch(self, stop: threading.Event) -> None:
        """The referee beside the table: answers its calls every half second."""
        while not stop.wait(0.5):
            try:
                self.referee.poll()
            except Exception as err:  # a referee's slip must not end the campaign
                self.progress(f"referee: {type(err).__name__}: {err}")

    def _daemon(self, paths: dict, journal: Path) -> Child:
        c = self.config
        extra = ["--rules", c.rules, "--declarations", c.declarations]
        if c.referee:
            port = free_port()
            extra += ["--http", f"127.0.0.1:{port}", "--config", str(self._folder / "daemon.toml")]
            self.referee.url = f"http://127.0.0.1:{port}"
        self._last_daemon = start_daemon(
            paths, journal, c.deals, c.reader_profile, *extra, tags=c.tags
        )
        return self._last_daemon

    def _settled(self, journal: Path) -> int:
        """Deals settled so far (reads only the records not read before)."""
        for r in records(journal, self._read_to + 1):
            self._read_to = r.seq
            self._settled_n += r.kind is RecordKind.DEAL_SETTLED
        return self._settled_n

    def _kill_once(
        self, k: int, daemon: Child, paths: dict, journal: Path, sim: Child
    ) -> Child | None:
        """The k-th kill: aimed at the k-th moment in turn, in the deal its share of the
        campaign falls in, a random fraction of a second after the moment is journalled."""
        c = self.config
        names = list(MOMENTS)
        moment = names[k % len(names)]
        in_deal = k * c.deals // max(1, c.kills)  # settled deals before the aimed one
        after = last_seq(journal)
        deadline = time.monotonic() + c.deal_timeout * (in_deal + 1)
        while self._settled(journal) < in_deal and time.monotonic() < deadline:
            if daemon.poll() is not None or sim.poll() is not None:
                return daemon if daemon.poll() is None else None
            time.sleep(0.1)
        test = wall_scan() if moment == "wall scan" else MOMENTS[moment]
        seen = wait_for(journal, test, max(after, last_seq(journal)), c.deal_timeout)
        if not seen or daemon.poll() is not None:
            self.report.kills_missed += 1
            return daemon if daemon.poll() is None else None
        time.sleep(self.rng.uniform(0.0, 0.4))
        kill(daemon, signal.SIGKILL)
        self.report.kills.append(moment)
        self.progress(f"kill {k + 1}/{c.kills}: {moment}, {self._settled(journal)} settled")
        time.sleep(self.rng.uniform(0.0, 0.5))  # the Pi restarting
        return self._daemon(paths, journal)

    def _wait_end(self, daemon: Child, journal: Path, sim: Child) -> None:
        """Until the daemon stops at its deal limit, or the simulator has ended and the
        daemon has had a few seconds more (a lost deal never reaches the limit)."""
        c = self.config
        deadline = time.monotonic() + c.deal_timeout * (c.deals + 1)
        sim_done: float | None = None
        shown = -1
        while daemon.poll() is None and time.monotonic() < deadline:
            if sim.poll() is not None:
                sim_done = sim_done or time.monotonic()
                if time.monotonic() - sim_done > 10.0:
                    break
            settled = self._settled(journal)
            if settled != shown:
                shown = settled
                self.progress(f"{settled}/{c.deals} deals settled")
            time.sleep(0.5)


def _last_words(stderr: Path) -> str:
    """The last line a daemon that stopped on its own wrote (why the campaign was cut short)."""
    try:
        lines = [x for x in stderr.read_text(errors="replace").splitlines() if x.strip()]
    except OSError:
        return "(no stderr)"
    return lines[-1][:300] if lines else "(nothing on stderr)"
