"""Regression: the director's page fetched the standings once per change, several at a time,
and showed whichever answer came back last. An older answer arriving after a newer one left
the page on the older hall until the next change (CI at c2e0300: the table's card never
showed "West to discard", whose status arrived right behind two deals).

Here the hub's page runs in-process (a real WebServer, headless Chromium): one request for
the standings is held with the hall as it was when it began, while the hall changes again;
it is let go only once the browser has answered every other request it made. The page must
end on the newer hall. No sleeping: the test watches the page's own event source and
fetches (the page's globals `source` and `fetch`)."""

from __future__ import annotations

import threading

from real_things import read_page

from controller.hub.page import HubPage
from controller.hub.standings import HallStandings, Standings
from controller.hub.wire import Presence, TableStatus
from controller.outputs.http import WebServer

PHASE = "const p = document.querySelector('.card .phase'); return p ? p.textContent : '';"

# count the standings events the page has taken (its own listener runs first, so its fetch
# is made by then) and its fetches made and answered
WATCH = """
window.seen = 0; window.made = 0; window.answered = 0;
source.addEventListener("standings", () => { window.seen += 1; });
const original = window.fetch;
window.fetch = async (...args) => {
  window.made += 1;
  const answer = await original(...args);
  const text = await answer.text();
  window.answered += 1;
  return new Response(text, {status: answer.status, headers: answer.headers});
};
"""
COUNTS = """
return {seen: window.seen, made: window.made, answered: window.answered,
        idle: typeof fetching === "undefined" || !fetching};
"""


class HeldOnce(Standings):
    """Standings whose next snapshot, once armed, is taken at once and handed back only when
    `release` is set, as a busy hub thread answers with the hall as it was when it began."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = threading.Event()
        self.taken = threading.Event()  # the held snapshot is taken (the old hall)
        self.release = threading.Event()

    def snapshot(self) -> HallStandings:
        held = self.armed.is_set()
        self.armed.clear()
        snap = super().snapshot()
        if held:
            self.taken.set()
            self.release.wait(10.0)
        return snap


def status(phase: str) -> TableStatus:
    return TableStatus("h1", "7", Presence.ONLINE, 1, 3, phase, session_deal=3, turn="W")


def test_regression_an_older_standings_answer_arriving_last_hid_the_newer_hall(browser) -> None:
    standings = HeldOnce()
    server = WebServer(port=0)
    page = HubPage(standings, server, "h1")
    server.start()
    try:
        standings.apply_status("h1", "7", status("playing.awaiting_draw"), "2026-11-29T08:00:00")
        browser.get(server.url + "/")
        read_page(browser, PHASE, lambda p: p == "West to draw", "the first hall", 10.0)
        browser.execute_script(WATCH)
        # the old hall is asked for, and taken, and held ...
        standings.armed.set()
        standings.apply_status("h1", "7", status("playing.awaiting_call"), "2026-11-29T08:00:01")
        page.changed()
        assert standings.taken.wait(10.0), "the page did not ask for the standings"
        # ... the hall changes again, and the browser answers all it asked for but the held one
        standings.apply_status("h1", "7", status("playing.awaiting_discard"), "2026-11-29T08:00:02")
        page.changed()
        read_page(
            browser,
            COUNTS,
            lambda c: c["seen"] == 2 and c["answered"] == c["made"] - 1,
            "the second change taken",
            10.0,
        )
        standings.release.set()
        # every request answered and the page done fetching: it shows the newer hall
        read_page(
            browser,
            COUNTS,
            lambda c: c["answered"] == c["made"] and c["idle"],
            "the page settled",
            10.0,
        )
        assert browser.execute_script(PHASE) == "West to discard"
    finally:
        standings.release.set()
        page.close()
        server.close()
