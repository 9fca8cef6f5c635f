"""A false Hu is no win (issue 28 item 5): `mjtable journal summary` does not list its seat
among the winners, and the board numbers the true wins only ("Hu 1st", not "Hu 2nd" after
somebody's false Hu)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from controller.cli import main
from controller.daemon.views import TableFacts, public_view
from controller.journal.records import DealStarted, RecordKind, Source
from controller.journal.store import Journal
from rules.bot_policy import DEFAULT_STYLE
from rules.bots import play_deal
from rules.ruleset import load
from rules.seats import Seat

PLAYERS = ("Ann", "Bo", "Cy", "Di")
FALSE_FIRST = replace(DEFAULT_STYLE, false_hu=0.05)  # bots that declare many a false Hu


def test_regression_journal_summary_listed_a_false_hu_among_the_winners(tmp_path: Path, capsys):
    """The daemon's `deal.settled` as it writes it: winners S W N, S's and N's Hu false."""
    path = tmp_path / "t.journal"
    with Journal.open(path) as j:
        started = DealStarted(1, "sbr-mil", Seat.E, (6, 4), PLAYERS, session=1)
        j.append(Source.DAEMON, RecordKind.DEAL_STARTED, started.to_payload(), deal=1)
        settled = {
            "deal": 1,
            "winners": ["S", "W", "N"],
            "deltas": [0, 0, 0, 0],
            "ledger": [],
            "end": "wall-exhausted",
            "next_dealer": "W",
            "false_hu": ["S", "N"],
        }
        j.append(Source.JUDGE, RecordKind.DEAL_SETTLED, settled, deal=1)
    assert main(["journal", "summary", str(path)]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[:5] == ["1", "sbr-mil", "E", "6+4", "W"], row
    assert main(["journal", "summary", "--json", str(path)]) == 0
    assert '"winners": ["W"]' in capsys.readouterr().out


@pytest.mark.parametrize(("rules", "seed"), [("wellness", 1), ("sbr-mil", 2)])
def test_regression_a_winner_after_a_false_hu_was_shown_hu_2nd(rules, seed):
    rs = load(rules)
    deal, _ = play_deal(rs, seed, FALSE_FIRST)
    first_false = min(w.order for w in deal.winners if w.false_hu)
    (true,) = [w for w in deal.winners if not w.false_hu]
    assert first_false < true.order  # the deal this test is about
    facts = TableFacts("T", 1, 1, rs.name, Seat.E, PLAYERS, (0, 0, 0, 0), "settled", None, 1)
    view = public_view(facts, deal)
    shown = {s.seat: s.hu_order for s in view.seats if s.hu_order is not None}
    assert shown == {true.seat.name: 1}
