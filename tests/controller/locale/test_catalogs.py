"""The catalogs hold every message people read, each translated, and say the game's terms
as the glossary (controller/locale/glossary.tsv) does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.locale import Language, catalog_dir, read_po
from tools.locale_catalogs import extracted, glossary, ledger_rules

TRANSLATED = (Language.ZH_CN, Language.RU)


def catalog(lang: Language) -> dict[str, tuple[str, ...]]:
    return read_po(catalog_dir(lang) / "mjtable.po")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_shown_message_is_in_the_catalog_and_translated(lang):
    """A message marked in the code or a page (tools/locale_catalogs.py says how) that the
    catalog lacks, or holds untranslated, fails here: run `python -m tools.locale_catalogs
    sync` and translate it."""
    held = catalog(lang)
    found = list(extracted())
    assert len(found) > 50
    missing = sorted({f"{f.msgid!r} ({f.where})" for f in found if f.msgid not in held})
    assert not missing, f"not in the {lang.tag} catalog: " + ", ".join(missing)
    plural_forms = {Language.ZH_CN: 1, Language.RU: 3}[lang]
    for f in found:
        forms = held[f.msgid]
        assert all(forms), f"{f.msgid!r} has an empty form in {lang.tag}"
        if f.plural is not None:
            assert len(forms) == plural_forms, f"{f.msgid!r}: {len(forms)} forms in {lang.tag}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_has_no_entry_without_a_translation(lang):
    from babel.messages.pofile import read_po as babel_read_po

    with (catalog_dir(lang) / "mjtable.po").open("rb") as f:
        po = babel_read_po(f, locale=lang.value)
    empty = [
        m.id
        for m in po
        if m.id and not all(m.string if isinstance(m.string, tuple) else (m.string,))
    ]
    assert not empty, f"untranslated in {lang.tag}: {empty}"
    assert not [m.id for m in po if m.id and m.fuzzy], "a fuzzy entry is not a translation"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogs_say_the_game_s_terms_as_the_glossary_does(lang):
    held = catalog(lang)
    for term in glossary():
        assert held.get(term.en, ("(missing)",))[0] == term.said(lang), term.term


def test_the_glossary_holds_the_game_s_own_terms_with_their_source():
    terms = {t.term: t for t in glossary()}
    zh = {t.zh_cn for t in terms.values()}
    for said in (
        "血战到底",
        "定缺",
        "杠上开花",
        "杠上炮",
        "抢杠胡",
        "海底捞月",
        "查大叫",
        "查花猪",
    ):
        assert said in zh, said
    for n, numeral in enumerate("一二三四五六七八九", start=1):
        assert terms[f"{n}m"].zh_cn == numeral + "万"
        assert terms[f"{n}p"].zh_cn == numeral + "筒"
        assert terms[f"{n}s"].zh_cn == numeral + "条"
    assert {terms[f"{n}z"].en for n in range(1, 8)} >= {"East wind", "Red dragon"}
    for t in terms.values():
        assert t.zh_cn and t.ru and t.en and t.source, t.term
    assert len({t.en for t in terms.values()}) == len(terms), "one English msgid per term"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_ledger_s_rules_are_in_the_reader_s_language_with_the_reference_kept(lang):
    held = catalog(lang)
    cited = ledger_rules()
    assert "004 Table 7: concealed kong, 2 from each player still in" in cited
    assert len(cited) > 20
    for rule in cited:
        said = held.get(rule, ("",))[0]
        assert said and said != rule, f"{rule!r} untranslated in {lang.tag}"
        if re.match(r"^\d{3}\b", rule):  # a rulebook reference ("004 Table 7") stays
            reference = rule.split(":")[0]
            assert said.split(":")[0].split("：")[0] == reference, (rule, said)


# the rule sources beside the project (../shared/seeds from the checkout, or a worktree's)
SEEDS = next(
    (p / "shared" / "seeds" for p in Path(__file__).resolve().parents if (p / "shared").is_dir()),
    Path("/nonexistent"),
)


def test_every_glossary_term_names_its_source():
    for t in glossary():
        cited = r"\b00[0-4]\b|wikipedia|RULES\.md|seat-[ESWN]"  # a book, a page, another term
        assert re.search(cited, t.source), (t.term, t.source)
        assert "not yet checked" not in t.source, t.term


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule sources (../shared/seeds) are not here")
def test_the_glossary_s_quoted_rulebook_terms_are_in_the_rulebooks_it_names():
    """A source like "004 Table 4 no 7 'Win after Kong'" quotes the book: the words are there."""
    books = {p.name[:3]: p.read_text(encoding="utf-8").lower() for p in SEEDS.glob("00?_*.txt")}
    checked = 0
    for t in glossary():
        for book, said in re.findall(r"\b(00[0-4])\b[^']*'([^']+)'", t.source):
            first = said.split(" (")[0].split(":")[0].lower()
            assert first in books[book], (t.term, book, said)
            checked += 1
    assert checked > 15
