"""The languages people read the table in — Simplified Chinese, Russian, English — and their
catalogs: which language a code or a browser asks for, and a `Translator` that says a message
in it. English is the source language (the msgids); the others are gettext catalogs,
controller/locale/<lang>/LC_MESSAGES/mjtable.po, compiled to .mo when the package is built
(setup.py) and read from the .po with Babel when no .mo is beside it (an editable install, a
checkout). A language is a value passed to where words are made: nothing here holds a
current language."""

from __future__ import annotations

import functools
import logging
import re
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
DOMAIN = "mjtable"


class Language(Enum):
    """A language of the table's words, by its gettext catalog name."""

    EN = "en"
    ZH_CN = "zh_CN"
    RU = "ru"

    @property
    def tag(self) -> str:
        """The BCP 47 tag of HTML's `lang` and of Accept-Language: "zh-CN"."""
        return self.value.replace("_", "-")


# CLDR's plural categories as gettext numbers them (the .po Plural-Forms say the same; the
# board's JS keeps the same three rules, controller/web/board.js `pluralIndex`)
def _plural_en(n: int) -> int:
    return 0 if n == 1 else 1


def _plural_zh(n: int) -> int:
    return 0


def _plural_ru(n: int) -> int:
    if n % 10 == 1 and n % 100 != 11:
        return 0
    return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


PLURALS: Mapping[Language, Callable[[int], int]] = {
    Language.EN: _plural_en,
    Language.ZH_CN: _plural_zh,
    Language.RU: _plural_ru,
}


def _by_tag(tag: str) -> Language | None:
    """ "zh-CN", "zh_cn", "zh-Hans-CN", "zh" → ZH_CN; "ru-RU" → RU; "en-GB" → EN."""
    parts = re.split(r"[-_]", tag.strip().lower())
    if not parts or not parts[0]:
        return None
    if parts[0] == "zh":
        # Simplified is the only Chinese here: a Traditional tag (zh-TW, zh-Hant) is not it
        return None if {"tw", "hk", "mo", "hant"} & set(parts[1:]) else Language.ZH_CN
    return next((lang for lang in Language if lang.value.lower() == parts[0]), None)


def language(code: str | None) -> Language:
    """The language an operator named (`[table] language`, `mjtable run --lang`); an unknown
    code is English, said in one log line."""
    if not code:
        return Language.EN
    found = _by_tag(code)
    if found is None:
        log.warning(
            "unknown language %r: using English (known: %s)",
            code,
            ", ".join(lang.tag for lang in Language),
        )
        return Language.EN
    return found


def negotiate(accept_language: str | None) -> Language:
    """The language a browser asks for (an Accept-Language header, or navigator.languages
    joined with commas): the first of its choices, by weight, that the table speaks;
    English when none is."""
    choices: list[tuple[float, int, str]] = []
    for i, item in enumerate((accept_language or "").split(",")):
        tag, _, params = item.partition(";")
        weight = 1.0
        m = re.search(r"q=([0-9.]+)", params)
        if m:
            try:
                weight = float(m.group(1))
            except ValueError:
                weight = 0.0
        if tag.strip() and weight > 0:
            choices.append((-weight, i, tag.strip()))
    for _, _, tag in sorted(choices):
        found = _by_tag(tag)
        if found is not None:
            return found
    return Language.EN


@dataclass(frozen=True, slots=True)
class Translator:
    """One language's catalog: msgid → its forms (one, or one per plural category). A message
    the catalog lacks is said in English; `fault` says why a catalog did not load."""

    language: Language
    messages: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    fault: str | None = None

    def gettext(self, message: str) -> str:
        forms = self.messages.get(message)
        return forms[0] if forms and forms[0] else message

    def ngettext(self, one: str, many: str, n: int) -> str:
        """The form for `n` ("{n} point" / "{n} points"); the caller formats the number in."""
        forms = self.messages.get(one)
        if forms:
            i = PLURALS[self.language](n)
            if i < len(forms) and forms[i]:
                return forms[i]
        return one if n == 1 else many

    def to_json(self) -> dict[str, Any]:
        """The catalog the pages' JS reads (GET /words/<lang>.json): msgid → forms."""
        return {
            "language": self.language.tag,
            "messages": {k: list(v) for k, v in sorted(self.messages.items())},
            "fault": self.fault,
        }


ENGLISH = Translator(Language.EN)


@dataclass(frozen=True, slots=True)
class Said:
    """A sentence made in one place and said where it is shown, in its reader's language (a
    page picks its own: the daemon sends the sentence, not its words). `msgid`: the English
    with `{placeholders}`; `args`: what fills them, as it is (a number, a player's name) or
    a sentence of its own (a seat, a tile); `english`: what an English reader reads instead
    of the msgid (a tile's code, "3m", where other languages say 三万); `plural` and `n`: a
    count's sentence ("{n} move" / "{n} moves"), its form chosen by `n` (`counted`)."""

    msgid: str
    args: tuple[tuple[str, str | Said], ...] = ()
    english: str | None = None
    plural: str | None = None
    n: int = 0

    def say(self, tr: Translator = ENGLISH) -> str:
        if self.english is not None and tr.language is Language.EN:
            return self.english
        if self.plural is not None:
            text = tr.ngettext(self.msgid, self.plural, self.n)
            fill = {"n": str(self.n)} | {
                k: v.say(tr) if isinstance(v, Said) else v for k, v in self.args
            }
            return text.format_map(fill)
        text = tr.gettext(self.msgid)
        if not self.args:
            return text
        return text.format_map({k: v.say(tr) if isinstance(v, Said) else v for k, v in self.args})

    def __str__(self) -> str:
        return self.say()

    def to_json(self) -> dict[str, Any]:
        """What a page's JS says with `MJ.say` (controller/web/board.js)."""
        out: dict[str, Any] = {"msgid": self.msgid}
        if self.args:
            out["args"] = {k: v.to_json() if isinstance(v, Said) else v for k, v in self.args}
        if self.english is not None:
            out["en"] = self.english
        if self.plural is not None:
            out["plural"], out["n"] = self.plural, self.n
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Said:
        """The sentence `to_json` wrote (a journal record keeps one: an alert's `words`)."""
        args = data.get("args") or {}
        return cls(
            str(data["msgid"]),
            tuple(
                (str(k), cls.from_json(v) if isinstance(v, Mapping) else str(v))
                for k, v in args.items()
            ),
            None if data.get("en") is None else str(data["en"]),
            None if data.get("plural") is None else str(data["plural"]),
            int(data.get("n") or 0),
        )


def says(msgid: str, **args: str | int | Said) -> Said:
    """`Said(msgid, args)`, the args by name: `says("{who} drew {tile}", who=..., tile=...)`."""
    return Said(msgid, tuple((k, v if isinstance(v, Said) else str(v)) for k, v in args.items()))


def counted(n: int, one: str, many: str, **args: str | int | Said) -> Said:
    """A count's sentence: `counted(3, "{n} move", "{n} moves")` says "3 moves", 3 хода."""
    return replace(says(one, **args), plural=many, n=n)


def said(text: str | Said) -> Said:
    """A sentence as a `Said`: a plain string is its own msgid (said in another language when
    a catalog has it, else as it is)."""
    return text if isinstance(text, Said) else Said(text)


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined (a table of words), to be said
    through a `Translator` where it is shown."""
    return message


def catalog_dir(lang: Language) -> Path:
    return HERE / lang.value / "LC_MESSAGES"


@functools.cache
def translator(lang: Language) -> Translator:
    """The catalog of `lang`, read once (`load`)."""
    return load(lang)


def load(lang: Language, root: Path = HERE) -> Translator:
    """The catalog of `lang` under `root`; English when it fails to load (one log line, and
    the Translator's `fault` says why)."""
    if lang is Language.EN:
        return ENGLISH
    folder = root / lang.value / "LC_MESSAGES"
    try:
        mo = folder / f"{DOMAIN}.mo"
        po = folder / f"{DOMAIN}.po"
        # an installed package holds the .mo its build compiled; a checkout only the .po
        messages = read_mo(mo.read_bytes()) if mo.is_file() else read_po(po)
    except (OSError, ValueError, UnicodeDecodeError, ImportError) as err:
        fault = f"the {lang.tag} catalog did not load ({err}): English instead"
        log.error("%s", fault)
        return Translator(Language.EN, fault=fault)
    return Translator(lang, messages)


def read_mo(data: bytes) -> dict[str, tuple[str, ...]]:
    """A compiled catalog (GNU .mo) as msgid → forms. The layout, little- or big-endian:

        0   magic 0x950412de     12  offset O of the msgid table
        4   revision             16  offset T of the msgstr table
        8   N, the entries       O + 8i: length, offset of msgid i (T + 8i: of msgstr i)

    A plural msgid is "one\\0many", its msgstr the forms joined by NUL; the header (msgid "")
    is left out."""
    if len(data) < 20:
        raise ValueError("not a .mo catalog: too short")
    for order in ("<", ">"):
        if struct.unpack(order + "I", data[:4])[0] == 0x950412DE:
            break
    else:
        raise ValueError("not a .mo catalog: bad magic number")
    n, o, t = struct.unpack(order + "3I", data[8:20])
    out: dict[str, tuple[str, ...]] = {}
    for i in range(n):
        ilen, ioff = struct.unpack(order + "2I", data[o + 8 * i : o + 8 * i + 8])
        slen, soff = struct.unpack(order + "2I", data[t + 8 * i : t + 8 * i + 8])
        msgid = data[ioff : ioff + ilen].decode("utf-8")
        if not msgid:
            continue
        out[msgid.split("\0")[0]] = tuple(data[soff : soff + slen].decode("utf-8").split("\0"))
    return out


def read_po(path: Path) -> dict[str, tuple[str, ...]]:
    """A catalog's source (.po) as msgid → forms, read with Babel (a checkout's dependency,
    imported here: an installed table reads the .mo); an untranslated or fuzzy
    entry is left out (said in English)."""
    from babel.messages.pofile import read_po as babel_read_po

    with path.open("rb") as f:
        catalog = babel_read_po(f)
    out: dict[str, tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        forms = tuple(form or "" for form in strings)
        if any(forms):
            out[msgid] = forms
    return out
