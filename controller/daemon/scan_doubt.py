"""The scanned wall's doubtful pairs (controller/recognition/wall_doubt.py): a draw the judge
refuses that fits the wall with such a pair the other way round re-judges the deal on that
order, the dealt hands may show a pair swapped, and the first draw from each pair records
which order it was (the `wall_check` of its `move.accepted`)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from controller.recognition.wall_doubt import next_index, pair_of, swap_for, swapped
from rules import moves as mv
from rules.deal import Deal

log = logging.getLogger(__name__)


class ScanDoubt:
    """The pairs (i, i + 1) of the scan not yet drawn whose order is in doubt, and a swap
    the dealt hands showed, to be journalled with the next accepted move."""

    def __init__(self, uncertain: Iterable[int] = ()) -> None:
        self.uncertain: tuple[int, ...] = tuple(uncertain)
        self._check: dict[str, Any] | None = None  # for the next accepted move

    def scanned(self, uncertain: Iterable[int]) -> None:
        """A new wall scan, with its doubtful pairs."""
        self.uncertain = tuple(uncertain)

    def reorder(self, deal: Deal, move: mv.Move, trial: Deal | None) -> Deal | None:
        """A draw the judge refuses as WALL_MISMATCH that fits the wall with an uncertain
        pair of the scan swapped: the deal re-judged on that order (None: no swap fits), and
        the draw's `move.accepted` records it (`confirm`). `trial`: the deal the draw is
        judged on, `deal` itself or, while a window is open, `deal` with it closed (the
        claim clock's trial: the draw closes the window first; None: the close is refused)."""
        if trial is None or not isinstance(move, mv.Draw | mv.ReplacementDraw):
            return None
        refused = trial.check(move)
        if refused is None or refused.reason is not mv.Reason.WALL_MISMATCH:
            return None
        found = swap_for(trial, self.uncertain, move)
        if found is None:
            return None
        i = found.index
        if i not in self.uncertain:  # a pair the scan did not mark: the draw journals it too
            self.uncertain = tuple(sorted((*self.uncertain, i)))
        order = swapped(deal.wall_order, i)
        self._check = {"positions": [i, i + 1], "order": "swapped"}
        log.info("wall positions %d and %d were the other way round: %s", i, i + 1, move)
        return Deal.replay(deal.rs, deal.dice, order, deal.history, prevalent=deal.prevalent)

    def swap_dealt(self, deal: Deal, i: int, why: str) -> Deal | None:
        """The dealt hands show scan positions i and i + 1 the other way round
        (controller/recognition/wall_doubt.py `dealt_swap`): the deal re-judged on that
        order (None: an accepted void choice does not fit it), and the next accepted move
        records it, as a draw's swap is."""
        order = swapped(deal.wall_order, i)
        try:
            rejudged = Deal.replay(
                deal.rs, deal.dice, order, deal.history, prevalent=deal.prevalent
            )
        except ValueError:
            return None  # the referee is called as before
        self._check = {"positions": [i, i + 1], "order": "swapped"}
        log.info("%s", why)
        return rejudged

    def confirm(self, deal: Deal, move: mv.Move) -> dict[str, Any] | None:
        """The `wall_check` of `move` about to be accepted: the first draw from an uncertain
        pair shows its order; a swap the dealt hands showed goes with the next move."""
        check, self._check = self._check, None
        if isinstance(move, mv.Draw | mv.ReplacementDraw):
            i = pair_of(next_index(deal, move), self.uncertain)
            if i is not None:
                self.uncertain = tuple(j for j in self.uncertain if j != i)
                return check or {"positions": [i, i + 1], "order": "scanned"}
        return check
