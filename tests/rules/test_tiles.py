"""Tile and meld notation (RULES.md, Notation)."""

import pytest
from hypothesis import given, strategies as st

from rules.melds import Meld, MeldKind
from rules.seats import Seat
from rules.tiles import (
    TILES,
    NotationError,
    Suit,
    Tile,
    TileSet,
    format_tiles,
    parse_tiles,
    to_counts,
)


def test_parse_groups_in_written_order():
    assert [str(t) for t in parse_tiles("123m456p11s")] == [
        "1m",
        "2m",
        "3m",
        "4p",
        "5p",
        "6p",
        "1s",
        "1s",
    ]


def test_honours_are_1z_to_7z():
    assert Tile.parse("1z") is Tile.EAST
    assert Tile.parse("7z") is Tile.RED
    assert Tile.parse("9s").suit is Suit.S and Tile.parse("9s").rank == 9


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("123x", 3, "unexpected character 'x'"),
        ("12m3", 3, "no suit letter"),
        ("m12", 0, "no digits before it"),
        ("8z", 0, "ranks are 1-7"),
        ("1s0m", 2, "ranks are 1-9"),
        ("12 m", 2, "followed by their suit letter"),
    ],
)
def test_bad_notation_points_at_the_offending_character(text, position, words):
    with pytest.raises(NotationError) as info:
        parse_tiles(text)
    assert info.value.position == position
    assert words in str(info.value)
    caret_line = str(info.value).splitlines()[-1]
    assert caret_line.index("^") - 2 == position


def test_honours_are_rejected_in_a_108_tile_set():
    with pytest.raises(NotationError, match="not in a 108-tile set"):
        parse_tiles("11m5z", TileSet.SUITED_108)
    assert len(parse_tiles("11m5z", TileSet.FULL_136)) == 3


@given(st.lists(st.sampled_from(TILES), max_size=18))
def test_format_then_parse_keeps_the_tiles(tiles):
    assert sorted(parse_tiles(format_tiles(tiles))) == sorted(tiles)


@pytest.mark.parametrize(
    ("text", "kind", "tiles"),
    [
        ("pung 5s", MeldKind.PUNG, "555s"),
        ("kong 7p", MeldKind.KONG, "7777p"),
        ("concealed-kong 2m", MeldKind.CONCEALED_KONG, "2222m"),
        ("promoted-kong 8s", MeldKind.PROMOTED_KONG, "8888s"),
        ("postponed-kong 8s", MeldKind.POSTPONED_KONG, "8888s"),
        ("chow 345m", MeldKind.CHOW, "345m"),
        ("pung 5z", MeldKind.PUNG, "555z"),
    ],
)
def test_meld_notation_round_trips(text, kind, tiles):
    meld = Meld.parse(text)
    assert meld.kind is kind
    assert format_tiles(meld.tiles) == tiles
    assert Meld.parse(str(meld)) == meld


@pytest.mark.parametrize(
    ("text", "position"),
    [("pong 5s", 0), ("pung 5x", 6), ("chow 346m", 5), ("chow 123z", 5), ("pung 56s", 5)],
)
def test_bad_meld_points_at_the_offending_character(text, position):
    with pytest.raises(NotationError) as info:
        Meld.parse(text)
    assert info.value.position == position


def test_meld_kinds_know_kongs_and_robbing():
    assert Meld.parse("kong 1m").is_kong and not Meld.parse("pung 1m").is_kong
    assert MeldKind.PROMOTED_KONG.robbable and not MeldKind.CONCEALED_KONG.robbable


def test_counts_and_seats():
    assert to_counts(parse_tiles("1199m"))[Tile.M1] == 2
    assert Seat.N.next is Seat.E
    assert Seat.parse("s") is Seat.S and Seat.parse(3) is Seat.N
    with pytest.raises(ValueError):
        Seat.parse("X")
