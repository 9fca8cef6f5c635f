"""`mjtable score` and `mjtable waits` through a real subprocess (`python -m controller`)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def mjtable(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "controller", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_score_prints_a_readable_breakdown():
    r = mjtable("score", "345p555p678s99s", "--melds", "pung 1s", "--win", "5p", "--self-drawn")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "+1  root: four 5p over a pung and a chow" in out
    assert "total     1 fan, cap 3" in out
    assert "value     2 points" in out
    assert "waits     2p 5p 9s" in out  # of 34555p67899s + pung 1s
    assert "maximum   2" in out
    assert "payment   A+1 = 3 from each player still in" in out


def test_score_with_situations_rules_and_cap():
    r = mjtable(
        "score",
        "111p123p555p99p",
        "--melds",
        "kong 7p",
        "--win",
        "9p",
        "--situation",
        "under-the-sea",
        "--rules",
        "sbr-russia",
    )
    assert r.returncode == 0, r.stderr
    assert "+1  under-the-sea:" in r.stdout
    assert "total     5 fan, cap 4 (capped)" in r.stdout
    assert "value     16 points" in r.stdout


def test_wmt_multiplier_is_shown():
    r = mjtable(
        "score",
        "234p567p88p456s",
        "--melds",
        "kong 9s",
        "--win",
        "4s",
        "--self-drawn",
        "--situation",
        "win-after-kong",
        "--rules",
        "wmt",
    )
    assert r.returncode == 0, r.stderr
    assert "kong-bloom" in r.stdout
    assert "payment   4A+1 = 9 from each player still in (after a melded kong: from its" in r.stdout


def test_melds_repeat_or_comma_separate_alike():
    one = mjtable(
        "score", "55p", "--melds", "pung 1p, kong 2s", "--melds", "pung 3s,pung 4p", "--win", "5p"
    )
    two = mjtable(
        "score",
        "55p",
        "--melds",
        "pung 1p",
        "--melds",
        "kong 2s",
        "--melds",
        "pung 3s",
        "--melds",
        "pung 4p",
        "--win",
        "5p",
    )
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout
    assert "golden-wait" in one.stdout and "all-pungs" in one.stdout


def test_a_hand_that_does_not_win_exits_1():
    r = mjtable("score", "123m456p789p11s", "--melds", "pung 5s", "--win", "1s")
    assert r.returncode == 1
    assert r.stdout.strip() == "not a win: the hand holds all three suits"
    r = mjtable("score", "123p456p789p11p", "--melds", "pung 5p", "--win", "1p", "--void", "p")
    assert r.returncode == 1
    assert "void suit p" in r.stdout


@pytest.mark.parametrize(
    ("args", "message", "text", "column"),
    [
        (["score", "123p45x6p", "--win", "1p"], "hand: unexpected character 'x'", "123p45x6p", 6),
        (
            ["score", "123p456p789p11s", "--melds", "pung 5s,pang 6s", "--win", "1s"],
            "meld: unknown meld kind 'pang'",
            "pung 5s,pang 6s",
            8,
        ),
        (["score", "123p456p789p11s", "--win", "0s"], "winning tile: '0s' is not a tile", "0s", 0),
        (["waits", "123p456p789p1s", "--melds", "pung 5"], "meld: digits at the end", "pung 5", 5),
    ],
)
def test_bad_notation_gives_one_line_and_a_caret(args, message, text, column):
    r = mjtable(*args)
    assert r.returncode == 2
    lines = r.stderr.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(f"mjtable: error: {message}")
    assert lines[1] == f"  {text}"
    assert lines[2] == "  " + " " * column + "^"


def test_unknown_rule_set_and_void_are_input_errors():
    r = mjtable("score", "123p456p789p11s", "--melds", "pung 5s", "--win", "1s", "--rules", "x")
    assert r.returncode == 2 and "unknown rule set 'x'" in r.stderr
    r = mjtable("waits", "123p456p789p1s", "--melds", "pung 5s", "--void", "q")
    assert r.returncode == 2 and "void suit" in r.stderr


def test_waits_lists_each_wait_and_the_maximum():
    r = mjtable("waits", "11123p555s777s99s")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "waits     1p 4p 9s" in lines
    assert any(line.split() == ["1p", "2", "root"] for line in lines)
    assert any(line.split() == ["4p", "1", "plain"] for line in lines)
    assert lines[-1].startswith("maximum   2")


def test_waits_of_a_hand_that_is_not_ready():
    r = mjtable("waits", "1357p2468s13579s")
    assert r.returncode == 0
    assert "waits     none (not ready)" in r.stdout
    assert "maximum   0" in r.stdout
    r = mjtable("waits", "123p456p789p1m", "--melds", "pung 5s", "--void", "m")
    assert "none (not ready)" in r.stdout
    r = mjtable("waits", "123p456p789p1m1s", "--melds", "pung 5s")
    assert r.returncode == 2 and "10 standing tiles" in r.stderr


def test_json_stream_goes_on_past_bad_lines():
    cases = [
        {"id": 1, "hand": "345p555p678s99s", "melds": ["pung 1s"], "win": "5p"},
        "this is not json",
        {"id": "b", "hand": "123m456p789p11s", "melds": ["pung 5s"], "win": "1s"},
        "",
        {"id": 3, "hand": "12x", "win": "1p"},
        [1, 2],
        {
            "id": 4,
            "hand": "55p",
            "melds": ["pung 1p", "kong 2s", "pung 3s", "pung 4p"],
            "win": "5p",
            "rules": "sbr-russia",
            "self_drawn": True,
            "situation": ["under-the-sea"],
        },
        {"id": 5, "hand": "123p456p789p11s", "win": "1s", "melds": "pung 5s"},
        {"id": 6, "hand": "123p456p789p11s", "melds": ["pung 5s"], "win": "1s", "colour": 1},
        {"id": 7, "hand": "123p456p789p11s", "melds": ["pung 5s"], "win": "1s", "rules": "nope"},
        {
            "id": 8,
            "hand": "123p456p789p11s",
            "melds": ["pung 5s"],
            "win": "1s",
            "situation": ["win-after-kong"],
        },
        {"id": 9, "hand": "11123p555s777s999s", "win": "9s", "void": "m"},
    ]
    stdin = "\n".join(c if isinstance(c, str) else json.dumps(c) for c in cases) + "\n"
    r = mjtable("score", "--json", stdin=stdin)
    assert r.returncode == 0, r.stderr
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(out) == 11  # the blank line is not a case
    assert out[0] == {
        "id": 1,
        "ok": True,
        "fans": {"root": 1},
        "total_fan": 1,
        "value": 2,
        "waits": ["2p", "5p", "9s"],
        "max_value": 2,
    }
    assert list(out[0]) == ["id", "ok", "fans", "total_fan", "value", "waits", "max_value"]
    assert out[1]["id"] is None and out[1]["ok"] is False and "JSON" in out[1]["error"]
    assert out[2] == {"id": "b", "ok": False, "error": "not a win: the hand holds all three suits"}
    assert out[3]["id"] == 3 and "unexpected character 'x'" in out[3]["error"]
    assert out[4] == {"id": None, "ok": False, "error": "a case is a JSON object"}
    assert out[5] == {
        "id": 4,
        "ok": True,
        "fans": {"kong": 1, "all-pungs": 1, "golden-wait": 1, "under-the-sea": 1},
        "total_fan": 4,
        "value": 16,
        "waits": ["5p"],
        "max_value": 4,  # all pungs + golden wait: the kong is not counted (004 Lesson 6)
    }
    assert out[6]["ok"] is False and "'melds' must be a list" in out[6]["error"]
    assert out[7]["ok"] is False and "unknown key 'colour'" in out[7]["error"]
    assert out[8]["ok"] is False and "unknown rule set 'nope'" in out[8]["error"]
    assert out[9]["ok"] is False and "win-after-kong" in out[9]["error"]
    assert out[10]["ok"] is True and out[10]["waits"] == ["1p", "4p", "9s"]
    assert out[10]["max_value"] == 2


def test_json_mode_takes_no_hand_argument():
    r = mjtable("score", "123p", "--json", stdin="")
    assert r.returncode == 2


def test_waits_prices_the_lesson_6_example_without_its_kong(tmp_path):
    # 004 Lesson 6: melded pung 3s, kong 4s, pung 1m, standing 7778m: 2 points (all pungs
    # on 8m), the kong left out; a custom rule set counting kongs says 4
    args = ("waits", "7778m", "--melds", "pung 3s,kong 4s,pung 1m", "--void", "p")
    r = mjtable(*args)
    assert r.returncode == 0, r.stderr
    assert "waits     6m 8m 9m" in r.stdout
    assert "maximum   2 (theoretical maximum at wall end; declared kongs not counted" in r.stdout
    base = (ROOT / "rules" / "rulesets" / "sbr-mil.toml").read_text(encoding="utf-8")
    custom = tmp_path / "kongs.toml"
    custom.write_text(base.replace("maximum-counts-kongs = false", "maximum-counts-kongs = true"))
    r = mjtable(*args, "--rules", str(custom))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "maximum   4 (theoretical maximum at wall end)"
