"""`mjtable report`: the deal sheet and the session report as self-contained HTML, checked as
text and rendered in Debian's headless Chromium (Selenium + chromedriver) to PNG and PDF."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from html import unescape as html_unescape
from pathlib import Path

import pytest
from real_things import start_chromium

from controller.cli import main
from controller.journal.records import Correction, CorrectionAction, RecordKind, Source
from controller.journal.store import Journal
from rules.seats import Seat
from tests.tools.test_referee import FakeClock, bot_journal

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


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    driver = start_chromium((1100, 1500))  # skips (fails under CI=true) without a browser
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


A4_PRINT_WIDTH_PX = 703  # A4 (210 mm) less the 12 mm margins each side, at 96 px per inch


def test_nothing_runs_past_the_right_edge_of_a4(journal: Path, tmp_path: Path, browser) -> None:
    """Issue 16 item 10: the tile rows of a deal sheet ran past the right edge of A4."""
    out = tmp_path / "session.html"
    assert main(["report", str(journal), "-o", str(out)]) == 0
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": A4_PRINT_WIDTH_PX, "height": 1000, "deviceScaleFactor": 1, "mobile": False},
    )
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        browser.get(out.as_uri())
        over = browser.execute_script(
            "return [...document.querySelectorAll('body *')]"
            ".filter(e => e.getBoundingClientRect().right > arguments[0] + 0.5)"
            ".map(e => e.tagName + ' ' + (e.getAttribute('class') || ''))"
            ".concat([document.documentElement.scrollWidth > arguments[0] ? 'page' : []]).flat();",
            A4_PRINT_WIDTH_PX,
        )
        tiles = browser.execute_script("return document.querySelectorAll('.deal svg.t').length;")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert tiles > 100
    assert over == []


@pytest.mark.parametrize(
    ("code", "heading", "rule"),
    [
        ("zh-CN", "账目", "004 Table 7："),
        ("ru", "Расчёт", "004 Table 7: "),
    ],
)
def test_the_report_in_the_reader_s_language_keeps_the_rulebook_reference(
    journal: Path, tmp_path: Path, code: str, heading: str, rule: str
) -> None:
    """Issue 33: `--lang` says the sheet's headings and labels and the ledger's rules in the
    reader's language; a rule's rulebook reference stays as the book prints it."""
    from controller.locale import Language, translator
    from tools.locale_catalogs import ledger_rules

    out = tmp_path / f"deal-{code}.html"
    assert main(["report", str(journal), "--deal", "2", "-o", str(out), "--lang", code]) == 0
    html = out.read_text()
    assert f'<html lang="{code}">' in html and f"<h2>{heading}</h2>" in html
    cited = re.findall(r'<td class="small">([^<]+)</td></tr>', html)
    assert cited, "the ledger's rules"
    english = set(ledger_rules())
    lang = Language.ZH_CN if code == "zh-CN" else Language.RU
    said = {translator(lang).gettext(r) for r in english}
    assert [c for c in cited if html_unescape(c) not in said] == []
    assert not english & set(cited), "a rule left in English"
    penalty = translator(lang).gettext("referee penalty")  # the one rule the book does not print
    assert penalty in cited  # the journal's penalty of N
    # the rulebook's reference first, as the book prints it
    assert all(re.match(r"^\d{3}\b", c) for c in cited if c != penalty)
    if any("Table 7" in c for c in cited):
        assert any(c.startswith(rule) for c in cited)
