"""What the wall scan, the dealt hands and the draws say about the wall and the dealer,
beside the judge: the scanned order (`WallScanned`), two neighbours of the scan the other
way round (at the dealing: `WallSwapped`; at a draw: the draw offered on the swapped wall,
controller.recognition.wall_doubt), the note an alert gets when the scan was in doubt, and
the dealer at another side than the runtime said (`dealer_shown`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.alerts import AlertKind
from controller.devices.events import TagsRead
from controller.locale import Said, says
from controller.profiles import ReaderProfile, TagMap, TileCopy, Zone, ZoneKind
from controller.recognition.alert_said import copy_said, seat_said, swapped_draw
from controller.recognition.expected import Layout, Tally, expected, observed, residue
from controller.recognition.readings import Reading
from controller.recognition.reconcile import fork
from controller.recognition.results import (
    DEALT,
    DealerMoved,
    Recognised,
    RefereeAlert,
    WallScanned,
    WallSwapped,
)
from controller.recognition.wall_doubt import dealt_swap, swap_for
from controller.recognition.wall_scan import WallScan
from rules.deal import Deal
from rules.moves import CloseClaims, Draw, Move, ReplacementDraw
from rules.seats import SEATS, Seat


class WallChecks:
    """The wall antenna's scan of one deal's wall, and the doubts the table raises about it."""

    def __init__(self, reader: ReaderProfile, tags: TagMap) -> None:
        self.scan = WallScan(reader, tags)
        self._reset()

    def _reset(self) -> None:
        self.scanned = False
        self.uncertain: tuple[int, ...] = ()  # the scan's pairs (i, i + 1) of unknown order
        self._swap_notes: dict[Move, Said] = {}  # draws that fit the wall with a pair swapped
        self._swapped_dealt = False  # the dealt hands showed a pair swapped (once a deal)

    def new_deal(self) -> None:
        """The shuffle: the next wall is scanned afresh."""
        self.scan.reset()
        self._reset()

    def on_wall_read(self, read: TagsRead) -> list[Recognised]:
        out: list[Recognised] = []
        for p in self.scan.feed(read):
            if p.copy is None:
                said = says(
                    "wall antenna {antenna}: unknown tag {uid}",
                    antenna=read.antenna,
                    uid=p.uid.hex(),
                )
                out.append(RefereeAlert(AlertKind.UNKNOWN_TAG, None, said))
            else:
                said = says(
                    "wall antenna {antenna}: {copy} seen under a second tag {uid}",
                    antenna=read.antenna,
                    copy=copy_said(p.copy),
                    uid=p.uid.hex(),
                )
                out.append(RefereeAlert(AlertKind.DUPLICATE_TILE, None, said))
        if not self.scanned and self.scan.complete and self.scan.field_clear(read):
            out.append(self._wall_scanned())
        return out

    def at_start(self, deal: Deal) -> list[Recognised]:
        """The deal starts: the scan if it is complete (the field need not be clear now),
        and an alert when the judge's wall is not the scanned one."""
        out: list[Recognised] = []
        if not self.scanned and self.scan.complete:
            out.append(self._wall_scanned())
        if self.scanned:
            scanned = tuple(tc.tile for tc in self.scan.order())
            if scanned != tuple(deal.wall_order):
                said = Said("the judge's wall is not the scanned wall: draws are not checked by it")
                out.append(RefereeAlert(AlertKind.WALL_MISMATCH, None, said))
        return out

    def _wall_scanned(self) -> WallScanned:
        self.scanned = True
        self.scan.done = True
        self.uncertain = self.scan.uncertain()
        return WallScanned(self.scan.order(), self.uncertain)

    def on_wall_doubt(self, uncertain: tuple[int, ...]) -> None:
        """The scan's pairs of unknown order, after a restart (the scan is not replayed)."""
        self.uncertain = tuple(uncertain)

    def dealt_swap(
        self, deal: Deal, where: Mapping[TileCopy, Zone], layout: Layout
    ) -> WallSwapped | None:
        """The dealt hands show two neighbours of the scan the other way round (once a deal;
        controller.recognition.wall_doubt.dealt_swap)."""
        if not self.scanned or self._swapped_dealt:
            return None
        order = self.scan.order()

        def seat_of(tc: TileCopy) -> Seat | None:
            z = where.get(tc)
            return None if z is None or z.seat is None else layout.seat(z.seat)

        on_table = sum(1 for z in where.values() if z.seat is not None)
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

    def fits_swapped(self, deal: Deal, r: Reading) -> bool:
        """A draw refused as WALL_MISMATCH that the wall accepts with an uncertain pair of
        the scan swapped (controller.recognition.wall_doubt); its note waits in
        `swap_note`."""
        take = r.moves[0]
        if not isinstance(take, Draw | ReplacementDraw):
            return False
        if r.closes:
            deal = fork(deal)
            deal.apply(CloseClaims())
        found = swap_for(deal, self.uncertain, take)
        if found is None:
            return False
        i = found.index
        a, b = deal.wall_order[i], deal.wall_order[i + 1]
        self._swap_notes[take] = swapped_draw(i, a, b, i in self.uncertain)
        return True

    def swap_note(self, move: Move) -> Said | None:
        """The note `fits_swapped` left for this draw, once."""
        return self._swap_notes.pop(move, None)

    def scan_doubt(self, deal: Deal) -> str:
        """A note when the next live tile is one the wall scan could not place for sure."""
        left = deal.wall.remaining()
        if not self.scanned or not left:
            return ""
        i = left[0]
        doubt = set(self.scan.uncertain())
        if i in doubt or i - 1 in doubt:
            return " (the wall scan read this tile and its neighbour in the same rounds)"
        return ""


@dataclass(frozen=True, slots=True)
class DealerShown:
    """The dealt hands fit the judge only with the dealer at another side: the layout and
    the tally from that side, and what is said about it."""

    layout: Layout
    seen: Tally
    said: tuple[Recognised, ...]


def dealer_shown(
    deal: Deal, where: Mapping[TileCopy, Zone], seen: Tally, reader: ReaderProfile, was: Seat
) -> DealerShown | None:
    """All dealt, but the hands fit the judge only with the dealer on another side than `was`
    (the runtime's idea of the dealer is off, e.g. after an abandoned deal): follow the table,
    since moves are in deal seats, and tell the referee."""
    hands = sum(n for s, n in seen.items() if s.zone.kind is ZoneKind.HAND)
    if hands != DEALT:
        return None
    fits = []
    for side in SEATS:
        if side is not was:
            layout = Layout(reader, side)
            tally = observed(where, layout)
            if not residue(tally, expected(deal, layout)):
                fits.append((side, layout, tally))
    if len(fits) != 1:
        return None
    side, layout, tally = fits[0]
    said = says(
        "the dealt hands show the dealer at side {side}, not {was}: seats follow the table",
        side=seat_said(side),
        was=seat_said(was),
    )
    return DealerShown(
        layout, tally, (DealerMoved(side), RefereeAlert(AlertKind.DEALER_SIDE, None, said))
    )
