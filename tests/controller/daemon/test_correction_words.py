"""The referee page's list of corrections in the page's language (issue 33): each correction
comes with its sentence (`words`), said in Chinese or Russian where the page is, the
referee's own note as written unless it is one the page offered."""

from __future__ import annotations

from rig import Rig, begin_deal, play

from controller.alerts import AlertKind
from controller.locale import ENGLISH, Language, Said, translator
from controller.outputs.scoreboard import ActionKind, RefereeAction
from controller.words import ALERT_TITLES, alert_words
from rules.seats import Seat


def said(j: dict) -> Said:
    args = tuple((k, said(v) if isinstance(v, dict) else v) for k, v in j.get("args", {}).items())
    return Said(j["msgid"], args, j.get("en"))


def test_a_penalty_and_a_cancel_are_listed_in_each_language(rig: Rig):
    plan = begin_deal(rig, 5)
    play(rig, list(plan.moves)[:10])
    ask = RefereeAction(ActionKind.PENALTY, "slow play", Seat.S, client="ref-1", points=8,
                        paid_to=Seat.N, confirmed=True)  # fmt: skip
    assert rig.rt.referee(ask).accepted
    ask = RefereeAction(ActionKind.CANCEL, "it did not happen", client="ref-1", count=1)
    assert rig.rt.referee(ask).accepted
    listed = {c.text.split(" ")[1]: c for c in rig.rt.desk.listing()}
    penalty, cancel = listed["penalty:"], listed["move"]
    assert penalty.words is not None and cancel.words is not None
    assert said(penalty.words).say(ENGLISH) == penalty.text
    assert penalty.text.endswith("penalty: South pays 8 points to North by ref-1: slow play")
    zh, ru = translator(Language.ZH_CN), translator(Language.RU)
    assert said(penalty.words).say(zh).endswith("罚分：南家付8分给北（ref-1）：slow play")
    # the note the page offered is a catalog message: said in the page's language
    assert said(cancel.words).say(ru).endswith("аннулирован (ref-1): этого не было")


def test_a_referee_with_no_name_is_named_in_the_page_s_language(rig: Rig):
    """A referee who gave no name at the login is "referee" in the journal, said in the
    page's language in the corrections list (a Russian row read "судья судья" when the
    word was written into the sentence twice)."""
    plan = begin_deal(rig, 5)
    play(rig, list(plan.moves)[:10])
    ask = RefereeAction(ActionKind.CANCEL, "it did not happen", count=1)
    assert rig.rt.referee(ask).accepted
    (row,) = rig.rt.desk.listing()
    assert " cancelled by referee: " in row.text
    zh, ru = translator(Language.ZH_CN), translator(Language.RU)
    assert "(судья)" in said(row.words).say(ru) and "由裁判作废" in said(row.words).say(zh)


def test_every_alert_kind_has_its_title_in_the_catalogs():
    for kind in AlertKind:
        words = kind.value.replace("-", " ").capitalize().split(" ")
        title = " ".join("Hu" if w.lower() == "hu" else w for w in words)
        assert ALERT_TITLES[kind.value] == title  # the English the page has always shown
        for lang in (Language.ZH_CN, Language.RU):
            assert translator(lang).gettext(title) != title, (kind, lang)
    assert alert_words("stalled", "S holds 15 tiles") == "Stalled: South holds 15 tiles"
