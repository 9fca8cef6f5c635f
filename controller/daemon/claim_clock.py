"""The claim clock: when a claim or robbing window is due to close (its time up, held while a
CHOW waits for its tiles), what its `claim.window` records say, and the deal moves are read
against while it is open (as if it had closed).

It decides; the core journals and applies. `due` and `on_timer` answer `CloseClaims` (or an
`OverTime` warning) for the core to offer the judge; `opened`/`closed` give the payloads of
the `claim.window` records the core appends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.daemon.machine import Timer, TimerFired
from controller.journal.payloads import table_seat
from rules import moves as mv
from rules.claims import ClaimWindow, is_claim
from rules.deal import Deal
from rules.seats import Seat


@dataclass(frozen=True, slots=True)
class OverTime:
    """The player whose turn it is (deal seat) has taken longer than the move clock."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Closed:
    """A copy of the judge with its open window closed, and the judge's answer to the close."""

    deal: Deal
    result: mv.Accepted


def trial_closed(deal: Deal) -> Deal | None:
    """The deal as if its open window closed now (None: the close is refused)."""
    closed = _closed(deal)
    return None if closed is None else closed.deal


def _closed(deal: Deal) -> Closed | None:
    trial = deal.copy()
    result = trial.apply(mv.CloseClaims())
    return Closed(trial, result) if isinstance(result, mv.Accepted) else None


def closes_early(deal: Deal, move: mv.Move) -> bool:
    """A turn move seen while a window is open closes it early when, after closing, the
    judge would accept it (the next player's draw, the claimer's discard)."""
    if not _may_close(deal, move):
        return False
    trial = trial_closed(deal)
    return trial is not None and trial.check(move) is None


def _may_close(deal: Deal, move: mv.Move) -> bool:
    return deal.window is not None and not is_claim(move) and not isinstance(move, mv.CloseClaims)


class ClaimClock:
    """The windows' timing and records, and the move clock's warning (core thread only).

    `holds()` says whether the recogniser holds the window for a CHOW's tiles."""

    def __init__(self, claim_seconds: float, move_seconds: float, holds: Callable[[], bool]):
        self.claim_seconds = claim_seconds
        self.move_seconds = move_seconds
        self._holds = holds
        self.journalled_open = False  # a `claim.window` "opened" awaits its "closed"
        self.closed_at: float | None = None  # when the last window closed
        self._close_held = False  # the time ran out while a CHOW waited for its tiles
        self._over_time_warned = False
        self._countdown_second: int | None = None
        # the deal as if its window closed (`trial`), made once per move: the deal it was
        # made of, that deal's history's length then, the trial (None: the close refused)
        self._trial: tuple[Deal, int, Closed | None] | None = None

    def as_seen(self, deal: Deal | None) -> Deal | None:
        """The deal tile movements are read against. While a claim window is open, tiles
        that move are the window's resolution or the next turn (a table does not wait for
        the claim clock): they are read against the deal *as if the window had closed now*,
        and a move read that way closes the window early (`closes_early`). Buttons are read
        against the real deal (claims go into the open window), and so is everything while
        the window's close would end the deal (the last discard: only its claims can follow,
        and claims shown by the tiles are read on the open window, issue 18)."""
        if deal is None or deal.window is None:
            return deal
        trial = self.trial(deal)
        return trial if trial is not None and not trial.over else deal

    def trial(self, deal: Deal) -> Deal | None:
        """`trial_closed(deal)`, made once per move of the deal (a copy of the judge):
        the tiles' next move is read against it (`as_seen`), and then offered to the judge
        (`closes_early`). Not to be changed: it is the same value until the deal moves."""
        closed = self._closed(deal)
        return None if closed is None else closed.deal

    def _closed(self, deal: Deal) -> Closed | None:
        made = self._trial
        if made is None or made[0] is not deal or made[1] != len(deal.history):
            made = self._trial = deal, len(deal.history), _closed(deal)
        return made[2]

    def take(self, deal: Deal) -> Closed:
        """The trial of `deal` (its window closed), given up to the core, which plays on it
        the move that closed the window early (`closes_early`) and makes it the judge once
        committed: the live judge is not closed and copied again."""
        closed = self._closed(deal)
        assert closed is not None, "taken only after closes_early said yes"
        self._trial = None
        return closed

    def closes_early(self, deal: Deal, move: mv.Move) -> bool:
        """`closes_early(deal, move)` on the trial made for this move of the deal."""
        if not _may_close(deal, move):
            return False
        trial = self.trial(deal)
        return trial is not None and trial.check(move) is None

    def forget(self) -> None:
        """The judge was replaced (a wall reordered, the referee's corrections)."""
        self._trial = None

    def opened(self, window: ClaimWindow, dealer: Seat) -> dict[str, Any]:
        """The payload of the `claim.window` record that opens `window`."""
        self.journalled_open = True
        return {
            "state": "opened",
            **_named(window, dealer),
            "deadline": self.claim_seconds,
            "eligible": [table_seat(s, dealer).name for s in window.eligible],
        }

    def closed(self, window: ClaimWindow, dealer: Seat, closed_by: str, t: float) -> dict[str, Any]:
        """The payload of the `claim.window` record that closes `window` at `t`."""
        self.journalled_open = False
        self.closed_at = t
        return {
            "state": "closed",
            **_named(window, dealer),
            "closed_by": closed_by,
            "claims": {
                table_seat(s, dealer).name: type(c).__name__.lower() for s, c in window.declared
            },
        }

    def resumed(self, open_window: bool) -> None:
        """After a restart or a correction: whether a window stands journalled open."""
        self.journalled_open = open_window

    def late(self, read_at: float) -> float | None:
        """How long after the last window closed a claim was read (negative: read before
        it closed, for a discard not read yet); None: no window has closed."""
        return None if self.closed_at is None else read_at - self.closed_at

    def on_timer(self, fired: TimerFired, deal: Deal | None) -> mv.CloseClaims | OverTime | None:
        """What a table-machine timer means for the deal: its window closes (unless a CHOW
        holds it: then `due` says when), or its player is warned once per move."""
        if deal is None or deal.over:
            return None
        if fired.timer in (Timer.CLAIM, Timer.ROBBING) and deal.window is not None:
            if self._holds():
                self._close_held = True
                return None
            return mv.CloseClaims()
        if fired.timer is Timer.MOVE and not self._over_time_warned:
            self._over_time_warned = True
            return OverTime(deal.turn)
        return None

    def due(self, deal: Deal | None) -> mv.CloseClaims | None:
        """A close held for a CHOW's tiles, due once they are read (or the window is gone)."""
        if not self._close_held:
            return None
        if deal is None or deal.over or deal.window is None:
            self._close_held = False
            return None
        if self._holds():
            return None
        self._close_held = False
        return mv.CloseClaims()

    def new_move(self) -> None:
        """The table moved to a new phase or turn: the move clock's warning may come again."""
        self._over_time_warned = False

    def countdown(self, remaining: float | None) -> bool:
        """Whether the whole seconds left of the claim window changed (the views show them)."""
        second = None if remaining is None else int(-(-remaining // 1))
        changed = second != self._countdown_second
        self._countdown_second = second
        return changed


def _named(window: ClaimWindow, dealer: Seat) -> dict[str, Any]:
    """What names a window in its `claim.window` records: its kind, discarder and tile."""
    return {
        "kind": window.kind.value,
        "discarder": table_seat(window.discarder, dealer).name,
        "tile": str(window.tile),
    }
