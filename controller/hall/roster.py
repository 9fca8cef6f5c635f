"""The tournament's players: a roster file giving each player a stable id and a name.

The roster is a CSV file with a header line; `id` and `name` are required, `club` is
optional (shown beside the name in exports)::

    id,name,club
    CN-0012,Wang Wei,Chengdu
    RU-0301,Anna Petrova,Moscow

An id is what the hall keys a player by (standings, seating, exports): two players may share
a name, never an id. An id is one MQTT topic level and one CSV field, so it holds no
whitespace, comma, `/`, `+` or `#`. Blank lines and lines starting with `#` are skipped. A
file that breaks any of this is refused whole, naming the line (`RosterError`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from controller.errors import TableError

COLUMNS = ("id", "name", "club")
REQUIRED = ("id", "name")
_ID_FORBIDDEN = set(" \t,/+#\"'\0")


class RosterError(TableError, ValueError):
    """A roster or seating file that cannot be taken; the message names file and line."""


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    club: str = ""


@dataclass(frozen=True, slots=True)
class Roster:
    players: tuple[Player, ...]
    _by_id: dict[str, Player] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id = {p.id: p for p in self.players}
        if len(by_id) != len(self.players):
            raise RosterError("a player id appears twice")
        object.__setattr__(self, "_by_id", by_id)

    def __iter__(self) -> Iterator[Player]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    def get(self, player_id: str) -> Player | None:
        return self._by_id.get(player_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.players)

    def names(self) -> dict[str, str]:
        return {p.id: p.name for p in self.players}


def check_id(text: str) -> str | None:
    """Why `text` cannot be a player id, or None when it can."""
    if not text:
        return "an empty id"
    bad = sorted(set(text) & _ID_FORBIDDEN)
    if bad:
        return f"id {text!r} holds {' '.join(repr(c) for c in bad)}"
    return None


def data_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of a CSV file's lines that are not blank or `#` comments."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, line


def parse_csv(
    text: str, source: str, columns: tuple[str, ...], required: tuple[str, ...]
) -> Iterator[tuple[int, dict[str, str]]]:
    """Rows of a headed CSV as (line number, {column: stripped value}); the header must name
    every required column and no unknown one."""
    lines = list(data_lines(text))
    if not lines:
        raise RosterError(f"{source}: empty (a header line {','.join(columns)} first)")
    header_no, header_line = lines[0]
    header = [h.strip().lower() for h in next(csv.reader([header_line]))]
    unknown = [h for h in header if h not in columns]
    if unknown:
        raise RosterError(
            f"{source}:{header_no}: unknown column {unknown[0]!r} (columns: {', '.join(columns)})"
        )
    missing = [c for c in required if c not in header]
    if missing:
        raise RosterError(f"{source}:{header_no}: no {missing[0]!r} column in the header")
    if len(set(header)) != len(header):
        raise RosterError(f"{source}:{header_no}: a column is named twice")
    for number, line in lines[1:]:
        fields = next(csv.reader(io.StringIO(line)))
        if len(fields) != len(header):
            raise RosterError(
                f"{source}:{number}: {len(fields)} fields where the header has {len(header)}"
            )
        yield number, {h: f.strip() for h, f in zip(header, fields, strict=True)}


def parse_roster(text: str, source: str = "roster") -> Roster:
    players: list[Player] = []
    seen: dict[str, int] = {}
    for number, row in parse_csv(text, source, COLUMNS, REQUIRED):
        why = check_id(row["id"])
        if why:
            raise RosterError(f"{source}:{number}: {why}")
        if not row["name"]:
            raise RosterError(f"{source}:{number}: player {row['id']} has no name")
        if row["id"] in seen:
            raise RosterError(
                f"{source}:{number}: id {row['id']!r} already given on line {seen[row['id']]}"
            )
        seen[row["id"]] = number
        players.append(Player(row["id"], row["name"], row.get("club", "")))
    if not players:
        raise RosterError(f"{source}: no players")
    return Roster(tuple(players))


def read_roster(path: Path) -> Roster:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise RosterError(f"{path}: cannot read: {err}") from None
    return parse_roster(text, str(path))
