"""Referee tools on journals written through the Journal API and the judge (fast): the deal
rebuilt from its records, every correction action worked by hand, re-scoring under the
4-fan cap, and a property: any bot deal journalled and rebuilt settles as journalled."""

from __future__ import annotations

import random
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from controller.journal.records import Correction, CorrectionAction
from controller.journal.store import Journal
from controller.referee.export import deal_record
from controller.referee.journal_deal import Verdict, read_deal
from controller.referee.rebuild import rebuild
from controller.referee.scripted import write_deal
from controller.referee.session import rebuild_all
from controller.referee.text import render
from rules.bots import play_deal
from rules.deal import Deal
from rules.moves import ChooseVoid, Draw, EndDeal, SelfDrawnHu
from rules.record import judge
from rules.ruleset import load
from rules.seats import SEATS, Seat
from rules.tiles import Suit, Tile, parse_tiles
from rules.wall import Dice, compose

MIL = load("sbr-mil")
RUSSIA = load("sbr-russia")


class FakeClock:
    """Monotonic seconds from 100, wall time from 2026-03-01 10:00 UTC, 0.5 s a reading."""

    def __init__(self) -> None:
        self.t = 100.0

    def monotonic(self) -> float:
        self.t += 0.5
        return self.t

    def wall(self) -> str:
        at = datetime(2026, 3, 1, 10, 0, tzinfo=UTC) + timedelta(seconds=self.t - 100.0)
        return at.isoformat(timespec="milliseconds")


# East (the dealer, sitting at the table's S seat) is dealt seven pairs in one suit:
# seven-pairs 2 fan + full-flush 2 fan = 4 fan (004 Table 4), a heavenly self-drawn Hu.
DICE = Dice(6, 4)
HEAVENLY = parse_tiles("11223344556677m")
CAPPED_MOVES = (
    ChooseVoid(Seat.E, Suit.P),  # no Dots in hand: the indicator card
    ChooseVoid(Seat.S, Suit.P, Tile.parse("4p")),
    ChooseVoid(Seat.W, Suit.P, Tile.parse("4p")),
    ChooseVoid(Seat.N, Suit.P, Tile.parse("5p")),
    SelfDrawnHu(Seat.E),
    EndDeal("session time is over"),
)


def capped_journal(path: Path, dealer: Seat = Seat.S) -> Path:
    wall = compose(MIL, DICE, {Seat.E: HEAVENLY})
    with Journal.open(path, clock=FakeClock()) as journal:
        write_deal(journal, MIL, DICE, wall, CAPPED_MOVES, dealer=dealer)
    return path


def bot_journal(path: Path, seeds: list[int], dealer: Seat = Seat.W) -> list[Deal]:
    deals = []
    with Journal.open(path, clock=FakeClock()) as journal:
        for n, seed in enumerate(seeds, start=1):
            deal, _ = play_deal(MIL, seed)
            write_deal(
                journal, MIL, deal.dice, deal.wall_order, deal.history, number=n, dealer=dealer
            )
            deals.append(deal)
    return deals


def correct(path: Path, corrects: int, action: CorrectionAction, **details: object) -> int:
    c = Correction(corrects, "Ref Li", action, "test", details or None)
    with Journal.open(path, clock=FakeClock()) as journal:
        return journal.append_correction(c).seq


def rebuilt(path: Path, number: int = 1, corrections: bool = True):
    with Journal.open_readonly(path) as journal:
        return rebuild(read_deal(journal, number), corrections)


def seq_of(path: Path, text: str) -> int:
    with Journal.open_readonly(path) as journal:
        jd = read_deal(journal, 1)
    return next(s.seq for s in jd.steps if s.text.startswith(text))


# --- the capped hand, hand-worked ----------------------------------------------------------


def test_capped_heavenly_hand_settles_by_hand(tmp_path: Path) -> None:
    path = capped_journal(tmp_path / "t.journal")
    rb = rebuilt(path)
    # 4 fan capped at 3 under sbr-mil: 8 points; self-drawn: each player still in pays 8 + 1.
    # The dealer (deal seat E) sits at the table's S seat: fixed deltas E S W N.
    assert rb.deltas == (-9, 27, -9, -9)
    assert rb.source.settled is not None and rb.source.settled.deltas == (-9, 27, -9, -9)
    assert [w.value for w in rb.deal.winners] == [8]
    assert rb.next_dealer is Seat.S


def test_capped_hand_rescored_under_sbr_russia(tmp_path: Path) -> None:
    path = capped_journal(tmp_path / "t.journal")
    record = deal_record(rebuilt(path))
    assert record.rules == "sbr-mil"
    assert judge(record).deltas() == (27, -9, -9, -9)  # deal seats: E is the dealer
    # 004: Russia and MahjongSoft cap at 4 fan, 16 points: each pays 16 + 1.
    assert judge(record, RUSSIA).deltas() == (51, -17, -17, -17)
    assert record.players == ("South", "West", "North", "East")


# --- corrections, each worked by hand ------------------------------------------------------


def test_cancel_move_takes_the_hu_back(tmp_path: Path) -> None:
    path = capped_journal(tmp_path / "t.journal")
    hu = seq_of(path, "hu")
    before = path.read_bytes()
    correct(path, hu, CorrectionAction.CANCEL_MOVE)
    rb = rebuilt(path)
    assert rb.deltas == (0, 0, 0, 0) and rb.deal.winners == ()
    assert rb.deal.over  # the EndDeal still ends it: time up, nothing paid
    assert rebuilt(path, corrections=False).deltas == (-9, 27, -9, -9)  # as recorded
    # the original records are still there, byte for byte in their hashes
    with Journal.open_readonly(path) as journal:
        assert journal.verify().ok
    assert len(path.read_bytes()) >= len(before)


def test_penalty_then_withdraw(tmp_path: Path) -> None:
    path = capped_journal(tmp_path / "t.journal")
    hu = seq_of(path, "hu")
    pen = correct(path, hu, CorrectionAction.PENALTY, seat="N", points=8, paid_to="W")
    assert rebuilt(path).deltas == (-9, 27, -9 + 8, -9 - 8)
    line = rebuilt(path).ledger[-1]
    assert (line.payer, line.payee, line.points) == (Seat.N, Seat.W, 8)
    correct(path, pen, CorrectionAction.WITHDRAW)
    rb = rebuilt(path)
    assert rb.deltas == (-9, 27, -9, -9)
    assert [c.withdrawn_by is not None for c in rb.source.corrections] == [True, False]


def test_penalty_to_nobody_and_yellow_card(tmp_path: Path) -> None:
    path = capped_journal(tmp_path / "t.journal")
    hu = seq_of(path, "hu")
    correct(path, hu, CorrectionAction.YELLOW_CARD, seat="E")
    assert rebuilt(path).deltas == (-9, 27, -9, -9)  # a yellow card costs no points
    correct(path, hu, CorrectionAction.PENALTY, seat="E", points=48)
    assert rebuilt(path).deltas == (-9 - 48, 27, -9, -9)


def test_force_end_before_the_hu(tmp_path: Path) -> None:
    path = capped_journal(tmp_path / "t.journal")
    last_void = seq_of(path, "void suit p 5p")
    correct(path, last_void, CorrectionAction.FORCE_END)
    rb = rebuilt(path)
    assert rb.deal.over and rb.deal.winners == () and rb.deltas == (0, 0, 0, 0)
    assert rb.refused == ()  # the later moves are left out, not refused


def test_fix_tile_on_a_draw_swaps_the_wall_scan(tmp_path: Path) -> None:
    path = tmp_path / "b.journal"
    bot_journal(path, [11])
    with Journal.open_readonly(path) as journal:
        jd = read_deal(journal, 1)
    draw = next(s for s in jd.steps if isinstance(s.judge_move, Draw))
    seat = draw.seat
    assert seat is not None
    was = draw.judge_move.tile
    original = rebuilt(path)
    # a tile still in the wall after that draw, other than the one read
    k = draw.number
    left = {original.wall[i] for i in original.moments[k].remaining} - {was}
    fixed = sorted(left)[0]
    correct(path, draw.seq, CorrectionAction.FIX_TILE, tile=str(fixed))
    rb = rebuilt(path)
    diff = [i for i in range(len(rb.wall)) if rb.wall[i] != original.wall[i]]
    assert len(diff) == 2 and {rb.wall[i] for i in diff} == {was, fixed}
    before = rb.moments[k - 1].hands[seat]
    after = rb.moments[k].hands[seat]
    assert sorted(after) == sorted((*before, fixed))


def test_cancel_of_a_non_move_is_noted_not_applied(tmp_path: Path) -> None:
    path = capped_journal(tmp_path / "t.journal")
    window = 1  # record 1 is deal.started
    correct(path, window, CorrectionAction.CANCEL_MOVE)
    rb = rebuilt(path)
    assert rb.deltas == (-9, 27, -9, -9)
    assert any("not an accepted move" in n for n in rb.notes)


def test_steps_and_text_moment(tmp_path: Path) -> None:
    path = capped_journal(tmp_path / "t.journal")
    rb = rebuilt(path)
    kinds = [s.verdict for s in rb.source.steps]
    assert kinds == [Verdict.ACCEPTED] * 6 + [Verdict.SETTLED]
    assert len(rb.moments) == len(kinds) + 1
    screen = render(rb, 5)
    assert "#5 record 6" in screen and "hu (self-drawn)" in screen
    south = next(line for line in screen.splitlines() if line.startswith("S South"))
    assert "dealer" in south and "deal +27" in south and "WON on 7m, value 8" in south
    assert "Wall: 55 tiles left; dice 6+4 → W's wall broken after stack 4" in screen
    # the dealer's first turn: 14 tiles in the dealt hand of the table's S seat
    assert "hand  11223344556677m" in render(rb, 0)


# --- properties ----------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from(SEATS))
@example(seed=3026, dealer=Seat.E)  # a false Hu on a discard: the tile leaves the river too
def test_bot_deal_rebuilds_and_exports_as_journalled(seed: int, dealer: Seat) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.journal"
        (deal,) = bot_journal(path, [seed], dealer)
        rb = rebuilt(path)
    assert rb.refused == () and rb.notes == ()
    assert rb.source.settled is not None
    assert rb.deltas == rb.source.settled.deltas
    assert sum(rb.deltas) == -deal.ledger().to_nobody()
    again = judge(deal_record(rb))
    assert again.deltas() == deal.deltas()
    # every tile is somewhere at every moment: hands, melds, rivers, the wall, or taken by
    # the Hu on a discard (one tile per Hu event, however many players took it; a false Hu
    # takes it too: the judge lifts the discard for every Hu, rules/deal_claims.py)
    for m in rb.moments:
        placed = sum(len(h) for h in m.hands) + len(m.remaining)
        placed += sum(len(x) for x in m.rivers)
        placed += sum(len(meld.tiles) for ms in m.melds for meld in ms)
        taken = {w.order for w in m.winners if w.from_seat is not None}
        assert placed + len(taken) == 108


def test_session_totals_run_over_deals(tmp_path: Path) -> None:
    path = tmp_path / "s.journal"
    deals = bot_journal(path, [1, 2, 3], Seat.E)
    with Journal.open_readonly(path) as journal:
        rows = rebuild_all(journal)
    assert [r.number for r in rows] == [1, 2, 3]
    total = [0, 0, 0, 0]
    for row, deal in zip(rows, deals, strict=True):
        assert row.before == tuple(total)
        total = [a + b for a, b in zip(total, deal.deltas(), strict=True)]
        assert row.after == tuple(total)


@pytest.mark.parametrize("seed", [random.Random(7).randrange(2**32) for _ in range(3)])
def test_as_recorded_equals_corrected_without_corrections(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "r.journal"
    bot_journal(path, [seed])
    assert rebuilt(path).deltas == rebuilt(path, corrections=False).deltas


def test_regression_the_wall_says_1_stack_in_not_1_stacks_in(tmp_path: Path) -> None:
    """Issue 16: the report's wall drawing said "1 stacks in" for a break after one stack."""
    from controller.referee.svg import wall_svg
    from rules.wall import break_for

    path = tmp_path / "t.journal"
    bot_journal(path, [3, 5])
    one, five = rebuilt(path, 1), rebuilt(path, 2)
    dice = [rb.source.started.dice for rb in (one, five)]
    assert [break_for(Dice(*d), MIL.wall.indent).indent for d in dice] == [1, 5]  # 1+5, 5+6
    assert "wall, 1 stack in</text>" in wall_svg(one)
    assert "wall, 5 stacks in</text>" in wall_svg(five)
