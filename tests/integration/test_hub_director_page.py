"""Issue 16 item 7: the director's hall page, with `mjtable hub` as a process, a real
Mosquitto on 127.0.0.1 and headless Chromium at 1920x1080 and 390x844.

The hub starts before its broker: the page says the broker cannot be reached and the hub
logs it; the broker comes up and the banner goes; a table reports (the real publisher):
its card says where the session is in words, with the deal "3 of 10", the session clock,
the phase and the scores; the standings name each player's table and the rank points;
the broker is killed: the banner says it was lost, the table turns stale, the log says so.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from live_run import ENV
from real_things import HubProcess, absent, hub_helpers, read_page, screenshot

from controller.hub.wire import BrokerOptions, SettledDeal
from controller.outputs.mqtt import MqttPublisher
from rules.seats import Seat

pytestmark = pytest.mark.slow

T = 20.0
PLAYERS = ("Ann", "Bo", "Cy", "Di")


READ = """
const q = (s) => [...document.querySelectorAll(s)];
const card = document.querySelector('.card');
return {
  banner: (document.querySelector('.banner') || {}).textContent || '',
  empty: (document.querySelector('.empty') || {}).textContent || '',
  title: card ? card.querySelector('h2 span').textContent : '',
  badge: card ? card.querySelector('.badge').textContent : '',
  last: card ? card.querySelector('p.muted').textContent : '',
  where: card ? (card.querySelector('.where') || {}).textContent || '' : '',
  phase: card ? (card.querySelector('.phase') || {}).textContent || '' : '',
  scores: card ? [...card.querySelectorAll('table.scores tr')].slice(1).map((r) => r.innerText) : [],
  heads: q('.players th').map((e) => e.textContent),
  players: q('.players tr').slice(1).map((r) => [...r.children].map((c) => c.textContent)),
  overflow: document.documentElement.scrollWidth > window.innerWidth,
};
"""


def wait_page(browser, check, what: str) -> dict:
    """The page as READ sees it once `check` holds."""
    return read_page(browser, READ, check, what, T)


def deal(n: int, deltas: tuple[int, int, int, int]) -> SettledDeal:
    return SettledDeal(100 + n, 1, n, "sbr-mil", Seat.E, (3, 4), (Seat.E,), deltas, PLAYERS)


def test_the_directors_page_says_where_every_table_is(browser, tmp_path: Path) -> None:
    helpers = hub_helpers()
    exe = helpers._mosquitto()
    if exe is None:
        absent("mosquitto is not installed (apt-get install mosquitto)")
    broker = helpers.Mosquitto(exe, tmp_path)  # its port is chosen; it is not started yet
    hub = HubProcess(broker.port, "h1", env=ENV, wait_s=T)
    table = None
    try:
        # 1. no broker: a log line and a banner (it said "No table has reported yet")
        assert hub.said("cannot be reached"), list(hub.log)
        browser.set_window_size(1920, 1080)
        browser.get(hub.url + "/")
        page = wait_page(browser, lambda p: "cannot be reached" in p["banner"], "no banner")
        assert f"127.0.0.1:{broker.port}" in page["banner"]
        # 2. the broker comes up: the banner goes
        broker.start()
        wait_page(browser, lambda p: not p["banner"], "the banner stayed")
        # 3. a table reports
        table = MqttPublisher(
            BrokerOptions(port=broker.port, reconnect_min_s=0.05, reconnect_max_s=0.2), "h1", "7"
        )
        table.start()
        assert table.wait_connected(T)
        table.publish_deal(deal(1, (9, -3, -3, -3)))
        table.publish_deal(deal(2, (-4, 0, 4, 0)))
        began = (datetime.now(UTC) - timedelta(minutes=12, seconds=5)).isoformat()
        table.publish_status(
            1,
            3,
            "playing.awaiting_discard",
            session_deal=3,
            session_deals=10,
            session_started=began,
            turn="W",
            players=PLAYERS,
            scores=(13, -11, 1, -3),
        )
        # both deals and the status arrive in any order: wait for all three on the page
        expected = {"Ann": "+5", "Bo": "-3", "Cy": "+1", "Di": "-3"}

        def shown(p: dict) -> bool:
            return p["phase"] == "West to discard" and {r[1]: r[3] for r in p["players"]} == (
                expected
            )

        page = wait_page(browser, shown, "no table")
        assert (page["title"], page["badge"]) == ("Table 7", "online")
        assert re.fullmatch(r"last message \d\d?:\d\d:\d\d( [AP]M)?", page["last"]), page["last"]
        assert re.fullmatch(r"Session 1 · Deal 3 of 10 · session clock 12:0\d", page["where"])
        assert page["scores"] == ["E Ann\t+13", "S Bo\t-11", "W Cy\t+1", "N Di\t-3"]
        assert "table" in page["heads"] and "place" in page["heads"]
        assert page["players"][0][1:3] == ["Ann", "Table 7"]  # best first
        # sbr-mil has no rounds: place, player, table, score, deals (9-4, -3, -3+4, -3)
        assert {p[1]: p[3] for p in page["players"]} == expected
        assert not page["overflow"]
        screenshot(browser, "hub-director-tv")
        browser.set_window_size(390, 844)
        page = browser.execute_script(READ)
        assert not page["overflow"], "the phone layout runs past the screen"
        browser.set_window_size(1920, 1080)
        # 4. the broker goes away: a banner, the table stale, a log line
        broker.kill()
        page = wait_page(browser, lambda p: "was lost" in p["banner"], "no lost banner")
        assert page["badge"] == "stale"
        assert hub.said("hub lost the broker")
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert all("/events" in e["message"] or "standings" in e["message"] for e in errors)
    finally:
        if table is not None:
            table.stop(drain_timeout_s=0.5)
        hub.stop()
        broker.stop()
