"""Declared sets (melds) and their notation: `pung 5s`, `concealed-kong 2m`, `chow 345m`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from rules.tiles import TILES, NotationError, Tile, parse_tiles


class MeldKind(Enum):
    CHOW = "chow"  # 136-tile sets only (Wellness); never declared in Sichuan
    PUNG = "pung"
    KONG = "kong"  # melded kong: three from the hand + a claimed discard
    CONCEALED_KONG = "concealed-kong"  # four from the hand, on one's own turn
    PROMOTED_KONG = "promoted-kong"  # a melded pung + the 4th tile freshly drawn
    POSTPONED_KONG = "postponed-kong"  # a melded pung + the 4th tile from the hand

    # whether it is a kong: an attribute of every member (set below), read for every
    # meld of every scored hand; an attribute read is a third of a property call
    is_kong: bool

    @property
    def robbable(self) -> bool:
        """Promoted and postponed kongs can be robbed; concealed kongs cannot (004 Lesson 4)."""
        return self in (MeldKind.PROMOTED_KONG, MeldKind.POSTPONED_KONG)

    def __str__(self) -> str:
        return str(self.value)


for _kind in MeldKind:
    _kind.is_kong = _kind not in (MeldKind.CHOW, MeldKind.PUNG)


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set; `tile` is its tile (the lowest one for a chow)."""

    kind: MeldKind
    tile: Tile

    def __post_init__(self) -> None:
        if self.kind is MeldKind.CHOW and (self.tile.is_honour or self.tile.rank > 7):
            raise ValueError(f"no chow starts at {self.tile}")

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind is MeldKind.CHOW:
            return (self.tile, Tile(self.tile + 1), Tile(self.tile + 2))
        return (self.tile,) * (4 if self.kind.is_kong else 3)

    @property
    def is_kong(self) -> bool:
        return self.kind.is_kong

    @classmethod
    def parse(cls, text: str) -> Meld:
        """`pung 5s`, `kong 7p`, `concealed-kong 2m`, `promoted-kong 8s`,
        `postponed-kong 8s`, `chow 345m`."""
        stripped = text.strip()
        lead = len(text) - len(text.lstrip())
        word, _, rest = stripped.partition(" ")
        try:
            kind = MeldKind(word.lower())
        except ValueError:
            names = ", ".join(k.value for k in MeldKind)
            raise NotationError(
                text, lead, f"unknown meld kind {word!r} (one of {names})"
            ) from None
        at = lead + len(word) + 1 + (len(rest) - len(rest.lstrip()))
        try:
            tiles = parse_tiles(rest.strip())
        except NotationError as err:
            raise NotationError(text, at + err.position, err.message) from None
        if kind is MeldKind.CHOW:
            ok = (
                len(tiles) == 3
                and not tiles[0].is_honour
                and all(t.suit is tiles[0].suit for t in tiles)
                and sorted(tiles) == [tiles[0] + i for i in range(3)]
            )
            if not ok:
                raise NotationError(text, at, "a chow is three consecutive tiles of one suit")
            return cls(kind, min(tiles))
        if (
            not tiles
            or any(t != tiles[0] for t in tiles)
            or len(tiles) > len(cls(kind, tiles[0]).tiles)
        ):
            raise NotationError(text, at, f"a {kind.value} names one tile, e.g. '{kind.value} 5s'")
        return cls(kind, tiles[0])

    def __str__(self) -> str:
        if self.kind is MeldKind.CHOW:
            return f"chow {self.tile.rank}{self.tile.rank + 1}{self.tile.rank + 2}{self.tile.suit}"
        return f"{self.kind.value} {self.tile}"


def count_meld_tiles(counts: list[int], melds: Iterable[Meld]) -> bool:
    """Add the tiles of `melds` to the 34-slot `counts` (each read from its kind and tile:
    no `Meld.tiles` tuple made); whether any of them is a chow."""
    chow = False
    for m in melds:
        kind, t = m.kind, m.tile
        if kind is MeldKind.CHOW:
            chow = True
            counts[t] += 1
            counts[t + 1] += 1
            counts[t + 2] += 1
        else:
            counts[t] += 4 if kind.is_kong else 3
    return chow


# every pung and kong as one value per tile (melds are immutable values), made once
_SETS: tuple[tuple[Meld, ...], ...] = tuple(
    tuple(Meld(kind, t) for t in TILES) for kind in MeldKind if kind is not MeldKind.CHOW
)
_PUNGS, _KONGS, _CONCEALED, _PROMOTED, _POSTPONED = _SETS


def set_of(kind: MeldKind, tile: Tile) -> Meld:
    """`Meld(kind, tile)` for a pung or a kong of any kind (a value made once)."""
    if kind is MeldKind.PUNG:
        return _PUNGS[tile]
    if kind is MeldKind.KONG:
        return _KONGS[tile]
    if kind is MeldKind.CONCEALED_KONG:
        return _CONCEALED[tile]
    if kind is MeldKind.PROMOTED_KONG:
        return _PROMOTED[tile]
    if kind is MeldKind.POSTPONED_KONG:
        return _POSTPONED[tile]
    return Meld(kind, tile)  # a chow is checked as it is made
