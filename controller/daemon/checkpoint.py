"""The journal's WAL checkpoints, off the daemon's hot path.

With SQLite's automatic checkpoint the append that crosses 1000 WAL pages copies the WAL
into the database and fsyncs it: that one commit takes tens of milliseconds on an SD card
(the p99 of `mjtable bench daemon`). The daemon turns it off (`wal_autocheckpoint=0`) and
this thread runs a PASSIVE checkpoint every `interval` seconds on a connection of its own,
which neither waits for nor blocks the core thread's appends. A failed checkpoint is logged
and tried again; the records are safe in the WAL either way (synchronous=FULL).

A PASSIVE checkpoint never restarts the WAL while appends keep coming, so the `-wal` file
grew without bound in play (349 MB in 65 s of a noisy run, issue 15 item 3), and a power cut
leaves it behind. Once it holds more than `wal_limit` bytes, this thread runs a TRUNCATE
checkpoint right after a PASSIVE one (so little is left to copy): appends wait for it a few
milliseconds, and the WAL file is emptied. Busy (a reader held it), it is tried at the next
turn. The daemon's `-wal` then stays under `wal_limit` (2 MB) plus what 2 s of play write (4.8 MB
at most in a noisy `--fast` run, docs/DAEMON.md).
"""

from __future__ import annotations

import logging
import threading

from controller.journal.store import Journal

log = logging.getLogger(__name__)


class Checkpointer:
    def __init__(self, journal: Journal, interval: float = 2.0, wal_limit: int = 2 * 2**20) -> None:
        self.journal = journal
        self.interval = interval
        self.wal_limit = wal_limit
        self.runs = 0
        self.restarts = 0  # TRUNCATE checkpoints that emptied the WAL
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.journal.set_autocheckpoint(0)
        self._thread = threading.Thread(target=self._run, name="journal-checkpoint", daemon=True)
        self._thread.start()

    def stop(self, final: bool = True) -> None:
        """Stop the thread and, `final`, checkpoint once more (the journal is still open)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
            if final:
                self._once()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._once()

    def _once(self) -> None:
        try:
            self.journal.checkpoint()
            self.runs += 1
            if self.journal.wal_size() > self.wal_limit:
                if self.journal.checkpoint(restart=True).busy:
                    log.info("journal WAL not emptied (busy); tried again in %s s", self.interval)
                else:
                    self.restarts += 1
        except Exception as err:  # one line: a full disk fails every turn
            log.warning("journal checkpoint failed (retried later): %s", err)
            log.debug("journal checkpoint failure", exc_info=True)
