"""Quick constructors (rules.quick) make the very values the dataclasses make."""

import dataclasses

import pytest
from hypothesis import given, strategies as st

from rules.moves import (
    CloseClaims,
    Discard,
    Draw,
    Drawn,
    new_close_claims,
    new_discard,
    new_draw,
    new_drawn,
)
from rules.quick import builder
from rules.seats import SEATS
from rules.tiles import TILES
from rules.wall import Dice, Layer, Take, WallPosition

seats = st.sampled_from(SEATS)
tiles = st.sampled_from(TILES)
times = st.none() | st.floats(0, 10_000, allow_nan=False)


@given(seats, tiles, times)
def test_moves_built_quickly_equal_the_dataclass_values(seat, tile, t):
    pairs = [
        (new_draw(seat, tile, t), Draw(seat, tile, t=t)),
        (new_discard(seat, tile, t), Discard(seat, tile, t=t)),
        (new_close_claims(t), CloseClaims(t=t)),
    ]
    for quick, slow in pairs:
        assert type(quick) is type(slow)
        assert quick == slow and hash(quick) == hash(slow) and repr(quick) == repr(slow)


@given(seats, tiles, st.integers(0, 107), st.booleans(), st.booleans())
def test_a_take_and_its_fact_built_quickly_equal_the_dataclass_values(seat, tile, i, rep, last):
    where = WallPosition(seat, i // 2, Layer.TOP)
    take = builder(Take)(seat, tile, where, i)
    assert take == Take(seat, tile, where, i)
    assert new_drawn(take, rep, last) == Drawn(take, rep, last)


def test_quick_values_stay_frozen():
    draw = new_draw(SEATS[0], TILES[0], 1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        draw.t = 2.0  # type: ignore[misc]


def test_no_quick_constructor_for_a_class_that_checks_its_fields():
    with pytest.raises(TypeError):
        builder(Dice)  # Dice.__post_init__ checks the faces
