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
from controller.outputs.http import EventChannel, EventStream, Response, WebServer
from controller.outputs.tiles_svg import tile_svg
from controller.words import ordinal, phase_words, plural, table_name
from rules.seats import SEATS
from rules.tiles import Tile

HUB_JS = """\
"use strict";
// Swap in the fresh standings whenever the hub says they changed; show times in the
// director's own zone and keep the session clocks running between changes.
const main = document.getElementById("standings");
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
async function refresh() {
  try {
    const answer = await fetch("/standings.html", {cache: "no-store"});
    if (answer.ok) { main.innerHTML = await answer.text(); localise(); }
  } catch (err) { /* the hub itself is away: the next event or tick tries again */ }
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


def _session_rows(s: SessionResult) -> str:
    rows = []
    for seat, (name, total) in enumerate(zip(s.players, s.totals, strict=True)):
        cells = [f"{SEATS[seat]} {escape(name)}", _signed(total)]
        for r in s.rounds:
            if r.rank_points is None:
                cells.append(f'<span class="pending">{r.totals[seat]:+d} (round not over)</span>')
            else:
                points = r.rank_points[seat]
                unit = "rank point" if points == 1 else "rank points"
                cells.append(
                    f"{r.totals[seat]:+d} <small>· {ordinal(_place(r.totals, seat))} · "
                    f"{_points(points)} {unit}</small>"
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
    Check.UNSIGNED: "an unsigned deal for {table}",
    Check.BAD: "a deal for {table} with a bad signature",
    Check.OTHER_KEY: "a deal for {table} signed with another key ({key})",
}


def _trust(t: TableResult, trust: TableTrust | None) -> list[str]:
    """Whether the hub checks the table's signature, and what it refused."""
    if trust is None:
        return []
    name = escape(table_name(t.table))
    if not trust.keyed:
        parts = ['<p class="trust muted" data-trust="unsigned">unsigned: no key, deals '
                 "taken unchecked</p>"]  # fmt: skip
    else:
        parts = ['<p class="trust muted" data-trust="signed">signed: deals checked</p>']
    if trust.other_key_since is not None:
        parts.append(
            f'<p class="refused" role="alert">{name} signs with a key the hub does not hold '
            f"({escape(trust.other_key)}) since {_time(trust.other_key_since)}: its key was "
            "lost or replaced? The deals taken before stay; give the hub the new key "
            "(mjtable hall key trust --replace) and they are taken.</p>"
        )
    if trust.last is not None:
        what = _REFUSED[trust.last.why].format(table=name, key=escape(trust.last.key))
        more = f" ({plural(trust.refused, 'deal')} refused)" if trust.refused > 1 else ""
        parts.append(
            f'<p class="refused" role="alert" data-refused="{trust.refused}">{what} was '
            f"refused at {_time(trust.last.wall)}{more}</p>"
        )
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


def _card(
    t: TableResult, link: LinkState | None, now: datetime, trust: TableTrust | None = None
) -> str:
    presence = _presence(t, link, now)
    st = t.status
    called = st is not None and st.referee_called and presence != "offline"
    parts = [
        f'<article class="card box{" called" if called else ""}" data-table="{escape(t.table)}"'
        f' data-presence="{presence}"><h2><span>{escape(table_name(t.table))}</span>'
        f'<span class="badge {presence}">{presence}</span></h2>',
    ]
    if presence == "online":
        parts.append(f'<p class="muted">last message {_time(t.last_seen)}</p>')
    else:
        lost = f" · link lost at {_time(t.lost_at)}" if presence == "offline" and t.lost_at else ""
        parts.append(f'<p class="heard">last heard {_time(t.last_seen)}{lost}</p>')
    parts += _trust(t, trust)
    if st is not None and presence != "offline" and st.session:
        where = [f"Session {st.session}"]
        if st.session_deal:
            of = f" of {st.session_deals}" if st.session_deals else ""
            where.append(f"Deal {st.session_deal}{of}")
        if st.session_started:
            where.append(f"session clock {_time(st.session_started, clock=True)}")
        parts.append(f'<p class="where">{" · ".join(where)}</p>')
        if called:  # the table is stopped until the referee comes: said loudly, with its age
            parts.append(
                f'<p class="call" role="alert">Referee called · waiting '
                f"{_time(t.called_since, clock=True)}</p>"
            )
        else:
            parts.append(f'<p class="phase">{escape(phase_words(st.phase, st.turn))}</p>')
        if st.scores and st.players:
            rows = "".join(
                f'<tr><td>{seat} {escape(name)}</td><td class="n">{_signed(score)}</td></tr>'
                for seat, name, score in zip(SEATS, st.players, st.scores, strict=True)
            )
            parts.append(
                f'<table class="scores"><tr><th>now</th><th class="n">score</th></tr>{rows}</table>'
            )
    elif presence == "offline":
        parts.append('<p class="phase">offline</p>')
    for s in t.sessions:
        heads = ["player", "session total"] + [f"round {r.number}" for r in s.rounds]
        heads += ["rank points"] if s.rounds else []
        parts.append(
            f'<table class="session"><caption>session {s.session} · {escape(s.rules)} · '
            f"{plural(s.deals, 'deal')} settled</caption><tr>"
            + "".join(f"<th{NUM if i else ''}>{h}</th>" for i, h in enumerate(heads))
            + f"</tr>{_session_rows(s)}</table>"
        )
        if s.imbalance:
            parts.append(
                f'<p class="refused" role="alert" data-imbalance="{s.imbalance}">session '
                f"{s.session}: the scores sum to {s.imbalance:+d} beyond the points paid to "
                "nobody — check this table's journal</p>"
            )
    return "".join(parts) + "</article>"


def render_banner(link: LinkState | None) -> str:
    if link is None or link.up:
        return ""
    what = "was lost" if link.ever else "cannot be reached"
    return (
        f'<p class="banner" role="alert">The hall broker {escape(link.broker)} {what} '
        f"(since {_time(link.since)}): the hub keeps trying; what is shown below is as of "
        "then.</p>"
    )


def render_fragment(
    snap: HallStandings,
    link: LinkState | None = None,
    trust: Callable[[str, str], TableTrust] | None = None,
) -> str:
    """The standings as HTML; every name from the wire is escaped."""
    banner = render_banner(link)
    if not snap.tables:
        return banner + '<p class="empty">No table has reported yet.</p>'
    now = datetime.now(UTC)
    cards = "".join(
        _card(t, link, now, None if trust is None else trust(t.hall, t.table)) for t in snap.tables
    )
    rounds = any(s.rounds for t in snap.tables for s in t.sessions)
    rows = "".join(
        f'<tr><td class="n">{i}</td><td>{escape(p.name)}</td>'
        f"<td>{escape(', '.join(table_name(x) for x in p.tables))}</td>"
        + (f'<td class="n">{_points(p.rank_points)}</td>' if rounds else "")
        + f'<td class="n">{_signed(p.score)}</td><td class="n">{p.deals}</td>'
        + (f'<td class="n">{p.rounds}</td>' if rounds else "")
        + "</tr>"
        for i, p in enumerate(snap.players, 1)
    )
    heads = (
        '<tr><th class="n">place</th><th>player</th><th>table</th>'
        + ('<th class="n">rank points (4/3/2/1 a round)</th>' if rounds else "")
        + '<th class="n">score</th><th class="n">deals</th>'
        + ('<th class="n">rounds</th>' if rounds else "")
        + "</tr>"
    )
    players = f'<section class="players box"><h2>Players</h2><table>{heads}{rows}</table></section>'
    return f'{banner}<section class="tables">{cards}</section>{players}'


def render_page(
    snap: HallStandings,
    hall: str | None,
    link: LinkState | None = None,
    trust: Callable[[str, str], TableTrust] | None = None,
) -> str:
    title = f"Hall {escape(hall)} standings" if hall else "Hall standings"
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/hub.css"></head><body>'
        f'<header class="status"><h1>{title}</h1></header>'
        f'<main id="standings">{render_fragment(snap, link, trust)}</main>'
        '<script src="/hub.js"></script></body></html>'
    )


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
            lambda req: Response.html(render_page(self._snap(), hall, self._link(), self.trust)),
        )
        server.route("GET", "/standings.html", lambda req: Response.html(self._fragment()))
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

    def _fragment(self) -> str:
        return render_fragment(self._snap(), self._link(), self.trust)

    def changed(self) -> None:
        """Call after the standings changed (the subscriber's `on_change`)."""
        self.channel.publish("standings", str(self.standings.version), id=self.standings.version)

    def close(self) -> None:
        self.channel.close()
