"""A journalled deal re-judged with the referee's corrections applied, moment by moment.

The judge's moves come from the `move.accepted` records (their `judge` form, deal seats),
with a `CloseClaims` wherever a `claim.window` record says the daemon closed a window the
judge still held open — the same reading as the daemon's restart (controller/daemon/replay.py).
Corrections (docs/JOURNAL.md "Corrections") change that list, never the records:

- `cancel-move`: the corrected move is left out;
- `fix-tile`: the move names `details.tile` instead. On a draw from a scanned wall the scan
  misread two tiles: the drawn position and the next remaining position holding the real
  tile swap places, so the wall still holds every tile four times;
- `penalty`: a judge `Penalty` (details `seat`, `points`, `paid_to`/`to` in fixed seats, or
  the daemon's `judge` form) at the place of the correction record;
- `force-end`: moves journalled after the corrected record are left out and the deal ends
  there (`EndDeal`: payments made so far stand, 004 Lesson 4);
- `yellow-card`, `note`: shown, nothing changes; `withdraw`: the named correction no longer
  applies;
- `enter-move`: the corrected record is a move the referee entered by hand (the daemon
  journalled it as accepted), or a `claim.window` the referee closed ("nobody claimed");
  withdrawn, that move (that close) is left out.

Moves that no longer fit after a correction are `Refused` (kept, shown to the referee) and
skipped; the rest of the deal is judged on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.journal.payloads import deal_seat, move_from_judge_json, table_seat, to_physical
from controller.journal.records import CorrectionAction, JournalError
from controller.locale import Said, says
from controller.recognition.wall_doubt import swapped
from controller.referee.journal_deal import JournalDeal, Verdict
from controller.words import CLAIMS, WINDOW_LINES, seat_said, tile_said
from rules.deal import Deal
from rules.deal_state import Phase
from rules.melds import Meld
from rules.moves import (
    ChooseVoid,
    CloseClaims,
    DealEnd,
    Discard,
    Draw,
    EndDeal,
    Kong,
    Move,
    Penalty,
    Rejected,
    ReplacementDraw,
    Won,
)
from rules.record import next_dealer
from rules.seats import SEATS, Seat
from rules.settlement import LedgerLine
from rules.tiles import NotationError, Suit, Tile
from rules.wall import Dice, dealt_order

_MAX_SWAPS = 16


@dataclass(frozen=True, slots=True)
class Entry:
    """One judge move and the journal record it comes from."""

    at: int  # seq of the record
    move: Move
    origin: str  # "move", "window", "penalty", "force-end"
    fixed_tile: bool = False


@dataclass(frozen=True, slots=True)
class Refused:
    at: int
    move: Move
    rejected: Rejected


@dataclass(frozen=True, slots=True)
class Moment:
    """The deal after a step, in fixed seats (index E S W N)."""

    step: int
    phase: Phase
    turn: Seat
    hands: tuple[tuple[Tile, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    rivers: tuple[tuple[Tile, ...], ...]
    discards: tuple[tuple[Tile, ...], ...]
    voids: tuple[Suit | None, ...]
    laid: tuple[Tile | None, ...]  # the face-down void tile not yet discarded
    out: tuple[bool, ...]
    tiles_left: int
    remaining: frozenset[int]  # physical indices still in the wall
    next_live: int | None
    next_replacement: int | None
    deltas: tuple[int, int, int, int]
    winners: tuple[Won, ...]  # deal seats, as the judge has them
    window: str  # "" or a description of the open window
    # the window as a sentence said in the reader's language (its English: `window`)
    window_words: Said | None = None


@dataclass(frozen=True, slots=True)
class Rebuilt:
    source: JournalDeal
    corrected: bool  # corrections applied
    wall: tuple[Tile | None, ...]  # physical order, after fix-tile swaps (None: not scanned)
    entries: tuple[Entry, ...]
    moments: tuple[Moment, ...]  # moments[k]: after step k (0: dealt)
    refused: tuple[Refused, ...]
    notes: tuple[str, ...]  # corrections that could not be applied, and why
    deal: Deal

    @property
    def ledger(self) -> tuple[LedgerLine, ...]:
        """The ledger so far, fixed seats."""
        d = self.source.dealer
        return tuple(_fixed_line(line, d) for line in self.deal.ledger().lines)

    @property
    def deltas(self) -> tuple[int, int, int, int]:
        return _fixed(self.deal.deltas(), self.source.dealer)

    @property
    def next_dealer(self) -> Seat | None:
        return table_seat(next_dealer(self.deal), self.source.dealer) if self.deal.over else None

    def fixed(self, seat: Seat) -> Seat:
        return table_seat(seat, self.source.dealer)


def _fixed(values: Sequence[int], dealer: Seat) -> tuple[int, int, int, int]:
    out = [0, 0, 0, 0]
    for s, v in enumerate(values):
        out[(s + dealer) % 4] = v
    return (out[0], out[1], out[2], out[3])


def _fixed_line(line: LedgerLine, dealer: Seat) -> LedgerLine:
    def f(s: Seat | None) -> Seat | None:
        return None if s is None else table_seat(s, dealer)

    return dataclasses.replace(line, payer=f(line.payer), payee=f(line.payee))


def physical_wall(jd: JournalDeal, corrections: bool = True) -> tuple[Tile | None, ...]:
    """The judge's wall: the scanned one, or (a table without a wall antenna) the dealt
    hands journalled in `deal.started` (`hands`, fixed seats) at the positions they were
    dealt from, every other position unknown (rules.wall.dealt_order). A draw that showed
    two neighbours of the scan the other way round swaps them, unless (`corrections`) the
    referee took that draw back: what it showed was not on the table (10/10/2 seed 311 deal
    5: a draw the table never made swapped 3p and 6p; cancelled, the swap stayed, and the
    next draw from there was taken as 6p and had to be fixed by hand)."""
    s = jd.started
    if s.wall is not None:
        order = to_physical(jd.rules, Dice(*s.dice), s.wall)
        cancelled = _cancelled(jd) if corrections else set()
        for step in jd.steps:  # a draw showed two neighbours of the scan the other way round
            if step.judge_move is None or step.seq in cancelled:
                continue
            check = step.record.data().get("wall_check")
            if check and check.get("order") == "swapped":  # both were in the wall till then
                order = swapped(order, int(check["positions"][0]))
        return order
    hands = jd.started_record.data().get("hands")
    if not isinstance(hands, dict):
        raise JournalError(
            f"deal {s.deal}: the wall was not scanned and the dealt hands were not journalled "
            "(deal.started has neither), so the deal cannot be rebuilt tile by tile"
        )
    try:
        by_seat = {
            deal_seat(Seat.parse(side), s.dealer): [Tile.parse(t) for t in tiles]
            for side, tiles in hands.items()
        }
        return dealt_order(jd.rules, Dice(*s.dice), by_seat)
    except ValueError as err:
        raise JournalError(f"deal {s.deal}: the journalled hands cannot be dealt: {err}") from None


def _cancelled(jd: JournalDeal) -> set[int]:
    """The records of the moves the referee took back: cancelled, or entered by the referee
    and then withdrawn (they never happened)."""
    out = set()
    for c in jd.corrections:
        action = c.correction.action
        if (action is CorrectionAction.CANCEL_MOVE and c.active) or (
            action is CorrectionAction.ENTER_MOVE and not c.active
        ):
            out.add(c.correction.corrects)
    return out


def effective_moves(jd: JournalDeal, corrections: bool = True) -> tuple[list[Entry], list[str]]:
    """The judge moves of a deal with its active corrections applied, and notes on the
    corrections that could not be applied."""
    active = [c for c in jd.corrections if c.active] if corrections else []
    notes: list[str] = []
    cancelled = _cancelled(jd) if corrections else set()
    fixes: dict[int, Tile] = {}
    for c in active:
        if c.correction.action is CorrectionAction.FIX_TILE:
            try:
                fixes[c.correction.corrects] = Tile.parse(str((c.correction.details or {})["tile"]))
            except (KeyError, NotationError, ValueError) as err:
                notes.append(f"correction {c.record.seq}: no tile to fix with ({err})")
    ends = [
        c.correction.corrects for c in active if c.correction.action is CorrectionAction.FORCE_END
    ]
    force_end = min(ends) if ends else None
    penalties = {c.record.seq: c for c in active if c.correction.action is CorrectionAction.PENALTY}
    moves_at = {s.seq for s in jd.steps if s.judge_move is not None}
    # a window the referee closed ("nobody claimed", an entered close) and then took back
    closes = {s.seq for s in jd.steps if s.verdict is Verdict.WINDOW} & cancelled
    for seq in (*(cancelled - closes), *fixes):
        if seq not in moves_at:
            notes.append(
                f"record {seq} is not an accepted move of deal {jd.number}: nothing to change"
            )
    entries: list[Entry] = []
    if force_end is not None and force_end < jd.started_record.seq:
        force_end = jd.started_record.seq
    if force_end == jd.started_record.seq:
        entries.append(Entry(force_end, EndDeal("force-ended by the referee"), "force-end"))
    for step in jd.steps:
        late = force_end is not None and step.seq > force_end
        if step.verdict is Verdict.ACCEPTED and step.judge_move is not None and not late:
            if step.seq in cancelled:
                continue
            move, fixed = step.judge_move, False
            if step.seq in fixes:
                move, problem = _fix(move, fixes[step.seq])
                fixed = problem is None
                if problem:
                    notes.append(f"record {step.seq}: {problem}")
            entries.append(Entry(step.seq, move, "move", fixed))
        elif (
            step.verdict is Verdict.WINDOW
            and not late
            and step.record.data()["state"] == "closed"
            and step.seq not in closes
        ):
            entries.append(Entry(step.seq, CloseClaims(), "window"))
        elif step.seq in penalties:
            try:
                entries.append(
                    Entry(step.seq, _penalty(penalties[step.seq].correction, jd.dealer), "penalty")
                )
            except (KeyError, ValueError, TypeError) as err:
                notes.append(f"correction {step.seq}: not a penalty the judge can take ({err})")
        if step.seq == force_end:
            entries.append(Entry(step.seq, EndDeal("force-ended by the referee"), "force-end"))
    if force_end is not None and not any(e.origin == "force-end" for e in entries):
        # the corrected record is not a step (a raw frame, a phase): the deal ends after
        # the last step before it
        entries.append(Entry(force_end, EndDeal("force-ended by the referee"), "force-end"))
    return entries, notes


def _fix(move: Move, tile: Tile) -> tuple[Move, str | None]:
    if isinstance(move, Draw | ReplacementDraw | Discard | Kong):
        return dataclasses.replace(move, tile=tile), None
    if isinstance(move, ChooseVoid):
        return dataclasses.replace(move, tile=tile, suit=tile.suit), None
    return move, f"a {type(move).__name__} names no tile to fix"


def _penalty(c: Any, dealer: Seat) -> Penalty:
    details: Mapping[str, Any] = c.details or {}
    if "judge" in details:  # the daemon's form (deal seats)
        move = move_from_judge_json(details["judge"])
        if not isinstance(move, Penalty):
            raise ValueError("details.judge is not a penalty")
        return move
    to = details.get("paid_to", details.get("to"))
    return Penalty(
        deal_seat(Seat.parse(details["seat"]), dealer),
        int(details["points"]),
        f"{c.reason} (referee {c.referee})",
        None if to is None else deal_seat(Seat.parse(to), dealer),
    )


def rebuild(jd: JournalDeal, corrections: bool = True) -> Rebuilt:
    """Re-judge the deal and keep the moment after every step."""
    entries, notes = effective_moves(jd, corrections)
    wall = list(physical_wall(jd, corrections))
    for _ in range(_MAX_SWAPS):
        result = _judge(jd, entries, wall)
        if isinstance(result, tuple):  # a fixed draw asks for a swap in the wall scan
            i, j = result
            wall[i], wall[j] = wall[j], wall[i]
            continue
        return dataclasses.replace(result, corrected=corrections, notes=tuple(notes))
    raise JournalError(f"deal {jd.number}: too many tile fixes on draws to rebuild")


def _judge(
    jd: JournalDeal, entries: list[Entry], wall: list[Tile | None]
) -> Rebuilt | tuple[int, int]:
    dice = Dice(*jd.started.dice)
    try:
        deal = Deal.start(jd.rules, dice, wall, prevalent=jd.started.prevalent)
    except ValueError as err:
        raise JournalError(
            f"deal {jd.number}: the journalled wall cannot be dealt: {err}"
        ) from None
    moments = [_moment(0, deal, jd.dealer)]
    refused: list[Refused] = []
    k = 0
    for number, step in enumerate(jd.steps, start=1):
        while k < len(entries) and entries[k].at <= step.seq:
            e = entries[k]
            k += 1
            if isinstance(e.move, CloseClaims) and deal.window is None:
                continue
            if e.fixed_tile and isinstance(e.move, Draw | ReplacementDraw):
                swap = _swap_for(deal, e.move)
                if swap is not None:
                    return swap
            result = deal.apply(e.move)
            if isinstance(result, Rejected):
                refused.append(Refused(e.at, e.move, result))
        moments.append(_moment(number, deal, jd.dealer))
    for e in entries[k:]:  # a force-end or penalty after the last step cannot happen; kept safe
        result = deal.apply(e.move)
        if isinstance(result, Rejected):
            refused.append(Refused(e.at, e.move, result))
    return Rebuilt(jd, True, tuple(wall), tuple(entries), tuple(moments), tuple(refused), (), deal)


def _swap_for(deal: Deal, move: Draw | ReplacementDraw) -> tuple[int, int] | None:
    w = deal.wall
    index = w.next_index() if isinstance(move, Draw) else w.next_replacement_index()
    if index is None or move.tile is None or w.order[index] in (None, move.tile):
        return None
    for j in w.remaining():
        if j != index and w.order[j] == move.tile:
            return (index, j)
    return None  # no copy left in the wall: the judge refuses the draw, and says why


def _moment(step: int, deal: Deal, dealer: Seat) -> Moment:
    def by_fixed(values: Sequence[Any]) -> tuple[Any, ...]:
        out: list[Any] = [None] * 4
        for s, v in enumerate(values):
            out[(s + dealer) % 4] = v
        return tuple(out)

    w = deal.window
    window = ""
    if w is not None:
        declared = ", ".join(
            f"{table_seat(s, dealer)} {type(c).__name__.lower()}" for s, c in w.declared
        )
        window = f"{w.kind.value} window on {w.tile} from {table_seat(w.discarder, dealer)}"
        window += f" (declared: {declared})" if declared else ""
        words = _window_said(w, dealer, window)
    else:
        words = None
    wall = deal.wall
    return Moment(
        step=step,
        phase=deal.phase,
        turn=table_seat(deal.turn, dealer),
        hands=by_fixed([deal.hand(s) for s in SEATS]),
        melds=by_fixed([deal.melds(s) for s in SEATS]),
        rivers=by_fixed([deal.river(s) for s in SEATS]),
        discards=by_fixed([deal.discards(s) for s in SEATS]),
        voids=by_fixed([deal.void(s) for s in SEATS]),
        laid=by_fixed([deal.laid_tile(s) for s in SEATS]),
        out=by_fixed([deal.is_out(s) for s in SEATS]),
        tiles_left=deal.tiles_left,
        remaining=frozenset(wall.remaining()),
        next_live=wall.next_index(),
        next_replacement=wall.next_replacement_index(),
        deltas=_fixed(deal.deltas(), dealer),
        winners=deal.winners,
        window=window,
        window_words=words,
    )


END_NAMES = {DealEnd.HU: "three-won", DealEnd.WALL: "wall-exhausted", DealEnd.TIME: "time-up"}


def _window_said(w: Any, dealer: Seat, english: str) -> Said:
    """The judge's open window as a sentence (its English: `english`, as journalled tools
    have always printed it)."""
    seat = seat_said(table_seat(w.discarder, dealer).name)
    opened = WINDOW_LINES[w.kind.value == "robbing", "open"]
    said = says(opened, tile=tile_said(str(w.tile)), seat=seat)
    if w.declared:
        listed: Said | None = None
        for s, c in w.declared:
            name = type(c).__name__.lower()
            one = says(
                "{seat} {claim}",
                seat=seat_said(table_seat(s, dealer).name),
                claim=Said(CLAIMS.get(name, name)),
            )
            listed = one if listed is None else says("{first}, {second}", first=listed, second=one)
        said = says("{window} (declared: {claims})", window=said, claims=listed or "")
    return dataclasses.replace(said, english=english)
