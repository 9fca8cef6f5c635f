"""The referee's call in the reader's language (issue 33 item 3): the daemon sends each of
its sentences as a `Said` (msgid, what fills it), and a page says it in the language its
referee picked; English stays what the page has always shown (tile codes, 3m)."""

from __future__ import annotations

import random

from controller.daemon.candidates import candidates
from controller.daemon.referee_call import RefereeCall, details
from controller.locale import ENGLISH, Language, Said, says, translator
from controller.words import tile_said
from rules.deal import Deal
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import Tile

ZH = translator(Language.ZH_CN)
RU = translator(Language.RU)


def test_a_said_sentence_is_english_for_english_and_the_catalog_s_words_otherwise():
    s = says("{who} drew {tile}: enter it", who=Said("South"), tile=tile_said("3m"))
    assert s.say(ENGLISH) == str(s) == "South drew 3m: enter it"
    assert s.say(ZH) == "南家摸到三万：录入"
    assert s.say(RU) == "Юг взял 3 символа: внести"
    assert s.to_json() == {
        "msgid": "{who} drew {tile}: enter it",
        "args": {"who": {"msgid": "South"}, "tile": {"msgid": "3 Characters", "en": "3m"}},
    }


def test_the_reader_s_differences_in_chinese_and_russian():
    diffs = {(Seat.S, "hand", Tile.parse("3m")): 1, (Seat.S, "hand", Tile.parse("5p")): -2}
    (line,) = details(diffs, Seat.E)
    assert str(line) == "South's hand: one 3m more, two 5p fewer than the judge knows"
    assert line.say(ZH) == "南家的手牌：与裁判所知相比，多一张三万、少两张五筒"
    assert (
        line.say(RU)
        == "рука (Юг): 3 символа: на одну больше, 5 точек: на две меньше, чем знает судья"
    )


def test_the_judge_s_next_step_is_said_in_each_language_and_sent_as_sentences():
    deal = Deal.start_shuffled(load("sbr-mil"), random.Random(7))
    offered = candidates(deal, Seat.E)
    assert offered, "a deal in progress has a next step"
    call = RefereeCall("stalled", "Stalled: no move read", offered, alert_seq=3)
    data = call.to_json()
    words = data["words"]
    assert [Said(**_args(w["text"])).say(ENGLISH) for w in words["candidates"]] == [
        c["text"] for c in data["candidates"]
    ]
    zh = [Said(**_args(w["text"])).say(ZH) for w in words["candidates"]]
    assert all(text != c["text"] for text, c in zip(zh, data["candidates"], strict=True)), zh
    assert Said(**_args(words["status"])).say(ZH) == "牌桌在等您。"
    assert data["status"] == "The table waits for you."


def _args(j: dict) -> dict:
    """A Said's JSON back as the dataclass's fields (the page's `MJ.say` reads the same)."""
    args = tuple(
        (k, Said(**_args(v)) if isinstance(v, dict) else v) for k, v in j.get("args", {}).items()
    )
    return {"msgid": j["msgid"], "args": args, "english": j.get("en")}


def test_journal_lines_are_said_in_the_reader_s_language():
    from controller.words import record_said

    discard = record_said("move.accepted", {"seat": "S", "move": "discard", "tile": "5p"})
    assert str(discard) == "South discards 5 Dots"
    assert discard.say(ZH) == "南 出牌 五筒"
    assert discard.say(RU) == "Юг сбрасывает 5 точек"
    window = record_said(
        "claim.window",
        {"state": "closed", "tile": "8s", "discarder": "E", "claims": {"S": "pung"},
         "closed_by": "all-answered"},
    )  # fmt: skip
    assert str(window) == "claims closed on 8 Bamboo from East: South pung (all answered)"
    assert "八条" in window.say(ZH) and "东" in window.say(ZH)
    settled = record_said(
        "deal.settled", {"deal": 3, "deltas": [9, -3, -3, -3], "end": "three-won"}
    )
    assert settled.say(RU) == "раздача 3 рассчитана (трое выиграли): E +9 S -3 W -3 N -3"


def test_a_call_with_no_candidate_says_its_alert_s_title_in_the_reader_s_language():
    call = RefereeCall("stalled", "Stalled: West holds 15 tiles", alert_seq=4)
    assert call.headline == "Stalled: West holds 15 tiles"
    words = call.to_json()["words"]
    assert Said(**_args(words["headline"])).say(ZH) == "停滞：West holds 15 tiles"
    assert Said(**_args(words["cause"])).say(RU) == "Остановка: West holds 15 tiles"


def test_every_ledger_why_of_random_deals_is_said_as_written_in_english():
    """A ledger line's `why` (rules/) said as a sentence: its English is the `why` itself for
    every line of 60 bot deals under each Sichuan rule set, and the forms it knows are said
    in the reader's language."""
    from controller.words import why_said
    from rules.random_deals import play_one

    known = 0
    seen = 0
    for rules in ("sbr-mil", "wmt", "sbr-russia"):
        rs = load(rules)
        for seed in range(20):
            for line in play_one(rs, seed, rejudge=False).deal.ledger().lines:
                said = why_said(line.why)
                assert str(said) == line.why
                seen += 1
                if said.args:
                    known += 1
                    assert said.say(ZH) != line.why and said.say(RU) != line.why, line.why
    assert seen > 100 and known > seen // 2, (known, seen)


def test_a_hu_why_names_its_patterns_in_the_reader_s_language():
    from controller.words import why_said

    said = why_said("Hu on 8m (all-pungs 1, root 1; A=4)")
    assert said.say(ZH) == "胡八万（碰碰胡 1、根 1；A=4）"
    assert why_said("refund: concealed-kong 4s").say(RU).startswith("возврат: ")
    assert str(why_said("slow play")) == "slow play"  # a referee's reason: as written
