"""The gettext catalogs of controller/locale, kept with Babel: the messages people read,
extracted from the code and the pages, joined with the game's terms of the glossary
(controller/locale/glossary.tsv, the one place they live), into mjtable.pot and each
language's .po; and the .po compiled to .mo (the package build does it, setup.py).

    python -m tools.locale_catalogs sync      # after changing a shown string or the glossary
    python -m tools.locale_catalogs compile   # .mo beside each .po (a build does this)

A message is marked where it is written: `tr.gettext("…")` (or `_ = tr.gettext`; `_("…")`) /
`tr.ngettext("…", "…", n)` /
`N_("…")` in Python, `t("…")` / `tn("…", "…", n)` / `N_("…")` in the pages' JS, and
`data-msgid="…"` (an element's text) or `data-msgid-ATTR="…"` (its attribute) in their HTML."""

from __future__ import annotations

import argparse
import csv
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from controller.locale import DOMAIN, HERE, Language, catalog_dir

CONTROLLER = HERE.parent
GLOSSARY = HERE / "glossary.tsv"
TEMPLATE = HERE / f"{DOMAIN}.pot"
TRANSLATED = tuple(lang for lang in Language if lang is not Language.EN)
PY_KEYWORDS = {
    "gettext": None,
    "_": None,
    "ngettext": (1, 2),
    "N_": None,
    "says": None,
    "Said": None,
    "counted": (2, 3),
}
JS_KEYWORDS = {"t": None, "tn": (1, 2), "N_": None}
_HTML_MSGID = re.compile(r'data-msgid(?:-[\w-]+)?="([^"]+)"')  # text, or an attribute


@dataclass(frozen=True, slots=True)
class Term:
    """One of the game's terms: its key, how each language says it, where that comes from."""

    term: str
    zh_cn: str
    ru: str
    en: str
    source: str

    def said(self, lang: Language) -> str:
        return {Language.ZH_CN: self.zh_cn, Language.RU: self.ru, Language.EN: self.en}[lang]


@dataclass(frozen=True, slots=True)
class Found:
    """A message found in the code: its msgid, plural msgid if any, and where."""

    msgid: str
    plural: str | None
    where: str


def glossary(path: Path = GLOSSARY) -> tuple[Term, ...]:
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return tuple(Term(r["term"], r["zh-CN"], r["ru"], r["en"], r["source"]) for r in rows)


def extracted(root: Path = CONTROLLER) -> Iterator[Found]:
    """Every marked message of the code and the pages under `root` (the controller)."""
    for method, pattern, keywords in (
        ("python", "**.py", PY_KEYWORDS),
        ("javascript", "web/**.js", JS_KEYWORDS),
    ):
        for name, line, message, _, _ in extract_from_dir(
            root, [(pattern, method)], keywords=keywords
        ):
            if isinstance(message, tuple):
                yield Found(message[0], message[1], f"{name}:{line}")
            elif message:
                yield Found(message, None, f"{name}:{line}")
    yield from _in_f_strings(root)
    for page in sorted((root / "web").glob("*.html")):
        for m in _HTML_MSGID.finditer(page.read_text(encoding="utf-8")):
            yield Found(m.group(1), None, f"web/{page.name}")


def _in_f_strings(root: Path) -> Iterator[Found]:
    """The marked messages inside f-strings (`f"<th>{_('seat')}</th>"`), which Babel's
    Python extractor does not look into (it reads an f-string as one string)."""
    import ast

    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fstring in (n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)):
            for node in ast.walk(fstring):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name not in PY_KEYWORDS:
                    continue
                spec = PY_KEYWORDS[name] or (1,)
                texts = [
                    a.value
                    for i, a in enumerate(node.args, start=1)
                    if i in spec and isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
                if texts and len(texts) == len(spec):
                    where = f"{path.relative_to(root)}:{node.lineno}"
                    yield Found(texts[0], texts[1] if len(texts) > 1 else None, where)


_CITATION = re.compile(r"^\d{3}\b[^:]*: ")  # "004 Table 6: ...": a rulebook reference


def ledger_rules() -> tuple[str, ...]:
    """Every rule a ledger line cites (rules/: the `R_*` constants, and tables of them such as
    the kong payments), said in the reader's language with the rulebook reference kept (a
    rule the rulebook does not print, the referee's penalty, has none)."""
    import importlib
    import pkgutil

    import rules

    found: set[str] = set()
    for info in pkgutil.iter_modules(rules.__path__):
        for name, value in vars(importlib.import_module(f"rules.{info.name}")).items():
            if name.startswith("R_") and isinstance(value, str):
                found.add(value)  # with its reference, or none (the referee's penalty)
            elif isinstance(value, Mapping) and value and name.isupper():
                said = [v for v in value.values() if isinstance(v, str) and _CITATION.match(v)]
                if len(said) == len(value):
                    found.update(said)
    return tuple(sorted(found))


def template(root: Path = CONTROLLER) -> Catalog:
    """The catalog of every message, untranslated: the code's and the glossary's."""
    pot = Catalog(
        project="mjtable", domain=DOMAIN, copyright_holder="mjtable", msgid_bugs_address=""
    )
    for found in extracted(root):
        msgid = found.msgid if found.plural is None else (found.msgid, found.plural)
        pot.add(msgid, locations=[(found.where, None)])
    for term in glossary():
        if term.en not in pot:
            pot.add(term.en, auto_comments=[f"glossary: {term.term}"])
    for rule in ledger_rules():
        if rule not in pot:
            pot.add(rule, auto_comments=["a ledger rule: keep the reference before the colon"])
    return pot


def sync() -> None:
    """mjtable.pot from the code, and each .po updated to it, the glossary's terms set."""
    pot = template()
    if TEMPLATE.is_file():  # the same messages: the same template, not a new date
        with TEMPLATE.open("rb") as f:
            before = read_po(f)
        if {m.id for m in before} == {m.id for m in pot}:
            pot.creation_date = before.creation_date
    with TEMPLATE.open("wb") as f:
        write_po(f, pot, omit_header=False, sort_output=True, no_location=True)
    terms = glossary()
    for lang in TRANSLATED:
        po_path = catalog_dir(lang) / f"{DOMAIN}.po"
        if po_path.is_file():
            with po_path.open("rb") as f:
                po = read_po(f, locale=lang.value)
        else:
            po = Catalog(locale=lang.value, project="mjtable", domain=DOMAIN)
        po.update(pot, no_fuzzy_matching=True)
        po.fuzzy = False  # the header: the catalog is in use
        po.copyright_holder = po.last_translator = po.language_team = "mjtable"
        po.msgid_bugs_address = ""
        for term in terms:
            po[term.en].string = term.said(lang)
        po_path.parent.mkdir(parents=True, exist_ok=True)
        with po_path.open("wb") as f:
            write_po(f, po, sort_output=True, no_location=True, ignore_obsolete=True)


def compile_all(out: Path = HERE) -> list[Path]:
    """Each language's .mo from its .po, under `out` (the source tree or a build's copy)."""
    written = []
    for lang in TRANSLATED:
        with (catalog_dir(lang) / f"{DOMAIN}.po").open("rb") as f:
            po = read_po(f, locale=lang.value)
        mo = out / lang.value / "LC_MESSAGES" / f"{DOMAIN}.mo"
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as f:
            write_mo(f, po)
        written.append(mo)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.locale_catalogs", description=__doc__)
    parser.add_argument("step", choices=("sync", "compile"))
    args = parser.parse_args(argv)
    if args.step == "sync":
        sync()
    else:
        for mo in compile_all():
            print(mo)


if __name__ == "__main__":
    main()
