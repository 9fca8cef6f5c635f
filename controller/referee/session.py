"""Deals of a journal together: session totals before each deal, from the deltas the tools
re-judge (corrections applied), in fixed seats E S W N."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.journal import Journal
from controller.referee.journal_deal import read_session
from controller.referee.rebuild import Rebuilt, rebuild


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
