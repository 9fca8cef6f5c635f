"""Regression: the hub's page had no icon, so every browser showing it asked for
/favicon.ico and logged a 404 in its console (caught by test_live_hub's Chromium check)."""

from __future__ import annotations

import http.client
import re

from controller.hub.page import HubPage
from controller.hub.standings import Standings
from controller.outputs.http import WebServer


def test_hub_page_names_an_icon_it_serves() -> None:
    server = WebServer(port=0)
    HubPage(Standings(), server, "h1")
    server.start()
    try:
        port = int(server.url.rsplit(":", 1)[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/")
        page = conn.getresponse().read().decode()
        icon = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
        assert icon, page
        conn.request("GET", icon.group(1))
        answer = conn.getresponse()
        body = answer.read()
        assert answer.status == 200
        assert answer.getheader("Content-Type") == "image/svg+xml"
        assert body.startswith(b"<svg") and b"<title>1 Dots</title>" in body
        conn.close()
    finally:
        server.close()
