"""The scoreboard in a real headless Chromium (Debian's, driven by Selenium + chromedriver).

The server runs on 127.0.0.1 (port 0); views are pushed while the pages are open and the test
waits for the browser to show them (live updates, the claim countdown, scores after the
settlement). Screenshots of each view land in artifacts/screenshots/ for people to look at.
Skips only when Chromium is missing outside CI; with CI=true a missing browser fails.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from outputs_views import broadcast_view, public_steps, referee_view

from controller.outputs.http import WebServer
from controller.outputs.scoreboard import ActionResult, RefereeAction, Scoreboard

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"
TOKEN = "browser-test-token-1234"
DELAY = 30.0
TV = (1920, 1080)
PHONE = (412, 915)
WAIT_S = 15


def _missing() -> str | None:
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        return "Debian chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


reason = _missing()
if reason is not None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


class FakeClock:
    def __init__(self) -> None:
        self.t = 5000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-dev-shm-usage",
        f"--window-size={TV[0]},{TV[1]}",
    ):
        options.add_argument(flag)
    # An explicit chromedriver: Selenium never looks for (or downloads) a driver itself.
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT_S)
    yield driver
    driver.quit()


@pytest.fixture
def table():
    clock = FakeClock()
    actions: list[RefereeAction] = []

    def on_action(action: RefereeAction) -> ActionResult:
        actions.append(action)
        return ActionResult(True, 900 + len(actions))

    sb = Scoreboard(referee_token=TOKEN, broadcast_delay_s=DELAY, clock=clock, on_action=on_action)
    server = WebServer()
    sb.mount(server)
    server.start()
    yield sb, server, clock, actions
    server.close()


def _wait(driver, condition, what: str):
    # Pages re-render on every view and navigate after a form post: an element found a moment
    # ago may be gone, which only means "not yet".
    ignored = (NoSuchElementException, StaleElementReferenceException)
    wait = WebDriverWait(driver, WAIT_S, ignored_exceptions=ignored)
    return wait.until(lambda d: condition(d), message=what)


# Reads go through one script each: the page re-renders every element on each view (the
# stream's first message repeats the page's own), so an element held between two calls may be
# gone by the second; a regression of test_a_referee_call_is_shown_to_the_hall_and_cleared.
_READ = "return Array.from(document.querySelectorAll(arguments[0]), e => {attr})"


def _texts(driver, css: str) -> list[str]:
    return driver.execute_script(_READ.format(attr="(e.innerText ?? e.textContent).trim()"), css)


def _attrs(driver, css: str, name: str) -> list[str]:
    return driver.execute_script(_READ.format(attr="e.getAttribute(arguments[1])"), css, name)


def _river(driver, seat: str) -> list[str]:
    return _attrs(driver, f'.seat[data-seat="{seat}"] .river .tile', "data-tile")


def _viewport(driver, width: int, height: int) -> None:
    # The exact CSS viewport of a hall TV or a phone (a window size would include the frame).
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800},
    )


def _shot(driver, name: str, size: tuple[int, int] = TV) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    _viewport(driver, *size)
    # Full page: as tall as the document (phones scroll).
    height = driver.execute_script("return document.documentElement.scrollHeight")
    _viewport(driver, size[0], max(size[1], int(height)))
    assert driver.save_screenshot(str(path))
    _viewport(driver, *TV)
    return path


def _push(sb: Scoreboard, clock: FakeClock, view) -> None:
    clock.t += 1.0
    sb.publish(view, referee=referee_view(view), broadcast=broadcast_view(view, clock.t))


def test_public_scoreboard_updates_live(browser, table):
    sb, server, clock, _ = table
    steps = public_steps()
    _push(sb, clock, steps[1])
    browser.get(server.url + "/")
    _wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".seat")) == 4, "four seats")
    assert _texts(browser, ".player") == ["Li Wei", "Anna Petrova", "Kenji Sato", "Marie Dubois"]
    assert _attrs(browser, ".seat.turn", "data-seat") == ["E"]
    assert _river(browser, "E") == []

    _push(sb, clock, steps[2])  # E discards 5m; the claim window opens with 2.5 s
    _wait(browser, lambda d: _river(d, "E") == ["5m"], "the discard appears live")
    seconds = _wait(browser, lambda d: _texts(d, "#claim .seconds"), "the claim countdown shows")
    assert seconds[0].endswith(" s") and float(seconds[0][:-2]) <= 2.5
    assert _texts(browser, ".phase") == ["Claim window"]
    _shot(browser, "public-claim")

    for view in steps[3:-1]:
        _push(sb, clock, view)
    _wait(browser, lambda d: len(_river(d, "E")) == 6, "more discards")
    assert not _texts(browser, "#claim .seconds")
    assert _attrs(browser, '.seat[data-seat="N"] .meld-pung .tile', "data-tile") == ["9p"] * 3
    assert _attrs(browser, '.seat[data-seat="W"] .badge.void', "data-void") == ["s"]

    _push(sb, clock, steps[-1])  # settled: W won, scores change
    _wait(
        browser,
        lambda d: _texts(d, ".score .total") == ["96", "96", "112", "96"],
        "scores after the settlement",
    )
    assert _texts(browser, ".score .delta") == ["-4", "-4", "+12", "-4"]
    assert "Hu 1st" in _texts(browser, '.seat[data-seat="W"] .hu')[0]
    # Never a face-up concealed tile on the public page: no Bamboo anywhere in this deal.
    shown = _attrs(browser, ".tile[data-tile]", "data-tile")
    assert shown and not [t for t in shown if t.endswith("s")]
    _shot(browser, "public")
    _shot(browser, "public-phone", PHONE)
    logs = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert logs == []  # no script errors, no CSP violations


def test_broadcast_view_shows_hands_only_after_the_delay(browser, table):
    sb, server, clock, _ = table
    steps = public_steps()
    _push(sb, clock, steps[5])
    browser.get(server.url + "/broadcast")
    _wait(browser, lambda d: "after the delay" in _texts(d, "#app")[0], "waiting page")
    assert _texts(browser, ".hand .tile") == []
    clock.t += DELAY  # the moment of steps[5] may now be shown
    _push(sb, clock, steps[6])
    _wait(browser, lambda d: len(_texts(d, ".hand .tile")) == 52, "hands")
    # the delayed moment, not the last
    assert _attrs(browser, "#app", "data-seq") == [str(steps[5].seq)]
    assert "delayed 30 s" in _texts(browser, ".note")[0]
    assert _texts(browser, ".hand-info .value") == ["max 4 pts"] * 4
    _shot(browser, "broadcast")


def test_referee_view_behind_the_login_form(browser, table):
    sb, server, clock, actions = table
    for view in public_steps()[:7]:
        _push(sb, clock, view)
    browser.get(server.url + "/referee")
    assert browser.find_elements(By.NAME, "token")  # the 401 answer is the login form
    assert "Li Wei" not in browser.page_source
    browser.find_element(By.NAME, "token").send_keys("wrong-token")
    browser.find_element(By.CSS_SELECTOR, "form.login button").click()
    _wait(browser, lambda d: "Wrong token" in d.find_element(By.CSS_SELECTOR, ".error").text, "!")
    browser.find_element(By.NAME, "token").send_keys(TOKEN)
    browser.find_element(By.CSS_SELECTOR, "form.login button").click()
    _wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#wall .tile")) == 11, "wall")
    _wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".hand .tile")) == 52, "hands")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#alerts li")) == 2
    # the journal panel: newest first, the time in the browser's zone, the move in words
    # (issue 16 item 5: it was truncated raw JSON with ISO UTC times)
    first, local = browser.execute_script(
        "return [document.querySelector('#journal li').textContent,"
        " new Date('2026-03-01T10:00:05.000+00:00').toLocaleTimeString()];"
    )
    assert first == f"#{public_steps()[6].seq} {local} South discards 5 Dots"
    # the seat pickers name the players; no seat and no points are chosen beforehand
    seats = browser.execute_script(
        "const f = document.getElementById('penalty-form');"
        "return [[...f.querySelector('select[name=seat]').options].map(o => o.text),"
        " f.querySelector('select[name=seat]').value, f.querySelector('[name=points]').value];"
    )
    assert seats[1:] == ["", ""] and seats[0][0] == "—" and seats[0][1].startswith("E · ")

    form = browser.find_element(By.ID, "penalty-form")
    Select(form.find_element(By.NAME, "seat")).select_by_value("S")
    points = form.find_element(By.NAME, "points")
    points.clear()
    points.send_keys("48")
    form.find_element(By.NAME, "note").send_keys("void suit held at wall end")
    form.find_element(By.CSS_SELECTOR, "button").click()
    # a penalty asks first: "no" sends nothing, "yes" applies it
    question = browser.switch_to.alert
    assert question.text.startswith("South pays 48 points to nobody")
    assert "can be undone" in question.text
    question.dismiss()
    assert actions == []
    form.find_element(By.CSS_SELECTOR, "button").click()
    browser.switch_to.alert.accept()
    _wait(browser, lambda d: "Recorded as #901" in d.find_element(By.ID, "action-result").text, "")
    assert [(a.kind.value, a.seat.name, a.points, a.note, a.confirmed) for a in actions] == [
        ("penalty", "S", 48, "void suit held at wall end", True)
    ]
    _push(sb, clock, public_steps()[7])  # the referee page follows the deal live too
    _wait(browser, lambda d: "Settled" in "".join(_texts(d, ".phase")), "live")
    _shot(browser, "referee")


def test_a_referee_call_is_shown_to_the_hall_and_cleared(browser, table):
    """Issue 13: "Referee called" on the public board while the deal waits for the referee
    (a flag only: the call's words, which name tiles in hands, stay on the referee view)."""
    sb, server, clock, _ = table
    steps = public_steps()
    _push(sb, clock, dataclasses.replace(steps[3], referee_called=True))
    browser.get(server.url + "/")
    banner = _wait(browser, lambda d: _texts(d, ".referee-called"), "the call shows")
    assert banner == ["Referee called"]
    _shot(browser, "public-referee-called")
    _push(sb, clock, steps[4])
    _wait(browser, lambda d: not _texts(d, ".referee-called"), "cleared")
