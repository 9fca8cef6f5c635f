"""The daemon's device inputs on their way into the journal, and read back out of it.

`InputLog` keeps the reader bus's steps and the table's bytes as the core thread handles
them and commits them as one `hw.batch` record (controller/journal/inputs.py) ahead of the
next record anything else appends — in the same transaction — or on its own once the batch
spans `max_age` seconds or `max_items` inputs (the runtime also flushes it when a wall
antenna's read changed, `Runtime._on_bus`). So every record a decision writes follows
every input handled before it, and a batch is a few hundred bytes instead of a record per
answer (issue 15 item 2). A batch holds the inputs of one deal (the record's `deal`); the
coder starts afresh (a key batch) whenever the deal changes, so a deal's inputs are read
from its own records, and every `key_every` batches, so a damaged batch spoils no more than
that and a reader never decodes far back.

`replay_presence` reads them back: the reader steps fed to a fresh debouncer, rounds closed
exactly as the runtime closes them (`round_time`), give the presence changes the daemon saw.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from controller.devices.events import TagsRead
from controller.journal.inputs import (
    InputEncoder,
    InputItem,
    ReaderStep,
    journal_inputs,
    round_time,
)
from controller.journal.records import Record, RecordKind, Source, Stamp
from controller.journal.store import Journal
from controller.recognition.presence import Alert, Debouncer, PresenceChange

Entry = tuple[Source, RecordKind, dict[str, Any], int | None, Stamp]


class InputLog:
    def __init__(
        self,
        journal: Journal,
        wall: Callable[[], str],
        max_age: float = 1.0,
        max_items: int = 400,
        key_every: int = 256,
    ) -> None:
        self.journal = journal
        self.wall = wall
        self.max_age = max_age
        self.max_items = max_items
        self.key_every = key_every
        self.batches = 0  # committed
        self._lock = threading.Lock()
        self._items: list[InputItem] = []
        self._deal: int | None = None
        self._coded_deal: object = object()  # the deal of the last batch coded
        self._encoder = InputEncoder()
        journal.set_prelude(self)

    def add(self, item: InputItem, deal: int | None) -> None:
        """Keep an input the core has just handled; `deal`: the deal open then."""
        with self._lock:
            other_deal = bool(self._items) and deal != self._deal
        if other_deal:
            self.flush()
        with self._lock:
            self._items.append(item)
            self._deal = deal
            full = len(self._items) >= self.max_items
            old = item.t - self._items[0].t >= self.max_age
        if full or old:
            self.flush()

    def flush(self) -> None:
        """Commit what is kept now (a batch of its own)."""
        entries = self.take()
        if entries:
            try:
                self.journal.append_many(entries)
            except BaseException:
                self.lost()
                raise

    def pending(self) -> int:
        with self._lock:
            return len(self._items)

    # the journal's prelude: called under its lock, ahead of every append
    def take(self) -> list[Entry]:
        with self._lock:
            if not self._items:
                return []
            items, self._items = self._items, []
            if self._deal != self._coded_deal or self.batches % self.key_every == 0:
                self._encoder.reset()
                self._coded_deal = self._deal
            payload = self._encoder.encode(items)
            self.batches += 1
            return [
                (
                    Source.DAEMON,
                    RecordKind.HW_BATCH,
                    payload,
                    self._deal,
                    Stamp(items[-1].t, self.wall()),
                )
            ]

    def lost(self) -> None:
        """The batch taken was not committed: the next one is coded on its own."""
        with self._lock:
            self._encoder.reset()


def reader_steps(records: Iterable[Record]) -> list[ReaderStep]:
    """The reader bus's steps held by `records`' batches, in the order they were handled."""
    return [item for _, item in journal_inputs(records) if isinstance(item, ReaderStep)]


def replay_presence(
    steps: Iterable[ReaderStep], debouncer: Debouncer
) -> list[list[PresenceChange | Alert]]:
    """Feed `steps` to `debouncer` as the runtime does; each round's changes, in order."""
    rounds: list[list[PresenceChange | Alert]] = []
    reads_t: float | None = None
    for step in steps:
        for ev in step.events:
            if isinstance(ev, TagsRead):
                debouncer.observe(ev)
                reads_t = ev.t
        if step.round_done:
            rounds.append(debouncer.end_round(round_time(step.t, reads_t)))
            reads_t = None
    return rounds
