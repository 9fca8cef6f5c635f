"""A moment of a journalled deal as terminal text (`mjtable replay`): the step and what the
judge said, the wall with its break and both ends, each player's hand, melds, river, void
suit and score. Fixed seats E S W N (where the players sit); "dealer" marks this deal's East.
"""

from __future__ import annotations

from datetime import datetime

from controller.referee.journal_deal import Step, Verdict
from controller.referee.rebuild import Moment, Rebuilt
from controller.words import plural
from rules.moves import Won
from rules.ruleset import RuleSet, ScoringMethod
from rules.seats import SEATS, Seat
from rules.tiles import format_tiles
from rules.wall import RING, Dice, Geometry, break_for

HIGHEST_PATTERN = ScoringMethod.HIGHEST_PATTERN

FULL, BOTTOM, TOP, EMPTY = "█", "▄", "▀", "·"


def clock_time(wall: str) -> str:
    """`2026-03-01T10:00:04.120+00:00` → `10:00:04.120` (the wall clock as journalled)."""
    try:
        return datetime.fromisoformat(wall).strftime("%H:%M:%S.%f")[:-3]
    except ValueError:
        return wall


def step_header(rb: Rebuilt, k: int, interactive: bool = False) -> list[str]:
    jd = rb.source
    n = len(jd.steps)
    start = jd.started_record
    mode = "corrections applied" if rb.corrected else "as journalled, corrections not applied"
    keys = "   n/→ next  p/← back  g go to  q quit" if interactive else ""
    lines = [f"Deal {jd.number} ({jd.rules.name}) — step {k}/{n}  [{mode}]{keys}"]
    if k == 0:
        lines.append(
            f"record {start.seq} {clock_time(start.wall)}  deal started, dice "
            f"{jd.started.dice[0]}+{jd.started.dice[1]}, dealer {jd.dealer}"
        )
        return lines
    lines += describe_step(rb, jd.steps[k - 1])
    return lines


def describe_step(rb: Rebuilt, step: Step) -> list[str]:
    jd = rb.source
    rec = step.record
    since = rec.mono - jd.started_record.mono
    who = f"{step.seat} " if step.seat is not None else ""
    verdict = {
        Verdict.ACCEPTED: "judge: accepted",
        Verdict.REJECTED: f"judge: REJECTED ({step.reason})",
        Verdict.ALERT: f"alert {step.reason}",
    }.get(step.verdict)
    lines = [
        f"#{step.number} record {rec.seq} at {clock_time(rec.wall)} (mono {rec.mono:.3f}, "
        f"+{since:.1f} s) source {rec.source}",
        f"  {who}{step.text}" + (f" — {verdict}" if verdict else ""),
    ]
    for ev in step.evidence:
        lines.append(f"  evidence: {ev}")
    for c in jd.corrections:
        if c.correction.corrects == step.seq:
            state = "" if c.active else f" (withdrawn by record {c.withdrawn_by})"
            lines.append(
                f"  CORRECTED by {c.correction.referee} at {clock_time(c.record.wall)} "
                f"(record {c.record.seq}): {c.correction.action}: {c.correction.reason}{state}"
            )
    for r in rb.refused:
        if r.at == step.seq:
            lines.append(f"  no longer fits after the corrections: {r.rejected}")
    return lines


def wall_lines(rb: Rebuilt, m: Moment) -> list[str]:
    jd = rb.source
    rs = jd.rules
    dice = Dice(*jd.started.dice)
    brk = break_for(dice, rs.wall.indent)
    geo = Geometry(rs.tiles.wall_stacks)
    first = geo.first_stack(brk)
    live = None if m.next_live is None else m.next_live // 2
    repl = None if m.next_replacement is None else m.next_replacement // 2
    head = (
        f"Wall: {plural(m.tiles_left, 'tile')} left; dice {dice} → {rb.fixed(brk.wall)}'s wall broken "
        f"after stack {brk.indent}"
    )
    if m.next_live is not None:
        head += f"; live end {rb.wall[m.next_live]} ({_pos(rb, m.next_live)})"
    if m.next_replacement is not None:
        head += f"; replacement end {rb.wall[m.next_replacement]} ({_pos(rb, m.next_replacement)})"
    lines = [head]
    at = 0
    for side in RING:
        cells, marks = [], []
        for i in range(rs.tiles.wall_stacks[side]):
            stack = at + i
            if stack == first:
                cells.append("|")
                marks.append(" ")
            top, bottom = 2 * stack in m.remaining, 2 * stack + 1 in m.remaining
            cells.append(FULL if top and bottom else TOP if top else BOTTOM if bottom else EMPTY)
            marks.append("L" if stack == live else "R" if stack == repl else " ")
        at += rs.tiles.wall_stacks[side]
        fixed = rb.fixed(side)
        label = f"  {fixed} wall {jd.started.players[fixed][:10]:<10}"
        lines.append(f"{label} {''.join(cells)}")
        if "L" in marks or "R" in marks:
            lines.append(f"{' ' * len(label)} {''.join(marks).rstrip()}")
    lines.append(
        f"  ({FULL} two tiles, {BOTTOM} bottom tile only, | the break, L live end, R replacement end)"
    )
    return lines


def _pos(rb: Rebuilt, index: int) -> str:
    p = Geometry(rb.source.rules.tiles.wall_stacks).position(index)
    return f"{rb.fixed(p.wall)} wall stack {p.stack + 1} {p.layer.value}"


def won_text(w: Won, rs: RuleSet) -> str:
    """`on 5m, value 8`; under highest-pattern scoring (Wellness, 001 II 3) the one pattern
    and the bonuses: `on 5m, qin-dui 800 + dragon-pung 100 = 900`."""
    if w.false_hu:
        return "false Hu"
    on = f"on {w.tile}"
    score = w.score
    if score is None or not score.patterns or rs.scoring.method is not HIGHEST_PATTERN:
        return f"{on}, value {w.value}"
    base = score.value - sum(b.points for b in score.bonuses)
    parts = [f"{score.patterns[0].name} {base}", *(f"{b.name} {b.points}" for b in score.bonuses)]
    total = f" = {score.value}" if score.bonuses else ""
    return f"{on}, {' + '.join(parts)}{total}"


def seat_status(rb: Rebuilt, m: Moment, seat: Seat) -> str:
    """`void m (laid 3m)` under a void-suit rule set; otherwise the seat's wind in the deal
    and the prevalent wind (Wellness, 001 II 3: both are scored)."""
    if not rb.source.rules.play.void_suit:
        wind = SEATS[(seat - rb.source.dealer) % 4]
        return f"wind {wind}, round {rb.deal.prevalent}"
    void = m.voids[seat]
    text = "void ?" if void is None else f"void {void.value}"
    if m.laid[seat] is not None:
        text += f" (laid {m.laid[seat]})"
    return text


def seat_lines(rb: Rebuilt, m: Moment, before: tuple[int, ...]) -> list[str]:
    jd = rb.source
    lines = []
    for seat in SEATS:
        name = jd.started.players[seat]
        tags = []
        if seat == jd.dealer:
            tags.append("dealer")
        if m.turn == seat and not m.out[seat] and m.phase.value != "over":
            tags.append("to play")
        void_text = seat_status(rb, m, seat)
        won = [w for w in m.winners if rb.fixed(w.seat) == seat]
        status = ""
        if won:
            w = won[0]
            status = "FALSE HU" if w.false_hu else f"WON {won_text(w, rb.source.rules)}"
        total = before[seat] + m.deltas[seat]
        lines.append(
            f"{seat} {name[:12]:<12} {' '.join(tags):<16} {void_text:<16} "
            f"deal {m.deltas[seat]:+d}  session {total:+d}  {status}".rstrip()
        )
        lines.append(f"    hand  {format_tiles(m.hands[seat]) or '-'}")
        if m.melds[seat]:
            lines.append(f"    melds {', '.join(str(x) for x in m.melds[seat])}")
        lines.append(f"    river {' '.join(str(t) for t in m.rivers[seat]) or '-'}")
    return lines


def render(
    rb: Rebuilt, k: int, before: tuple[int, ...] = (0, 0, 0, 0), interactive: bool = False
) -> str:
    """The whole screen for step `k` (0 … len(steps)); the keys only on the interactive one
    (a moment printed once has none to press)."""
    m = rb.moments[k]
    lines = step_header(rb, k, interactive)
    lines.append("")
    lines += wall_lines(rb, m)
    lines.append("")
    lines += seat_lines(rb, m, before)
    phase = f"phase {m.phase.value}"
    if m.window:
        phase += f"; {m.window}"
    lines += ["", phase]
    if rb.notes:
        lines += [f"note: {n}" for n in rb.notes]
    return "\n".join(lines) + "\n"


def who(rb: Rebuilt, seat: Seat | None) -> str:
    if seat is None:
        return "nobody"
    return f"{seat} {rb.source.started.players[seat]}"
