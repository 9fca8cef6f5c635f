"""The hall broker's security, as files for Mosquitto 2.0 (`mjtable hall broker-config`,
docs/MQTT.md "Securing a hall"): anonymous access off, a password per client, an ACL so
that each table writes only its own topics, the hub reads every table and writes only its
own, and viewers read the public topics only.

Written into one folder (`--installed-at` names where it will be on the broker's machine):

    mjtable-hall.conf       a drop-in for /etc/mosquitto/conf.d/: listener, TLS, files below
    passwd                  the password file (hashed by Debian's `mosquitto_passwd -U`)
    acl                     the access control list
    credentials/<user>      each client's password, mode 0600: a table's goes into its
                            config's [mqtt] section, the hub's into `--password-file`
    viewers/                the viewers' broker (Aedes, MQTT over WebSockets): its launcher
                            (controller/hub/viewer_broker/), `viewers.json` (mode 0600)
    systemd/                `mjtable-viewers.service` and Mosquitto's drop-in, each with
                            `LimitNOFILE` above the connections it takes

The viewers' side (docs/MQTT.md "Viewers"): Mosquitto bridges the public topics (status,
view, event and the delayed broadcast) out to the viewers' broker on loopback, and nothing
else: the broker the phones reach never holds a deal, a ledger, a seating or a key. There a
viewer reads those topics only; only the bridge (its own listener and password) publishes.

A table also reads its seating (`mjtable-hub/<hall>/seating/<table>`, docs/HALL.md).
Users: `table-<hall>-<table>` per table, `hub-<hall>`, `viewer-<hall>`. Running it again
keeps the passwords already made (a table added gets one; the others do not change).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from controller.errors import TableError
from controller.hub.wire import HUB_ROOT, TOPIC_ROOT, Channel, seating_topic

# what a viewer may read: the live table as the audience sees it (issue 29's viewers). The
# deal stream and the ledger carry chain heads and signatures, for the hub.
PUBLIC_CHANNELS = (Channel.STATUS, Channel.VIEW, Channel.EVENT, Channel.BROADCAST)
# the QoS each crosses the bridge with: what the table publishes it with (controller/hub/wire.py)
BRIDGE_QOS = {Channel.STATUS: 1, Channel.VIEW: 0, Channel.EVENT: 1, Channel.BROADCAST: 0}
NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
VIEWER_BROKER = Path(__file__).resolve().parent / "viewer_broker"
VIEWER_BROKER_FILES = ("server.mjs", "package.json", "package-lock.json")
# Mosquitto's connections beyond the tables: the hub, `hall export`, the bridge, a few
# readers on the viewer user; and the file descriptors a process needs beside its clients
SPARE_CONNECTIONS = 64
WEBSOCKETS_PORT = 8083
MAX_VIEWERS = 2000
BRIDGE_PORT = 1884
SPARE_FILES = 1024
AUTOSAVE_S = 10


class BrokerConfigError(TableError, ValueError):
    """Options that cannot make a broker configuration (the message says which)."""


@dataclass(frozen=True, slots=True)
class Listener:
    host: str = ""  # "": every address of the hall machine
    port: int = 1883
    tls_cert: Path | None = None  # with tls_key: the listener speaks TLS only
    tls_key: Path | None = None


@dataclass(frozen=True, slots=True)
class Viewers:
    """The viewers' broker: MQTT over WebSockets for the phones, fed by a bridge."""

    host: str = ""  # "": every address of the hall machine
    port: int = WEBSOCKETS_PORT
    max_connections: int = MAX_VIEWERS
    bridge_port: int = BRIDGE_PORT  # its loopback listener for Mosquitto's bridge

    def __post_init__(self) -> None:
        if not 1 <= self.max_connections <= 1_000_000:
            raise BrokerConfigError("--max-viewers is 1 to 1,000,000")
        for port in (self.port, self.bridge_port):
            if not 0 < port < 65536:
                raise BrokerConfigError(f"port {port} is not 1-65535")


@dataclass(frozen=True, slots=True)
class HallBroker:
    hall: str
    tables: tuple[str, ...]
    listener: Listener = Listener()
    viewers: Viewers | None = None  # None: no WebSockets side

    def __post_init__(self) -> None:
        for what, name in (("hall", self.hall), *(("table", t) for t in self.tables)):
            if not NAME.fullmatch(name):
                raise BrokerConfigError(
                    f"{what} {name!r}: letters, digits, '_', '.' and '-' only (1-64)"
                )
        if not self.tables:
            raise BrokerConfigError("name the hall's tables (--table T1 --table T2 ...)")
        if len(set(self.tables)) != len(self.tables):
            raise BrokerConfigError("a table is named twice")
        if (self.listener.tls_cert is None) != (self.listener.tls_key is None):
            raise BrokerConfigError("TLS needs both the certificate and its key")

    def table_user(self, table: str) -> str:
        return f"table-{self.hall}-{table}"

    @property
    def hub_user(self) -> str:
        return f"hub-{self.hall}"

    @property
    def viewer_user(self) -> str:
        return f"viewer-{self.hall}"

    @property
    def bridge_user(self) -> str:
        """Mosquitto's bridge on the viewers' broker (not a Mosquitto user)."""
        return f"bridge-{self.hall}"

    @property
    def max_connections(self) -> int:
        """Mosquitto's: the tables and SPARE_CONNECTIONS (the viewers are the other broker's)."""
        return len(self.tables) + SPARE_CONNECTIONS

    def public_filters(self) -> tuple[str, ...]:
        return tuple(f"{TOPIC_ROOT}/{self.hall}/+/{c.value}" for c in PUBLIC_CHANNELS)

    @property
    def users(self) -> tuple[str, ...]:
        return (self.hub_user, self.viewer_user, *(self.table_user(t) for t in self.tables))

    def acl(self) -> str:
        h = self.hall
        lines = [
            f"# hall {h}: written by `mjtable hall broker-config` (docs/MQTT.md)",
            "# a table writes its own topics only, and reads the seating the hub sends it",
        ]
        for t in self.tables:
            lines += [
                f"user {self.table_user(t)}",
                f"topic write {TOPIC_ROOT}/{h}/{t}/#",
                f"topic read {seating_topic(h, t)}",
                "",
            ]
        lines += [
            "# the hub reads every table of the hall and writes its own topics (the seating)",
            f"user {self.hub_user}",
            f"topic read {TOPIC_ROOT}/{h}/#",
            f"topic readwrite {HUB_ROOT}/{h}/#",
            "",
            "# viewers read what the audience may see",
            f"user {self.viewer_user}",
            *(f"topic read {f}" for f in self.public_filters()),
        ]
        return "\n".join(lines) + "\n"

    def conf(self, folder: Path, bridge_password: str | None = None) -> str:
        """The drop-in; `folder`: where the passwd and acl files are on the broker's machine;
        with the viewers' side, the bridge to it (`bridge_password`: its password there)."""
        ln = self.listener
        lines = [
            f"# hall {self.hall}: written by `mjtable hall broker-config` (docs/MQTT.md)",
            f"listener {ln.port}{' ' + ln.host if ln.host else ''}",
            f"max_connections {self.max_connections}",
        ]
        if ln.tls_cert is not None:
            key = ln.tls_key.resolve()  # type: ignore[union-attr]  # a listener with a cert has its key (checked)
            lines += [f"certfile {ln.tls_cert.resolve()}", f"keyfile {key}"]
        where = folder.resolve()
        lines += [
            "allow_anonymous false",
            f"password_file {where / 'passwd'}",
            f"acl_file {where / 'acl'}",
            # with persistence on (Debian's mosquitto.conf): a crash loses at most the
            # retained messages and sessions of the last AUTOSAVE_S (a restart loses none)
            f"autosave_interval {AUTOSAVE_S}",
        ]
        return "\n".join(lines + self._bridge(bridge_password)) + "\n"

    def _bridge(self, password: str | None) -> list[str]:
        """The bridge to the viewers' broker: the public topics out, nothing in."""
        if self.viewers is None or password is None:
            return []
        return [
            "",
            "# the public topics only, out to the viewers' broker (MQTT over WebSockets)",
            f"connection mjtable-viewers-{self.hall}",
            f"address 127.0.0.1:{self.viewers.bridge_port}",
            f"remote_clientid mosquitto-{self.hall}",
            f"remote_username {self.bridge_user}",
            f"remote_password {password}",
            # Aedes speaks plain MQTT 3.1.1 (no bridge flag); it keeps no session: on every
            # (re)connection the bridge sends the retained messages again
            "try_private false",
            "cleansession true",
            "restart_timeout 1 10",
            *(
                f"topic {f} out {BRIDGE_QOS[c]}"
                for f, c in zip(self.public_filters(), PUBLIC_CHANNELS, strict=True)
            ),
        ]

    def viewers_json(self, password: str) -> dict[str, object]:
        """The viewers' broker configuration (controller/hub/viewer_broker/server.mjs)."""
        v = self.viewers
        assert v is not None
        return {
            "hall": self.hall,
            "websockets": {"host": v.host or "0.0.0.0", "port": v.port},
            "bridge": {
                "host": "127.0.0.1",
                "port": v.bridge_port,
                "username": self.bridge_user,
                "password": password,
            },
            "max_connections": v.max_connections,
            "read": list(self.public_filters()),
        }

    def units(self, folder: Path) -> dict[str, str]:
        """The systemd files, by path under `systemd/`; `folder`: where the hall's files are."""
        units = {
            "mosquitto.service.d/mjtable-hall.conf": (
                "# the hall's Mosquitto (`mjtable hall broker-config`): a descriptor per client\n"
                f"[Service]\nLimitNOFILE={self.max_connections + SPARE_FILES}\n"
            )
        }
        v = self.viewers
        if v is not None:
            where = folder.resolve() / "viewers"
            units["mjtable-viewers.service"] = VIEWERS_UNIT.format(
                hall=self.hall,
                server=where / "server.mjs",
                config=where / "viewers.json",
                folder=where,
                files=v.max_connections + SPARE_FILES,
            )
        return units


VIEWERS_UNIT = """\
# The viewers' broker of hall {hall} (docs/MQTT.md "Viewers"), written by
# `mjtable hall broker-config`: Aedes serving MQTT over WebSockets, fed by Mosquitto's bridge.
[Unit]
Description=mjtable viewers' broker (MQTT over WebSockets) for hall {hall}
After=network-online.target
Wants=network-online.target
Before=mosquitto.service

[Service]
ExecStart=/usr/bin/node {server} {config}
WorkingDirectory={folder}
User=mosquitto
Restart=on-failure
RestartSec=1s
# one descriptor per viewer, above --max-viewers
LimitNOFILE={files}
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes

[Install]
WantedBy=multi-user.target
"""


def mosquitto_passwd() -> str:
    found = shutil.which("mosquitto_passwd") or shutil.which(
        "mosquitto_passwd", path="/usr/bin:/usr/sbin"
    )
    if found is None:
        raise BrokerConfigError(
            "mosquitto_passwd is not installed (apt-get install mosquitto): it hashes the "
            "password file"
        )
    return found


def write(broker: HallBroker, folder: Path, installed_at: Path | None = None) -> dict[str, Path]:
    """Write the folder (made if absent); returns each user's credentials file. The drop-in
    names the files where they will be (`installed_at`), by default where they are written."""
    tool = mosquitto_passwd()
    creds = folder / "credentials"
    creds.mkdir(parents=True, exist_ok=True)
    os.chmod(creds, 0o700)
    files: dict[str, Path] = {}
    plain: list[str] = []
    for user in broker.users:
        path = _secret(creds / user)
        files[user] = path
        plain.append(f"{user}:{path.read_text(encoding='utf-8').strip()}")
    passwd = folder / "passwd"
    tmp = folder / ".passwd.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write("\n".join(plain) + "\n")
    # hashed in place, so no password is ever on a command line
    done = subprocess.run([tool, "-U", str(tmp)], capture_output=True, text=True)
    if done.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise BrokerConfigError(f"mosquitto_passwd -U failed: {done.stderr.strip()}")
    os.replace(tmp, passwd)
    (folder / "acl").write_text(broker.acl(), encoding="utf-8")
    bridge = None
    if broker.viewers is not None:
        files[broker.bridge_user] = _secret(creds / broker.bridge_user)
        bridge = files[broker.bridge_user].read_text(encoding="utf-8").strip()
        _write_viewers(broker, folder / "viewers", bridge)
    conf = broker.conf(installed_at or folder, bridge)
    _write_private(folder / "mjtable-hall.conf", conf)  # it holds the bridge's password
    for name, text in broker.units(installed_at or folder).items():
        (folder / "systemd" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "systemd" / name).write_text(text, encoding="utf-8")
    return files


def _secret(path: Path) -> Path:
    """A password file made once (mode 0600), kept when it exists."""
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(secrets.token_urlsafe(18) + "\n")
    return path


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, 0o600)


def _write_viewers(broker: HallBroker, folder: Path, bridge_password: str) -> None:
    """The viewers' broker: its launcher and npm manifest (`npm ci` installs Aedes there)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in VIEWER_BROKER_FILES:
        shutil.copyfile(VIEWER_BROKER / name, folder / name)
    text = json.dumps(broker.viewers_json(bridge_password), indent=2) + "\n"
    _write_private(folder / "viewers.json", text)


def parse_listen(
    text: str, tls: bool, option: str = "--listen", default: int | None = None
) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = ("", text) if text.isdigit() else (text, "")
    if port and not port.isdigit():
        raise BrokerConfigError(f"{option} is [HOST:]PORT, not {text!r}")
    number = int(port) if port else default or (8883 if tls else 1883)
    if not 0 < number < 65536:
        raise BrokerConfigError(f"{option}: port {number} is not 1-65535")
    return host.strip("[]"), number


def hall_broker(
    hall: str,
    tables: Sequence[str],
    listen: str | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    websockets: str | None = None,
    max_viewers: int = MAX_VIEWERS,
    bridge_port: int = BRIDGE_PORT,
) -> HallBroker:
    """`websockets`: the viewers' listener, [HOST:]PORT or "off" (no viewers' side)."""
    tls = tls_cert is not None
    host, port = parse_listen(listen, tls) if listen else ("", 8883 if tls else 1883)
    viewers = None
    if websockets != "off":
        ws_host, ws_port = parse_listen(
            websockets or str(WEBSOCKETS_PORT), False, "--websockets", WEBSOCKETS_PORT
        )
        viewers = Viewers(ws_host, ws_port, max_viewers, bridge_port)
    return HallBroker(hall, tuple(tables), Listener(host, port, tls_cert, tls_key), viewers)
