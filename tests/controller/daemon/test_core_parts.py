"""The daemon core's parts on their own (issue 25 item 1): each is asked with typed values and
answers with typed values, no runtime around it. The claim clock on a real judge in a claim
window; the hold-back queue and the resume schedule with real device events."""

from __future__ import annotations

import random

from rig import wall_copies

from controller.daemon.claim_clock import ClaimClock, OverTime, closes_early
from controller.daemon.contracts import RECONCILE_TRIES
from controller.daemon.machine import Timer, TimerFired
from controller.daemon.recovery import HoldBack, Resume
from controller.devices.events import (
    Button,
    DiceRolled,
    SeatButton,
    ShuffleDone,
    TagsRead,
    WallsUp,
)
from rules import moves as mv
from rules.claims import is_claim
from rules.deal import Deal
from rules.ruleset import load
from rules.seats import Seat
from rules.wall import Dice
from tools.sim.player import plan_deal


def in_a_claim_window() -> tuple[Deal, list[mv.Move]]:
    """A real deal played to its first claim window, and the plan's moves after it."""
    rs = load("sbr-mil")
    dice = Dice(6, 4)
    tiles = tuple(tc.tile for tc in wall_copies(rs, 7))
    plan = plan_deal(rs, dice, tiles, random.Random(7))
    deal = Deal.start(rs, dice, tiles)
    moves = list(plan.moves)
    while deal.window is None:
        assert deal.apply(moves.pop(0))
    return deal, moves


def fired(timer: Timer, t: float = 5.0) -> TimerFired:
    return TimerFired(timer, "playing.claim_window", t)


def test_the_claim_clock_closes_a_window_on_time_unless_a_chow_holds_it() -> None:
    deal, _ = in_a_claim_window()
    held = [False]
    clock = ClaimClock(4.0, 20.0, lambda: held[0])
    assert clock.on_timer(fired(Timer.CLAIM), deal) == mv.CloseClaims()
    held[0] = True  # a CHOW button waits for its tiles
    assert clock.on_timer(fired(Timer.CLAIM), deal) is None
    assert clock.due(deal) is None  # still held
    held[0] = False
    assert clock.due(deal) == mv.CloseClaims()
    assert clock.due(deal) is None  # said once


def test_the_move_clock_warns_once_a_move() -> None:
    deal, _ = in_a_claim_window()
    clock = ClaimClock(4.0, 20.0, lambda: False)
    assert clock.on_timer(fired(Timer.MOVE), deal) == OverTime(deal.turn)
    assert clock.on_timer(fired(Timer.MOVE), deal) is None
    clock.new_move()
    assert isinstance(clock.on_timer(fired(Timer.MOVE), deal), OverTime)


def test_the_window_records_and_how_late_a_claim_came() -> None:
    deal, _ = in_a_claim_window()
    window = deal.window
    assert window is not None
    clock = ClaimClock(4.0, 20.0, lambda: False)
    assert clock.late(10.0) is None  # no window closed yet
    opened = clock.opened(window, Seat.E)
    assert opened["state"] == "opened" and opened["deadline"] == 4.0 and clock.journalled_open
    closed = clock.closed(window, Seat.E, "timer", 12.0)
    assert closed["closed_by"] == "timer" and not clock.journalled_open
    assert clock.late(13.5) == 1.5 and clock.late(11.0) == -1.0


def test_moves_are_read_as_if_the_window_had_closed() -> None:
    deal, after = in_a_claim_window()
    clock = ClaimClock(4.0, 20.0, lambda: False)
    seen = clock.as_seen(deal)
    assert seen is not None and seen is not deal and seen.window is None
    assert clock.as_seen(deal) is seen  # one trial per step of the deal
    # the plan's next move is the next player's draw: the real deal refuses it (the window
    # is open), the deal as seen takes it, and it closes the window early
    nxt = next(m for m in after if not isinstance(m, mv.CloseClaims) and not is_claim(m))
    assert isinstance(nxt, mv.Draw)
    assert deal.check(nxt) is not None and seen.check(nxt) is None
    assert closes_early(deal, nxt) and not closes_early(deal, mv.CloseClaims())


def test_a_move_read_on_the_trial_is_offered_on_the_same_trial() -> None:
    """A draw after a discard deep-copied the judge twice on its way to the journal: once
    to be read (`as_seen`), once more when offered (`closes_early`), 1.5 ms of CPU each."""
    deal, after = in_a_claim_window()
    clock = ClaimClock(4.0, 20.0, lambda: False)
    seen = clock.as_seen(deal)
    nxt = next(m for m in after if not isinstance(m, mv.CloseClaims) and not is_claim(m))
    assert clock.closes_early(deal, nxt) and not clock.closes_early(deal, mv.CloseClaims())
    assert clock.trial(deal) is seen
    deal.apply(mv.CloseClaims())  # the deal moved: its next trial is made anew
    assert clock.trial(deal) is not seen and clock.as_seen(deal) is deal


def test_the_hold_back_queue_gives_back_in_order_and_counts_the_shuffles() -> None:
    held = HoldBack(limit=4)
    read = TagsRead(2.0, 1, (b"\x01",), (0x5D,))
    held.hold(ShuffleDone(1.0))
    assert held.shuffled
    held.hold_wall_read(read)
    held.hold(WallsUp(3.0))
    held.hold(DiceRolled(4.0, 2, 3))
    held.hold_wall_read(read)  # the limit reached: a wall read is not kept
    held.hold(SeatButton(5.0, Seat.S, Button.HU))  # the table's events always are
    taken = []
    while (ev := held.take()) is not None:
        taken.append(ev)
        if isinstance(ev, ShuffleDone):
            assert not held.shuffled
    assert [type(e).__name__ for e in taken] == [
        "ShuffleDone",
        "TagsRead",
        "WallsUp",
        "DiceRolled",
        "SeatButton",
    ]


def test_the_table_is_reconciled_once_the_reader_settled_and_retried_before_the_referee() -> None:
    resume = Resume(settle=3, recovering=True)
    assert not resume.due(100)  # no link came back yet
    resume.links_back(10)
    assert not resume.due(12) and resume.due(13) and not resume.due(14)
    for tries in range(RECONCILE_TRIES):
        assert resume.again(20 + tries)
        assert resume.due(23 + tries)
    assert not resume.again(40)  # the referee is called now
    assert resume.recovering
    resume.done()
    assert not resume.recovering
    resume.links_back(50)
    resume.link_lost("reader")
    assert not resume.due(60)
