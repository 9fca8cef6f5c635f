"""Deal.play (apply without the Accepted value, for drivers that read no facts) changes a
deal exactly as apply does and refuses the same moves with the same values; so do the
bots' draws, discards and silent closes (`rules.deal_play`)."""

import dataclasses
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from rules.bots import DEFAULT_STYLE, BotTable, new_deal
from rules.claims import Window, WindowKind, discard_window
from rules.deal import Deal
from rules.deal_play import draw_live, play_close, play_discard, play_draw
from rules.moves import Accepted, CloseClaims, Discard, Draw, Pung, Reason
from rules.random_deals import deal_seed
from rules.ruleset import load
from rules.seats import SEATS, Seat
from rules.tiles import TILES

RULES = ["sbr-mil", "sbr-russia", "sbr-chengdu2016", "wmt"]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULES))
def test_play_and_apply_leave_twin_deals_in_the_same_state(seed, rules):
    rs = load(rules)
    rng = random.Random(seed)
    deal = new_deal(rs, rng)
    twin = Deal.start(rs, deal.dice, deal.wall_order)
    table = BotTable(rs, rng)
    while not deal.over:
        move = table.next_move(deal)
        assert deal.apply(move)
        assert twin.play(move) is None
        assert twin.snapshot() == deal.snapshot()
    assert twin.ledger() == deal.ledger() and twin.moves == deal.moves
    assert twin.history == deal.history


def test_play_refuses_as_apply_does_and_changes_nothing():
    rs = load("sbr-mil")
    deal = new_deal(rs, random.Random(deal_seed(1, 0)))
    table = BotTable(rs, random.Random(1))
    while deal.phase.value == "choosing-void":
        assert deal.play(table.next_move(deal)) is None
    before = deal.snapshot()
    for move in (Draw(Seat.E), Discard(Seat.S, TILES[0]), Pung(Seat.W), "not a move"):
        refused = deal.play(move)  # type: ignore[arg-type]
        assert refused is not None and refused == deal.apply(move)  # type: ignore[arg-type]
        assert deal.snapshot() == before
    assert deal.play(Draw(Seat.E)).reason is Reason.WRONG_PHASE  # type: ignore[union-attr]


def test_replay_and_record_judge_through_play_reach_the_same_ledger():
    rs = load("wmt")
    rng = random.Random(deal_seed(7, 3))
    deal = new_deal(rs, rng)
    table = BotTable(rs, rng)
    while not deal.over:
        assert deal.apply(table.next_move(deal))
    again = Deal.replay(rs, deal.dice, deal.wall_order, deal.history)
    assert again.ledger() == deal.ledger() and again.winners == deal.winners


def _both_ways(deal: Deal, twin: Deal, move: Draw | Discard | CloseClaims) -> None:
    """`rules.deal_play` on `deal`, `Deal.apply` on its twin: the same answer, the same
    state (the wall included)."""
    refused = deal.check(move)
    problem = _PLAY[type(move)](deal, move)
    result = twin.apply(move)
    if refused is None:
        assert problem is None and isinstance(result, Accepted)
    else:
        assert problem is not None and (problem[0], problem[1]) == (refused.reason, refused.detail)
        assert result == refused
    assert deal.snapshot() == twin.snapshot()
    # the judge's own window, every field (a check may have asked `wins` on one side only)
    assert _window_fields(deal) == _window_fields(twin)
    for kongs in ("_window_kongs", "_kong_chain"):
        ours, theirs = getattr(deal, kongs), getattr(twin, kongs)
        assert [(k.seat, k.meld, k.refunded) for k in ours] == [
            (k.seat, k.meld, k.refunded) for k in theirs
        ]
    assert (deal.wall.tiles_left, deal.wall.last_index) == (
        twin.wall.tiles_left,
        twin.wall.last_index,
    )


def _window_fields(deal: Deal) -> tuple | None:
    w = deal._window
    if w is None:
        return None
    return tuple(getattr(w, f.name) for f in dataclasses.fields(w) if f.name != "wins")


_PLAY = {Draw: play_draw, Discard: play_discard, CloseClaims: play_close}


@pytest.mark.parametrize(("rules", "seed"), [("sbr-mil", 1), ("wmt", 2), ("sbr-russia", 3)])
def test_the_moves_of_a_turn_are_checked_and_played_as_the_judge_does(rules, seed):
    rs = load(rules)
    rng = random.Random(deal_seed(seed, 1))
    deal = new_deal(rs, rng)
    table = BotTable(rs, rng, replace(DEFAULT_STYLE, void_breach=0.3))
    twin = Deal.start(rs, deal.dice, deal.wall_order)
    # a hand-dealt table (no wall antenna): every live draw names its tile
    dealt = Deal.start_dealt(rs, deal.dice, [deal.hand(s) for s in SEATS])
    dealt_twin = Deal.start_dealt(rs, deal.dice, [deal.hand(s) for s in SEATS])
    played = {Draw: 0, Discard: 0, CloseClaims: 0}
    while not deal.over:
        move = table.next_move(deal)
        kind = type(move)
        if kind in _PLAY:
            seat = getattr(move, "seat", Seat.E)
            wrong: list[Draw | Discard | CloseClaims] = [CloseClaims()]
            if kind is Draw:
                wrong += [Draw(seat.after(1), move.tile), Draw(seat, TILES[(move.tile + 1) % 27])]
            elif kind is Discard:
                lacking = next(t for t in TILES if not deal.held(seat, t))
                wrong += [Discard(seat.after(1), move.tile), Discard(seat, lacking)]
                wrong += [Discard(seat, t) for t in TILES if deal.held(seat, t)]  # void order
            for other in wrong:
                if deal.check(other) is not None:
                    _both_ways(deal, twin, other)  # refused: nothing changes
            _both_ways(deal, twin, move)
            played[kind] += 1
            if not dealt.over:
                if kind is Draw:
                    _both_ways(dealt, dealt_twin, Draw(move.seat))  # the tile must be named
                _both_ways(dealt, dealt_twin, move)
            continue
        assert deal.play(move) is None and twin.play(move) is None
        if not dealt.over:
            assert dealt.play(move) is None and dealt_twin.play(move) is None
    assert min(played.values()) >= 10
    assert deal.ledger() == twin.ledger()  # (`rules.deal_play` keeps no history)


def test_the_discard_window_is_the_window_the_class_makes():
    for last, after_kong, first in (
        (False, False, False),
        (True, True, True),
        (False, True, False),
    ):
        args = (TILES[5], Seat.S, (Seat.W, Seat.N, Seat.E), last, after_kong, first)
        made = discard_window(*args)
        assert made == Window(WindowKind.DISCARD, *args)
        assert made.declared == {} and made.wins == [None] * 4 and made.kong_index == -1
    assert discard_window(*args).wins is not made.wins  # each window its own


@pytest.mark.parametrize(("rules", "seed"), [("sbr-mil", 4), ("wmt", 5)])
def test_a_live_draw_made_and_played_at_once_is_the_draw_the_judge_plays(rules, seed):
    rs = load(rules)
    rng = random.Random(deal_seed(seed, 2))
    deal = new_deal(rs, rng)
    table = BotTable(rs, rng)
    twin = Deal.start(rs, deal.dice, deal.wall_order)
    drawn = 0
    while not deal.over:
        if deal.phase.value != "draw":
            before = deal.snapshot()
            assert draw_live(deal, 1.0) is None  # not a draw's turn: nothing taken
            assert deal.snapshot() == before
            move = table.next_move(deal)
            assert deal.play(move) is None and twin.play(move) is None
            continue
        expected = Draw(deal.turn, deal.wall.peek(), t=table.now)
        move = draw_live(deal, table.now)
        assert move == expected and type(move) is Draw
        assert isinstance(twin.apply(move), Accepted)
        assert deal.snapshot() == twin.snapshot()
        assert (deal.wall.tiles_left, deal.wall.last_index) == (
            twin.wall.tiles_left,
            twin.wall.last_index,
        )
        drawn += 1
    assert drawn >= 10


def test_a_live_draw_of_an_unknown_tile_is_left_to_the_named_draw():
    rs = load("sbr-mil")
    deal = new_deal(rs, random.Random(deal_seed(1, 5)))
    dealt = Deal.start_dealt(rs, deal.dice, [deal.hand(s) for s in SEATS])
    table = BotTable(rs, random.Random(2))
    while dealt.phase.value != "draw":
        assert dealt.play(table.next_move(dealt)) is None
    before = dealt.snapshot()
    assert draw_live(dealt, 1.0) is None  # the wall's next tile is not known
    assert dealt.snapshot() == before and dealt.wall.tiles_left == deal.wall.tiles_left
