"""The hub's page: hall standings as HTML, updated live over server-sent events.

Routes on a `controller.outputs.http.WebServer`:
    GET /                 the page (the standings rendered server-side: readable without JS)
    GET /standings.html   the standings fragment alone (what the script swaps in)
    GET /api/standings    HallStandings as JSON (kind "standings")
    GET /events           SSE: a `standings` event, carrying the standings' version, per change
    GET /hub.js, /hub.css the page's script and style (the server's CSP forbids inline ones)
    GET /favicon.svg      the page's icon (a 1p tile): without one a browser asks for
                          /favicon.ico, a 404 in the console of every hall screen
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from http import HTTPStatus

from controller.hub.standings import HallStandings, SessionResult, Standings, TableResult
from controller.outputs.http import EventChannel, EventStream, Response, WebServer
from controller.outputs.tiles_svg import tile_svg
from rules.tiles import Tile

HUB_JS = """\
"use strict";
// Swap in the fresh standings whenever the hub says they changed.
const main = document.getElementById("standings");
const source = new EventSource("/events");
source.addEventListener("standings", async () => {
  const answer = await fetch("/standings.html", {cache: "no-store"});
  if (answer.ok) { main.innerHTML = await answer.text(); }
});
"""

HUB_CSS = """\
body { font-family: sans-serif; margin: 1em; background: #10261c; color: #f2efe6; }
h1, h2 { font-weight: normal; }
table { border-collapse: collapse; margin: 0 0 1.5em 0; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #3c5a4a; text-align: right; }
th:first-child, td:first-child, .name { text-align: left; }
.offline { color: #e08a6a; } .online { color: #9be29b; } .unknown { color: #aaa; }
.pending { color: #aaa; font-style: italic; }
"""


def _points(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):g}"


def _session_rows(s: SessionResult) -> str:
    rows = []
    for seat, (name, total) in enumerate(zip(s.players, s.totals, strict=True)):
        cells = [escape(name), str(total)]
        for r in s.rounds:
            if r.rank_points is None:
                cells.append(f'<span class="pending">{r.totals[seat]}</span>')
            else:
                cells.append(f"{r.totals[seat]} ({_points(r.rank_points[seat])})")
        if s.rounds:
            cells.append(_points(s.rank_points[seat]))
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return "".join(rows)


def _table_html(t: TableResult) -> str:
    where = f"deal {t.deal}, {escape(t.phase or '')}" if t.deal is not None else ""
    parts = [
        f'<h2>Table {escape(t.table)} <small class="{escape(t.presence)}">'
        f"{escape(t.presence)}</small> <small>{where}</small></h2>"
    ]
    for s in t.sessions:
        heads = ["player", "score"] + [f"round {r.number}" for r in s.rounds]
        heads += ["rank points"] if s.rounds else []
        parts.append(
            f"<table><caption>session {s.session} · {escape(s.rules)} · {s.deals} deals"
            "</caption><tr>"
            + "".join(f"<th>{h}</th>" for h in heads)
            + f"</tr>{_session_rows(s)}</table>"
        )
    return "".join(parts)


def render_fragment(snap: HallStandings) -> str:
    """The standings as HTML; every name from the wire is escaped."""
    rows = "".join(
        f'<tr><td>{i}</td><td class="name">{escape(p.name)}</td><td>{_points(p.rank_points)}</td>'
        f"<td>{p.score}</td><td>{p.deals}</td><td>{p.rounds}</td></tr>"
        for i, p in enumerate(snap.players, 1)
    )
    players = (
        '<h2>Players</h2><table><tr><th>#</th><th class="name">player</th><th>rank points</th>'
        f"<th>score</th><th>deals</th><th>rounds</th></tr>{rows}</table>"
    )
    if not snap.tables:
        return "<p>No table has reported yet.</p>"
    return players + "".join(_table_html(t) for t in snap.tables)


def render_page(snap: HallStandings, hall: str | None) -> str:
    title = f"Hall {escape(hall)} standings" if hall else "Hall standings"
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/hub.css"></head><body>'
        f'<h1>{title}</h1><main id="standings">{render_fragment(snap)}</main>'
        '<script src="/hub.js"></script></body></html>'
    )


class HubPage:
    """Serves the standings on `server` and pushes an SSE event on every change."""

    def __init__(self, standings: Standings, server: WebServer, hall: str | None = None) -> None:
        self.standings, self.server, self.hall = standings, server, hall
        self.channel = EventChannel()
        js = Response(HTTPStatus.OK, HUB_JS.encode(), "text/javascript; charset=utf-8")
        css = Response(HTTPStatus.OK, HUB_CSS.encode(), "text/css; charset=utf-8")
        icon = Response(HTTPStatus.OK, tile_svg(Tile.parse("1p")).encode(), "image/svg+xml")
        server.route("GET", "/", lambda req: Response.html(render_page(self._snap(), hall)))
        server.route("GET", "/standings.html", lambda req: Response.html(self._fragment()))
        server.route("GET", "/api/standings", lambda req: Response.json(self._snap().to_json()))
        server.route("GET", "/events", lambda req: EventStream(self.channel))
        server.route("GET", "/hub.js", lambda req: js)
        server.route("GET", "/hub.css", lambda req: css)
        server.route("GET", "/favicon.svg", lambda req: icon)

    def _snap(self) -> HallStandings:
        return self.standings.snapshot()

    def _fragment(self) -> str:
        return render_fragment(self._snap())

    def changed(self) -> None:
        """Call after the standings changed (the subscriber's `on_change`)."""
        self.channel.publish("standings", str(self.standings.version), id=self.standings.version)

    def close(self) -> None:
        self.channel.close()
