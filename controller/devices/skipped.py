"""Runs of bytes a decoder skipped: how many, and a short sample for the debug log.

A decoder facing a flood of noise (a wrong baud rate, a line held low) must not keep the
flood or hex it: only the count and the first `SAMPLE` bytes of a run are kept, and the
hex is built only when debug logging is on.
"""

from __future__ import annotations

import logging

SAMPLE = 16  # bytes of a skipped run kept for the log and the fault report


class SkipRun:
    """The current run of skipped bytes: `count` of them, the first `SAMPLE` in `sample`."""

    __slots__ = ("count", "sample")

    def __init__(self) -> None:
        self.count = 0
        self.sample = bytearray()

    def __bool__(self) -> bool:
        return self.count > 0

    def add(self, data: bytes | bytearray | memoryview) -> None:
        room = SAMPLE - len(self.sample)
        if room > 0:
            self.sample += data[:room]
        self.count += len(data)

    def end(self, log: logging.Logger, device: str) -> tuple[int, bytes]:
        """Close the run: log it at debug (count and sample), return them, start afresh."""
        count, sample = self.count, bytes(self.sample)
        if count and log.isEnabledFor(logging.DEBUG):
            log.debug("%s: skipped %d bytes%s", device, count, describe(sample, count))
        self.count = 0
        self.sample.clear()
        return count, sample


def describe(sample: bytes, count: int) -> str:
    """`: 01 02 …` for a whole run, `, first 16: 01 02 …` for a sample of a longer one."""
    if not sample:
        return ""
    if count > len(sample):
        return f", first {len(sample)}: {sample.hex(' ')}"
    return f": {sample.hex(' ')}"


def debug_hex(log: logging.Logger, what: str, data: bytes) -> None:
    """Log `what` and up to `SAMPLE` bytes of `data` at debug; nothing built when it is off."""
    if log.isEnabledFor(logging.DEBUG):
        log.debug("%s (%d bytes)%s", what, len(data), describe(data[:SAMPLE], len(data)))
