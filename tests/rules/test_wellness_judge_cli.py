"""`mjtable judge` on Wellness: a hand-written record with a chow and the South round's
prevalent wind printed and re-judged to its ledger, and a random Wellness run that counts
chows (in process, through `controller.cli.main`)."""

import json

from judge_helpers import ok
from test_wellness_deal import CLAIMS, drain, wdeal

from controller.cli import main
from rules.moves import Chow, CloseClaims, Discard, Hu
from rules.record import dumps, to_record
from rules.seats import Seat
from rules.tiles import Tile

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N


def record_file(tmp_path, prevalent: Seat):
    # South chows East's 3m (234m), later North's own wind: a prevalent North doubles it
    d = wdeal(CLAIMS, prevalent=prevalent)
    ok(d, Discard(E, Tile.M3), Chow(S, Tile.M2), CloseClaims(), Discard(S, Tile.GREEN))
    drain(d)
    path = tmp_path / "wellness.json"
    path.write_text(dumps(to_record(d)), encoding="utf-8")
    return path, d


def test_a_wellness_record_is_printed_with_its_winds_chow_and_bonuses(tmp_path, capsys):
    d = wdeal(CLAIMS, prevalent=N)
    ok(d, Discard(E, Tile.M3), Hu(N), CloseClaims())
    drain(d)
    path = tmp_path / "hu.json"
    path.write_text(dumps(to_record(d)), encoding="utf-8")
    assert main(["judge", str(path)]) == 0
    out = capsys.readouterr().out
    assert "No void suit; prevalent wind N, seat winds E S W N" in out
    assert "Voids:" not in out
    assert "83 tiles stay in the wall after the deal" in out
    # North: men-fu 100 + its own wind, also the prevalent wind: 100 + 100
    assert "#1 N on 3m from E: hand value A=300" in out
    assert "seat-wind-pung         +100" in out and "prevalent-wind-pung    +100" in out
    assert "[001 II 2: the discarder alone pays the winning hand]" in out


def test_a_wellness_record_rejudges_to_its_own_result(tmp_path, capsys):
    path, d = record_file(tmp_path, N)
    assert json.loads(path.read_text())["prevalent"] == "N"
    assert main(["judge", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["record_check"] is None and result["end"] == "wall"
    # at wall end South (after its chow) and West are not ready; East's best is san-an 800,
    # North's men-fu 100 + its wind twice (seat and, in the North round, prevalent) 300
    assert result["deltas"] == list(d.deltas()) == [1600, -1100, -1100, 600]


def test_a_random_wellness_run_counts_chows(capsys):
    assert main(["judge", "--random", "8", "--seed", "5", "--rules", "wellness", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["rules"] == "wellness" and summary["violations"] == []
    counts = summary["counts"]
    assert counts["chow"] > 0
    assert counts["end-third-hu"] + counts["end-wall"] == 8
    assert counts["void-penalty"] == 0 and counts["kong-refund"] == 0
