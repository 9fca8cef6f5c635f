"""Text in a terminal's columns: a wide character (Chinese, fullwidth forms; Unicode's East
Asian Width W and F) takes two columns, a combining mark none, so padding and cutting go by
columns, not by characters (a table padded by `str.rjust` leans wherever a Chinese name is)."""

from __future__ import annotations

import unicodedata


def char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(text: str) -> int:
    """The columns `text` takes on a terminal."""
    return sum(char_width(ch) for ch in text)


def cut(text: str, columns: int) -> str:
    """The longest start of `text` that fits in `columns` (a wide character is not split)."""
    used = 0
    for i, ch in enumerate(text):
        used += char_width(ch)
        if used > columns:
            return text[:i]
    return text


def rjust(text: str, columns: int) -> str:
    return " " * max(columns - width(text), 0) + text


def ljust(text: str, columns: int) -> str:
    return text + " " * max(columns - width(text), 0)
