"""Checking a journal's hash chain (`Journal.verify`) and what it finds: the first bad
record, or a head that names another last record (records cut from the end)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

from controller.journal_records import RecordKind, Source, canonical_json, chain_hash


class Problem(Enum):
    """What `verify` found wrong, at the first bad record."""

    SEQUENCE_GAP = "sequence gap"
    BROKEN_LINK = "broken link"  # prev_hash is not the previous record's hash
    HASH_MISMATCH = "hash mismatch"  # the record's content does not hash to its hash
    BAD_RECORD = "bad record"  # unknown kind/source, payload not canonical JSON
    HEAD_MISMATCH = "head mismatch"  # the head names another last record (truncation)


@dataclass(frozen=True, slots=True)
class Finding:
    seq: int
    problem: Problem
    detail: str

    def __str__(self) -> str:
        return f"record {self.seq}: {self.problem.value}: {self.detail}"


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
