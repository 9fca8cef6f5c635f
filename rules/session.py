"""Between deals: who deals next, and the score of a session (Chengdu deal/time limits, WMT
rounds ranked 4/3/2/1).

Players are numbered 0-3 by their place at the table, in turn order (counter-clockwise);
in each deal the dealer sits East, so player `p` holds deal seat `(p - dealer) % 4`. Times
are plain numbers of seconds passed in by the caller (no clock here).

Next dealer (004 Lesson 4 "Dealership transfer", 002): nobody won → the same dealer; the
first Hu by one player → that player; the first Hu by several players on one discard (or
one robbed kong) → the discarder. A false Hu does not count (004 Lesson 5): if one of two
first Hu was false, the other declarer deals.

WMT ranking ties (000 2.10 gives 4/3/2/1 and says nothing of ties): tied players share the
rank points of the places they span equally (two tied for first get (4+3)/2 = 3.5 each), so
every round hands out 10 points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.moves import Won
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat


def next_dealer(wins: Sequence[Won]) -> Seat:
    """The deal seat of the next dealer (`Seat.E`: the dealer stays)."""
    valid = [w for w in wins if not w.false_hu]
    if not valid:
        return Seat.E
    first = min(w.order for w in valid)
    group = [w for w in valid if w.order == first]
    if len(group) == 1:
        return group[0].seat
    discarder = group[0].from_seat
    assert discarder is not None  # several Hu at once are always on one discarded tile
    return discarder


def rank_points(scores: Sequence[int], points: Sequence[int]) -> tuple[float, ...]:
    """WMT 000 2.10: rank points per player for one round (ties share, see above)."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    out = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = sum(points[i : j + 1]) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return tuple(out)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One finished deal as the session sees it."""

    dealer: int  # the player who dealt
    deltas: tuple[int, ...]  # points per player (not per seat)
    next_dealer: int


class Session:
    """A table's session: scores per player, the dealer, and when it is over."""

    def __init__(self, rs: RuleSet, first_dealer: int = 0, started_at: float = 0.0) -> None:
        if not 0 <= first_dealer <= 3:
            raise ValueError("players are numbered 0-3")
        self.rs = rs
        self.dealer = first_dealer
        self.started_at = started_at
        self.deals: list[DealRecord] = []

    def seat_of(self, player: int) -> Seat:
        """The deal seat of a player in the coming deal."""
        return SEATS[(player - self.dealer) % 4]

    def player_at(self, seat: Seat) -> int:
        return (self.dealer + seat) % 4

    def record(self, seat_deltas: Sequence[int], next_seat: Seat) -> DealRecord:
        """Add a finished deal: its deltas per deal seat (E S W N) and the deal seat of the
        next dealer (`rules.session.next_dealer`; `Deal.deltas()`)."""
        per_player = [0, 0, 0, 0]
        for seat in SEATS:
            per_player[self.player_at(seat)] = seat_deltas[seat]
        rec = DealRecord(self.dealer, tuple(per_player), self.player_at(next_seat))
        self.deals.append(rec)
        self.dealer = rec.next_dealer
        return rec

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(sum(d.deltas[p] for d in self.deals) for p in range(4))

    def time_up(self, now: float) -> bool:
        """The session time has run out (002: one hour in Chengdu); the deal in play ends
        (`rules.moves.EndDeal`, 004 Lesson 4)."""
        minutes = self.rs.session.minutes
        return minutes > 0 and now - self.started_at >= minutes * 60

    def over(self, now: float) -> bool:
        """No new deal starts: the deal limit is reached or the time is up (004 Lesson 4:
        "A new deal does not start if the maximum number of deals ... has been played")."""
        limit = self.rs.session.deals
        return (limit > 0 and len(self.deals) >= limit) or self.time_up(now)

    def rounds(self) -> tuple[tuple[float, ...], ...]:
        """WMT: rank points per player for each complete round of `hands_per_round` deals."""
        size = self.rs.session.hands_per_round
        points = self.rs.session.rank_points
        if size <= 0 or not points:
            return ()
        out = []
        for start in range(0, len(self.deals) - size + 1, size):
            chunk = self.deals[start : start + size]
            totals = [sum(d.deltas[p] for d in chunk) for p in range(4)]
            out.append(rank_points(totals, points))
        return tuple(out)

    def match_points(self) -> tuple[float, ...]:
        """WMT: rank points summed over the complete rounds."""
        rounds = self.rounds()
        return tuple(sum(r[p] for r in rounds) for p in range(4))
