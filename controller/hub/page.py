"""The hub's page: hall standings as HTML, updated live over server-sent events.

Routes on a `controller.outputs.http.WebServer`:
    GET /                 the page (the standings rendered server-side: readable without JS)
    GET /standings.html   the standings fragment alone (what the script swaps in)
    GET /api/standings    HallStandings as JSON (kind "standings"), each table with what the
                          hub's gate says of its signatures ("signatures")
    GET /events           SSE: a `standings` event, carrying the standings' version, per change
    GET /hub.js, /hub.css the page's script and style (the server's CSP forbids inline ones)
    GET /favicon.svg      the page's icon (a 1p tile): without one a browser asks for
                          /favicon.ico, a 404 in the console of every hall screen

The page and its fragment are in the language of `?lang=` (the director's pick with the
switch in the header, kept in localStorage `mjtable.lang.hall`), else of the browser's
Accept-Language (controller/locale).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from html import escape
from http import HTTPStatus

from controller.hub.signing import Check
from controller.hub.standings import HallStandings, SessionResult, Standings, TableResult
from controller.hub.trust import TableTrust
from controller.locale import ENGLISH, N_, Language, Translator, negotiate, translator
from controller.outputs.http import EventChannel, EventStream, Request, Response, WebServer
from controller.outputs.tiles_svg import tile_svg
from controller.words import ordinal, phase_words, table_name
from rules.seats import SEATS
from rules.tiles import Tile

HUB_JS = """\
"use strict";
// Swap in the fresh standings whenever the hub says they changed; show times in the
// director's own zone and keep the session clocks running between changes.
const main = document.getElementById("standings");
// The director's pick of language, kept in this browser; the hub renders in it (?lang=).
const LANG_KEY = "mjtable.lang.hall";
const picker = document.getElementById("lang-switch");
let chosen = null;
try { chosen = localStorage.getItem(LANG_KEY); } catch (err) { chosen = null; }
const asked = new URLSearchParams(location.search).get("lang");
if (chosen && chosen !== asked) location.replace("?lang=" + encodeURIComponent(chosen));
if (picker) {
  picker.value = asked || "";
  picker.addEventListener("change", () => {
    try {
      if (picker.value) localStorage.setItem(LANG_KEY, picker.value);
      else localStorage.removeItem(LANG_KEY);
    } catch (err) { /* no storage: this page only */ }
    location.replace(picker.value ? "?lang=" + encodeURIComponent(picker.value) : location.pathname);
  });
}
function pad(n) { return String(n).padStart(2, "0"); }
function localise() {
  for (const t of document.querySelectorAll("time[datetime]")) {
    const d = new Date(t.getAttribute("datetime"));
    if (isNaN(d)) continue;
    if (t.classList.contains("clock")) {
      const s = Math.max(0, Math.floor((Date.now() - d.getTime()) / 1000));
      const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
      t.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s % 60);
    } else {
      t.textContent = d.toLocaleTimeString();
    }
  }
}
localise();
setInterval(localise, 1000);
// One fetch at a time: two in flight may be answered out of order, and an older answer
// landing last would show the hall as it was until the next change.
let fetching = false, again = false;
async function refresh() {
  if (fetching) { again = true; return; }
  fetching = true;
  do {
    again = false;
    try {
      const answer = await fetch("/standings.html" + location.search, {cache: "no-store"});
      if (answer.ok) { main.innerHTML = await answer.text(); localise(); }
    } catch (err) { /* the hub itself is away: the next event or tick tries again */ }
  } while (again);
  fetching = false;
}
const source = new EventSource("/events");
source.addEventListener("standings", refresh);
setInterval(refresh, 30000);  // a table gone silent turns stale without any event
"""

HUB_CSS = """\
:root { --felt: #0f2a20; --panel: #173a2c; --panel-edge: #24553f; --ink: #f4f0e2;
  --muted: #a9bfb3; --gold: #f2c14e; --up: #7ee08a; --down: #ff8a80;
  --font: clamp(14px, 1.05vw, 30px);
  font-family: "DejaVu Sans", Verdana, Arial, sans-serif; color: var(--ink);
  background: var(--felt); }
* { box-sizing: border-box; }
body { margin: 0; font-size: var(--font); background: var(--felt); }
.status { display: flex; align-items: center; gap: 1.4em; flex-wrap: wrap;
  padding: 0.5em 1em; background: #0a1f17; border-bottom: 3px solid var(--panel-edge); }
.status h1 { font-size: 1.5em; margin: 0; }
main { padding: 0.8em 1em; }
:root:lang(zh-CN) { font-family: "Noto Sans CJK SC", "DejaVu Sans", sans-serif; }
.lang-switch { margin-left: auto; font: inherit; font-size: 0.8em; color: var(--muted);
  background: #0a1f17; border: 1px solid var(--panel-edge); border-radius: 0.3em; }
.banner { margin: 0 0 0.8em; padding: 0.6em 1em; border: 2px solid var(--down);
  border-radius: 0.6em; background: #3a1714; color: var(--down); font-weight: 600; }
.tables { display: grid; gap: 0.8em; grid-template-columns: repeat(auto-fill, minmax(22em, 1fr));
  margin-bottom: 1em; }
.box { background: var(--panel); border: 2px solid var(--panel-edge); border-radius: 0.6em;
  padding: 0.6em 0.9em; }
.card h2 { display: flex; justify-content: space-between; align-items: baseline; gap: 0.5em;
  margin: 0 0 0.3em; font-size: 1.25em; }
h2 { color: var(--gold); font-weight: 600; }
.badge { font-size: 0.7em; padding: 0.1em 0.6em; border-radius: 1em; border: 2px solid; }
.badge.online { color: var(--up); } .badge.offline { color: var(--down); }
.badge.stale, .badge.unknown { color: var(--gold); }
.muted { color: var(--muted); } .where { margin: 0.2em 0; }
.phase { font-size: 1.2em; font-weight: 600; color: var(--gold); margin: 0.2em 0 0.4em; }
.call { font-size: 1.35em; font-weight: 700; margin: 0.3em 0 0.4em; padding: 0.35em 0.6em;
  border-radius: 0.4em; background: var(--down); color: #2a0b08; }
.card.called { border-color: var(--down); box-shadow: 0 0 0 3px var(--down); }
.heard { color: var(--gold); font-weight: 600; margin: 0.2em 0; }
.trust { font-size: 0.85em; margin: 0.2em 0; }
.refused { margin: 0.3em 0; padding: 0.3em 0.6em; border: 2px solid var(--down);
  border-radius: 0.4em; color: var(--down); font-weight: 600; }
table { border-collapse: collapse; width: 100%; margin: 0.3em 0 0.6em; }
th, td { padding: 0.2em 0.5em; border-bottom: 1px solid var(--panel-edge); text-align: left; }
th { color: var(--muted); font-weight: normal; font-size: 0.85em; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.up { color: var(--up); } .down { color: var(--down); }
.pending { color: var(--muted); font-style: italic; }
caption { text-align: left; color: var(--muted); font-size: 0.85em; padding: 0.2em 0; }
.players { max-width: 60em; }
.empty { color: var(--muted); font-size: 1.3em; padding: 1em 0; }
"""

NUM = ' class="n"'  # a right-aligned number cell
STALE_AFTER_S = 120.0  # an online table silent this long is shown as stale
# a broker that stops sends every connected table's Last Will on its way down: a Will this
# close to the hub's own loss of the broker says nothing about the table
WILL_GRACE_S = 10.0


def _points(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"


def _signed(value: int) -> str:
    cls = "up" if value > 0 else "down" if value < 0 else ""
    return f'<span class="{cls}">{value:+d}</span>'


def _time(iso: str | None, clock: bool = False) -> str:
    """A <time> the page's script shows in the reader's zone (a clock: time since)."""
    if not iso:
        return "-"
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return escape(iso)
    shown = when.astimezone().strftime("%H:%M:%S")
    cls = ' class="clock"' if clock else ""
    return f'<time datetime="{escape(iso)}"{cls}>{shown}</time>'


def _place(totals: Sequence[int], seat: int) -> int:
    return 1 + sum(1 for t in totals if t > totals[seat])


def _place_words(place: int, tr: Translator) -> str:
    """1st in English; the catalog's way of saying a place elsewhere (第1名, 1-е место)."""
    if tr.language is Language.EN:
        return ordinal(place)
    return tr.gettext("place {n}").format(n=place)


def _session_rows(s: SessionResult, tr: Translator = ENGLISH) -> str:
    rows = []
    for seat, (name, total) in enumerate(zip(s.players, s.totals, strict=True)):
        cells = [f"{SEATS[seat]} {escape(name)}", _signed(total)]
        for r in s.rounds:
            if r.rank_points is None:
                said = tr.gettext("{total} (round not over)").format(total=f"{r.totals[seat]:+d}")
                cells.append(f'<span class="pending">{said}</span>')
            else:
                points = r.rank_points[seat]
                count = int(points) if points.denominator == 1 else 2  # a fraction: "points"
                unit = tr.ngettext("{n} rank point", "{n} rank points", count)
                cells.append(
                    f"{r.totals[seat]:+d} <small>· {_place_words(_place(r.totals, seat), tr)} · "
                    f"{unit.format(n=_points(points))}</small>"
                )
        if s.rounds:
            cells.append(_points(s.rank_points[seat]))
        rows.append(
            "<tr>"
            + "".join(f"<td{NUM if i else ''}>{c}</td>" for i, c in enumerate(cells))
            + "</tr>"
        )
    return "".join(rows)


def _seconds(a: str | None, b: str | None) -> float | None:
    try:
        return (datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds()  # type: ignore[arg-type]  # None: the TypeError caught
    except (TypeError, ValueError):
        return None


def _presence(t: TableResult, link: LinkState | None, now: datetime) -> str:
    """online / offline / stale. Stale: what the hub cannot know, shown as last heard (the
    hub lost the broker; a Last Will came with the broker's own shutdown; an online table
    has been silent)."""
    if t.lost_at is not None:
        gap = _seconds(t.lost_at, link.last_lost) if link is not None else None
        if gap is not None and -WILL_GRACE_S <= gap <= WILL_GRACE_S:
            return "stale"
        return "offline"
    if t.presence == "online" and link is not None and not link.up:
        return "stale"
    if t.presence == "online" and t.last_seen:
        silent = _seconds(t.last_seen, now.isoformat()) or 0.0
        if silent > STALE_AFTER_S:
            return "stale"
    return t.presence


_REFUSED = {
    Check.UNSIGNED: N_("an unsigned deal for {table} was refused at {time}"),
    Check.BAD: N_("a deal for {table} with a bad signature was refused at {time}"),
    Check.OTHER_KEY: N_("a deal for {table} signed with another key ({key}) was refused at {time}"),
}


def _trust(t: TableResult, trust: TableTrust | None, tr: Translator = ENGLISH) -> list[str]:
    """Whether the hub checks the table's signature, and what it refused."""
    if trust is None:
        return []
    name = escape(table_name(t.table, tr))
    if not trust.keyed:
        said = tr.gettext("unsigned: no key, deals taken unchecked")
        parts = [f'<p class="trust muted" data-trust="unsigned">{said}</p>']
    else:
        said = tr.gettext("signed: deals checked")
        parts = [f'<p class="trust muted" data-trust="signed">{said}</p>']
    if trust.other_key_since is not None:
        said = tr.gettext(
            "{table} signs with a key the hub does not hold ({key}) since {time}: its key was "
            "lost or replaced? The deals taken before stay; give the hub the new key "
            "(mjtable hall key trust --replace) and they are taken."
        )
        said = said.format(
            table=name, key=escape(trust.other_key), time=_time(trust.other_key_since)
        )
        parts.append(f'<p class="refused" role="alert">{said}</p>')
    if trust.last is not None:
        what = tr.gettext(_REFUSED[trust.last.why]).format(
            table=name, key=escape(trust.last.key), time=_time(trust.last.wall)
        )
        if trust.refused > 1:
            more = tr.ngettext("{n} deal refused", "{n} deals refused", trust.refused)
            what += f" ({more.format(n=trust.refused)})"
        parts.append(f'<p class="refused" role="alert" data-refused="{trust.refused}">{what}</p>')
    return parts


def trust_json(trust: TableTrust) -> dict:
    """What the gate says of a table, for /api/standings."""
    last = trust.last
    return {
        "keyed": trust.keyed,
        "refused": trust.refused,
        "last_refused": None
        if last is None
        else {"wall": last.wall, "why": last.why.value, "session": last.session,
              "deal": last.deal, "seq": last.seq, "key": last.key},
        "other_key": trust.other_key or None,
        "other_key_since": trust.other_key_since,
    }  # fmt: skip


PRESENCE_WORDS = {
    "online": N_("online"),
    "offline": N_("offline"),
    "stale": N_("stale"),
    "unknown": N_("unknown"),
}


def _card(
    t: TableResult,
    link: LinkState | None,
    now: datetime,
    trust: TableTrust | None = None,
    tr: Translator = ENGLISH,
) -> str:
    presence = _presence(t, link, now)
    badge = tr.gettext(PRESENCE_WORDS[presence]) if presence in PRESENCE_WORDS else presence
    st = t.status
    called = st is not None and st.referee_called and presence != "offline"
    parts = [
        f'<article class="card box{" called" if called else ""}" data-table="{escape(t.table)}"'
        f' data-presence="{presence}"><h2><span>{escape(table_name(t.table, tr))}</span>'
        f'<span class="badge {presence}">{badge}</span></h2>',
    ]
    if presence == "online":
        said = tr.gettext("last message {time}").format(time=_time(t.last_seen))
        parts.append(f'<p class="muted">{said}</p>')
    else:
        said = tr.gettext("last heard {time}").format(time=_time(t.last_seen))
        if presence == "offline" and t.lost_at:
            said += " · " + tr.gettext("link lost at {time}").format(time=_time(t.lost_at))
        parts.append(f'<p class="heard">{said}</p>')
    parts += _trust(t, trust, tr)
    if st is not None and presence != "offline" and st.session:
        where = [tr.gettext("Session {n}").format(n=st.session)]
        if st.session_deal:
            if st.session_deals:
                where.append(
                    tr.gettext("Deal {n} of {total}").format(
                        n=st.session_deal, total=st.session_deals
                    )
                )
            else:
                where.append(tr.gettext("Deal {n}").format(n=st.session_deal))
        if st.session_started:
            clock = _time(st.session_started, clock=True)
            where.append(tr.gettext("session clock {time}").format(time=clock))
        parts.append(f'<p class="where">{" · ".join(where)}</p>')
        if called:  # the table is stopped until the referee comes: said loudly, with its age
            said = tr.gettext("Referee called · waiting {time}").format(
                time=_time(t.called_since, clock=True)
            )
            parts.append(f'<p class="call" role="alert">{said}</p>')
        else:
            parts.append(f'<p class="phase">{escape(phase_words(st.phase, st.turn, tr))}</p>')
        if st.scores and st.players:
            rows = "".join(
                f'<tr><td>{seat} {escape(name)}</td><td class="n">{_signed(score)}</td></tr>'
                for seat, name, score in zip(SEATS, st.players, st.scores, strict=True)
            )
            parts.append(
                f'<table class="scores"><tr><th>{tr.gettext("now")}</th><th class="n">{tr.gettext("score")}</th>'
                f"</tr>{rows}</table>"
            )
    elif presence == "offline":
        parts.append(f'<p class="phase">{tr.gettext("offline")}</p>')
    for s in t.sessions:
        heads = [tr.gettext("player"), tr.gettext("session total")]
        heads += [tr.gettext("round {n}").format(n=r.number) for r in s.rounds]
        heads += [tr.gettext("rank points")] if s.rounds else []
        settled = tr.ngettext("{n} deal settled", "{n} deals settled", s.deals).format(n=s.deals)
        session = tr.gettext("session {n}").format(n=s.session)
        parts.append(
            f'<table class="session"><caption>{session} · {escape(s.rules)} · {settled}</caption>'
            "<tr>"
            + "".join(f"<th{NUM if i else ''}>{h}</th>" for i, h in enumerate(heads))
            + f"</tr>{_session_rows(s, tr)}</table>"
        )
        paid = [
            f"{escape(name)} {points}"
            for name, points in zip(s.players, s.penalties, strict=True)
            if points
        ]
        if paid:
            said = tr.gettext("session {n}: penalties paid — {paid}").format(
                n=s.session, paid=", ".join(paid)
            )
            parts.append(f'<p class="penalties" data-penalties="{sum(s.penalties)}">{said}</p>')
        if s.imbalance:
            said = tr.gettext(
                "session {n}: the scores sum to {imbalance} beyond the points paid to nobody — "
                "check this table's journal"
            ).format(n=s.session, imbalance=f"{s.imbalance:+d}")
            parts.append(
                f'<p class="refused" role="alert" data-imbalance="{s.imbalance}">{said}</p>'
            )
    return "".join(parts) + "</article>"


def render_banner(link: LinkState | None, tr: Translator = ENGLISH) -> str:
    if link is None or link.up:
        return ""
    if link.ever:
        said = tr.gettext(
            "The hall broker {broker} was lost (since {time}): the hub keeps trying; what is "
            "shown below is as of then."
        )
    else:
        said = tr.gettext(
            "The hall broker {broker} cannot be reached (since {time}): the hub keeps trying; "
            "what is shown below is as of then."
        )
    said = said.format(broker=escape(link.broker), time=_time(link.since))
    return f'<p class="banner" role="alert">{said}</p>'


def render_fragment(
    snap: HallStandings,
    link: LinkState | None = None,
    trust: Callable[[str, str], TableTrust] | None = None,
    tr: Translator = ENGLISH,
) -> str:
    """The standings as HTML; every name from the wire is escaped."""
    banner = render_banner(link, tr)
    if not snap.tables:
        return banner + f'<p class="empty">{tr.gettext("No table has reported yet.")}</p>'
    now = datetime.now(UTC)
    cards = "".join(
        _card(t, link, now, None if trust is None else trust(t.hall, t.table), tr)
        for t in snap.tables
    )
    rounds = any(s.rounds for t in snap.tables for s in t.sessions)
    rows = "".join(
        f'<tr><td class="n">{i}</td><td>{escape(p.name)}</td>'
        f"<td>{escape(', '.join(table_name(x, tr) for x in p.tables))}</td>"
        + (f'<td class="n">{_points(p.rank_points)}</td>' if rounds else "")
        + f'<td class="n">{_signed(p.score)}</td><td class="n">{p.deals}</td>'
        + (f'<td class="n">{p.rounds}</td>' if rounds else "")
        + "</tr>"
        for i, p in enumerate(snap.players, 1)
    )
    heads = (
        f'<tr><th class="n">{tr.gettext("place")}</th><th>{tr.gettext("player")}</th><th>{tr.gettext("table")}</th>'
        + (f'<th class="n">{tr.gettext("rank points (4/3/2/1 a round)")}</th>' if rounds else "")
        + f'<th class="n">{tr.gettext("score")}</th><th class="n">{tr.gettext("deals")}</th>'
        + (f'<th class="n">{tr.gettext("rounds")}</th>' if rounds else "")
        + "</tr>"
    )
    players = (
        f'<section class="players box"><h2>{tr.gettext("Players")}</h2><table>{heads}{rows}</table>'
        "</section>"
    )
    return f'{banner}<section class="tables">{cards}</section>{players}'


LANGUAGE_NAMES = (("", ""), ("en", "English"), ("zh-CN", "中文"), ("ru", "Русский"))


def _language_switch(tr: Translator) -> str:
    """The director's pick of language (hub.js keeps it); "Auto" follows the browser."""
    options = "".join(
        f'<option value="{code}">{escape(name or tr.gettext("Auto"))}</option>'
        for code, name in LANGUAGE_NAMES
    )
    label = escape(tr.gettext("Language"))
    return f'<select id="lang-switch" class="lang-switch" aria-label="{label}">{options}</select>'


def render_page(
    snap: HallStandings,
    hall: str | None,
    link: LinkState | None = None,
    trust: Callable[[str, str], TableTrust] | None = None,
    tr: Translator = ENGLISH,
) -> str:
    if hall:
        title = tr.gettext("Hall {hall} standings").format(hall=escape(hall))
    else:
        title = tr.gettext("Hall standings")
    return (
        f'<!doctype html><html lang="{tr.language.tag}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/hub.css"></head><body>'
        f'<header class="status"><h1>{title}</h1>{_language_switch(tr)}</header>'
        f'<main id="standings">{render_fragment(snap, link, trust, tr)}</main>'
        '<script src="/hub.js"></script></body></html>'
    )


def page_language(request: Request) -> Translator:
    """The words of a request for the page: its `?lang=`, else its Accept-Language."""
    return translator(negotiate(request.param("lang") or request.header("accept-language")))


@dataclass(frozen=True, slots=True)
class LinkState:
    """The hub's link to the hall broker, as the page says it."""

    broker: str  # host:port
    up: bool
    ever: bool  # it was connected once (lost) or never (cannot be reached)
    since: str  # ISO 8601
    last_lost: str | None = None  # when the hub last lost the broker (ISO 8601)


class HubPage:
    """Serves the standings on `server` and pushes an SSE event on every change."""

    def __init__(
        self,
        standings: Standings,
        server: WebServer,
        hall: str | None = None,
        link: Callable[[], LinkState] | None = None,
        trust: Callable[[str, str], TableTrust] | None = None,
    ) -> None:
        self.standings, self.server, self.hall, self.link = standings, server, hall, link
        self.trust = trust  # the gate's word on each table (controller/hub/trust.py)
        self.channel = EventChannel()
        js = Response(HTTPStatus.OK, HUB_JS.encode(), "text/javascript; charset=utf-8")
        css = Response(HTTPStatus.OK, HUB_CSS.encode(), "text/css; charset=utf-8")
        icon = Response(HTTPStatus.OK, tile_svg(Tile.parse("1p")).encode(), "image/svg+xml")
        server.route(
            "GET",
            "/",
            lambda req: Response.html(
                render_page(self._snap(), hall, self._link(), self.trust, page_language(req))
            ),
        )
        server.route(
            "GET", "/standings.html", lambda req: Response.html(self._fragment(page_language(req)))
        )
        server.route("GET", "/api/standings", lambda req: Response.json(self._api()))
        server.route("GET", "/events", lambda req: EventStream(self.channel))
        server.route("GET", "/hub.js", lambda req: js)
        server.route("GET", "/hub.css", lambda req: css)
        server.route("GET", "/favicon.svg", lambda req: icon)

    def _snap(self) -> HallStandings:
        return self.standings.snapshot()

    def _api(self) -> dict:
        answer = self._snap().to_json()
        if self.trust is not None:
            for table in answer["tables"]:
                table["signatures"] = trust_json(self.trust(table["hall"], table["table"]))
        return answer

    def _link(self) -> LinkState | None:
        return None if self.link is None else self.link()

    def _fragment(self, tr: Translator = ENGLISH) -> str:
        return render_fragment(self._snap(), self._link(), self.trust, tr)

    def changed(self) -> None:
        """Call after the standings changed (the subscriber's `on_change`)."""
        self.channel.publish("standings", str(self.standings.version), id=self.standings.version)

    def close(self) -> None:
        self.channel.close()
