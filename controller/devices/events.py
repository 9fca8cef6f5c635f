"""Typed hardware events: past-tense facts with the monotonic time they were seen.

Drivers produce these; the recogniser and the daemon consume them. Nothing here knows
about mahjong rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class LinkState(Enum):
    UP = "up"
    DOWN = "down"


@dataclass(frozen=True, slots=True)
class LinkChanged:
    """A device link came up or went down (unplugged cable, reconnect)."""

    t: float
    device: str  # "table", "reader", ...
    state: LinkState
    detail: str = ""


@dataclass(frozen=True, slots=True)
class TagsRead:
    """One inventory answer: the tag UIDs (EPC / NFCID bytes) one antenna saw."""

    t: float
    antenna: int  # 1-based antenna number (a reader's single spot is antenna 1)
    uids: tuple[bytes, ...]
    rssi: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class FrameError:
    """A corrupted or unexpected frame was skipped (counted, hex-logged, resynchronised)."""

    t: float
    device: str
    reason: str
    data: bytes = b""
