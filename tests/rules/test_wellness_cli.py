"""`mjtable score --rules wellness` through a real subprocess (`python -m controller`)."""

import json
import subprocess
import sys
from pathlib import Path

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


def test_wellness_breakdown_with_winds_and_bonuses():
    # 234m (chow) 567m 888m 222z + 44z: hun-qin 200; South is the seat and the prevalent
    # wind (double wind): +2 base points = 400; self-drawn: 400 + 100 from each opponent
    r = mjtable(
        "score",
        "567m888m222z44z",
        "--melds",
        "chow 234m",
        "--win",
        "4z",
        "--self-drawn",
        "--rules",
        "wellness",
        "--seat",
        "S",
        "--prevalent",
        "S",
    )
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "+2  hun-qin: one suit and honours" in out
    assert "+100  seat-wind-pung: 222z (South, the seat wind, a double wind)" in out
    assert "+100  prevalent-wind-pung: 222z" in out
    assert "total     2 fan = 200 points (highest pattern only) + 200 bonus" in out
    assert "value     400 points" in out
    assert "payment   A+100 = 500 from each player still in" in out
    # waits of 234m 567m 888m 222z 4z: 4z only (a pair wait), same value
    assert "waits     4z" in out
    assert "maximum   400" in out


def test_wellness_json_reports_bonuses_and_a_bad_seat_is_an_input_error():
    cases = [
        {
            "id": 1,
            "rules": "wellness",
            "hand": "666z777z234p99s",
            "melds": ["pung 5z"],
            "win": "9s",
        },
        {"id": 2, "rules": "wellness", "hand": "567m888m222z44z", "win": "4z", "seat": "X"},
    ]
    r = mjtable("score", "--json", stdin="".join(json.dumps(c) + "\n" for c in cases))
    assert r.returncode == 0, r.stderr
    first, second = (json.loads(line) for line in r.stdout.splitlines())
    assert first["fans"] == {"san-yuan": 1}
    assert first["total_fan"] == 5
    assert first["value"] == 1300  # 1000 + three dragon pungs at 100
    assert first["bonuses"] == {"dragon-pung": 300}
    assert second["ok"] is False and second["error"].startswith("seat wind:")


def test_a_sichuan_rule_set_ignores_the_winds():
    r = mjtable("score", "123m456m789m11m555m", "--win", "5m", "--seat", "E", "--prevalent", "E")
    assert r.returncode == 0, r.stderr
    assert "bonuses" not in r.stdout
