"""The referee's tools on a Wellness deal (issue 8 item 2): the journal keeps the prevalent
wind, the rebuild scores with it, and the deal sheet and the text view show winds instead
of void suits, chows among the melds, and each Hu's pattern and bonuses."""

from __future__ import annotations

import random
from pathlib import Path

from controller.cli import main
from controller.journal.records import DealStarted, RecordKind
from controller.journal.store import Journal
from controller.referee.scripted import write_deal
from controller.referee.text import seat_lines
from rules.deal import Deal
from rules.melds import MeldKind
from rules.moves import Chow
from rules.ruleset import load
from rules.seats import Seat
from rules.wall import Dice
from tests.tools.test_referee import FakeClock, rebuilt
from tools.sim.player import plan_deal

RS = load("wellness")


def wellness_deal(prevalent: Seat) -> Deal:
    """The first seeded bot deal with a chow and a Hu scoring a bonus."""
    for seed in range(200):
        rng = random.Random(seed)
        tiles = [t for t in RS.tiles.set.kinds for _ in range(4)]
        rng.shuffle(tiles)
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        plan = plan_deal(RS, dice, tuple(tiles), rng, referee=False, prevalent=prevalent)
        deal = Deal.replay(RS, dice, tiles, plan.moves, prevalent=prevalent)
        bonus = any(w.score and w.score.bonuses for w in deal.winners)
        if bonus and any(isinstance(m, Chow) for m in deal.history):
            return deal
    raise AssertionError("no seeded deal with a chow and a bonus")


def test_a_wellness_deal_is_journalled_rebuilt_and_reported(tmp_path: Path) -> None:
    deal = wellness_deal(Seat.S)
    path = tmp_path / "table.journal"
    with Journal.open(path, clock=FakeClock()) as j:
        write_deal(j, RS, deal.dice, deal.wall_order, deal.history, dealer=Seat.W, prevalent=Seat.S)
    with Journal.open_readonly(path) as j:
        (started,) = [r for r in j.records() if r.kind is RecordKind.DEAL_STARTED]
        assert started.data()["prevalent"] == "S"
        assert DealStarted.from_payload(started.data()).prevalent is Seat.S
    rb = rebuilt(path)
    assert rb.deal.prevalent is Seat.S
    assert tuple(rb.deltas) == tuple(deal.deltas()[(i - Seat.W) % 4] for i in range(4))
    # the text view: winds, not void suits; each Hu's pattern and bonuses
    lines = "\n".join(seat_lines(rb, rb.moments[-1], (0, 0, 0, 0)))
    assert "void" not in lines and "round S" in lines
    assert "W " in lines and "wind E, round S" in lines  # the dealer sits at side W
    win = next(w for w in deal.winners if w.score and w.score.bonuses)
    b = win.score.bonuses[0]
    assert f"{win.score.patterns[0].name} " in lines and f"{b.name} {b.points}" in lines
    assert f"= {win.value}" in lines
    out = tmp_path / "deal.html"
    assert main(["report", str(path), "--deal", "1", "-o", str(out)]) == 0
    html = out.read_text()
    assert "Deal 1 — wellness" in html and "<th>wind</th>" in html and "<th>void</th>" not in html
    assert f"{b.name} {b.points}" in html and win.score.patterns[0].name in html
    chow = next(m for s in Seat for m in deal.melds(s) if m.kind is MeldKind.CHOW)
    assert str(chow).startswith("chow ") and str(chow) in lines


def test_the_public_view_shows_the_pattern_bonuses_and_round_wind() -> None:
    """Scoreboard (controller/daemon/views.py): a Wellness winner's pattern, value and
    bonuses are public once declared, and so is the prevalent wind; a Sichuan view has
    neither."""
    from controller.daemon.views import TableFacts, public_view

    deal = wellness_deal(Seat.S)
    facts = TableFacts("t", 1, 1, "wellness", Seat.E, ("a", "b", "c", "d"), (0, 0, 0, 0),
                       "settled", None, 7)  # fmt: skip
    view = public_view(facts, deal)
    assert view.prevalent == "S"
    win = next(w for w in deal.winners if w.score and w.score.bonuses)
    seat = view.seats[win.seat]  # dealer at E: sides are deal seats
    assert seat.hu_pattern == win.score.patterns[0].name and seat.hu_value == win.value
    assert seat.hu_bonuses == tuple(f"{b.name} {b.points}" for b in win.score.bonuses)
    # before the deal is over the winner's hand lies face down: no pattern yet
    first = next(
        i
        for i in range(len(deal.history))
        if Deal.replay(
            RS, deal.dice, deal.wall_order, deal.history[: i + 1], prevalent=Seat.S
        ).winners
    )
    midway = Deal.replay(
        RS, deal.dice, deal.wall_order, deal.history[: first + 1], prevalent=Seat.S
    )
    assert not midway.over and midway.winners
    assert all(
        s.hu_pattern is None and s.hu_bonuses == () for s in public_view(facts, midway).seats
    )
    sichuan = Deal.start(
        load("sbr-mil"), Dice(6, 4), [t for t in load("sbr-mil").tiles.set.kinds for _ in range(4)]
    )
    plain = public_view(facts, sichuan)
    assert plain.prevalent is None and all(s.hu_pattern is None for s in plain.seats)
