"""The daemon's device side: links that come and go, the table board's frames, the reader
bus's answers kept for the journal's next `hw.batch` and handed to the debouncer."""

from __future__ import annotations

import logging

from controller.alerts import AlertKind
from controller.daemon.contracts import (
    HELD_LIMIT,
)
from controller.daemon.reader_bus import BusStep
from controller.devices.events import (
    DataReceived,
    FrameError,
    LinkChanged,
    LinkState,
    TagsRead,
)
from controller.devices.table import Command
from controller.journal.inputs import ReaderStep, TableChunk, round_time
from controller.journal.records import RecordKind, Source
from controller.recognition.presence import (
    CardLifted,
    CardPlaced,
    DuplicateTile,
    UnknownTag as UnknownTagSeen,
)
from controller.words import device_name

log = logging.getLogger(__name__)


class DeviceIO:
    """A part of `Runtime` (the module's docstring says what it owns)."""

    def _on_link(self, ev: LinkChanged) -> None:
        self._log(
            Source.TABLE if ev.device == "table" else Source.READER,
            RecordKind.HW_LINK,
            {"device": ev.device, "state": ev.state.value, "detail": ev.detail},
            deal=self._open_deal(),
            t=ev.t,
        )
        self.links[ev.device] = ev.state
        if ev.state is LinkState.DOWN:
            self._alert(
                AlertKind.DEVICE_LOST,
                f"{device_name(ev.device)} is not answering ({ev.detail}): waiting for it",
                severity="error",
            )
            if self.machine.can("device_lost"):
                self._trigger("device_lost")
            self._reconcile_at = None
            return
        if ev.device == "table":
            self.outputs.table_back()  # what the displays show may have been missed
            self._dirty = True
        if ev.device == "reader":
            self._wall_read.clear()
            if not self.polled:
                self._write("reader", self.bus.start(ev.t).send)
        if not all(s is LinkState.UP for s in self.links.values()):
            return
        if self.machine.phase == "offline":
            self._trigger("devices_ready")
        elif self.machine.phase == "degraded" or self._recovering:
            # re-inventory: let the debouncer see the table again before reconciling
            self._reconcile_at = self.rounds + self._settle

    def _write(self, device: str, data: bytes) -> None:
        if data:
            self.send(device, data)

    def command(self, command: Command) -> bool:
        if self.driver is None:
            return False  # a table with no serial link: nothing to tell it
        try:
            return self.send("table", self.driver.encode(command))
        except ValueError as err:
            log.debug("table command %s not sent: %s", command, err)
            return False

    def _on_table_bytes(self, item: DataReceived) -> None:
        # the bytes as received go into the next `hw.batch` (the driver decodes them again)
        self.inputs.add(TableChunk(item.t, item.data), self._open_deal())
        for ev in self.driver.feed(item.t, item.data):
            if self.stopped is not None:
                return  # the deal limit was reached by an earlier event of this chunk
            if isinstance(ev, FrameError):
                self._frame_error(ev)
                continue
            self._on_table_event(ev)

    def _frame_error(self, ev: FrameError) -> None:
        self._log(
            Source.TABLE if ev.device == "table" else Source.READER,
            RecordKind.HW_ERROR,
            {"device": ev.device, "reason": ev.reason, "hex": ev.data.hex()},
            deal=self._open_deal(),
            t=ev.t,
        )

    def _on_bus(self, step: BusStep, t: float) -> None:
        # Every step is kept for the next `hw.batch` (controller/daemon/input_log.py), which
        # is committed ahead of any record that follows from it: an answer of a bus address
        # carries up to eight antennas' inventories, repeats included.
        reads = [ev for ev in step.events if isinstance(ev, TagsRead)]
        # a PN53x poll that got no answer says nothing of the spot: it ends no round, so a
        # few failed polls do not lift the tiles lying there (the driver reports the chip
        # lost when it stays silent, controller/devices/pn53x_reader.py)
        done = step.round_done and (bool(reads) or not self.polled)
        if step.events or done:
            self.inputs.add(ReaderStep(t, step.events, done), self._open_deal())
        if reads:
            self._round_reads_t = reads[-1].t
        if self._wall_changed(reads):
            # a tile passes the wall spot once: a wall read that changed is committed before
            # it is used, so a restart mid-scan finds it (batched, a kill lost up to a second
            # of the scan and the deal with it: test_campaign)
            self.inputs.flush()
        for ev in reads:
            if ev.antenna in self._wall_antennas:
                # tiles crossing it between deals: the walls are being built (boardless.py)
                shuffled = self.board.wall_read(ev, self._reader_settled())
                if shuffled is not None:
                    self._on_table_event(shuffled)
                if self._held_shuffle():
                    if len(self._held) < HELD_LIMIT:  # the new walls' scan, after the shuffle
                        self._held.append(ev)
                else:
                    self.recognised(self.recogniser.on_wall_read(ev), ev.t)
            self.debouncer.observe(ev)
        self._write("reader", step.send)
        if done:
            self._end_round(round_time(t, self._round_reads_t))
            self._round_reads_t = None

    def _wall_changed(self, reads: list[TagsRead]) -> bool:
        changed = False
        for ev in reads:
            if ev.antenna in self._wall_antennas and self._wall_read.get(ev.antenna) != ev.uids:
                self._wall_read[ev.antenna] = ev.uids
                changed = True
        return changed

    def _end_round(self, t: float) -> None:
        self.rounds += 1
        changes = self.debouncer.end_round(t)
        # with no board to say "shuffle", the tiles leaving for the machine are not read as
        # moves (boardless.py): `_as_seen` is None meanwhile
        self.board.round_changes(changes)
        for change in changes:
            if isinstance(change, UnknownTagSeen | DuplicateTile):
                self.recognised(self.recogniser.on_tag_alert(change), change.t)
            elif self._live():
                # tiles are read as if an open claim window had closed now; a card is a
                # declaration, read against the real deal as a button is (issue 18)
                card = isinstance(change, CardPlaced | CardLifted)
                real = None if self._overtaken() else self.deal  # (shuffled on: recovery.py)
                deal = real if card else self._as_seen()
                self.recognised(self.recogniser.on_presence(change, deal), change.t)
        if self._reader_settled():  # the shuffle, walls and dice no board reports (boardless.py)
            news = self.board.round_ended(t, self._wall_scan, self._playing(), self.dealer)
            self._board_news(news)
        if self._pending_dice is not None and not self._wall_antennas:
            self._start_from_hands()
        if self._reconcile_at is not None and self.rounds >= self._reconcile_at:
            self._reconcile_at = None
            self._reconcile()
