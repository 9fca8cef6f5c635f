"""Seeded bots: deterministic, only legal moves, a consistent clock and claim windows, and
their style knobs reach the rules they are there for."""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from rules.bots import Bot, BotTable, Style, new_deal, play_deal
from rules.deal import Phase
from rules.moves import (
    ChooseVoid,
    CloseClaims,
    Correction,
    Discard,
    Draw,
    Hu,
    Pass,
    Penalty,
    ReplacementDraw,
    RobKong,
)
from rules.random_deals import Category, run
from rules.ruleset import VoidDiscard, load
from rules.seats import SEATS

RULES = ["sbr-mil", "sbr-russia", "sbr-chengdu2016", "wmt"]


def test_a_seed_is_a_deal():
    rs = load("sbr-mil")
    _, a = play_deal(rs, 42)
    _, b = play_deal(rs, 42)
    _, c = play_deal(rs, 43)
    assert a == b
    assert a.wall != c.wall or a.moves != c.moves


def _legal(deal, move) -> bool:
    """The move (without its time; a draw without the tile it names) is one the judge lists
    for its seat."""
    bare = replace(move, t=None)
    if isinstance(bare, Draw | ReplacementDraw):
        bare = replace(bare, tile=None)
    return bare in deal.legal_moves(bare.seat, include_false_hu=True)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULES))
def test_bots_only_make_legal_moves_on_a_monotonic_clock(seed, rules):
    rs = load(rules)
    rng = random.Random(seed)
    deal = new_deal(rs, rng)
    table = BotTable(rs, rng)
    last_t = 0.0
    opened = None  # time the current claim window opened
    while (move := table.next_move(deal)) is not None:
        assert move.t is not None and move.t >= last_t, (move, last_t)
        last_t = move.t
        if isinstance(move, CloseClaims):
            # the controller's clock: claim_seconds after the discard (004 Lesson 4)
            assert deal.window is not None and opened is not None
            assert move.t <= round(opened + rs.play.claim_seconds, 1) + 1e-9
        elif not isinstance(move, Penalty | Correction):
            if isinstance(move, Hu | RobKong | Pass):
                assert opened is not None and move.t < opened + rs.play.claim_seconds
            assert _legal(deal, move), move  # a false Hu is legal too (and settled)
        result = deal.apply(move)
        assert result, (move, result)
        if isinstance(move, Discard) or (deal.phase is Phase.ROBBING and opened is None):
            opened = move.t
        if deal.window is None:
            opened = None


def test_bot_choose_answers_only_for_the_seat_on_turn():
    rs = load("sbr-mil")
    rng = random.Random(5)
    deal = new_deal(rs, rng)
    bot = Bot(rng)
    for seat in SEATS:
        move = bot.choose(deal, seat, 1.0)
        assert isinstance(move, ChooseVoid) and move.seat is seat and move.t == 1.0
        assert deal.apply(move)
    assert deal.phase is Phase.DISCARD and deal.turn is SEATS[0]
    assert bot.choose(deal, SEATS[1]) is None
    move = bot.choose(deal, SEATS[0])
    assert move is not None and move.seat is SEATS[0]
    # the face-down void tile is East's mandatory first discard (004 Lesson 2)
    if isinstance(move, Discard):
        assert move.tile == deal.laid_tile(SEATS[0]) or deal.laid_tile(SEATS[0]) is None


def test_strict_mode_bots_never_break_the_void_order():
    rs = load("wmt")
    assert rs.play.void_discard is VoidDiscard.STRICT
    greedy = Style(void_breach=1.0)  # would always break it where allowed
    summary = run(rs, 60, 3, style=greedy, rejudge=False)
    assert not summary.violations  # every move was accepted under strict rules


def test_lenient_breaches_reach_the_void_penalty():
    rs = load("sbr-mil")
    assert rs.play.void_discard is VoidDiscard.LENIENT
    summary = run(rs, 60, 3, style=Style(void_breach=0.5), rejudge=False)
    assert summary.counts.get(Category.VOID_PENALTY, 0) > 0
    calm = run(rs, 60, 3, style=Style(void_breach=0.0, false_hu=0.0), rejudge=False)
    assert summary.counts.get(Category.VOID_PENALTY, 0) > calm.counts.get(Category.VOID_PENALTY, 0)


def test_letting_winning_tiles_go_reaches_the_skipped_hu_lock():
    rs = load("sbr-mil")
    summary = run(rs, 40, 9, style=Style(hu=0.0, self_drawn_hu=0.0), rejudge=False)
    assert summary.counts.get(Category.HU_PASSED, 0) > 0
    assert summary.counts.get(Category.HU_DISCARD, 0) == 0
    assert summary.counts.get(Category.HU_SELF_DRAWN, 0) == 0


@pytest.mark.parametrize("rules", RULES)
def test_false_hu_style(rules):
    rs = load(rules)
    never = run(rs, 30, 1, style=Style(false_hu=0.0), rejudge=False)
    often = run(rs, 30, 1, style=Style(false_hu=0.05), rejudge=False)
    assert never.counts.get(Category.FALSE_HU, 0) == 0
    assert often.counts.get(Category.FALSE_HU, 0) > 0
    assert not never.violations and not often.violations
