"""The board in each of its languages (issue 33), in a real headless Chromium at a hall TV's,
a small screen's and a phone's size: every word it shows is the language's (no English
message where a translation exists, no unfilled {placeholder}), nothing overflows or spills over its neighbours (Russian's
long words), and every character is drawn by a font the system has, not a missing-glyph box.

The missing-glyph check (`GLYPHS_JS`): each distinct non-ASCII character of the page is drawn
on a canvas in the font its element uses, and beside it a code point no font has (U+10FFFD,
a private-use plane's last); a character whose pixels are exactly that .notdef box is
missing. Pixels, not `document.fonts.check` (which is true for any installed family, whatever
it covers) nor widths alone (a box and a full-width glyph can be equally wide)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from outputs_views import broadcast_view, public_steps, referee_view, result_view
from page_checks import OVERFLOW_JS
from real_things import chromium_missing, start_chromium

from controller.locale import Language, Said, load, says, translator
from controller.outputs import scoreboard
from controller.outputs.http import WebServer
from controller.outputs.scoreboard import Scoreboard
from controller.outputs.view import AlertView, CorrectionView
from controller.words import alert_words

SHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"
SIZES = {"tv": (1920, 1080), "small": (1024, 768), "phone": (390, 844)}
WAIT_S = 15
TOKEN = "languages-test-token-1234"

reason = chromium_missing()
if reason is not None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

GLYPHS_JS = """
const chars = new Map();
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const font = getComputedStyle(n.parentElement).fontFamily;
  for (const c of n.textContent) if (c.codePointAt(0) > 0x2000 && c.trim()) chars.set(c, font);
}
for (const c of arguments[0] || []) chars.set(c, getComputedStyle(document.body).fontFamily);
const canvas = document.createElement('canvas');
canvas.width = canvas.height = 48;
const ctx = canvas.getContext('2d', { willReadFrequently: true });
function pixels(c, font) {
  ctx.clearRect(0, 0, 48, 48);
  ctx.font = '32px ' + font;
  ctx.textBaseline = 'top';
  ctx.fillText(c, 4, 4);
  return Array.from(ctx.getImageData(0, 0, 48, 48).data).join(',');
}
const missing = [];
for (const [c, font] of chars) {
  if (pixels(c, font) === pixels(String.fromCodePoint(0x10FFFD), font)) missing.push(c);
}
return [missing, chars.size];
"""

# Text spilling out of its own box over its neighbours (a grid cell that will not wrap): the
# overflow check sees boxes outside their panel, not text outside its box. A box that clips
# on purpose (overflow hidden, an ellipsis) is left alone.
SPILL_JS = """
const out = [];
for (const e of document.querySelectorAll('#app *')) {
  if (!e.childElementCount && e.textContent.trim() && e.scrollWidth > e.clientWidth + 1
      && e.clientWidth > 0 && getComputedStyle(e).overflowX === 'visible') {
    out.push((e.getAttribute('class') || e.tagName) + ': ' + e.textContent.trim());
  }
}
return out;
"""

TEXTS_JS = """
const out = [];
for (const e of document.querySelectorAll('#app *, .lang-switch')) {
  for (const n of e.childNodes) if (n.nodeType === 3 && n.textContent.trim()) out.push(n.textContent.trim());
  if (e.title) out.push(e.title);
}
return out;
"""


@pytest.fixture(scope="module")
def browser() -> Iterator:
    driver = start_chromium(SIZES["tv"], WAIT_S)
    yield driver
    driver.quit()


@pytest.fixture
def server():
    sb = Scoreboard()
    web = WebServer()
    sb.mount(web)
    web.start()
    yield sb, web
    web.close()


def _viewport(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800},
    )


def _open(driver, url: str, lang: Language, seq: int) -> None:
    """The board in `lang`, picked as a viewer picks it (the switch's localStorage key)."""
    driver.get(url + "/")
    driver.execute_script("localStorage.setItem('mjtable.lang.board', arguments[0])", lang.tag)
    driver.get(url + "/")
    WebDriverWait(driver, WAIT_S).until(
        lambda d: d.execute_script(
            "return document.documentElement.lang === arguments[0] && "
            "document.getElementById('app')?.dataset.seq === arguments[1]",
            lang.tag,
            str(seq),
        ),
        message=f"the board in {lang.tag}",
    )


def untranslated(texts: list[str], lang: Language) -> list[str]:
    """Texts that are an English message the catalog translates, or hold a {placeholder}."""
    if lang is Language.EN:
        english: set[str] = set()
    else:
        tr = translator(lang)
        english = {
            m for m, forms in tr.messages.items() if "{" not in m and forms[0] != m and len(m) > 1
        }
    return [t for t in texts if t in english or re.search(r"\{\w+\}", t)]


def check_each_size(
    driver,
    lang: Language,
    shot: str,
    *,
    texts_js: str,
    spill_js: str,
    least_texts: int,
    least_glyphs: int,
    overflow: bool = True,
) -> None:
    """The page as drawn, at each size: its texts (at least `least_texts`) all translated,
    nothing spilling (`spill_js`), the board not overflowing its screen (`overflow`), every
    Chinese glyph drawn (at least `least_glyphs` checked); a screenshot `SHOT-LANG-SIZE`."""
    for size, (w, h) in SIZES.items():
        _viewport(driver, w, h)
        texts = driver.execute_script(texts_js)
        assert len(texts) >= least_texts, size
        assert untranslated(texts, lang) == [], (size, lang.tag)
        if overflow:
            assert driver.execute_script(OVERFLOW_JS, h < w) == [], (size, lang.tag)
        assert driver.execute_script(spill_js) == [], (size, lang.tag)
        missing, checked = driver.execute_script(GLYPHS_JS, [])
        assert missing == [], (size, lang.tag)
        if lang is Language.ZH_CN:
            assert checked >= least_glyphs  # the check saw the page's Chinese
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / f"{shot}-{lang.tag}-{size}.png"))


def views():
    steps = public_steps()
    claim = next(v for v in reversed(steps) if v.claim_remaining_s is not None)
    return {"claim": dataclasses.replace(claim, claim_remaining_s=120.0), "result": result_view()}


@pytest.mark.parametrize("lang", list(Language), ids=lambda lang: lang.tag)
@pytest.mark.parametrize("moment", ["claim", "result"])
def test_the_board_speaks_each_language_at_each_size(browser, server, lang, moment):
    sb, web = server
    view = views()[moment]
    sb.publish(view, referee=referee_view(view), broadcast=broadcast_view(view, 0.0))
    _viewport(browser, *SIZES["tv"])
    _open(browser, web.url, lang, view.seq)
    check_each_size(
        browser,
        lang,
        f"board-{moment}",
        texts_js=TEXTS_JS,
        spill_js=SPILL_JS,
        least_texts=1,
        least_glyphs=11,
    )
    if lang is not Language.EN:
        said = browser.execute_script("return document.querySelector('.phase').textContent")
        assert said not in {view.phase_text, ""}


def test_the_missing_glyph_check_can_fail(browser, server):
    """A character no installed font draws (Tangut 𗀀) is found; a Chinese one is not."""
    _, web = server
    browser.get(web.url + "/")
    missing, _ = browser.execute_script(GLYPHS_JS, ["𗀀", "五"])
    assert missing == ["𗀀"]


def test_the_untranslated_check_can_fail():
    assert untranslated(["Deal over", "Раздача {n}", "Раздача окончена"], Language.RU) == [
        "Deal over",
        "Раздача {n}",
    ]


def test_the_switch_remembers_the_viewer_s_choice(browser, server):
    sb, web = server
    view = views()["claim"]
    sb.publish(view, referee=referee_view(view), broadcast=broadcast_view(view, 0.0))
    _open(browser, web.url, Language.RU, view.seq)
    browser.execute_script(
        "const s = document.getElementById('lang-switch'); s.value = 'zh-CN';"
        "s.dispatchEvent(new Event('change'));"
    )
    WebDriverWait(browser, WAIT_S).until(
        lambda d: d.execute_script("return document.documentElement.lang") == "zh-CN"
    )
    browser.get(web.url + "/")
    WebDriverWait(browser, WAIT_S).until(
        lambda d: d.execute_script("return document.documentElement.lang") == "zh-CN",
        message="the choice kept across a reload",
    )
    stored = browser.execute_script("return localStorage.getItem('mjtable.lang.board')")
    assert stored == "zh-CN"
    assert json.loads(json.dumps(stored)) == "zh-CN"


def test_a_catalog_that_fails_to_load_is_said_on_the_referee_page(browser, tmp_path, monkeypatch):
    """English, never a blank page: the referee's page shows the board in English with the
    catalog's fault above it (a real loader reading a damaged .mo)."""
    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "mjtable.mo").write_bytes(b"this is not a compiled catalog at all")
    monkeypatch.setattr(scoreboard, "translator", lambda lang: load(lang, tmp_path))
    sb = Scoreboard(referee_token=TOKEN)
    web = WebServer()
    sb.mount(web)
    web.start()
    try:
        view = views()["claim"]
        sb.publish(view, referee=referee_view(view), broadcast=broadcast_view(view, 0.0))
        browser.get(web.url + "/referee")
        browser.execute_script("localStorage.setItem('mjtable.lang.referee', 'ru')")
        browser.find_element(By.NAME, "token").send_keys(TOKEN)
        browser.find_element(By.CSS_SELECTOR, "form.login button").click()
        WebDriverWait(browser, WAIT_S).until(
            lambda d: d.execute_script("return document.getElementById('words-fault')"),
            message="the fault said on the referee page",
        )
        said = browser.execute_script("return document.getElementById('words-fault').textContent")
        assert "ru catalog did not load" in said and "English instead" in said
        WebDriverWait(browser, WAIT_S).until(
            lambda d: (
                d.execute_script("return document.getElementById('app')?.dataset.seq")
                == str(view.seq)
            ),
            message="the board drawn all the same",
        )
        assert browser.execute_script("return document.documentElement.lang") == "en"
        assert browser.execute_script("return document.querySelector('.player').textContent")
    finally:
        web.close()


# every text the referee page shows: its own words, the board's, the call's, the
# placeholders and the page's title
PAGE_TEXTS_JS = """
const out = [document.title];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const e = n.parentElement;
  if (!e.closest('script, style, code, svg') && n.textContent.trim()) out.push(n.textContent.trim());
}
for (const e of document.querySelectorAll('[placeholder], [title]')) {
  if (e.placeholder) out.push(e.placeholder);
  if (e.title) out.push(e.title);
}
return out;
"""

# the referee's own part spilling: a button or label wider than its box, the page wider
# than the screen
REFEREE_SPILL_JS = """
const out = [];
if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1) {
  out.push('page wider than the screen');
}
for (const e of document.querySelectorAll('.referee-top *, .referee-side *')) {
  if (!e.childElementCount && e.textContent.trim() && e.scrollWidth > e.clientWidth + 1
      && e.clientWidth > 0 && getComputedStyle(e).overflowX === 'visible'
      && !e.closest('code, .journal')) {
    out.push((e.getAttribute('class') || e.tagName) + ': ' + e.textContent.trim());
  }
}
// a button something else covers (the language switch, fixed in a corner, covered "Enter
// the move" on a phone): each seen where it is scrolled to, its middle must be its own
for (const b of document.querySelectorAll('.referee-top button, .referee-side button')) {
  if (!b.offsetParent) continue;  // not shown (a folded part)
  b.scrollIntoView({ block: 'end' });
  const r = b.getBoundingClientRect();
  for (const x of [r.left + 3, r.left + r.width / 2, r.right - 3]) {
    const top = document.elementFromPoint(x, r.top + r.height / 2);
    if (top && top !== b && !b.contains(top)) {
      out.push('covered: ' + b.textContent.trim() + ' by ' + (top.id || top.className || top.tagName));
      break;
    }
  }
}
window.scrollTo(0, 0);
return out;
"""


def called_referee_view(view):
    """The referee's view of `view` with a standing call: the judge's candidates for a real
    deal, the reader's differences, a settled deal's chain head."""
    import random

    from controller.daemon.candidates import candidates, overtaken_candidates
    from controller.daemon.referee_call import RefereeCall, details
    from rules.deal import Deal
    from rules.ruleset import load as load_rules
    from rules.seats import Seat
    from rules.tiles import Tile

    deal = Deal.start_shuffled(load_rules("sbr-mil"), random.Random(7))
    diffs = {(Seat.S, "hand", Tile.parse("3m")): 1, (Seat.S, "hand", Tile.parse("5p")): -1}
    # (the longest button a call offers: an overtaken deal's end, in every language)
    offered = (*candidates(deal, Seat.E), overtaken_candidates(deal, Seat.E)[0])
    call = RefereeCall("stalled", "Stalled: no move read", offered, details(diffs, Seat.E), 5)
    heads = ({"deal": 1, "seq": 40, "hash": "9f8167c2"},)
    base = referee_view(view)
    alert = AlertView(view.seq, "16:02:13", "warning", alert_words("stalled", "S holds 15 tiles"))
    undone = says(
        "#{seq} move #{target} cancelled by {referee}: {why}",
        seq="812",
        target="799",
        referee="ref-1",
        why=Said("it did not happen"),
    )
    return dataclasses.replace(
        base,
        journal_tail=journal_lines(),
        call=call.to_json(),
        heads=heads,
        alerts=(*base.alerts, alert),
        corrections=(CorrectionView(812, str(undone), True, undone.to_json()),),
    )


def journal_lines() -> tuple[str, ...]:
    """The referee page's journal panel as the daemon writes it: real records' tail lines."""
    import tempfile

    from controller.daemon.contracts import tail_line
    from controller.journal.records import RecordKind, Source
    from controller.journal.store import Journal

    started = {"deal": 1, "rules": "sbr-mil", "dealer": "E", "dice": [3, 4],
               "players": ["Li Wei", "Anna", "Kenji", "Marie"]}  # fmt: skip
    records = (
        (RecordKind.DEAL_STARTED, started),
        (RecordKind.ALERT, {"code": "stalled", "message": "W holds 15 tiles"}),
        (RecordKind.MOVE_ACCEPTED, {"seat": "S", "move": "discard", "tile": "5p"}),
        (RecordKind.CLAIM_WINDOW, {"state": "closed", "tile": "8s", "discarder": "E",
                                   "claims": {"S": "pung"}, "closed_by": "all-answered"}),
    )  # fmt: skip
    with tempfile.TemporaryDirectory() as folder, Journal.open(Path(folder) / "j") as j:
        return tuple(
            tail_line(j.append(Source.DAEMON, kind, data, deal=1)) for kind, data in records
        )


def _referee_page(driver, url: str, lang: Language, seq: int) -> None:
    driver.get(url + "/referee")
    driver.execute_script("localStorage.setItem('mjtable.lang.referee', arguments[0])", lang.tag)
    if driver.find_elements(By.NAME, "token"):
        driver.find_element(By.NAME, "token").send_keys(TOKEN)
        driver.find_element(By.CSS_SELECTOR, "form.login button").click()
    else:
        driver.get(url + "/referee")
    WebDriverWait(driver, WAIT_S).until(
        lambda d: d.execute_script(
            "return document.documentElement.lang === arguments[0] && "
            "document.getElementById('app')?.dataset.seq === arguments[1] && "
            "document.getElementById('call-headline').textContent !== ''",
            lang.tag,
            str(seq),
        ),
        message=f"the referee page in {lang.tag}",
    )


@pytest.fixture
def referee_server():
    sb = Scoreboard(referee_token=TOKEN)
    web = WebServer()
    sb.mount(web)
    web.start()
    yield sb, web
    web.close()


@pytest.mark.parametrize("lang", list(Language), ids=lambda lang: lang.tag)
def test_the_referee_page_speaks_each_language_at_each_size(browser, referee_server, lang):
    """Its own words, the board's and the call's (headline, buttons, details, status) in
    the language its referee picked, at each size: nothing English the catalog translates,
    no {placeholder}, nothing spilling, no missing glyph."""
    sb, web = referee_server
    view = views()["claim"]
    sb.publish(view, referee=called_referee_view(view), broadcast=broadcast_view(view, 0.0))
    _viewport(browser, *SIZES["tv"])
    _referee_page(browser, web.url, lang, view.seq)
    browser.execute_script("document.getElementById('manual').open = true")
    check_each_size(
        browser,
        lang,
        "referee",
        texts_js=PAGE_TEXTS_JS,
        spill_js=REFEREE_SPILL_JS,
        least_texts=41,
        least_glyphs=31,
        overflow=False,
    )
    said = browser.execute_script(
        "return [...document.querySelectorAll('#candidates li > *, #call-status, #call-diffs li')]"
        ".map((e) => e.textContent)"
    )
    side = browser.execute_script(
        "return [...document.querySelectorAll('#alerts li, #corrections li')]"
        ".map((e) => e.textContent)"
    )
    if lang is Language.ZH_CN:
        assert "牌桌在等您。" in said and any("三万" in s for s in said), said
        assert any("停滞：" in s for s in side) and any(
            "动作#799由ref-1作废：没有发生" in s for s in side
        )
        journal = browser.execute_script(
            "return [...document.querySelectorAll('#journal li')].map((e) => e.textContent)"
        )
        assert any("南 出牌 五筒" in line for line in journal), journal
    if lang is Language.RU:
        assert "Стол ждёт вас." in said and any("3 символа" in s for s in said), said
    if lang is Language.EN:
        assert "The table waits for you." in said and any("3m" in s for s in said), said


@pytest.fixture(scope="module")
def viewers_broker(tmp_path_factory):
    """A real Mosquitto with a WebSockets listener, as the hall's viewers' broker is to the
    viewer page (docs/MQTT.md "Viewers"), a table's view and status retained on it."""
    import paho.mqtt.client as paho
    from real_things import absent, hub_helpers

    from controller.hub.wire import Channel, Presence, TableStatus, encode, topic

    helpers = hub_helpers()
    exe = helpers._mosquitto()
    if exe is None:
        absent("mosquitto is not installed (apt-get install mosquitto)")
    ws_port = helpers.free_port()
    broker = helpers.Mosquitto(
        exe,
        tmp_path_factory.mktemp("viewers"),
        f"allow_anonymous true\nlistener {ws_port} 127.0.0.1\nprotocol websockets",
    )
    broker.start()
    view = views()["claim"]
    client = paho.Client(paho.CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    status = TableStatus("Chengdu", "t7", Presence.ONLINE, 1, 3, "playing.awaiting_draw", turn="S")
    for channel, payload in ((Channel.VIEW, view), (Channel.STATUS, status)):
        client.publish(topic("Chengdu", "t7", channel), encode(payload), 1, True).wait_for_publish(
            10
        )
    client.loop_stop()
    client.disconnect()
    yield ws_port, view
    broker.stop()


@pytest.mark.parametrize("lang", list(Language), ids=lambda lang: lang.tag)
@pytest.mark.parametrize("page", ["table", "tables"])
def test_the_viewer_page_speaks_each_language_at_each_size(browser, viewers_broker, lang, page):
    """The hub's viewer page, its board read from a real broker over WebSockets, and the
    hall's list of tables, in each language at each size."""
    from controller.hub import viewer_page

    ws_port, view = viewers_broker
    web = WebServer()
    viewer_page.mount(web, "Chengdu", ws_port)
    web.start()
    try:
        address = web.url + "/viewer" + ("?table=t7" if page == "table" else "")
        _viewport(browser, *SIZES["tv"])
        browser.get(address)
        browser.execute_script(
            "localStorage.setItem('mjtable.lang.viewer', arguments[0])", lang.tag
        )
        browser.get(address)
        drawn = (
            "document.getElementById('app')?.dataset.seq === arguments[1]"
            if page == "table"
            else "document.getElementById('app')?.dataset.state === 'tables'"
        )
        WebDriverWait(browser, WAIT_S).until(
            lambda d: d.execute_script(
                f"return document.documentElement.lang === arguments[0] && {drawn}",
                lang.tag,
                str(view.seq),
            ),
            message=f"the viewer page ({page}) in {lang.tag}",
        )
        check_each_size(
            browser,
            lang,
            f"viewer-{page}",
            texts_js=PAGE_TEXTS_JS,
            spill_js=SPILL_JS,
            least_texts=1,
            least_glyphs=4,
            overflow=page == "table",
        )
        if lang is not Language.EN and page == "tables":
            heading = browser.execute_script("return document.querySelector('#app h1').textContent")
            assert heading == translator(lang).gettext("Hall {name}").format(name="Chengdu")
    finally:
        web.close()


class _NoDeal:
    """The desk's deal in progress between deals (what the core answers then)."""

    deal = None
    deal_no = 0
    seq = 1
    dealt_by = None


@pytest.mark.parametrize(
    ("lang", "alert", "answer"),
    [
        (Language.ZH_CN, "定缺出牌顺序：北家手中还有定缺的筒牌时打出了一条（宽松模式）",
         "被拒绝：当前没有进行中的牌局"),
        (Language.RU, "Порядок сброса запрещённой масти: Север сбросил 1 бамбук, держа кости "
         "запрещённой масти (точки) (нестрогий режим)", "Отклонено: раздача сейчас не идёт"),
    ],
    ids=lambda v: v.tag if isinstance(v, Language) else "",
)  # fmt: skip
def test_the_referee_page_says_alerts_and_the_desk_s_answers_in_its_language(
    browser, tmp_path, lang, alert, answer
):
    """An alert's message (the recogniser's, read back as a sentence; journalled with it)
    on the alert list and the journal panel, and the referee desk's answer to an action
    (a real desk refusing a cancel between deals) on the answer line: the page's language,
    every word."""
    from controller.clock import SystemClock
    from controller.daemon.boardless import DiceFound, DiceReading, dice_asked
    from controller.daemon.contracts import tail_line
    from controller.daemon.referee_call import RefereeCall
    from controller.daemon.referee_desk import RefereeDesk
    from controller.journal.records import RecordKind, Source
    from controller.journal.store import Journal
    from controller.recognised_words import recognised_said
    from controller.words import alert_said
    from rules.seats import Seat
    from rules.wall import Dice

    journal = Journal.open(tmp_path / "j")
    desk = RefereeDesk(journal, SystemClock(), _NoDeal())  # type: ignore[arg-type]
    sb = Scoreboard(referee_token=TOKEN, on_action=desk.act)
    web = WebServer()
    sb.mount(web)
    web.start()
    try:
        text = "N discarded 1s while holding void-suit p tiles (lenient)"
        said = alert_said("void-discard-order", recognised_said(text))
        record = journal.append(
            Source.DAEMON,
            RecordKind.ALERT,
            {"code": "void-discard-order", "message": text, "words": said.args[1][1].to_json()},
        )
        view = views()["claim"]
        base = called_referee_view(view)
        shown = AlertView(record.seq, record.wall, "warning", str(said), said.to_json())
        referee = dataclasses.replace(
            base, alerts=(shown,), journal_tail=(*base.journal_tail, tail_line(record))
        )
        sb.publish(view, referee=referee, broadcast=broadcast_view(view, 0.0))
        _viewport(browser, *SIZES["tv"])
        _referee_page(browser, web.url, lang, view.seq)
        side = browser.execute_script(
            "return [...document.querySelectorAll('#alerts li span:last-child, #journal li')]"
            ".map((e) => e.textContent)"
        )
        assert alert in side, side
        assert any(line.endswith(alert) for line in side if line.startswith("#")), side
        browser.execute_script("document.getElementById('manual').open = true")
        browser.find_element(By.CSS_SELECTOR, "#cancel-form button").click()
        WebDriverWait(browser, WAIT_S).until(
            lambda d: d.find_element(By.ID, "action-result").text != "",
            message="the desk's answer",
        )
        assert browser.find_element(By.ID, "action-result").text == answer
        # a table with no board calls for its dice: the call's buttons, the page's language
        readings = (DiceReading(Dice(1, 3), Seat.E, 8), DiceReading(Dice(2, 5), Seat.S, 40))
        asked = dice_asked(DiceFound(readings, 53, 2))
        call = RefereeCall(asked.kind.value, str(asked.text), asked.candidates, (), 9)
        later = dataclasses.replace(view, seq=view.seq + 1)
        dice_view = dataclasses.replace(referee, public=later, call=call.to_json())
        sb.publish(later, referee=dice_view, broadcast=broadcast_view(later, 0.0))
        WebDriverWait(browser, WAIT_S).until(
            lambda d: d.execute_script(
                "return document.getElementById('app').dataset.seq === arguments[0]",
                str(later.seq),
            ),
            message="the dice call",
        )
        buttons = browser.execute_script(
            "return [...document.querySelectorAll('#candidates button')].map((e) => e.textContent)"
        )
        dice = {Language.ZH_CN: ["骰子1+3，庄家在东家", "骰子2+5，庄家在南家"],
                Language.RU: ["Кости 1+3, дилер — Восток", "Кости 2+5, дилер — Юг"]}  # fmt: skip
        assert buttons == dice[lang], buttons
        headline = browser.find_element(By.ID, "call-headline").text
        assert not re.search(r"[A-Za-z]{3,}", headline), headline
    finally:
        web.close()
        journal.close()
