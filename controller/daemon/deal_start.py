"""What a deal waits for before the judge can deal it: the walls' scan and the dice, or with
no wall antenna the dealt hands once the dice are rolled; and when it has waited too long."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.alerts import AlertKind
from controller.journal.payloads import deal_seat
from controller.profiles import TileCopy, ZoneKind
from rules.seats import SEATS, Seat
from rules.wall import Dice

WALL_SCAN_WAIT = 3.0  # seconds after the dice for the wall scan (or the dealt hands)


@dataclass(frozen=True, slots=True)
class Rolled:
    """The dice a deal starts with: when they were rolled, and what `deal.started` says of
    where they came from (a board's: nothing; boardless.py: read off the hands, or the
    referee's)."""

    t: float
    dice: Dice
    note: Mapping[str, object]


class DealStart:
    """The scanned wall (`scan`, tile copies in physical order) and the dice waiting for it
    (`waiting`), from a shuffle to the deal's start. `wall_antenna`: the table has one (else
    the judge starts from the dealt hands, `dealt_hands`)."""

    def __init__(self, wall_antenna: bool) -> None:
        self.wall_antenna = wall_antenna
        self.scan: tuple[TileCopy, ...] | None = None
        self.waiting: Rolled | None = None
        self._since = 0.0  # when the waiting dice were judged (held ones: later)
        self._hands_late = False

    def shuffled(self) -> None:
        """A new deal's walls are being built: nothing of the last one counts."""
        self.scan = None
        self.waiting = None
        self._hands_late = False

    def scanned(self, order: tuple[TileCopy, ...]) -> Rolled | None:
        """The walls' scan is complete: the dice that waited for it, if any."""
        self.scan = order
        return self.waiting

    def rolled(self, rolled: Rolled, now: float) -> Rolled | None:
        """The dice are rolled: they are returned to deal with at once when the scan is known;
        else they wait for it (or, with no wall antenna, for the dealt hands)."""
        if self.scan is not None:
            return rolled
        self.waiting = rolled
        self._since = now
        return None

    def taken(self) -> None:
        """The waiting dice were dealt with (a deal started, or could not be)."""
        self.waiting = None

    def overdue(self, now: float) -> AlertKind | None:
        """Said once when the dice have waited WALL_SCAN_WAIT: with a wall antenna the scan
        did not come (the dice are dropped: this deal cannot be judged); without one, the
        hands are not read yet (they are still waited for)."""
        if self.waiting is None or now - self._since <= WALL_SCAN_WAIT:
            return None
        if self.wall_antenna:
            self.waiting = None
            return AlertKind.NO_WALL_SCAN
        if self._hands_late:
            return None
        self._hands_late = True
        return AlertKind.NO_DEALT_HANDS


def dealt_hands(presence: Mapping[Any, Any], dealer: Seat) -> dict[Seat, tuple[Any, ...]] | None:
    """The dealt hands (deal seats) when the tiles on the table are exactly a deal: every
    tile in a hand zone, East (the dealer's side) 14, the others 13; else None."""
    hands: dict[Seat, list[Any]] = {s: [] for s in SEATS}
    for tc, zone in presence.items():
        if zone.kind is not ZoneKind.HAND or zone.seat is None:
            return None  # a tile in a river, a meld, the void spot: not a fresh deal
        hands[deal_seat(zone.seat, dealer)].append(tc.tile)
    if any(len(hands[s]) != (14 if s is Seat.E else 13) for s in SEATS):
        return None
    return {s: tuple(sorted(hands[s])) for s in SEATS}
