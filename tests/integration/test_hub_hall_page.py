"""The hall page as the director meets it (issue 28 items 6-8, issue 32 item 2), with
`mjtable hub --keys` as a process, a real Mosquitto on 127.0.0.1, two tables (the real
publisher, T1 with a signing key, T2 without), a forger on the hall network, and headless
Chromium at 1920x1080, 1024x768 and 390x844.

- T1 waits for the referee: its card says so loudly, with the wait's age (it read "South to
  draw", online);
- both tables keep the default seat names: the players are T1/E ... T2/N, never one "East"
  row for two tables;
- a forged deal for T1 is refused and the card says when; T2 is shown "unsigned";
- the broker is stopped (it sends every table's Last Will on its way down): the tables are
  "stale" with the time last heard, not "offline" (the hub cannot know).
"""

from __future__ import annotations

import dataclasses
import json
import re
import urllib.request
from collections.abc import Iterator

import paho.mqtt.client as paho
import pytest
from live_run import ENV
from real_things import HubProcess, absent, hub_helpers, read_page, screenshot

from controller.hub.signing import TableKey, public_text
from controller.hub.trust import trust_key
from controller.hub.wire import BrokerOptions, Channel, SettledDeal, encode, topic
from controller.outputs.mqtt import MqttPublisher
from rules.seats import Seat

pytestmark = pytest.mark.slow

T = 20.0
DEFAULT = ("East", "South", "West", "North")  # [table] players when none are configured
SIZES = ((1920, 1080), (1024, 768), (390, 844))
TIME = r"\d\d?:\d\d:\d\d( [AP]M)?"

READ = """
const card = (name) => document.querySelector(`.card[data-table="${name}"]`);
const text = (c, s) => c ? ((c.querySelector(s) || {}).textContent || '') : '';
const one = (name) => {
  const c = card(name);
  const call = c && c.querySelector('.call');
  return {
    badge: text(c, '.badge'), heard: text(c, '.heard'), phase: text(c, '.phase'),
    call: text(c, '.call'), trust: text(c, '.trust'), refused: text(c, '.refused'),
    called: !!(c && c.classList.contains('called')),
    callVisible: !!(call && call.getBoundingClientRect().height > 0),
    callWeight: call ? getComputedStyle(call).fontWeight : '',
  };
};
return {
  T1: one('T1'), T2: one('T2'),
  banner: (document.querySelector('.banner') || {}).textContent || '',
  players: [...document.querySelectorAll('.players tr')].slice(1).map(
    (r) => [...r.children].map((c) => c.textContent)),
  overflow: document.documentElement.scrollWidth > window.innerWidth,
};
"""


def wait_page(browser, check, what: str) -> dict:
    """The page as READ sees it once `check` holds."""
    return read_page(browser, READ, check, what, T)


def deal(n: int, deltas: tuple[int, int, int, int]) -> SettledDeal:
    return SettledDeal(100 + n, 1, n, "sbr-mil", Seat.E, (3, 4), (Seat.E,), deltas, DEFAULT)


def playing(table: MqttPublisher, called: bool) -> None:
    table.publish_status(
        1,
        2,
        "playing.awaiting_draw",
        session_deal=2,
        turn="S",
        players=DEFAULT,
        scores=(6, -2, -2, -2),
        referee_called=called,
    )


@dataclasses.dataclass
class Hall:
    broker: object
    hub: HubProcess
    t1: MqttPublisher
    t2: MqttPublisher


@pytest.fixture(scope="module")
def hall(tmp_path_factory) -> Iterator[Hall]:
    """Two tables playing deal 2, T1 waiting for the referee; a forged deal for T1 sent."""
    helpers = hub_helpers()
    exe = helpers._mosquitto()
    if exe is None:
        absent("mosquitto is not installed (apt-get install mosquitto)")
    folder = tmp_path_factory.mktemp("hall")
    broker = helpers.Mosquitto(exe, folder)
    broker.start()
    key = TableKey.make()
    keys = folder / "hall.keys"
    trust_key(keys, "h", "T1", public_text(key.public))
    hub = HubProcess(broker.port, "h", "--keys", str(keys), "--json", env=ENV, wait_s=T)
    fast = BrokerOptions(port=broker.port, reconnect_min_s=0.05, reconnect_max_s=0.2)
    t1 = MqttPublisher(fast, "h", "T1", key=key)
    t2 = MqttPublisher(fast, "h", "T2")
    forger = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="laptop")
    try:
        for t in (t1, t2):
            t.start()
            assert t.wait_connected(T)
        t1.publish_deal(deal(1, (6, -2, -2, -2)))
        t2.publish_deal(deal(1, (-3, 9, -3, -3)))
        playing(t1, called=True)
        playing(t2, called=False)
        # the hub has subscribed once it prints a table (a forged deal is not retained)
        assert hub.said('"table": "T1"') and hub.said('"table": "T2"'), list(hub.log)
        forger.connect("127.0.0.1", broker.port)
        forger.loop_start()
        # the table's real signature of deal 1, on a deal with other deltas and a higher seq
        genuine = key.sign("h", "T1", deal(1, (6, -2, -2, -2)))
        forged = dataclasses.replace(deal(1, (-30, 10, 10, 10)), seq=150)
        forged = dataclasses.replace(forged, key=genuine.key, sig=genuine.sig)
        forger.publish(topic("h", "T1", Channel.DEAL), encode(forged), qos=1).wait_for_publish(T)
        yield Hall(broker, hub, t1, t2)
    finally:
        forger.loop_stop()
        for t in (t1, t2):
            t.stop(drain_timeout_s=0.5)
        hub.stop()
        broker.stop()


def at_each_size(browser, hall: Hall, check, what: str):
    """The page at 1920x1080, 1024x768 and 390x844 once `check` holds; it never runs past
    the screen's width."""
    browser.set_window_size(*SIZES[0])
    browser.get(hall.hub.url + "/")
    for size in SIZES:
        browser.set_window_size(*size)
        page = wait_page(browser, check, f"{what} at {size}")
        assert not page["overflow"], f"the page runs past the screen at {size}"
        yield size, page


def test_regression_a_table_waiting_for_the_referee_says_so_loudly(browser, hall) -> None:
    """Issue 28 item 6: T1 sat at "Referee called" while its card read "South to draw"."""
    for size, page in at_each_size(browser, hall, lambda p: p["T1"]["call"], "no call"):
        one = page["T1"]
        # the call, loudly, with its age (the page's clock: minutes:seconds)
        assert re.fullmatch(r"Referee called · waiting \d+:\d\d", one["call"]), one
        assert one["called"] and one["callVisible"] and int(one["callWeight"]) >= 700
        assert one["badge"] == "online" and "South to draw" not in one["phase"]
        assert page["T2"]["phase"] == "South to draw" and not page["T2"]["call"]
        screenshot(browser, f"hub-hall-page-{size[0]}")


def test_regression_default_seat_names_never_merge_two_tables(browser, hall) -> None:
    """Issue 28 item 8: two tables' default "East" players became one row."""

    def eight(p: dict) -> bool:
        return len(p["players"]) == 8

    for _, page in at_each_size(browser, hall, eight, "not eight seats"):
        names = {row[1]: (row[2], row[3]) for row in page["players"]}
        assert set(names) == {f"T{t}/{s}" for t in (1, 2) for s in "ESWN"}, names
        assert names["T1/E"] == ("Table T1", "+6") and names["T2/S"] == ("Table T2", "+9")


def test_regression_a_forged_deal_is_refused_and_said_on_the_card(browser, hall) -> None:
    """Issue 32 item 2: a forged deal rewrote T1's standings and no page said so."""
    for _, page in at_each_size(browser, hall, lambda p: p["T1"]["refused"], "no refusal"):
        assert re.fullmatch(
            f"a deal for Table T1 with a bad signature was refused at {TIME}",
            page["T1"]["refused"],
        ), page["T1"]
        assert page["T1"]["trust"].startswith("signed")
        assert page["T2"]["trust"].startswith("unsigned")
        assert {r[1]: r[3] for r in page["players"]}["T1/E"] == "+6"
    assert hall.hub.said("refused a deal for table T1 of hall h")
    api = json.load(urllib.request.urlopen(f"{hall.hub.url}/api/standings", timeout=T))
    signatures = {t["table"]: t["signatures"] for t in api["tables"]}
    assert signatures["T1"]["keyed"] and signatures["T1"]["refused"] == 1
    assert (signatures["T1"]["last_refused"]["why"], signatures["T1"]["last_refused"]["seq"]) == (
        "bad",
        150,
    )
    assert not signatures["T2"]["keyed"] and signatures["T2"]["refused"] == 0


def test_regression_a_stopped_broker_leaves_the_tables_stale_not_offline(browser, hall) -> None:
    """Issue 28 item 7: a broker stopped sends every table's Last Will on its way down, and
    every playing table was shown "offline"; the hub cannot know: stale, last heard."""
    browser.set_window_size(*SIZES[0])
    browser.get(hall.hub.url + "/")
    wait_page(browser, lambda p: p["T1"]["badge"] == p["T2"]["badge"] == "online", "offline")
    hall.broker.stop()
    wait_page(browser, lambda p: "was lost" in p["banner"], "no lost banner")
    for _, page in at_each_size(
        browser, hall, lambda p: p["T1"]["badge"] == p["T2"]["badge"] == "stale", "not stale"
    ):
        for name in ("T1", "T2"):
            assert re.fullmatch(f"last heard {TIME}", page[name]["heard"]), page[name]
        assert page["T1"]["call"], "the last thing heard from T1 is its call"
        assert page["T2"]["phase"] == "South to draw"
    # the broker comes back, the tables reconnect and say so
    hall.broker.start()
    wait_page(
        browser,
        lambda p: p["T1"]["badge"] == p["T2"]["badge"] == "online" and not p["banner"],
        "the tables did not come back",
    )
    # the referee came: the call goes
    playing(hall.t1, called=False)
    page = wait_page(browser, lambda p: not p["T1"]["call"], "the call stayed")
    assert page["T1"]["phase"] == "South to draw" and not page["T1"]["called"]
