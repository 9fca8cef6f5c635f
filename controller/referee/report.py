"""The printable deal sheet and session report (`mjtable report`): one HTML file, inline SVG
(tiles from controller/outputs/tiles_svg.py, the wall and the chart from controller/referee/svg.py),
no external assets, a print style sheet for A4.

A deal sheet: the journal and its chain check, the wall with the dice and the break, each
player's void suit, first discard, dealt and final hand, every step with its time and
evidence and what the judge said, claim windows and who claimed, the ledger (corrections
applied) with the rule behind each line, alerts and corrections with who made them and when.

Said in the reader's language (`mjtable report --lang`): the headings, labels, the ledger's
rules (the rulebook reference kept) and each line's `why` (controller/words.py why_said); the
journal's own words (a step's text and evidence, a correction's reason) stay as journalled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from html import escape

from controller.journal.records import RecordKind
from controller.journal.verify import Finding
from controller.locale import ENGLISH, N_, Said, Translator, says
from controller.outputs.tiles_svg import sprite, symbol_id
from controller.referee.journal_deal import JournalDeal, Step, Verdict
from controller.referee.rebuild import END_NAMES, Rebuilt
from controller.referee.session import SessionDeal
from controller.referee.svg import legend_svg, progression_svg, wall_svg
from controller.referee.text import CORRECTION_ACTIONS, clock_time, seat_status, won_text
from controller.words import ALERT_TITLES, refusal_said, why_said
from rules.ruleset import ScoringMethod
from rules.seats import SEATS
from rules.tiles import Tile

CSS = """
body { font-family: "DejaVu Sans", "Noto Sans CJK SC", Verdana, Arial, sans-serif;
       font-size: 11pt; color: #111; margin: 16px; }  /* Noto CJK: players' Chinese names */
h1 { font-size: 18pt; margin: 0 0 4px; } h2 { font-size: 14pt; margin: 18px 0 6px;
     border-bottom: 2px solid #333; } h3 { font-size: 12pt; margin: 12px 0 4px; }
table { border-collapse: collapse; width: 100%; margin: 4px 0 10px; }
th, td { border: 1px solid #999; padding: 2px 5px; text-align: left; vertical-align: top; }
th { background: #e8e8e8; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.meta td { border: none; padding: 1px 8px 1px 0; }
.tiles { display: inline; } svg.t { width: 18px; height: 25px; vertical-align: middle; }
td { overflow-wrap: anywhere; }
tr.rejected td { background: #fde2e2; } tr.alert td { background: #fff3cd; }
tr.correction td { background: #e2ecfd; } tr.window td { color: #555; font-size: 9.5pt; }
tr.settled td { background: #e3f4e3; font-weight: bold; } .struck { text-decoration: line-through; }
tr.superseded td { background: #eee; font-weight: normal; color: #444; }
.ok { color: #1d7f4e; font-weight: bold; } .bad { color: #c62828; font-weight: bold; }
.wallbox { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.wallbox svg.wall { flex: none; } svg.legend { max-width: 100%; height: auto; } .wallbox > div { flex: 1 1 300px; min-width: 0; }
.small { font-size: 9pt; color: #444; } .deal { page-break-before: always; }
.deal:first-of-type { page-break-before: auto; }
@page { size: A4; margin: 12mm; }
@media print { body { margin: 0; font-size: 9.5pt; } tr { page-break-inside: avoid; }
  svg.t { width: 15px; height: 21px; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
"""


# the labels said inside the sheet's f-strings (`_("…")` there is not extracted): marked
# here for the catalog, said through the reader's Translator where they are printed
LABELS = (
    N_("session"),
    N_("started"),
    N_("players"),
    N_("dealer"),
    N_("dice"),
    N_("end"),
    N_("seat"),
    N_("void suit"),
    N_("wind"),
    N_("first discard"),
    N_("result"),
    N_("deal"),
    N_("Hands"),
    N_("dealt"),
    N_("at the end"),
    N_("Moves"),
    N_("record"),
    N_("time"),
    N_("what"),
    N_("evidence"),
    N_("judge"),
    N_("Ledger"),
    N_("payer"),
    N_("payee"),
    N_("points"),
    N_("why"),
    N_("rule"),
    N_("no payments"),
    N_("Deltas"),
    N_("Alerts"),
    N_("alert"),
    N_("none"),
    N_("Corrections"),
    N_("when"),
    N_("referee"),
    N_("action"),
    N_("corrects"),
    N_("status"),
    N_("Session report"),
    N_("rules"),
    N_("winners"),
    N_("totals after"),
    N_("corrections"),
)


def _tiles(tiles: Sequence[Tile | None]) -> str:
    inner = "".join(
        f'<svg class="t" viewBox="0 0 60 84"><use href="#{symbol_id(t)}"/></svg>' for t in tiles
    )
    text = " ".join("?" if t is None else str(t) for t in tiles)
    return f'<span class="tiles" title="{text}">{inner}</span>'


def _tile_of(text: str) -> str:
    try:
        return _tiles([Tile.parse(text)])
    except ValueError:
        return escape(text)


def page(title: str, body: str, tileset_sprite: str, tr: Translator = ENGLISH) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="{tr.language.tag}"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
        f"{tileset_sprite}{body}</body></html>\n"
    )


def chain_line(path: str, finding: Finding | None, last_hash: str, tr: Translator = ENGLISH) -> str:
    if finding is None:
        return f'<span class="ok">{tr.gettext("chain intact")}</span> — ' + tr.gettext(
            "journal {path}, last hash {hash}"
        ).format(path=f"<code>{escape(path)}</code>", hash=f"<code>{last_hash[:16]}…</code>")
    broken = tr.gettext("CHAIN BROKEN at {record}").format(record=escape(str(finding)))
    return f'<span class="bad">{broken}</span> — <code>{escape(path)}</code>'


# how a deal ended (controller/referee/rebuild.py END_NAMES), in the reader's words
END_WORDS = {
    "three-won": N_("three Hu"),
    "wall-exhausted": N_("Exhausted wall"),
    "time-up": N_("time up"),
    "referee": N_("ended by the referee"),
}


def _end_words(end: str, tr: Translator) -> str:
    return tr.gettext(END_WORDS[end]) if end in END_WORDS and tr is not ENGLISH else end


def deal_sheet(sd: SessionDeal, tr: Translator = ENGLISH) -> str:
    rb = sd.rebuilt
    jd = rb.source
    s = jd.started
    end = rb.deal.end
    end_text = tr.gettext("not over") if end is None else _end_words(_end_name(rb), tr)
    names = ", ".join(f"{seat} {escape(s.players[seat])}" for seat in SEATS)
    _ = tr.gettext
    title = _("Deal {n} — {rules}").format(n=jd.number, rules=escape(jd.rules.name))
    started = _("{wall} (record {seq})").format(
        wall=escape(jd.started_record.wall), seq=jd.started_record.seq
    )
    out = [
        f'<section class="deal"><h1>{title}</h1>',
        '<table class="meta">',
        f"<tr><td>{_('session')}</td><td>{s.session if s.session is not None else '-'}</td>"
        f"<td>{_('started')}</td><td>{started}</td></tr>",
        f"<tr><td>{_('players')}</td><td>{names}</td><td>{_('dealer')}</td><td>{jd.dealer} "
        f"{escape(s.players[jd.dealer])}</td></tr>",
        f"<tr><td>{_('dice')}</td><td>{s.dice[0]} + {s.dice[1]}</td><td>{_('end')}</td>"
        f"<td>{end_text}</td></tr>",
        _head_row(jd, tr),
        "</table>",
        '<div class="wallbox">',
        wall_svg(rb),
        f"<div>{legend_svg()}{_players(sd, tr)}</div></div>",
        _hands(sd, tr),
        _steps(rb, tr),
        _ledger(rb, tr),
        _corrections(rb, tr),
        "</section>",
    ]
    return "".join(out)


def _head_row(jd: JournalDeal, tr: Translator = ENGLISH) -> str:
    """The chain head when the deal settled (`SEQ:HASH`), kept on paper: `mjtable journal
    verify --anchor` shows records lost from the journal since (issue 15 item 5)."""
    settled = next(
        (st.record for st in jd.steps if st.record.kind is RecordKind.DEAL_SETTLED), None
    )
    if settled is None:
        return ""
    anchor = f'<code class="anchor">{settled.seq}:{settled.hash}</code>'
    return (
        f'<tr><td>{tr.gettext("chain head")}</td><td colspan="3">'
        + tr.gettext("{anchor} (at the settlement)").format(anchor=anchor)
        + "</td></tr>"
    )


def _players(sd: SessionDeal, tr: Translator = ENGLISH) -> str:
    rb = sd.rebuilt
    last = rb.moments[-1]
    voids = rb.source.rules.play.void_suit
    _ = tr.gettext
    rows = [
        f"<table><tr><th>{_('seat')}</th><th>{_('void suit') if voids else _('wind')}</th>"
        f"<th>{_('first discard')}</th><th>{_('result')}</th>"
        f'<th class="n">{_("deal")}</th><th class="n">{_("session")}</th></tr>'
    ]
    for seat in SEATS:
        firsts = last.discards[seat][:1]
        won = [w for w in last.winners if rb.fixed(w.seat) == seat]
        result = ""
        if won:
            w = won[0]
            if w.false_hu:
                result = _("false Hu")
            elif rb.source.rules.scoring.method is ScoringMethod.HIGHEST_PATTERN:
                result = escape(
                    _("Hu {how}, #{order}").format(
                        how=won_text(w, rb.source.rules, tr), order=w.order
                    )
                )
            else:
                result = _("Hu on {tile} ({points} pts), #{order}").format(
                    tile=w.tile, points=w.value, order=w.order
                )
        rows.append(
            f"<tr><td>{seat} {escape(rb.source.started.players[seat])}</td>"
            f"<td>{escape(_seat_status(rb, last, seat, voids, tr))}</td>"
            f"<td>{_tiles(firsts) if firsts else '-'}</td><td>{result}</td>"
            f'<td class="n">{last.deltas[seat]:+d}</td><td class="n">{sd.after[seat]:+d}</td></tr>'
        )
    return "".join(rows) + "</table>"


def _hands(sd: SessionDeal, tr: Translator = ENGLISH) -> str:
    """The dealt hand and the hand and melds at the end, the page's full width."""
    rb = sd.rebuilt
    first, last = rb.moments[0], rb.moments[-1]
    _ = tr.gettext
    rows = [
        f"<h3>{_('Hands')}</h3><table><tr><th>{_('seat')}</th><th>{_('dealt')}</th>"
        f"<th>{_('at the end')}</th></tr>"
    ]
    for seat in SEATS:
        melds = " ".join(_tiles(m.tiles) for m in last.melds[seat])
        rows.append(
            f"<tr><td>{seat}</td><td>{_tiles(first.hands[seat])}</td>"
            f"<td>{_tiles(last.hands[seat])} {melds}</td></tr>"
        )
    return "".join(rows) + "</table>"


def _seat_status(rb: Rebuilt, m, seat, voids: bool, tr: Translator = ENGLISH) -> str:
    """The void column (`-` while unknown) or, without void suits, the seat's wind."""
    if voids:
        void = m.voids[seat]
        return "-" if void is None else void.value
    return seat_status(rb, m, seat, tr)


def _steps(rb: Rebuilt, tr: Translator = ENGLISH) -> str:
    jd = rb.source
    t0 = jd.started_record.mono
    cancelled = {
        c.correction.corrects
        for c in jd.corrections
        if c.active and rb.corrected and str(c.correction.action) == "cancel-move"
    }
    refused = {r.at: r for r in rb.refused}
    _ = tr.gettext
    rows = [
        f"<h2>{_('Moves')}</h2><table><tr><th>#</th><th>{_('record')}</th><th>{_('time')}</th>"
        f"<th>+s</th><th>{_('seat')}</th><th>{_('what')}</th><th>{_('evidence')}</th>"
        f"<th>{_('judge')}</th></tr>"
    ]
    for st in jd.steps:
        rec = st.record
        cls = {
            Verdict.REJECTED: "rejected",
            Verdict.ALERT: "alert",
            Verdict.CORRECTION: "correction",
            Verdict.WINDOW: "window",
            Verdict.SETTLED: "settled",
        }.get(st.verdict, "")
        judged = verdict_said(st)
        verdict = "" if judged is None else escape(judged.say(tr))
        what = escape(st.said(tr))
        tile = (
            rec.data().get("tile") if st.verdict in (Verdict.ACCEPTED, Verdict.REJECTED) else None
        )
        if isinstance(tile, str):
            what += " " + _tile_of(tile)
        if rec.seq in cancelled:
            what = f'<span class="struck">{what}</span> ' + escape(_("(cancelled)"))
        if st.verdict is Verdict.SETTLED and _superseded(rb):
            cls += " superseded"
            now = " ".join(f"{seat} {d:+d}" for seat, d in zip(SEATS, rb.deltas, strict=True))
            what = f'<span class="struck">{what}</span> ' + _(
                "superseded by the corrections: {result}"
            ).format(result=f"<b>{escape(_corrected_end(rb))}: {now}</b>")
        if rec.seq in refused:
            verdict += escape(
                _("; no longer fits after the corrections: {why}").format(
                    why=refused[rec.seq].rejected
                )
            )
        evidence = "<br>".join(escape(e) for e in st.evidence_said(tr))
        rows.append(
            f'<tr class="{cls}"><td class="n">{st.number}</td><td class="n">{rec.seq}</td>'
            f'<td>{clock_time(rec.wall)}</td><td class="n">{rec.mono - t0:.1f}</td>'
            f"<td>{'' if st.seat is None else st.seat}</td><td>{what}</td>"
            f'<td class="small">{evidence}</td><td>{verdict}</td></tr>'
        )
    return "".join(rows) + "</table>"


def verdict_said(st: Step) -> Said | None:
    """What the judge said of a step (the report's judge column): its English as it always
    read ("rejected: not-your-turn: …", "alert stalled"), in another language the alert's
    title for its code and the judge's own reason as it wrote it."""
    rec = st.record
    if st.verdict is Verdict.ACCEPTED:
        return Said(N_("accepted"))
    if st.verdict is Verdict.REJECTED:
        code, _, detail = st.reason.partition(": ")
        said = says("rejected: {why}", why=refusal_said(code, detail))
        return replace(said, english=f"rejected: {st.reason}")
    if st.verdict is Verdict.ALERT:
        title = ALERT_TITLES.get(st.reason, st.reason)
        return replace(says("alert: {title}", title=Said(title)), english=f"alert {st.reason}")
    if st.verdict is Verdict.CORRECTION:
        return says("referee ({source})", source=rec.source)
    return None  # a claim window, the settlement: the judge says nothing of its own


def _alert_said(step: Step) -> Said:
    """An alert of the report's list: its code and message as journalled in English
    ("stalled: warning: no move read …"), in another language its title and sentence."""
    title = Said(ALERT_TITLES.get(step.reason, step.reason))
    said = says("{title}: {message}", title=title, message=step.words or Said(step.text))
    return replace(said, english=f"{step.reason}: {step.text}")


def _superseded(rb: Rebuilt) -> bool:
    """Corrections changed the journalled result (its deltas, or whether the deal is over)."""
    settled = rb.source.settled
    return (
        rb.corrected
        and settled is not None
        and (tuple(settled.deltas) != rb.deltas or rb.deal.end is None)
    )


def _end_name(rb: Rebuilt) -> str:
    """How the (over) deal ended: `referee` when a referee's correction ended it (its
    `EndDeal` is the session's time to the judge), else the judge's end."""
    if any(c.active and str(c.correction.action) == "force-end" for c in rb.source.corrections):
        return "referee"
    assert rb.deal.end is not None
    return END_NAMES[rb.deal.end]


def _corrected_end(rb: Rebuilt) -> str:
    if rb.deal.end is None:
        return "no longer over"
    name = _end_name(rb)
    return "ended by the referee" if name == "referee" else name


def _ledger(rb: Rebuilt, tr: Translator = ENGLISH) -> str:
    """The deal's payments; each line's rule in the reader's language, the rulebook's
    reference ("004 Table 7") kept as it is printed (the catalog's entries keep it)."""
    jd = rb.source
    _ = tr.gettext
    rows = [
        f"<h2>{_('Ledger')}</h2><table><tr><th>{_('payer')}</th><th>{_('payee')}</th>"
        f'<th class="n">{_("points")}</th><th>{_("why")}</th><th>{_("rule")}</th></tr>'
    ]
    for line in rb.ledger:
        payee = _("nobody") if line.payee is None else str(line.payee)
        rows.append(
            f'<tr><td>{line.payer}</td><td>{payee}</td><td class="n">{line.points}</td>'
            f"<td>{escape(why_said(line.why).say(tr))}</td>"
            f'<td class="small">{escape(_(line.rule))}</td></tr>'
        )
    if not rb.ledger:
        rows.append(f'<tr><td colspan="5">{_("no payments")}</td></tr>')
    rows.append("</table>")
    deltas = " ".join(f"{s} {d:+d}" for s, d in zip(SEATS, rb.deltas, strict=True))
    rows.append(f"<p><b>{_('Deltas')}</b> {deltas}")
    if rb.next_dealer is not None:
        rows.append("; " + _("next dealer {seat}").format(seat=rb.next_dealer))
    if jd.settled is not None and tuple(jd.settled.deltas) != rb.deltas:
        was = " ".join(f"{s} {d:+d}" for s, d in zip(SEATS, jd.settled.deltas, strict=True))
        said = _("(as journalled before corrections: {deltas})").format(
            deltas=f'<span class="struck">{was}</span>'
        )
        rows.append(f' <span class="bad">{said}</span>')
    elif jd.settled is None:
        said = _("(the deal was not settled in the journal)")
        rows.append(f' <span class="bad">{said}</span>')
    return "".join(rows) + "</p>"


def _corrections(rb: Rebuilt, tr: Translator = ENGLISH) -> str:
    jd = rb.source
    _ = tr.gettext
    alerts = [s for s in jd.steps if s.verdict is Verdict.ALERT]
    out = [f"<h2>{_('Alerts')}</h2>"]
    if alerts:
        out.append(
            f"<table><tr><th>{_('record')}</th><th>{_('time')}</th><th>{_('seat')}</th>"
            f"<th>{_('alert')}</th></tr>"
        )
        for a in alerts:
            out.append(
                f'<tr><td class="n">{a.seq}</td><td>{clock_time(a.record.wall)}</td>'
                f"<td>{'' if a.seat is None else a.seat}</td>"
                f"<td>{escape(_alert_said(a).say(tr))}</td></tr>"
            )
        out.append("</table>")
    else:
        out.append(f"<p>{_('none')}</p>")
    out.append(f"<h2>{_('Corrections')}</h2>")
    if not jd.corrections:
        out.append(f"<p>{_('none')}</p>")
        return "".join(out)
    out.append(
        f"<table><tr><th>{_('record')}</th><th>{_('when')}</th><th>{_('referee')}</th>"
        f"<th>{_('action')}</th><th>{_('corrects')}</th><th>{_('why')}</th>"
        f"<th>{_('status')}</th></tr>"
    )
    for c in jd.corrections:
        corr = c.correction
        details = ", ".join(f"{k} {v}" for k, v in (corr.details or {}).items() if k != "judge")
        action = CORRECTION_ACTIONS.get(str(corr.action), str(corr.action))
        status = _("applied") if c.active and rb.corrected else _("not applied")
        if c.withdrawn_by is not None:
            status = _("withdrawn by record {seq}").format(seq=c.withdrawn_by)
        out.append(
            f'<tr><td class="n">{c.record.seq}</td><td>{escape(c.record.wall)}</td>'
            f"<td>{escape(corr.referee)}</td><td>{escape(_(action))} {escape(details)}</td>"
            f'<td class="n">{corr.corrects}</td><td>{escape(_(corr.reason))}</td>'
            f"<td>{status}</td></tr>"
        )
    out.append("</table>")
    out += [f'<p class="bad">{escape(n)}</p>' for n in rb.notes]
    return "".join(out)


def session_report(
    deals: Sequence[SessionDeal],
    path: str,
    finding: Finding | None,
    last_hash: str,
    tr: Translator = ENGLISH,
) -> str:
    """Every deal of the journal: the progression of each session, a table, then the sheets."""
    _ = tr.gettext
    body = [f"<h1>{_('Session report')}</h1><p>{chain_line(path, finding, last_hash, tr)}</p>"]
    sessions: dict[int | None, list[SessionDeal]] = {}
    for d in deals:
        sessions.setdefault(d.session, []).append(d)
    for number, group in sessions.items():
        names = group[0].rebuilt.source.started.players
        labels = [_("start"), *(str(d.number) for d in group)]
        totals = [group[0].before, *(d.after for d in group)]
        body.append(f"<h2>{_('Session {n}').format(n='-' if number is None else number)}</h2>")
        body.append(progression_svg(labels, totals, names))
        body.append(
            f"<table><tr><th>{_('deal')}</th><th>{_('rules')}</th><th>{_('dealer')}</th>"
            f"<th>{_('dice')}</th><th>{_('winners')}</th>"
            + "".join(f'<th class="n">{s}</th>' for s in SEATS)
            + f"<th>{_('totals after')}</th><th>{_('corrections')}</th></tr>"
        )
        for d in group:
            rb = d.rebuilt
            s = rb.source.started
            winners = " ".join(str(rb.fixed(w.seat)) for w in rb.deal.winners if not w.false_hu)
            body.append(
                f'<tr><td class="n">{d.number}</td><td>{escape(s.rules)}</td><td>{s.dealer}</td>'
                f"<td>{s.dice[0]}+{s.dice[1]}</td><td>{winners or '-'}</td>"
                + "".join(f'<td class="n">{v:+d}</td>' for v in rb.deltas)
                + f"<td>{' '.join(f'{v:+d}' for v in d.after)}</td>"
                f'<td class="n">{len(rb.source.corrections)}</td></tr>'
            )
        body.append("</table>")
    body += [deal_sheet(d, tr) for d in deals]
    return page(_("Session report"), "".join(body), _sprite(deals), tr)


def deal_report(
    sd: SessionDeal,
    path: str,
    finding: Finding | None,
    last_hash: str,
    tr: Translator = ENGLISH,
) -> str:
    body = f"<p>{chain_line(path, finding, last_hash, tr)}</p>{deal_sheet(sd, tr)}"
    return page(tr.gettext("Deal {n}").format(n=sd.number), body, _sprite([sd]), tr)


def _sprite(deals: Sequence[SessionDeal]) -> str:
    tileset = deals[0].rebuilt.source.rules.tiles.set if deals else None
    return sprite(tileset) if tileset is not None else sprite()
