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

A table also reads its seating (`mjtable-hub/<hall>/seating/<table>`, docs/HALL.md).
Users: `table-<hall>-<table>` per table, `hub-<hall>`, `viewer-<hall>`. Running it again
keeps the passwords already made (a table added gets one; the others do not change).
"""

from __future__ import annotations

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
PUBLIC_CHANNELS = (Channel.STATUS, Channel.VIEW, Channel.EVENT)
NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")


class BrokerConfigError(TableError, ValueError):
    """Options that cannot make a broker configuration (the message says which)."""


@dataclass(frozen=True, slots=True)
class Listener:
    host: str = ""  # "": every address of the hall machine
    port: int = 1883
    tls_cert: Path | None = None  # with tls_key: the listener speaks TLS only
    tls_key: Path | None = None


@dataclass(frozen=True, slots=True)
class HallBroker:
    hall: str
    tables: tuple[str, ...]
    listener: Listener = Listener()

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
            *(f"topic read {TOPIC_ROOT}/{h}/+/{c.value}" for c in PUBLIC_CHANNELS),
        ]
        return "\n".join(lines) + "\n"

    def conf(self, folder: Path) -> str:
        """The drop-in; `folder`: where the passwd and acl files are on the broker's machine."""
        ln = self.listener
        lines = [
            f"# hall {self.hall}: written by `mjtable hall broker-config` (docs/MQTT.md)",
            f"listener {ln.port}{' ' + ln.host if ln.host else ''}",
        ]
        if ln.tls_cert is not None:
            key = ln.tls_key.resolve()  # type: ignore[union-attr]  # a listener with a cert has its key (checked)
            lines += [f"certfile {ln.tls_cert.resolve()}", f"keyfile {key}"]
        where = folder.resolve()
        lines += [
            "allow_anonymous false",
            f"password_file {where / 'passwd'}",
            f"acl_file {where / 'acl'}",
        ]
        return "\n".join(lines) + "\n"


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
        path = creds / user
        if not path.exists():
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(secrets.token_urlsafe(18) + "\n")
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
    conf = broker.conf(installed_at or folder)
    (folder / "mjtable-hall.conf").write_text(conf, encoding="utf-8")
    return files


def parse_listen(text: str, tls: bool) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = ("", text) if text.isdigit() else (text, "")
    if port and not port.isdigit():
        raise BrokerConfigError(f"--listen is [HOST:]PORT, not {text!r}")
    number = int(port) if port else (8883 if tls else 1883)
    if not 0 < number < 65536:
        raise BrokerConfigError(f"--listen: port {number} is not 1-65535")
    return host.strip("[]"), number


def hall_broker(
    hall: str,
    tables: Sequence[str],
    listen: str | None,
    tls_cert: Path | None,
    tls_key: Path | None,
) -> HallBroker:
    tls = tls_cert is not None
    host, port = parse_listen(listen, tls) if listen else ("", 8883 if tls else 1883)
    return HallBroker(hall, tuple(tables), Listener(host, port, tls_cert, tls_key))
