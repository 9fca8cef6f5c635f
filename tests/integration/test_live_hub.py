"""A real table publishing to a real Mosquitto, `mjtable hub` keeping the hall standings.

One session for the module: Mosquitto on a free loopback port, `mjtable hub` subscribed to
it, then `mjtable run --fast --deals 2 --mqtt 127.0.0.1:PORT`. Near the end of the first deal
the broker is killed (SIGKILL: its in-memory sessions and retained messages since start are
gone); the first deal settles while it is down; it is started again on the same port during
the second deal. No score may be lost: the hub's standings must equal the journal summary.
Headless Chromium keeps the hub's page open all along and must see it update live, and a
plain MQTT client subscribed to the table's topics checks that nothing hidden goes out there.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from journal_truth import Timeline, scan_broadcast, scan_public, tokens
from live_run import ENV, ROOT, LiveRun
from real_things import HubProcess, screenshot, start_broker

from controller.journal.records import RecordKind
from controller.journal.store import Journal
from controller.journal.summary import summarise
from controller.outputs.scoreboard import DEFAULT_BROADCAST_DELAY_S

pytestmark = pytest.mark.slow

SEED = 3  # deal 1 runs to the wall's end, so "near its end" is reached with the wall
PLAYERS = ("Ann", "Bo", "Cy", "Di")
HALL, TABLE = "h1", "t9"
KILL_AT_TILES_LEFT = 12
SESSION_TIMEOUT_S = 85.0


def _get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def _settled(journal: Path) -> list[tuple[int, float]]:
    """(deal, monotonic time) of every settlement journalled so far (read-only view)."""
    if not journal.exists():
        return []
    try:
        with Journal.open_readonly(journal) as j:
            return [(r.deal, r.mono) for r in j.records() if r.kind is RecordKind.DEAL_SETTLED]
    except Exception:  # the daemon is creating it: not yet readable
        return []


class Hub(HubProcess):
    """`mjtable hub --json --heads FILE` as a process (tests/real_things.py)."""

    def __init__(self, broker_port: int, heads: Path) -> None:
        self.heads = heads
        super().__init__(broker_port, HALL, "--json", "--heads", str(heads), env=ENV)

    def standings(self) -> dict:
        status, body = _get(self.port, "/api/standings")
        assert status == 200
        return json.loads(body)


class TopicCrawler:
    """Every message on the table's topics, as any client in the hall could read them."""

    def __init__(self, port: int) -> None:
        import paho.mqtt.client as mqtt

        self.messages: list[tuple[float, str, bytes]] = []
        self.connected = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="leak-crawler")
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda c, u, m: self.messages.append(
            (time.monotonic(), m.topic, m.payload)
        )
        self.client.reconnect_delay_set(0.2, 2.0)
        self.client.connect_async("127.0.0.1", port)
        self.client.loop_start()
        assert self.connected.wait(15), "the test's MQTT client did not connect"

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        client.subscribe(f"mjtable/{HALL}/{TABLE}/#", qos=1)  # again after a broker restart
        self.connected.set()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@dataclass
class Session:
    """What the driver saw and did, on this machine's monotonic clock."""

    run: LiveRun
    hub: Hub
    topics: TopicCrawler
    broker: object
    journal: Path
    truth: Path
    killed_at: float | None = None
    restarted_at: float | None = None
    exit_code: int | None = None
    failure: str | None = None
    done: threading.Event = field(default_factory=threading.Event)


def _drive(s: Session) -> None:
    """Kill the broker near the end of deal 1, start it again once deal 1 has settled."""
    try:
        printed = s.run.printed()
        deadline = time.monotonic() + SESSION_TIMEOUT_S
        while s.killed_at is None:
            assert time.monotonic() < deadline, "deal 1 never came near its end"
            assert s.run.proc.poll() is None, s.run.diagnosis("ended early")
            status, body = _get(printed.port, "/api/public")
            view = json.loads(body) if status == 200 else {}
            if view.get("deal") == 1 and 0 < view.get("tiles_left", 99) <= KILL_AT_TILES_LEFT:
                s.broker.kill()
                s.killed_at = time.monotonic()
            else:
                s.done.wait(0.1)  # polling a live process: rate limit, not a test delay
        while not _settled(s.journal):
            assert time.monotonic() < deadline, "deal 1 did not settle"
            s.done.wait(0.1)
        s.done.wait(1.0)  # the table keeps playing deal 2 a while with the broker away
        s.broker.start()
        s.restarted_at = time.monotonic()
        s.exit_code = s.run.wait(max(1.0, deadline - time.monotonic()))
    except BaseException as err:  # reported by the tests
        s.failure = f"{type(err).__name__}: {err}"
    finally:
        s.done.set()


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hall")
    broker = start_broker(folder / "broker")
    hub = run = topics = None
    try:
        hub = Hub(broker.port, folder / "heads.jsonl")
        topics = TopicCrawler(broker.port)
        config = folder / "mjtable.toml"
        config.write_text(f"[table]\nplayers = {json.dumps(list(PLAYERS))}\n")
        journal, truth = folder / "table.journal", folder / "truth.jsonl"
        run = LiveRun(
            *("--fast", "--deals", "2", "--seed", str(SEED), "--http", "127.0.0.1:0"),
            *("--journal", str(journal), "--truth", str(truth), "--config", str(config)),
            *("--mqtt", f"127.0.0.1:{broker.port}", "--hall", HALL, "--table-name", TABLE),
        )
        s = Session(run, hub, topics, broker, journal, truth)
        threading.Thread(target=_drive, args=(s,), daemon=True).start()
        yield s
    finally:
        if run is not None:
            run.stop()
        if hub is not None:
            hub.stop()
        if topics is not None:
            topics.stop()
        broker.stop()


def _finished(s: Session) -> list:
    assert s.done.wait(SESSION_TIMEOUT_S + 10), "the session did not finish"
    assert s.failure is None, s.failure + "\n" + s.run.diagnosis("")
    assert s.exit_code == 0 and "stopped: deals" in s.run.out, s.run.diagnosis("exit")
    with Journal.open_readonly(s.journal) as j:
        deals = summarise(j.records())
    assert [d.deal for d in deals if d.settled] == [1, 2]
    return deals


def _expected_totals(deals) -> list[int]:
    return [sum(d.deltas[i] for d in deals) for i in range(4)]


def _table(standings: dict) -> dict | None:
    return next((t for t in standings["tables"] if t["table"] == TABLE), None)


# --- the hub's page in Chromium ------------------------------------------------------------------


def test_hub_page_in_chromium_updates_live(browser, session: Session) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(session.hub.url + "/")
    page = browser.find_element(By.ID, "standings")
    assert TABLE not in page.text  # nothing yet: the table has not settled a deal

    def shows(names_and_totals) -> bool:
        text = browser.find_element(By.ID, "standings").text
        return all(f"{n} {t:+d}" in text for n, t in names_and_totals)

    deals = _finished(session)  # the page stays open while the session is played
    final = list(zip(PLAYERS, _expected_totals(deals), strict=True))
    WebDriverWait(browser, 20, poll_frequency=0.2).until(
        lambda d: shows(final), message=f"the page shows {final}"
    )
    # Live: the page was never reloaded, its script fetched the standings on each event.
    assert browser.execute_script("return performance.getEntriesByType('navigation').length") == 1
    fetched = browser.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter((e) => e.name.endsWith('/standings.html')).length"
    )
    assert fetched >= 2, "the page updated at least for each settled deal"
    status, fragment = _get(session.hub.port, "/standings.html")
    assert status == 200 and TABLE in fragment.decode()
    screenshot(browser, "live-hub")
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


# --- standings through a broker restart ------------------------------------------------------------


def test_hub_standings_equal_the_journal_through_a_broker_restart(session: Session) -> None:
    deals = _finished(session)
    settled = dict(_settled(session.journal))
    # The first deal settled while the broker was down (it was killed before, started after).
    assert session.killed_at is not None and session.restarted_at is not None
    assert session.killed_at < settled[1] < session.restarted_at
    assert settled[2] > session.restarted_at
    expected = _expected_totals(deals)
    deadline = time.monotonic() + 20
    while True:  # the hub gets the deals as the broker delivers them
        table = _table(session.hub.standings())
        got = table and table["sessions"] and table["sessions"][0]
        if got and got["deals"] == 2 and got["totals"] == expected:
            break
        assert time.monotonic() < deadline, f"hub: {table}, journal: {expected}"
        session.done.wait(0.2)
    assert got["players"] == list(PLAYERS) and got["rules"] == "sbr-mil"
    # the status the director's page reads (issue 16 item 7): the deal "2 of 2", the session's
    # start for its clock, the names and the scores of the seats
    status = table["status"]
    assert (status["session_deal"], status["session_deals"]) == (2, 2), status
    assert status["players"] == list(PLAYERS) and len(status["scores"]) == 4
    assert status["session_started"] and table["last_seen"]
    assert got["session"] == deals[0].session
    players = {p["name"]: p for p in session.hub.standings()["players"]}
    assert {n: players[n]["score"] for n in PLAYERS} == dict(zip(PLAYERS, expected, strict=True))
    assert all(players[n]["deals"] == 2 for n in PLAYERS)
    assert any(expected), "the session moved no score: pick another seed"


def test_the_hub_keeps_each_settled_deals_chain_head(session: Session) -> None:
    """Issue 15 item 5: the chain head of every settled deal goes to the hub, which keeps it
    off the table's disk; the journal verifies against those heads."""
    _finished(session)
    with Journal.open_readonly(session.journal) as j:
        settled = [(r.seq, r.hash) for r in j.records() if r.kind is RecordKind.DEAL_SETTLED]
    deadline = time.monotonic() + 20
    while True:
        kept = [json.loads(line) for line in session.hub.heads.read_text().splitlines()]
        if len(kept) >= len(settled):
            break
        assert time.monotonic() < deadline, f"hub heads: {kept}, journal: {settled}"
        session.done.wait(0.2)
    assert sorted({(h["seq"], h["hash"]) for h in kept}) == settled
    assert {(h["table"], h["hall"]) for h in kept} == {(TABLE, HALL)}
    out = subprocess.run(
        [sys.executable, "-m", "controller", "journal", "verify", str(session.journal),
         "--anchors", str(session.hub.heads), "--table", TABLE],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert out.returncode == 0 and f"{len(settled)} anchors held" in out.stdout, out


def test_seat_displays_after_every_settlement(session: Session) -> None:
    """The table's displays follow each seat's running score, and every seat shows deal 1's
    deltas after it, then the sums over both deals (simulator truth vs. journal summary)."""
    deals = _finished(session)
    records = [json.loads(line) for line in session.truth.read_text().splitlines()]
    scores = [r for r in records if r["class"] == "command" and r["command"] == "show-score"]
    shown = {seat: [r["score"] for r in scores if r["seat"] == seat] for seat in "ESWN"}
    after_1, totals = list(deals[0].deltas), _expected_totals(deals)
    for i, seat in enumerate("ESWN"):
        assert after_1[i] in shown[seat] and shown[seat][-1] == totals[i], (seat, shown)
    assert [r["seat"] for r in scores[-4:]] == list("ESWN"), scores


def test_table_topics_carry_nothing_hidden(session: Session) -> None:
    """The view topic is a public view (scanned against the journal like the scoreboard's);
    the broadcast topic the delayed view, never before the delay (the table's default);
    status, deal and ledger carry no tile at all; only a discard event names a tile."""
    _finished(session)
    timeline = Timeline.read(session.journal)
    by_channel: dict[str, list[dict]] = {}
    problems: list[str] = []
    for t, topic, payload in list(session.topics.messages):
        if not payload:
            continue  # a retained message cleared
        text = payload.decode()
        message = json.loads(text)
        channel = topic.rsplit("/", 1)[1]
        by_channel.setdefault(channel, []).append(message)
        if channel == "view":
            problems += scan_public(message, text, timeline)
        elif channel == "broadcast":
            problems += scan_broadcast(message, t, DEFAULT_BROADCAST_DELAY_S, timeline)
        elif channel == "event":
            if message["event"] != "discard" and message.get("tile") is not None:
                problems.append(f"a tile on a {message['event']} event: {text}")
        elif tokens(text):
            problems.append(f"tiles on {topic}: {text}")
    assert problems == [], "\n".join(problems[:30])
    assert len(by_channel.get("view", ())) >= 20, sorted(by_channel)
    assert {"status", "deal", "ledger"} <= set(by_channel), sorted(by_channel)
    # every accepted move that shows on the table goes out as an event (regression: none did)
    events = [m["event"] for m in by_channel.get("event", ())]
    assert events.count("discard") >= 20 and "draw" in events, events[:40]
