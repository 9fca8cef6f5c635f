"""Tiles, suits, tile sets and the Tenhou-style notation (`123m456p11s`).

A tile kind is a `Tile` (an IntEnum, so it indexes a 34-slot count vector directly):
0-8 Characters (Wan, 万) `1m`-`9m`, 9-17 Dots (Bing/Tong, 饼) `1p`-`9p`,
18-26 Bamboo (Tiao/Suo, 条) `1s`-`9s`, 27-33 honours `1z`-`7z` (E S W N winds,
White Green Red dragons; 136-tile sets only).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum, IntEnum

from rules.errors import RulesError


class Suit(Enum):
    """A suit, by its notation letter."""

    M = "m"  # Characters (Wan)
    P = "p"  # Dots (Bing)
    S = "s"  # Bamboo (Tiao)
    Z = "z"  # honours: winds and dragons

    # Members are singletons compared by identity: hash them by identity too, in C.
    # (`Enum.__hash__` is a Python call, and suits are hashed some 90 times a deal: the
    # void-suit and one-suit tests build sets of them.)
    __hash__ = object.__hash__

    @property
    def offset(self) -> int:
        return _SUIT_OFFSET[self]

    @property
    def size(self) -> int:
        return 7 if self is Suit.Z else 9

    @property
    def is_honour(self) -> bool:
        return self is Suit.Z

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return _SUIT_TILES[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise NotationError(text, 0, "a suit is one of m, p, s (z for honours)") from None

    def __str__(self) -> str:
        return self.value


NUMBER_SUITS: tuple[Suit, ...] = (Suit.M, Suit.P, Suit.S)
_SUIT_OFFSET = {Suit.M: 0, Suit.P: 9, Suit.S: 18, Suit.Z: 27}
_SUIT_OF_INDEX = (Suit.M,) * 9 + (Suit.P,) * 9 + (Suit.S,) * 9 + (Suit.Z,) * 7


class Tile(IntEnum):
    """A tile kind; its value is its index in a count vector."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    WHITE = 31
    GREEN = 32
    RED = 33

    # the tile's suit: an attribute of every member (set below), read some 50 times a
    # deal; an attribute read is a third of a property call
    suit: Suit

    @property
    def rank(self) -> int:
        """1-9 for number tiles, 1-7 for honours."""
        return self - _SUIT_OFFSET[_SUIT_OF_INDEX[self]] + 1

    @property
    def is_honour(self) -> bool:
        return self >= 27

    @property
    def is_terminal(self) -> bool:
        return self < 27 and self.rank in (1, 9)

    @classmethod
    def of(cls, suit: Suit, rank: int) -> Tile:
        if not 1 <= rank <= suit.size:
            raise ValueError(f"rank {rank} is out of range for suit {suit}")
        return TILES[suit.offset + rank - 1]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """One tile, e.g. `5p`."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise NotationError(text, 0, f"expected one tile, got {len(tiles)}")
        return tiles[0]

    def __str__(self) -> str:
        return _TILE_TEXT[self]

    def __repr__(self) -> str:
        return f"Tile({self})"


TILES: tuple[Tile, ...] = tuple(Tile)
for _tile in TILES:
    _tile.suit = _SUIT_OF_INDEX[_tile]
del _tile
_TILE_TEXT = tuple(f"{t.rank}{t.suit.value}" for t in TILES)  # `str(tile)`: `5p`
_SUIT_TILES = {s: TILES[s.offset : s.offset + s.size] for s in Suit}
N_KINDS = 34


class TileSet(Enum):
    """The physical set a rule set plays with."""

    SUITED_108 = 108  # three suits, 4 copies each (Sichuan)
    FULL_136 = 136  # three suits, winds and dragons

    @property
    def kinds(self) -> tuple[Tile, ...]:
        return TILES[:27] if self is TileSet.SUITED_108 else TILES

    @property
    def suits(self) -> tuple[Suit, ...]:
        return NUMBER_SUITS if self is TileSet.SUITED_108 else (*NUMBER_SUITS, Suit.Z)

    def contains(self, tile: Tile) -> bool:
        return self is TileSet.FULL_136 or not tile.is_honour


class NotationError(RulesError, ValueError):
    """Bad tile or meld notation; `position` is the index of the offending character."""

    def __init__(self, text: str, position: int, message: str) -> None:
        self.text = text
        self.position = position
        self.message = message
        super().__init__(f"{message} at character {position + 1}:\n  {text}\n  {' ' * position}^")


def parse_tiles(text: str, tileset: TileSet | None = None) -> tuple[Tile, ...]:
    """Parse `123m456p11s` into tiles, in written order.

    Spaces between groups are allowed. With `tileset`, tiles outside it are errors.

    >>> [str(t) for t in parse_tiles("12m 9s")]
    ['1m', '2m', '9s']
    """
    tiles: list[Tile] = []
    pending: list[tuple[int, int]] = []  # (rank, position)
    for pos, ch in enumerate(text):
        if ch.isdigit():
            pending.append((int(ch), pos))
        elif ch in "mpsz":
            if not pending:
                raise NotationError(text, pos, f"suit letter '{ch}' has no digits before it")
            suit = Suit(ch)
            for rank, rpos in pending:
                if not 1 <= rank <= suit.size:
                    raise NotationError(
                        text, rpos, f"'{rank}{ch}' is not a tile (ranks are 1-{suit.size})"
                    )
                tile = TILES[suit.offset + rank - 1]
                if tileset is not None and not tileset.contains(tile):
                    raise NotationError(
                        text, rpos, f"'{tile}' is not in a {tileset.value}-tile set"
                    )
                tiles.append(tile)
            pending.clear()
        elif ch.isspace():
            if pending:
                raise NotationError(text, pos, "digits must be followed by their suit letter")
        else:
            raise NotationError(text, pos, f"unexpected character {ch!r} (tiles look like 5p)")
    if pending:
        raise NotationError(text, len(text) - 1, "digits at the end have no suit letter")
    return tuple(tiles)


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Sorted compact notation: `format_tiles(parse_tiles("1s9m1m")) == "19m1s"`."""
    ordered = sorted(tiles)
    parts: list[str] = []
    for suit in Suit:
        ranks = "".join(str(t.rank) for t in ordered if t.suit is suit)
        if ranks:
            parts.append(ranks + suit.value)
    return "".join(parts)


def to_counts(tiles: Iterable[Tile]) -> list[int]:
    """A 34-slot count vector."""
    counts = [0] * N_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def from_counts(counts: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(TILES[i] for i, n in enumerate(counts) for _ in range(n))


def suits_in(tiles: Iterable[Tile]) -> frozenset[Suit]:
    return frozenset(t.suit for t in tiles)
