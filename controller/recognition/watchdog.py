"""The recogniser's safety net: a table that differs from the judge for `grace` seconds with
no move accepted, and no other alert about it, raises one STALLED alert (issue 5 item 2: "a
reading that fits no legal move ... raises a referee alert and waits").

The recogniser's other alerts wait for a residue that stays the same (`settle`, `grace`
counted from its last change). At a fast table the residue changes with every move the
players make, so a judge stuck behind one missed move heard nothing for a whole deal (seen
once in about 60 noisy simulated deals: seed 101, deal 3, while voids were chosen). This
clock starts when the residue becomes non-empty and is reset only by an accepted move or an
empty residue, never by the table changing.

It is armed once the deal is dealt (the hands held their tiles, or a move was accepted, or
the hand zones hold every dealt tile): while the table deals, the residue is the tiles still
in the wall and shrinks for seconds with nothing to accept. A dealing that stops short (no
tile landing in a hand for `DEALING_GRACE` graces) arms it too.
"""

from __future__ import annotations

from dataclasses import dataclass

DEALING_GRACE = 4  # graces with no tile landing in a hand before a short dealing stalls


@dataclass(slots=True)
class StallWatch:
    grace: float
    since: float | None = None  # the residue has been non-empty with no move accepted
    raised: bool = False  # one alert per stall
    dealing: tuple[int, float] | None = None  # tiles in the hands, and since when

    def dealing_starts(self) -> None:
        """A deal starts: its dealing's progress is counted from the next check."""
        self.dealing = None

    def dealing_stopped(self, now: float, hands: int) -> bool:
        """No tile has landed in a hand (`hands`: the tiles the hand zones hold) for
        `DEALING_GRACE` graces."""
        if self.dealing is None or self.dealing[0] != hands:
            self.dealing = (hands, now)
        return now - self.dealing[1] >= DEALING_GRACE * self.grace

    def reset(self) -> None:
        """A move was accepted or the residue is empty: the table and the judge agree."""
        self.since = None
        self.raised = False

    def start(self, t: float | None) -> None:
        """The table changed at `t` and differs from the judge: the clock runs from then
        unless it already runs (an event's time is earlier than the next tick's)."""
        if self.since is None and t is not None:
            self.since = t

    def told(self) -> None:
        """Another alert said what is wrong with the table: this stall needs none."""
        self.raised = True

    def check(self, now: float, unexplained: bool, armed: bool) -> float | None:
        """The stall's age when an alert is due now (once per stall), else None."""
        if not unexplained or not armed:
            self.reset()
            return None
        if self.since is None:
            self.since = now
            return None
        age = now - self.since
        if self.raised or age < self.grace:
            return None
        self.raised = True
        return age
