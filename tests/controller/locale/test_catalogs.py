"""The catalogs hold every message people read, each translated, and say the game's terms
as the glossary (controller/locale/glossary.tsv) does."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
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


# --- no shown string left out of the catalogs, where the words are the pages' and the
# daemon's call's own (the referee page, the viewer page, the referee's call, the report)

WEB = Path(__file__).resolve().parents[3] / "controller" / "web"
CONTROLLER = WEB.parent
PROSE = re.compile(r"[A-Za-z]{2,}[,.:;?!…]? [A-Za-z]{2,}")  # two words: said to a person
# strings of these files that look like words but are not shown: a note journalled with an
# answer, CSS class lists
NOT_SHOWN = {"chosen from the referee call", "apply best", "correction undone"}


class _PageText(__import__("html.parser").parser.HTMLParser):
    """An HTML page's shown text and attributes, each with whether it is marked."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[dict[str, str | None]] = []
        self.unmarked: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        a = dict(attrs)
        for shown in ("placeholder", "title", "data-none", "aria-label"):
            if a.get(shown) and a.get(f"data-msgid-{shown}") != a[shown]:
                self.unmarked.append(f"<{tag} {shown}={a[shown]!r}>")
        if tag not in ("meta", "link", "input", "br", "img"):
            self.stack.append({"tag": tag, **a})

    def handle_endtag(self, tag) -> None:
        while self.stack and self.stack.pop()["tag"] != tag:
            pass

    def handle_data(self, data) -> None:
        text = " ".join(data.split())
        if not text or not re.search(r"[A-Za-z]{2,}", text) or not self.stack:
            return
        top = self.stack[-1]
        if top["tag"] in ("script", "style", "code") or top.get("data-msgid") == text:
            return
        self.unmarked.append(f"<{top['tag']}> {text!r}")


@pytest.mark.parametrize("page", ["referee.html", "viewer.html"])
def test_every_word_of_the_page_is_marked_for_the_catalogs(page):
    """Each text and shown attribute of the page has its data-msgid (data-msgid-ATTR), so
    `sync` carries it into the catalogs and the page says it in its reader's language."""
    parser = _PageText()
    parser.feed((WEB / page).read_text(encoding="utf-8"))
    assert parser.unmarked == []


def js_strings(source: str) -> Iterator[tuple[int, str]]:
    """The string literals of a script, with their line: comments skipped, escapes kept."""
    i, line, n = 0, 1, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            line += source.count("\n", i, end)
            i = end + 2
        elif c in "\"'`":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            yield line, source[i + 1 : j]
            line += source.count("\n", i, j)
            i = j + 1
        else:
            line += c == "\n"
            i += 1


def _unmarked_js(path: Path) -> list[str]:
    from babel.messages.extract import extract_javascript

    from tools.locale_catalogs import JS_KEYWORDS as keywords

    marked: set[str] = set()
    with path.open("rb") as f:
        for _, _, message, _ in extract_javascript(f, keywords, [], {}):
            marked.update(message if isinstance(message, tuple) else (message,))
    out = []
    for lineno, text in js_strings(path.read_text(encoding="utf-8")):
        if (
            PROSE.search(text)
            and text not in marked
            and text not in NOT_SHOWN
            and not re.match(r"^[#./\[]|.*[=\[]|^[a-z-]+( [a-z-]+)?$|^mjtable/", text)
        ):
            out.append(f"{path.name}:{lineno}: {text!r}")
    return out


@pytest.mark.parametrize("script", ["referee.js", "viewer.js"])
def test_every_phrase_the_page_writes_is_marked_for_the_catalogs(script):
    """A phrase the page's script writes goes through t()/tn()/N_() (controller/web)."""
    assert _unmarked_js(WEB / script) == []


def test_the_script_check_finds_an_unmarked_phrase(tmp_path):
    page = tmp_path / "page.js"
    page.write_text('el.textContent = "Waiting for the table";\nt("Deal over");\n')
    assert _unmarked_js(page) == ["page.js:1: 'Waiting for the table'"]


MARKING = ("N_", "says", "Said", "counted", "gettext", "ngettext", "_")
LOGGING = ("debug", "info", "warning", "error", "exception")  # the log's own words


def _unmarked_py(path: Path) -> list[str]:
    """Prose written in a module outside a marking call (N_, says, Said, gettext, _),
    docstrings and log lines left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in MARKING or name in LOGGING:
                for arg in node.args:
                    inside |= {id(n) for n in ast.walk(arg)}
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                inside.add(id(first.value))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):  # its pieces are read with it
            inside |= {id(v) for v in node.values}
    for node in ast.walk(tree):
        if id(node) in inside:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        else:
            continue
        if PROSE.search(text) and " " in text.strip():
            out.append(f"{path.name}:{node.lineno}: {text!r}")
    return sorted(set(out))


@pytest.mark.parametrize(
    "module",
    [
        "daemon/candidates.py",
        "daemon/referee_call.py",
        "daemon/boardless.py",  # a table with no board: its dice call and alerts
        "daemon/referee_desk.py",  # the answers to the referee page's actions
        "daemon/lineup.py",  # the hall's seating, said in an alert
        "daemon/recovery.py",  # what a restart found, said in an alert
        "referee/trial.py",  # why a correction is refused (the page and `mjtable correct`)
        "referee/text.py",  # `mjtable replay`'s screen
    ],
)
def test_every_sentence_of_the_referee_s_call_is_marked_for_the_catalogs(module):
    assert _unmarked_py(CONTROLLER / module) == []


# the calls that raise an alert, and which of their arguments is its message
DAEMON_ALERTS = {"_alert": 1, "call_referee": 1}
RECOGNISER_ALERTS = {"RefereeAlert": 2, "_alert": 2}  # controller/recognition
TEXT = (ast.Constant, ast.JoinedStr, ast.BinOp)  # a literal, an f-string, a join


def _alerts_unsaid(path: Path, calls: dict[str, int] = DAEMON_ALERTS) -> list[str]:
    """The alerts a module raises (`calls`) with a message written as text (a literal, an
    f-string, a join, or a name the function gave one of those) instead of a sentence
    (`Said`, `says`, `counted`, or a function that makes one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    texts: dict[ast.AST, set[str]] = {}  # each function: its names given text
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            texts[fn] = {
                t.id
                for node in ast.walk(fn)
                if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, TEXT)
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(t, ast.Name)
            }
    out = []
    for fn, named in [(None, set()), *texts.items()]:
        for node in ast.walk(tree if fn is None else fn):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in calls:
                continue
            at = calls[name]
            given = [k.value for k in node.keywords if k.arg in ("said", "message")]
            message = node.args[at] if len(node.args) > at else (given or [None])[0]
            if isinstance(message, TEXT) or (isinstance(message, ast.Name) and message.id in named):
                out.append(f"{path.name}:{node.lineno}: {ast.unparse(message)[:60]}")
    return sorted(set(out))


def test_every_alert_the_daemon_raises_is_a_sentence_said_in_the_reader_s_language():
    """An alert's message goes to the referee page and the terminal, which say it in their
    reader's language: a message written as English text could not be."""
    assert _alerts_unsaid(CONTROLLER / "daemon" / "runtime.py") == []


@pytest.mark.parametrize(
    "module", sorted(p.name for p in (CONTROLLER / "recognition").glob("*.py"))
)
def test_every_alert_the_recogniser_raises_is_made_as_a_sentence(module):
    """A recogniser's alert (`RefereeAlert`) is made as a sentence where it is raised
    (`says(msgid, ...)`, its parts from controller/recognition/alert_said.py), never as
    English text to be read back: its msgid is in the catalogs, so it is said in the
    reader's language."""
    path = CONTROLLER / "recognition" / module
    assert _alerts_unsaid(path, RECOGNISER_ALERTS) == []


def test_the_alert_check_finds_an_alert_written_as_text(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('self._alert(Kind.LID, f"lid {state}")\nself._alert(Kind.LID, said)\n')
    assert _alerts_unsaid(module) == ["m.py:1: f'lid {state}'"]


def test_the_alert_check_finds_a_recogniser_alert_written_as_text(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "def f(seat, note):\n"
        '    text = f"{seat} declared a kong"\n'
        "    said = says('{seat} declared a kong', seat=seat_said(seat))\n"
        "    a = RefereeAlert(Kind.FALSE_HU, seat, text)\n"
        "    b = RefereeAlert(Kind.FALSE_HU, seat, said)\n"
        '    c = RefereeAlert(Kind.FALSE_HU, seat, note + ": no deal", (note,))\n'
        "    return self._alert(Kind.AMBIGUOUS, None, said=text)\n"
    )
    assert _alerts_unsaid(module, RECOGNISER_ALERTS) == [
        "m.py:4: text",
        "m.py:6: note + ': no deal'",
        "m.py:7: text",
    ]


def test_the_module_check_finds_an_unmarked_sentence(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""Doc."""\nA = N_("Enter it")\nB = f"{who} drew {tile}: enter it"\n')
    assert _unmarked_py(module) == ["m.py:3: '{} drew {}: enter it'"]


def test_the_report_prints_no_heading_or_label_unsaid():
    """The deal report's headings, table heads and labels go through the reader's
    Translator: none is written as a literal in the HTML (controller/referee/report.py)."""
    source = (CONTROLLER / "referee" / "report.py").read_text(encoding="utf-8")
    literal = re.findall(r"<(?:th|h[123]|p|b|td)(?: [^>]*)?>[A-Za-z][^<{]*", source)
    assert literal == []
