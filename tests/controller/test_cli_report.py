"""`mjtable report`: the deal sheet and the session report as self-contained HTML, checked as
text and rendered in Debian's headless Chromium (Selenium + chromedriver) to PNG and PDF."""

from __future__ import annotations

import base64
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.cli import main
from controller.journal import Journal
from controller.journal_records import Correction, CorrectionAction, RecordKind, Source
from rules.seats import Seat
from tests.tools.test_referee import FakeClock, bot_journal

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "table.journal"
    bot_journal(path, [3, 4, 5], dealer=Seat.W)
    with Journal.open(path, clock=FakeClock()) as j:
        last = list(j.deal_records(2))[-1].seq
        j.append(
            Source.DAEMON,
            RecordKind.ALERT,
            {"code": "draw-mismatch", "message": "wall tile 5p expected", "seat": "S"},
            deal=2,
        )
        for action, details in (
            (CorrectionAction.PENALTY, {"seat": "N", "points": 8, "paid_to": None}),
            (CorrectionAction.YELLOW_CARD, {"seat": "E"}),
        ):
            j.append_correction(
                Correction(last, "Zhang Min", action, "retrieved a discard", details)
            )
    return path


def test_deal_sheet_is_self_contained(journal: Path, tmp_path: Path) -> None:
    out = tmp_path / "deal.html"
    assert main(["report", str(journal), "--deal", "2", "-o", str(out)]) == 0
    html = out.read_text()
    # no external assets: the only URL is the SVG namespace, every <use> names a symbol here
    assert set(re.findall(r"https?://[^\"' >]+", html)) == {"http://www.w3.org/2000/svg"}
    assert "<script" not in html and " src=" not in html
    symbols = set(re.findall(r'<symbol id="([^"]+)"', html))
    assert set(re.findall(r'<use href="#([^"]+)"', html)) <= symbols
    assert "@media print" in html and "@page" in html
    assert "Deal 2 — sbr-mil" in html and "chain intact" in html
    assert "dice" in html and "break:" in html
    assert "Zhang Min" in html and "retrieved a discard" in html and "yellow-card" in html
    assert "draw-mismatch" in html
    # the ledger: every line names its rule; the referee penalty is the last line
    rows = re.findall(r"<tr><td>([ESWN])</td><td>(\w+)</td><td class=\"n\">(\d+)</td>", html)
    assert rows and rows[-1] == ("N", "nobody", "8")
    assert "as journalled before corrections" in html

    # the chain head when the deal settled, on paper: an anchor for `journal verify`
    with Journal.open_readonly(journal) as j:
        settled = [r for r in j.deal_records(2, [RecordKind.DEAL_SETTLED])]
    assert f'<code class="anchor">{settled[0].seq}:{settled[0].hash}</code>' in html


def test_session_report_has_the_progression(journal: Path, tmp_path: Path) -> None:
    out = tmp_path / "session.html"
    assert main(["report", str(journal), "-o", str(out)]) == 0
    html = out.read_text()
    assert html.count('<section class="deal">') == 3
    chart = html[html.index('class="chart"') : html.index("</svg>", html.index('class="chart"'))]
    assert chart.count("<polyline") == 4 and ">start<" in chart


def test_report_refuses_to_overwrite_the_journal(journal: Path, capsys) -> None:
    before = journal.read_bytes()
    assert main(["report", str(journal), "-o", str(journal)]) == 2
    assert "refusing to write the report over the journal" in capsys.readouterr().err
    assert journal.read_bytes() == before
    assert main(["report", str(journal), "--deal", "9", "-o", "/dev/null"]) == 2


def _missing() -> str | None:
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        return "Debian chromium and chromium-driver are not installed"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    reason = _missing()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--window-size=1100,1500",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


def test_rendered_in_chromium(journal: Path, tmp_path: Path, browser) -> None:
    out = tmp_path / "session.html"
    assert main(["report", str(journal), "-o", str(out)]) == 0
    browser.get(out.as_uri())
    assert browser.title == "Session report"
    size = browser.execute_script(
        "const r = document.querySelector('svg.wall').getBoundingClientRect();"
        "return [r.width, r.height];"
    )
    assert size == [360, 360]
    unresolved = browser.execute_script(
        "return [...document.querySelectorAll('use')]"
        ".filter(u => !document.getElementById(u.getAttribute('href').slice(1))).length;"
    )
    assert unresolved == 0
    tiles = browser.execute_script(
        "return [...document.querySelectorAll('svg.t')].map(s => s.getBoundingClientRect().width);"
    )
    assert tiles and set(tiles) == {18}
    SHOTS.mkdir(parents=True, exist_ok=True)
    png = browser.get_screenshot_as_png()
    assert png.startswith(b"\x89PNG") and len(png) > 50_000
    (SHOTS / "referee-session-report.png").write_bytes(png)
    from selenium.webdriver.common.print_page_options import PrintOptions

    options = PrintOptions()
    options.page_width, options.page_height = 21.0, 29.7  # A4, cm
    pdf = base64.b64decode(browser.print_page(options))
    assert pdf.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages >= 4  # the summary, then each deal sheet starts a page
    (SHOTS / "referee-session-report.pdf").write_bytes(pdf)
