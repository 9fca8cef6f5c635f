"""`mjtable judge`: a record printed readably and as JSON, re-judged under another rule set,
refused and malformed records as exit status 1 with the documented message, tampered
results, and random bot runs with saved records that judge back."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from rules.bots import play_deal
from rules.record import FORMAT, dumps, record_to_json
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import parse_tiles
from rules.wall import Dice, compose

ROOT = Path(__file__).resolve().parents[2]

HANDS = {
    Seat.E: "11223344556677m",  # seven pairs, one suit: 4 fan (004 Table 4)
    Seat.S: "123456789s1234p",
    Seat.W: "5678p99m1234567s",
    Seat.N: "99p88m2345678s11s",
}


def heavenly(tmp_path: Path, extra: list | None = None, **changes) -> Path:
    rs = load("sbr-mil")
    hands = {seat: parse_tiles(text) for seat, text in HANDS.items()}
    obj = {
        "format": FORMAT,
        "version": 1,
        "rules": "sbr-mil",
        "players": {"E": "Ann", "S": "Bo"},
        "dice": [6, 4],
        "wall": [str(t) for t in compose(rs, Dice(6, 4), hands)],
        "moves": [
            {"t": 1.0, "seat": "E", "move": "void", "suit": "p"},
            {"t": 1.5, "seat": "S", "move": "void", "suit": "m"},
            {"t": 2.0, "seat": "W", "move": "void", "suit": "m", "tile": "9m"},
            {"t": 2.5, "seat": "N", "move": "void", "suit": "m", "tile": "8m"},
            *(extra or [{"t": 4.0, "seat": "E", "move": "self-drawn-hu"}]),
        ],
    }
    obj.update(changes)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


def test_readable_deal(tmp_path, capsys):
    path = heavenly(tmp_path)
    assert main(["judge", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Seats: E Ann, S Bo, W -, N -" in out
    assert "Dice 6+4: the S wall is broken 4 stacks from its right end; 55 tiles" in out
    assert "E dealt 11223344556677m" in out
    assert "Voids: E p, S m, W m, N m" in out
    assert "     5      4.0s  E  self-drawn-hu   [E Hu]" in out
    assert "#1 E on 7m self-drawn: hand value A=8" in out
    assert "seven-pairs            2 fan" in out and "full-flush             2 fan" in out
    assert "S -> E         9  self-drawn Hu on 7m" in out
    assert "[004 Table 6: self-drawn Hu, each player still in pays hand value + 1]" in out
    assert "Deltas: E +27  S -9  W -9  N -9" in out
    assert "The deal is not over (phase draw" in out


def test_json_result(tmp_path, capsys):
    path = heavenly(tmp_path)
    assert main(["judge", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["deltas"] == [27, -9, -9, -9]
    assert result["ledger"][0] == {
        "payer": "S",
        "payee": "E",
        "points": 9,
        "why": "self-drawn Hu on 7m (full-flush 2, seven-pairs 2; A=8)",
        "rule": "004 Table 6: self-drawn Hu, each player still in pays hand value + 1",
    }
    (winner,) = result["winners"]
    assert winner["seat"] == "E" and winner["from"] is None and winner["value"] == 8
    assert {p["name"] for p in winner["patterns"]} == {"seven-pairs", "full-flush"}
    assert result["next_dealer"] is None and result["over"] is False


def test_rejudged_under_the_four_fan_cap(tmp_path, capsys):
    path = heavenly(tmp_path)
    assert main(["judge", "--json", "--rules", "sbr-russia", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    # 004 Lesson 5: sbr-russia caps at 4 fan, so A=16 and each pays 17
    assert result["rules"] == "sbr-russia" and result["recorded_rules"] == "sbr-mil"
    assert result["deltas"] == [51, -17, -17, -17]


def test_refused_move_exits_1_naming_it(tmp_path, capsys):
    bad = {"t": 4.0, "seat": "W", "move": "discard", "tile": "5p"}
    path = heavenly(tmp_path, extra=[bad])
    assert main(["judge", str(path)]) == 1
    err = capsys.readouterr().err
    assert (
        'move 5 (moves[4]) {"t": 4.0, "seat": "W", "move": "discard", "tile": "5p"} '
        "is refused: not-your-turn: it is E's turn"
    ) in err


def test_malformed_record_exits_1_naming_the_field(tmp_path, capsys):
    path = heavenly(tmp_path, dice=[0, 3])
    assert main(["judge", "--json", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "dice: dice show 1-6, not 0+3" in captured.err


def test_usage_errors(tmp_path, capsys):
    assert main(["judge"]) == 2
    assert main(["judge", "--rules", "nope", str(heavenly(tmp_path))]) == 2
    assert "unknown rule set 'nope'" in capsys.readouterr().err
    assert main(["judge", str(tmp_path / "missing.json")]) == 1


def test_finished_deal_and_tampered_result(tmp_path, capsys):
    deal, record = play_deal(load("wmt"), 1234)
    path = tmp_path / "bot.json"
    path.write_text(dumps(record), encoding="utf-8")
    assert main(["judge", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["deltas"] == list(deal.deltas())
    assert result["recorded_deltas"] == list(deal.deltas())
    assert result["end"] == deal.end.value and result["record_check"] is None
    assert len(result["ledger"]) == len(deal.ledger().lines)
    assert sum(result["deltas"]) == -result["to_nobody"]

    obj = record_to_json(record)
    obj["result"]["deltas"] = [0, 0, 0, 0]
    path.write_text(json.dumps(obj), encoding="utf-8")
    assert main(["judge", str(path)]) == 1
    assert "THE RECORD SAYS OTHERWISE: deltas" in capsys.readouterr().out


def test_random_run_json_and_saved_records(tmp_path, capsys):
    save = tmp_path / "records"
    args = ["judge", "--random", "12", "--seed", "4", "--rules", "sbr-chengdu2016"]
    assert main([*args, "--json", "--save-records", str(save)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 12 and summary["rules"] == "sbr-chengdu2016"
    assert summary["violations"] == []
    counts = summary["counts"]
    assert counts["end-third-hu"] + counts["end-wall"] == 12
    assert set(counts) >= {"hu-discard", "hu-self-drawn", "hu-robbing", "false-hu", "void-penalty"}
    files = sorted(save.glob("deal-*.json"))
    assert len(files) == 12
    assert main(["judge", "--json", str(files[0])]) == 0
    assert json.loads(capsys.readouterr().out)["record_check"] is None


def test_random_run_readable(capsys):
    assert main(["judge", "--random", "5", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "5 random deals under sbr-mil, seed 1" in out
    assert "Ledger invariants: all held." in out
    assert "hu-discard" in out and "Ledger lines by rule:" in out


@pytest.mark.slow
def test_the_installed_command(tmp_path):
    # the real entry point in a child process: exit status and streams as a shell sees them
    path = heavenly(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "controller", "judge", "--json", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["deltas"] == [27, -9, -9, -9]
