"""A scripted stand-in for the recogniser (tests only): whatever the test put in `outbox`
is returned by the next call; every call is recorded. The result types are the contract's
(controller/recognition/recogniser.py); while that module is not in the tree, `install()`
provides minimal ones with the same names and fields."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from enum import Enum

from controller.locale import Said
from rules.seats import Seat


def install() -> types.ModuleType:
    try:
        import controller.recognition.recogniser as real

        return real
    except ImportError:
        pass
    mod = types.ModuleType("controller.recognition.recogniser")

    class AlertKind(Enum):
        UNRECOGNISED = "unrecognised"
        AMBIGUOUS = "ambiguous"
        RECOVERY = "recovery"
        OVER_TIME = "over-time"

    @dataclass(frozen=True, slots=True)
    class MoveSeen:
        move: object
        evidence: tuple[Said, ...] = ()

    @dataclass(frozen=True, slots=True)
    class RefereeAlert:
        kind: AlertKind
        seat: Seat | None
        said: Said
        evidence: tuple[Said, ...] = ()

        @property
        def text(self) -> str:
            return str(self.said)

    @dataclass(frozen=True, slots=True)
    class WallScanned:
        order: tuple

    @dataclass(frozen=True, slots=True)
    class HandsDealt:
        pass

    for obj in (AlertKind, MoveSeen, RefereeAlert, WallScanned, HandsDealt):
        obj.__module__ = mod.__name__
        setattr(mod, obj.__name__, obj)
    sys.modules[mod.__name__] = mod
    return mod


class StandIn:
    def __init__(self) -> None:
        self.outbox: list = []
        self.calls: list[tuple] = []
        self.accepted: list = []
        self.residue: dict = {}  # what `differences` says (deal seat, zone kind, tile) → n
        self.shown: list = []  # what `ahead` says: the moves the tiles show beyond the judge
        self.arrived: dict = {}  # what `arrivals` says: the same keys → when the tiles came

    def _out(self, name: str, *args) -> list:
        self.calls.append((name, *args))
        out, self.outbox = self.outbox, []
        return out

    def new_deal(self, dealer_side):
        self.calls.append(("new_deal", dealer_side))

    def on_wall_read(self, read):
        return self._out("on_wall_read", read)

    def start_deal(self, deal):
        return self._out("start_deal")

    def on_presence(self, change, deal):
        return self._out("on_presence", change)

    def on_button(self, press, deal):
        return self._out("on_button", press)

    def on_tag_alert(self, alert):
        return []

    def on_accepted(self, move, deal):
        self.accepted.append(move)

    def taken_back(self, moves, deal):
        self.calls.append(("taken_back", tuple(moves)))

    def tick(self, now, deal):
        return []

    def holds_window(self):
        return False  # no CHOW waits for its tiles here

    def reconcile(self, presence, deal):
        return self._out("reconcile", dict(presence))

    def buttons_unheard(self, deal):
        self.calls.append(("buttons_unheard", deal.window))

    def differences(self, deal):
        return dict(self.residue)

    def ahead(self, deal):
        return tuple(self.shown)

    def arrivals(self, deal):
        return dict(self.arrived)
