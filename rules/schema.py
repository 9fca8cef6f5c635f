"""Typed, range-checked construction of frozen dataclasses from parsed TOML tables.

Used for rule sets (`rules/rulesets/*.toml`) and hardware profiles (`hw_profiles/`): every
key must be a field, every value must have the field's type and lie in its range, and an
error names the file, the section and the key.

A field's range or length is given in its metadata: `field(metadata={"range": (0, 60)})`,
`{"length": 4}`. Supported field types: bool, int, float, str, Enum subclasses (by value),
`tuple[X, ...]`, `dict[str, X]`, nested frozen dataclasses, and `X | None`.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from enum import Enum
from typing import Any, TypeVar

from rules.errors import RulesError

T = TypeVar("T")


class SchemaError(RulesError, ValueError):
    """A data file does not fit its schema; says where."""

    def __init__(self, source: str, section: str, key: str | None, message: str) -> None:
        self.source = source
        self.section = section
        self.key = key
        where = f"[{section}]" if section else "top level"
        if key is not None:
            where += f" key '{key}'"
        super().__init__(f"{source}: {where}: {message}")


def build(cls: type[T], table: Any, source: str, section: str = "") -> T:
    """Make a `cls` (a dataclass) from `table`, rejecting unknown keys and bad values."""
    if not isinstance(table, dict):
        raise SchemaError(source, section, None, f"expected a table, got {type(table).__name__}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]  # T is any dataclass: a bound mypy cannot name
    toml_names = {name.replace("_", "-"): name for name in fields} | {n: n for n in fields}
    unknown = [k for k in table if k not in toml_names]
    if unknown:
        known = ", ".join(sorted(n.replace("_", "-") for n in fields))
        raise SchemaError(source, section, unknown[0], f"unknown key (known: {known})")
    values: dict[str, Any] = {}
    for key, raw in table.items():
        name = toml_names[key]
        sub = f"{section}.{key}" if section else key
        values[name] = _convert(hints[name], fields[name], raw, source, section, key, sub)
    missing = [
        n
        for n, f in fields.items()
        if n not in values
        and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise SchemaError(source, section, missing[0].replace("_", "-"), "missing required key")
    try:
        return cls(**values)
    except (ValueError, TypeError) as err:
        raise SchemaError(source, section, None, str(err)) from None


def _convert(
    hint: Any,
    fld: dataclasses.Field[Any] | None,
    raw: Any,
    source: str,
    section: str,
    key: str,
    subsection: str,
) -> Any:
    def fail(message: str) -> typing.NoReturn:
        raise SchemaError(source, section, key, message)

    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if raw is None:
            return None
        return _convert(inner[0], fld, raw, source, section, key, subsection)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return build(hint, raw, source, subsection)
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(raw)
        except ValueError:
            choices = ", ".join(repr(m.value) for m in hint)
            fail(f"{raw!r} is not one of {choices}")
    if origin is tuple:
        if not isinstance(raw, list):
            fail(f"expected a list, got {type(raw).__name__}")
        length = fld.metadata.get("length") if fld is not None else None
        if length is not None and len(raw) != length:
            fail(f"expected {length} values, got {len(raw)}")
        elem = args[0]
        items = []
        for i, item in enumerate(raw):
            items.append(_convert(elem, None, item, source, section, f"{key}[{i}]", subsection))
            _check_range(fld, items[-1], fail)
        return tuple(items)
    if origin in (dict, collections.abc.Mapping):
        if not isinstance(raw, dict):
            fail(f"expected a table, got {type(raw).__name__}")
        val_hint = args[1]
        out = {}
        for k, v in raw.items():
            out[k] = _convert(val_hint, None, v, source, subsection, k, f"{subsection}.{k}")
            _check_range(fld, out[k], fail)
        return types.MappingProxyType(out)
    if hint is bool:
        if not isinstance(raw, bool):
            fail(f"expected true or false, got {raw!r}")
        return raw
    if hint is int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            fail(f"expected a whole number, got {raw!r}")
    elif hint is float:
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            fail(f"expected a number, got {raw!r}")
        raw = float(raw)
    elif hint is str:
        if not isinstance(raw, str):
            fail(f"expected a string, got {raw!r}")
    else:
        fail(f"unsupported field type {hint!r}")
    _check_range(fld, raw, fail)
    return raw


def _check_range(fld: dataclasses.Field[Any] | None, value: Any, fail: Any) -> None:
    if fld is None or isinstance(value, tuple):
        return
    bounds = fld.metadata.get("range")
    if bounds is not None and isinstance(value, int | float):
        lo, hi = bounds
        if not lo <= value <= hi:
            fail(f"{value!r} is out of range {lo}..{hi}")
