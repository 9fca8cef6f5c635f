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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.deal import Deal
from rules.move_json import (
    Fields,
    RecordError,
    move_from_json,
    move_to_json,
)
from rules.moves import (
    DealEnd,
    Move,
)
from rules.ruleset import RuleSet, UnknownRuleSet, load
from rules.schema import SchemaError
from rules.seats import SEATS, Seat
from rules.settlement import next_dealer as pay_next_dealer
from rules.tiles import NotationError, Tile, parse_tiles
from rules.wall import Dice, WallError, dealt_order

FORMAT = "mjtable-deal"
VERSION = 1


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
    f = Fields(obj, "")
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
    if (
        not isinstance(v, list)
        or len(v) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
    ):
        raise RecordError("dice", f"two dice, like [6, 4], not {json.dumps(v)}")
    try:
        return Dice(v[0], v[1])
    except ValueError as err:
        raise RecordError("dice", str(err)) from None


def _wall_or_hands(f: Fields, dice: Dice) -> tuple[Tile | None, ...]:
    """The wall, or (a table whose wall is not scanned) the dealt hands placed where they
    were dealt from, every other position unknown (rules.wall.dealt_order)."""
    wall, hands = f.obj.get("wall"), f.obj.get("hands")
    if hands is None:
        if wall is None:
            raise RecordError("wall", 'missing (or the dealt hands as "hands")')
        return _wall(wall)
    if wall is not None:
        raise RecordError("hands", "give the wall or the dealt hands, not both")
    h = Fields(hands, "hands")
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
    f = Fields({str(i): x for i, x in enumerate(v)}, where)
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
    f = Fields({str(i): x for i, x in enumerate(v)}, "wall")
    return tuple(f.tile(str(i)) for i in range(len(v)))


def _moves(v: object) -> tuple[Move, ...]:
    if not isinstance(v, list):
        raise RecordError("moves", "a list of move objects")
    return tuple(move_from_json(m, f"moves[{i}]") for i, m in enumerate(v))


def _players(v: object) -> tuple[str | None, ...]:
    if v is None:
        return (None, None, None, None)
    f = Fields(v, "players")
    f.check_keys([str(s) for s in SEATS], ())
    return tuple(f.text(str(s)) or None for s in SEATS)


def _result(v: object) -> RecordedResult | None:
    if v is None:
        return None
    f = Fields(v, "result")
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
