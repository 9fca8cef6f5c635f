"""The hall page's language switch in a real headless Chromium: the director's pick is kept
in the browser (localStorage mjtable.lang.hall) and the hub renders the page and its live
fragment in it; "Auto" goes back to the browser's language."""

from __future__ import annotations

import os

import pytest
from real_things import chromium_missing, start_chromium

from controller.hub.page import HubPage
from controller.hub.standings import Standings
from controller.hub.wire import SettledDeal
from controller.outputs.http import WebServer
from rules.seats import Seat

reason = chromium_missing()
if reason is not None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)

from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

WAIT_S = 15


def test_the_director_s_pick_is_kept_and_the_page_follows_it():
    standings = Standings()
    standings.apply_deal("h", "T1", SettledDeal(
        seq=1, session=1, deal=1, rules="sbr-mil", dealer=Seat.E, dice=(1, 2), winners=(),
        deltas=(4, -4, 0, 0)))  # fmt: skip
    server = WebServer()
    page = HubPage(standings, server, hall="Chengdu")
    server.start()
    browser = start_chromium((1280, 800), WAIT_S)
    try:
        browser.get(server.url + "/")
        assert browser.execute_script("return document.documentElement.lang") == "en"
        browser.execute_script(
            "const s = document.getElementById('lang-switch'); s.value = 'zh-CN';"
            "s.dispatchEvent(new Event('change'));"
        )
        WebDriverWait(browser, WAIT_S).until(
            lambda d: d.execute_script("return document.documentElement.lang") == "zh-CN"
        )
        assert "赛场排名" in browser.title
        browser.get(server.url + "/")  # no ?lang=: the kept pick brings it back
        WebDriverWait(browser, WAIT_S).until(
            lambda d: d.execute_script("return document.documentElement.lang") == "zh-CN",
            message="the pick kept across a visit",
        )
        # the live fragment swapped in by hub.js is in the same language
        standings.apply_deal("h", "T1", SettledDeal(
            seq=2, session=1, deal=2, rules="sbr-mil", dealer=Seat.S, dice=(3, 4), winners=(),
            deltas=(-2, 2, 0, 0)))  # fmt: skip
        page.changed()
        WebDriverWait(browser, WAIT_S).until(
            lambda d: "已结算2局" in d.execute_script("return document.body.textContent"),
            message="the fragment in Chinese",
        )
        browser.execute_script(
            "const s = document.getElementById('lang-switch'); s.value = '';"
            "s.dispatchEvent(new Event('change'));"
        )
        WebDriverWait(browser, WAIT_S).until(
            lambda d: d.execute_script("return document.documentElement.lang") == "en"
        )
        assert browser.execute_script("return localStorage.getItem('mjtable.lang.hall')") is None
    finally:
        browser.quit()
        page.close()
        server.close()
