"""SVG pictures of the deal sheet, made here: the wall seen from above with the dice and the
break, and a session's score progression.

The wall: fixed seats E at the bottom, S on the right, W at the top, N on the left (play
passes E→S→W→N, counter-clockwise seen from above, RULES.md "Notation"). Each player's wall
lies in front of them, stacks counted from the owner's right end, clockwise (rules/wall.py).
A stack is coloured by what became of its two tiles: dealt, drawn live, taken as a kong
replacement, or still in the wall at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from controller.referee.rebuild import Rebuilt
from controller.words import plural
from rules.moves import ReplacementDraw
from rules.seats import SEATS, Seat
from rules.wall import RING, Dice, Geometry, break_for

FATE_COLOURS = {
    "dealt": "#b9c3cf",
    "live": "#6c9bd2",
    "replacement": "#e39b3c",
    "left": "#ffffff",
}
SEAT_COLOURS = ("#c62828", "#1f5fa8", "#1d7f4e", "#7b4bb3")  # E S W N
_STACK_W, _STACK_H = 16, 22
_SIZE = 360


def fates(rb: Rebuilt) -> dict[int, str]:
    """Physical index → dealt / live / replacement / left (in the wall at the end)."""
    out = {i: "dealt" for i in range(len(rb.wall)) if i not in rb.moments[0].remaining}
    steps = rb.source.steps
    for k in range(1, len(rb.moments)):
        gone = rb.moments[k - 1].remaining - rb.moments[k].remaining
        if not gone:
            continue
        seq = steps[k - 1].seq
        lo = steps[k - 2].seq if k > 1 else 0
        repl = any(lo < e.at <= seq and isinstance(e.move, ReplacementDraw) for e in rb.entries)
        for i in gone:
            out[i] = "replacement" if repl else "live"
    for i in rb.moments[-1].remaining:
        out[i] = "left"
    return out


def _side_xy(side: Seat, j: int, n: int) -> tuple[float, float, float, float]:
    """Top-left corner and size of stack `j` (of `n`) of the wall in front of fixed `side`."""
    span = n * _STACK_W
    c = _SIZE / 2
    if side is Seat.E:  # bottom, right end first: right to left
        return c + span / 2 - (j + 1) * _STACK_W, _SIZE - 40, _STACK_W, _STACK_H
    if side is Seat.S:  # right, top to bottom (S faces left: its right end is at the top)
        return _SIZE - 40, c - span / 2 + j * _STACK_W, _STACK_H, _STACK_W
    if side is Seat.W:  # top, left to right
        return c - span / 2 + j * _STACK_W, 18, _STACK_W, _STACK_H
    return 18, c + span / 2 - (j + 1) * _STACK_W, _STACK_H, _STACK_W  # N: left, bottom up


def _die(x: float, y: float, value: int) -> str:
    pips = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }[value]
    out = [f'<rect x="{x}" y="{y}" width="34" height="34" rx="6" fill="#fff" stroke="#333"/>']
    for u, v in pips:
        fill = "#c62828" if value == 1 else "#222"
        out.append(f'<circle cx="{x + 17 + 9 * u}" cy="{y + 17 + 9 * v}" r="3.4" fill="{fill}"/>')
    return "".join(out)


def wall_svg(rb: Rebuilt) -> str:
    jd = rb.source
    rs = jd.rules
    dice = Dice(*jd.started.dice)
    brk = break_for(dice, rs.wall.indent)
    geo = Geometry(rs.tiles.wall_stacks)
    first = geo.first_stack(brk)
    fate = fates(rb)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_SIZE} {_SIZE}" '
        f'width="{_SIZE}" height="{_SIZE}" class="wall" role="img">'
        f"<title>The wall: dice {dice}, broken in {rb.fixed(brk.wall)}'s wall after stack "
        f"{brk.indent}</title>",
        f'<rect x="1" y="1" width="{_SIZE - 2}" height="{_SIZE - 2}" fill="#f4f1e8" stroke="#999"/>',
    ]
    at = 0
    for deal_side in RING:
        n = rs.tiles.wall_stacks[deal_side]
        side = rb.fixed(deal_side)
        for j in range(n):
            stack = at + j
            x, y, w, h = _side_xy(side, j, n)
            top, bottom = fate.get(2 * stack, "left"), fate.get(2 * stack + 1, "left")
            # two halves: the top tile (outer half) and the bottom tile (inner half)
            if w < h:  # E/W walls: halves stacked vertically
                parts.append(_rect(x, y, w, h / 2, top) + _rect(x, y + h / 2, w, h / 2, bottom))
            else:
                parts.append(_rect(x, y, w / 2, h, top) + _rect(x + w / 2, y, w / 2, h, bottom))
            if stack == first:
                parts.append(_break_mark(side, x, y, w, h))
        at += n
        parts.append(_side_label(rb, side, deal_side))
    c = _SIZE / 2
    parts.append(_die(c - 40, c - 44, dice.a) + _die(c + 6, c - 44, dice.b))
    parts.append(
        f'<text x="{c}" y="{c + 12}" text-anchor="middle" font-size="12">dice {dice.a}+{dice.b}'
        f" = {dice.total}</text>"
        f'<text x="{c}" y="{c + 28}" text-anchor="middle" font-size="12">break: '
        f"{rb.fixed(brk.wall)}'s wall, {plural(brk.indent, 'stack')} in</text>"
    )
    parts.append("</svg>")
    return "".join(parts)


def _rect(x: float, y: float, w: float, h: float, fate: str) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
        f'fill="{FATE_COLOURS[fate]}" stroke="#444" stroke-width="0.6"/>'
    )


def _break_mark(side: Seat, x: float, y: float, w: float, h: float) -> str:
    """A red bar on the break side of the first stack dealt (its counter-clockwise side)."""
    if side is Seat.E:
        bar = (x + w, y - 6, x + w, y + h + 6)
    elif side is Seat.S:
        bar = (x - 6, y, x + w + 6, y)
    elif side is Seat.W:
        bar = (x, y - 6, x, y + h + 6)
    else:
        bar = (x - 6, y + h, x + w + 6, y + h)
    return (
        f'<line x1="{bar[0]:.1f}" y1="{bar[1]:.1f}" x2="{bar[2]:.1f}" y2="{bar[3]:.1f}" '
        'stroke="#d00" stroke-width="4"/>'
    )


def _side_label(rb: Rebuilt, side: Seat, deal_side: Seat) -> str:
    name = escape(rb.source.started.players[side])
    dealer = " (dealer)" if deal_side is Seat.E else ""
    c = _SIZE / 2
    text = f"{side} {name}{dealer}"
    if side is Seat.E:
        return f'<text x="{c}" y="{_SIZE - 6}" text-anchor="middle" font-size="12">{text}</text>'
    if side is Seat.W:
        return f'<text x="{c}" y="12" text-anchor="middle" font-size="12">{text}</text>'
    x = _SIZE - 8 if side is Seat.S else 12
    rot = -90 if side is Seat.S else 90
    return (
        f'<text x="{x}" y="{c}" text-anchor="middle" font-size="12" '
        f'transform="rotate({rot} {x} {c})">{text}</text>'
    )


def legend_svg() -> str:
    items = [
        ("dealt", "dealt"),
        ("live", "drawn"),
        ("replacement", "kong replacement"),
        ("left", "still in the wall"),
    ]
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="520" height="22" viewBox="0 0 520 22" class="legend">'
    ]
    x = 2
    for fate, label in items:
        parts.append(_rect(x, 4, 14, 14, fate))
        parts.append(f'<text x="{x + 19}" y="16" font-size="12">{label}</text>')
        x += 28 + 7 * len(label)
    parts.append(f'<line x1="{x}" y1="3" x2="{x}" y2="19" stroke="#d00" stroke-width="4"/>')
    parts.append(f'<text x="{x + 6}" y="16" font-size="12">the break</text></svg>')
    return "".join(parts)


def progression_svg(
    labels: Sequence[str], totals: Sequence[Sequence[int]], names: Sequence[str]
) -> str:
    """Cumulative totals per seat: `totals[i]` after point `labels[i]` (the first point is
    the start, all zero)."""
    w, h, left, right, top, bottom = 640, 300, 48, 130, 16, 34
    values = [v for row in totals for v in row] or [0]
    lo, hi = min(0, *values), max(0, *values)
    if hi == lo:
        hi = lo + 1
    step = _tick_step(hi - lo)
    lo, hi = step * (lo // step), step * -(-hi // step)
    n = max(1, len(labels) - 1)

    def px(i: int) -> float:
        return left + (w - left - right) * i / n

    def py(v: float) -> float:
        return top + (h - top - bottom) * (hi - v) / (hi - lo)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" '
        f'height="{h}" class="chart" role="img"><title>Score progression</title>'
    ]
    v = lo
    while v <= hi:
        parts.append(
            f'<line x1="{left}" y1="{py(v):.1f}" x2="{w - right}" y2="{py(v):.1f}" '
            f'stroke="{"#555" if v == 0 else "#ddd"}" stroke-width="1"/>'
            f'<text x="{left - 6}" y="{py(v) + 4:.1f}" text-anchor="end" font-size="11">{v:+d}</text>'
        )
        v += step
    for i, label in enumerate(labels):
        parts.append(
            f'<text x="{px(i):.1f}" y="{h - bottom + 16}" text-anchor="middle" '
            f'font-size="11">{escape(label)}</text>'
        )
    for s in SEATS:
        pts = " ".join(f"{px(i):.1f},{py(row[s]):.1f}" for i, row in enumerate(totals))
        colour = SEAT_COLOURS[s]
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
        for i, row in enumerate(totals):
            parts.append(f'<circle cx="{px(i):.1f}" cy="{py(row[s]):.1f}" r="3" fill="{colour}"/>')
        ly = top + 18 * s + 8
        final = totals[-1][s] if totals else 0
        parts.append(
            f'<rect x="{w - right + 12}" y="{ly - 8}" width="12" height="4" fill="{colour}"/>'
            f'<text x="{w - right + 30}" y="{ly}" font-size="12">{s} {escape(names[s][:10])} '
            f"{final:+d}</text>"
        )
    parts.append(
        f'<text x="{(w - right + left) / 2}" y="{h - 4}" text-anchor="middle" '
        'font-size="11">deal</text></svg>'
    )
    return "".join(parts)


def _tick_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if span / step <= 8:
            return step
    return 1000 * (span // 8000 + 1)
