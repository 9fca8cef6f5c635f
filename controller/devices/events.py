"""Typed hardware events: past-tense facts with the monotonic time they were seen.

Drivers produce these; the recogniser and the daemon consume them. Nothing here knows
about mahjong rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from controller.profiles import CommandKind
from rules.seats import Seat


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


# ---- table controller events (controller/devices/table.py; codes from the table profile)


class Button(Enum):
    """A seat button on the table's edge; VOID_* announce the void suit (定缺); CHOW (吃) is
    for rule sets that claim chows (Wellness, 001 IV 2.1)."""

    HU = "hu"
    PUNG = "pung"
    KONG = "kong"
    PASS = "pass"
    VOID_M = "void-m"
    VOID_P = "void-p"
    VOID_S = "void-s"
    CHOW = "chow"


@dataclass(frozen=True, slots=True)
class ShuffleDone:
    t: float


@dataclass(frozen=True, slots=True)
class WallsUp:
    t: float


@dataclass(frozen=True, slots=True)
class DiceRolled:
    t: float
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class SeatButton:
    t: float
    seat: Seat
    button: Button


@dataclass(frozen=True, slots=True)
class TableFault:
    t: float
    code: int  # the board's own fault number, as the profile's fault event carries it


@dataclass(frozen=True, slots=True)
class LidChanged:
    t: float
    open: bool


@dataclass(frozen=True, slots=True)
class CommandAcked:
    """The table acknowledged a command; `command` is None for a code the profile lacks."""

    t: float
    command: CommandKind | None


@dataclass(frozen=True, slots=True)
class TableIdentified:
    """The board's answer to `identify`: its model number and firmware version."""

    t: float
    model: int
    version: int


TableEvent = (
    ShuffleDone
    | WallsUp
    | DiceRolled
    | SeatButton
    | TableFault
    | LidChanged
    | CommandAcked
    | TableIdentified
)


@dataclass(frozen=True, slots=True)
class DataReceived:
    """Raw bytes from a serial link, for the device's codec (controller/devices/serial_link.py)."""

    t: float
    device: str
    data: bytes


@dataclass(frozen=True, slots=True)
class ReaderPolled:
    """One poll of a reader whose driver decodes its own frames (the PN533 over USB,
    controller/devices/pn533_usb.py): what it read, and the answer's bytes for the journal."""

    t: float
    device: str
    events: tuple[TagsRead | FrameError, ...]
    answer: bytes = b""
