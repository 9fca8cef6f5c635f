"""Clocks: the daemon reads time only through one of these, so tests never sleep."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float: ...
    def wall(self) -> str: ...  # ISO 8601, UTC


class SystemClock:
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
