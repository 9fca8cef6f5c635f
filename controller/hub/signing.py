"""Table keys and deal signatures (docs/MQTT.md "Securing a hall").

Each table signs every settled deal it publishes, and every correction, with its own Ed25519
key, made once at set-up (`mjtable hall key make`) and kept beside the table's config, mode
0600. The hub holds the tables' public keys in a keys file (`mjtable hall key trust`) and
refuses a deal from a keyed table whose signature does not verify.

Ed25519 rather than a per-table HMAC: the hub holds public keys only, so neither the hub's
machine nor a copy of its keys file can forge a table's results, and a key can be read out
over the phone or printed (`ed25519:` and 44 base64 characters).

The signed message is a domain line, then the deal's fields, the hall and table it is for
and its chain head (`head`, the journal record's hash), as canonical JSON:

    mjtable-deal-signature-v1
    {"deal":2,"dealer":"S","deltas":[-8,-4,6,6],"dice":[6,4],"hall":"h1","head":"4ab5…",
     "players":["Ann","Bo","Cy","Di"],"rules":"wmt","seq":412,"session":1,"table":"7",
     "winners":["W","N"]}

No time is signed: the clocks of the tables and the hub do not matter.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import hashlib
import json
import os
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from controller.errors import TableError
from controller.hub.wire import SettledDeal

DOMAIN = b"mjtable-deal-signature-v1\n"
PUBLIC_PREFIX = "ed25519:"


class TableKeyError(TableError, ValueError):
    """A key file or a public key that cannot be used (the message names which and why)."""


def signed_message(hall: str, table: str, deal: SettledDeal) -> bytes:
    fields = {
        "hall": hall,
        "table": table,
        "seq": deal.seq,
        "session": deal.session,
        "deal": deal.deal,
        "rules": deal.rules,
        "dealer": deal.dealer.name,
        "dice": list(deal.dice),
        "winners": [s.name for s in deal.winners],
        "deltas": list(deal.deltas),
        "players": list(deal.players),
        "head": deal.head,
        # signed where a table sends them (a deal without any reads as before they existed)
        **({"penalties": list(deal.penalties)} if any(deal.penalties) else {}),
        **({"to_nobody": deal.to_nobody} if deal.to_nobody else {}),
    }
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return DOMAIN + text.encode()


def public_text(key: Ed25519PublicKey) -> str:
    """`ed25519:` and the raw 32-byte key in base64: what the hub's keys file holds."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return PUBLIC_PREFIX + base64.b64encode(raw).decode()


def parse_public(text: str) -> Ed25519PublicKey:
    if not text.startswith(PUBLIC_PREFIX):
        raise TableKeyError(f"a public key is {PUBLIC_PREFIX}BASE64, not {text[:20]!r}")
    try:
        raw = base64.b64decode(text[len(PUBLIC_PREFIX) :], validate=True)
        return Ed25519PublicKey.from_public_bytes(raw)
    except (binascii.Error, ValueError):
        raise TableKeyError(f"not an Ed25519 public key: {text!r}") from None


def fingerprint(key: Ed25519PublicKey) -> str:
    """16 hex digits naming a key (what a deal carries in `key`, and the pages show)."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


@dataclass(frozen=True)
class TableKey:
    """A table's private key: signs the deals its publisher sends."""

    private: Ed25519PrivateKey

    @property
    def public(self) -> Ed25519PublicKey:
        return self.private.public_key()

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def sign(self, hall: str, table: str, deal: SettledDeal) -> SettledDeal:
        signature = self.private.sign(signed_message(hall, table, deal))
        return dataclasses.replace(
            deal, key=self.fingerprint, sig=base64.b64encode(signature).decode()
        )

    @classmethod
    def make(cls) -> TableKey:
        return cls(Ed25519PrivateKey.generate())

    def write(self, path: Path) -> None:
        """A new file, mode 0600 from its creation (never over an existing one)."""
        pem = self.private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
            f.flush()
            os.fsync(f.fileno())

    @classmethod
    def read(cls, path: Path) -> TableKey:
        try:
            data = path.read_bytes()
        except OSError as err:
            raise TableKeyError(
                f"{path}: cannot read the table key: {err.strerror or err}"
            ) from None
        try:
            private = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError):
            raise TableKeyError(
                f"{path}: not a table key (mjtable hall key make writes one)"
            ) from None
        if not isinstance(private, Ed25519PrivateKey):
            raise TableKeyError(f"{path}: not an Ed25519 key")
        return cls(private)


class Check(Enum):
    GOOD = "good"  # signed by the key the hub holds for the table
    UNSIGNED = "unsigned"  # no signature at all
    OTHER_KEY = "other-key"  # signed, naming a key the hub does not hold for the table
    BAD = "bad"  # the signature does not verify (the fields were changed, or forged)


def check(hall: str, table: str, deal: SettledDeal, key: Ed25519PublicKey) -> Check:
    if not deal.sig:
        return Check.UNSIGNED
    if deal.key and deal.key != fingerprint(key):
        return Check.OTHER_KEY
    try:
        key.verify(base64.b64decode(deal.sig, validate=True), signed_message(hall, table, deal))
    except (InvalidSignature, binascii.Error, ValueError):
        return Check.BAD
    return Check.GOOD
