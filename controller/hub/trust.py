"""The hub's trust in each table's results: the tables' public keys (the hub's keys file) and
the deals it refused for their signature (docs/MQTT.md "Securing a hall").

The keys file holds one line per table, `<hall> <table> ed25519:BASE64` (`#` starts a
comment), written by `mjtable hall key trust`. It is read again when it changes, so a
table's new key is trusted without restarting the hub; deals refused meanwhile are checked
again then (a table whose key was replaced is not left out of the standings).

A table the keys file names must sign: an unsigned deal, a bad signature or another key is
refused, counted and kept for the director's page. A table it does not name is "unsigned":
its deals are taken as they come (the broker's ACL is then the only guard).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from controller.hub.signing import Check, TableKeyError, check, fingerprint, parse_public
from controller.hub.wire import SettledDeal

log = logging.getLogger(__name__)

KEPT_REFUSED = 2000  # refused deals kept per table, to be checked again with a new key

_Key = tuple[str, str]  # hall, table


def read_keys(path: Path) -> dict[_Key, Ed25519PublicKey]:
    """The keys file; an error names the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise TableKeyError(f"{path}: cannot read the keys file: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise TableKeyError(f"{path}: not a keys file (not UTF-8 text)") from None
    keys: dict[_Key, Ed25519PublicKey] = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 3:
            raise TableKeyError(
                f"{path}:{number}: a line is `HALL TABLE ed25519:KEY`, not {line.strip()!r}"
            )
        try:
            key = parse_public(words[2])
        except TableKeyError as err:
            raise TableKeyError(f"{path}:{number}: {err}") from None
        if (words[0], words[1]) in keys:
            raise TableKeyError(f"{path}:{number}: table {words[1]} of hall {words[0]} again")
        keys[(words[0], words[1])] = key
    return keys


def trust_key(path: Path, hall: str, table: str, public: str, replace: bool = False) -> str:
    """Write (or, with `replace`, replace) a table's public key into the keys file, atomically.
    Returns what was done, in words; raises TableKeyError when it would replace unasked."""
    key = parse_public(public)
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    held = read_keys(path) if path.exists() else {}
    old = held.get((hall, table))
    if old is not None and fingerprint(old) == fingerprint(key):
        return f"table {table} of hall {hall}: this key is held already ({fingerprint(key)})"
    if old is not None and not replace:
        raise TableKeyError(
            f"{path}: table {table} of hall {hall} has another key ({fingerprint(old)}); "
            "--replace replaces it (only when the table's key was lost or made again)"
        )
    kept = [ln for ln in lines if ln.split("#", 1)[0].split()[:2] != [hall, table]]
    kept.append(f"{hall} {table} {public}")
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text("\n".join(kept) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    what = "replaced" if old is not None else "trusted"
    return f"table {table} of hall {hall}: key {fingerprint(key)} {what} in {path}"


@dataclass(frozen=True, slots=True)
class Refusal:
    wall: str  # when the hub refused it (its own clock, ISO 8601)
    why: Check
    session: int
    deal: int
    seq: int
    key: str  # the key the deal named ("" when unsigned)


@dataclass(frozen=True, slots=True)
class TableTrust:
    keyed: bool  # the hub holds the table's key: its deals must be signed with it
    refused: int = 0  # distinct deals refused for their signature
    last: Refusal | None = None
    other_key: str = ""  # the table now signs with a key the hub does not hold ...
    other_key_since: str | None = None  # ... since then (its key lost or replaced)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Gate:
    """Decides, per deal, whether the hub takes it. Thread-safe."""

    def __init__(self, keys_path: Path | None, clock: Callable[[], str] = _now) -> None:
        self.path, self.clock = keys_path, clock
        self._lock = threading.Lock()
        self._keys: dict[_Key, Ed25519PublicKey] = {}
        self._stamp: tuple[int, int] | None = None
        self._refused: dict[_Key, dict[tuple[int, int, int, str], SettledDeal]] = {}
        self._counted: dict[_Key, int] = {}
        self._last: dict[_Key, Refusal] = {}
        # the other key a table signs with: fingerprint, since, the newest seq signed with it
        self._other: dict[_Key, tuple[str, str, int]] = {}
        self._said: set[tuple[_Key, Check]] = set()
        if keys_path is not None:
            self._keys = read_keys(keys_path)  # a bad file at start-up is an error
            self._stamp = _stamp(keys_path)

    def admit(self, hall: str, table: str, deal: SettledDeal) -> bool:
        with self._lock:
            key = self._keys.get((hall, table))
            if key is None:
                return True
            verdict = check(hall, table, deal, key)
            if verdict is Check.GOOD:
                other = self._other.get((hall, table))
                if other is not None and deal.seq > other[2]:  # back on the key held
                    del self._other[(hall, table)]
                return True
            self._refuse((hall, table), deal, verdict)
            return False

    def _refuse(self, where: _Key, deal: SettledDeal, verdict: Check) -> None:
        held = self._refused.setdefault(where, {})
        ident = (deal.session, deal.deal, deal.seq, deal.sig)
        if ident in held:
            return  # the same deal again (the ledger, QoS 1): counted once
        if len(held) >= KEPT_REFUSED:
            held.pop(next(iter(held)))
        held[ident] = deal
        wall = self.clock()
        self._counted[where] = self._counted.get(where, 0) + 1
        self._last[where] = Refusal(wall, verdict, deal.session, deal.deal, deal.seq, deal.key)
        if verdict is Check.OTHER_KEY:
            fp, since, seq = self._other.get(where, (deal.key, wall, 0))
            self._other[where] = (deal.key, wall if fp != deal.key else since, max(seq, deal.seq))
        hall, table = where
        first = (where, verdict) not in self._said
        self._said.add((where, verdict))
        (log.warning if first else log.debug)(
            "refused a deal for table %s of hall %s (session %d, deal %d, seq %d): %s",
            table,
            hall,
            deal.session,
            deal.deal,
            deal.seq,
            _WHY[verdict],
        )

    def refresh(self) -> list[tuple[str, str, SettledDeal]]:
        """Read the keys file again if it changed; the refused deals that now verify."""
        if self.path is None:
            return []
        stamp = _stamp(self.path)
        with self._lock:
            if stamp == self._stamp:
                return []
            self._stamp = stamp
        try:
            keys = read_keys(self.path)
        except TableKeyError as err:
            log.error("%s; the hub keeps the keys it had", err)
            return []
        now_good: list[tuple[str, str, SettledDeal]] = []
        with self._lock:
            self._keys = keys
            log.info("keys file %s read again: %d table key(s)", self.path, len(keys))
            for where, held in self._refused.items():
                key = keys.get(where)
                for ident, deal in list(held.items()):
                    if key is None or check(*where, deal, key) is Check.GOOD:
                        del held[ident]
                        now_good.append((*where, deal))
                if key is not None and any(d[:2] == where for d in now_good):
                    self._other.pop(where, None)
        return now_good

    def trust(self, hall: str, table: str) -> TableTrust:
        with self._lock:
            where = (hall, table)
            other = self._other.get(where)
            return TableTrust(
                where in self._keys,
                self._counted.get(where, 0),
                self._last.get(where),
                other[0] if other else "",
                other[1] if other else None,
            )


_WHY = {
    Check.UNSIGNED: "it is not signed",
    Check.BAD: "its signature is bad",
    Check.OTHER_KEY: "it is signed with a key the hub does not hold for this table",
}


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size
