"""The journal's file: its schema, creating it, and refusing what is not a journal (an empty,
foreign, cut-short or read-only file) before SQLite touches it. `controller.journal.store` opens
files through these; nothing here reads or writes records."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from controller.journal.records import GENESIS_HASH, JournalError

APPLICATION_ID = 0x4D4A4A4E  # "MJJN": marks the SQLite file as an mjtable journal
FORMAT_VERSION = 1  # PRAGMA user_version
SQLITE_MAGIC = b"SQLite format 3\x00"

COLUMNS = ("seq", "mono", "wall", "source", "kind", "deal", "payload", "prev_hash", "hash")

# Triggers make the chain append-only even for someone holding a plain SQLite connection:
# no UPDATE or DELETE of a record, a new record must continue the head, and the head only
# moves one step forward onto the record just inserted.
SCHEMA = f"""
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


def wrap(err: sqlite3.Error, path: Path) -> JournalError:
    text = str(err)
    if isinstance(err, sqlite3.DatabaseError) and (
        "malformed" in text or "not a database" in text or "corrupt" in text
    ):
        return JournalError(f"{path}: damaged journal ({text})")
    return JournalError(f"{path}: {text}")


def check_header(path: Path) -> None:
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
    if not head.startswith(SQLITE_MAGIC):
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


def check_writable(path: Path) -> None:
    """A journal the daemon cannot write is refused at start, not at its first append (the
    folder too: SQLite keeps the -wal and -shm files beside the journal)."""
    for target, what in ((path, "the journal"), (path.parent, "its folder")):
        if not os.access(target, os.W_OK):
            raise JournalError(f"{path}: cannot write {what} (read-only)")


def check_schema(conn: sqlite3.Connection, path: Path) -> None:
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
    for table, expected in (("record", COLUMNS), ("head", ("id", "seq", "hash"))):
        columns = tuple(row[1] for row in conn.execute(f"PRAGMA table_info({table})"))
        if columns != expected:
            raise JournalError(f"{path}: foreign journal schema (table {table}: {columns})")


def create(path: Path) -> None:
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
            conn.executescript(f"BEGIN IMMEDIATE;{SCHEMA}COMMIT;")
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
        raise wrap(err, path) from err
    except OSError as err:
        raise JournalError(f"{path}: cannot create the journal: {err}") from err
