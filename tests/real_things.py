"""The real things for the integration tests: Debian's headless Chromium (Selenium with an
explicit chromedriver: nothing is downloaded), a real Mosquitto on 127.0.0.1, and what a
command wrote to a real pseudo-terminal.

Each skips with its reason when it is not installed, except with `CI=true`, where a missing
browser or broker is a failure (.ci/run installs both). (Imported by name from the tests:
`conftest` is not importable by name when the whole suite runs, it has many.)
"""

from __future__ import annotations

import importlib.util
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
TV = (1920, 1080)


def absent(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}, and CI must run this test", pytrace=False)
    pytest.skip(reason)


def chromium_missing() -> str | None:
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        return "Debian chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)"
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


def start_chromium(window: tuple[int, int] = TV, page_load_s: float = 20):
    """A headless Chromium at `window` (CSS pixels); console messages of every level are
    kept. The one browser set-up of the suite (issue 19): the scoreboard, the live runs, the
    hall page and the printed report all start it here."""
    missing = chromium_missing()
    if missing:
        absent(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

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
        # background tabs keep their timers and streams running at full speed
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        f"--window-size={window[0]},{window[1]}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(page_load_s)
    return driver


def screenshot(driver, name: str) -> Path:
    """A full-page PNG under artifacts/screenshots/ (gitignored), for people to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    height = driver.execute_script("return document.documentElement.scrollHeight")
    metrics = {"width": TV[0], "height": max(TV[1], int(height)), "deviceScaleFactor": 1}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "mobile": False})
    try:
        assert driver.save_screenshot(str(path)), path
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return path


def read_page(driver, script: str, check, what: str, timeout_s: float = 20.0) -> dict:
    """What `script` returns once `check` holds on it (selenium's wait polls the page); an
    AssertionError naming `what` and the last reading if it never does."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    seen: list[dict] = [{}]

    def ready(driver) -> dict | None:
        seen[0] = driver.execute_script(script)
        return seen[0] if check(seen[0]) else None

    try:
        return WebDriverWait(driver, timeout_s, poll_frequency=0.2).until(ready)
    except TimeoutException:
        raise AssertionError(f"{what}: {seen[0]}") from None


# --- Mosquitto: the hub tests' broker helper (tests/controller/hub/conftest.py), reused ---


def hub_helpers():
    path = ROOT / "tests" / "controller" / "hub" / "conftest.py"
    spec = importlib.util.spec_from_file_location("hub_broker_helpers", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def start_broker(folder: Path):
    """A real Mosquitto on a free 127.0.0.1 port, persistence on, started; `kill()` then
    `start()` restarts it on the same port, `stop()` ends it. Skips (fails in CI) without it."""
    helpers = hub_helpers()
    exe = helpers._mosquitto()
    if exe is None:
        absent("mosquitto is not installed (apt-get install mosquitto)")
    folder.mkdir(parents=True, exist_ok=True)
    b = helpers.Mosquitto(exe, folder)
    b.start()
    return b


def end_process(proc) -> None:
    """SIGTERM a child a test started, SIGKILL if it has not ended within 15 s (the one
    process stop of the integration tests)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(15)


class HubProcess:
    """`mjtable hub` as a process on the broker at 127.0.0.1:`broker_port` (`extra`: more of
    its options); its standings page's URL is read from its log, and the log (stdout and
    stderr) is kept for `said`. The one hub set-up of the integration tests."""

    def __init__(self, broker_port: int, hall: str, *extra: str, env=None, wait_s: float = 20):
        cmd = [
            *(sys.executable, "-m", "controller", "hub", "--broker", f"127.0.0.1:{broker_port}"),
            *("--hall", hall, "--http", "127.0.0.1:0", *extra),
        ]
        env = env or {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT
        )
        self.log: deque[str] = deque(maxlen=500)
        self.logged = threading.Condition()  # a line was added to `log`
        self.wait_s = wait_s
        assert self.proc.stderr is not None and self.proc.stdout is not None
        line = ""
        while "standings page:" not in line:
            line = self.proc.stderr.readline()
            assert line, "the hub exited: " + "\n".join(self.log)
            self.log.append(line.rstrip())
        self.url = line.split("standings page:")[1].strip()
        self.port = int(self.url.rsplit(":", 1)[1])
        for stream in (self.proc.stderr, self.proc.stdout):
            threading.Thread(target=self._drain, args=(stream,), daemon=True).start()

    def _drain(self, stream) -> None:
        for line in stream:
            with self.logged:
                self.log.append(line.rstrip())
                self.logged.notify_all()

    def said(self, text: str, timeout: float | None = None) -> bool:
        """Whether a line of its log holds `text` within `timeout` seconds (woken by each
        line the hub writes)."""
        with self.logged:
            return self.logged.wait_for(
                lambda: any(text in line for line in self.log),
                self.wait_s if timeout is None else timeout,
            )

    def stop(self) -> None:
        end_process(self.proc)


def read_terminal(
    leader: int, proc: subprocess.Popen, timeout: float, until: str = "", interrupt: str = ""
) -> str:
    """What a command wrote to its pseudo-terminal (`leader`: the side the test holds), read
    until `until` is seen, the command ends (its terminal closes) or `timeout` passes; SIGINT
    is sent once, when `interrupt` is first seen."""
    out = b""
    sent = False
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the command ended: the terminal is gone
                break
            if not chunk:
                break
            out += chunk
        text = out.decode(errors="replace")
        if interrupt and not sent and interrupt in text:
            proc.send_signal(signal.SIGINT)
            sent = True
        if until and until in text:
            break
        if proc.poll() is not None and not ready:
            break
    return out.decode(errors="replace")
