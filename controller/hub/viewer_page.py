"""The viewer page the hub serves to the hall's phones (docs/MQTT.md "Viewers"): the table's
board (controller/web/board.js) read from the viewers' broker over MQTT over WebSockets, so
a phone never loads a table's Pi. The hub serves the static files and the words (the
catalog of the page's language, as a table does) only; the views come from the broker
(`/viewer/config.json` says its port and the hall).

    /viewer                  the hall's tables        /viewer?table=T   a table live
    /viewer?table=T&feed=broadcast                    the delayed feed (hands, after the delay)
"""

from __future__ import annotations

from http import HTTPStatus
from pathlib import Path

from controller.outputs import tiles_svg
from controller.outputs.http import SECURITY_HEADERS, Request, Response, WebServer
from controller.outputs.scoreboard import words_catalog

WEB_ROOT = Path(__file__).resolve().parent.parent / "web"
CACHE = (("Cache-Control", "max-age=86400"),)


def mount(server: WebServer, hall: str | None, websockets_port: int) -> None:
    """Serve the viewer page, its scripts and the tiles on `server`."""
    config = {"hall": hall, "websockets_port": websockets_port}
    page = (WEB_ROOT / "viewer.html").read_text(encoding="utf-8")
    csp = dict(SECURITY_HEADERS)["Content-Security-Policy"]
    # the page reads the viewers' broker, on this machine's address (whatever the phone used)
    broker = f"ws://*:{websockets_port} wss://*:{websockets_port}"
    headers = (("Content-Security-Policy", f"{csp}; connect-src 'self' {broker}"),)
    server.route("GET", "/viewer", lambda r: Response.html(page, headers=headers))
    server.route("GET", "/viewer/config.json", lambda r: Response.json(config))
    server.route("GET", "/words.json", words_catalog)  # the page's words, in its language
    sprite = Response(HTTPStatus.OK, tiles_svg.sprite().encode(), "image/svg+xml", CACHE)
    server.route("GET", "/tiles/sprite.svg", lambda r: sprite)
    server.route("GET", "/tiles/", _tile, prefix=True)
    server.static("/static/", WEB_ROOT, cache_s=3600)


def _tile(request: Request) -> Response:
    try:
        tile = tiles_svg.parse_name(request.path.removeprefix("/tiles/").removesuffix(".svg"))
    except ValueError:
        return Response.text("no such tile", HTTPStatus.NOT_FOUND)
    return Response(HTTPStatus.OK, tiles_svg.tile_svg(tile).encode(), "image/svg+xml", CACHE)
