"""The scoreboard and the seat displays of a real `mjtable run` while its simulator plays.

One real run for the module: `mjtable run --fast --deals 1 --seed 3 --http 127.0.0.1:0`
(the simulator as its child on ptys, bots playing, the journal on disk). From the moment it
prints its addresses a crawler reads every public stream and polls every public endpoint;
headless Chromium follows the public page live and logs in to the referee page with the
token the daemon printed. Afterwards the daemon's journal says what was hidden at each
moment, and everything public that came back is scanned against it; the simulator's truth
file says what the table's seat displays were sent.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from journal_truth import Timeline, scan_broadcast, scan_public, tokens
from live_run import GUARDED, Crawl, Crawler, LiveRun, Printed
from real_things import screenshot

from controller.journal.records import RecordKind
from controller.journal.store import Journal
from controller.journal.summary import summarise
from rules.tiles import Suit
from tests.controller.outputs.page_checks import OVERFLOW_JS

pytestmark = pytest.mark.slow

SEED = 3  # a drawn deal (wall exhausted) whose settlement moves every score
DELAY_S = 4.0  # broadcast delay: short, so the delayed view shows within one --fast deal
RUN_TIMEOUT_S = 80.0
PLAYERS = ("Ann", "Bo", "Cy", "Di")
SUITED = tuple(f"{r}{s.value}" for s in (Suit.M, Suit.P, Suit.S) for r in range(1, 10))
STATIC = (
    "/static/style.css",
    "/static/board.js",
    "/static/public.js",
    "/static/broadcast.js",
    "/static/referee.js",
    "/tiles/sprite.svg",
    "/tiles/back.svg",
    *(f"/tiles/{t}.svg" for t in SUITED),
)


@dataclass
class Live:
    run: LiveRun
    printed: Printed
    crawler: Crawler
    static: dict[str, bytes]  # fetched when the daemon came up
    truth: Path


@dataclass(frozen=True)
class Finished:
    crawl: Crawl
    timeline: Timeline
    deltas: tuple[int, int, int, int]  # the journal summary's deal
    exited_at: float  # when the daemon began its clean stop (or half a second before exit)


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> Live:
    folder = tmp_path_factory.mktemp("live")
    config = folder / "mjtable.toml"
    config.write_text(
        f'[table]\nname = "t7"\nplayers = {json.dumps(list(PLAYERS))}\n'
        f"[http]\nbroadcast-delay = {DELAY_S}\n"
    )
    truth = folder / "truth.jsonl"
    run = LiveRun(
        *("--fast", "--deals", "1", "--seed", str(SEED), "--http", "127.0.0.1:0"),
        *("--journal", str(folder / "table.journal"), "--truth", str(truth)),
        *("--config", str(config)),
    )
    crawler = None
    try:
        printed = run.printed()
        crawler = Crawler(printed.port, STATIC, printed.token).start()
        yield Live(run, printed, crawler, crawler.fetch_static(), truth)
    finally:
        run.stop()
        if crawler is not None:
            crawler.join()


@pytest.fixture(scope="module")
def finished(live: Live) -> Finished:
    assert live.run.wait(RUN_TIMEOUT_S) == 0, live.run.diagnosis("did not stop cleanly")
    assert "stopped: deals" in live.run.out, live.run.diagnosis("not stopped by --deals")
    crawl = live.crawler.join()
    with Journal.open_readonly(live.printed.journal) as j:
        (deal,) = summarise(j.records())
        # the clean stop begins with the session's end (journalled before the web server
        # closes: a refused connection after it is the stop, not a failure); the daemon's
        # `mono` is this machine's CLOCK_MONOTONIC, as the crawler's times are
        ends = [r.mono for r in j.records() if r.kind is RecordKind.SESSION_ENDED]
    assert deal.settled and deal.deltas is not None
    assert live.run.exited_at is not None and ends
    stopping = min(live.run.exited_at - 0.5, ends[-1])
    return Finished(crawl, Timeline.read(live.printed.journal), deal.deltas, stopping)


# --- 1. Chromium follows the live deal ---------------------------------------------------------

# Installed in the public page through WebDriver (not subject to the page's CSP): samples
# what the page shows every 100 ms, in the page itself, so it keeps sampling while the test
# looks at the other tabs.
SAMPLER_JS = """
window.__samples = [];
const q = (s) => Array.from(document.querySelectorAll(s));
const take = () => {
  const n = document.querySelector('.wall-count .n');
  window.__samples.push({
    tiles_left: n ? Number(n.textContent) : null,
    river: q('.river .tile').length,
    totals: q('.score .total').map((e) => e.textContent),
    face_up_in_hands: q('.hand .tile[data-tile]').map((e) => e.dataset.tile),
    state: document.getElementById('app').dataset.state,
  });
};
take();
window.__sampler = setInterval(take, 100);
"""
SAMPLES_JS = "return window.__samples;"


def _wait(driver, condition, what: str, timeout: float = 30.0):
    from selenium.common.exceptions import (
        NoSuchElementException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.support.ui import WebDriverWait

    ignored = (NoSuchElementException, StaleElementReferenceException)
    wait = WebDriverWait(driver, timeout, poll_frequency=0.1, ignored_exceptions=ignored)
    return wait.until(lambda d: condition(d), message=what)


def test_chromium_follows_the_live_deal(browser, live: Live) -> None:
    from selenium.webdriver.common.by import By

    p = live.printed
    browser.get(p.scoreboard)
    public_tab = browser.current_window_handle
    _wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".seat")) == 4, "four seats")
    # read in one script: the live page re-renders on every record, so an element found in
    # one call can be replaced before the next reads it (a stale element, one CI run)
    names = browser.execute_script(
        "return [...document.querySelectorAll('.player')].map((e) => e.textContent.trim())"
    )
    assert names == list(PLAYERS)
    browser.execute_script(SAMPLER_JS)
    _wait(
        browser,
        lambda d: d.execute_script(SAMPLES_JS)[-1]["river"] >= 4,
        "the deal under way",
    )
    screenshot(browser, "live-public")
    # While the deal is played: the referee, with the token mjtable run printed, in a tab.
    browser.switch_to.new_window("tab")
    browser.get(p.referee)
    browser.find_element(By.NAME, "token").send_keys(p.token)
    browser.find_element(By.CSS_SELECTOR, "form.login button").click()
    _wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".hand .tile")) > 30, "hands")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#wall .tile"), "the wall")
    screenshot(browser, "live-referee")
    # The broadcast view in another: the hands appear, delayed.
    browser.switch_to.new_window("tab")
    browser.get(p.base + "/broadcast")
    _wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".hand .tile")) >= 4, "hands")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".river .tile"), "delayed discards")
    note = f"delayed {DELAY_S:.0f} s"
    _wait(browser, lambda d: note in d.find_element(By.CSS_SELECTOR, ".note").text, note)
    screenshot(browser, "live-broadcast")

    # Back to the public tab (it kept following): the settlement shows the result screen.
    browser.switch_to.window(public_tab)
    _wait(
        browser,
        lambda d: d.execute_script(SAMPLES_JS)[-1]["state"] == "result",
        "the result screen after the settlement",
        timeout=RUN_TIMEOUT_S,
    )
    samples = browser.execute_script("clearInterval(window.__sampler); " + SAMPLES_JS)
    screenshot(browser, "live-public-settled")
    logs = browser.get_log("browser")
    # Issue 16 item 3: every hand face up, the ledger; nothing overflows on a TV or a phone.
    revealed = browser.execute_script(
        "return [...document.querySelectorAll('.seat')].map("
        "(s) => s.querySelectorAll('.hand.revealed .tile[data-tile]').length)"
    )
    assert len(revealed) == 4 and all(revealed), revealed
    assert browser.execute_script("return document.querySelectorAll('.ledger .line').length")
    for size in ((1920, 1080), (390, 844)):
        metrics = {"width": size[0], "height": size[1], "deviceScaleFactor": 1}
        browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {**metrics, "mobile": size[0] < 800}
        )
        try:
            assert browser.execute_script(OVERFLOW_JS, size[0] > size[1]) == [], size
        finally:
            browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    # Live: the wall count went down and discards appeared while the simulator played.
    lefts = [s["tiles_left"] for s in samples if s["tiles_left"] is not None]
    lefts = lefts[next(i for i, n in enumerate(lefts) if n) :]  # from the deal's start (55)
    assert lefts == sorted(lefts, reverse=True), "the wall count never goes up within a deal"
    assert len(set(lefts)) >= 10, lefts
    rivers = [s["river"] for s in samples]
    assert max(rivers) >= rivers[0] + 10, "discards appeared while the page was open"
    playing = [s for s in samples if s["state"] != "result"]
    assert playing and not [s for s in playing if s["face_up_in_hands"]], "a concealed tile"
    # The scores shown are the session totals of the journal's settlement.
    live.run.wait(RUN_TIMEOUT_S)
    with Journal.open_readonly(p.journal) as j:
        (deal,) = summarise(j.records())
    assert samples[-1]["totals"] == [str(d) for d in deal.deltas]

    # No script error nor CSP violation. Expected, and the only things tolerated: the 401
    # that answers /referee before the login (it is the login form), and the page's event
    # streams failing to reconnect once the daemon has stopped.
    def expected(e: dict) -> bool:
        if e["source"] != "network":
            return False
        if e["message"].startswith(p.referee + " ") and "401" in e["message"]:
            return True
        return "/events/" in e["message"] and live.run.exited_at is not None

    errors = [e for e in logs if e["level"] == "SEVERE" and not expected(e)]
    assert errors == []


# --- 2. nothing hidden in any public answer ------------------------------------------------------


def _public_answers(crawl: Crawl):
    for a in crawl.answers:
        if a.path in ("/api/public", "/api/broadcast") and a.status == 200:
            yield a


def test_public_endpoints_and_streams_leak_nothing(live: Live, finished: Finished) -> None:
    crawl, timeline = finished.crawl, finished.timeline
    playing = [e for e in crawl.errors if e[0] < finished.exited_at]
    assert playing == [], (
        f"the crawler failed while the daemon ran: {playing[:3]} exit {finished.exited_at}"
    )
    public_events = [e for e in crawl.events if e.path == "/events/public" and e.name == "view"]
    broadcast_events = [
        e for e in crawl.events if e.path == "/events/broadcast" and e.name == "view"
    ]
    apis = list(_public_answers(crawl))
    # The crawl covered the whole deal: the streams saw it from the start to the settlement.
    seen = [json.loads(e.data) for e in public_events]
    assert seen and seen[0]["deal"] in (0, 1) and seen[-1]["deal"] == 1
    assert "settled" in {v["phase"] for v in seen}, "the public stream missed the settlement"
    moves = sum(1 for m in timeline.moments if m.deal == 1)
    assert len(seen) >= moves // 2, f"{len(seen)} views for {moves} judged moments"
    assert len(broadcast_events) >= 10 and len(apis) >= 40

    problems: list[str] = []
    for e in public_events:
        problems += scan_public(json.loads(e.data), e.data, timeline)
        if live.printed.token in e.data:
            problems.append("the referee token in the public stream")
    for a in apis:
        text = a.body.decode()
        if live.printed.token in text:
            problems.append(f"the referee token in {a.path}")
        view = json.loads(text)
        if view.get("kind") == "none":
            continue
        if a.path == "/api/public":
            problems += scan_public(view, text, timeline)
        else:
            problems += scan_broadcast(view, a.t, DELAY_S, timeline)
    for e in broadcast_events:
        problems += scan_broadcast(json.loads(e.data), e.t, DELAY_S, timeline)
    meta = [json.loads(e.data) for e in crawl.events if e.name == "meta"]
    assert meta and all(m["delay_s"] == DELAY_S for m in meta)
    assert problems == [], "\n".join(problems[:30])

    # Without the token: 401 and nothing in the body (no tile, no name, no view).
    guarded = [a for a in crawl.answers if a.path in (*GUARDED, "/referee/api/action")]
    assert {a.path for a in guarded} == {*GUARDED, "/referee/api/action"}
    for a in guarded:
        assert a.status == 401, (a.path, a.status)
        body = a.body.decode()
        assert not tokens(body) and not any(name in body for name in PLAYERS), (a.path, body)
    # Pages, tile drawings and static files: the same bytes all deal long (no data in them).
    again = [a for a in crawl.answers if a.path in live.static]
    assert {a.path for a in again} == set(live.static), "pages and static files fetched again"
    for a in again:
        assert a.status == 200 and a.body == live.static[a.path], a.path


def test_the_scanner_finds_what_a_leak_would_show(finished: Finished) -> None:
    """The scan above must be able to fail: real views from this run, each given one leak."""
    timeline = finished.timeline
    views = [
        json.loads(e.data)
        for e in finished.crawl.events
        if e.path == "/events/public" and e.name == "view"
    ]
    # A moment after every void was chosen and before the last seat's first discard.
    hidden = [
        (v, m)
        for v in views
        if (m := timeline.at(v["seq"])) is not None
        and v["deal"] == m.deal
        and all(s.void for s in m.seats)
        and not all(s.void_public for s in m.seats)
        and not m.over
    ]
    assert hidden, "no public view was published while a void was still hidden"
    view, moment = hidden[0]
    assert scan_public(view, json.dumps(view), timeline) == []
    i = next(i for i, s in enumerate(moment.seats) if not s.void_public)

    def leaked(change) -> list[str]:
        v = json.loads(json.dumps(view))
        change(v)
        return scan_public(v, json.dumps(v), timeline)

    hand = list(moment.seats[i].hand)
    assert leaked(lambda v: v["seats"][i].update(void=moment.seats[i].void))  # void too early
    assert leaked(lambda v: v["seats"][i].update(hand=hand))  # a new field with the hand
    assert leaked(lambda v: v.update(rules=f"{v['rules']} {hand[0]}"))  # a tile in a text
    assert leaked(lambda v: v["seats"][i]["discards"].append(hand[0]))  # a concealed tile
    assert leaked(lambda v: v.update(table=" ".join(moment.wall[:5])))  # the wall order
    assert leaked(lambda v: v.update(table="".join(t[0] for t in hand[:3]) + hand[0][1]))
    late = max(finished.timeline.monos.values())
    hands = [
        {"seat": n, "standing": list(s.hand)} for n, s in zip("ESWN", moment.seats, strict=True)
    ]
    shown = {"public": view, "hands": hands, "shown_at": timeline.monos[view["seq"]]}
    assert scan_broadcast(shown, late + DELAY_S, DELAY_S, timeline) == []
    assert scan_broadcast(shown, shown["shown_at"] + DELAY_S / 2, DELAY_S, timeline)  # early
    hands[i]["standing"][0] = moment.wall[0]  # a hand that is not the one of that moment
    assert scan_broadcast(shown, late + DELAY_S, DELAY_S, timeline)


# --- 3. the seat displays --------------------------------------------------------------------------


def test_seat_displays_get_the_session_totals(live: Live, finished: Finished) -> None:
    """Each seat's display (table profile `show-score`, as the simulated board received it)
    shows the running score as it changes, and after the settlement every seat is sent its
    session total from the journal summary."""
    records = [json.loads(line) for line in live.truth.read_text().splitlines()]
    scores = [r for r in records if r["class"] == "command" and r["command"] == "show-score"]
    assert set(Counter(r["seat"] for r in scores)) == set("ESWN"), scores
    settlement = scores[-4:]
    assert [r["seat"] for r in settlement] == list("ESWN"), scores
    assert [r["score"] for r in settlement] == list(finished.deltas)
    assert any(finished.deltas), "the deal moved no score: pick another seed"
    # The settlement's are sent after the deal ended on the table: the simulator's last move
    # precedes them.
    last_move = max(r["t"] for r in records if r["class"] == "move")
    assert min(r["t"] for r in settlement) >= last_move


def test_referee_view_shows_the_journal_truth(finished: Finished) -> None:
    """With the token: every hand and the wall still to draw, as the journal has them."""
    timeline = finished.timeline
    checked = 0
    for a in finished.crawl.answers:
        if a.path != "auth:/referee/api/view":
            continue
        assert a.status == 200, a.status
        view = json.loads(a.body)
        if view.get("kind") == "none":
            continue
        public = view["public"]
        m = timeline.at(public["seq"])
        if m is None or public["deal"] != m.deal:
            continue
        assert [tuple(sorted(h["standing"])) for h in view["hands"]] == [s.hand for s in m.seats]
        assert [h["void"] for h in view["hands"]] == [s.void for s in m.seats]
        assert tuple(view["wall_remaining"]) == m.wall, public["seq"]
        checked += 1
    assert checked >= 20, checked
