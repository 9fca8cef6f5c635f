"""argparse value types shared by the sub-commands: numbers refused at parse time with a
message naming the rule (`--speed 0` is a usage error, not a division by zero later)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def _number(text: str, kind: type[int] | type[float]) -> int | float:
    try:
        value = kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def _checked(kind: type[int] | type[float], ok: Callable[[float], bool], rule: str):
    """An argparse type: a number of `kind` for which `ok` holds, else "`rule`, not TEXT"."""

    def parse(text: str) -> int | float:
        value = _number(text, kind)
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{rule}, not {text}")
        return value

    parse.__name__ = rule
    return parse


positive_int = _checked(int, lambda v: v >= 1, "must be at least 1")
natural_int = _checked(int, lambda v: v >= 0, "must be 0 or more")
positive_float = _checked(float, lambda v: v > 0, "must be more than 0")
natural_float = _checked(float, lambda v: v >= 0, "must be 0 or more")


def rules_help(default: str | None = "sbr-mil", what: str = "rule set") -> str:
    """`--rules` help naming every rule set shipped (rules/rulesets/*.toml)."""
    from rules.ruleset import available

    names = ", ".join(f"{n} (default)" if n == default else n for n in available())
    return f"{what}: one of {names}"
