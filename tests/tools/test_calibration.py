"""The arithmetic of `mjtable calibrate` (tools/calibration.py): tallies of synthetic rounds,
the numbers drawn from them checked against their definitions, the inference of where a tile
lay in a capture, and the profile rewrite that keeps the rest of the file."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest

from controller.profiles import CalibrationState, load_reader, parse_reader
from tools.calibration import (
    EXPOSURE,
    FALSE_VANISH,
    HOLD,
    CalibrationError,
    Figures,
    Tally,
    calibration_of,
    derive,
    infer_placements,
    rewrite,
    sections,
)

ROOT = Path(__file__).resolve().parents[2]
A, B = b"\x01" * 12, b"\x02" * 12


def tail(n: int, k: int, p: float) -> float:
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def figures(rate: float, longest: int = 1, own=(80, 90, 95), cross: int = 10, xmax: int = 50):
    return Figures(1000, 10, 10_000, round(rate * 10_000), longest, own, cross, xmax)


def test_tally_counts_reads_misses_runs_and_crosstalk() -> None:
    t = Tally()
    placed = {A: 1, B: 2}
    rounds = [
        {A: {1: 90}, B: {2: 80, 1: 40}},  # B read by antenna 1 too: crosstalk
        {B: {2: 82}},  # A missed
        {B: {1: 45}},  # A missed again; B missed by its own, read by 1
        {A: {1: 91}, B: {2: 81}},
    ]
    for r in rounds:
        t.add(r, placed)
    t.add({}, {B: 2})  # A lifted: its runs end; B missed
    f = t.figures()
    assert (f.rounds, f.tiles, f.tag_rounds, f.own_reads) == (5, 2, 9, 5)
    assert f.longest_miss == 2  # A's two misses (B's open run at the end is 1)
    assert f.own_rssi == (80, 82, 91)
    assert (f.crosstalk_reads, f.crosstalk_rssi_max) == (2, 45)
    assert f.crosstalk_pairs == {(2, 1): 2}


@pytest.mark.parametrize("rate", [0.99, 0.95, 0.9, 0.8, 0.7])
def test_window_is_the_smallest_that_keeps_the_majority(rate: float) -> None:
    d = derive(figures(rate)).debounce
    p = round(rate * 10_000) / 10_000
    assert d.appear == d.window // 2 + 1
    assert tail(d.window, d.appear, p) >= HOLD
    assert d.window == 3 or tail(d.window - 1, (d.window - 1) // 2 + 1, p) < HOLD


@pytest.mark.parametrize(("rate", "longest"), [(0.95, 1), (0.95, 9), (0.8, 2), (1.0, 0)])
def test_vanish_outlasts_the_longest_gap_and_rare_runs(rate: float, longest: int) -> None:
    d = derive(figures(rate, longest)).debounce
    miss = 1 - rate
    assert d.vanish > longest
    assert d.vanish >= 2
    if miss:
        assert miss**d.vanish <= FALSE_VANISH / EXPOSURE or d.vanish == longest + 1


def test_margin_lies_between_the_own_spread_and_the_crosstalk_gap() -> None:
    derived = derive(figures(0.95, own=(80, 90, 95), xmax=50))
    assert 15 <= derived.debounce.crosstalk_margin < 30  # spread 15, gap 80 - 50
    assert derive(figures(0.95, own=(80, 90, 95), xmax=70)).debounce.crosstalk_margin == 0
    assert derive(figures(0.95, own=(), xmax=0)).debounce.crosstalk_margin == 0
    none = Figures(1000, 10, 10_000, 9_500, 1, (80, 90, 95), 0, 0)
    assert derive(none).debounce.crosstalk_margin == 17


def test_unusable_measurements_are_refused_with_the_reason() -> None:
    with pytest.raises(CalibrationError, match="only 20 tile-rounds"):
        derive(Figures(10, 2, 20, 20, 0, (90, 90, 90), 0, 0))
    with pytest.raises(CalibrationError, match=r"read their tiles in only 40\.0%"):
        derive(figures(0.4))


def test_placements_inferred_between_reads_of_one_antenna() -> None:
    rounds = [{A: {1: 90}} for _ in range(10)]
    rounds[4] = {A: {2: 50}}  # a miss with crosstalk: still on 1
    rounds += [{}, {}, {}]  # lifted, in a hand
    rounds += [{A: {5: 90}} for _ in range(5)]  # put down on antenna 5
    placed = infer_placements(rounds)
    assert [p.get(A) for p in placed] == [1] * 10 + [None] * 3 + [5] * 5
    t = Tally()
    for r, p in zip(rounds, placed, strict=True):
        t.add(r, p)
    f = t.figures()
    assert (f.longest_miss, f.crosstalk_reads, f.own_reads) == (1, 1, 14)


def test_rewrite_keeps_the_rest_of_the_profile(tmp_path: Path) -> None:
    text = (ROOT / "hw_profiles/readers/uhfreader18-rs485.toml").read_text(encoding="utf-8")
    profile = load_reader("uhfreader18-rs485")
    fig = figures(0.95)
    derived = derive(fig)
    new = rewrite(text, sections(profile, derived, calibration_of(fig, "2026-11-25", "test")))
    again = parse_reader(tomllib.loads(new), "x.toml")
    assert again.debounce == derived.debounce
    assert again.calibration.state is CalibrationState.MEASURED
    assert again.calibration.read_rate == 0.95 and again.calibration.own_rssi == (80, 90, 95)
    assert again.antennas == profile.antennas and again.reader == profile.reader
    assert "# reader address 4: port 1 = antenna 33" in new  # comments kept
    assert "GUESSED" not in new.split("[antennas]")[0].split("[debounce]")[1]
    # without the sections, they are added before [antennas]
    bare = "\n".join(
        line for line in text.splitlines() if not line.startswith(("[debounce", "[calibration"))
    )
    bare = bare.replace("window = 5\n", "").replace("appear = 3\n", "")
    bare = "\n".join(
        line
        for line in bare.splitlines()
        if not line.startswith(("window", "appear", "vanish", "crosstalk", "state", "notes ="))
    )
    added = parse_reader(
        tomllib.loads(rewrite(bare, sections(profile, derived, calibration_of(fig, "d", "s")))), "y"
    )
    assert added.debounce == derived.debounce


def test_inference_not_fooled_by_crosstalk_outnumbering_missed_own_reads() -> None:
    """Caught by the live calibration test: a tile on antenna 1 missed twice while antenna 4
    read it by crosstalk four rounds running was put on antenna 4 for two rounds."""
    rounds = [{A: {1: 93}} for _ in range(5)]
    rounds += [{A: {1: 93, 4: 56}}, {A: {4: 56}}, {A: {2: 56, 4: 56}}, {A: {1: 93, 4: 56}}]
    rounds += [{A: {1: 93}} for _ in range(5)]
    assert {a for p in infer_placements(rounds) for a in p.values()} == {1}
    without_rssi = [{u: dict.fromkeys(r[u], 0) for u in r} for r in rounds[:6]]
    assert {a for p in infer_placements(without_rssi) for a in p.values()} == {1}
