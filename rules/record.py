"""The deal record: one deal as JSON a referee can read and write by hand, and its re-judging.

    record = to_record(deal, players=("Ann", "Bo", None, None))
    text = dumps(record)                     # JSON text (docs/DEAL-RECORD.md)
    again = judge(loads(text))               # a fresh Deal, replayed move by move
    assert again.ledger() == deal.ledger()

The format is documented in docs/DEAL-RECORD.md (format "mjtable-deal", version 1): rule
set, players, dealer, dice, the wall in the physical order of `rules.wall`, every move with
its time, and optionally the result the recorder saw (deltas, end, next dealer), which
`check_result` compares with a re-judging.

Errors are `RecordError` values naming where the record is wrong: the malformed field
(`moves[12].tile`), or the move the judge refuses (its number, its JSON, the judge's
`Reason` and detail).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.deal import Deal
from rules.melds import MeldKind
from rules.moves import (
    ChooseVoid,
    Chow,
    CloseClaims,
    Correction,
    DealEnd,
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
    new_close_claims,
    new_discard,
    new_draw,
)
from rules.ruleset import RuleSet, UnknownRuleSet, load
from rules.schema import SchemaError
from rules.seats import SEATS, Seat
from rules.settlement import next_dealer as pay_next_dealer
from rules.tiles import TILES, NotationError, Suit, Tile, parse_tiles
from rules.wall import Dice, WallError, dealt_order

FORMAT = "mjtable-deal"
VERSION = 1


class RecordError(ValueError):
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


@dataclass(frozen=True, slots=True)
class RecordedResult:
    """What the recorder saw at the end of the deal (for audits; not needed to replay)."""

    deltas: tuple[int, ...]
    end: DealEnd | None
    next_dealer: Seat | None


@dataclass(frozen=True, slots=True)
class DealRecord:
    rules: str  # a shipped rule set name (rules/rulesets/) or a path to a TOML file
    dice: Dice
    wall: tuple[Tile | None, ...]  # physical order, see rules.wall; None: not known
    moves: tuple[Move, ...]  # every accepted move, referee moves and corrections included
    players: tuple[str | None, ...] = (None, None, None, None)  # E S W N
    result: RecordedResult | None = None
    note: str = ""
    # the prevalent (round) wind, for rule sets that score winds (001 II 3); None: not
    # recorded (a Sichuan deal), read as East
    prevalent: Seat | None = None


# -- the deal -> record ------------------------------------------------------------------


def next_dealer(deal: Deal) -> Seat:
    """RULES.md "Next dealer": nobody won → the same dealer (East of this deal); the first
    Hu by one player → that player; the first Hu by several players on one discard → the
    discarder, or as the rule set's `dealer.multiple-hu` says (Wellness, 001 IV 1.2: the
    dealer if among them, else the nearest after the discarder). A false Hu does not count."""
    return pay_next_dealer(deal.rs, deal.winners)


def to_record(deal: Deal, players: Sequence[str | None] = (), note: str = "") -> DealRecord:
    """The record of a deal so far (its whole history, corrections included)."""
    names = tuple(players) + (None,) * (4 - len(players))
    result = None
    if deal.over:
        result = RecordedResult(deal.deltas(), deal.end, next_dealer(deal))
    # the prevalent wind is written where it counts (a set with winds) or is not East
    counted = deal.rs.tiles.set.contains(Tile.EAST) or deal.prevalent is not Seat.E
    return DealRecord(
        deal.rs.name,
        deal.dice,
        deal.wall_order,
        tuple(deal.history),
        names[:4],
        result,
        note,
        deal.prevalent if counted else None,
    )


def ruleset_of(record: DealRecord) -> RuleSet:
    try:
        return load(record.rules)
    except (UnknownRuleSet, SchemaError, OSError) as err:
        raise RecordError("rules", str(err)) from None


def judge(record: DealRecord, rs: RuleSet | None = None) -> Deal:
    """Replay a record (under its own rule set, or `rs` to re-judge it under another);
    raises RecordError naming the first move the judge refuses."""
    rules = rs if rs is not None else ruleset_of(record)
    try:
        deal = Deal.start(rules, record.dice, record.wall, prevalent=record.prevalent or Seat.E)
    except (WallError, ValueError) as err:
        raise RecordError("wall", str(err)) from None
    play = deal.play
    for i, move in enumerate(record.moves):
        refused = play(move)
        if refused is not None:
            raise RecordError(
                f"moves[{i}]",
                refused.detail,
                index=i,
                move=move_to_json(move),
                reason=refused.reason,
            )
    return deal


def check_result(record: DealRecord, deal: Deal) -> str | None:
    """How a re-judged deal differs from the result written in the record (None: it
    agrees, or the record holds no result)."""
    want = record.result
    if want is None:
        return None
    problems = []
    if tuple(want.deltas) != deal.deltas():
        problems.append(f"deltas {list(deal.deltas())}, the record says {list(want.deltas)}")
    if want.end is not deal.end:
        got = deal.end.value if deal.end else "not over"
        problems.append(f"end {got}, the record says {want.end.value if want.end else None}")
    if want.next_dealer is not None and deal.over and want.next_dealer is not next_dealer(deal):
        problems.append(f"next dealer {next_dealer(deal)}, the record says {want.next_dealer}")
    return "; ".join(problems) or None


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
_CLASSES = {name: cls for cls, name in MOVE_NAMES.items()}


def move_to_json(move: Move) -> dict[str, Any]:
    """`{"t": 12.5, "seat": "S", "move": "discard", "tile": "5p"}`; absent values are left
    out (no time, no tile named on a draw, the indicator card)."""
    out: dict[str, Any] = {} if move.t is None else {"t": move.t}
    cls = type(move)
    # the moves of every turn first (the same keys in the same order as below)
    if cls in _SEAT_TILE:
        out["seat"] = _SEAT_NAMES[move.seat]  # type: ignore[union-attr]
        out["move"] = MOVE_NAMES[cls]
        if move.tile is not None:  # type: ignore[union-attr]
            out["tile"] = _TILE_NAMES[move.tile]  # type: ignore[union-attr]
        return out
    if cls is CloseClaims:
        out["move"] = MOVE_NAMES[cls]
        return out
    seat = getattr(move, "seat", None)
    if seat is not None:
        out["seat"] = _SEAT_NAMES[seat]
    out["move"] = MOVE_NAMES[cls]
    if cls is ChooseVoid:
        out["suit"] = move.suit.value  # type: ignore[union-attr]
    elif cls is Kong:
        out["kind"] = move.kind.value  # type: ignore[union-attr]
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


class _Fields:
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


_TILE_OF = {str(t): t for t in TILES}
_SEAT_OF = {s.name: s for s in SEATS}
_KIND_OF = {k.value: k for k in MeldKind if k.is_kong}
_SEATED = {"pung": Pung, "hu": Hu, "self-drawn-hu": SelfDrawnHu, "rob-kong": RobKong, "pass": Pass}
_TAKES = {"draw": Draw, "replacement": ReplacementDraw, "discard": Discard, "chow": Chow}
_KEY_SETS = {name: frozenset(("t", "move", *keys)) for name, keys in _KEYS.items()}
_TILE_REQUIRED = (Discard, Chow)


def _quick(obj: object) -> Move | None:
    """The common moves of a well-formed record, read without the checks' bookkeeping;
    None sends anything else (or anything wrong) to the checking path."""
    if type(obj) is not dict:
        return None
    name = obj.get("move")
    allowed = _KEY_SETS.get(name)  # type: ignore[arg-type]
    if allowed is None or not obj.keys() <= allowed:
        return None
    t = obj.get("t")
    if t is not None and (type(t) not in (float, int) or not math.isfinite(t)):
        return None
    seat = _SEAT_OF.get(obj.get("seat"))  # type: ignore[arg-type]
    # the moves of every turn (a close, a draw, a discard) by their quick constructors
    if name == "close-claims":
        return new_close_claims(t)
    if seat is None:
        return None
    cls = _SEATED.get(name)  # type: ignore[arg-type]
    if cls is not None:
        return cls(seat, t=t)
    tile = obj.get("tile")
    tile_v = _TILE_OF.get(tile) if tile is not None else None  # type: ignore[arg-type]
    if tile is not None and tile_v is None:
        return None
    if name == "draw":
        return new_draw(seat, tile_v, t)
    if name == "discard":
        return None if tile_v is None else new_discard(seat, tile_v, t)
    cls = _TAKES.get(name)  # type: ignore[arg-type]
    if cls is not None:
        return None if cls in _TILE_REQUIRED and tile_v is None else cls(seat, tile_v, t=t)
    if name == "kong":
        kind = _KIND_OF.get(obj.get("kind"))  # type: ignore[arg-type]
        return None if kind is None else Kong(seat, kind, tile_v, t=t)
    return None


def move_from_json(obj: object, where: str = "move") -> Move:
    """A move from its JSON object; RecordError names the field that is wrong."""
    move = _quick(obj)
    if move is not None:
        return move
    f = _Fields(obj, where)
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
    if name in ("draw", "replacement", "discard", "chow"):
        return cls(seat, f.tile(), t=t)
    return cls(seat, t=t)


# -- record <-> JSON --------------------------------------------------------------------

_TOP_KEYS = ("format", "version", "rules", "players", "dealer", "dice", "wall", "moves")
_OPTIONAL_KEYS = ("result", "note", "hands", "prevalent")
_REQUIRED = ("format", "version", "rules", "dice", "moves")


def record_to_json(record: DealRecord) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": record.rules,
        "players": {str(s): name for s, name in zip(SEATS, record.players, strict=True)},
        "dealer": "E",
        **({} if record.prevalent is None else {"prevalent": record.prevalent.name}),
        "dice": [record.dice.a, record.dice.b],
        "wall": [None if t is None else str(t) for t in record.wall],
        "moves": [move_to_json(m) for m in record.moves],
    }
    if record.note:
        out["note"] = record.note
    if record.result is not None:
        r = record.result
        out["result"] = {
            "deltas": list(r.deltas),
            "end": r.end.value if r.end else None,
            "next_dealer": str(r.next_dealer) if r.next_dealer is not None else None,
        }
    return out


def from_record(obj: object) -> DealRecord:
    """A record from its parsed JSON; RecordError names the malformed field."""
    f = _Fields(obj, "")
    f.check_keys(_TOP_KEYS + _OPTIONAL_KEYS, _REQUIRED)
    if f.obj["format"] != FORMAT:
        raise RecordError("format", f"not a deal record (expected {json.dumps(FORMAT)})")
    if f.integer("version") != VERSION:
        raise RecordError("version", f"version {f.obj['version']} is not known (this is {VERSION})")
    if "dealer" in f.obj and f.obj["dealer"] is None:
        raise RecordError("dealer", 'null: the dealer is "E" (seats are those of the deal)')
    dealer = f.seat("dealer")
    if dealer not in (None, Seat.E):
        raise RecordError("dealer", "seats are those of the deal, so the dealer is E")
    dice = _dice(f.obj["dice"])
    return DealRecord(
        rules=f.text("rules"),
        dice=dice,
        wall=_wall_or_hands(f, dice),
        moves=_moves(f.obj["moves"]),
        players=_players(f.obj.get("players")),
        result=_result(f.obj.get("result")),
        note=f.text("note"),
        prevalent=f.seat("prevalent"),
    )


def _dice(v: object) -> Dice:
    ok = isinstance(v, list) and len(v) == 2
    if not ok or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise RecordError("dice", f"two dice, like [6, 4], not {json.dumps(v)}")
    try:
        return Dice(v[0], v[1])
    except ValueError as err:
        raise RecordError("dice", str(err)) from None


def _wall_or_hands(f: _Fields, dice: Dice) -> tuple[Tile | None, ...]:
    """The wall, or (a table whose wall is not scanned) the dealt hands placed where they
    were dealt from, every other position unknown (rules.wall.dealt_order)."""
    wall, hands = f.obj.get("wall"), f.obj.get("hands")
    if hands is None:
        if wall is None:
            raise RecordError("wall", 'missing (or the dealt hands as "hands")')
        return _wall(wall)
    if wall is not None:
        raise RecordError("hands", "give the wall or the dealt hands, not both")
    h = _Fields(hands, "hands")
    h.check_keys([str(s) for s in SEATS], [str(s) for s in SEATS])
    tiles = {s: _hand(h.obj[str(s)], h.at(str(s))) for s in SEATS}
    try:
        return dealt_order(load(f.text("rules")), dice, tiles)
    except (UnknownRuleSet, SchemaError, OSError) as err:
        raise RecordError("rules", str(err)) from None
    except WallError as err:
        raise RecordError("hands", str(err)) from None


def _hand(v: object, where: str) -> tuple[Tile, ...]:
    """One dealt hand: a string ("1122m...") or a list of tiles, in the order dealt."""
    if isinstance(v, str):
        try:
            return parse_tiles(v)
        except NotationError as err:
            raise RecordError(where, str(err)) from None
    if not isinstance(v, list):
        raise RecordError(where, 'a hand, like "1122m..." or ["1m", "1m", ...]')
    f = _Fields({str(i): x for i, x in enumerate(v)}, where)
    tiles = tuple(f.tile(str(i)) for i in range(len(v)))
    if None in tiles:
        raise RecordError(f"{where}[{tiles.index(None)}]", "missing tile")
    return tuple(t for t in tiles if t is not None)


def _wall(v: object) -> tuple[Tile | None, ...]:
    """A list of tiles (["3m", "7p", ...]; `null` where the tile is not known, a wall not
    scanned) or one string in written order ("3m7p...")."""
    if isinstance(v, str):
        try:
            return parse_tiles(v)
        except NotationError as err:
            raise RecordError("wall", str(err)) from None
    if not isinstance(v, list):
        raise RecordError("wall", 'a list of tiles in physical order, like ["3m", "7p"]')
    quick = [_TILE_OF.get(x) for x in v if type(x) is str]
    if len(quick) == len(v) and None not in quick:
        return tuple(quick)  # type: ignore[arg-type]
    f = _Fields({str(i): x for i, x in enumerate(v)}, "wall")
    return tuple(f.tile(str(i)) for i in range(len(v)))


def _moves(v: object) -> tuple[Move, ...]:
    if not isinstance(v, list):
        raise RecordError("moves", "a list of move objects")
    # the quick reading first: the checking path (and its field names) only when it fails
    return tuple(_quick(m) or move_from_json(m, f"moves[{i}]") for i, m in enumerate(v))


def _players(v: object) -> tuple[str | None, ...]:
    if v is None:
        return (None, None, None, None)
    f = _Fields(v, "players")
    f.check_keys([str(s) for s in SEATS], ())
    return tuple(f.text(str(s)) or None for s in SEATS)


def _result(v: object) -> RecordedResult | None:
    if v is None:
        return None
    f = _Fields(v, "result")
    f.check_keys(("deltas", "end", "next_dealer"), ("deltas",))
    deltas = f.obj["deltas"]
    if not (
        isinstance(deltas, list)
        and len(deltas) == 4
        and all(isinstance(d, int) and not isinstance(d, bool) for d in deltas)
    ):
        raise RecordError("result.deltas", f"four whole numbers E S W N, not {json.dumps(deltas)}")
    end = f.obj.get("end")
    try:
        deal_end = None if end is None else DealEnd(end)
    except ValueError:
        ends = ", ".join(e.value for e in DealEnd)
        raise RecordError("result.end", f"one of {ends}, not {json.dumps(end)}") from None
    return RecordedResult(tuple(deltas), deal_end, f.seat("next_dealer"))


def dumps(record: DealRecord, indent: bool = True) -> str:
    """JSON text; with `indent`, one field and one move per line (readable, diffable)."""
    obj = record_to_json(record)
    if not indent:
        return json.dumps(obj, ensure_ascii=False)
    moves = obj.pop("moves")
    head = ",\n".join(
        f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in obj.items()
    )
    body = ",\n".join("  " + json.dumps(m, ensure_ascii=False) for m in moves)
    return f'{{\n{head},\n "moves": [\n{body}\n ]\n}}\n'


def loads(text: str) -> DealRecord:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError("", f"not JSON: {err}") from None
    except RecursionError:
        raise RecordError("", "not a deal record: JSON nested too deeply") from None
    try:
        return from_record(obj)
    except RecursionError:  # a field nested too deeply to quote in the error message
        raise RecordError("", "not a deal record: JSON nested too deeply") from None
