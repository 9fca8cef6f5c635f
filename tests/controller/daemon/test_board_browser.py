"""What the board shows people, in a real headless Chromium at a hall TV (1920×1080), a
small laptop (1024×768) and a phone (390×844), from views the daemon's own code made of
real judged deals (issue 28 items 1–4 and 11)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace

import pytest
from real_things import chromium_missing, start_chromium
from rig import Rig, begin_deal, play
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support.ui import WebDriverWait

from controller.daemon.views import TableFacts, broadcast_view, hand_views, public_view
from controller.devices.events import ShuffleDone
from controller.outputs.http import WebServer
from controller.outputs.scoreboard import Scoreboard
from controller.outputs.view import PublicView, RefereeView
from rules.bots import play_deal
from rules.deal import Deal
from rules.ruleset import load
from rules.seats import Seat

SIZES = ((1920, 1080), (1024, 768), (390, 844))
TOKEN = "board-browser-token-5678"
WAIT_S = 15
PLAYERS = ("Li Wei", "Anna Petrova", "Kenji Sato", "Marie Dubois")

reason = chromium_missing()
if reason is not None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


class Clock:
    t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium(SIZES[0], WAIT_S)
    yield driver
    driver.quit()


@pytest.fixture
def board() -> Iterator[tuple[Scoreboard, WebServer, Clock]]:
    clock = Clock()
    sb = Scoreboard(referee_token=TOKEN, broadcast_delay_s=0.0, clock=clock)
    server = WebServer()
    sb.mount(server)
    server.start()
    yield sb, server, clock
    server.close()


def push(board, public: PublicView, deal: Deal | None = None, facts: TableFacts | None = None):
    sb, _, clock = board
    clock.t += 1.0
    hands = hand_views(facts, deal) if facts is not None else ()
    referee = RefereeView(public=public, hands=hands, wall_remaining=(), alerts=(), journal_tail=())
    broadcast = (
        replace(broadcast_view(public, facts, deal, clock.t), hands=hands) if facts else None
    )
    sb.publish(public, referee=referee, broadcast=broadcast)


def show(browser, url: str, size: tuple[int, int], seq: int) -> None:
    """`url` at `size` (the exact CSS viewport), once the page shows the view `seq`."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 800},
    )
    browser.get(url)
    seq_shown = "const a = document.getElementById('app'); return a && a.dataset.seq;"
    try:
        WebDriverWait(browser, WAIT_S).until(lambda d: d.execute_script(seq_shown) == str(seq))
    except TimeoutException:
        raise AssertionError(f"{url} did not show view {seq}") from None


def texts(browser, css: str) -> list[str]:
    return browser.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText.trim())", css
    )


BOX = """
const e = document.querySelector(arguments[0]);
if (!e) return null;
const b = e.getBoundingClientRect();
return [b.left, b.top, b.right, b.bottom];
"""


def box(browser, css: str):
    return browser.execute_script(BOX, css)


def width(browser, css: str) -> float:
    found = box(browser, css)
    assert found is not None, css
    return found[2] - found[0]


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def facts_of(rs, phase: str, dealer: Seat = Seat.E, **kw) -> TableFacts:
    base = TableFacts("table", 1, 1, rs.name, dealer, PLAYERS, (0, 0, 0, 0), phase, None, 7)
    return replace(base, **kw)


def prefix_until(deal: Deal, what) -> Deal:
    for k in range(1, len(deal.history) + 1):
        d = Deal.replay(deal.rs, deal.dice, deal.wall_order, deal.history[:k])
        if what(d):
            return d
    raise AssertionError("no such moment in the deal")


# --- item 1 ---------------------------------------------------------------------------------


RULE, SUMMARY = ".result .ledger .rule", ".result .ledger summary"


def shown(driver, css: str) -> bool:
    """Whether the first element `css` finds is drawn, looked at in one step (the board may
    draw itself again between two WebDriver calls)."""
    return bool(
        driver.execute_script(
            "const e = document.querySelector(arguments[0]);"
            "return !!e && e.getClientRects().length > 0",
            css,
        )
    )


SHOWN_TEXT = """
const e = document.querySelector(arguments[0]);
return e && e.getClientRects().length > 0 ? e.innerText.trim() : null;
"""


def rule_tapped(driver) -> str | None:
    """The first ledger line's rule as a tap shows it (read in the step that sees it drawn),
    tapped again while it is not drawn."""
    text = driver.execute_script(SHOWN_TEXT, RULE)
    if text is None:
        driver.execute_script("document.querySelector(arguments[0]).click()", SUMMARY)
    return text


def test_regression_the_result_screen_named_the_next_deal(browser, board, tmp_path):
    """Terminal "Deal 6 settled", board "Deal 7 result": the daemon's view of a settled
    deal, held through the next shuffle, is shown as that deal at every size."""
    rig = Rig(tmp_path / "t.journal")
    rig.link("table", True)
    rig.link("reader", True)
    for seed in (1, 2):
        play(rig, begin_deal(rig, seed).moves)
    rig.table(ShuffleDone(0.0))
    view = rig.rt.public()
    rig.close()
    push(board, view)
    for size in SIZES:
        show(browser, board[1].url + "/", size, view.seq)
        assert texts(browser, ".result h2.end") == ["Deal 2 result"], size
        assert "Deal 2" in texts(browser, ".status .which")[0], size


# --- item 2 ---------------------------------------------------------------------------------


def test_regression_a_winner_was_labelled_not_ready(browser, board):
    """SBR: after the first Hu the deal plays on; the broadcast and the referee page showed
    "Hu 1st" and "not ready" under the winner's hand."""
    rs = load("sbr-mil")
    deal, _ = play_deal(rs, 1)
    mid = prefix_until(deal, lambda d: any(not w.false_hu for w in d.winners) and not d.over)
    facts = facts_of(rs, "playing.awaiting_draw")
    public = public_view(facts, mid)
    (winner,) = [s.seat for s in public.seats if s.hu_order]
    push(board, public, mid, facts)
    for page in ("/broadcast", "/referee"):
        if page == "/referee":
            browser.get(board[1].url + "/referee")
            browser.find_element("name", "token").send_keys(TOKEN)
            browser.find_element("css selector", "form button").click()
            # the login's answer sets the session cookie: a page asked for before it arrives
            # is asked without it and answered with the login form again (a CI run did)
            WebDriverWait(browser, WAIT_S).until(
                lambda d: not d.find_elements("name", "token"),
                message="the referee page after the login",
            )
        for size in SIZES:
            show(browser, board[1].url + page, size, public.seq)
            said = texts(browser, f'.seat[data-seat="{winner}"]')[0]
            assert "Hu 1st" in said and "not ready" not in said, (page, size, said)


# --- item 3 ---------------------------------------------------------------------------------


def _void_seat(rs) -> tuple[Deal, PublicView, TableFacts]:
    deal, _ = play_deal(rs, 2)
    mid = prefix_until(deal, lambda d: len(d.history) > 40)
    facts = facts_of(rs, "playing.awaiting_draw", totals=(0, 0, 0, 0))
    return mid, public_view(facts, mid), facts


def test_regression_a_void_badge_lay_over_the_score_at_1024(browser, board):
    rs = load("sbr-mil")
    mid, public, facts = _void_seat(rs)
    assert all(s.void for s in public.seats)  # every badge is up
    push(board, public, mid, facts)
    for page in ("/", "/broadcast"):
        for size in SIZES:
            show(browser, board[1].url + page, size, public.seq)
            for seat in "ESWN":
                badge = box(browser, f'.seat[data-seat="{seat}"] .badge.void')
                score = box(browser, f'.seat[data-seat="{seat}"] .score')
                name = box(browser, f'.seat[data-seat="{seat}"] .player')
                assert not overlap(badge, score), (page, size, seat, badge, score)
                assert name[2] - name[0] >= 60, (page, size, seat, name)  # a name, readable


def test_regression_hands_were_drawn_smaller_than_rivers(browser, board):
    """At the result the hands were drawn at half the rivers' size; on /broadcast at 1024 px
    the North and South hand tiles were ~14 px wide."""
    rs = load("sbr-mil")
    deal, _ = play_deal(rs, 1)
    facts = facts_of(rs, "settled")
    done = public_view(facts, deal)
    mid, live, live_facts = _void_seat(rs)
    push(board, done)
    for size in SIZES:
        show(browser, board[1].url + "/", size, done.seq)
        for seat in "NS":
            hand = width(browser, f'.seat[data-seat="{seat}"] .hand-row .tile')
            river = width(browser, f'.seat[data-seat="{seat}"] .river .tile')
            assert hand >= river - 0.5, (size, seat, hand, river)
    push(board, live, mid, live_facts)
    for size in SIZES:
        show(browser, board[1].url + "/broadcast", size, live.seq)
        for seat in "NS":
            hand = width(browser, f'.seat[data-seat="{seat}"] .hand-row .tile')
            assert hand >= 24, (size, seat, hand)


# --- item 4 ---------------------------------------------------------------------------------


def test_regression_the_board_spoke_in_codes(browser, board):
    """The default table name showed as a bare "table"; ledger lines read "Hu on 8m (no fan;
    A=1)" beside "004 Table 6: …" cut with "…". The result says "East wins on 8m: 1 point
    from South", the rule opens on a tap; the phase is in the words the terminal and the
    hall page use."""
    rs = load("sbr-mil")
    deal, _ = play_deal(rs, 1)
    done = public_view(facts_of(rs, "settled"), deal)
    push(board, done)
    for size in SIZES:
        show(browser, board[1].url + "/", size, done.seq)
        assert texts(browser, ".status .table-name") == ["Table"], size
        lines = texts(browser, ".result .ledger summary")
        assert lines == [w.text for w in done.ledger_words], size
        assert any(" wins on " in line and " point" in line for line in lines), lines
        assert not [line for line in lines if "A=" in line or "…" in line], lines
        assert not shown(browser, RULE)
        text = WebDriverWait(browser, 10).until(rule_tapped)
        assert text.startswith(done.ledger_words[0].rule[:20])
    window = prefix_until(deal, lambda d: d.window is not None)
    claims = public_view(facts_of(rs, "playing.claim_window"), window)
    push(board, claims)
    for size in SIZES:
        show(browser, board[1].url + "/", size, claims.seq)
        assert texts(browser, ".status .phase") == [f"Claims on {_name(claims.turn)}'s discard"]


def test_regression_a_tapped_rule_closed_when_the_board_drew_itself_again(browser, board):
    """The board draws a view again when its words arrive and when the feed sends the view it
    first fetched; each time a ledger line the reader had opened closed under their finger
    (and the board test above read '' for its rule now and then)."""
    rs = load("sbr-mil")
    deal, _ = play_deal(rs, 1)
    done = public_view(facts_of(rs, "settled"), deal)
    push(board, done)
    show(browser, board[1].url + "/", SIZES[1], done.seq)
    assert WebDriverWait(browser, 10).until(rule_tapped)
    before = browser.execute_script("return document.querySelector(arguments[0])", RULE)
    browser.execute_async_script("MJ.loadWords().then(arguments[arguments.length - 1])")
    after = browser.execute_script("return document.querySelector(arguments[0])", RULE)
    assert after != before  # drawn again: a new element
    assert shown(browser, RULE)
    assert browser.execute_script(SHOWN_TEXT, RULE).startswith(done.ledger_words[0].rule[:20])


def _name(seat: str | None) -> str:
    return {"E": "East", "S": "South", "W": "West", "N": "North"}[seat or "E"]


# --- item 11 --------------------------------------------------------------------------------


def test_regression_the_board_said_offline_while_the_daemon_waited_for_its_devices(browser, board):
    rs = load("sbr-mil")
    facts = facts_of(rs, "offline", devices_down=("table", "reader"))
    public = public_view(facts, None)
    push(board, public)
    for size in SIZES:
        show(browser, board[1].url + "/", size, public.seq)
        assert texts(browser, ".status .phase") == [
            "Waiting for the table controller and the tile reader"
        ], size


def test_the_hall_card_says_the_phase_in_the_boards_words():
    """(not a browser case) The hall card said "claims open" where the board said "Claims on
    E's discard": both say the phase with `controller.words.phase_words` now."""
    from datetime import UTC, datetime
    from html import unescape

    from controller.hub.page import render_page
    from controller.hub.standings import HallStandings, TableResult
    from controller.hub.wire import Presence, TableStatus

    rs = load("sbr-mil")
    deal, _ = play_deal(rs, 1)
    window = prefix_until(deal, lambda d: d.window is not None)
    public = public_view(facts_of(rs, "playing.claim_window"), window)
    status = TableStatus(
        "hall", "table", Presence.ONLINE, 1, 1, public.phase, session_deal=1, turn=public.turn
    )
    now = datetime.now(UTC).isoformat()
    card = TableResult("hall", "table", "online", 1, 1, public.phase, (), status, now)
    page = unescape(render_page(HallStandings((card,), ()), "hall"))
    assert public.phase_text in page
    assert public.phase_text == f"claims on {_name(public.turn)}'s discard"
