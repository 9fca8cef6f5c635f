"""Journal a judged deal without a table: the records the daemon would write for the same
moves (`deal.started`, `move.accepted`, `claim.window`, `deal.settled`; payloads from
controller/journal/payloads.py). For referee examples and fast tests of the referee tools;
`mjtable run` against the simulator writes the real thing.

    with Journal.open(path, clock=clock) as journal:
        deal = write_deal(journal, rs, Dice(6, 4), wall, moves, number=1, dealer=Seat.S)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from controller.journal.payloads import (
    fixed_order,
    ledger_payload,
    move_payload,
    table_seat,
    to_drawing,
)
from controller.journal.records import DealStarted, RecordKind, Source
from controller.journal.store import Journal
from rules.deal import Deal
from rules.moves import Chow, CloseClaims, EndDeal, Hu, Kong, Move, Pung, Rejected, RobKong
from rules.record import next_dealer
from rules.ruleset import RuleSet
from rules.seats import Seat
from rules.tiles import Tile
from rules.wall import Dice

_ENDS = {"hu": "three-won", "wall": "wall-exhausted", "time": "time-up"}


def write_deal(
    journal: Journal,
    rs: RuleSet,
    dice: Dice,
    wall: Sequence[Tile],
    moves: Iterable[Move],
    *,
    number: int = 1,
    dealer: Seat = Seat.E,
    session: int | None = 1,
    players: tuple[str, str, str, str] = ("East", "South", "West", "North"),
    settle: bool = True,
    prevalent: Seat = Seat.E,
    wall_copies: Sequence[str] = (),
) -> Deal:
    """Judge `moves` (deal seats) on `wall` (physical order) and journal them; a refused
    move raises ValueError. The deal is settled in the journal when it ends. `wall_copies`:
    the wall as the scan read its tile copies ("5p#4", physical order), journalled as the
    daemon does."""
    drawing = to_drawing(rs, dice, wall)
    started = DealStarted(
        number, rs.name, dealer, (dice.a, dice.b), players, session, drawing, prevalent
    )
    payload = started.to_payload()
    if wall_copies:
        payload["wall_copies"] = list(wall_copies)
    journal.append(Source.DAEMON, RecordKind.DEAL_STARTED, payload, deal=number)
    deal = Deal.start(rs, dice, wall, prevalent=prevalent)
    for move in moves:
        window = deal.window
        if isinstance(move, CloseClaims):
            if window is None:
                continue
            _window(journal, deal, dealer, number, "closed", "timer")
        from_seat = None
        if window is not None and (
            isinstance(move, Pung | Chow | Hu | RobKong)
            or (isinstance(move, Kong) and move.kind.value == "kong")
        ):
            from_seat = window.discarder
        result = deal.apply(move)
        if isinstance(result, Rejected):
            raise ValueError(f"the judge refuses {move}: {result}")
        if not isinstance(move, CloseClaims):
            evidence = [f"{table_seat(getattr(move, 'seat', Seat.E), dealer)} scripted"]
            payload = move_payload(move, dealer, evidence, from_seat)
            journal.append(Source.JUDGE, RecordKind.MOVE_ACCEPTED, payload, deal=number)
        if window is not None and deal.window is None and not isinstance(move, CloseClaims):
            journal.append(
                Source.DAEMON,
                RecordKind.CLAIM_WINDOW,
                {
                    "state": "closed",
                    "discarder": table_seat(window.discarder, dealer).name,
                    "tile": str(window.tile),
                    "closed_by": "all-answered",
                    "claims": {},
                },
                deal=number,
            )
        if deal.window is not None and window is None:
            _window(journal, deal, dealer, number, "opened", "")
        if isinstance(move, EndDeal) or deal.over:
            break
    if settle and deal.over:
        settle_deal(journal, deal, number, dealer)
    return deal


def _window(journal: Journal, deal: Deal, dealer: Seat, number: int, state: str, by: str) -> None:
    w = deal.window
    assert w is not None
    payload: dict[str, Any] = {
        "state": state,
        "kind": w.kind.value,
        "discarder": table_seat(w.discarder, dealer).name,
        "tile": str(w.tile),
    }
    if state == "opened":
        payload["deadline"] = deal.rs.play.claim_seconds
    else:
        payload["closed_by"] = by
        payload["claims"] = {
            table_seat(s, dealer).name: type(c).__name__.lower() for s, c in w.declared
        }
    journal.append(Source.DAEMON, RecordKind.CLAIM_WINDOW, payload, deal=number)


def settle_deal(journal: Journal, deal: Deal, number: int, dealer: Seat) -> None:
    """A `deal.settled` record as the daemon writes it."""
    assert deal.end is not None
    payload = {
        "deal": number,
        "winners": [table_seat(w.seat, dealer).name for w in deal.winners],
        "deltas": list(fixed_order(deal.deltas(), dealer)),
        "ledger": ledger_payload(deal.ledger().lines, dealer),
        "end": _ENDS[deal.end.value],
        "next_dealer": table_seat(next_dealer(deal), dealer).name,
        "false_hu": [table_seat(w.seat, dealer).name for w in deal.winners if w.false_hu],
    }
    journal.append(Source.JUDGE, RecordKind.DEAL_SETTLED, payload, deal=number)
