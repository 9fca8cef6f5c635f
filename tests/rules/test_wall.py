"""The physical wall: 004 Lesson 2's worked examples, every dice outcome, 136-tile walls."""

import itertools
import random

import pytest
from hypothesis import given, strategies as st

from rules.ruleset import Indent, ReplacementEnd, load
from rules.seats import Seat
from rules.tiles import TILES, TileSet
from rules.wall import (
    RING,
    Dice,
    Layer,
    Wall,
    WallError,
    WallPosition,
    break_for,
    check_order,
)

RS = load("sbr-mil")
FULL_108 = tuple(t for t in TILES[:27] for _ in range(4))


def shuffled(seed: int, tiles=FULL_108) -> tuple:
    order = list(tiles)
    random.Random(seed).shuffle(order)
    return tuple(order)


@pytest.mark.parametrize(
    ("a", "b", "wall", "indent"),
    [
        (6, 4, Seat.S, 4),  # 004 Example 1
        (2, 2, Seat.N, 2),  # 004 Example 2
        (5, 4, Seat.E, 4),  # 004 Example 3
    ],
)
def test_worked_examples_of_004(a, b, wall, indent):
    brk = break_for(Dice(a, b), Indent.MIN)
    assert (brk.wall, brk.indent) == (wall, indent)
    w = Wall(RS, Dice(a, b), FULL_108)
    w.deal()
    assert w.tiles_left == 55


def test_sum_picks_the_wall_counting_from_east_as_one():
    expected = {5: Seat.E, 9: Seat.E, 2: Seat.S, 6: Seat.S, 10: Seat.S}
    expected |= {3: Seat.W, 7: Seat.W, 11: Seat.W, 4: Seat.N, 8: Seat.N, 12: Seat.N}
    for total, seat in expected.items():
        a = min(6, total - 1)
        assert break_for(Dice(a, total - a)).wall is seat


def test_indent_sum_rule():
    assert break_for(Dice(6, 4), Indent.SUM).indent == 10


def test_example_1_walkthrough_of_figure_3():
    """004 Lesson 2, dice 6+4: South wall, 4 stacks counted from its right end."""
    w = Wall(RS, Dice(6, 4), FULL_108)
    takes = w.deal()
    pos = [t.position for t in takes]
    # East's first take: the first stack after the break, South's 5th stack from the right.
    assert pos[0] == WallPosition(Seat.S, 4, Layer.TOP)
    assert pos[1] == WallPosition(Seat.S, 4, Layer.BOTTOM)
    # Second round, East "takes two stacks from different walls (South wall ended, East
    # wall began)": tiles 16-19.
    assert {p.wall for p in pos[16:20]} == {Seat.S, Seat.E}
    assert pos[16].stack == 12 and pos[18] == WallPosition(Seat.E, 0, Layer.TOP)
    # Third round, North "takes stacks from different walls (East wall also ended, North
    # wall started)": tiles 44-47.
    assert pos[44] == WallPosition(Seat.E, 13, Layer.TOP)
    assert pos[46] == WallPosition(Seat.N, 0, Layer.TOP)
    # East's jump: tops of North stacks 2 and 4 (1st and 3rd after the dealt ones).
    assert [(t.seat, t.position) for t in takes[48:]] == [
        (Seat.E, WallPosition(Seat.N, 1, Layer.TOP)),
        (Seat.E, WallPosition(Seat.N, 3, Layer.TOP)),
        (Seat.S, WallPosition(Seat.N, 1, Layer.BOTTOM)),
        (Seat.W, WallPosition(Seat.N, 2, Layer.TOP)),
        (Seat.N, WallPosition(Seat.N, 2, Layer.BOTTOM)),
    ]
    # "From the side of the main end of the wall, there is a stack of only one tile."
    first = w.draw(Seat.E)
    assert first.position == WallPosition(Seat.N, 3, Layer.BOTTOM)
    assert w.draw(Seat.S).position == WallPosition(Seat.N, 4, Layer.TOP)
    # 55 = 1 + 2*9 (North) + 2*14 (West) + 2*4 (South's indent); the replacement end is the
    # last of South's 4 indent stacks, counted clockwise from its right end.
    assert w.replacement(Seat.W).position == WallPosition(Seat.S, 3, Layer.TOP)
    assert w.replacement(Seat.W).position == WallPosition(Seat.S, 3, Layer.BOTTOM)
    assert w.replacement(Seat.W).position == WallPosition(Seat.S, 2, Layer.TOP)


def test_physical_order_starts_at_easts_right_end():
    w = Wall(RS, Dice(1, 1), FULL_108)
    g = w.geometry
    assert g.position(0) == WallPosition(Seat.E, 0, Layer.TOP)
    assert g.position(1) == WallPosition(Seat.E, 0, Layer.BOTTOM)
    assert g.position(28) == WallPosition(Seat.N, 0, Layer.TOP)  # after East's 14 stacks
    assert g.position(107) == WallPosition(Seat.S, 12, Layer.BOTTOM)
    assert [g.position(2 * s).wall for s in (0, 14, 27, 41)] == list(RING)
    for i in range(108):
        assert g.index(g.position(i)) == i


@pytest.mark.parametrize(("a", "b"), list(itertools.product(range(1, 7), repeat=2)))
def test_every_dice_outcome(a, b):
    order = shuffled(a * 7 + b)
    w = Wall(RS, Dice(a, b), order)
    takes = w.deal()
    per_seat = {s: sum(t.seat is s for t in takes) for s in Seat}
    assert per_seat == {Seat.E: 14, Seat.S: 13, Seat.W: 13, Seat.N: 13}
    assert w.tiles_left == 55
    dealt = {t.index for t in takes}
    assert len(dealt) == 53
    # The dealt tiles are one unbroken run clockwise from the break.
    brk = break_for(Dice(a, b))
    first = 2 * w.geometry.first_stack(brk)
    assert dealt == {(first + k) % 108 for k in range(53)}
    assert takes[0].position.wall is brk.wall
    assert takes[0].position.stack == brk.indent
    # Live draws continue clockwise; replacements come from just before the break.
    d = w.draw(Seat.E)
    assert d.index == (first + 53) % 108
    r = w.replacement(Seat.E)
    assert r.index == (first - 2) % 108
    # Drawing alternately from both ends takes every tile exactly once.
    seen = dealt | {d.index, r.index}
    turn = 0
    while w.tiles_left:
        take = w.draw(Seat.S) if turn % 3 else w.replacement(Seat.S)
        assert take.index not in seen
        assert take.tile == order[take.index]
        seen.add(take.index)
        turn += 1
    assert len(seen) == 108
    with pytest.raises(WallError):
        w.draw(Seat.E)
    with pytest.raises(WallError):
        w.replacement(Seat.E)


def test_last_stack_shared_by_both_ends():
    w = Wall(RS, Dice(3, 4), shuffled(1))
    w.deal()
    while w.tiles_left > 2:
        w.draw(Seat.E)
    a = w.replacement(Seat.E)  # top of the last stack
    b = w.draw(Seat.E)  # the live end skips to the bottom
    assert a.index != b.index and a.index // 2 == b.index // 2
    assert w.tiles_left == 0 and w.peek() is None and w.peek_replacement() is None


def test_head_replacement_takes_the_live_end():
    from dataclasses import replace

    rs = replace(RS, wall=replace(RS.wall, replacement=ReplacementEnd.HEAD))
    w = Wall(rs, Dice(6, 4), shuffled(2))
    w.deal()
    nxt = w.peek()
    assert w.replacement(Seat.E).tile == nxt


def test_136_tile_walls():
    from dataclasses import replace

    rs = replace(
        RS,
        tiles=replace(RS.tiles, set=TileSet.FULL_136, wall_stacks=(17, 17, 17, 17)),
        wall=replace(RS.wall, indent=Indent.SUM),
    )
    full = tuple(t for t in TILES for _ in range(4))
    for a, b in itertools.product(range(1, 7), repeat=2):
        w = Wall(rs, Dice(a, b), shuffled(a + 10 * b, full))
        takes = w.deal()
        assert len(takes) == 53 and w.tiles_left == 136 - 53
        assert takes[0].position.stack == a + b  # the sum indent, 17 stacks a side
        n = 0
        while w.tiles_left:
            w.draw(Seat.E)
            n += 1
        assert n == 83


@given(st.permutations(FULL_108), st.integers(1, 6), st.integers(1, 6))
def test_takes_report_the_tile_at_their_position(order, a, b):
    w = Wall(RS, Dice(a, b), tuple(order))
    for take in w.deal():
        assert order[w.geometry.index(take.position)] == take.tile


def test_bad_orders_are_refused():
    with pytest.raises(WallError, match="107 tiles"):
        check_order(FULL_108[:-1], TileSet.SUITED_108)
    bad = (*FULL_108[:-1], FULL_108[0])
    with pytest.raises(WallError, match="copies"):
        check_order(bad, TileSet.SUITED_108)
    with pytest.raises(ValueError):
        Dice(0, 7)


@pytest.mark.parametrize("dice", [Dice(1, 1), Dice(3, 5), Dice(6, 6), Dice(2, 4)])
def test_dealing_marks_the_planned_positions_taken_and_groups_them_by_seat(dice):
    wall = Wall(RS, dice, shuffled(dice.total))
    plan = wall.deal_out()  # a fresh wall: the dealt positions marked by one mask
    assert [i for i, taken in enumerate(wall._taken) if taken] == sorted(i for _, i in plan)
    assert wall.tiles_left == len(wall.order) - len(plan)
    by_seat = wall.dealt_by_seat()
    assert by_seat == tuple(tuple(i for s, i in plan if s is seat) for seat in Seat)
    assert [len(x) for x in by_seat] == [14, 13, 13, 13]
    # a position taken before the deal (a replacement off the tail) is kept
    early = Wall(RS, dice, shuffled(dice.total))
    tail = early.next_replacement_index()
    assert tail is not None and tail not in {i for _, i in plan}
    early.take(tail)
    early.deal_out()
    assert early._taken[tail] == 1 and sum(early._taken) == len(plan) + 1
