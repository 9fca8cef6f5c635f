"""The udev rules that give a table's adapters their stable names (/dev/mjtable-reader,
/dev/mjtable-table), made from what `mjtable probe` found (tools/probe.py).

An adapter is matched by its USB VID:PID and serial number (udev's `ATTRS{serial}`), or, one
without a serial number (most CH340s), by the USB port it is plugged into (`KERNELS`). The
reader is the USB serial adapter probe identified as a reader; the table board the one that
answered a table profile's identify command, else the only other USB serial adapter. A role
no adapter was found for keeps the line an earlier file had for it, or gets a placeholder
line that matches nothing (`ATTRS{idVendor}=="VENDOR"`) and says how to fill it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TypeGuard

from tools.probe import Finding, Pn53x, SerialCandidate, TableBoard, UhfBus

HEADER = "# mjtable: written by `mjtable setup`"
# a serial number udev can match as written (no quotes, spaces or control characters)
SERIAL_WORD = re.compile(r"^[A-Za-z0-9_.:-]+$")
PLACEHOLDER = 'ATTRS{idVendor}=="VENDOR", ATTRS{idProduct}=="PRODUCT", ATTRS{serial}=="SERIAL"'
ACCESS = 'GROUP="dialout", MODE="0660", TAG+="systemd"'

# A PN533 on USB is opened through pyusb: any of them, by VID:PID (shipped rules).
PN533_RULES = """\
# NXP PN533 reader over USB (pyusb, no kernel driver): readable by the plugdev group
SUBSYSTEM=="usb", ATTRS{idVendor}=="04cc", ATTRS{idProduct}=="2533", GROUP="plugdev", MODE="0660", TAG+="systemd"
# the kernel's pn533 NFC driver would claim the device first: keep it away
ACTION=="add", SUBSYSTEM=="usb", ATTRS{idVendor}=="04cc", ATTRS{idProduct}=="2533", RUN+="/bin/sh -c 'echo -n %k > /sys/bus/usb/drivers/pn533_usb/unbind || true'"
"""


class Role(Enum):
    READER = "reader"
    TABLE = "table"

    @property
    def link(self) -> str:
        return f"mjtable-{self.value}"

    @property
    def title(self) -> str:
        return "UHF tile reader" if self is Role.READER else "Table controller board"


@dataclass(frozen=True, slots=True)
class Adapter:
    """A USB serial adapter given a role."""

    role: Role
    port: SerialCandidate
    why: str  # how its role was known

    @property
    def match(self) -> str:
        p = self.port
        ids = f'ATTRS{{idVendor}}=="{p.vid or 0:04x}", ATTRS{{idProduct}}=="{p.pid or 0:04x}"'
        if _serial(p):
            return f'{ids}, ATTRS{{serial}}=="{p.serial_number}"'
        # no serial number: the USB port it is plugged into (its interface, "1-1.2:1.0")
        return f'{ids}, KERNELS=="{p.location}"'

    def describe(self) -> str:
        p = self.port
        by = f"serial {p.serial_number}" if _serial(p) else f"USB port {p.location}"
        return f"{p.device} ({p.usb_id}, {by})"


@dataclass(frozen=True, slots=True)
class Found:
    """The adapters found for each role, and the USB serial adapters no role was given."""

    reader: Adapter | None
    table: Adapter | None
    unsure: tuple[SerialCandidate, ...] = ()

    def of(self, role: Role) -> Adapter | None:
        return self.reader if role is Role.READER else self.table


def _serial(port: SerialCandidate) -> str:
    return port.serial_number if SERIAL_WORD.match(port.serial_number) else ""


def _usable(port: SerialCandidate | None) -> TypeGuard[SerialCandidate]:
    """A USB serial adapter a rule can name (by serial number or USB port)."""
    return port is not None and port.vid is not None and bool(_serial(port) or port.location)


def assign(findings: Sequence[Finding]) -> Found:
    """Which adapter is the reader and which the table board."""
    reader = next(
        (
            Adapter(Role.READER, f.port, f"answered as a reader: {f.note}")
            for f in findings
            if isinstance(f.identity, UhfBus | Pn53x) and _usable(f.port)
        ),
        None,
    )
    table = next(
        (
            Adapter(Role.TABLE, f.port, f"answered as a table board: {f.note}")
            for f in findings
            if isinstance(f.identity, TableBoard) and _usable(f.port)
        ),
        None,
    )
    taken = {a.port.device for a in (reader, table) if a is not None}
    others = tuple(
        f.port
        for f in findings
        if f.identity is None and _usable(f.port) and f.port.device not in taken
    )
    if table is None and len(others) == 1:
        why = "the only other USB serial adapter (it was not asked: a board may take bytes for commands)"
        return Found(reader, Adapter(Role.TABLE, others[0], why))
    return Found(reader, table, others)


def rule_line(role: Role, match: str) -> str:
    return f'SUBSYSTEM=="tty", {match}, SYMLINK+="{role.link}", {ACCESS}'


def existing_line(text: str, role: Role) -> str | None:
    """The rule an earlier file had for `role`, unless it was the placeholder."""
    for line in text.splitlines():
        if not line.startswith("#") and f'SYMLINK+="{role.link}"' in line:
            return None if "VENDOR" in line else line
    return None


def render(found: Found, earlier: str = "") -> str:
    """The rules file: each role's adapter found now, else the earlier file's line, else the
    placeholder."""
    parts = [
        f"{HEADER} from the adapters `mjtable probe` found (docs/DAEMON.md).",
        "# Applied by `udevadm control --reload && udevadm trigger` (mjtable setup does both).",
        "",
    ]
    for role in Role:
        adapter = found.of(role)
        if adapter is not None:
            parts.append(f"# {role.title} -> /dev/{role.link}: {adapter.describe()}")
            parts.append(f"#   {adapter.why}")
            parts.append(rule_line(role, adapter.match))
        elif (line := existing_line(earlier, role)) is not None:
            parts.append(f"# {role.title} -> /dev/{role.link} (as found before)")
            parts.append(line)
        else:
            parts.append(f"# {role.title} -> /dev/{role.link}: NOT FOUND. Plug it in and run")
            parts.append("# `sudo mjtable setup` again, or put its numbers in place of VENDOR,")
            parts.append("# PRODUCT and SERIAL (udevadm info -a /dev/ttyUSB0 | grep -E")
            parts.append(
                "# 'idVendor|idProduct|serial'; no serial: KERNELS==\"1-1.2:1.0\", its port)."
            )
            parts.append(rule_line(role, PLACEHOLDER))
        parts.append("")
    parts.append(PN533_RULES)
    return "\n".join(parts)


def placeholders(text: str) -> list[Role]:
    """The roles whose line in a rules file is still the placeholder."""
    return [
        role
        for role in Role
        if any(
            f'SYMLINK+="{role.link}"' in ln and "VENDOR" in ln
            for ln in text.splitlines()
            if not ln.startswith("#")
        )
    ]


def written_by_setup(text: str) -> bool:
    return text.startswith(HEADER)
