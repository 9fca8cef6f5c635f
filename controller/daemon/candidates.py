"""What a referee is offered when the table calls them (issue 13): the judge's next step in
words, and, where the judge alone knows the tile (a draw from a scanned wall), the move
itself, ready to be entered with one tap on the referee page ("E drew 3p — not read")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.daemon.records import table_seat
from rules.deal import Deal, Phase
from rules.seats import SEATS, Seat


@dataclass(frozen=True, slots=True)
class Candidate:
    text: str
    move: dict[str, Any] | None = None  # a referee `move` action (fixed seats), when known

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "move": self.move}


def candidates(deal: Deal | None, dealer: Seat) -> tuple[Candidate, ...]:
    """The explanations the judge can offer for a table it cannot follow."""
    if deal is None or deal.over:
        return ()
    turn = table_seat(deal.turn, dealer)
    if deal.phase in (Phase.DRAW, Phase.REPLACEMENT):
        w = deal.wall
        index = w.next_index() if deal.phase is Phase.DRAW else w.next_replacement_index()
        tile = None if index is None else w.order[index]
        name = "draw" if deal.phase is Phase.DRAW else "replacement"
        what = "drew" if name == "draw" else "took the kong replacement"
        if tile is None:
            return (Candidate(f"{turn} {what} — the tile was not read; enter it by hand"),)
        move = {"seat": turn.name, "move": name, "tile": str(tile)}
        return (Candidate(f"{turn} {what} {tile} — not read", move),)
    if deal.phase is Phase.DISCARD:
        return (Candidate(f"{turn}'s discard was not read: enter it by hand"),)
    if deal.phase is Phase.CHOOSING_VOID:
        waiting = [table_seat(s, dealer).name for s in SEATS if deal.void(s) is None]
        return (Candidate(f"void not read for {', '.join(waiting)}: enter the laid tile"),)
    w = deal.window
    if w is not None:
        who = table_seat(w.discarder, dealer)
        return (Candidate(f"the claim window on {w.tile} from {who} is open: a claim not read?"),)
    return ()
