"""Recovering after a restart or a lost device: when the table is reconciled again (the
reader having settled), events that came while the daemon could not judge them held back in
the order they came and given back once it can, and what a restart found, in words.

The core (runtime.py) replays a deal in progress from the journal after a restart and
reconciles it with what the reader sees; this module holds what that needs besides."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from typing import Any

from controller.daemon.boardless import DiceInferred
from controller.daemon.contracts import RECONCILE_TRIES
from controller.daemon.replay import Recovered
from controller.devices.events import DiceRolled, SeatButton, ShuffleDone, TagsRead, WallsUp
from controller.locale import Said, counted, says
from controller.recognition.recogniser import RefereeAlert
from controller.words import phase_said

log = logging.getLogger(__name__)

# the phases of the next deal before it is dealt (the walls are the next deal's)
NEXT_DEAL = ("shuffling", "walls_up", "dice_rolled")
HELD_LIMIT = 20_000  # events held while not ready (a wall scan is ~108 tiles x a few reads)

# the table events held while the core cannot judge them (the inferred dice too)
TableHeld = ShuffleDone | WallsUp | DiceRolled | DiceInferred | SeatButton
Held = TableHeld | TagsRead  # (a wall read, after a held shuffle)


class HoldBack:
    """A queue of what came while the core could not judge it: the table's events (never
    dropped: issue 13 items 1 and 4) and, after a held shuffle, the new walls' scan (while
    fewer than HELD_LIMIT items are held). `take` gives them back in the order they came, each with
    its own `t`."""

    def __init__(self, limit: int = HELD_LIMIT) -> None:
        self._items: deque[Held] = deque()
        self._shuffles = 0
        self.limit = limit

    def __len__(self) -> int:
        return len(self._items)

    @property
    def shuffled(self) -> bool:
        """A shuffle is held: the tiles on the table are the next deal's walls."""
        return self._shuffles > 0

    def hold(self, ev: TableHeld) -> None:
        """A table event (the board's, or the reader's standing in for it)."""
        self._items.append(ev)
        self._shuffles += isinstance(ev, ShuffleDone)

    def hold_wall_read(self, ev: TagsRead) -> None:
        """A read of the wall antenna after a held shuffle (dropped once `limit` items are
        held)."""
        if len(self._items) < self.limit:
            self._items.append(ev)

    def take(self) -> Held | None:
        """The oldest held item (None: nothing is held)."""
        if not self._items:
            return None
        ev = self._items.popleft()
        self._shuffles -= isinstance(ev, ShuffleDone)
        return ev


class Resume:
    """When the core judges the table again after a restart or a lost device. Once every
    link is back the reader reads `settle` rounds (the debouncer sees the table again)
    before the table is reconciled with the judge; a reconciliation that leaves it
    unexplained is tried again, `settle` rounds apart, RECONCILE_TRIES times, before the
    referee is called. The rounds are the core's count of the reader's rounds."""

    def __init__(self, settle: int, recovering: bool) -> None:
        self.settle = settle
        self.recovering = recovering  # a restart not reconciled yet
        self._at: int | None = None  # the round the table is reconciled at
        self._tries = 0
        self._table_lost = False  # the table's link was lost since the last reconciliation

    def links_back(self, rounds: int) -> None:
        """Every link is up again: reconcile once the reader has settled."""
        self._at = rounds + self.settle

    def link_lost(self, device: str) -> None:
        self._at = None
        self._table_lost = self._table_lost or device == "table"

    @property
    def buttons_unheard(self) -> bool:
        """The table's buttons may have gone unheard since the last reconciliation: the
        daemon restarted, or the table's link was lost (a board's bytes sent while no port
        is open go nowhere, until the daemon has opened it again)."""
        return self.recovering or self._table_lost

    def due(self, rounds: int) -> bool:
        """Whether the table is to be reconciled now (said once)."""
        if self._at is None or rounds < self._at:
            return False
        self._at = None
        return True

    def again(self, rounds: int) -> bool:
        """The reconciliation explained nothing: whether it is tried again (`settle` rounds
        on) rather than the referee called."""
        if self._tries >= RECONCILE_TRIES:
            return False
        self._tries += 1
        self._at = rounds + self.settle
        return True

    def done(self) -> None:
        """The table is reconciled (or a restart found the deal over): the core judges."""
        self._tries = 0
        self.recovering = False
        self._table_lost = False


def restarted_words(rec: Recovered, number: int = 0) -> Said:
    """What a restart found, as a sentence: "deal 5 resumed (waiting for a discard): 43
    moves replayed from the journal", "between deals (deal settled): nothing to replay";
    the deal named `number` (its number in the session, as the board names it), else by
    the journal's count."""
    where = phase_said(rec.phase)
    if not rec.deal_no:
        return says("between deals ({where}): nothing to replay", where=where)
    return says(
        "deal {n} resumed ({where}): {moves} replayed from the journal",
        n=number or rec.deal_no,
        where=where,
        moves=counted(len(rec.moves), "{n} move", "{n} moves"),
    )


def unexplained(results: Sequence[Any]) -> bool:
    """A reconciliation that could not explain the table (its RECOVERY alert)."""
    return any(
        isinstance(r, RefereeAlert) and getattr(r.kind, "value", "") == "recovery" for r in results
    )
