"""Tiles drawn as SVG, made here: Characters, Dots, Bamboo 1-9, winds, dragons and the back.

Every tile is 60×84 units: a picture area and, for Dots and Bamboo, an index strip with the
rank in figures, because counting seven or eight dots from across a hall is hard. Characters
show the rank and a red 万 (wan, "ten thousand") drawn as strokes, so no CJK font is needed;
the only text is Latin figures and letters, which every browser can render.

`tile_svg(tile)` is one standalone SVG document; `sprite()` is one SVG of `<symbol>`s
(`id="t-5p"`, `id="t-back"`) that a page inlines once and then uses with
`<svg><use href="#t-5p"/></svg>`.
"""

from __future__ import annotations

from functools import cache

from rules.tiles import Suit, Tile, TileSet

WIDTH, HEIGHT = 60, 84
VIEWBOX = f"0 0 {WIDTH} {HEIGHT}"
BACK = "back"

INK = "#1b1b3a"
BLUE = "#1f5fa8"
GREEN = "#1d7f4e"
RED = "#c62828"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# The picture area for Dots and Bamboo: unit coordinates (-1..1) map to this box.
_CX, _CY, _SX, _SY = 30.0, 33.0, 22.0, 24.0

# Dots: (u, v) positions per rank, the dot radius, and colours in the same order
# (after the usual sets: green and blue for two, red centres, green-over-red for six and seven).
_DOTS: dict[int, tuple[tuple[tuple[float, float], ...], float, str]] = {
    1: (((0, 0),), 17.0, "B"),
    2: (((0, -0.5), (0, 0.5)), 10.5, "GB"),
    3: (((-0.6, -0.62), (0, 0), (0.6, 0.62)), 9.0, "BRG"),
    4: (((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)), 9.5, "BGGB"),
    5: (((-0.58, -0.6), (0.58, -0.6), (0, 0), (-0.58, 0.6), (0.58, 0.6)), 8.0, "BGRGB"),
    6: (
        ((-0.5, -0.66), (0.5, -0.66), (-0.5, 0), (0.5, 0), (-0.5, 0.66), (0.5, 0.66)),
        7.5,
        "GGRRRR",
    ),
    7: (
        (
            (-0.62, -0.78),
            (0, -0.56),
            (0.62, -0.34),
            (-0.5, 0.25),
            (0.5, 0.25),
            (-0.5, 0.78),
            (0.5, 0.78),
        ),
        6.0,
        "GGGRRRR",
    ),
    8: (tuple((u, v) for v in (-0.78, -0.26, 0.26, 0.78) for u in (-0.5, 0.5)), 5.9, "B" * 8),
    9: (tuple((u, v) for v in (-0.66, 0, 0.66) for u in (-0.64, 0, 0.64)), 6.6, "BBBRRRGGG"),
}

# Bamboo: (u, v) stick centres per rank, the stick height, and which sticks are red.
_STICKS: dict[int, tuple[tuple[tuple[float, float], ...], float, frozenset[int]]] = {
    2: (((0, -0.5), (0, 0.5)), 22.0, frozenset()),
    3: (((0, -0.5), (-0.45, 0.5), (0.45, 0.5)), 22.0, frozenset()),
    4: (((-0.42, -0.5), (0.42, -0.5), (-0.42, 0.5), (0.42, 0.5)), 22.0, frozenset()),
    5: (((-0.6, -0.5), (0.6, -0.5), (0, 0), (-0.6, 0.5), (0.6, 0.5)), 22.0, frozenset({2})),
    6: (tuple((u, v) for v in (-0.5, 0.5) for u in (-0.62, 0, 0.62)), 22.0, frozenset()),
    7: (
        ((0, -0.72), *((u, v) for v in (0.0, 0.72) for u in (-0.62, 0, 0.62))),
        16.0,
        frozenset({0}),
    ),
    8: (tuple((u, v) for v in (-0.5, 0.5) for u in (-0.69, -0.23, 0.23, 0.69)), 22.0, frozenset()),
    9: (
        tuple((u, v) for v in (-0.72, 0, 0.72) for u in (-0.62, 0, 0.62)),
        16.0,
        frozenset({1, 4, 7}),
    ),
}

_COLOUR = {"B": BLUE, "G": GREEN, "R": RED}
_WINDS = {1: "E", 2: "S", 3: "W", 4: "N"}


def _xy(u: float, v: float) -> tuple[float, float]:
    return _CX + u * _SX, _CY + v * _SY


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _face() -> str:
    # A darker body below the face gives the tile its thickness.
    return (
        '<rect x="1" y="1" width="58" height="82" rx="8" fill="#cdbf98"/>'
        '<rect x="1" y="1" width="58" height="78" rx="8" fill="#fbf7ea" '
        'stroke="#b8aa84" stroke-width="1.2"/>'
    )


def _index(rank: int, colour: str) -> str:
    # the rank in figures 20 units high (a quarter of the tile): on a hall TV's river tile
    # (80 px wide at 1080p) that is a 20 px figure, read from 5 m
    return (
        f'<text x="30" y="78.5" text-anchor="middle" font-family="{FONT}" font-size="20" '
        f'font-weight="bold" fill="{colour}">{rank}</text>'
    )


def _dots(rank: int) -> str:
    positions, r, colours = _DOTS[rank]
    parts = []
    for (u, v), c in zip(positions, colours, strict=True):
        x, y = (_num(n) for n in _xy(u, v))
        colour = _COLOUR[c]
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="{_num(r)}" fill="{colour}"/>'
            f'<circle cx="{x}" cy="{y}" r="{_num(r * 0.62)}" fill="none" stroke="#fff" '
            f'stroke-width="{_num(max(1.0, r * 0.14))}"/>'
            f'<circle cx="{x}" cy="{y}" r="{_num(r * 0.22)}" fill="#fff"/>'
        )
    if rank == 1:  # the big single dot gets a red heart
        x, y = (_num(n) for n in _xy(0, 0))
        parts.append(f'<circle cx="{x}" cy="{y}" r="3.6" fill="{RED}"/>')
    return "".join(parts) + _index(rank, BLUE if rank != 6 else GREEN)


def _stick(x: float, y: float, h: float, w: float, colour: str) -> str:
    top, mid, bottom = y - h / 2, y, y + h / 2
    return (
        f'<rect x="{_num(x - w / 2)}" y="{_num(top)}" width="{_num(w)}" height="{_num(h)}" '
        f'rx="{_num(w / 2)}" fill="{colour}"/>'
        f'<line x1="{_num(x - w / 2)}" y1="{_num(mid)}" x2="{_num(x + w / 2)}" y2="{_num(mid)}" '
        f'stroke="#fff" stroke-width="1.2"/>'
        f'<line x1="{_num(x)}" y1="{_num(top + 2.5)}" x2="{_num(x)}" y2="{_num(bottom - 2.5)}" '
        f'stroke="#fff" stroke-opacity="0.45" stroke-width="1"/>'
    )


def _bamboo(rank: int) -> str:
    if rank == 1:  # one tall stick with red joints instead of the traditional bird
        x, y = _xy(0, 0)
        body = _stick(x, y, 48.0, 12.0, GREEN)
        joints = "".join(
            f'<rect x="23" y="{_num(y + dy - 1.6)}" width="14" height="3.2" rx="1.6" fill="{RED}"/>'
            for dy in (-12.0, 12.0)
        )
        return body + joints + _index(1, GREEN)
    positions, h, reds = _STICKS[rank]
    sticks = []
    for i, (u, v) in enumerate(positions):
        x, y = _xy(u, v)
        sticks.append(_stick(x, y, h, 7.0, RED if i in reds else GREEN))
    return "".join(sticks) + _index(rank, GREEN)


def _characters(rank: int) -> str:
    # 万 as three strokes: the top bar, the falling left stroke, the hooked right stroke.
    wan = (
        f'<g fill="none" stroke="{RED}" stroke-width="4.6" stroke-linecap="round" '
        f'stroke-linejoin="round">'
        f'<path d="M15 50 H45"/>'
        f'<path d="M27 50 C27 63 24 71 15 78"/>'
        f'<path d="M27 60 H42 C42 69 41 75 35 78"/>'
        f"</g>"
    )
    figure = (
        f'<text x="30" y="41" text-anchor="middle" font-family="{FONT}" font-size="36" '
        f'font-weight="bold" fill="{INK}">{rank}</text>'
    )
    return figure + wan


def _honour(rank: int) -> str:
    if rank in _WINDS:
        return (
            f'<text x="30" y="56" text-anchor="middle" font-family="{FONT}" font-size="44" '
            f'font-weight="bold" fill="{INK}">{_WINDS[rank]}</text>'
        )
    if rank == 5:  # white dragon: the blue frame
        return (
            f'<rect x="11" y="12" width="38" height="56" rx="3" fill="none" stroke="{BLUE}" '
            f'stroke-width="3.5"/><rect x="17" y="18" width="26" height="44" rx="2" fill="none" '
            f'stroke="{BLUE}" stroke-width="1.6"/>'
        )
    if rank == 6:  # green dragon: "F" for fa, as on Western sets
        return (
            f'<text x="30" y="57" text-anchor="middle" font-family="{FONT}" font-size="44" '
            f'font-weight="bold" fill="{GREEN}">F</text>'
        )
    # red dragon: 中, a box pierced by a vertical stroke
    return (
        f'<g fill="none" stroke="{RED}" stroke-width="5" stroke-linecap="round" '
        f'stroke-linejoin="round"><rect x="15" y="28" width="30" height="20" rx="2"/>'
        f'<path d="M30 12 V70"/></g>'
    )


def _back() -> str:
    # The automatic table's tiles: a coloured back over the ivory body.
    return (
        '<rect x="1" y="1" width="58" height="82" rx="8" fill="#cdbf98"/>'
        f'<rect x="1" y="1" width="58" height="78" rx="8" fill="{GREEN}" stroke="#14573a" '
        'stroke-width="1.2"/>'
        '<rect x="7" y="7" width="46" height="66" rx="5" fill="none" stroke="#fff" '
        'stroke-opacity="0.25" stroke-width="1.5"/>'
    )


def _body(tile: Tile | None) -> str:
    if tile is None:
        return _back()
    draw = {Suit.M: _characters, Suit.P: _dots, Suit.S: _bamboo, Suit.Z: _honour}[tile.suit]
    return _face() + draw(tile.rank)


def _label(tile: Tile | None) -> str:
    if tile is None:
        return "face-down tile"
    names = {Suit.M: "Characters", Suit.P: "Dots", Suit.S: "Bamboo"}
    if tile.suit is Suit.Z:
        return ("East", "South", "West", "North", "White", "Green", "Red")[tile.rank - 1]
    return f"{tile.rank} {names[tile.suit]}"


def symbol_id(tile: Tile | None) -> str:
    """`t-5p`, or `t-back` for a face-down tile."""
    return f"t-{BACK if tile is None else tile}"


@cache
def tile_svg(tile: Tile | None) -> str:
    """A standalone SVG document for `tile` (None: the face-down back)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{VIEWBOX}" width="{WIDTH}" '
        f'height="{HEIGHT}" role="img"><title>{_label(tile)}</title>{_body(tile)}</svg>'
    )


@cache
def sprite(tileset: TileSet = TileSet.FULL_136) -> str:
    """One SVG holding a `<symbol>` per tile of `tileset` and the back."""
    symbols = [
        f'<symbol id="{symbol_id(t)}" viewBox="{VIEWBOX}"><title>{_label(t)}</title>'
        f"{_body(t)}</symbol>"
        for t in (*tileset.kinds, None)
    ]
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true">'
        + "".join(symbols)
        + "</svg>"
    )


def parse_name(name: str) -> Tile | None:
    """`5p` → Tile.P5, `back` → None; raises `ValueError` for anything else."""
    if name == BACK:
        return None
    return Tile.parse(name)
