"""SVG tiles: well-formed, one distinct drawing per tile, and the pictures count right."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from controller.outputs.tiles_svg import (
    BLUE,
    GREEN,
    RED,
    parse_name,
    sprite,
    symbol_id,
    tile_svg,
)
from rules.tiles import TILES, Suit, Tile, TileSet

NS = "{http://www.w3.org/2000/svg}"


def _tree(tile):
    return ET.fromstring(tile_svg(tile))


@pytest.mark.parametrize("tile", [*TILES, None], ids=lambda t: str(t or "back"))
def test_every_tile_is_well_formed_svg(tile):
    root = _tree(tile)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == "0 0 60 84"
    assert root.find(f"{NS}title").text


def test_every_drawing_is_distinct():
    drawings = [tile_svg(t) for t in [*TILES, None]]
    assert len(set(drawings)) == len(drawings)


@pytest.mark.parametrize("rank", range(1, 10))
def test_dots_show_rank_many_dots(rank):
    root = _tree(Tile.of(Suit.P, rank))
    dots = [
        c for c in root.iter(f"{NS}circle") if c.get("fill") in (BLUE, GREEN, RED) and c.get("r")
    ]
    # Each dot is a coloured disc; 1p has a small red heart on top of its one disc.
    big = [c for c in dots if float(c.get("r")) > 4]
    assert len(big) == rank


@pytest.mark.parametrize("rank", range(1, 10))
def test_bamboo_shows_rank_many_sticks(rank):
    root = _tree(Tile.of(Suit.S, rank))
    sticks = [r for r in root.iter(f"{NS}rect") if r.get("fill") in (GREEN, RED)]
    sticks = [r for r in sticks if float(r.get("height")) > 10]
    assert len(sticks) == rank


@pytest.mark.parametrize("suit", [Suit.M, Suit.P, Suit.S])
def test_number_tiles_carry_their_rank_in_figures(suit):
    for rank in range(1, 10):
        texts = [t.text for t in _tree(Tile.of(suit, rank)).iter(f"{NS}text")]
        assert texts == [str(rank)]


def test_sprite_holds_every_tile_of_the_set_and_the_back():
    root = ET.fromstring(sprite(TileSet.SUITED_108))
    ids = [s.get("id") for s in root.iter(f"{NS}symbol")]
    assert ids == [symbol_id(t) for t in TileSet.SUITED_108.kinds] + ["t-back"]
    full = ET.fromstring(sprite())
    assert len(list(full.iter(f"{NS}symbol"))) == 35


def test_names():
    assert parse_name("5p") is Tile.P5
    assert parse_name("back") is None
    assert symbol_id(Tile.RED) == "t-7z"
    for bad in ("0p", "5x", "", "5p5p", "../x"):
        with pytest.raises(ValueError):
            parse_name(bad)
