"""GET /words.json: the catalog a page says its words with, in the language the page picked
or, without a pick, the browser's (a real server on 127.0.0.1)."""

from __future__ import annotations

import http.client
import json

import pytest

from controller.outputs.http import WebServer
from controller.outputs.scoreboard import Scoreboard


@pytest.fixture
def server():
    web = WebServer()
    Scoreboard().mount(web)
    web.start()
    yield web
    web.close()


def words(server: WebServer, path: str, headers: dict[str, str]) -> tuple[dict, dict]:
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        conn.request("GET", path, headers=headers)
        reply = conn.getresponse()
        assert reply.status == 200
        return json.loads(reply.read()), {k.lower(): v for k, v in reply.getheaders()}
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("path", "accept", "language", "five_dots"),
    [
        ("/words.json", "ru-RU,ru;q=0.9,en;q=0.8", "ru", "5 точек"),
        ("/words.json", "zh-CN,zh;q=0.9", "zh-CN", "五筒"),
        ("/words.json", "fr-FR", "en", None),
        ("/words.json?lang=zh-CN", "ru-RU", "zh-CN", "五筒"),  # the page's pick wins
        ("/words.json?lang=en", "ru-RU", "en", None),
        ("/words.json?lang=xx", "ru-RU", "en", None),
    ],
)
def test_a_page_gets_the_catalog_of_its_language(server, path, accept, language, five_dots):
    body, headers = words(server, path, {"Accept-Language": accept})
    assert body["language"] == language
    assert body["fault"] is None
    assert body["messages"].get("5 Dots", [None])[0] == five_dots
    assert "Accept-Language" in headers["vary"]
