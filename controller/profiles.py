"""Hardware profiles: table models, reader antenna zones and tag maps, loaded from
`hw_profiles/{tables,readers,tags}/*.toml` into frozen dataclasses (schema: docs/PROFILES.md).

Every file goes through `rules.schema.build` (unknown keys and out-of-range values are
`SchemaError`s naming file, section and key), then the cross-field checks below, which raise
the same error. `load_table("sim-table")` takes a shipped name or a path ending in `.toml`.
The simulated tag sets come from `sim_tag_uid`, so the simulator and the profiles agree.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from controller.devices.framing import Framing
from controller.devices.uhf_reader import InventoryLayout
from controller.profile_files import available as available, read_profile

# the tag maps (controller/tag_maps.py) are part of this module's API: `X as X` re-exports
from controller.tag_maps import (
    COPIES as COPIES,
    Card as Card,
    CardKind as CardKind,
    TagMap as TagMap,
    TagsHeader as TagsHeader,
    TileCopy as TileCopy,
    every_card as every_card,
    format_tags as format_tags,
    load_tags as load_tags,
    parse_tags as parse_tags,
    sim_card_uid as sim_card_uid,
    sim_tag_map as sim_tag_map,
    sim_tag_uid as sim_tag_uid,
    write_sim_tags as write_sim_tags,
)
from rules.schema import SchemaError, build
from rules.seats import Seat

# --------------------------------------------------------------------------- tables


class WireType(Enum):
    U8 = "u8"
    I8 = "i8"
    U16BE = "u16be"
    U16LE = "u16le"
    I16BE = "i16be"
    I16LE = "i16le"

    @property
    def size(self) -> int:
        return 1 if self.value.endswith("8") else 2

    @property
    def signed(self) -> bool:
        return self.value.startswith("i")

    @property
    def order(self) -> str:
        return "little" if self.value.endswith("le") else "big"

    @property
    def bounds(self) -> tuple[int, int]:
        bits = 8 * self.size
        return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if self.signed else (0, (1 << bits) - 1)

    def pack(self, value: int) -> bytes:
        return value.to_bytes(self.size, self.order, signed=self.signed)  # type: ignore[arg-type]  # 'big' or 'little', checked at load

    def unpack(self, data: bytes) -> int:
        return int.from_bytes(data, self.order, signed=self.signed)  # type: ignore[arg-type]  # 'big' or 'little', checked at load


class CommandKind(Enum):
    """Host → table commands, with the parameters their payload carries."""

    START_SHUFFLE = "start-shuffle"
    RAISE_WALLS = "raise-walls"
    SHOW_SCORE = "show-score"
    LIGHT = "light"
    BUZZER = "buzzer"
    SHOW_COUNTDOWN = "show-countdown"
    IDENTIFY = "identify"  # asks the board for its `identity` (mjtable probe)


class EventKind(Enum):
    """Table → host events."""

    SHUFFLE_DONE = "shuffle-done"
    WALLS_UP = "walls-up"
    DICE = "dice"
    BUTTON = "button"
    FAULT = "fault"
    LID = "lid"
    ACK = "ack"
    IDENTITY = "identity"  # the answer to `identify`: a model number and a firmware version


PARAMETERS: Mapping[CommandKind | EventKind, tuple[str, ...]] = types.MappingProxyType(
    {
        CommandKind.START_SHUFFLE: (),
        CommandKind.RAISE_WALLS: (),
        CommandKind.SHOW_SCORE: ("seat", "score"),
        CommandKind.LIGHT: ("seat", "on"),
        CommandKind.BUZZER: ("ms",),
        CommandKind.SHOW_COUNTDOWN: ("seat", "seconds"),
        CommandKind.IDENTIFY: (),
        EventKind.SHUFFLE_DONE: (),
        EventKind.WALLS_UP: (),
        EventKind.DICE: ("a", "b"),
        EventKind.BUTTON: ("seat", "button"),
        EventKind.FAULT: ("code",),
        EventKind.LID: ("open",),
        EventKind.ACK: ("command",),
        EventKind.IDENTITY: ("model", "version"),
    }
)
# parameters whose wire value is looked up in the field's `values` table: required, optional
SYMBOLS: Mapping[tuple[CommandKind | EventKind, str], tuple[frozenset[str], frozenset[str]]] = {
    (CommandKind.LIGHT, "on"): (frozenset({"on", "off"}), frozenset()),
    (EventKind.LID, "open"): (frozenset({"open", "closed"}), frozenset()),
    (EventKind.BUTTON, "button"): (
        frozenset({"hu", "pung", "kong", "pass"}),
        frozenset({"void-m", "void-p", "void-s", "chow"}),
    ),
}
REQUIRED_COMMANDS = frozenset(
    {CommandKind.START_SHUFFLE, CommandKind.RAISE_WALLS, CommandKind.SHOW_SCORE}
)
# a board that does not report the shuffle, the walls or the dice leaves them to the reader
# (controller/daemon/boardless.py, issue 18 item 2)
REQUIRED_EVENTS = frozenset({EventKind.BUTTON})
CONST = "const"  # a field with a fixed wire value


@dataclass(frozen=True, slots=True)
class MessageField:
    """One payload field: a parameter of the message (or `const`) and its wire encoding.

    Numbers go on the wire as `value + offset` (a seat is E=0 … N=3 before the offset);
    symbolic parameters (light on/off, lid, button) use `values`.
    """

    name: str
    type: WireType = WireType.U8
    offset: int = field(default=0, metadata={"range": (-255, 255)})
    value: int = field(default=0, metadata={"range": (-32768, 65535)})
    values: Mapping[str, int] = field(default_factory=dict, metadata={"range": (-32768, 65535)})


@dataclass(frozen=True, slots=True)
class MessageSpec:
    code: int = field(metadata={"range": (0, 0xFFFF)})
    fields: tuple[MessageField, ...] = ()

    @property
    def payload_size(self) -> int:
        return sum(f.type.size for f in self.fields)


@dataclass(frozen=True, slots=True)
class TableHeader:
    model: str
    firmware: str
    verified_by: str
    date: str
    baud: int = field(default=57600, metadata={"range": (1200, 921600)})
    notes: str = ""


@dataclass(frozen=True, slots=True)
class TableProfile:
    table: TableHeader
    framing: Framing
    commands: Mapping[str, MessageSpec]
    events: Mapping[str, MessageSpec]

    def command(self, kind: CommandKind) -> MessageSpec | None:
        return self.commands.get(kind.value)

    def event(self, kind: EventKind) -> MessageSpec | None:
        return self.events.get(kind.value)


def parse_table(data: dict[str, Any], source: str) -> TableProfile:
    profile = build(TableProfile, data, source)
    _check_messages(profile.commands, CommandKind, REQUIRED_COMMANDS, "commands", profile, source)
    _check_messages(profile.events, EventKind, REQUIRED_EVENTS, "events", profile, source)
    return profile


def load_table(name: str) -> TableProfile:
    return parse_table(*read_profile("tables", name))


def _check_messages(
    messages: Mapping[str, MessageSpec],
    kinds: type[CommandKind] | type[EventKind],
    required: frozenset[Any],
    section: str,
    profile: TableProfile,
    source: str,
) -> None:
    codes: dict[int, str] = {}
    for key, spec in messages.items():
        where = f"{section}.{key}"
        try:
            kind = kinds(key)
        except ValueError:
            names = ", ".join(k.value for k in kinds)
            raise SchemaError(source, section, key, f"unknown message (known: {names})") from None
        if spec.code >= 1 << (8 * profile.framing.code_size):
            raise SchemaError(source, where, "code", f"{spec.code:#x} does not fit the code size")
        if spec.code in codes:
            raise SchemaError(source, where, "code", f"{spec.code:#x} is also {codes[spec.code]}")
        codes[spec.code] = key
        if spec.payload_size > profile.framing.max_payload:
            raise SchemaError(source, where, "fields", "payload longer than framing.max-payload")
        _check_fields(kind, spec, where, source)
    for kind in sorted(required - {kinds(k) for k in messages}, key=lambda k: k.value):
        raise SchemaError(source, section, kind.value, "missing required message")


def _check_fields(
    kind: CommandKind | EventKind, spec: MessageSpec, where: str, source: str
) -> None:
    params = PARAMETERS[kind]
    seen: set[str] = set()
    for i, f in enumerate(spec.fields):
        key = f"fields[{i}]"
        lo, hi = f.type.bounds
        if f.name == CONST:
            if not lo <= f.value <= hi:
                raise SchemaError(
                    source, where, key, f"value {f.value} does not fit {f.type.value}"
                )
            continue
        if f.name not in params:
            allowed = ", ".join((*params, CONST))
            raise SchemaError(source, where, key, f"unknown field {f.name!r} (known: {allowed})")
        if f.name in seen:
            raise SchemaError(source, where, key, f"field {f.name!r} appears twice")
        seen.add(f.name)
        symbols = SYMBOLS.get((kind, f.name))
        if symbols is not None:
            need, optional = symbols
            names = set(f.values)
            if not need <= names or not names <= need | optional:
                raise SchemaError(
                    source,
                    where,
                    key,
                    f"values must name {sorted(need)} (optional {sorted(optional)})",
                )
            if len(set(f.values.values())) != len(f.values):
                raise SchemaError(source, where, key, "two values share one wire value")
            if any(not lo <= v <= hi for v in f.values.values()):
                raise SchemaError(source, where, key, f"a value does not fit {f.type.value}")
        elif f.values:
            raise SchemaError(source, where, key, f"{f.name!r} is a number; it takes no values")
    missing = [p for p in params if p not in seen]
    if missing:
        raise SchemaError(source, where, "fields", f"no field for {missing[0]!r}")


# --------------------------------------------------------------------------- readers


class ZoneKind(Enum):
    HAND = "hand"
    RIVER = "river"  # discards
    MELDS = "melds"
    VOID = "void"  # the face-down void-suit tile (定缺)
    WALL = "wall"  # a spot that sees tiles single-file while walls are built


@dataclass(frozen=True, slots=True)
class Zone:
    """A place on the table an antenna watches; `seat` is None only for the wall."""

    kind: ZoneKind
    seat: Seat | None = None

    def __post_init__(self) -> None:
        if (self.seat is None) != (self.kind is ZoneKind.WALL):
            raise ValueError("a seat zone needs a seat, the wall has none")

    def __str__(self) -> str:
        return self.kind.value if self.seat is None else f"{self.seat}.{self.kind.value}"


class ReaderModel(Enum):
    UHF_SERIAL = "uhf-serial"  # UHFReader18 / CF-RU5102 family
    PN532_UART = "pn532-uart"
    PN533_USB = "pn533-usb"


class DeclarationSource(Enum):
    """Where a table's declarations come from (issue 18; docs/RECOGNITION.md "Declarations")."""

    BUTTONS = "buttons"  # the table board's seat buttons
    CARDS = "cards"  # tagged Win and void indicator cards laid in a seat's zones
    TILES = "tiles"  # the tiles alone: a claim is the discard moving into the claimer's melds


@dataclass(frozen=True, slots=True)
class ReaderHeader:
    name: str
    model: ReaderModel
    verified_by: str
    date: str
    baud: int = field(default=57600, metadata={"range": (1200, 921600)})
    address: int = field(default=0xFF, metadata={"range": (0, 255)})
    # milliseconds the reader takes to inventory one antenna (its RF work, besides the bytes
    # on the line); an antenna may name its own (`antennas.N.inventory-ms`)
    inventory_ms: float = field(default=20.0, metadata={"range": (0.0, 10000.0)})
    # the most polling rounds a second the daemon starts (a round: every antenna polled
    # once), however fast the line answers (docs/PROFILES.md)
    rounds_per_second: float = field(default=20.0, metadata={"range": (0.1, 1000.0)})
    # UHF family: how its inventory answers are laid out (controller/devices/uhf_reader.py),
    # and whether it takes antenna selection (0x3F; a one-antenna UHFReader18 does not)
    inventory_layout: InventoryLayout = InventoryLayout.ANTENNA_RSSI
    select_antenna: bool = True
    notes: str = ""
    # which declaration sources the table has, several may be combined (docs/PROFILES.md)
    declarations: tuple[DeclarationSource, ...] = (DeclarationSource.BUTTONS,)

    def __post_init__(self) -> None:
        if not self.declarations:
            raise ValueError("declarations names at least one source (buttons, cards, tiles)")
        if len(set(self.declarations)) != len(self.declarations):
            raise ValueError("declarations lists a source twice")


@dataclass(frozen=True, slots=True)
class Debounce:
    """Hysteresis in inventory rounds: a tag appears when its zone got it in `appear` of the
    last `window` rounds, and disappears after `vanish` rounds in a row without a read.
    A read outside the tag's own zone weaker than its own reads by more than
    `crosstalk_margin` (RSSI units, 0: off) is crosstalk and never moves it."""

    window: int = field(default=5, metadata={"range": (1, 64)})
    appear: int = field(default=3, metadata={"range": (1, 64)})
    vanish: int = field(default=3, metadata={"range": (1, 64)})
    crosstalk_margin: int = field(default=30, metadata={"range": (0, 255)})

    def __post_init__(self) -> None:
        if self.appear > self.window:
            raise ValueError("appear must not exceed window")
        if 2 * self.appear <= self.window:
            raise ValueError(
                "appear must be more than half the window (crosstalk needs a majority)"
            )


class CalibrationState(Enum):
    GUESSED = "guessed"  # written without the device: `mjtable calibrate` measures them
    MEASURED = "measured"  # written by `mjtable calibrate` from the figures beside them


@dataclass(frozen=True, slots=True)
class Calibration:
    """`[calibration]`: were the debounce numbers measured, and from which figures
    (tools/calibration.py, docs/PROFILES.md). A profile without it is `guessed`."""

    state: CalibrationState = CalibrationState.GUESSED
    date: str = ""
    source: str = ""  # what was measured: the port, or the capture file
    rounds: int = field(default=0, metadata={"range": (0, 1_000_000_000)})
    tiles: int = field(default=0, metadata={"range": (0, 100_000)})
    read_rate: float = field(default=0.0, metadata={"range": (0.0, 1.0)})  # own reads / rounds
    longest_miss: int = field(default=0, metadata={"range": (0, 1_000_000_000)})
    own_rssi: tuple[int, ...] = field(default=(), metadata={"range": (0, 255)})  # lo, mid, hi
    crosstalk_reads: int = field(default=0, metadata={"range": (0, 1_000_000_000)})
    crosstalk_rssi_max: int = field(default=0, metadata={"range": (0, 255)})
    notes: str = ""

    def __post_init__(self) -> None:
        if self.state is CalibrationState.MEASURED and self.rounds == 0:
            raise ValueError("a measured calibration names the rounds it measured")
        if self.own_rssi and (
            len(self.own_rssi) != 3 or list(self.own_rssi) != sorted(self.own_rssi)
        ):
            raise ValueError("own-rssi is [lowest, median, highest]")


@dataclass(frozen=True, slots=True)
class _AntennaToml:
    zone: ZoneKind
    seat: str | None = None
    neighbours: tuple[int, ...] = field(default=(), metadata={"range": (1, 64)})
    inventory_ms: float | None = field(default=None, metadata={"range": (0.0, 10000.0)})


@dataclass(frozen=True, slots=True)
class _ReaderToml:
    reader: ReaderHeader
    antennas: Mapping[str, _AntennaToml]
    debounce: Debounce = Debounce()
    calibration: Calibration = Calibration()


@dataclass(frozen=True, slots=True)
class Antenna:
    number: int  # 1-based, as in `TagsRead.antenna`
    zone: Zone
    neighbours: frozenset[int]
    inventory_s: float = 0.02  # seconds the reader takes to inventory this antenna


@dataclass(frozen=True, slots=True)
class ReaderProfile:
    reader: ReaderHeader
    debounce: Debounce
    antennas: Mapping[int, Antenna]  # neighbours made symmetric
    calibration: Calibration = Calibration()

    def zone_of(self, antenna: int) -> Zone | None:
        a = self.antennas.get(antenna)
        return a.zone if a is not None else None

    @property
    def zones(self) -> frozenset[Zone]:
        return frozenset(a.zone for a in self.antennas.values())

    @property
    def round_interval(self) -> float:
        """The shortest time between the starts of two polling rounds, in seconds."""
        return 1.0 / self.reader.rounds_per_second


def _seconds(ms: float | None, default_ms: float) -> float:
    """An antenna's inventory time in seconds: its own, else the reader's."""
    return (default_ms if ms is None else ms) / 1e3


def parse_reader(data: dict[str, Any], source: str) -> ReaderProfile:
    raw = build(_ReaderToml, data, source)
    numbers: dict[int, _AntennaToml] = {}
    for key, ant in raw.antennas.items():
        if not key.isdigit() or not 1 <= int(key) <= 64:
            raise SchemaError(source, "antennas", key, "an antenna is a number 1..64")
        numbers[int(key)] = ant
    if not numbers:
        raise SchemaError(source, "antennas", None, "no antennas")
    links: dict[int, set[int]] = {n: set() for n in numbers}
    zones: dict[int, Zone] = {}
    for n, ant in numbers.items():
        where = f"antennas.{n}"
        seat = None
        if ant.seat is not None:
            try:
                seat = Seat.parse(ant.seat)
            except ValueError as err:
                raise SchemaError(source, where, "seat", str(err)) from None
        try:
            zones[n] = Zone(ant.zone, seat)
        except ValueError as err:
            raise SchemaError(source, where, "seat", str(err)) from None
        for other in ant.neighbours:
            if other not in numbers or other == n:
                raise SchemaError(source, where, "neighbours", f"no other antenna {other}")
            links[n].add(other)
            links[other].add(n)
    if not raw.reader.select_antenna:
        for n in numbers:
            if (n - 1) % 8:  # port (n-1) mod 8 + 1 of reader address (n-1) div 8
                raise SchemaError(
                    source,
                    f"antennas.{n}",
                    None,
                    "a reader without antenna selection (select-antenna = false) has port 1 only",
                )
    default_ms = raw.reader.inventory_ms
    antennas = {
        n: Antenna(
            n,
            zones[n],
            frozenset(links[n]),
            _seconds(numbers[n].inventory_ms, default_ms),
        )
        for n in sorted(numbers)
    }
    return ReaderProfile(
        raw.reader, raw.debounce, types.MappingProxyType(antennas), raw.calibration
    )


def load_reader(name: str) -> ReaderProfile:
    return parse_reader(*read_profile("readers", name))


# `--declarations` of `mjtable run` / `sim` (issue 18): how the players declare, and the
# sources the daemon reads for it (a Win-card table shows pungs and kongs with the tiles)
DECLARATION_MODES: Mapping[str, tuple[DeclarationSource, ...]] = types.MappingProxyType(
    {
        "buttons": (DeclarationSource.BUTTONS,),
        "cards": (DeclarationSource.CARDS, DeclarationSource.TILES),
        "tiles": (DeclarationSource.TILES,),
    }
)


def with_declarations(profile: ReaderProfile, mode: str) -> ReaderProfile:
    """The profile with the declaration sources of `mode` (a key of DECLARATION_MODES)."""
    import dataclasses

    sources = DECLARATION_MODES[mode]
    return dataclasses.replace(
        profile, reader=dataclasses.replace(profile.reader, declarations=sources)
    )
