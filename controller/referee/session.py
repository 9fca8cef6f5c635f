"""Deals of a journal together: session totals before each deal, from the deltas the tools
re-judge (corrections applied), in fixed seats E S W N."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from controller.journal.records import CorrectionAction, DealEnd, JournalError
from controller.journal.store import Journal
from controller.journal.summary import DealSummary, summarise
from controller.referee.journal_deal import read_deal, read_session
from controller.referee.rebuild import Rebuilt, rebuild
from rules.moves import DealEnd as JudgeEnd


@dataclass(frozen=True, slots=True)
class SessionDeal:
    rebuilt: Rebuilt
    before: tuple[int, int, int, int]  # the session's totals before this deal
    after: tuple[int, int, int, int]

    @property
    def number(self) -> int:
        return self.rebuilt.source.number

    @property
    def session(self) -> int | None:
        return self.rebuilt.source.started.session


def rebuild_all(journal: Journal, corrections: bool = True) -> list[SessionDeal]:
    """Every deal, in journal order, with running totals per session."""
    out: list[SessionDeal] = []
    totals: dict[int | None, tuple[int, int, int, int]] = {}
    for jd in read_session(journal):
        rb = rebuild(jd, corrections)
        before = totals.get(jd.started.session, (0, 0, 0, 0))
        after = _add(before, rb.deltas)
        totals[jd.started.session] = after
        out.append(SessionDeal(rb, before, after))
    return out


def _add(a: Sequence[int], b: Sequence[int]) -> tuple[int, int, int, int]:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


_ENDS = {
    JudgeEnd.HU: DealEnd.THREE_WON,
    JudgeEnd.WALL: DealEnd.WALL_EXHAUSTED,
    JudgeEnd.TIME: DealEnd.TIME_UP,
}


def corrected_deltas(journal: Journal, number: int) -> tuple[int, int, int, int] | None:
    """A settled deal's deltas re-judged with its corrections (fixed seats E S W N); None
    when it cannot be rebuilt (the journalled result then stands)."""
    try:
        return rebuild(read_deal(journal, number)).deltas
    except JournalError:
        return None


def with_corrections(journal: Journal) -> list[DealSummary]:
    """`summarise` with each settled deal that has corrections re-judged: the corrected
    winners, deltas and end in place of the journalled ones, which stay in
    `recorded_deltas` when they differ (`mjtable journal summary`)."""
    out = []
    for s in summarise(journal.records()):
        if s.corrections == 0 or s.deltas is None:
            out.append(s)
            continue
        rb = rebuild(read_deal(journal, s.deal))
        if rb.deltas == s.deltas and rb.deal.over:
            out.append(s)
            continue
        out.append(replace(s, recorded_deltas=s.deltas, **corrected_result(rb)))
    return out


def corrected_result(rb: Rebuilt) -> dict:
    """The winners, deltas and end of a re-judged deal, in the summary's terms (fixed seats;
    a deal the referee ended is `referee`; a deal no longer over has no end)."""
    forced = any(
        c.active and c.correction.action is CorrectionAction.FORCE_END
        for c in rb.source.corrections
    )
    end = rb.deal.end
    return {
        "winners": tuple(rb.fixed(w.seat) for w in rb.deal.winners),  # as journalled
        "deltas": rb.deltas,
        "end": None if end is None else DealEnd.REFEREE if forced else _ENDS.get(end),
    }
