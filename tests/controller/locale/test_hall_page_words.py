"""The hall page (controller/hub/page.py) in the director's language: rendered in the
language of `?lang=` or the browser's, every shown word the catalog's."""

from __future__ import annotations

import re
from html import unescape

from controller.hub.page import render_fragment, render_page
from controller.hub.standings import Standings
from controller.hub.wire import SettledDeal
from controller.locale import ENGLISH, Language, translator
from rules.seats import Seat


def standings() -> Standings:
    s = Standings()
    deal = SettledDeal(
        seq=1, session=1, deal=1, rules="sbr-mil", dealer=Seat.E, dice=(1, 2),
        winners=(), deltas=(3, -1, -1, 0),  # sums to +1: the imbalance line shows too
    )  # fmt: skip
    s.apply_deal("h", "T1", deal)
    return s


def english_shown(html: str, lang: Language) -> list[str]:
    """Text between tags that is an English message the catalog translates."""
    tr = translator(lang)
    texts = {unescape(t).strip() for t in re.findall(r">([^<>]+)<", html)}
    english = {m for m, forms in tr.messages.items() if forms[0] != m and "{" not in m}
    return sorted(t for t in texts if t in english)


def test_the_hall_page_in_each_language():
    snap = standings().snapshot()
    en = render_page(snap, "Chengdu", tr=ENGLISH)
    assert "Hall Chengdu standings" in en and '<html lang="en">' in en
    for lang in (Language.ZH_CN, Language.RU):
        page = render_page(snap, "Chengdu", tr=translator(lang))
        assert f'<html lang="{lang.tag}">' in page
        assert 'id="lang-switch"' in page
        assert english_shown(page, lang) == [], lang.tag
        assert not re.search(r"\{\w+\}", page), lang.tag
    zh = render_page(snap, "Chengdu", tr=translator(Language.ZH_CN))
    assert "Chengdu赛场排名" in zh and "第1场" in zh
    ru = render_fragment(snap, tr=translator(Language.RU))
    assert "сессия 1: сумма очков на +1" in ru


def test_the_english_page_is_as_it_was_without_a_translator():
    snap = standings().snapshot()
    assert render_fragment(snap) == render_fragment(snap, tr=ENGLISH)
    assert "session 1: the scores sum to +1 beyond the points paid to nobody" in render_fragment(
        snap
    )
