"""The referee's page on a tablet and a phone (issue 27 items 1 and 2), with the call raised
by a real daemon: `mjtable run` against its simulator with heavy noise (30/30/5: at 10/10/2
a call can take many minutes to come) until the table calls the referee, then headless Chromium at 1024×768, 768×1024, 390×844 and 360×640. At
each size the page is no wider than the window, the call's headline and its first candidate
lie inside the first screen, and its buttons are at least 44 px high. The tablet and phone
screenshots of docs/REFEREE.md are made here (written to docs/img/ when
MJTABLE_DOC_SHOTS=1, else under artifacts/screenshots/)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time

import pytest
from harness import ENV, ROOT, kill
from real_things import start_chromium

from tools.campaign.referee import TOKEN, config_text
from tools.campaign.run import free_port

pytestmark = pytest.mark.slow

SIZES = {
    "tablet": (1024, 768),
    "tablet-portrait": (768, 1024),
    "phone": (390, 844),
    "small-phone": (360, 640),
}
CALL_S = 300  # the noisy table calls the referee well before this (about 20 s)

# one measurement of the page as the window shows it (null: no call shown now)
MEASURE_JS = """
const box = document.getElementById('call');
if (!box || box.hidden) return null;
const vw = document.documentElement.clientWidth, vh = window.innerHeight;
const r = (e) => { const b = e.getBoundingClientRect();
  return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, height: b.height}; };
const first = document.querySelector('#candidates li > *');
return {
  page: document.documentElement.scrollWidth, vw: vw, vh: vh,
  headline: r(document.getElementById('call-headline')),
  text: document.getElementById('call-headline').textContent,
  first: first ? r(first) : null,
  firstText: first ? first.textContent : '',
  buttons: [...document.querySelectorAll('#candidates button, #manual > summary')]
    .filter((e) => e.getBoundingClientRect().height > 0)
    .map((e) => e.getBoundingClientRect().height),
};
"""


def inside(box: dict, vw: int, vh: int) -> bool:
    return (
        box["top"] >= -1
        and box["left"] >= -1
        and box["bottom"] <= vh + 1
        and box["right"] <= vw + 1
    )


@pytest.fixture(scope="module")
def called(tmp_path_factory):
    """A daemon on a noisy simulated table, its URL once it has called the referee."""
    tmp = tmp_path_factory.mktemp("tablet")
    config = tmp / "mjtable.toml"
    config.write_text(config_text())
    port = free_port()
    cmd = [
        sys.executable, "-m", "controller", "run", "--fast", "--seed", "5", "--deals", "40",
        "--missed", "30", "--crosstalk", "30", "--corrupt", "5",
        "--journal", str(tmp / "t.journal"), "--http", f"127.0.0.1:{port}",
        "--config", str(config),
    ]  # fmt: skip
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, cwd=ROOT
    )
    try:
        end = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < end:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        assert proc.poll() is None, f"the daemon stopped: exit {proc.returncode}"
        yield f"http://127.0.0.1:{port}"
    finally:
        kill(proc)


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium(SIZES["tablet"])
    yield driver
    driver.quit()


def _size(driver, width: int, height: int) -> None:
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def _login(driver, url: str) -> None:
    from selenium.webdriver.common.by import By

    driver.get(url + "/referee")
    if driver.find_elements(By.NAME, "token"):
        driver.find_element(By.NAME, "token").send_keys(TOKEN)
        driver.find_element(By.CSS_SELECTOR, "form.login button").click()


def _measured(driver, timeout: float) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            seen = driver.execute_script(MEASURE_JS)
        except Exception:  # the page is loading
            seen = None
        if seen and seen["first"]:
            return seen
        time.sleep(0.3)
    raise AssertionError(f"no referee call with a candidate on the page within {timeout:.0f} s")


def test_the_call_fits_a_tablet_and_a_phone(called, browser):
    _login(browser, called)
    _measured(browser, CALL_S)  # the table has called
    shots = ROOT / "artifacts" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    for name, (w, h) in SIZES.items():
        _size(browser, w, h)
        seen = _measured(browser, CALL_S)  # (a call answered by the table: the next one)
        vw, vh = seen["vw"], seen["vh"]
        assert w - 20 <= vw <= w, (name, vw)  # (less a vertical scroll bar)
        assert seen["page"] <= vw, f"{name}: the page is {seen['page']} px wide in {vw}"
        assert inside(seen["headline"], vw, vh), (name, seen["text"], seen["headline"])
        assert inside(seen["first"], vw, vh), (name, seen["firstText"], seen["first"])
        assert len(seen["text"]) <= 121, seen["text"]
        assert min(seen["buttons"]) >= 44, (name, seen["buttons"])
        # "Something else…" open: the manual actions fit too
        wide = browser.execute_script(
            "const m = document.getElementById('manual'); m.open = true;"
            "const w = document.documentElement.scrollWidth; return w;"
        )
        assert wide <= vw, f"{name}: with the manual actions open the page is {wide} px wide"
        browser.execute_script("document.getElementById('manual').open = false;")
        if name in ("tablet", "phone"):
            path = shots / f"referee-{name}.png"
            assert browser.save_screenshot(str(path))
            if os.environ.get("MJTABLE_DOC_SHOTS") == "1":
                shutil.copy(path, ROOT / "docs" / "img" / f"referee-{name}.png")
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
