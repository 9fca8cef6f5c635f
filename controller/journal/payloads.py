"""How the daemon writes the judge's moves, seats and walls into journal payloads and reads
them back (docs/JOURNAL.md is the record spec, docs/DAEMON.md the daemon's choices).

Seats. The judge plays *deal* seats (East = this deal's dealer, RULES.md); the journal, the
scoreboard and the hub use the table's *fixed* seats E S W N (where each player sits, so
deltas add up per player over a session). `deal.started` names the dealer's fixed seat;
fixed seat = (deal seat + dealer) mod 4. Every `seat`, `from_seat`, `winners`, `deltas`
and ledger seat in the journal is a fixed seat. The exact judge move (deal seats, as the
judge takes it) is kept under the payload key `judge`, and replay reads only that.

Walls. `deal.started` `wall` is the scanned wall in *drawing order*: the tiles clockwise
from the break, as `rules.wall.Wall` deals and draws them (live draws from the front,
replacement tiles from the back with `replacement = "tail"`). `to_drawing` / `to_physical`
convert from and to the physical order the judge takes (rules/wall.py docstring).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.locale import Said, said
from rules.moves import (
    ChooseVoid,
    Kong,
    Move,
    Rejected,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
)
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat
from rules.settlement import LedgerLine as RulesLedgerLine
from rules.tiles import Tile
from rules.wall import Dice, Geometry, break_for


def table_seat(seat: Seat, dealer: Seat) -> Seat:
    """The fixed seat of a deal seat."""
    return SEATS[(seat + dealer) % 4]


def deal_seat(side: Seat, dealer: Seat) -> Seat:
    """The deal seat of a fixed seat."""
    return SEATS[(side - dealer) % 4]


def fixed_order(values: Sequence[int], dealer: Seat) -> tuple[int, int, int, int]:
    """Per-deal-seat values (E = dealer first) → fixed seat order E S W N."""
    out = [0, 0, 0, 0]
    for s, v in enumerate(values):
        out[(s + dealer) % 4] = v
    return (out[0], out[1], out[2], out[3])


# --- moves ----------------------------------------------------------------------------------


def judge_json(move: Move) -> dict[str, Any]:
    """The judge's move as JSON, deal seats: `{"move": "discard", "seat": "S", "tile": "5p"}`.
    One encoding for the whole project: the deal record's (rules/record.py, DEAL-RECORD.md)."""
    from rules.move_json import move_to_json

    return move_to_json(move)


def move_from_judge_json(data: Mapping[str, Any]) -> Move:
    """Inverse of `judge_json` (the deal record's decoder, so a journal's `judge` moves and a
    deal record's moves are read by one function); a `RecordError` (a ValueError) names the
    field. Journals written before the encodings were merged stored a correction's empty
    note and the same names otherwise: they read the same."""
    from rules.move_json import move_from_json

    if data.get("move") == "correction" and data.get("note") == "":
        data = {k: v for k, v in data.items() if k != "note"}
    return move_from_json(dict(data), "judge")


def journal_move_name(move: Move) -> str:
    """The `move` value of docs/JOURNAL.md (`hu` covers self-drawn Hu and robbing)."""
    if isinstance(move, Kong):
        return move.kind.value
    if isinstance(move, ReplacementDraw):
        return "replacement-draw"
    if isinstance(move, SelfDrawnHu | RobKong):
        return "hu"
    from rules.move_json import MOVE_NAMES

    return MOVE_NAMES[type(move)]


Evidence = Sequence[Said | str]  # what the reader saw: sentences (a script's notes: text)


def evidence_payload(evidence: Evidence) -> dict[str, Any]:
    """A move's or an alert's evidence: `evidence` in English, as it has always been
    journalled, and `evidence_words` the same sentences (`Said.to_json` without their
    English, which `evidence` is), which the deal report and `mjtable replay` say in their
    reader's language; text only, no words."""
    out: dict[str, Any] = {"evidence": [str(e) for e in evidence]}
    if any(isinstance(e, Said) for e in evidence):
        out["evidence_words"] = [_unwritten(said(e).to_json()) for e in evidence]
    return out


def _unwritten(words: dict[str, Any]) -> dict[str, Any]:
    """A sentence's JSON without its English (a move's evidence is a few hundred a deal)."""
    return {
        k: {a: _unwritten(v) if isinstance(v, dict) else v for a, v in words["args"].items()}
        if k == "args"
        else v
        for k, v in words.items()
        if k != "en"
    }


def move_payload(
    move: Move, dealer: Seat, evidence: Evidence = (), from_seat: Seat | None = None
) -> dict[str, Any]:
    """A `move.accepted` payload (fixed seats; the judge's own form under `judge`)."""
    seat = getattr(move, "seat", None)
    out: dict[str, Any] = {
        "seat": None if seat is None else table_seat(seat, dealer).name,
        "move": journal_move_name(move),
        "judge": judge_json(move),
        **evidence_payload(evidence),
    }
    tile = getattr(move, "tile", None)
    if tile is not None:
        out["tile"] = str(tile)
    if isinstance(move, ChooseVoid):
        out["suit"] = move.suit.value
    if isinstance(move, SelfDrawnHu):
        out["self_drawn"] = True
    if isinstance(move, RobKong):
        out["robbing"] = True
    if from_seat is not None:
        out["from_seat"] = table_seat(from_seat, dealer).name
    return out


def rejected_payload(
    rejected: Rejected, move: Move, dealer: Seat, evidence: Evidence = (), detail: str = ""
) -> dict[str, Any]:
    out = move_payload(move, dealer, evidence)
    out["reason"] = rejected.reason.value
    out["detail"] = detail or rejected.detail
    return out


# --- settlement -----------------------------------------------------------------------------


def ledger_payload(lines: Sequence[RulesLedgerLine], dealer: Seat) -> list[dict[str, Any]]:
    """The judge's ledger lines in fixed seats, for `deal.settled`."""

    def fixed(seat: Seat | None) -> str | None:
        return None if seat is None else table_seat(seat, dealer).name

    return [
        {
            "payer": fixed(line.payer),
            "payee": fixed(line.payee),
            "points": line.points,
            "rule": line.rule,
            "why": line.why,
        }
        for line in lines
    ]


# --- walls ----------------------------------------------------------------------------------


def _first(rs: RuleSet, dice: Dice) -> int:
    return 2 * Geometry(rs.tiles.wall_stacks).first_stack(break_for(dice, rs.wall.indent))


def to_drawing(rs: RuleSet, dice: Dice, physical: Sequence[Tile]) -> tuple[Tile, ...]:
    """Physical order (rules/wall.py) → drawing order (clockwise from the break)."""
    n, first = len(physical), _first(rs, dice)
    return tuple(physical[(first + i) % n] for i in range(n))


def to_physical(rs: RuleSet, dice: Dice, drawing: Sequence[Tile]) -> tuple[Tile, ...]:
    n, first = len(drawing), _first(rs, dice)
    out: list[Tile] = list(drawing)
    for i, tile in enumerate(drawing):
        out[(first + i) % n] = tile
    return tuple(out)
