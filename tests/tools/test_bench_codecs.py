"""`mjtable bench codecs`: run small through the command line; the JSON shape and the
readable report (the speeds themselves are the bench's to show, not a test's to time)."""

from __future__ import annotations

import json

from controller.cli import main

KINDS = ("random", "zeros", "mutated")


def test_bench_codecs_json_shape(capsys) -> None:
    assert main(["bench", "codecs", "--json", "--bytes", "20000", "--seed", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"table", "pn532", "uhf"}
    assert report["pn532"]["line_bytes_per_s"] == 11520.0
    for row in report.values():
        for kind in KINDS:
            assert row[f"{kind}_bytes_per_s"] > 0
            ratio = row[f"{kind}_bytes_per_s"] / row["line_bytes_per_s"]
            assert abs(row[f"{kind}_ratio"] - ratio) < 0.1


def test_bench_codecs_readable(capsys) -> None:
    assert main(["bench", "codecs", "--bytes", "5000"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "garbage skipped, 5000 bytes per stream, seed 1; target ≥ 10×"
    assert [line.split()[0] for line in lines[1:]] == ["table", "pn532", "uhf"]
