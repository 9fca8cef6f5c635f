"""`mjtable run`'s terminal (controller/cli/run_status.py): the live status line on a
terminal, plain lines elsewhere, alerts as short lines in local time, and the results
table from the journal (corrections applied) when it stops."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest

from controller.cli import main
from controller.cli.run_status import RunStatus, fitted, status_lines
from controller.outputs.view import AlertView, PublicView, SeatView
from controller.words import local_time, phase_words
from tests.tools.test_referee import bot_journal, capped_journal


def view(phase: str, deal: int = 3, scores=(0, 0, 0, 0), deltas=(0, 0, 0, 0), **kw) -> PublicView:
    seats = tuple(
        SeatView(seat, name, score, delta, (), (), 13)
        for seat, name, score, delta in zip(
            "ESWN", ("Ann", "Bo", "Cy", "Di"), scores, deltas, strict=True
        )
    )
    base = dict(
        table="7",
        session=2,
        deal=deal,
        rules="sbr-mil",
        dealer="S",
        phase=phase,
        turn="W",
        tiles_left=41,
        claim_remaining_s=None,
        last_discard=None,
        seats=seats,
        seq=100,
        session_deal=3,
        session_deals=8,
    )
    base.update(kw)
    return PublicView(**base)


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_the_status_line_says_where_the_session_is_in_words() -> None:
    lines = status_lines(view("playing.awaiting_discard", deltas=(8, -8, 0, 0)))
    assert lines[0] == (
        "Table 7 · Session 2 · Deal 3 of 8 · West to discard · 41 tiles left  |  "
        "E Ann +8  S Bo -8  W Cy +0  N Di +0"
    )
    assert fitted(lines, 80) == (
        "Table 7 · Session 2 · Deal 3 of 8 · West to discard  |  E +8  S -8  W +0  N +0"
    )
    assert fitted(lines, 60) == "S2 D3 West to discard | E+8 S-8 W+0 N+0"
    assert all(len(fitted(lines, c)) < c for c in (40, 60, 80, 120))
    assert "Table Table" not in status_lines(view("idle", table="Table 7", session_deal=0))[0]
    assert phase_words("playing.claim_window") == "claims open"
    assert phase_words("playing.awaiting_draw", "N") == "North to draw"


def test_on_a_terminal_alerts_print_above_the_status_line_in_local_time() -> None:
    out, clock = io.StringIO(), Clock()
    status = RunStatus(out, tty=True, clock=clock, width=120)
    status.view(view("playing.awaiting_discard"), ())
    assert out.getvalue().endswith(
        "West to discard · 41 tiles left  |  E Ann +0  S Bo +0  W Cy +0  N Di +0"
    )
    wall = "2026-03-01T10:00:05.000+00:00"
    alert = AlertView(101, wall, "warning", "stalled: nothing explains the table for 30 s")
    clock.t = 0.05  # too soon for a redraw, but an alert is shown at once
    status.view(view("playing.claim_window"), (alert,))
    text = out.getvalue()
    assert f"\r\x1b[2K! {local_time(wall)} stalled: nothing explains the table for 30 s\n" in text
    # the words of the board and the hall page (issue 28 item 4): the discarder named
    assert text.endswith(
        "claims on West's discard · 41 tiles left  |  E Ann +0  S Bo +0  W Cy +0  N Di +0"
    )
    status.view(view("playing.claim_window"), (alert,))  # the same alert: once
    assert out.getvalue().count("stalled") == 1
    clock.t = 0.1
    status.view(view("playing.awaiting_draw", turn="N"), (alert,))
    assert "North to draw" not in out.getvalue()  # throttled ...
    clock.t = 0.5
    status.tick()  # ... and drawn on the next tick
    assert out.getvalue().endswith(
        "North to draw · 41 tiles left  |  E Ann +0  S Bo +0  W Cy +0  N Di +0"
    )


def test_local_time_is_the_machines_zone() -> None:
    old = os.environ.get("TZ")
    os.environ["TZ"] = "Asia/Shanghai"
    time.tzset()
    try:
        assert local_time("2026-03-01T10:00:05.000+00:00") == "18:00:05"
    finally:
        if old is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = old
        time.tzset()


def test_not_on_a_terminal_plain_lines_and_the_deals_result(tmp_path: Path) -> None:
    out = io.StringIO()
    status = RunStatus(out, tty=False)
    status.view(view("shuffling", deal=2, scores=(5, -5, 0, 0)), ())
    status.view(view("dealing", deal=3, scores=(5, -5, 0, 0)), ())
    status.view(
        view("playing.awaiting_discard", deal=3, scores=(5, -5, 0, 0), deltas=(1, 2, 3, -6)), ()
    )
    status.view(view("settled", deal=3, scores=(-4, 22, -9, -9)), ())
    status.view(view("settled", deal=3, scores=(-4, 22, -9, -9)), ())
    assert out.getvalue().splitlines() == [
        "Deal 3 of 8: dealer S",
        "Deal 3 of 8 settled: E -9  S +27  W -9  N -9  (session: E -4  S +22  W -9  N -9)",
    ]
    assert "\x1b" not in out.getvalue()


def test_when_it_stops_the_results_table_has_the_corrected_deals(tmp_path: Path, capsys) -> None:
    path = capped_journal(tmp_path / "t.journal")
    out = io.StringIO()
    status = RunStatus(out, tty=False)
    status.view(view("settled", session=1, deal=1, session_deal=1, session_deals=1), ())
    status.finish("deals", path)
    assert out.getvalue().splitlines()[-5:] == [
        "stopped: deals",
        "Session 1: 1 deal settled",
        "deal  E East  S South  W West  N North",
        "   1      -9      +27      -9       -9",
        "total     -9      +27      -9       -9",
    ]
    penalty = ["penalty", "--deal", "1", "--seat", "N", "--points", "8", "--to", "W"]
    assert main(["correct", str(path), *penalty, "--referee", "Li", "--why", "x"]) == 0
    out = io.StringIO()
    status = RunStatus(out, tty=False)
    status.view(view("settled", session=1, deal=1, session_deal=1, session_deals=1), ())
    status.finish("sigint", path)
    lines = out.getvalue().splitlines()
    assert lines[1] == "stopped: sigint"
    assert lines[4:] == [
        "   1      -9      +27      -1      -17 *",
        "total     -9      +27      -1      -17",
        "* corrected by the referee",
    ]


@pytest.mark.parametrize("seeds", [[3, 4]])
def test_results_of_two_deals_add_up(tmp_path: Path, seeds) -> None:
    path = tmp_path / "t.journal"
    deals = bot_journal(path, seeds)
    out = io.StringIO()
    status = RunStatus(out, tty=False)
    status.view(view("settled", session=1, deal=2, session_deal=2, session_deals=0), ())
    status.finish("deals", path)
    rows = out.getvalue().splitlines()
    total = [int(v) for v in rows[-1].split()[1:]]
    by_deal = [[int(v) for v in r.split()[1:5]] for r in rows[-3:-1]]
    assert [sum(c) for c in zip(*by_deal, strict=True)] == total and len(deals) == 2
