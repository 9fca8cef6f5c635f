"""Issue 29 item 2 end to end: a real `mjtable run --fast` plays two deals into a hall set up
by `mjtable hall broker-config` (Mosquitto, the bridge, the viewers' broker); every message
on `mjtable/+/+/view`, `event` and `broadcast` — as the table published them on Mosquitto,
and as the phones get them from the viewers' broker over WebSockets — is checked against the
table's own journal: no concealed tile, no hidden void, no wall order, and the delayed feed
never before its delay. The hub's viewer page shows the table's board read from the broker,
in headless Chromium."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from journal_truth import Timeline, scan_broadcast, scan_public, tokens
from live_run import ENV, LiveRun
from real_things import HubProcess, absent, screenshot, start_chromium
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tools.bench.hall_loopback import HallPartMissing, LoopbackHall

pytestmark = pytest.mark.slow

DELAY_S = 3.0
SEED = 3
PLAYERS = ("Ann", "Bo", "Cy", "Di")
RUN_TIMEOUT_S = 120.0
CHANNELS = ("view", "event", "broadcast")
BROADCAST_KEYS = {"public", "hands", "shown_at", "kind", "version"}
HAND_KEYS = {"seat", "standing", "void", "waits", "max_value"}


@dataclass(frozen=True, slots=True)
class Heard:
    topic: str
    payload: bytes
    t: float  # this machine's CLOCK_MONOTONIC, as the daemon's journal `mono`


class Recorder:
    """Every message on mjtable/+/+/{view,event,broadcast}, with when it arrived."""

    def __init__(self, port: int, websockets: bool, user: str | None, password: str | None):
        self.heard: list[Heard] = []
        self.lock = threading.Condition()
        self.ready = threading.Event()
        transport = "websockets" if websockets else "tcp"
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, transport=transport)
        if user:
            self.client.username_pw_set(user, password)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(
            [(f"mjtable/+/+/{ch}", 1) for ch in CHANNELS]
            if not websockets
            else [(f"mjtable/h/+/{ch}", 1) for ch in CHANNELS]
        )
        self.client.on_subscribe = lambda c, u, mid, rcs, p: self.ready.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _message(self, client, userdata, msg) -> None:
        with self.lock:
            self.heard.append(Heard(msg.topic, msg.payload, time.monotonic()))
            self.lock.notify_all()

    def payloads(self, channel: str) -> list[bytes]:
        with self.lock:
            return [h.payload for h in self.heard if h.topic.endswith(f"/{channel}")]

    def wait_for(self, channel: str, want: list[bytes], timeout_s: float) -> bool:
        """Whether this recorder has heard `want` on `channel`, in that order, in time."""
        with self.lock:
            return self.lock.wait_for(lambda: self.payloads(channel)[-len(want):] == want,
                                      timeout_s)  # fmt: skip

    def stop(self) -> list[Heard]:
        self.client.disconnect()
        self.client.loop_stop()
        with self.lock:
            return list(self.heard)


def scan_event(event: dict, timeline: Timeline) -> list[str]:
    """A public move: only a discard names a tile (the one the journal says was discarded),
    only a meld names its meld (laid out at that moment); a draw names nothing."""
    where = f"event {event['event']} seq {event['seq']}"
    m = timeline.at(event["seq"])
    problems = []
    if event["event"] != "discard" and event.get("tile"):
        problems.append(f"{where}: names the tile {event['tile']}")
    if event["event"] == "discard" and m is not None and event["tile"] != m.last_discard:
        problems.append(f"{where}: tile {event['tile']} != the discard {m.last_discard}")
    if event.get("meld") and m is not None:
        laid = {meld for s in m.seats for meld in s.melds}
        if not any(tokens(event["meld"]) <= tokens(meld) for meld in laid):
            problems.append(f"{where}: meld {event['meld']} was not laid out")
    if set(tokens(json.dumps(event))) - set(tokens(f"{event.get('tile')} {event.get('meld')}")):
        problems.append(f"{where}: a tile outside its tile and meld")
    return problems


def app(driver):
    """The page's board, found afresh: the page may replace it between two looks."""
    return driver.find_element(By.ID, "app")


def until(driver, look, timeout: float = 30):
    """What `look` returns once it is truthy; a board replaced meanwhile is looked at again."""
    return WebDriverWait(
        driver, timeout, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
    ).until(look)


@pytest.fixture
def hall(tmp_path: Path):
    try:
        hall = LoopbackHall(tmp_path, "h", ("t7",), max_viewers=20)
        hall.start()
    except HallPartMissing as err:
        absent(str(err))
    yield hall
    hall.stop()


def test_the_public_topics_carry_nothing_concealed_and_the_viewer_page_shows_the_board(
    hall: LoopbackHall, tmp_path: Path
) -> None:
    config = tmp_path / "mjtable.toml"
    config.write_text(
        f'[table]\nname = "t7"\nplayers = {json.dumps(list(PLAYERS))}\n'
        f"[http]\nbroadcast-delay = {DELAY_S}\n"
        f'[mqtt]\nbroker = "127.0.0.1:{hall.mqtt_port}"\nhall = "h"\nusername = "table-h-t7"\n'
        f'password = "{hall.password("table-h-t7")}"\n'
    )
    at_table = Recorder(hall.mqtt_port, False, "hub-h", hall.password("hub-h"))
    at_phones = Recorder(hall.ws_port, True, None, None)
    hub = HubProcess(hall.mqtt_port, "h", "--username", "hub-h", "--password-file",
                     str(hall.credentials["hub-h"]), "--viewers-port", str(hall.ws_port),
                     env=ENV)  # fmt: skip
    browser = start_chromium((390, 844))
    journal = tmp_path / "t7.journal"
    run = None
    try:
        assert at_table.ready.wait(20) and at_phones.ready.wait(20)
        run = LiveRun("--config", str(config), "--fast", "--deals", "2", "--seed", str(SEED),
                      "--journal", str(journal), "--http", "127.0.0.1:0")  # fmt: skip
        browser.get(hub.url + "/viewer?table=t7")
        seq = int(until(browser, lambda d: app(d).get_attribute("data-seq")))
        until(browser, lambda d: int(app(d).get_attribute("data-seq") or 0) > seq)
        text = until(browser, lambda d: app(d).text)
        assert all(name in text for name in PLAYERS), text
        until(browser, lambda d: d.find_element(By.ID, "live").text == "live")
        screenshot(browser, "hall-viewer-phone")
        assert run.wait(RUN_TIMEOUT_S) == 0, run.diagnosis("the table")
        # the table is gone: what it released of its delayed feed reaches the phones' broker
        released = at_table.payloads("broadcast")
        assert released and at_phones.wait_for("broadcast", released, 20), "feed not bridged"
        # the page's table list, then the delayed feed with the hands
        browser.get(hub.url + "/viewer")
        until(browser, lambda d: app(d).get_attribute("data-state") == "tables")
        assert "Table t7" in until(browser, lambda d: app(d).text)
        browser.get(hub.url + "/viewer?table=t7&feed=broadcast")
        until(browser, lambda d: app(d).get_attribute("data-seq"))
        assert "delayed" in until(browser, lambda d: app(d).text)
        logs = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert logs == [], logs
    finally:
        if run is not None:
            run.stop()
        browser.quit()
        hub.stop()
    published, watched = at_table.stop(), at_phones.stop()

    timeline = Timeline.read(journal)
    problems: list[str] = []
    for heard in published + watched:
        raw = heard.payload.decode()
        if not raw:
            continue
        message, channel = json.loads(raw), heard.topic.rsplit("/", 1)[1]
        if channel == "view":
            problems += scan_public(message, raw, timeline)
        elif channel == "broadcast":
            problems += scan_broadcast(message, heard.t, DELAY_S, timeline)
            # the hands and their waits, never the wall (scan_public looks for its order too)
            if set(message) != BROADCAST_KEYS or any(set(h) != HAND_KEYS for h in message["hands"]):
                problems.append(f"broadcast seq {message['public']['seq']}: other fields")
        else:
            problems += scan_event(message, timeline)
    assert problems == [], "\n".join(problems[:30])
    # the deals were played in full, seen on both brokers, and the phones got all of it
    kinds = {(h.topic.rsplit("/", 1)[1]) for h in watched}
    assert kinds == set(CHANNELS), kinds
    deals = {json.loads(h.payload)["deal"] for h in published if h.topic.endswith("/view")}
    assert {1, 2} <= deals, deals
    events = [h.payload for h in published if h.topic.endswith("/event")]
    assert len(events) >= 40
    assert [h.payload for h in watched if h.topic.endswith("/event")] == events
    moves = [json.loads(e)["event"] for e in events]
    assert "draw" in moves and "discard" in moves
