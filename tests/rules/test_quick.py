"""Quick constructors (rules.quick) make the very values the dataclasses make."""

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given, strategies as st

from rules.claims import Resolution, _new_resolution
from rules.deal import _new_won
from rules.deal_effects import _new_melded
from rules.melds import Meld, MeldKind, set_of
from rules.moves import (
    CloseClaims,
    Discard,
    Draw,
    Drawn,
    Melded,
    Won,
    new_close_claims,
    new_discard,
    new_draw,
    new_drawn,
)
from rules.quick import builder, twin
from rules.ruleset import Payer
from rules.score import PatternHit, Score
from rules.scoring import _new_hit, _new_score
from rules.seats import SEATS
from rules.settlement import LedgerLine, _new_line
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


@given(seats, st.none() | seats, st.integers(1, 500), st.text(max_size=8), st.text(max_size=8))
def test_a_ledger_line_built_quickly_equals_the_dataclass_value(payer, payee, points, why, rule):
    quick, slow = (
        _new_line(payer, payee, points, why, rule),
        LedgerLine(payer, payee, points, why, rule),
    )
    assert type(quick) is type(slow)
    assert quick == slow and hash(quick) == hash(slow) and repr(quick) == repr(slow)


@given(seats, tiles, st.sampled_from([k for k in MeldKind if k is not MeldKind.CHOW]), seats)
def test_sets_made_once_equal_the_dataclass_values(seat, tile, kind, discarder):
    meld = set_of(kind, tile)
    assert meld == Meld(kind, tile) and hash(meld) == hash(Meld(kind, tile))
    assert _new_melded(seat, meld, discarder) == Melded(seat, meld, discarder)
    resolution = _new_resolution((), seat, None, (discarder,))
    assert resolution == Resolution((), seat, None, (discarder,))


@given(seats, st.none() | tiles, st.booleans(), st.integers(0, 512), st.integers(1, 4))
def test_scores_and_wins_built_quickly_equal_the_dataclass_values(seat, tile, false, value, order):
    hit = _new_hit("kong", 1, "kong: pung 5p")
    assert hit == PatternHit("kong", 1, "kong: pung 5p")
    score = _new_score((hit,), 1, value, 2, Payer.USUAL, ())
    assert score == Score((hit,), 1, value, 2, Payer.USUAL)
    won = _new_won(seat, tile, None, false, value, order, score)
    assert won == Won(seat, tile, None, false, value, order, score)
    assert repr(won) == repr(Won(seat, tile, None, false, value, order, score))
    with pytest.raises(TypeError):
        _new_won(seat, tile)  # every field, in order


def test_quick_values_copy_and_pickle_like_the_dataclass_values():
    # the one-to-five-field builders fill a twin class and assign it `Draw`: nothing of
    # the twin may show
    quick, slow = new_draw(SEATS[1], TILES[4], 2.5), Draw(SEATS[1], TILES[4], t=2.5)
    for made in (copy.copy(quick), copy.deepcopy(quick), pickle.loads(pickle.dumps(quick))):
        assert type(made) is Draw and made == slow and repr(made) == repr(slow)
    assert not hasattr(quick, "__dict__")


@dataclasses.dataclass(frozen=True, slots=True, weakref_slot=True)
class _Weak:
    a: int
    b: str


def test_a_class_with_more_slots_than_fields_is_built_from_c():
    # `__weakref__` is a slot but no field: no twin of that layout, the builder sets the
    # frozen slots one by one
    build = builder(_Weak)
    assert not build.__name__.startswith("build_")
    assert build(1, "x") == _Weak(1, "x") and type(build(1, "x")) is _Weak


@given(seats, tiles, times)
def test_a_builder_written_out_on_its_twin_makes_the_dataclass_value(seat, tile, t):
    # what `deal_play.draw_live` and `Bot._turn` write out for a draw and a discard
    for cls in (Draw, Discard):
        made = twin(cls)()
        made.t = t
        made.tile = tile
        made.seat = seat
        made.__class__ = cls
        assert type(made) is cls and made == cls(seat, tile, t=t)
        assert repr(made) == repr(cls(seat, tile, t=t))
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.t = 1.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        twin(_Weak)  # built from C, no plain twin
