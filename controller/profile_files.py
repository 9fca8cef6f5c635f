"""Where hardware profiles come from: a shipped name (`hw_profiles/{tables,readers,tags}/`)
or a path ending in `.toml`, read as TOML with errors that name the file."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from rules.schema import SchemaError


def read_profile(kind: str, name: str) -> tuple[dict[str, Any], str]:
    if name.endswith(".toml"):
        path = Path(name)
        text, source = path.read_text(encoding="utf-8"), str(path)
    else:
        res = resources.files("hw_profiles") / kind / f"{name}.toml"
        if not res.is_file():
            raise SchemaError(f"hw_profiles/{kind}/{name}.toml", "", None, "no such profile")
        text, source = res.read_text(encoding="utf-8"), f"hw_profiles/{kind}/{name}.toml"
    try:
        return tomllib.loads(text), source
    except tomllib.TOMLDecodeError as err:
        raise SchemaError(source, "", None, f"not valid TOML: {err}") from None


def available(kind: str) -> tuple[str, ...]:
    """Shipped profile names of one kind: "tables", "readers" or "tags"."""
    folder = resources.files("hw_profiles") / kind
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))
