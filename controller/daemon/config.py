"""The daemon's settings: a TOML file (validated with rules.schema.build: unknown keys and bad
values are errors naming the file, section and key) overlaid by command-line options.

The file is the first found of `--config PATH`, `$XDG_CONFIG_HOME/mjtable/mjtable.toml`
(`~/.config/...` when unset) and `/etc/mjtable/mjtable.toml`; none is fine (defaults).
Example (docs/DAEMON.md):

    [table]
    name = "table3"
    rules = "sbr-mil"
    prevalent = "E"                  # the round's (prevalent) wind: E S W N (Wellness, 001)
    players = ["Ann", "Bo", "Cy", "Di"]
    journal = "/var/lib/mjtable/table3.journal"
    deals = 0                        # 0: play until stopped

    [devices]                        # omit the section: the built-in simulator
    table = "/dev/mjtable-table"     # udev symlinks (controller/systemd/90-mjtable.rules);
                                     # "none": a table with no serial link (the reader alone)
    reader = "/dev/mjtable-reader"  # or "usb" / "usb:04cc:2533": a PN533 on USB (pyusb),
                                     # with a reader profile of model "pn533-usb"
    table-profile = "sim-table"
    reader-profile = "sim-uhf"
    tags = "sim-108"                 # default: sim-108, or sim-136 for a 136-tile rule set

    [http]
    listen = "127.0.0.1:8080"        # another host only when named here or with --http
    referee-token = ""               # empty: a fresh token is printed at start-up
    broadcast-delay = 30.0
    max-connections = 512            # one more is answered 503
    header-timeout = 10.0            # seconds for a request head once begun
    idle-timeout = 30.0              # seconds a kept-alive connection may wait

    [mqtt]                           # optional: the hall broker
    broker = "hub.local:1883"
    hall = "hall-1"
    key = "table.key"                # signs the deals (mjtable hall key make); a relative
                                     # path is beside this file
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller.errors import TableError
from controller.profiles import DECLARATION_MODES
from rules.schema import SchemaError, build

SYSTEM_CONFIG = Path("/etc/mjtable/mjtable.toml")
DEFAULT_JOURNAL = "mjtable.journal"
WINDS = ("E", "S", "W", "N")
NO_TABLE = "none"  # [devices] table: a table with no serial link (controller/daemon/boardless.py)


class ConfigError(TableError, ValueError):
    """A configuration problem, naming where it is."""


@dataclass(frozen=True, slots=True)
class TableSection:
    name: str = "table"
    rules: str = "sbr-mil"
    prevalent: str = "E"  # the round wind, E S W N (001 II 3: scored by Wellness)
    players: tuple[str, ...] = field(
        default=("East", "South", "West", "North"), metadata={"length": 4}
    )
    journal: str = DEFAULT_JOURNAL
    deals: int = field(default=0, metadata={"range": (0, 100_000)})


@dataclass(frozen=True, slots=True)
class DevicesSection:
    table: str = ""
    reader: str = ""
    table_profile: str = "sim-table"
    reader_profile: str = "sim-uhf"
    tags: str = ""  # empty: the simulator's set for the rule set's tiles (sim-108 / sim-136)
    baudrate: int = field(default=0, metadata={"range": (0, 4_000_000)})  # 0: the profile's
    # how the players declare: buttons, cards, tiles (empty: the reader profile's
    # `declarations`; issue 18, docs/RECOGNITION.md "Declarations without buttons")
    declarations: str = ""

    def __post_init__(self) -> None:
        if self.declarations and self.declarations not in DECLARATION_MODES:
            modes = ", ".join(DECLARATION_MODES)
            raise ValueError(f"declarations is one of {modes}, not {self.declarations!r}")


@dataclass(frozen=True, slots=True)
class HttpSection:
    listen: str = "127.0.0.1:8080"
    referee_token: str = ""
    broadcast_delay: float = field(default=30.0, metadata={"range": (0.0, 3600.0)})
    # the web server's limits (controller/outputs/http_engine.py ServerLimits)
    max_connections: int = field(default=512, metadata={"range": (1, 10_000)})
    header_timeout: float = field(default=10.0, metadata={"range": (0.1, 300.0)})
    idle_timeout: float = field(default=30.0, metadata={"range": (0.1, 3600.0)})


@dataclass(frozen=True, slots=True)
class MqttSection:
    broker: str = ""
    hall: str = "hall"
    username: str = ""
    password: str = ""
    tls_ca: str = ""
    key: str = ""  # the table's signing key (docs/MQTT.md "Securing a hall"); "": unsigned


@dataclass(frozen=True, slots=True)
class SimSection:
    """The built-in simulator (`mjtable run` with no devices)."""

    fast: bool = False
    seed: int = 0
    missed: float = field(default=0.0, metadata={"range": (0.0, 100.0)})
    crosstalk: float = field(default=0.0, metadata={"range": (0.0, 100.0)})
    corrupt: float = field(default=0.0, metadata={"range": (0.0, 100.0)})  # reader frames


@dataclass(frozen=True, slots=True)
class Settings:
    table: TableSection = TableSection()
    devices: DevicesSection = DevicesSection()
    http: HttpSection = HttpSection()
    mqtt: MqttSection = MqttSection()
    sim: SimSection = SimSection()

    @property
    def simulated(self) -> bool:
        return not (self.devices.reader or self.devices.table not in ("", NO_TABLE))

    @property
    def boardless(self) -> bool:
        """A table with no serial link (`table = "none"`): the reader alone (issue 18)."""
        return self.devices.table == NO_TABLE

    @property
    def tags(self) -> str:
        """The tag map: as configured, else the simulator's set for the rule set's tiles."""
        if self.devices.tags:
            return self.devices.tags
        from rules.ruleset import load

        return f"sim-{load(self.table.rules).tiles.set.value}"

    def echo(self) -> dict[str, Any]:
        """What `daemon.started` records (never the token or the broker password)."""
        return {
            "table": self.table.name,
            "rules": self.table.rules,
            "devices": "simulator" if self.simulated else [self.devices.table, self.devices.reader],
            "profiles": [
                self.devices.table_profile,
                self.devices.reader_profile,
                self.tags,
            ],
            "http": self.http.listen,
            "mqtt": self.mqtt.broker or None,
        }


def find_config(explicit: str | None, env: dict[str, str] | None = None) -> Path | None:
    env = dict(os.environ) if env is None else env
    if explicit:
        return Path(explicit)
    xdg = env.get("XDG_CONFIG_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".config")
    for candidate in (Path(xdg) / "mjtable" / "mjtable.toml", SYSTEM_CONFIG):
        if candidate.is_file():
            return candidate
    return None


def load_settings(path: Path | None) -> Settings:
    if path is None:
        return Settings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ConfigError(f"{path}: cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise ConfigError(
            f"{path}: not a settings file (not UTF-8 text: byte {err.object[err.start]:#04x} "
            f"at offset {err.start})"
        ) from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not TOML: {err}") from None
    try:
        settings = build(Settings, data, str(path))
    except SchemaError as err:
        raise ConfigError(str(err)) from None
    check(settings, str(path))
    key = settings.mqtt.key
    if key and not Path(key).is_absolute():  # beside the config, wherever it is read from
        settings = replace(settings, mqtt=replace(settings.mqtt, key=str(path.parent / key)))
    return settings


def check(settings: Settings, where: str) -> None:
    """Cross-field checks the schema cannot express."""
    if settings.table.prevalent not in WINDS:
        raise ConfigError(
            f"{where}: [table] key 'prevalent': {settings.table.prevalent!r} is not one of "
            + ", ".join(WINDS)
        )


def overlay(settings: Settings, **options: Any) -> Settings:
    """Command-line options over the file: `overlay(s, table={"deals": 2})`; None values
    (options not given) leave the file's value."""
    out = settings
    for section, values in options.items():
        given = {k: v for k, v in values.items() if v is not None}
        if given:
            out = replace(out, **{section: replace(getattr(out, section), **given)})
    return out


def parse_listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ConfigError(f"--http: HOST:PORT, not {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)
