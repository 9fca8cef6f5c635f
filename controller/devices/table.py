"""The automatic table's controller board: typed commands out, typed events in, with every
byte taken from a table profile (hw_profiles/tables/<model>.toml, docs/PROFILES.md).

`TableDriver` is the host side: `encode(command) -> bytes` and `feed(t, data)` → events.
`TableSide` is the board side for the simulator and tests: `encode(event) -> bytes` and
`feed(data)` → commands. Both use the same `FrameCodec` and message layouts, so a profile
that round-trips here speaks the same bytes on the wire. Nothing here raises on input:
corrupted or unknown frames become `FrameError` values.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from controller.devices.events import (
    Button,
    CommandAcked,
    DiceRolled,
    FrameError,
    LidChanged,
    SeatButton,
    ShuffleDone,
    TableEvent,
    TableFault,
    TableIdentified,
    WallsUp,
)
from controller.devices.framing import BadFrame, Frame, FrameCodec
from controller.devices.skipped import debug_hex
from controller.errors import DeviceError
from controller.profiles import (
    CONST,
    CommandKind,
    EventKind,
    MessageSpec,
    TableProfile,
)
from rules.seats import SEATS, Seat

log = logging.getLogger(__name__)

# ---- commands (host → table)


@dataclass(frozen=True, slots=True)
class StartShuffle:
    pass


@dataclass(frozen=True, slots=True)
class RaiseWalls:
    pass


@dataclass(frozen=True, slots=True)
class ShowScore:
    """Show a seat's running score on its display (signed)."""

    seat: Seat
    score: int


@dataclass(frozen=True, slots=True)
class Light:
    """A seat's indicator light (whose turn it is)."""

    seat: Seat
    on: bool


@dataclass(frozen=True, slots=True)
class Buzzer:
    ms: int


@dataclass(frozen=True, slots=True)
class ShowCountdown:
    """The claim-window countdown on a seat's display (optional in a profile)."""

    seat: Seat
    seconds: int


@dataclass(frozen=True, slots=True)
class Identify:
    """Ask the board who it is (optional in a profile; `mjtable probe` sends it)."""


Command = StartShuffle | RaiseWalls | ShowScore | Light | Buzzer | ShowCountdown | Identify

_COMMAND_KIND: Mapping[type, CommandKind] = {
    StartShuffle: CommandKind.START_SHUFFLE,
    RaiseWalls: CommandKind.RAISE_WALLS,
    ShowScore: CommandKind.SHOW_SCORE,
    Light: CommandKind.LIGHT,
    Buzzer: CommandKind.BUZZER,
    ShowCountdown: CommandKind.SHOW_COUNTDOWN,
    Identify: CommandKind.IDENTIFY,
}
_EVENT_KIND: Mapping[type, EventKind] = {
    ShuffleDone: EventKind.SHUFFLE_DONE,
    WallsUp: EventKind.WALLS_UP,
    DiceRolled: EventKind.DICE,
    SeatButton: EventKind.BUTTON,
    TableFault: EventKind.FAULT,
    LidChanged: EventKind.LID,
    CommandAcked: EventKind.ACK,
    TableIdentified: EventKind.IDENTITY,
}


class Unsupported(DeviceError, ValueError):
    """The profile has no such message, or a value does not fit its wire field."""


# ---- payload layouts


def _pack(spec: MessageSpec, params: Mapping[str, int | str]) -> bytes:
    out = bytearray()
    for f in spec.fields:
        if f.name == CONST:
            value = f.value
        else:
            raw = params[f.name]
            value = f.values[str(raw)] if f.values else int(raw) + f.offset
        lo, hi = f.type.bounds
        if not lo <= value <= hi:
            raise Unsupported(f"{f.name}={value} does not fit {f.type.value}")
        out += f.type.pack(value)
    return bytes(out)


def _unpack(spec: MessageSpec, payload: bytes) -> dict[str, int | str] | str:
    """Parameter values, or the reason the payload does not fit the layout."""
    if len(payload) != spec.payload_size:
        return f"payload {len(payload)} bytes, layout {spec.payload_size}"
    params: dict[str, int | str] = {}
    pos = 0
    for f in spec.fields:
        value = f.type.unpack(payload[pos : pos + f.type.size])
        pos += f.type.size
        if f.name == CONST:
            if value != f.value:
                return f"constant {value} is not {f.value}"
        elif f.values:
            names = [k for k, v in f.values.items() if v == value]
            if not names:
                return f"{f.name} value {value} is not in the profile"
            params[f.name] = names[0]
        else:
            params[f.name] = value - f.offset
    return params


def _seat(value: int | str) -> Seat | str:
    return SEATS[int(value)] if 0 <= int(value) <= 3 else f"seat {value} is not 0..3"


_Message = tuple[str, dict[str, int | str], bytes]  # profile name, parameters, raw frame


class _Endpoint:
    def __init__(self, profile: TableProfile, incoming: Mapping[str, MessageSpec]) -> None:
        self.profile = profile
        sizes = {spec.code: spec.payload_size for spec in incoming.values()}
        self.codec = FrameCodec(profile.framing, sizes)
        self._incoming = {spec.code: (name, spec) for name, spec in incoming.items()}
        self.bad_messages = 0  # frames with a good checksum but a payload the profile rejects

    @property
    def errors(self) -> int:
        return sum(self.codec.errors.values()) + self.bad_messages

    def _frames(self, t: float, device: str, data: bytes) -> list[_Message | FrameError]:
        out: list[_Message | FrameError] = []
        for item in self.codec.feed(data):
            if isinstance(item, BadFrame):
                out.append(FrameError(t, device, str(item), item.data))
                continue
            out.append(self._message(t, device, item))
        return out

    def _message(self, t: float, device: str, frame: Frame) -> _Message | FrameError:
        entry = self._incoming.get(frame.code)
        if entry is None:
            return self._bad(t, device, f"unknown code {frame.code:#x}", frame.raw)
        name, spec = entry
        params = _unpack(spec, frame.payload)
        if isinstance(params, str):
            return self._bad(t, device, f"{name}: {params}", frame.raw)
        return name, params, frame.raw

    def _bad(self, t: float, device: str, reason: str, raw: bytes) -> FrameError:
        self.bad_messages += 1
        debug_hex(log, f"{device}: {reason}", raw)
        return FrameError(t, device, reason, raw)


class TableDriver(_Endpoint):
    """Host side: commands → bytes, bytes → `TableEvent`s (and `FrameError`s)."""

    def __init__(self, profile: TableProfile, device: str = "table") -> None:
        super().__init__(profile, profile.events)
        self.device = device

    def supports(self, command_type: type) -> bool:
        return self.profile.command(_COMMAND_KIND[command_type]) is not None

    def encode(self, command: Command) -> bytes:
        kind = _COMMAND_KIND[type(command)]
        spec = self.profile.command(kind)
        if spec is None:
            raise Unsupported(f"table {self.profile.table.model} has no {kind.value} command")
        params: dict[str, int | str] = {}
        match command:
            case ShowScore(seat, score):
                params = {"seat": int(seat), "score": score}
            case Light(seat, on):
                params = {"seat": int(seat), "on": "on" if on else "off"}
            case Buzzer(ms):
                params = {"ms": ms}
            case ShowCountdown(seat, seconds):
                params = {"seat": int(seat), "seconds": seconds}
        return self.codec.encode(spec.code, _pack(spec, params))

    def feed(self, t: float, data: bytes) -> list[TableEvent | FrameError]:
        out: list[TableEvent | FrameError] = []
        for item in self._frames(t, self.device, data):
            if isinstance(item, FrameError):
                out.append(item)
                continue
            name, params, raw = item
            event = self._event(t, EventKind(name), params)
            if isinstance(event, str):
                out.append(self._bad(t, self.device, f"{name}: {event}", raw))
            else:
                out.append(event)
        return out

    def _event(self, t: float, kind: EventKind, p: dict[str, int | str]) -> TableEvent | str:
        match kind:
            case EventKind.SHUFFLE_DONE:
                return ShuffleDone(t)
            case EventKind.WALLS_UP:
                return WallsUp(t)
            case EventKind.DICE:
                a, b = int(p["a"]), int(p["b"])
                if not (1 <= a <= 6 and 1 <= b <= 6):
                    return f"dice {a} {b} are not 1..6"
                return DiceRolled(t, a, b)
            case EventKind.BUTTON:
                seat = _seat(p["seat"])
                if isinstance(seat, str):
                    return seat
                return SeatButton(t, seat, Button(str(p["button"])))
            case EventKind.FAULT:
                return TableFault(t, int(p["code"]))
            case EventKind.LID:
                return LidChanged(t, p["open"] == "open")
            case EventKind.ACK:
                code = int(p["command"])
                names = [k for k, s in self.profile.commands.items() if s.code == code]
                return CommandAcked(t, CommandKind(names[0]) if names else None)
            case EventKind.IDENTITY:
                return TableIdentified(t, int(p["model"]), int(p["version"]))
        raise AssertionError(kind)


class TableSide(_Endpoint):
    """Board side (simulator, tests): `TableEvent`s → bytes, bytes → commands."""

    def __init__(self, profile: TableProfile, device: str = "table-sim") -> None:
        super().__init__(profile, profile.commands)
        self.device = device

    def encode(self, event: TableEvent) -> bytes:
        kind = _EVENT_KIND[type(event)]
        spec = self.profile.event(kind)
        if spec is None:
            raise Unsupported(f"table {self.profile.table.model} has no {kind.value} event")
        params: dict[str, int | str] = {}
        match event:
            case DiceRolled(_, a, b):
                params = {"a": a, "b": b}
            case SeatButton(_, seat, button):
                params = {"seat": int(seat), "button": button.value}
            case TableFault(_, code):
                params = {"code": code}
            case LidChanged(_, is_open):
                params = {"open": "open" if is_open else "closed"}
            case CommandAcked(_, command):
                if command is None or self.profile.command(command) is None:
                    raise Unsupported(f"cannot acknowledge {command}")
                params = {"command": self.profile.commands[command.value].code}
            case TableIdentified(_, model, version):
                params = {"model": model, "version": version}
        try:
            return self.codec.encode(spec.code, _pack(spec, params))
        except KeyError as err:
            raise Unsupported(f"{kind.value}: the profile has no value for {err}") from None

    def feed(self, t: float, data: bytes) -> list[Command | FrameError]:
        out: list[Command | FrameError] = []
        for item in self._frames(t, self.device, data):
            if isinstance(item, FrameError):
                out.append(item)
                continue
            name, p, raw = item
            command = self._command(CommandKind(name), p)
            if isinstance(command, str):
                out.append(self._bad(t, self.device, f"{name}: {command}", raw))
            else:
                out.append(command)
        return out

    @staticmethod
    def _command(kind: CommandKind, p: dict[str, int | str]) -> Command | str:
        if kind is CommandKind.START_SHUFFLE:
            return StartShuffle()
        if kind is CommandKind.RAISE_WALLS:
            return RaiseWalls()
        if kind is CommandKind.BUZZER:
            return Buzzer(int(p["ms"]))
        if kind is CommandKind.IDENTIFY:
            return Identify()
        seat = _seat(p["seat"])
        if isinstance(seat, str):
            return seat
        if kind is CommandKind.SHOW_SCORE:
            return ShowScore(seat, int(p["score"]))
        if kind is CommandKind.LIGHT:
            return Light(seat, p["on"] == "on")
        return ShowCountdown(seat, int(p["seconds"]))
