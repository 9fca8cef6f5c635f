"""Clocks: the daemon and the journal read time only through one of these, so tests never
sleep. `Clock` is what they take; `SystemClock` real time, `FakeClock` time that moves only when
told to."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """Monotonic seconds for event times and timers; the wall time as ISO 8601 with a UTC
    offset for records (the journal's `Stamp`)."""

    def monotonic(self) -> float: ...
    def wall(self) -> str: ...


class SystemClock:
    """Real time: `time.monotonic()` and the UTC wall clock in ISO 8601 (milliseconds)."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> str:
        return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class FakeClock:
    """A clock that moves only when told to."""

    now: float = 1000.0
    epoch: datetime = field(default_factory=lambda: datetime(2026, 1, 1, tzinfo=UTC))

    def monotonic(self) -> float:
        return self.now

    def wall(self) -> str:
        moment = self.epoch.timestamp() + self.now
        return datetime.fromtimestamp(moment, UTC).isoformat(timespec="milliseconds")

    def advance(self, seconds: float) -> None:
        self.now += seconds
