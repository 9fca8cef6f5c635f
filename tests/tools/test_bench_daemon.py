"""`mjtable bench daemon --json`: one object with the documented keys, plausible values; the
journal of a noisy deal (5/5/1) within its 500 kB and the -wal within its 8 MB (issue 15)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_daemon_json(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "controller", "bench", "daemon", "--json", "--frames", "120",
         "--rounds", "40", "--deals", "1", "--path", "0",
         "--dir", str(tmp_path)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    assert set(figures) == {
        "commit_p50_ms", "commit_p99_ms", "push_p99_ms", "max_frames_per_s",
        "line_frames_per_s", "rss_mb", "ready_s", "ready_cpu_s", "ready_rss_mb",
        "ready_cold_s", "ready_cold_cpu_s", "yardstick_us",
        "clean_us_per_answer", "clean_us_per_round", "noisy_us_per_answer", "noisy_us_per_round",
        "clean_line_answers_per_s", "noisy_line_answers_per_s",
        "clean_bytes_per_deal", "noisy_bytes_per_deal", "run_rss_mb", "wal_mb",
    }  # fmt: skip
    assert 0 < figures["commit_p50_ms"] <= figures["commit_p99_ms"] <= figures["push_p99_ms"]
    # 57600 baud, 10 bits a byte, a 204-byte frame of 14 tags
    assert abs(figures["line_frames_per_s"] - 57600 / 10 / 204) < 0.01
    assert figures["max_frames_per_s"] > 0 and 0 < figures["rss_mb"] < 500
    assert 0 < figures["ready_s"] < 20 and 0 < figures["ready_cpu_s"] < 20
    assert 0 < figures["ready_cold_s"] < 20 and 0 < figures["ready_cold_cpu_s"] < 20
    assert 10 < figures["ready_rss_mb"] < 500
    # six answers a round of sim-uhf (three bus addresses, a select and an inventory each)
    for kind in ("clean", "noisy"):
        answer, round_ = figures[f"{kind}_us_per_answer"], figures[f"{kind}_us_per_round"]
        assert answer > 0 and abs(round_ - 6 * answer) < 0.01 * round_ + 1
    assert figures["yardstick_us"] > 0
    # 5760 bytes a second, and an answer with its command is more than one 5-byte command
    for kind in ("clean", "noisy"):
        assert 0 < figures[f"{kind}_line_answers_per_s"] < 5760 / 10
    # one deal (and the session around it): a record per reader answer made it ~5 MB
    assert 50_000 < figures["clean_bytes_per_deal"] < figures["noisy_bytes_per_deal"] <= 500_000
    assert 0 < figures["wal_mb"] <= 8.0 and 20 < figures["run_rss_mb"] < 500
    assert not list(tmp_path.iterdir())  # scratch journals removed
