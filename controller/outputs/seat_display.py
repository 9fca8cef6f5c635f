"""The seat displays on the table: each seat's running score, and the claim countdown.

The table driver (`controller/devices/table.py`) turns `ShowScore` / `ShowCountdown` commands
into the profile's bytes; this module decides *when* and *what* to show, from the published
`PublicView`s, and hands it to plain callables so it plugs into the driver or a recorder:

    displays = SeatDisplays(
        send=lambda seat, score: table.send(ShowScore(seat, score)),
        countdown=(lambda seat, s: table.send(ShowCountdown(seat, s)))
        if driver.supports(ShowCountdown) else None,     # only if the profile has it
    )
    displays.update(view)    # after every published view

A display shows the seat's running score: the session total plus what the deal has paid it
so far (PublicView `score + deal_delta` while the deal is played), sent to a seat whenever it changes — after every
payment during the deal (a kong, each Hu, a penalty), not only at the settlement. After a
settlement every seat gets its score, changed or not, so a display that was power-cycled
catches up. The countdown
is whole seconds, rounded up (3, 2, 1), sent only when the figure changes, to the seats that
may still claim (not the discarder, not players who have already won: RULES.md, blood
battle); when the window closes those displays get 0, which the table shows as blank.

A referee call (issue 13: the deal waits for the referee) lights every seat's light and
sounds the buzzer once, where the profile has them; the lights go out when the call is
answered, and the first view after a start says which (a killed daemon may have left them
on). Four lights at once is the table's "referee called" (a turn lights one seat).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass

from controller.outputs.view import PublicView, SeatView
from rules.seats import SEATS, Seat

log = logging.getLogger(__name__)

SETTLED_PHASE = "settled"  # controller/daemon/machine.py: deal_over → settled

# the phases of a deal whose payments are not yet in the session totals (`score`)
IN_DEAL = ("dealing", "choosing_void", "deal_over")


def running_score(view: PublicView, seat_view: SeatView) -> int:
    """The seat's score now: the session total plus what the deal has paid so far while the
    deal is played; from the settlement on the total holds the deal's changes already."""
    if view.phase in IN_DEAL or view.phase.startswith("playing"):
        return seat_view.score + seat_view.deal_delta
    return seat_view.score


# what a send returns (the table's `command`: whether it went out) is not used
SendScore = Callable[[Seat, int], object]
SendCountdown = Callable[[Seat, int], object]
SendLight = Callable[[Seat, bool], object]
SendBuzzer = Callable[[int], object]
BUZZ_MS = 600  # the buzzer's sound when the referee is called


@dataclass(frozen=True, slots=True)
class ScoreShown:
    seat: Seat
    score: int


@dataclass(frozen=True, slots=True)
class CountdownShown:
    seat: Seat
    seconds: int


@dataclass(frozen=True, slots=True)
class CallShown:
    """The table's referee call went on or off (seat lights, the buzzer when it went on)."""

    on: bool


Shown = ScoreShown | CountdownShown | CallShown


class SeatDisplays:
    def __init__(
        self,
        send: SendScore,
        countdown: SendCountdown | None = None,
        light: SendLight | None = None,
        buzzer: SendBuzzer | None = None,
    ) -> None:
        self._send = send
        self._countdown = countdown
        self._light = light
        self._buzzer = buzzer
        # the lights show a referee call; None: unknown (a restarted daemon puts out lights
        # a killed one left on)
        self._called: bool | None = None
        self._settled_key: tuple[int, int] | None = None  # (session, deal) last shown
        self._shown: dict[Seat, int] = {}  # the running score each display shows
        self._counting: tuple[Seat, ...] = ()  # seats currently showing a countdown
        self._last_second: int | None = None
        self.failures = 0

    @property
    def has_countdown(self) -> bool:
        return self._countdown is not None

    def update(self, view: PublicView) -> tuple[Shown, ...]:
        """React to a newly published view; returns what was sent."""
        shown: list[Shown] = []
        key = (view.session, view.deal)
        if view.phase == SETTLED_PHASE and key != self._settled_key:
            self._settled_key = key
            shown += self.show_scores(view)
        else:
            shown += self._running(view)
        if self._countdown is not None:
            shown += self._update_countdown(view)
        if view.referee_called != self._called and (self._light or self._buzzer):
            shown += self._call_referee(view.referee_called)
        return tuple(shown)

    def table_back(self) -> None:
        """The table's board was away (a cable out): what it shows may be stale, so the next
        view sends the referee call's state and every seat's score again (a lights-off sent
        while the cable was out left the players waiting for a referee nobody called)."""
        self._called = None
        self._shown = {}

    def _call_referee(self, on: bool) -> list[Shown]:
        self._called = on
        if self._light is not None:
            for seat in SEATS:
                self._call(self._light, seat, on)
        if on and self._buzzer is not None:
            self._call(self._buzzer, BUZZ_MS)
        return [CallShown(on)]

    def show_scores(self, view: PublicView) -> tuple[ScoreShown, ...]:
        """Send every seat its running score now, changed or not (after a settlement, or a
        referee correction)."""
        return self._scores(view, every=True)

    def _running(self, view: PublicView) -> tuple[ScoreShown, ...]:
        """The seats whose running score changed since it was last shown."""
        return self._scores(view, every=False)

    def _scores(self, view: PublicView, every: bool) -> tuple[ScoreShown, ...]:
        shown = []
        for seat_view in view.seats:
            seat = Seat.parse(seat_view.seat)
            score = running_score(view, seat_view)
            if not every and self._shown.get(seat) == score:
                continue
            if self._call(self._send, seat, score):
                self._shown[seat] = score
                shown.append(ScoreShown(seat, score))
        return tuple(shown)

    def _update_countdown(self, view: PublicView) -> list[Shown]:
        assert self._countdown is not None
        if view.claim_remaining_s is None:
            if not self._counting:
                return []
            seats, self._counting, self._last_second = self._counting, (), None
            return [CountdownShown(s, 0) for s in seats if self._call(self._countdown, s, 0)]
        seconds = max(0, math.ceil(view.claim_remaining_s - 1e-9))
        claimants = tuple(
            Seat.parse(s.seat) for s in view.seats if s.hu_order is None and s.seat != view.turn
        )
        if seconds == self._last_second and claimants == self._counting:
            return []
        # Seats that dropped out of the window (they just won on this discard) are blanked.
        leaving = [s for s in self._counting if s not in claimants]
        self._last_second, self._counting = seconds, claimants
        shown: list[Shown] = [
            CountdownShown(s, 0) for s in leaving if self._call(self._countdown, s, 0)
        ]
        shown += [
            CountdownShown(s, seconds) for s in claimants if self._call(self._countdown, s, seconds)
        ]
        return shown

    def _call(self, fn: Callable[..., object], *args: object) -> bool:
        # A display write that fails (cable out, driver refusing) must not stop the others
        # nor the daemon: it is logged and counted, the next settlement sends again.
        try:
            fn(*args)
        except Exception:
            self.failures += 1
            log.exception("seat display: sending %r failed", args)
            return False
        return True
