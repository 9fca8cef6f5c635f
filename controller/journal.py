"""The deal journal: an append-only, hash-chained SQLite file (WAL, synchronous=FULL).

`Journal.open(path)` is the writer (the daemon); `Journal.open_readonly(path)` is for tools
(`mode=ro` URI plus `PRAGMA query_only`, so they never modify the file). Every record is
committed and fsync'd before `append` returns it: "a record is committed before anything acts
on it" (issue 5). Record kinds and payloads: docs/JOURNAL.md and `controller.journal_records`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

from controller.journal_records import (
    DEAL_KINDS,
    GENESIS_HASH,
    JSON,
    Clock,
    Correction,
    JournalError,
    Record,
    RecordKind,
    Source,
    Stamp,
    canonical_json,
    chain_hash,
    check_payload,
)

APPLICATION_ID = 0x4D4A4A4E  # "MJJN": marks the SQLite file as an mjtable journal
FORMAT_VERSION = 1  # PRAGMA user_version
_SQLITE_MAGIC = b"SQLite format 3\x00"

_COLUMNS = ("seq", "mono", "wall", "source", "kind", "deal", "payload", "prev_hash", "hash")

# Triggers make the chain append-only even for someone holding a plain SQLite connection:
# no UPDATE or DELETE of a record, a new record must continue the head, and the head only
# moves one step forward onto the record just inserted.
_SCHEMA = f"""
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {FORMAT_VERSION};
CREATE TABLE record (
    seq INTEGER PRIMARY KEY,
    mono REAL NOT NULL,
    wall TEXT NOT NULL,
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    deal INTEGER,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX record_deal ON record (deal, seq) WHERE deal IS NOT NULL;
CREATE TABLE head (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL,
    hash TEXT NOT NULL
);
INSERT INTO head (id, seq, hash) VALUES (1, 0, '{GENESIS_HASH}');
CREATE TRIGGER record_append_only_update BEFORE UPDATE ON record
BEGIN SELECT RAISE(ABORT, 'journal records are append-only'); END;
CREATE TRIGGER record_append_only_delete BEFORE DELETE ON record
BEGIN SELECT RAISE(ABORT, 'journal records are append-only'); END;
CREATE TRIGGER record_continues_head BEFORE INSERT ON record
WHEN NEW.seq IS NOT (SELECT seq FROM head) + 1 OR NEW.prev_hash IS NOT (SELECT hash FROM head)
BEGIN SELECT RAISE(ABORT, 'a record must continue the chain head'); END;
CREATE TRIGGER head_moves_forward BEFORE UPDATE ON head
WHEN NEW.id IS NOT 1 OR NEW.seq IS NOT OLD.seq + 1
  OR NOT EXISTS (SELECT 1 FROM record WHERE seq = NEW.seq AND hash = NEW.hash)
BEGIN SELECT RAISE(ABORT, 'the chain head only moves onto the next record'); END;
CREATE TRIGGER head_kept BEFORE DELETE ON head
BEGIN SELECT RAISE(ABORT, 'the chain head cannot be deleted'); END;
"""


class SystemClock:
    """Real time: `time.monotonic()` and the UTC wall clock in ISO 8601 (milliseconds)."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> str:
        return datetime.now(UTC).isoformat(timespec="milliseconds")


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


def _wrap(err: sqlite3.Error, path: Path) -> JournalError:
    text = str(err)
    if isinstance(err, sqlite3.DatabaseError) and (
        "malformed" in text or "not a database" in text or "corrupt" in text
    ):
        return JournalError(f"{path}: damaged journal ({text})")
    return JournalError(f"{path}: {text}")


def _check_header(path: Path) -> None:
    """Refuse, before SQLite sees it, a file that is no journal: empty, not SQLite, or cut
    short (SQLite would open it and fail at the first record past the cut)."""
    try:
        with path.open("rb") as f:
            head = f.read(100)
            size = os.fstat(f.fileno()).st_size
    except IsADirectoryError:
        raise JournalError(f"{path}: is a folder, not a journal file") from None
    except OSError as err:
        raise JournalError(f"{path}: cannot read: {err.strerror or err}") from err
    if not head:
        raise JournalError(f"{path}: empty file (0 bytes), not a journal")
    if not head.startswith(_SQLITE_MAGIC):
        raise JournalError(f"{path}: not a journal (not an SQLite database)")
    if len(head) < 100:
        raise JournalError(f"{path}: damaged journal (cut short: {size} bytes)")
    # SQLite file header: page size at 16 (1 means 65536), the change counter at 24, the
    # page count at 28, valid when the "version-valid-for" number at 92 equals the counter.
    # With a WAL beside it the file may be mid-checkpoint (page 1 written, the file not yet
    # grown): SQLite recovers that from the WAL, so the size is judged only without one.
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    wal = Path(f"{path}-wal")
    settled = not wal.exists() or wal.stat().st_size == 0
    if settled and head[24:28] == head[92:96] and size < pages * page_size:
        raise JournalError(
            f"{path}: damaged journal (cut short: {size} bytes, its header says "
            f"{pages} pages of {page_size} = {pages * page_size} bytes)"
        )


def _check_writable(path: Path) -> None:
    """A journal the daemon cannot write is refused at start, not at its first append (the
    folder too: SQLite keeps the -wal and -shm files beside the journal)."""
    for target, what in ((path, "the journal"), (path.parent, "its folder")):
        if not os.access(target, os.W_OK):
            raise JournalError(f"{path}: cannot write {what} (read-only)")


def _check_schema(conn: sqlite3.Connection, path: Path) -> None:
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if app_id != APPLICATION_ID:
        raise JournalError(
            f"{path}: not an mjtable journal (SQLite application_id {app_id:#x}, "
            f"expected {APPLICATION_ID:#x})"
        )
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version != FORMAT_VERSION:
        raise JournalError(
            f"{path}: journal format version {version} (this program reads {FORMAT_VERSION})"
        )
    for table, expected in (("record", _COLUMNS), ("head", ("id", "seq", "hash"))):
        columns = tuple(row[1] for row in conn.execute(f"PRAGMA table_info({table})"))
        if columns != expected:
            raise JournalError(f"{path}: foreign journal schema (table {table}: {columns})")


class Journal:
    """An open journal. Use `open` (read-write, creates the file) or `open_readonly`."""

    def __init__(self, conn: sqlite3.Connection, path: Path, clock: Clock, writable: bool):
        self._conn = conn
        self._lock = threading.Lock()  # appends from several threads take turns
        # deal → its deal.started / deal.settled marks, valid while the head is `_marks_at`
        # (another writer moving the head clears it): without it every record of a deal
        # scanned the deal's records, a quadratic cost over a deal of noisy frames
        self._marks: dict[int, set[RecordKind]] = {}
        self._marks_at = -1
        self.path = path
        self.clock = clock
        self.writable = writable

    # --- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, clock: Clock | None = None) -> Journal:
        """Open for appending, creating the journal if no file is there (in a folder that
        exists: none is created). An existing file is first checked through a read-only
        connection, so a foreign, empty, damaged or read-only file is refused untouched."""
        path = Path(path)
        if not path.exists() and not path.is_symlink():
            if not path.parent.is_dir():
                raise JournalError(f"{path}: no such folder {path.parent}")
            _create(path)
        else:
            cls.open_readonly(path).close()
            _check_writable(path)
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            raise _wrap(err, path) from err
        try:
            if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] != "wal":
                raise JournalError(f"{path}: WAL mode is not available here")
            # FULL: the WAL is fsync'd at every commit, so a returned record survives power loss.
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA busy_timeout=5000")
            _check_schema(conn, path)
            conn.execute("BEGIN IMMEDIATE")  # takes the write lock: fails here if it cannot
            conn.execute("ROLLBACK")
        except sqlite3.Error as err:
            conn.close()
            raise _wrap(err, path) from err
        except JournalError:
            conn.close()
            raise
        return cls(conn, path, clock or SystemClock(), writable=True)

    @classmethod
    def open_readonly(cls, path: str | Path) -> Journal:
        """Open for reading only (`mode=ro`, `query_only`): the tools' way in.

        A live or crashed writer leaves a `-wal` file beside the journal: then the records in
        it are read through SQLite's WAL index. A cleanly closed journal has no `-wal` and is
        opened `immutable`, so reading creates no side files (and works on read-only media)."""
        path = Path(path)
        if not path.exists():
            raise JournalError(f"{path}: no such journal file")
        _check_header(path)
        options = "mode=ro" if Path(f"{path}-wal").exists() else "mode=ro&immutable=1"
        try:
            conn = sqlite3.connect(
                f"{path.absolute().as_uri()}?{options}", uri=True, check_same_thread=False
            )
        except sqlite3.Error as err:
            raise _wrap(err, path) from err
        try:
            conn.execute("PRAGMA query_only=ON")
            _check_schema(conn, path)
        except sqlite3.Error as err:
            conn.close()
            raise _wrap(err, path) from err
        except JournalError:
            conn.close()
            raise
        return cls(conn, path, SystemClock(), writable=False)

    def close(self) -> None:
        self._conn.close()

    def set_autocheckpoint(self, pages: int) -> None:
        """SQLite's automatic WAL checkpoint, run by the committing append once the WAL holds
        `pages` pages (default 1000); 0 turns it off, and the owner calls `checkpoint` (from
        any thread) so no append pays for copying the WAL into the database."""
        self._conn.execute(f"PRAGMA wal_autocheckpoint={int(pages)}")

    def checkpoint(self) -> tuple[int, int]:
        """A PASSIVE checkpoint on a connection of its own: the committed WAL frames are
        copied into the database file without waiting for, or blocking, appends. Returns
        (frames in the WAL, frames checkpointed)."""
        conn = sqlite3.connect(self.path, timeout=0.1)
        try:
            _, in_wal, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as err:
            raise _wrap(err, self.path) from err
        finally:
            conn.close()
        return in_wal, done

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- appending ----------------------------------------------------------------------------

    def append(
        self,
        source: Source,
        kind: RecordKind,
        payload: Mapping[str, JSON],
        *,
        deal: int | None = None,
        at: Stamp | None = None,
    ) -> Record:
        """Append one record and return it once committed (fsync'd). `at` defaults to the
        journal's clock. Deal records (docs/JOURNAL.md) must name a started, unsettled deal."""
        if not self.writable:
            raise JournalError(f"{self.path}: opened read-only")
        if not isinstance(source, Source) or not isinstance(kind, RecordKind):
            raise TypeError("source and kind must be Source and RecordKind members")
        text = check_payload(kind, payload)
        stamp = at or Stamp(self.clock.monotonic(), self.clock.wall())
        conn = self._conn
        with self._lock:
            return self._append(conn, source, kind, deal, payload, text, stamp)

    def _append(
        self,
        conn: sqlite3.Connection,
        source: Source,
        kind: RecordKind,
        deal: int | None,
        payload: Mapping[str, JSON],
        text: str,
        stamp: Stamp,
    ) -> Record:
        return self._commit(conn, [(source, kind, deal, payload, text, stamp)])[0]

    def append_many(
        self, entries: Sequence[tuple[Source, RecordKind, Mapping[str, JSON], int | None, Stamp]]
    ) -> list[Record]:
        """Append several records `(source, kind, payload, deal, at)` in one transaction (one
        fsync): all of them are committed when it returns, or none. The daemon stores the
        frames of one reader answer this way."""
        if not self.writable:
            raise JournalError(f"{self.path}: opened read-only")
        rows = []
        for source, kind, payload, deal, stamp in entries:
            if not isinstance(source, Source) or not isinstance(kind, RecordKind):
                raise TypeError("source and kind must be Source and RecordKind members")
            rows.append((source, kind, deal, payload, check_payload(kind, payload), stamp))
        if not rows:
            return []
        with self._lock:
            return self._commit(self._conn, rows)

    def _commit(self, conn: sqlite3.Connection, rows: list[tuple[Any, ...]]) -> list[Record]:
        out = []
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                last_seq, last_hash = conn.execute("SELECT seq, hash FROM head").fetchone()
                if last_seq != self._marks_at:
                    self._marks.clear()
                for source, kind, deal, payload, text, stamp in rows:
                    self._check_deal(kind, deal, payload)
                    mono = float(stamp.mono)
                    seq = last_seq + 1
                    digest = chain_hash(last_hash, seq, mono, stamp.wall, source, kind, deal, text)
                    conn.execute(
                        "INSERT INTO record VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (seq, mono, stamp.wall, str(source), str(kind), deal, text, last_hash,
                         digest),
                    )  # fmt: skip
                    out.append(
                        Record(seq, mono, stamp.wall, source, kind, deal, text, last_hash, digest)
                    )
                    conn.execute("UPDATE head SET seq = ?, hash = ? WHERE id = 1", (seq, digest))
                    if kind in (RecordKind.DEAL_STARTED, RecordKind.DEAL_SETTLED):
                        self._deal_marks(deal).add(kind)
                    last_seq, last_hash = seq, digest
                conn.execute("COMMIT")
                self._marks_at = last_seq
            except BaseException:
                self._marks.clear()
                self._marks_at = -1
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as err:
            raise _wrap(err, self.path) from err
        return out

    def _check_deal(self, kind: RecordKind, deal: int | None, payload: Mapping[str, JSON]) -> None:
        if kind is RecordKind.CORRECTION:
            return
        if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int) or deal < 1):
            raise ValueError(f"a deal number is an integer >= 1, not {deal!r}")
        if kind not in DEAL_KINDS:
            if deal is not None and not self._deal_marks(deal):
                raise JournalError(f"deal {deal} was never started")
            return
        if deal is None:
            raise ValueError(f"a {kind} record belongs to a deal: pass deal=")
        if kind in (RecordKind.DEAL_STARTED, RecordKind.DEAL_SETTLED) and payload["deal"] != deal:
            raise ValueError(f"{kind} payload names deal {payload['deal']}, record deal {deal}")
        marks = self._deal_marks(deal)
        if kind is RecordKind.DEAL_STARTED:
            if marks:
                raise JournalError(f"deal {deal} was already started")
        elif RecordKind.DEAL_STARTED not in marks:
            raise JournalError(f"deal {deal} was never started")
        elif RecordKind.DEAL_SETTLED in marks:
            raise JournalError(f"deal {deal} is already settled")

    def _deal_marks(self, deal: int) -> set[RecordKind]:
        marks = self._marks.get(deal)
        if marks is not None:
            return marks
        rows = self._conn.execute(
            "SELECT DISTINCT kind FROM record WHERE deal = ? AND kind IN (?, ?)",
            (deal, RecordKind.DEAL_STARTED.value, RecordKind.DEAL_SETTLED.value),
        )
        marks = self._marks[deal] = {RecordKind(row[0]) for row in rows}
        return marks

    def append_correction(
        self, correction: Correction, *, source: Source = Source.REFEREE, at: Stamp | None = None
    ) -> Record:
        """Append a `correction` record; it belongs to the deal of the record it corrects."""
        target = self.get(correction.corrects)
        if target is None:
            raise JournalError(f"record {correction.corrects} does not exist")
        return self.append(
            source, RecordKind.CORRECTION, correction.to_payload(), deal=target.deal, at=at
        )

    # --- reading ------------------------------------------------------------------------------

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> Iterator[Record]:
        try:
            cursor = self._conn.execute(sql, params)
            while rows := cursor.fetchmany(500):
                for row in rows:
                    yield _record(row, self.path)
        except sqlite3.Error as err:
            raise _wrap(err, self.path) from err

    def records(self, from_seq: int = 1) -> Iterator[Record]:
        return self._rows("SELECT * FROM record WHERE seq >= ? ORDER BY seq", (from_seq,))

    def get(self, seq: int) -> Record | None:
        return next(self._rows("SELECT * FROM record WHERE seq = ?", (seq,)), None)

    def last(self) -> Record | None:
        return next(self._rows("SELECT * FROM record ORDER BY seq DESC LIMIT 1"), None)

    def deal_records(self, deal: int, kinds: Iterable[RecordKind] = ()) -> Iterator[Record]:
        """The records of a deal; `kinds`: only those kinds (a noisy deal holds tens of
        thousands of raw frames that a referee's rebuild never reads)."""
        wanted = [str(k) for k in kinds]
        if not wanted:
            return self._rows("SELECT * FROM record WHERE deal = ? ORDER BY seq", (deal,))
        marks = ",".join("?" * len(wanted))
        sql = f"SELECT * FROM record WHERE deal = ? AND kind IN ({marks}) ORDER BY seq"
        return self._rows(sql, (deal, *wanted))

    def deals(self) -> list[int]:
        """Deal numbers in the order the deals were started."""
        return [
            r.deal
            for r in self._rows(
                "SELECT * FROM record WHERE kind = ? ORDER BY seq", (RecordKind.DEAL_STARTED.value,)
            )
            if r.deal is not None
        ]

    def corrections(self, deal: int) -> list[tuple[Record, Correction]]:
        """The correction records applying to a deal, in journal order, with their payloads."""
        rows = self._rows(
            "SELECT * FROM record WHERE deal = ? AND kind = ? ORDER BY seq",
            (deal, RecordKind.CORRECTION.value),
        )
        return [(r, Correction.from_payload(r.data())) for r in rows]

    # --- checking -----------------------------------------------------------------------------

    def integrity_problem(self) -> str | None:
        """SQLite's own page-level check; None when the file is sound."""
        try:
            rows = self._conn.execute("PRAGMA quick_check").fetchall()
        except sqlite3.Error as err:
            return str(err)
        text = "; ".join(str(r[0]) for r in rows)
        return None if text == "ok" else text

    def verify(self) -> Verification:
        """Walk the whole chain; stop at the first bad record.

        The records and the head are read in one read transaction, so a writer appending
        meanwhile (a live daemon) cannot make them disagree."""
        with self._lock:
            own = not self._conn.in_transaction
            try:
                if own:
                    self._conn.execute("BEGIN")
                return self._verify()
            except sqlite3.Error as err:
                raise _wrap(err, self.path) from err
            finally:
                if own and self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")

    def _verify(self) -> Verification:
        expected_seq, prev, deals, count = 1, GENESIS_HASH, set(), 0
        try:
            cursor = self._conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM record ORDER BY seq")
            while rows := cursor.fetchmany(1000):
                for row in rows:
                    finding = _check_row(row, expected_seq, prev)
                    if finding is not None:
                        return Verification(count, len(deals), prev, finding)
                    seq, kind, deal = row[0], row[4], row[5]
                    if kind == RecordKind.DEAL_STARTED.value:
                        deals.add(deal)
                    expected_seq, prev, count = seq + 1, row[8], count + 1
            head_seq, head_hash = self._conn.execute("SELECT seq, hash FROM head").fetchone()
        except sqlite3.Error as err:
            raise _wrap(err, self.path) from err
        if (head_seq, head_hash) != (count, prev):
            finding = Finding(
                count,
                Problem.HEAD_MISMATCH,
                f"the head names record {head_seq} ({head_hash}), the last record is "
                f"{count} ({prev}): records were removed from the end",
            )
            return Verification(count, len(deals), prev, finding)
        return Verification(count, len(deals), prev, None)


def _create(path: Path) -> None:
    """Build the empty journal beside `path` and rename it into place, so a process killed
    while creating leaves either no journal or a complete empty one, never a foreign file."""
    tmp = path.with_name(f".{path.name}.creating")
    for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        leftover.unlink(missing_ok=True)
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.executescript(f"BEGIN IMMEDIATE;{_SCHEMA}COMMIT;")
        finally:
            conn.close()  # the last connection checkpoints the WAL into the file
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)  # make the rename itself durable
        finally:
            os.close(fd)
    except sqlite3.Error as err:
        raise _wrap(err, path) from err
    except OSError as err:
        raise JournalError(f"{path}: cannot create the journal: {err}") from err


def _record(row: tuple[Any, ...], path: Path) -> Record:
    seq, mono, wall, source, kind, deal, payload, prev_hash, digest = row
    try:
        return Record(
            seq, mono, wall, Source(source), RecordKind(kind), deal, payload, prev_hash, digest
        )
    except ValueError as err:
        raise JournalError(f"{path}: record {seq}: {err}") from None


def _check_row(row: tuple[Any, ...], expected_seq: int, prev: str) -> Finding | None:
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


def journal_append_bench(n: int = 500, directory: str | Path | None = None) -> dict[str, float]:
    """Append `n` hw.frame records (fsync each) to a scratch journal; p50/p99/max in ms.
    For `mjtable bench daemon`."""
    import statistics
    import tempfile

    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        times: list[float] = []
        with Journal.open(Path(tmp) / "bench.journal") as journal:
            for i in range(n):
                start = time.perf_counter()
                journal.append(
                    Source.READER,
                    RecordKind.HW_FRAME,
                    {"device": "reader", "hex": f"{i:08x}" * 4, "antenna": i % 16 + 1},
                )
                times.append((time.perf_counter() - start) * 1000.0)
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return {"n": float(n), "p50_ms": cuts[49], "p99_ms": cuts[98], "max_ms": max(times)}
