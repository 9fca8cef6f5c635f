"""The deal journal: an append-only, hash-chained SQLite file (WAL, synchronous=FULL).

`Journal.open(path)` is the writer (the daemon); `Journal.open_readonly(path)` is for tools
(`mode=ro` URI plus `PRAGMA query_only`, so they never modify the file). Every record is
committed and fsync'd before `append` returns it: "a record is committed before anything acts
on it" (issue 5). Record kinds and payloads: docs/JOURNAL.md and `controller.journal.records`.

`add_commit_observer(f)` has `f(t, records)` called after each commit of any writer in this
process, `t` the monotonic clock (`time.monotonic`, CLOCK_MONOTONIC: comparable across the
machine's processes) once the commit's fsync has returned: the point `mjtable bench daemon`
times the journal at (tools/bench/commit_log.py). An observer only looks; what it raises is
logged, and the commit stands.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from controller.clock import Clock, SystemClock
from controller.journal.file import (
    COLUMNS,
    check_header,
    check_schema,
    check_writable,
    create,
    wrap,
)
from controller.journal.records import (
    DEAL_KINDS,
    GENESIS_HASH,
    JSON,
    Correction,
    JournalError,
    Record,
    RecordKind,
    Source,
    Stamp,
    chain_hash,
    check_payload,
)
from controller.journal.verify import (
    Anchor,
    Finding,
    Problem,
    Verification,
    check_anchor,
    check_row,
)

__all__ = ["Checkpoint", "CommitObserver", "Journal", "add_commit_observer", "journal_append_bench"]

log = logging.getLogger(__name__)

CommitObserver = Callable[[float, Sequence[Record]], None]
_commit_observers: list[CommitObserver] = []


def add_commit_observer(observer: CommitObserver) -> Callable[[], None]:
    """Call `observer(t, records)` after every commit of this process's journals (the
    module's docstring); returns the function that stops it."""
    _commit_observers.append(observer)
    return lambda: _commit_observers.remove(observer)


CACHE_KIB = 512  # the writer's page cache (SQLite's default 2 MB: appends read few pages)
BUSY_TIMEOUT_MS = 5000  # the writer waits this long for another writer's transaction


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """What a WAL checkpoint did: frames in the WAL, frames copied into the database."""

    busy: bool
    in_wal: int
    done: int


class Prelude(Protocol):
    """Records a journal commits ahead of each append (`Journal.set_prelude`)."""

    def take(
        self,
    ) -> Sequence[tuple[Source, RecordKind, Mapping[str, JSON], int | None, Stamp]]: ...
    def lost(self) -> None: ...


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
        self._prelude: Prelude | None = None
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
            create(path)
        else:
            cls.open_readonly(path).close()
            check_writable(path)
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            raise wrap(err, path) from err
        try:
            if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] != "wal":
                raise JournalError(f"{path}: WAL mode is not available here")
            # FULL: the WAL is fsync'd at every commit, so a returned record survives power loss.
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            check_schema(conn, path)
            conn.execute("BEGIN IMMEDIATE")  # takes the write lock: fails here if it cannot
            conn.execute("ROLLBACK")
        except sqlite3.Error as err:
            conn.close()
            raise wrap(err, path) from err
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
        check_header(path)
        options = "mode=ro" if Path(f"{path}-wal").exists() else "mode=ro&immutable=1"
        try:
            conn = sqlite3.connect(
                f"{path.absolute().as_uri()}?{options}", uri=True, check_same_thread=False
            )
        except sqlite3.Error as err:
            raise wrap(err, path) from err
        try:
            conn.execute("PRAGMA query_only=ON")
            check_schema(conn, path)
        except sqlite3.Error as err:
            conn.close()
            raise wrap(err, path) from err
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

    def checkpoint(self, restart: bool = False, wait: float = 0.1) -> Checkpoint:
        """PASSIVE (the default), on a connection of its own: the committed WAL frames are
        copied into the database without waiting for, or blocking, appends; the WAL file keeps
        its size, and while appends keep coming it is never restarted (it grew to 349 MB in
        65 s of noisy play, issue 15 item 3). `restart`: a TRUNCATE checkpoint on the
        writer's connection, between two appends (they wait for it), waiting up to `wait`
        seconds for other processes' readers; it copies what is left and empties the WAL
        file. `busy`: it could not finish (a reader held the WAL)."""
        if restart:
            return self._truncate(wait)
        conn = sqlite3.connect(self.path, timeout=wait)
        try:
            busy, in_wal, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as err:
            raise wrap(err, self.path) from err
        finally:
            conn.close()
        return Checkpoint(bool(busy), in_wal, done)

    def _truncate(self, wait: float) -> Checkpoint:
        if not self.writable:
            raise JournalError(f"{self.path}: opened read-only")
        with self._lock:
            conn = self._conn
            try:
                conn.execute(f"PRAGMA busy_timeout={max(0, int(wait * 1000))}")
                busy, in_wal, done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.Error as err:
                raise wrap(err, self.path) from err
            finally:
                conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        return Checkpoint(bool(busy), in_wal, done)

    def wal_size(self) -> int:
        """Bytes in the `-wal` file beside the journal (0: none)."""
        try:
            return os.stat(f"{self.path}-wal").st_size
        except FileNotFoundError:
            return 0

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

    def set_prelude(self, prelude: Prelude | None) -> None:
        """Records to commit ahead of every append, in its transaction: `prelude.take()` is
        asked (under the journal's lock) before each commit, `prelude.lost()` told when that
        commit failed. The daemon's device inputs ride this way (controller/daemon/input_log.py):
        whatever a decision follows is committed before the decision."""
        self._prelude = prelude

    def _commit(self, conn: sqlite3.Connection, rows: list[tuple[Any, ...]]) -> list[Record]:
        ahead = []
        if self._prelude is not None:
            for source, kind, payload, deal, stamp in self._prelude.take():
                ahead.append((source, kind, deal, payload, check_payload(kind, payload), stamp))
        try:
            return self._insert(conn, ahead + rows)[len(ahead) :]
        except BaseException:
            if ahead and self._prelude is not None:
                self._prelude.lost()
            raise

    def _insert(self, conn: sqlite3.Connection, rows: list[tuple[Any, ...]]) -> list[Record]:
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
                if _commit_observers:
                    _committed(time.monotonic(), out)
            except BaseException:
                self._marks.clear()
                self._marks_at = -1
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as err:
            raise wrap(err, self.path) from err
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
            raise wrap(err, self.path) from err

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
                raise wrap(err, self.path) from err
            finally:
                if own and self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")

    def check_anchors(self, anchors: Iterable[Anchor], records: int) -> list[Finding]:
        """Each anchor the journal (of `records` verified records) does not hold: records
        missing after it, or another hash at its seq."""
        found = []
        for anchor in sorted(set(anchors)):
            rec = self.get(anchor.seq) if anchor.seq <= records else None
            finding = check_anchor(anchor, records, None if rec is None else rec.hash)
            if finding is not None:
                found.append(finding)
        return found

    def _verify(self) -> Verification:
        expected_seq, prev, count = 1, GENESIS_HASH, 0
        deals: set[int] = set()
        try:
            cursor = self._conn.execute(f"SELECT {', '.join(COLUMNS)} FROM record ORDER BY seq")
            while rows := cursor.fetchmany(1000):
                for row in rows:
                    finding = check_row(row, expected_seq, prev)
                    if finding is not None:
                        return Verification(count, len(deals), prev, finding)
                    seq, kind, deal = row[0], row[4], row[5]
                    if kind == RecordKind.DEAL_STARTED.value:
                        deals.add(deal)
                    expected_seq, prev, count = seq + 1, row[8], count + 1
            head_seq, head_hash = self._conn.execute("SELECT seq, hash FROM head").fetchone()
        except sqlite3.Error as err:
            raise wrap(err, self.path) from err
        if (head_seq, head_hash) != (count, prev):
            finding = Finding(
                count,
                Problem.HEAD_MISMATCH,
                f"the head names record {head_seq} ({head_hash}), the last record is "
                f"{count} ({prev}): records were removed from the end",
            )
            return Verification(count, len(deals), prev, finding)
        return Verification(count, len(deals), prev, None)


def _committed(t: float, records: Sequence[Record]) -> None:
    for observer in tuple(_commit_observers):
        try:
            observer(t, records)
        except Exception:
            log.exception("a journal commit observer failed (the commit stands)")


def _record(row: tuple[Any, ...], path: Path) -> Record:
    seq, mono, wall, source, kind, deal, payload, prev_hash, digest = row
    try:
        return Record(
            seq, mono, wall, Source(source), RecordKind(kind), deal, payload, prev_hash, digest
        )
    except ValueError as err:
        raise JournalError(f"{path}: record {seq}: {err}") from None


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
