"""What `mjtable calibrate` measures and what it concludes: reads of tiles lying at known
spots, tallied per inventory round, turned into a reader profile's `[debounce]` numbers
(controller/recognition/presence.py) with the figures they rest on. Pure: rounds in,
numbers out; the session that collects the rounds is tools/calibrate.py.

A round is what every antenna read in one inventory cycle: tag → antenna → strongest RSSI
(0 from a reader that reports none). A placement says which tags lie on which antenna in
that round. For each placed tag and round the tally counts an own read (its antenna read
it) or a miss, the runs of misses, and every read by another antenna (crosstalk), with RSSI.

The numbers, from read rate p (own reads / placed tag-rounds), longest miss run L, own RSSI
lowest..highest and the strongest crosstalk read X:

- `window` n and `appear` k = n div 2 + 1: the smallest n ≥ 3 for which a tile read with
  probability p each round gets k reads in n rounds with probability ≥ `HOLD` (0.999):
  a tile lying still keeps its majority;
- `vanish` m: more rounds than the longest miss run measured (L + 1), and enough that a run
  of m misses in a row is rarer than once in `EXPOSURE` tile-rounds (about a deal of 108
  tiles) when misses are independent: (1 - p)^m ≤ `FALSE_VANISH` / `EXPOSURE`;
- `crosstalk-margin`: a crosstalk read is weaker than the tile's own last read by more than
  the margin, and a real move is not, so the margin must be at least the own reads' spread
  (highest - lowest) and below the gap (lowest own - strongest crosstalk): the middle of the
  two. When no margin separates them it is 0 (off: the majority rule alone), when no
  crosstalk was seen the spread + 2, and 0 for a reader without RSSI.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from controller.errors import TableError
from controller.profiles import Calibration, CalibrationState, Debounce, ReaderProfile

Round = Mapping[bytes, Mapping[int, int]]  # tag → antenna → strongest RSSI this round
Placement = Mapping[bytes, int]  # tag → the antenna it lies on

HOLD = 0.999
EXPOSURE = 100_000
FALSE_VANISH = 0.01
MIN_TAG_ROUNDS = 50
LIMIT = 64  # the schema's largest window / vanish


class CalibrationError(TableError, ValueError):
    """The measurements cannot give debounce numbers; says why and what to do."""


@dataclass(frozen=True, slots=True)
class Figures:
    rounds: int
    tiles: int
    tag_rounds: int  # placed tag × round
    own_reads: int
    longest_miss: int
    own_rssi: tuple[int, ...]  # lowest, median, highest; () without RSSI
    crosstalk_reads: int
    crosstalk_rssi_max: int
    crosstalk_pairs: Mapping[tuple[int, int], int] = field(default_factory=dict)  # (own, other)
    antennas: tuple[int, ...] = ()  # antennas that had tiles placed on them

    @property
    def read_rate(self) -> float:
        return self.own_reads / self.tag_rounds if self.tag_rounds else 0.0

    def lines(self) -> list[str]:
        out = [
            f"{self.rounds} rounds, {self.tiles} tiles on {len(self.antennas)} antennas, "
            f"{self.tag_rounds} tile-rounds",
            f"own antenna read its tiles in {self.read_rate:.1%} of rounds; longest run of "
            f"misses {self.longest_miss} rounds",
        ]
        if self.own_rssi:
            lo, mid, hi = self.own_rssi
            out.append(f"own reads RSSI {lo}..{hi} (median {mid})")
        else:
            out.append("the reader reports no RSSI")
        if self.crosstalk_reads:
            pairs = ", ".join(f"{a}→{b} {n}" for (a, b), n in sorted(self.crosstalk_pairs.items()))
            out.append(
                f"crosstalk: {self.crosstalk_reads} reads by another antenna, strongest RSSI "
                f"{self.crosstalk_rssi_max} ({pairs})"
            )
        else:
            out.append("crosstalk: no tile was read by another antenna")
        return out


class Tally:
    """Accumulates rounds (`add`) into `Figures`."""

    def __init__(self) -> None:
        self.rounds = 0
        self.tiles: set[bytes] = set()
        self.antennas: set[int] = set()
        self.tag_rounds = 0
        self.own_reads = 0
        self.longest_miss = 0
        self.own_rssi: list[int] = []
        self.cross_rssi: list[int] = []
        self.pairs: Counter[tuple[int, int]] = Counter()
        self._run: dict[bytes, int] = {}  # current run of misses per placed tag

    def add(self, reads: Round, placed: Placement) -> None:
        self.rounds += 1
        for uid in list(self._run):
            if uid not in placed:
                del self._run[uid]  # lifted: a run of misses ends unfinished, not counted
        for uid, antenna in placed.items():
            self.tiles.add(uid)
            self.antennas.add(antenna)
            self.tag_rounds += 1
            seen = reads.get(uid, {})
            if antenna in seen:
                self.own_reads += 1
                self.own_rssi.append(seen[antenna])
                self.longest_miss = max(self.longest_miss, self._run.get(uid, 0))
                self._run[uid] = 0
            else:
                self._run[uid] = self._run.get(uid, 0) + 1
            for other, rssi in seen.items():
                if other != antenna:
                    self.cross_rssi.append(rssi)
                    self.pairs[(antenna, other)] += 1

    @property
    def misses_now(self) -> int:
        return max(self._run.values(), default=0)

    def figures(self) -> Figures:
        # a run still open at the end counts too: the tile was still lying there
        longest = max(self.longest_miss, self.misses_now)
        rssi = sorted(self.own_rssi)
        summary = (rssi[0], int(statistics.median(rssi)), rssi[-1]) if any(rssi) else ()
        return Figures(
            self.rounds,
            len(self.tiles),
            self.tag_rounds,
            self.own_reads,
            longest,
            summary,
            len(self.cross_rssi),
            max(self.cross_rssi, default=0),
            dict(self.pairs),
            tuple(sorted(self.antennas)),
        )


def _binomial_tail(n: int, k: int, p: float) -> float:
    """P(at least k successes in n trials of probability p)."""
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


@dataclass(frozen=True, slots=True)
class Derived:
    debounce: Debounce
    reasons: tuple[str, ...]


def derive(fig: Figures) -> Derived:
    if fig.tag_rounds < MIN_TAG_ROUNDS:
        raise CalibrationError(
            f"only {fig.tag_rounds} tile-rounds measured (at least {MIN_TAG_ROUNDS}): "
            "place more tiles or record more rounds"
        )
    p = fig.read_rate
    window = next(
        (n for n in range(3, LIMIT + 1) if _binomial_tail(n, n // 2 + 1, p) >= HOLD), None
    )
    if window is None:
        raise CalibrationError(
            f"own antennas read their tiles in only {p:.1%} of rounds: no window up to "
            f"{LIMIT} rounds keeps a tile's majority; check the antennas and the reader's power"
        )
    appear = window // 2 + 1
    miss = 1 - p
    by_rate = math.ceil(math.log(FALSE_VANISH / EXPOSURE) / math.log(miss)) if 0 < miss < 1 else 1
    vanish = max(2, fig.longest_miss + 1, by_rate)
    if vanish > LIMIT:
        raise CalibrationError(
            f"a tile would need {vanish} silent rounds before it counts as lifted (at most "
            f"{LIMIT}): the reader misses too often; check the antennas and the reader's power"
        )
    held = _binomial_tail(window, appear, p)
    reasons = [
        f"window {window}, appear {appear}: a tile read in {p:.1%} of rounds gets {appear} "
        f"reads of {window} with probability {held:.4f} (≥ {HOLD})",
        f"vanish {vanish}: longest run of misses {fig.longest_miss} + 1 = "
        f"{fig.longest_miss + 1}; "
        + (
            f"{by_rate} misses in a row happen less than {FALSE_VANISH:g} times in "
            f"{EXPOSURE:,} tile-rounds at a miss rate of {miss:.1%}"
            if miss > 0
            else "no round missed a tile"
        ),
    ]
    margin, why = _margin(fig)
    reasons.append(why)
    return Derived(Debounce(window, appear, vanish, margin), tuple(reasons))


def _margin(fig: Figures) -> tuple[int, str]:
    if not fig.own_rssi:
        return 0, "crosstalk-margin 0: the reader reports no RSSI"
    lo, _, hi = fig.own_rssi
    spread = hi - lo
    if not fig.crosstalk_reads:
        m = min(255, spread + 2)
        return m, f"crosstalk-margin {m}: no crosstalk seen; own reads spread {spread} + 2"
    gap = lo - fig.crosstalk_rssi_max
    if gap <= spread:
        return 0, (
            f"crosstalk-margin 0 (off): crosstalk as strong as own reads (strongest "
            f"{fig.crosstalk_rssi_max}, own {lo}..{hi}); the majority rule alone decides"
        )
    m = (spread + gap) // 2
    return m, (
        f"crosstalk-margin {m}: between the own reads' spread {spread} (a real move is not "
        f"crosstalk) and the gap {gap} from the weakest own read {lo} to the strongest "
        f"crosstalk {fig.crosstalk_rssi_max}"
    )


def infer_placements(rounds: Sequence[Round], half: int = 2) -> list[dict[bytes, int]]:
    """Where each tag lay, for rounds recorded without instructions (a capture): a tag's
    antenna in a round is the one whose reads of it in the rounds around it (±`half`) add up
    to the most RSSI (then the most reads: a reader without RSSI), and it counts as lying there from one read by that antenna to the next,
    as long as no other antenna became its antenna in between. A tag in transit (read by
    nobody before it shows up elsewhere) is not counted."""
    placed: list[dict[bytes, int]] = [{} for _ in rounds]
    tags = {uid for r in rounds for uid in r}
    for uid in tags:
        seq = [r.get(uid, {}) for r in rounds]
        home: list[int | None] = []
        for i in range(len(seq)):
            votes: Counter[int] = Counter()
            strength: Counter[int] = Counter()
            for j in range(max(0, i - half), min(len(seq), i + half + 1)):
                for a, rssi in seq[j].items():
                    votes[a] += 1
                    strength[a] += rssi
            # summed RSSI first: weak crosstalk from one neighbour can outnumber a few own
            # reads the own antenna missed (a real run: 4 crosstalk reads against 3 own)
            home.append(max(votes, key=lambda a: (strength[a], votes[a], -a)) if votes else None)
        last: tuple[int, int] | None = None  # (round, antenna) of the last own read
        for i, h in enumerate(home):
            if h is None:
                continue
            if last is not None and h != last[1]:
                last = None  # it moved
            if h in seq[i]:
                start = i if last is None else last[0]
                for j in range(start, i + 1):
                    placed[j][uid] = h
                last = (i, h)
    return placed


# --------------------------------------------------------------------------- the profile


def calibration_of(fig: Figures, date: str, source: str) -> Calibration:
    return Calibration(
        CalibrationState.MEASURED,
        date,
        source,
        fig.rounds,
        fig.tiles,
        round(fig.read_rate, 4),
        fig.longest_miss,
        fig.own_rssi,
        fig.crosstalk_reads,
        fig.crosstalk_rssi_max,
    )


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sections(old: ReaderProfile, derived: Derived, cal: Calibration) -> dict[str, list[str]]:
    d, before = derived.debounce, old.debounce
    was = f"{before.window}/{before.appear}/{before.vanish}/{before.crosstalk_margin}"
    debounce = [
        f"# measured by mjtable calibrate on {cal.date} (was {was}); see [calibration]",
        f"window = {d.window}",
        f"appear = {d.appear}",
        f"vanish = {d.vanish}",
        f"crosstalk-margin = {d.crosstalk_margin}",
    ]
    calibration = [
        'state = "measured"',
        f"date = {_toml_str(cal.date)}",
        f"source = {_toml_str(cal.source)}",
        f"rounds = {cal.rounds}",
        f"tiles = {cal.tiles}",
        f"read-rate = {cal.read_rate}",
        f"longest-miss = {cal.longest_miss}",
        f"own-rssi = [{', '.join(str(x) for x in cal.own_rssi)}]",
        f"crosstalk-reads = {cal.crosstalk_reads}",
        f"crosstalk-rssi-max = {cal.crosstalk_rssi_max}",
        f"notes = {_toml_str(' '.join(derived.reasons))}",
    ]
    return {"debounce": debounce, "calibration": calibration}


_HEADER = re.compile(r"^\s*\[([A-Za-z0-9_.-]+)\]\s*(#.*)?$")


def rewrite(text: str, bodies: Mapping[str, list[str]], before: str = "antennas") -> str:
    """`text` (a TOML file) with the named sections' bodies replaced; a section it lacks is
    added before `[before]`. Comments and the other sections are kept as they are; comment
    lines at the end of a replaced section (they introduce the next one) stay."""
    lines = text.splitlines()
    for name, body in bodies.items():
        heads = [i for i, line in enumerate(lines) if _HEADER.match(line)]
        at = next((i for i in heads if _HEADER.match(lines[i]).group(1) == name), None)  # type: ignore[union-attr]  # heads are header lines
        if at is None:
            nxt = next(
                (i for i in heads if _HEADER.match(lines[i]).group(1) == before),  # type: ignore[union-attr]  # heads are header lines
                len(lines),
            )
            lines[nxt:nxt] = [f"[{name}]", *body, ""]
            continue
        end = next((i for i in heads if i > at), len(lines))
        keep = end
        while keep > at + 1 and (
            not lines[keep - 1].strip() or lines[keep - 1].lstrip().startswith("#")
        ):
            keep -= 1
        tail = lines[keep:end]
        while tail and not tail[0].strip():
            tail.pop(0)
        lines[at:end] = [f"[{name}]", *body, "", *tail]
    return "\n".join(lines) + "\n"
