"""The languages of the table's words (controller/locale): which a code or a browser asks
for, the catalogs read from their .po and from the .mo a build compiles, and English when a
code is unknown or a catalog does not load."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

from controller.locale import (
    ENGLISH,
    Language,
    language,
    load,
    negotiate,
    read_mo,
    read_po,
    translator,
)
from tools.locale_catalogs import compile_all

TRANSLATED = (Language.ZH_CN, Language.RU)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", Language.RU),
        ("zh-CN,zh;q=0.9", Language.ZH_CN),
        ("zh-Hans-CN", Language.ZH_CN),
        ("zh-TW,zh-Hant;q=0.9", Language.EN),  # Traditional is not the Simplified catalog
        ("de-DE,ru;q=0.5,en;q=0.6", Language.EN),  # by weight, not by order
        ("de-DE,ru;q=0.5", Language.RU),
        ("ru;q=0", Language.EN),  # q=0: not wanted
        ("", Language.EN),
        (None, Language.EN),
        ("*", Language.EN),
    ],
)
def test_a_browser_gets_its_first_choice_the_table_speaks(header, expected):
    assert negotiate(header) is expected


def test_an_unknown_language_code_is_english_said_in_one_log_line(caplog):
    with caplog.at_level(logging.WARNING, logger="controller.locale"):
        assert language("klingon") is Language.EN
    assert len(caplog.records) == 1
    assert "'klingon'" in caplog.records[0].getMessage()
    assert "zh-CN" in caplog.records[0].getMessage()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="controller.locale"):
        assert language("zh-CN") is Language.ZH_CN
        assert language("ru") is Language.RU
        assert language(None) is Language.EN
    assert caplog.records == []


@pytest.mark.parametrize(
    ("n", "expected"),
    [(1, "1 очко"), (2, "2 очка"), (4, "4 очка"), (5, "5 очков"), (11, "11 очков"),
     (12, "12 очков"), (21, "21 очко"), (22, "22 очка"), (25, "25 очков"), (111, "111 очков")],
)  # fmt: skip
def test_russian_counts_take_the_form_of_their_number(n, expected):
    said = translator(Language.RU).ngettext("{n} point", "{n} points", n)
    assert said.format(n=n) == expected


def test_chinese_and_english_counts():
    zh = translator(Language.ZH_CN)
    assert zh.ngettext("{n} point", "{n} points", 1) == zh.ngettext("{n} point", "{n} points", 7)
    assert ENGLISH.ngettext("{n} point", "{n} points", 1) == "{n} point"
    assert ENGLISH.ngettext("{n} point", "{n} points", 0) == "{n} points"


def test_a_message_the_catalog_lacks_is_said_in_english():
    ru = translator(Language.RU)
    assert ru.gettext("no such message in any catalog") == "no such message in any catalog"
    assert ru.gettext("5 Dots") != "5 Dots"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_says_what_its_source_says(lang, tmp_path):
    """The .mo a build compiles (setup.py, tools/locale_catalogs compile) reads back, with
    this module's own reader, to exactly the messages of the .po."""
    compile_all(out=tmp_path)
    mo = tmp_path / lang.value / "LC_MESSAGES" / "mjtable.mo"
    po = (
        Path(__file__).parents[3]
        / "controller"
        / "locale"
        / lang.value
        / "LC_MESSAGES"
        / "mjtable.po"
    )
    from_mo, from_po = read_mo(mo.read_bytes()), read_po(po)
    assert from_mo == from_po
    assert len(from_po) > 100
    # and `load` prefers the compiled catalog where there is one
    assert load(lang, tmp_path).messages == from_po


@pytest.mark.parametrize(
    ("content", "why"),
    [(b"\x00\x01garbage that is no catalog", "bad magic"), (b"", "too short")],
)
def test_a_catalog_that_fails_to_load_is_english_and_says_why(tmp_path, caplog, content, why):
    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "mjtable.mo").write_bytes(content)
    with caplog.at_level(logging.ERROR, logger="controller.locale"):
        tr = load(Language.RU, tmp_path)
    assert tr.language is Language.EN
    assert tr.gettext("5 Dots") == "5 Dots"
    assert tr.fault is not None and why in tr.fault and "ru" in tr.fault
    assert tr.to_json()["fault"] == tr.fault  # the pages say it (the referee page shows it)
    assert len(caplog.records) == 1


def test_a_missing_catalog_is_english_and_says_why(tmp_path):
    tr = load(Language.ZH_CN, tmp_path)
    assert tr.language is Language.EN and "zh-CN" in (tr.fault or "")


def test_a_checkout_reads_the_po_without_a_compiled_catalog():
    """No .mo in the source tree (.gitignore): the catalogs come from the .po via Babel."""
    here = Path(__file__).parents[3] / "controller" / "locale"
    assert not list(here.glob("*/LC_MESSAGES/*.mo"))
    assert "babel" in sys.modules or translator(Language.ZH_CN).fault is None
    assert translator(Language.ZH_CN).gettext("5 Dots") == "五筒"
