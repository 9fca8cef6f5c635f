"""Regression: the director's page fetched the standings once per change, several at a time,
and showed whichever answer came back last. An older answer arriving after a newer one left
the page on the older hall until the next change (CI at c2e0300: the table's card never
showed "West to discard", whose status arrived right behind two deals).

Here the hub's page runs in-process (a real WebServer, headless Chromium): the standings are
made to answer one request slowly with the hall as it was, while the next change is answered
at once; the page must end on the newer hall."""

from __future__ import annotations

import threading
import time

from real_things import read_page

from controller.hub.page import HubPage
from controller.hub.standings import HallStandings, Standings
from controller.hub.wire import Presence, TableStatus
from controller.outputs.http import WebServer

READ = "const p = document.querySelector('.card .phase'); return p ? p.textContent : '';"


class SlowOnce(Standings):
    """Standings whose next snapshot, once armed, is taken at once and handed back late, as
    a busy hub thread would answer a request with the hall as it was when it began."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = threading.Event()
        self.taken = threading.Event()  # the slow snapshot is taken (the old hall)
        self.answered = threading.Event()  # ...and handed back

    def snapshot(self) -> HallStandings:
        slow = self.armed.is_set()
        self.armed.clear()
        snap = super().snapshot()
        if slow:
            self.taken.set()
            time.sleep(1.5)
            self.answered.set()
        return snap


def status(phase: str) -> TableStatus:
    return TableStatus("h1", "7", Presence.ONLINE, 1, 3, phase, session_deal=3, turn="W")


def test_regression_an_older_standings_answer_arriving_last_hid_the_newer_hall(browser) -> None:
    standings = SlowOnce()
    server = WebServer(port=0)
    page = HubPage(standings, server, "h1")
    server.start()
    try:
        standings.apply_status("h1", "7", status("playing.awaiting_draw"), "2026-11-29T08:00:00")
        browser.get(server.url + "/")
        read_page(browser, READ, lambda p: p == "West to draw", "the first hall", 10.0)
        # the old hall is asked for, and taken, slowly ...
        standings.armed.set()
        standings.apply_status("h1", "7", status("playing.awaiting_call"), "2026-11-29T08:00:01")
        page.changed()
        assert standings.taken.wait(10.0), "the page did not ask for the standings"
        # ... and the hall changes again while that answer is on its way
        standings.apply_status("h1", "7", status("playing.awaiting_discard"), "2026-11-29T08:00:02")
        page.changed()
        assert standings.answered.wait(10.0)
        time.sleep(1.0)  # the slow answer is in the browser now
        read_page(browser, READ, lambda p: p == "West to discard", "the newer hall", 5.0)
    finally:
        page.close()
        server.close()
