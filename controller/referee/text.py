"""A moment of a journalled deal as terminal text (`mjtable replay`): the step and what the
judge said, the wall with its break and both ends, each player's hand, melds, river, void
suit and score. Fixed seats E S W N (where the players sit); "dealer" marks this deal's East.
Said in a `Translator`'s language (`mjtable replay --lang`), English when none is given;
tiles stay in their codes (5p), as the hands and rivers print them.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime

from controller.locale import ENGLISH, N_, Translator
from controller.referee.journal_deal import Step, Verdict
from controller.referee.rebuild import Moment, Rebuilt
from controller.words import ALERT_TITLES, refusal_said
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


def step_header(
    rb: Rebuilt, k: int, interactive: bool = False, tr: Translator = ENGLISH
) -> list[str]:
    _ = tr.gettext
    jd = rb.source
    n = len(jd.steps)
    start = jd.started_record
    mode = _("corrections applied") if rb.corrected else _("as journalled, corrections not applied")
    keys = "   " + _("n/→ next  p/← back  g go to  q quit") if interactive else ""
    head = _("Deal {n} ({rules}) — step {k}/{steps}  [{mode}]")
    lines = [head.format(n=jd.number, rules=jd.rules.name, k=k, steps=n, mode=mode) + keys]
    if k == 0:
        lines.append(
            _("record {seq} {time}  deal started, dice {a}+{b}, dealer {seat}").format(
                seq=start.seq,
                time=clock_time(start.wall),
                a=jd.started.dice[0],
                b=jd.started.dice[1],
                seat=jd.dealer,
            )
        )
        return lines
    lines += describe_step(rb, jd.steps[k - 1], tr)
    return lines


VERDICTS = {
    Verdict.ACCEPTED: N_("judge: accepted"),
    Verdict.REJECTED: N_("judge: REJECTED ({why})"),
    Verdict.ALERT: N_("alert {code}"),
}


def describe_step(rb: Rebuilt, step: Step, tr: Translator = ENGLISH) -> list[str]:
    _ = tr.gettext
    jd = rb.source
    rec = step.record
    since = rec.mono - jd.started_record.mono
    who = f"{step.seat} " if step.seat is not None else ""
    verdict = None
    if step.verdict in VERDICTS:
        code = step.reason
        if step.verdict is Verdict.ALERT and tr is not ENGLISH:
            code = _(ALERT_TITLES.get(code, code))
        why = step.reason
        if step.verdict is Verdict.REJECTED and tr is not ENGLISH:
            reason, _sep, detail = why.partition(": ")
            why = refusal_said(reason, detail).say(tr)
        verdict = _(VERDICTS[step.verdict]).format(why=why, code=code)
    lines = [
        _("#{n} record {seq} at {time} (mono {mono}, +{since} s) source {source}").format(
            n=step.number,
            seq=rec.seq,
            time=clock_time(rec.wall),
            mono=f"{rec.mono:.3f}",
            since=f"{since:.1f}",
            source=rec.source,
        ),
        f"  {who}{step.said(tr)}" + (f" — {verdict}" if verdict else ""),
    ]
    for ev in step.evidence_said(tr):
        lines.append("  " + _("evidence: {evidence}").format(evidence=ev))
    for c in jd.corrections:
        if c.correction.corrects == step.seq:
            state = (
                ""
                if c.active
                else " " + _("(withdrawn by record {seq})").format(seq=c.withdrawn_by)
            )
            said = _("CORRECTED by {referee} at {time} (record {seq}): {action}: {why}").format(
                referee=c.correction.referee,
                time=clock_time(c.record.wall),
                seq=c.record.seq,
                action=_(
                    CORRECTION_ACTIONS.get(str(c.correction.action), str(c.correction.action))
                ),
                why=_(c.correction.reason),
            )
            lines.append(f"  {said}{state}")
    for r in rb.refused:
        if r.at == step.seq:
            lines.append(
                "  " + _("no longer fits after the corrections: {why}").format(why=r.rejected)
            )
    return lines


# a correction's action (controller/journal/records.py CorrectionAction) in words
CORRECTION_ACTIONS = {
    "enter-move": N_("enter-move"),
    "cancel-move": N_("cancel-move"),
    "fix-tile": N_("fix-tile"),
    "penalty": N_("penalty"),
    "yellow-card": N_("yellow-card"),
    "dealer": N_("dealer"),
    "force-end": N_("force-end"),
    "withdraw": N_("withdraw"),
    "note": N_("note"),
}


def wall_lines(rb: Rebuilt, m: Moment, tr: Translator = ENGLISH) -> list[str]:
    _ = tr.gettext
    jd = rb.source
    rs = jd.rules
    dice = Dice(*jd.started.dice)
    brk = break_for(dice, rs.wall.indent)
    geo = Geometry(rs.tiles.wall_stacks)
    first = geo.first_stack(brk)
    live = None if m.next_live is None else m.next_live // 2
    repl = None if m.next_replacement is None else m.next_replacement // 2
    left = tr.ngettext("{n} tile", "{n} tiles", m.tiles_left).format(n=m.tiles_left)
    head = _("Wall: {tiles} left; dice {dice} → {seat}'s wall broken after stack {stack}").format(
        tiles=left, dice=dice, seat=rb.fixed(brk.wall), stack=brk.indent
    )
    if m.next_live is not None:
        head += _("; live end {tile} ({where})").format(
            tile=rb.wall[m.next_live], where=_pos(rb, m.next_live, tr)
        )
    if m.next_replacement is not None:
        head += _("; replacement end {tile} ({where})").format(
            tile=rb.wall[m.next_replacement], where=_pos(rb, m.next_replacement, tr)
        )
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
        label = "  " + _("{seat} wall {player}").format(
            seat=fixed, player=f"{jd.started.players[fixed][:10]:<10}"
        )
        lines.append(f"{label} {''.join(cells)}")
        if "L" in marks or "R" in marks:
            lines.append(f"{' ' * len(label)} {''.join(marks).rstrip()}")
    legend = _(
        "({full} two tiles, {bottom} bottom tile only, | the break, L live end, R replacement end)"
    )
    lines.append("  " + legend.format(full=FULL, bottom=BOTTOM))
    return lines


def _pos(rb: Rebuilt, index: int, tr: Translator = ENGLISH) -> str:
    p = Geometry(rb.source.rules.tiles.wall_stacks).position(index)
    return tr.gettext("{seat} wall stack {stack} {layer}").format(
        seat=rb.fixed(p.wall), stack=p.stack + 1, layer=tr.gettext(LAYERS[p.layer.value])
    )


LAYERS = {"top": N_("top"), "bottom": N_("bottom")}


def won_text(w: Won, rs: RuleSet, tr: Translator = ENGLISH) -> str:
    """`on 5m, value 8`; under highest-pattern scoring (Wellness, 001 II 3) the one pattern
    and the bonuses: `on 5m, qin-dui 800 + dragon-pung 100 = 900` (the pattern and bonus
    names are the glossary's: 清对, цинь-дуй)."""
    _ = tr.gettext
    if w.false_hu:
        return _("false Hu")
    score = w.score
    if score is None or not score.patterns or rs.scoring.method is not HIGHEST_PATTERN:
        return _("on {tile}, value {value}").format(tile=w.tile, value=w.value)
    base = score.value - sum(b.points for b in score.bonuses)
    parts = [
        _("{pattern} {points}").format(pattern=_(score.patterns[0].name), points=base),
        *(
            _("{pattern} {points}").format(pattern=_(b.name), points=b.points)
            for b in score.bonuses
        ),
    ]
    said = _("on {tile}, {patterns}").format(tile=w.tile, patterns=" + ".join(parts))
    if score.bonuses:
        said = _("{patterns} = {total}").format(patterns=said, total=score.value)
    return said


def seat_status(rb: Rebuilt, m: Moment, seat: Seat, tr: Translator = ENGLISH) -> str:
    """`void m (laid 3m)` under a void-suit rule set; otherwise the seat's wind in the deal
    and the prevalent wind (Wellness, 001 II 3: both are scored)."""
    _ = tr.gettext
    if not rb.source.rules.play.void_suit:
        wind = SEATS[(seat - rb.source.dealer) % 4]
        return _("wind {wind}, round {round}").format(wind=wind, round=rb.deal.prevalent)
    void = m.voids[seat]
    text = _("void ?") if void is None else _("void {suit}").format(suit=void.value)
    if m.laid[seat] is not None:
        text += " " + _("(laid {tile})").format(tile=m.laid[seat])
    return text


def seat_lines(
    rb: Rebuilt, m: Moment, before: tuple[int, ...], tr: Translator = ENGLISH
) -> list[str]:
    _ = tr.gettext
    jd = rb.source
    lines = []
    for seat in SEATS:
        name = jd.started.players[seat]
        tags = []
        if seat == jd.dealer:
            tags.append(_("dealer"))
        if m.turn == seat and not m.out[seat] and m.phase.value != "over":
            tags.append(_("to play"))
        void_text = seat_status(rb, m, seat, tr)
        won = [w for w in m.winners if rb.fixed(w.seat) == seat]
        status = ""
        if won:
            w = won[0]
            status = (
                _("FALSE HU")
                if w.false_hu
                else _("WON {how}").format(how=won_text(w, rb.source.rules, tr))
            )
        total = before[seat] + m.deltas[seat]
        scores = _("deal {deal}  session {session}").format(
            deal=f"{m.deltas[seat]:+d}", session=f"{total:+d}"
        )
        lines.append(
            f"{seat} {name[:12]:<12} {_pad(' '.join(tags), 16)} {_pad(void_text, 16)} "
            f"{scores}  {status}".rstrip()
        )
        hand, melds, river = _("hand"), _("melds"), _("river")
        lines.append(f"    {hand:<5} {format_tiles(m.hands[seat]) or '-'}")
        if m.melds[seat]:
            lines.append(f"    {melds:<5} {', '.join(str(x) for x in m.melds[seat])}")
        lines.append(f"    {river:<5} {' '.join(str(t) for t in m.rivers[seat]) or '-'}")
    return lines


def _pad(text: str, columns: int) -> str:
    """`text` padded to `columns` terminal columns (a Chinese character takes two)."""
    wide = sum(unicodedata.east_asian_width(c) in "WF" for c in text)
    return text + " " * max(columns - len(text) - wide, 0)


def render(
    rb: Rebuilt,
    k: int,
    before: tuple[int, ...] = (0, 0, 0, 0),
    interactive: bool = False,
    tr: Translator = ENGLISH,
) -> str:
    """The whole screen for step `k` (0 … len(steps)); the keys only on the interactive one
    (a moment printed once has none to press)."""
    _ = tr.gettext
    m = rb.moments[k]
    lines = step_header(rb, k, interactive, tr)
    lines.append("")
    lines += wall_lines(rb, m, tr)
    lines.append("")
    lines += seat_lines(rb, m, before, tr)
    phase = _("phase {phase}").format(phase=_(JUDGE_PHASES.get(m.phase.value, m.phase.value)))
    if m.window:
        phase += "; " + (m.window if m.window_words is None else m.window_words.say(tr))
    lines += ["", phase]
    if rb.notes:
        lines += [_("note: {note}").format(note=n) for n in rb.notes]
    return "\n".join(lines) + "\n"


# the judge's phases (rules/deal_state.py Phase), as the replay names them
JUDGE_PHASES = {
    "choosing-void": N_("choosing-void"),
    "draw": N_("draw"),
    "replacement": N_("replacement"),
    "discard": N_("discard"),
    "claims": N_("claims"),
    "robbing": N_("robbing"),
    "over": N_("over"),
}


def who(rb: Rebuilt, seat: Seat | None, tr: Translator = ENGLISH) -> str:
    if seat is None:
        return tr.gettext("nobody")
    return f"{seat} {rb.source.started.players[seat]}"
