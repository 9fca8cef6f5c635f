"""What a referee is offered when the table calls them (issue 13): the judge's next step in
words, and, where the judge alone knows the tile (a draw from a scanned wall), the move
itself, ready to be entered with one tap on the referee page ("E drew 3p — not read").
What the reader shows beside the judge (the recogniser's `differences`) adds two more: a
discard taken back into the hand ("W discarded 5s and took it back": cancel it), and a
tile of a hand read as another kind ("the tile read as 3m in S's hand is 3p": where it is
the tile just drawn, the wall scan misread it and the draw is fixed; else its tag reads
wrong, and a person looks at it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.journal.payloads import table_seat
from rules import moves as mv
from rules.deal import Deal
from rules.deal_state import Phase
from rules.seats import SEATS, Seat


@dataclass(frozen=True, slots=True)
class Candidate:
    text: str
    move: dict[str, Any] | None = None  # a referee `move` action (fixed seats), when known
    action: dict[str, Any] | None = None  # another referee action (cancel, fix-tile)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "move": self.move}
        if self.action is not None:
            out["action"] = self.action
        return out


Differences = Mapping[tuple[Seat, str, Any], int]  # (deal seat, zone kind, tile) → count


def candidates(
    deal: Deal | None,
    dealer: Seat,
    differences: Differences | None = None,
    last_seq: int | None = None,
) -> tuple[Candidate, ...]:
    """The explanations the judge can offer for a table it cannot follow; with what the
    reader shows beside it (`differences`) and the journal record of the last accepted move
    (`last_seq`), those the table itself suggests come first."""
    if deal is None or deal.over:
        return ()
    return _from_the_table(deal, dealer, differences or {}, last_seq) + _next_step(deal, dealer)


def _from_the_table(
    deal: Deal, dealer: Seat, differences: Differences, last_seq: int | None
) -> tuple[Candidate, ...]:
    mine: dict[Seat, dict[tuple[str, Any], int]] = {}
    for (seat, zone, tile), n in differences.items():
        mine.setdefault(seat, {})[(zone, tile)] = n
    last = deal.history[-1] if deal.history else None
    out: list[Candidate] = []
    for seat, diff in mine.items():
        side = table_seat(seat, dealer)
        if (
            isinstance(last, mv.Discard)
            and last.seat is seat
            and diff == {("hand", last.tile): 1, ("river", last.tile): -1}
        ):
            out.append(
                Candidate(
                    f"{side} discarded {last.tile} and took it back: cancel the discard",
                    action={"kind": "cancel", "count": 1},
                )
            )
            continue
        hand = {t: n for (zone, t), n in diff.items() if zone == "hand"}
        if len(diff) != 2 or len(hand) != 2 or sorted(hand.values()) != [-1, 1]:
            continue
        read = next(t for t, n in hand.items() if n > 0)
        real = next(t for t, n in hand.items() if n < 0)
        drawn = last if isinstance(last, mv.Draw | mv.ReplacementDraw) else None
        if drawn is not None and drawn.seat is seat and drawn.tile == real and last_seq:
            out.append(
                Candidate(
                    f"{side} drew {read}, not {real}: the wall scan misread it; fix the draw",
                    action={"kind": "fix-tile", "target_seq": last_seq, "tile": str(read)},
                )
            )
        else:
            out.append(
                Candidate(
                    f"the tile read as {read} in {side}'s hand is {real}: its tag reads "
                    "wrong; look at the tile (and the tag map)"
                )
            )
    return tuple(out)


def _next_step(deal: Deal, dealer: Seat) -> tuple[Candidate, ...]:
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
    window = deal.window
    if window is not None:
        who = table_seat(window.discarder, dealer)
        what = f"the claim window on {window.tile} from {who} is open: a claim not read?"
        return (Candidate(what),)
    return ()
