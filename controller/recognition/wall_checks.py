"""What the dealt hands and the draws say about the wall and the dealer, beside the judge
(a part of `Recogniser`, controller.recognition.recogniser): the dealer at another side than
the runtime said (`DealerMoved`), two neighbours of the scan the other way round (at the
dealing: `WallSwapped`; at a draw: the draw offered on the swapped wall,
controller.recognition.wall_doubt), and the note an alert gets when the scan was in doubt."""

from __future__ import annotations

from controller.alerts import AlertKind
from controller.profiles import TileCopy, ZoneKind
from controller.recognition.expected import Layout, expected, observed, residue
from controller.recognition.readings import Reading
from controller.recognition.reconcile import fork
from controller.recognition.results import DEALT, DealerMoved, Recognised, RefereeAlert, WallSwapped
from controller.recognition.wall_doubt import dealt_swap, swap_for
from rules.deal import Deal
from rules.moves import CloseClaims, Draw, ReplacementDraw
from rules.seats import SEATS, Seat


class WallChecks:
    """A part of `Recogniser` (the module's docstring says what it owns)."""

    def _dealer_moved(self, deal: Deal) -> list[Recognised] | None:
        """All dealt, but the hands fit the judge only with the dealer on another side (the
        runtime's idea of the dealer is off, e.g. after an abandoned deal): follow the table,
        since moves are in deal seats, and tell the referee."""
        hands = sum(n for s, n in self._seen.items() if s.zone.kind is ZoneKind.HAND)
        if hands != DEALT:
            return None
        fits = []
        for side in SEATS:
            if side is not self.layout.dealer_side:
                layout = Layout(self.reader, side)
                seen = observed(self._where, layout)
                if not residue(seen, expected(deal, layout)):
                    fits.append((side, layout, seen))
        if len(fits) != 1:
            return None
        side, layout, seen = fits[0]
        was = self.layout.dealer_side
        self.layout, self._seen, self._res_for = layout, seen, None
        text = f"the dealt hands show the dealer at side {side}, not {was}: seats follow the table"
        return [DealerMoved(side), RefereeAlert(AlertKind.DEALER_SIDE, None, text)]

    def _dealt_swap(self, deal: Deal) -> WallSwapped | None:
        """The dealt hands show two neighbours of the scan the other way round (once a deal;
        controller.recognition.wall_doubt.dealt_swap)."""
        if not self._scanned or self._swapped_dealt:
            return None
        order = self.scan.order()

        def seat_of(tc: TileCopy) -> Seat | None:
            z = self._where.get(tc)
            return None if z is None or z.seat is None else self.layout.seat(z.seat)

        on_table = sum(1 for z in self._where.values() if z.seat is not None)
        i = dealt_swap(deal, order, seat_of, on_table)
        if i is None:
            return None
        self._swapped_dealt = True
        a, b = order[i], order[i + 1]
        why = (
            f"the dealt hands show wall positions {i} ({a}) and {i + 1} ({b}) the other way "
            "round: the deal is judged on that order"
        )
        return WallSwapped(i, why)

    def _fits_swapped(self, deal: Deal, r: Reading) -> bool:
        """A draw refused as WALL_MISMATCH that the wall accepts with an uncertain pair of
        the scan swapped (controller.recognition.wall_doubt)."""
        take = r.moves[0]
        if not isinstance(take, Draw | ReplacementDraw):
            return False
        if r.closes:
            deal = fork(deal)
            deal.apply(CloseClaims())
        found = swap_for(deal, self._uncertain, take)
        if found is None:
            return False
        i = found.index
        a, b = deal.wall_order[i], deal.wall_order[i + 1]
        why = "read in the same rounds" if i in self._uncertain else "not marked as in doubt"
        self._swap_notes[take] = (
            f"the wall scan read positions {i} ({a}) and {i + 1} ({b}) ({why}): "
            f"this draw shows them the other way round"
        )
        return True

    def _scan_doubt(self, deal: Deal) -> str:
        """A note when the next live tile is one the wall scan could not place for sure."""
        left = deal.wall.remaining()
        if not self._scanned or not left:
            return ""
        i = left[0]
        doubt = set(self.scan.uncertain())
        if i in doubt or i - 1 in doubt:
            return " (the wall scan read this tile and its neighbour in the same rounds)"
        return ""
