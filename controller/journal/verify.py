"""Checking a journal's hash chain (`Journal.verify`) and what it finds: the first bad
record, or a head that names another last record (records cut from the end); and checking
it against anchors kept outside its disk (`Anchor`: the seq and hash of a record, e.g. the
chain head of a settled deal the daemon published to the hub, the referee page and the
report). One flipped byte in the `-wal` makes SQLite drop every later frame, and the chain
that is left verifies: only an anchor shows the records that are gone (issue 15 item 5)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

from controller.journal.records import RecordKind, Source, canonical_json, chain_hash


class Problem(Enum):
    """What `verify` found wrong, at the first bad record."""

    SEQUENCE_GAP = "sequence gap"
    BROKEN_LINK = "broken link"  # prev_hash is not the previous record's hash
    HASH_MISMATCH = "hash mismatch"  # the record's content does not hash to its hash
    BAD_RECORD = "bad record"  # unknown kind/source, payload not canonical JSON
    HEAD_MISMATCH = "head mismatch"  # the head names another last record (truncation)
    MISSING = "records missing"  # an anchor names a record past the journal's end
    ANCHOR_MISMATCH = "anchor mismatch"  # an anchor's record has another hash


@dataclass(frozen=True, slots=True)
class Finding:
    seq: int
    problem: Problem
    detail: str

    def __str__(self) -> str:
        return f"record {self.seq}: {self.problem.value}: {self.detail}"


@dataclass(frozen=True, slots=True, order=True)
class Anchor:
    """A record's seq and hash as published outside the journal: `SEQ:HASH`."""

    seq: int
    hash: str

    @classmethod
    def parse(cls, text: str) -> Anchor:
        seq, sep, digest = text.strip().partition(":")
        digest = digest.lower()
        if not sep or not seq.isdigit() or int(seq) < 1:
            raise ValueError(
                f"an anchor is SEQ:HASH (a record number, a colon, 64 hex digits): {text!r}"
            )
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise ValueError(f"anchor {text!r}: the hash is 64 hex digits")
        return cls(int(seq), digest)

    def __str__(self) -> str:
        return f"{self.seq}:{self.hash}"


def check_anchor(anchor: Anchor, records: int, stored: str | None) -> Finding | None:
    """`anchor` against a journal of `records` verified records whose record `anchor.seq`
    has hash `stored` (None: no such record)."""
    if anchor.seq > records or stored is None:
        return Finding(
            anchor.seq,
            Problem.MISSING,
            f"the anchor {anchor} names record {anchor.seq}, the journal ends at record "
            f"{records}: at least {anchor.seq - records} records are gone",
        )
    if stored != anchor.hash:
        return Finding(
            anchor.seq,
            Problem.ANCHOR_MISMATCH,
            f"the journal's record {anchor.seq} has hash {stored}, the anchor {anchor.hash}",
        )
    return None


@dataclass(frozen=True, slots=True)
class Verification:
    records: int
    deals: int
    last_hash: str
    finding: Finding | None  # None: the chain is intact

    @property
    def ok(self) -> bool:
        return self.finding is None


def check_row(row: tuple[Any, ...], expected_seq: int, prev: str) -> Finding | None:
    seq, mono, wall, source, kind, deal, payload, prev_hash, digest = row
    if seq != expected_seq:
        return Finding(seq, Problem.SEQUENCE_GAP, f"expected record {expected_seq}, found {seq}")
    if prev_hash != prev:
        return Finding(seq, Problem.BROKEN_LINK, f"prev_hash {prev_hash} is not {prev}")
    try:
        Source(source)
        RecordKind(kind)
        canonical = canonical_json(json.loads(payload))
        if not isinstance(mono, float) or not isinstance(wall, str):
            raise ValueError(f"times are {type(mono).__name__}/{type(wall).__name__}")
        actual = chain_hash(prev_hash, seq, mono, wall, source, kind, deal, payload)
    except (TypeError, ValueError) as err:
        return Finding(seq, Problem.BAD_RECORD, str(err))
    if canonical != payload:
        return Finding(seq, Problem.BAD_RECORD, "payload is not canonical JSON")
    if actual != digest:
        return Finding(
            seq,
            Problem.HASH_MISMATCH,
            f"content hashes to {actual}, stored {digest}",
        )
    return None
