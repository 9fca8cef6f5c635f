"""`Tile.suit` is a plain attribute of each member, `str(tile)` and `Suit.tiles` come from
tables and `Suit` hashes by identity (all for speed): the values stay those of the
notation (RULES.md "Notation")."""

import pickle

from rules.tiles import TILES, Suit, Tile, parse_tiles


def test_every_tile_has_the_suit_of_its_letter():
    for tile in TILES:
        letter = str(tile)[1]
        assert tile.suit is Suit(letter)
        assert parse_tiles(str(tile)) == (tile,)
    # hand-worked: 0-8 m, 9-17 p, 18-26 s, 27-33 z
    assert [TILES[i].suit for i in (0, 8, 9, 17, 18, 26, 27, 33)] == [
        Suit.M, Suit.M, Suit.P, Suit.P, Suit.S, Suit.S, Suit.Z, Suit.Z
    ]  # fmt: skip
    assert pickle.loads(pickle.dumps(Tile.P3)).suit is Suit.P


def test_suits_as_keys():
    assert {Suit.M: 1, Suit.P: 2}[Suit("p")] == 2
    assert len({t.suit for t in TILES}) == 4
    assert Suit.M in frozenset(t.suit for t in TILES[:9]) and Suit.P not in {Suit.M}


def test_tile_text_and_suit_tiles_come_from_their_tables():
    assert [str(t) for t in (Tile.M1, Tile.P9, Tile.S5, Tile.EAST, Tile.RED)] == [
        "1m", "9p", "5s", "1z", "7z"
    ]  # fmt: skip
    assert f"{Tile.P3}" == "3p" and repr(Tile.S9) == "Tile(9s)"
    assert Suit.P.tiles == tuple(TILES[9:18]) and len(Suit.Z.tiles) == 7
    for suit in Suit:
        assert all(t.suit is suit for t in suit.tiles)
        assert "".join(str(t)[0] for t in suit.tiles) == "123456789"[: suit.size]
