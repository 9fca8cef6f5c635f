"""The recogniser's alert messages of an older journal (no `words`) read back as sentences
(controller.recognised_words.py): each form the recogniser wrote (controller/recognition:
recogniser.py, declarations.py, tile_declarations.py, wall_checks.py) is said in Chinese and
Russian with no English word left but what the judge or a device wrote (a refusal's reason);
a declaration's note inside one is said as written, its seats and tiles in words."""

from __future__ import annotations

import re

import pytest

from controller.locale import Language, translator
from controller.recognised_words import FORMS, recognised_said
from controller.words import in_words

ZH, RU = translator(Language.ZH_CN), translator(Language.RU)
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")

# as the recogniser writes them (its f-strings), one of each form
MESSAGES = [
    "no move read for 2.5 s while the table differs from the judge, which waits for discard "
    "(S to move): S.hand 2m +1, S.river 2p -1, wall 5s +1",
    "no move read for 4.0 s while the table differs from the judge, which waits for void "
    "choices of E W: E.hand 2m +1",
    "2 different move sequences fit the table: Draw S 5p → Discard S 5p | Draw S 3p → Discard S 3p",
    "2 different outcomes fit the table: Pung W | Kong W kong 3m",
    "S (E) hand holds +1 tiles: S.hand 5p +1",
    "W (N): declared, but the tiles did not follow (W.melds 7s -3)",
    "N (W): tiles moved into the melds undeclared (N.melds 4m +3, N.hand 4m -2)",
    "the table differs from the judge: E.river 9p +1",
    "no legal sequence of up to 6 moves explains the table: S.hand 1z +1",
    "N discarded 1s while holding void-suit p tiles (lenient)",
    "W declared Hu without a winning hand (accepted as a false Hu)",
    "E declared a kong; no tiles followed within 3 s",
    "S pressed CHOW on 4s; no chow was laid in the melds within 3 s",
    "E pressed CHOW, no chow is possible (N's 5p: no chow fits); nothing offered",
    "E pressed CHOW, no chow is possible (no discard is open to claims); nothing offered",
    "fits Pung W and Kong W kong",
    "Draw S 5p then Discard S 5p: refused, not-your-turn: S is not to move",
    "unknown tag 0a1b2c at 12.345",
    "3m#2 under two tags (0a1b, 2c3d) at 1.000",
    "wall antenna 2: unknown tag 0a1b2c",
    "wall antenna 1: 3m#2 seen under a second tag 0a1b",
    "the judge's wall is not the scanned wall: draws are not checked by it",
    "the dealt hands show the dealer at side S, not E: seats follow the table",
]
# a declaration's note inside an alert, as the recogniser wrote it
NOTED = [
    "S (deal E) button HU at 12.345: no deal",
    "S (deal E) button PUNG at 12.345: refused, not-your-turn: S is not to move",
]
# what stays as its writer wrote it: the judge's reason, a device's tag and times
KEPT = re.compile(r"not-your-turn: S is not to move|[0-9a-f]{4,}")


@pytest.mark.parametrize("text", MESSAGES)
def test_each_form_of_the_recogniser_s_alerts_is_said_in_chinese_and_russian(text):
    said = recognised_said(text)
    assert said.english is None, "read by no form: said as written"
    assert str(said)  # the English: the message in words
    for tr in (ZH, RU):
        words = KEPT.sub("", said.say(tr))
        assert not ENGLISH_WORD.search(words), (tr.language, said.say(tr))
        assert "{" not in words, words


def test_every_form_is_one_the_table_above_says():
    read = {next(msgid for form, msgid in FORMS if form.fullmatch(t)) for t in MESSAGES + NOTED}
    assert read == {msgid for _, msgid in FORMS}


def test_a_declaration_s_note_in_an_older_journal_s_alert_is_said_as_written():
    """Evidence is journalled as sentences now (`evidence_words`); an older journal's notes
    are not read back by form: said as written, their seats and tiles in words."""
    said = recognised_said(NOTED[0])
    assert said.say(ZH) == "South (deal East) button HU at 12.345：没有牌局"
    said = recognised_said(NOTED[1])
    assert said.say(RU).startswith("South (deal East) button PUNG at 12.345: отклонено")


def test_a_message_of_no_known_form_is_said_as_written_its_seats_and_tiles_in_words():
    said = recognised_said("something new: S 5p")
    assert said.say(ZH) == in_words("something new: S 5p") == "something new: South 5 Dots"


def test_the_recogniser_s_alerts_read_in_words_of_the_game():
    said = recognised_said("N discarded 1s while holding void-suit p tiles (lenient)")
    assert str(said) == "North discarded 1 Bamboo while holding void-suit Dots tiles (lenient)"
    assert said.say(ZH) == "北家手中还有定缺的筒牌时打出了一条（宽松模式）"
    assert said.say(RU) == (
        "Север сбросил 1 бамбук, держа кости запрещённой масти (точки) (нестрогий режим)"
    )
    stalled = recognised_said("S (E) hand holds +1 tiles: S.hand 5p +1")
    assert stalled.say(ZH) == "南家（东方）手牌张数+1：南家手牌五筒 +1"
    assert stalled.say(RU) == "Юг (Восток): число костей в руке +1: рука (Юг): 5 точек +1"
