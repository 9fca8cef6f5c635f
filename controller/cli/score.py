"""`mjtable score`: score a winning hand with a readable breakdown, or a stream of JSON lines.

Exit status: 0 scored, 1 the hand does not win, 2 bad input (notation, rule set, situation).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from controller.cli.args import rules_help
from controller.errors import TableError
from rules.melds import Meld
from rules.ruleset import DEFAULT, Payer, RuleSet, ScoringMethod, UnknownRuleSet, load
from rules.schema import SchemaError
from rules.score import Score
from rules.scoring import (
    EVENTS,
    BadSituation,
    NotAWin,
    score_hand,
    waits_and_maximum as rules_waits_and_maximum,
)
from rules.seats import Seat
from rules.tiles import (
    NUMBER_SUITS,
    NotationError,
    Suit,
    Tile,
    format_tiles,
    parse_tiles,
    to_counts,
)


class InputError(TableError, ValueError):
    """Bad command-line or JSON input; `caret` is the offending text and position, if any."""

    def __init__(self, message: str, caret: tuple[str, int] | None = None) -> None:
        self.message = message
        self.caret = caret
        super().__init__(message)

    def report(self, out: TextIO) -> None:
        """The message as `mjtable` prints it, with a caret under the offending character."""
        print(f"mjtable: error: {self.message}", file=out)
        if self.caret is not None:
            text, pos = self.caret
            print(f"  {text}\n  {' ' * pos}^", file=out)


@dataclass(frozen=True, slots=True)
class Case:
    """One hand to score, parsed."""

    rules: RuleSet
    standing: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win: Tile | None
    self_drawn: bool
    situations: frozenset[str]
    void: Suit | None
    seat_wind: Seat | None = None  # Wellness: the seat and prevalent winds (001 II 3)
    prevalent_wind: Seat | None = None


def _notation(what: str, err: NotationError) -> InputError:
    return InputError(
        f"{what}: {err.message} at character {err.position + 1}", (err.text, err.position)
    )


def parse_melds(items: Sequence[str]) -> tuple[Meld, ...]:
    """`--melds` values: repeated and/or comma-separated."""
    melds = []
    for item in items:
        offset = 0
        for part in item.split(","):
            if part.strip():
                try:
                    melds.append(Meld.parse(part))
                except NotationError as err:
                    raise InputError(
                        f"meld: {err.message} at character {offset + err.position + 1}",
                        (item, offset + err.position),
                    ) from None
            offset += len(part) + 1
    return tuple(melds)


def load_rules(name: str) -> RuleSet:
    try:
        return load(name)
    except (UnknownRuleSet, SchemaError, OSError) as err:
        raise InputError(str(err).strip("'\"")) from None


def parse_case(
    rules: str,
    hand: str,
    melds: Sequence[str],
    win: str | None,
    self_drawn: bool = False,
    situations: Sequence[str] = (),
    void: str | None = None,
    seat: str | None = None,
    prevalent: str | None = None,
) -> Case:
    rs = load_rules(rules)
    try:
        standing = parse_tiles(hand, rs.tiles.set)
    except NotationError as err:
        raise _notation("hand", err) from None
    win_tile = None
    if win is not None:
        try:
            win_tile = Tile.parse(win)
        except NotationError as err:
            raise _notation("winning tile", err) from None
    void_suit = None
    if void:
        void_suit = next((s for s in NUMBER_SUITS if s.value == void.strip().lower()), None)
        if void_suit is None:
            raise InputError(f"void suit: {void!r} is not one of m, p, s")
    for s in situations:
        if s not in EVENTS:
            raise InputError(f"situation: unknown {s!r} (one of {', '.join(EVENTS)})")
    winds = []
    for what, text in (("seat wind", seat), ("prevalent wind", prevalent)):
        try:
            winds.append(Seat.parse(text) if text else None)
        except ValueError as err:
            raise InputError(f"{what}: {err}") from None
    return Case(
        rs,
        standing,
        parse_melds(melds),
        win_tile,
        self_drawn,
        frozenset(situations),
        void_suit,
        *winds,
    )


def score_case(case: Case) -> tuple[Score, tuple[Tile, ...], int]:
    """The score, the waits of the hand without the winning tile and their maximum."""
    if case.win is None:
        raise InputError("the winning tile is missing (--win)")
    score = score_hand(
        case.standing,
        case.melds,
        case.win,
        case.rules,
        self_drawn=case.self_drawn,
        situations=case.situations,
        void=case.void,
        seat_wind=case.seat_wind,
        prevalent_wind=case.prevalent_wind,
    )
    rest = list(case.standing)
    rest.remove(case.win)
    return score, *waits_and_maximum(rest, case)


def waits_and_maximum(standing: Sequence[Tile], case: Case) -> tuple[tuple[Tile, ...], int]:
    """Waits of a 13-tile hand (none when it cannot win: void tiles, three suits) and its
    theoretical maximum (`rules.scoring.waits_and_maximum`)."""
    return rules_waits_and_maximum(
        to_counts(standing),
        case.melds,
        case.void,
        case.rules,
        seat_wind=case.seat_wind,
        prevalent_wind=case.prevalent_wind,
    )


def maximum_note(case: Case) -> str:
    """Why the maximum may be below the value of a wait: the rule set leaves declared kongs
    out of it (`scoring.maximum-counts-kongs`, 004 Lesson 6)."""
    rs = case.rules
    if (
        rs.scoring.maximum_counts_kongs
        or rs.scoring.method is ScoringMethod.HIGHEST_PATTERN
        or not any(m.is_kong for m in case.melds)
    ):
        return ""
    return "; declared kongs not counted, 004 Lesson 6"


def describe_hand(standing: Sequence[Tile], case: Case) -> str:
    text = format_tiles(standing)
    if case.melds:
        text += " + " + ", ".join(str(m) for m in case.melds)
    return text


# -- human output -------------------------------------------------------------------


def _payment(case: Case, score: Score) -> str:
    """The payment formula (004 Table 6; WMT 003 B/C: multiplier x A)."""
    a = "A" if score.multiplier == 1 else f"{score.multiplier}A"
    amount = score.multiplier * score.value
    if not case.self_drawn:
        return f"{a} = {amount} from the discarder"
    plus = case.rules.payments.self_drawn_plus
    text = f"{a}+{plus} = {amount + plus} from each player still in"
    if score.payer is Payer.MELDED_KONG_DISCARDER:
        text += " (after a melded kong: from its discarder alone)"
    return text


def render(case: Case, score: Score, waits: Sequence[Tile], best: int) -> str:
    rs = case.rules
    how = "self-drawn" if case.self_drawn else "on a discard"
    lines = [
        f"hand      {describe_hand(case.standing, case)}",
        f"win       {case.win} {how}"
        + (f", void {case.void}" if case.void else "")
        + f", rules {rs.name}",
        "patterns",
    ]
    if not score.patterns:
        lines.append("  (none: a plain hand)")
    for hit in score.patterns:
        lines.append(f"  +{hit.fan}  {hit.reason}")
    if rs.scoring.method is ScoringMethod.HIGHEST_PATTERN:
        # Wellness (001 II 3): the single highest pattern's points, then bonuses
        lines.append(f"bonuses   (base point = {rs.scoring.base_points})")
        for bonus in score.bonuses:
            lines.append(f"  +{bonus.points}  {bonus.reason}")
        if not score.bonuses:
            lines.append("  (none)")
        points = score.value - sum(b.points for b in score.bonuses)
        lines.append(
            f"total     {score.total_fan} fan = {points} points (highest pattern only)"
            f" + {score.value - points} bonus"
        )
    else:
        cap = rs.scoring.fan_cap
        capped = " (capped)" if score.total_fan > cap else ""
        lines.append(f"total     {score.total_fan} fan, cap {cap}{capped}")
    lines.append(f"value     {score.value} point{'s' if score.value != 1 else ''}")
    lines.append(f"payment   {_payment(case, score)}")
    rest = list(case.standing)
    assert case.win is not None  # a scored hand has its winning tile
    rest.remove(case.win)
    lines.append(
        f"waits     {' '.join(str(t) for t in waits) or 'none'}  (of {describe_hand(rest, case)})"
    )
    lines.append(
        f"maximum   {best} (theoretical maximum of that hand at wall end{maximum_note(case)})"
    )
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "hand", nargs="?", help="standing tiles including the winning tile, e.g. 123m456p11s"
    )
    parser.add_argument(
        "--melds",
        action="append",
        default=[],
        metavar="MELD",
        help="declared melds, e.g. 'pung 5s' (repeat, or separate with commas)",
    )
    parser.add_argument("--win", help="the winning tile, e.g. 1s")
    parser.add_argument("--self-drawn", action="store_true", help="the winning tile was drawn")
    parser.add_argument(
        "--situation",
        action="append",
        default=[],
        choices=list(EVENTS),
        help="a winning situation (repeatable)",
    )
    parser.add_argument("--void", help="the player's void suit (m, p or s)")
    parser.add_argument("--seat", help="Wellness: the player's seat wind (E, S, W or N)")
    parser.add_argument("--prevalent", help="Wellness: the prevalent (round) wind (E S W N)")
    parser.add_argument("--rules", default=DEFAULT, help=rules_help(DEFAULT))
    parser.add_argument(
        "--json",
        action="store_true",
        help="read one JSON case per line on stdin, write one JSON result per line",
    )


def run(args: argparse.Namespace) -> int:
    if args.json:
        if args.hand is not None:
            print("mjtable: error: --json reads the hands from stdin", file=sys.stderr)
            return 2
        return stream(sys.stdin, sys.stdout)
    if args.hand is None:
        print("mjtable: error: a hand is needed (or --json)", file=sys.stderr)
        return 2
    try:
        case = parse_case(
            args.rules,
            args.hand,
            args.melds,
            args.win,
            args.self_drawn,
            args.situation,
            args.void,
            args.seat,
            args.prevalent,
        )
        score, waits, best = score_case(case)
    except InputError as err:
        err.report(sys.stderr)
        return 2
    except BadSituation as err:
        print(f"mjtable: error: {err}", file=sys.stderr)
        return 2
    except NotAWin as err:
        print(f"not a win: {err.reason}")
        return 1
    print(render(case, score, waits, best))
    return 0


# -- JSON lines ---------------------------------------------------------------------

_KEYS = {
    "id",
    "rules",
    "hand",
    "melds",
    "win",
    "self_drawn",
    "situation",
    "void",
    "seat",
    "prevalent",
}


def _field(obj: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = obj.get(key, default)
    if value is None and default is None:
        return None
    if kind is list:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InputError(f"'{key}' must be a list of strings")
    elif kind is bool:
        if not isinstance(value, bool):
            raise InputError(f"'{key}' must be true or false")
    elif not isinstance(value, str):
        raise InputError(f"'{key}' must be a string")
    return value


def _caret_text(err: InputError) -> str:
    if err.caret is None:
        return err.message
    text, _ = err.caret
    return f"{err.message} in {text!r}"


def answer(line: str) -> dict[str, Any]:
    """The JSON result for one input line (issue 2 item 5)."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        return {"id": None, "ok": False, "error": f"not valid JSON: {err}"}
    if not isinstance(obj, dict):
        return {"id": None, "ok": False, "error": "a case is a JSON object"}
    ident = obj.get("id")
    try:
        unknown = sorted(set(obj) - _KEYS)
        if unknown:
            raise InputError(f"unknown key '{unknown[0]}' (known: {', '.join(sorted(_KEYS))})")
        if "hand" not in obj or "win" not in obj:
            raise InputError("'hand' and 'win' are required")
        case = parse_case(
            _field(obj, "rules", str, DEFAULT),
            _field(obj, "hand", str, ""),
            _field(obj, "melds", list, []),
            _field(obj, "win", str, ""),
            _field(obj, "self_drawn", bool, False),
            _field(obj, "situation", list, []),
            _field(obj, "void", str, None),
            _field(obj, "seat", str, None),
            _field(obj, "prevalent", str, None),
        )
        score, waits, best = score_case(case)
    except InputError as err:
        return {"id": ident, "ok": False, "error": _caret_text(err)}
    except BadSituation as err:
        return {"id": ident, "ok": False, "error": str(err)}
    except NotAWin as err:
        return {"id": ident, "ok": False, "error": f"not a win: {err.reason}"}
    fans: dict[str, int] = {}
    for hit in score.patterns:
        fans[hit.name] = fans.get(hit.name, 0) + 1
    result = {
        "id": ident,
        "ok": True,
        "fans": fans,
        "total_fan": score.total_fan,
        "value": score.value,
        "waits": [str(t) for t in waits],
        "max_value": best,
    }
    if score.bonuses:  # Wellness: base points per bonus, in points
        bonuses: dict[str, int] = {}
        for bonus in score.bonuses:
            bonuses[bonus.name] = bonuses.get(bonus.name, 0) + bonus.points
        result["bonuses"] = bonuses
    return result


def stream(inp: TextIO, out: TextIO) -> int:
    """One JSON result per non-blank input line, in order; bad lines do not stop it."""
    for line in inp:
        if not line.strip():
            continue
        out.write(json.dumps(answer(line), ensure_ascii=False) + "\n")
        out.flush()
    return 0
