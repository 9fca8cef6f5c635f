"""The daemon's alerts, the referee desk's answers and a boardless table's dice call are
made as sentences (controller/locale `Said`), journalled and sent with them, and said in the
reader's language where they are shown: the referee page's answer line, its alert list and
journal panel, `mjtable run`'s terminal (issue 33)."""

from __future__ import annotations

import json
import re

from rig import Rig, begin_deal, play

from controller.cli.run_status import alert_line
from controller.daemon.boardless import DiceFound, DiceReading, dice_asked
from controller.daemon.contracts import tail_line
from controller.journal.payloads import table_seat
from controller.journal.records import RecordKind
from controller.locale import Language, Said, translator
from controller.outputs.scoreboard import ActionKind, RefereeAction
from rules import moves as mv
from rules.seats import Seat
from rules.wall import Dice

ZH, RU = translator(Language.ZH_CN), translator(Language.RU)
LATIN = re.compile(r"[A-Za-z]{3,}")  # an English word left in a sentence


def act(rig: Rig, kind: ActionKind, **fields):
    return rig.rt.referee(RefereeAction(kind, client="ref-1", note="test", **fields))


def test_the_referee_desk_answers_in_chinese_and_russian(rig):
    plan = begin_deal(rig, 3)
    moves = list(plan.moves)
    k = next(i for i, x in enumerate(moves) if isinstance(x, mv.Draw))
    play(rig, moves[:k])
    side = table_seat(moves[k].seat, rig.rt.dealt_by)
    wrong = next(t for t in moves[k].tile.suit.tiles if t != moves[k].tile)
    refused = act(rig, ActionKind.MOVE, seat=side, move="draw", tile=str(wrong))
    assert not refused.accepted and refused.detail.startswith("the judge refuses ")
    said = Said.from_json(refused.to_json()["words"])
    assert str(said) == refused.detail  # the English is the detail as it always was
    zh, ru = said.say(ZH), said.say(RU)
    assert zh.startswith("裁判程序拒绝：") and "摸" in zh, zh
    assert ru.startswith("судья отклоняет ход: ") and "берёт" in ru, ru
    # the judge's reason in the reader's words, its detail as the judge wrote it
    assert "与牌墙不符（" in zh and "не совпадает со стеной (" in ru, (zh, ru)
    accepted = act(rig, ActionKind.MOVE, seat=side, move="draw", tile=str(moves[k].tile))
    assert accepted.accepted, accepted.detail
    said = Said.from_json(accepted.words)
    assert said.say(ZH).startswith("已接受：") and not LATIN.search(said.say(ZH)), said.say(ZH)
    assert said.say(RU).startswith("принято: ") and not LATIN.search(said.say(RU)), said.say(RU)
    nothing = act(rig, ActionKind.UNDO, target_seq=1)
    assert not nothing.accepted
    assert Said.from_json(nothing.words).say(ZH) == "记录1不是第1局的更正"
    assert Said.from_json(nothing.words).say(RU) == "запись 1 — не исправление раздачи 1"


def test_an_alert_the_daemon_raises_is_journalled_as_a_sentence_and_said_in_each_language(
    tmp_path,
):
    path = tmp_path / "t.journal"
    rig = Rig(path)
    rig.link("table", True)
    rig.link("reader", True)
    play(rig, begin_deal(rig, 1).moves)
    rig.close()
    again = Rig(path)  # the restart says what it found: an alert of the daemon's own
    (alert,) = [a for a in again.rt.alerts if a.text.startswith("Restarted")]
    assert alert.text == "Restarted: between deals (deal settled): nothing to replay"
    assert alert_line(alert, ZH).endswith("已重启：两局之间（本局已结算）：无需重放")
    assert alert_line(alert, RU).endswith(
        "Перезапуск: между раздачами (раздача рассчитана): повторять нечего"
    )
    # the journal keeps the sentence: the referee page's journal panel says it too
    (record,) = [r for r in again.records(RecordKind.ALERT) if r.data()["code"] == "restarted"]
    assert record.data()["message"] == "between deals (deal settled): nothing to replay"
    words = Said.from_json(record.data()["words"])
    assert words.say(ZH) == "两局之间（本局已结算）：无需重放"
    page_line = tail_line(record).split("\t")[3]
    assert Said.from_json(json.loads(page_line)).say(RU).startswith("Перезапуск: ")
    again.close()


def test_a_boardless_table_s_dice_call_is_said_in_chinese_and_russian():
    readings = (DiceReading(Dice(1, 3), Seat.E, 8), DiceReading(Dice(2, 5), Seat.S, 40))
    asked = dice_asked(DiceFound(readings, 53, 2))
    assert str(asked.text) == (
        "the dealt hands fit dice 1+3 with the dealer at East or dice 2+5 with the dealer at "
        "South but for 2 tiles"
    )
    assert asked.text.say(ZH) == "发到的手牌与骰子1+3、庄家在东家或骰子2+5、庄家在南家相符，只差2张"
    assert asked.text.say(RU) == (
        "сданные руки подходят (кости 1+3, дилер — Восток или кости 2+5, дилер — Юг), "
        "кроме 2 костей"
    )
    first = asked.candidates[0]
    assert first.to_json()["text"] == "Dice 1+3, the dealer at East"
    assert Said.from_json(first.words_json()["text"]).say(ZH) == "骰子1+3，庄家在东家"
    assert Said.from_json(first.words_json()["text"]).say(RU) == "Кости 1+3, дилер — Восток"
    headline = Said.from_json(first.words_json()["headline"])
    assert headline.say(ZH) == "发到的手牌与多个开门位置相符：掷出的骰子是多少？"
    assert headline.say(RU).startswith("Сданные руки подходят к нескольким проломам стены")
