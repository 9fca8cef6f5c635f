"""The recogniser's alerts made as sentences where they are raised (controller/recognition:
recogniser.py, declarations.py, tile_declarations.py, wall_checks.py; their parts from
alert_said.py): each alert the hand-written scenes of this folder raise is said in Chinese
and Russian with no English left but what the judge or a device wrote (a refusal's reason,
a button's note, a tag), and its English, `text`, is what the journal has always kept."""

from __future__ import annotations

import re
from collections import Counter

import pytest
import test_alerts
import test_cards_while_down
import test_reconcile
import test_stall
import test_wall_scan
import test_wellness_recognition
from scene import Scene, alerts

from controller.devices.events import Button, SeatButton
from controller.locale import Language, Said, Translator, translator
from controller.profiles import Zone, ZoneKind
from controller.recognition.alert_said import (
    OR,
    STEP,
    copy_said,
    listed,
    moves_said,
    tally_said,
    waits_said,
)
from controller.recognition.expected import Spot, fmt_tally
from controller.recognition.readings import move_text
from controller.recognition.results import RefereeAlert
from controller.tag_maps import TileCopy
from rules.melds import MeldKind
from rules.moves import ChooseVoid, CloseClaims, Discard, Draw, Kong, Pung
from rules.seats import Seat
from rules.tiles import Suit, Tile

ZH, RU = translator(Language.ZH_CN), translator(Language.RU)
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
# what fills a sentence as its writer wrote it: numbers, tags, a card's tag (`card`), the
# judge's reason for a refusal (`problem`)
AS_WRITTEN = {"n", "age", "s", "t", "uid", "uids", "antenna", "copy", "card", "problem", "why"}

# the scenes of this folder that raise the recogniser's alerts, one or more of each kind
SCENES = (
    test_alerts.test_a_draw_that_is_not_the_next_wall_tile_is_a_wall_mismatch,
    test_alerts.test_two_discards_at_once_are_ambiguous,
    test_alerts.test_a_discard_out_of_turn_is_refused_with_the_judges_reason,
    test_alerts.test_tiles_moved_into_the_melds_without_a_declaration,
    test_alerts.test_a_kong_declared_without_tiles,
    test_alerts.test_a_pung_whose_tiles_are_not_laid_down,
    test_alerts.test_a_false_hu_is_flagged_at_once,
    test_alerts.test_long_and_short_hands_after_things_settle,
    test_alerts.test_void_order_breach_lenient_is_allowed_and_noted,
    test_alerts.test_the_dealt_hands_correct_a_wrong_dealer_side,
    test_alerts.test_unknown_and_duplicate_tags,
    test_stall.test_regression_a_stuck_judge_at_a_fast_table_raises_a_stall_alert,
    test_reconcile.test_void_choices_by_button_while_down_cannot_be_known,
    test_reconcile.test_a_table_that_no_legal_moves_explain,
    test_wellness_recognition.test_a_chow_button_from_another_seat_is_an_alert_and_nothing_is_lost,
    test_wellness_recognition.test_a_chow_button_with_no_tiles_laid_is_a_declaration_without_tiles,
    test_wall_scan.test_a_foreign_tag_is_reported_and_an_incomplete_scan_is_not_complete,
    test_cards_while_down.test_a_win_card_the_judge_refuses_is_said_to_the_referee,
)


@pytest.fixture
def made(monkeypatch) -> list[RefereeAlert]:
    """Every recogniser alert made while the test runs, wherever it is made."""
    out: list[RefereeAlert] = []
    checked = RefereeAlert.__post_init__

    def seen(self: RefereeAlert) -> None:
        checked(self)
        out.append(self)

    monkeypatch.setattr(RefereeAlert, "__post_init__", seen)
    return out


def unsaid(said: Said, tr: Translator, name: str = "") -> list[str]:
    """The parts of a sentence `tr` does not say in its language: a msgid its catalog lacks,
    a placeholder left unfilled, or an argument given as text that is not one written as
    its writer wrote it (`AS_WRITTEN`)."""
    out = []
    if said.msgid and said.msgid not in tr.messages:
        out.append(f"{name or 'sentence'}: {said.msgid!r} is not in the {tr.language.tag} catalog")
    for key, value in said.args:
        if isinstance(value, Said):
            out += unsaid(value, tr, key)
        elif key not in AS_WRITTEN:
            out.append(f"{key}: {value!r} as written")
    return out


def english_left(said: Said, tr: Translator) -> list[str]:
    """English words (or a {placeholder}) in what `tr` says, besides the parts said as
    their writer wrote them."""
    words = said.say(tr)
    for kept in _as_written(said):
        words = words.replace(kept, " ")
    return ENGLISH_WORD.findall(words) + re.findall(r"\{\w+\}", words)


def _as_written(said: Said) -> list[str]:
    out = []
    for key, value in said.args:
        if isinstance(value, Said):
            out += _as_written(value)
        elif key in AS_WRITTEN:
            out.append(value)
    return sorted(out, key=len, reverse=True)


def test_every_alert_the_scenes_raise_is_said_in_chinese_and_russian(made):
    for scene in SCENES:
        scene()
    raised = Counter(a.said.msgid for a in made)
    assert len(raised) >= 18, sorted(raised)  # all but the rarest: see the tests below
    for alert in made:
        for tr in (ZH, RU):
            assert unsaid(alert.said, tr) == [], (alert.text, tr.language)
            assert english_left(alert.said, tr) == [], (alert.said.say(tr), tr.language)
            for seen in alert.evidence:  # what the reader saw, said as the alert is
                assert unsaid(seen, tr) == [], (str(seen), tr.language)


def test_an_alert_s_english_is_what_the_recogniser_always_wrote(made):
    """Worked examples, byte for byte as the journal has kept them as `message`."""
    test_alerts.test_two_discards_at_once_are_ambiguous()
    test_alerts.test_long_and_short_hands_after_things_settle()
    test_alerts.test_void_order_breach_lenient_is_allowed_and_noted()
    test_alerts.test_a_draw_that_is_not_the_next_wall_tile_is_a_wall_mismatch()
    test_alerts.test_unknown_and_duplicate_tags()
    test_stall.test_regression_a_stuck_judge_at_a_fast_table_raises_a_stall_alert()
    test_reconcile.test_a_table_that_no_legal_moves_explain()
    texts = [a.text for a in made]
    for text in (
        "fits Discard S 2m and Discard S 9m",
        "W hand holds +1 tiles: W.hand 9m +1",
        "N hand holds -1 tiles: N.hand 1s -1",
        "E discarded 1p while holding void-suit s tiles (lenient)",
        "Draw S 3m: refused, wall-mismatch: the next wall tile is 2m, not 3m",
        "unknown tag e280689400000000deadbeef at 2.000",
        "1m#1 under two tags (e280689418ca12f9c228d985, e280689400000000deadbeef) at 3.000",
        "no move read for 5.1 s while the table differs from the judge, which waits for void "
        "choices of N: E.river 5s +1, E.void 5s -1, N.hand 7s -1, N.river 7s +1, W.hand 2m +1, "
        "W.hand 2p -1, W.river 2p +1",
        "no legal sequence of up to 8 moves explains the table: N.hand 7s -1, N.river 7s +1",
    ):
        assert text in texts


def test_a_button_pressed_with_no_deal_says_its_note_in_the_reader_s_language():
    """The note is evidence made as a sentence where the button is read: its English as the
    journal has always kept it."""
    sc = Scene()
    (alert,) = alerts(sc.rec.on_button(SeatButton(1.0, Seat.S, Button.HU), None))
    assert alert.text == "S (deal S) button HU at 1.000: no deal"
    assert alert.said.say(ZH) == "南：按钮胡，时间1.000：没有牌局"
    assert alert.said.say(RU) == "Юг: кнопка Ху, 1.000: раздачи нет"
    (note,) = alert.evidence
    assert str(note) == "S (deal S) button HU at 1.000"
    assert note.say(ZH) == "南：按钮胡，时间1.000"


def test_the_void_order_alert_says_the_suit_and_the_tile_as_players_say_them(made):
    test_alerts.test_void_order_breach_lenient_is_allowed_and_noted()
    (alert, *_) = made
    assert alert.text == "E discarded 1p while holding void-suit s tiles (lenient)"
    assert alert.said.say(ZH) == "东家手中还有定缺的条牌时打出了一筒（宽松模式）"
    assert alert.said.say(RU) == (
        "Восток сбросил 1 точка, держа кости запрещённой масти (бамбук) (нестрогий режим)"
    )


# --- the parts of the alerts (alert_said.py), each as the recogniser has written it ------


def _spot(seat: Seat | None, kind: ZoneKind, tile: str) -> Spot:
    return Spot(Zone(kind, seat), Tile.parse(tile))


def test_a_tally_is_said_as_fmt_tally_writes_it_and_in_words_of_the_game():
    tally = Counter(
        {
            _spot(Seat.S, ZoneKind.HAND, "5p"): -1,
            _spot(Seat.S, ZoneKind.RIVER, "5p"): 1,
            _spot(None, ZoneKind.WALL, "5s"): 1,
        }
    )
    said = tally_said(tally)
    assert str(said) == fmt_tally(tally) == "S.hand 5p -1, S.river 5p +1, wall 5s +1"
    assert said.say(ZH) == "南家手牌五筒 -1、南家牌河五筒 +1、牌墙五条 +1"
    for tr in (ZH, RU):
        assert unsaid(said, tr) == [] and english_left(said, tr) == []


def test_moves_and_ways_are_said_as_move_text_writes_them():
    e, s = Seat.E, Seat.S
    moves = (
        Draw(s, Tile.parse("5p")),
        Discard(s, Tile.parse("5p")),
        Kong(e, MeldKind.CONCEALED_KONG, Tile.parse("3s")),
        ChooseVoid(e, Suit.M, Tile.parse("2m")),
        CloseClaims(),
        Pung(Seat.W),
    )
    layout = Scene().rec.layout  # the dealer at side E: each seat at its own side
    then = moves_said(moves, layout)
    assert str(then) == " then ".join(move_text(m) for m in moves)
    ways = listed((moves_said(moves[:2], layout, STEP), moves_said(moves[2:], layout, STEP)), OR)
    assert str(ways) == "Draw S 5p → Discard S 5p | " + " → ".join(map(move_text, moves[2:]))
    for said in (then, ways):
        for tr in (ZH, RU):
            assert unsaid(said, tr) == [] and english_left(said, tr) == [], said.say(tr)


def test_what_the_judge_waits_for_and_a_tile_copy_are_said_as_written():
    sc = Scene()
    assert str(waits_said(sc.deal, sc.rec.layout)) == "void choices of E S W N"
    sc.choose_voids()
    assert str(waits_said(sc.deal, sc.rec.layout)) == "discard (E to move)"
    copy = copy_said(TileCopy(Tile.parse("3m"), 2))
    assert str(copy) == "3m#2" and copy.say(ZH) == "三万（第2张）"
    for said in (waits_said(sc.deal, sc.rec.layout), copy):
        for tr in (ZH, RU):
            assert unsaid(said, tr) == [] and english_left(said, tr) == [], said.say(tr)


def test_an_alert_made_from_text_is_refused():
    with pytest.raises(TypeError, match="sentence"):
        RefereeAlert(test_alerts.AlertKind.STALLED, None, "no move read")  # type: ignore[arg-type]


def test_regression_a_dealer_not_at_side_east_was_named_by_deal_seat_in_the_alerts(made):
    """The dealer sat at the table's West side: the recogniser's alerts said "E declared Hu"
    and "S (N) hand holds +1 tiles" (deal seats) and gave the alert deal seat E, while the
    board and the referee page name sides. Its alerts name the side a player sits at, in
    every language, and the alert's seat is that side."""
    sc = Scene(dealer_side=Seat.W)  # deal seat E sits at side W, deal seat S at side N
    sc.choose_voids()
    got = sc.press(Seat.E, Button.HU)
    (false_hu,) = alerts(got)
    assert false_hu.kind is test_alerts.AlertKind.FALSE_HU and false_hu.seat is Seat.W
    assert false_hu.text == "W declared Hu without a winning hand (accepted as a false Hu)"
    assert false_hu.said.say(ZH).startswith("西")
    assert false_hu.said.say(RU).startswith("Запад")
    # its evidence: the button at side W, deal seat E beside it, as it was always written
    assert [str(e) for e in false_hu.evidence] == [f"W (deal E) button HU at {sc.t:.3f}"]

    sc = Scene(dealer_side=Seat.W)
    sc.choose_voids()
    sc.place(sc.wall_copy("9m"), sc.zone(ZoneKind.HAND, Seat.S))  # out of turn, at side N
    sc.wait(2.0)
    (long_hand,) = alerts(sc.wait(4.0))
    assert long_hand.seat is Seat.N
    assert long_hand.text == "N hand holds +1 tiles: N.hand 9m +1"
    assert long_hand.said.say(ZH).startswith("北方手牌")
    assert any(str(e).startswith("N.hand (deal S): 9m#") for e in long_hand.evidence)
    # what the judge waits for and the moves it fits, by side too
    assert str(waits_said(sc.deal, sc.rec.layout)) == "discard (W to move)"
    drawn = moves_said(
        (Draw(Seat.E, Tile.parse("5p")), Discard(Seat.S, Tile.parse("5p"))), sc.rec.layout
    )
    assert str(drawn) == "Draw W 5p then Discard N 5p"
