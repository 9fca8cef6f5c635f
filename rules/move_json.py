"""Moves as JSON (docs/DEAL-RECORD.md "Moves"): `move_to_json` / `move_from_json`, the typed
field reader the deal record shares (`Fields`), and `RecordError`, which names where a record
is wrong. The deal record itself is `rules/record.py`."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import RulesError
from rules.melds import MeldKind
from rules.moves import (
    ChooseVoid,
    Chow,
    CloseClaims,
    Correction,
    Discard,
    Draw,
    EndDeal,
    Hu,
    Kong,
    Move,
    Pass,
    Penalty,
    Pung,
    Reason,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
)
from rules.seats import SEATS, Seat
from rules.tiles import TILES, NotationError, Suit, Tile


class RecordError(RulesError, ValueError):
    """A record the judge cannot replay. `field` is the JSON path of the problem
    (`dice`, `moves[12].tile`); for a move the judge refuses, `index` is its 0-based index,
    `move` its JSON object and `reason` the judge's `Reason`."""

    def __init__(
        self,
        field: str,
        message: str,
        *,
        index: int | None = None,
        move: Mapping[str, Any] | None = None,
        reason: Reason | None = None,
    ) -> None:
        self.field = field
        self.message = message
        self.index = index
        self.move = move
        self.reason = reason
        if reason is not None and index is not None:
            text = (
                f"move {index + 1} ({field}) {json.dumps(move)} is refused: "
                f"{reason.value}: {message}"
            )
        else:
            text = f"{field}: {message}" if field else message
        super().__init__(text)


# -- moves <-> JSON ---------------------------------------------------------------------

# the "move" word of each move class (docs/DEAL-RECORD.md "Moves")
MOVE_NAMES: dict[type, str] = {
    ChooseVoid: "void",
    Draw: "draw",
    ReplacementDraw: "replacement",
    Discard: "discard",
    Pung: "pung",
    Kong: "kong",
    Chow: "chow",
    Hu: "hu",
    SelfDrawnHu: "self-drawn-hu",
    RobKong: "rob-kong",
    Pass: "pass",
    CloseClaims: "close-claims",
    Penalty: "penalty",
    Correction: "correction",
    EndDeal: "end-deal",
}
_CLASSES: dict[str, Any] = {name: cls for cls, name in MOVE_NAMES.items()}
_TAKES_TILE = frozenset(("draw", "replacement", "discard", "chow"))  # moves naming a tile


def move_to_json(move: Move) -> dict[str, Any]:
    """`{"t": 12.5, "seat": "S", "move": "discard", "tile": "5p"}`; absent values are left
    out (no time, no tile named on a draw, the indicator card)."""
    out: dict[str, Any] = {} if move.t is None else {"t": move.t}
    cls = type(move)
    # the moves of every turn first (the same keys in the same order as below)
    if cls in _SEAT_TILE:
        out["seat"] = _SEAT_NAMES[move.seat]  # type: ignore[union-attr]  # type(move) in _SEAT_TILE
        out["move"] = MOVE_NAMES[cls]
        if move.tile is not None:  # type: ignore[union-attr]  # type(move) in _SEAT_TILE
            out["tile"] = _TILE_NAMES[move.tile]  # type: ignore[union-attr]  # type(move) in _SEAT_TILE
        return out
    if cls is CloseClaims:
        out["move"] = MOVE_NAMES[cls]
        return out
    seat = getattr(move, "seat", None)
    if seat is not None:
        out["seat"] = _SEAT_NAMES[seat]
    out["move"] = MOVE_NAMES[cls]
    if cls is ChooseVoid:
        out["suit"] = move.suit.value  # type: ignore[union-attr]  # cls is type(move)
    elif cls is Kong:
        out["kind"] = move.kind.value  # type: ignore[union-attr]  # cls is type(move)
    tile = getattr(move, "tile", None)
    if tile is not None:
        out["tile"] = _TILE_NAMES[tile]
    if isinstance(move, Penalty):
        out["points"] = move.points
        out["reason"] = move.reason
        out["to"] = None if move.to is None else str(move.to)
    elif isinstance(move, Correction):
        out["undo"] = move.undo
    if isinstance(move, (Correction, EndDeal)) and move.note:
        out["note"] = move.note
    return out


_SEAT_TILE = frozenset((Draw, ReplacementDraw, Discard))
_SEAT_NAMES = tuple(s.name for s in SEATS)
_TILE_NAMES = tuple(str(t) for t in TILES)


# the keys each move may carry besides "t" and "move"; True: required
_KEYS: dict[str, dict[str, bool]] = {
    "void": {"seat": True, "suit": True, "tile": False},
    "draw": {"seat": True, "tile": False},
    "replacement": {"seat": True, "tile": False},
    "discard": {"seat": True, "tile": True},
    "pung": {"seat": True},
    "kong": {"seat": True, "kind": True, "tile": False},
    "chow": {"seat": True, "tile": True},
    "hu": {"seat": True},
    "self-drawn-hu": {"seat": True},
    "rob-kong": {"seat": True},
    "pass": {"seat": True},
    "close-claims": {},
    "penalty": {"seat": True, "points": True, "reason": True, "to": False},
    "correction": {"undo": False, "note": False},
    "end-deal": {"note": False},
}


class Fields:
    """Typed reads from one JSON object, each error naming `where.key`."""

    def __init__(self, obj: object, where: str) -> None:
        if not isinstance(obj, Mapping):
            raise RecordError(where, f"expected a JSON object, got {json.dumps(obj)}")
        self.obj = obj
        self.where = where

    def at(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def check_keys(self, allowed: Sequence[str], required: Sequence[str]) -> None:
        for key in self.obj:
            if key not in allowed:
                raise RecordError(self.at(str(key)), f"unknown key (allowed: {', '.join(allowed)})")
        for key in required:
            if self.obj.get(key) is None:
                raise RecordError(self.at(key), "missing")

    def text(self, key: str, default: str = "") -> str:
        v = self.obj.get(key, default)
        if v is None:
            return default
        if not isinstance(v, str):
            raise RecordError(self.at(key), f"expected a string, got {json.dumps(v)}")
        return v

    def integer(self, key: str, default: int | None = None) -> int:
        v = self.obj.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool):
            raise RecordError(self.at(key), f"expected a whole number, got {json.dumps(v)}")
        return v

    def time(self) -> float | None:
        v = self.obj.get("t")
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise RecordError(self.at("t"), f"expected a time in seconds, got {json.dumps(v)}")
        return v

    def seat(self, key: str = "seat") -> Seat | None:
        v = self.obj.get(key)
        if v is None:
            return None
        if not isinstance(v, str) or v not in Seat.__members__:
            raise RecordError(self.at(key), f"a seat is one of E S W N, not {json.dumps(v)}")
        return Seat[v]

    def tile(self, key: str = "tile") -> Tile | None:
        v = self.obj.get(key)
        if v is None:
            return None
        if not isinstance(v, str):
            raise RecordError(self.at(key), f'a tile is written like "5p", not {json.dumps(v)}')
        try:
            return Tile.parse(v)
        except NotationError as err:
            raise RecordError(self.at(key), err.message) from None

    def suit(self) -> Suit:
        v = self.text("suit")
        try:
            return Suit.parse(v)
        except NotationError as err:
            raise RecordError(self.at("suit"), err.message) from None


TILE_OF = {str(t): t for t in TILES}
_KIND_OF = {k.value: k for k in MeldKind if k.is_kong}


def move_from_json(obj: object, where: str = "move") -> Move:
    """A move from its JSON object; RecordError names the field that is wrong."""
    f = Fields(obj, where)
    name = f.obj.get("move")
    if name not in _KEYS:
        names = ", ".join(_KEYS)
        raise RecordError(f.at("move"), f"unknown move {json.dumps(name)} (one of {names})")
    keys = _KEYS[name]
    f.check_keys(("t", "move", *keys), [k for k, req in keys.items() if req])
    t = f.time()
    cls = _CLASSES[name]
    if name == "close-claims":
        return CloseClaims(t=t)
    if name == "correction":
        undo = f.integer("undo", 1)
        return Correction(undo, f.text("note"), t=t)
    if name == "end-deal":
        return EndDeal(f.text("note", EndDeal().note), t=t)
    seat = f.seat()
    assert seat is not None  # required above
    if name == "void":
        return ChooseVoid(seat, f.suit(), f.tile(), t=t)
    if name == "kong":
        kind = _KIND_OF.get(f.text("kind"))
        if kind is None:
            kinds = ", ".join(_KIND_OF)
            raise RecordError(f.at("kind"), f"a kong kind is one of {kinds}")
        return Kong(seat, kind, f.tile(), t=t)
    if name == "penalty":
        return Penalty(seat, f.integer("points"), f.text("reason"), f.seat("to"), t=t)
    made: Move = cls(seat, f.tile(), t=t) if name in _TAKES_TILE else cls(seat, t=t)
    return made
