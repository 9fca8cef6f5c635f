"""The copy of the judge the next move is decided on, made ahead while the core is idle.

A move is decided on a copy of the judge that becomes the judge once its records are
committed (runtime.py `_play`): a deep copy, about a third of a move's decision mid-deal.
Made when the core has nothing else to do (`ready`, from its tick), it is off the way from a
reader's answer to the commit and the board's push. It stands for the judge it was made of
while that judge has not moved (the same object, the same history's length, as the claim
clock's trial); otherwise, or before it is ready, `take` copies the judge then. It does not
keep that judge alive (a move played on the claim clock's trial leaves it untaken)."""

from __future__ import annotations

import weakref

from rules.deal import Deal


class SpareJudge:
    """One copy of the judge made ahead (core thread only)."""

    def __init__(self) -> None:
        # the judge it was made of (weakly), that judge's history's length then, the copy
        self._made: tuple[weakref.ref[Deal], int, Deal] | None = None

    def ready(self, deal: Deal | None) -> None:
        """Make the copy of `deal` now, unless it is made already (or the deal is over)."""
        if deal is None or deal.over or self._stands_for(deal):
            return
        self._made = weakref.ref(deal), len(deal.history), deal.copy()

    def take(self, deal: Deal) -> Deal:
        """A copy of `deal` to decide a move on, given up to the caller: the one made
        ahead when it stands for `deal`, else one made now."""
        ready = self._stands_for(deal)
        made, self._made = self._made, None
        return made[2] if ready and made is not None else deal.copy()

    def _stands_for(self, deal: Deal) -> bool:
        made = self._made
        return made is not None and made[0]() is deal and made[1] == len(deal.history)
