"""Per-deal summaries computed from journal records (`mjtable journal summary`).

`summarise` reports what was journalled and counts the corrections; the referee layer
re-judges a corrected deal (`controller.referee.session.with_corrections`) and puts the
corrected result in its place, keeping the journalled one in `recorded_deltas`, so
`mjtable journal summary` prints the result that stands and says which deals were corrected.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from controller.journal.records import (
    JSON,
    Correction,
    DealEnd,
    DealSettled,
    DealStarted,
    JournalError,
    Record,
    RecordKind,
)
from rules.seats import Seat


@dataclass(frozen=True, slots=True)
class DealSummary:
    deal: int
    rules: str
    dealer: Seat
    dice: tuple[int, int]
    players: tuple[str, str, str, str]
    session: int | None
    started_seq: int
    started_wall: str
    moves: int = 0  # move.accepted records
    rejected: int = 0  # move.rejected records
    alerts: int = 0
    corrections: int = 0
    winners: tuple[Seat, ...] = ()
    deltas: tuple[int, int, int, int] | None = None  # None: not settled
    end: DealEnd | None = None
    settled_seq: int | None = None
    # the deltas as journalled in `deal.settled`, when corrections changed the result
    recorded_deltas: tuple[int, int, int, int] | None = None

    @property
    def corrected(self) -> bool:
        """The result shown is the re-judged one, not the journalled one."""
        return self.recorded_deltas is not None

    @property
    def settled(self) -> bool:
        return self.deltas is not None

    def to_json(self) -> dict[str, JSON]:
        return {
            "deal": self.deal,
            "rules": self.rules,
            "dealer": self.dealer.name,
            "dice": list(self.dice),
            "players": list(self.players),
            "session": self.session,
            "winners": [s.name for s in self.winners],
            "deltas": None if self.deltas is None else list(self.deltas),
            "end": None if self.end is None else str(self.end),
            "settled": self.settled,
            "moves": self.moves,
            "rejected": self.rejected,
            "alerts": self.alerts,
            "corrections": self.corrections,
            "started_seq": self.started_seq,
            "started_wall": self.started_wall,
            "settled_seq": self.settled_seq,
            "recorded_deltas": None if self.recorded_deltas is None else list(self.recorded_deltas),
        }


@dataclass(slots=True)
class _Tally:
    started: DealStarted
    record: Record
    moves: int = 0
    rejected: int = 0
    alerts: int = 0
    corrections: int = 0
    settled: DealSettled | None = None
    settled_seq: int | None = None


def summarise(records: Iterable[Record]) -> list[DealSummary]:
    """One summary per `deal.started`, in journal order."""
    tallies: dict[int, _Tally] = {}
    for record in records:
        if record.deal is None:
            continue
        try:
            if record.kind is RecordKind.DEAL_STARTED:
                tallies[record.deal] = _Tally(DealStarted.from_payload(record.data()), record)
                continue
            tally = tallies.get(record.deal)
            if tally is None:
                raise ValueError(f"deal {record.deal} was never started")
            if record.kind is RecordKind.MOVE_ACCEPTED:
                tally.moves += 1
            elif record.kind is RecordKind.MOVE_REJECTED:
                tally.rejected += 1
            elif record.kind is RecordKind.ALERT:
                tally.alerts += 1
            elif record.kind is RecordKind.CORRECTION:
                correction = Correction.from_payload(record.data())
                side = correction.dealer_side()
                if side is not None:  # the dealt hands showed the dealer elsewhere
                    tally.started = replace(tally.started, dealer=side)
                else:
                    tally.corrections += 1
            elif record.kind is RecordKind.DEAL_SETTLED:
                tally.settled = DealSettled.from_payload(record.data())
                tally.settled_seq = record.seq
        except (KeyError, ValueError) as err:
            raise JournalError(f"record {record.seq} ({record.kind}): bad payload: {err}") from None
    return [_summary(t) for t in tallies.values()]


def _summary(t: _Tally) -> DealSummary:
    s, settled = t.started, t.settled
    return DealSummary(
        deal=s.deal,
        rules=s.rules,
        dealer=s.dealer,
        dice=s.dice,
        players=s.players,
        session=s.session,
        started_seq=t.record.seq,
        started_wall=t.record.wall,
        moves=t.moves,
        rejected=t.rejected,
        alerts=t.alerts,
        corrections=t.corrections,
        winners=() if settled is None else settled.won,  # a false Hu is no win
        deltas=None if settled is None else settled.deltas,
        end=None if settled is None else settled.end,
        settled_seq=t.settled_seq,
    )


def format_summary(summaries: Iterable[DealSummary]) -> str:
    """A table for people: one line per deal, deltas in seat order E S W N; a deal whose
    result corrections changed shows the corrected deltas marked `*`, and under the table
    what was journalled before."""
    notes: list[str] = []
    lines = [
        f"{'deal':>4}  {'rules':<16} {'dealer':<6} {'dice':<5} {'winners':<8} "
        f"{'deltas E S W N':<24} {'moves':>5} {'corr':>4}  end"
    ]
    for s in summaries:
        winners = " ".join(w.name for w in s.winners) or "-"
        deltas = "not settled" if s.deltas is None else " ".join(f"{d:+d}" for d in s.deltas)
        if s.recorded_deltas is not None:
            deltas += " *"
            was = " ".join(f"{d:+d}" for d in s.recorded_deltas)
            notes.append(f"* deal {s.deal}: corrected; journalled before the corrections: {was}")
        lines.append(
            f"{s.deal:>4}  {s.rules:<16} {s.dealer.name:<6} {s.dice[0]}+{s.dice[1]:<3} "
            f"{winners:<8} {deltas:<24} {s.moves:>5} {s.corrections:>4}  "
            f"{'-' if s.end is None else s.end}"
        )
    return "\n".join(lines + notes)
