"""The daemon's device side: links that come and go, the table board's frames, the reader
bus's answers journalled (one commit per answer) and handed to the debouncer."""

from __future__ import annotations

import logging
from typing import Any

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
from controller.journal_records import (
    RecordKind,
    Source,
    Stamp,
)
from controller.recognition.presence import DuplicateTile
from controller.recognition.presence import UnknownTag as UnknownTagSeen
from rules.seats import Seat

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
                "device-lost", f"the {ev.device} link is down: {ev.detail}", severity="error"
            )
            if self.machine.can("device_lost"):
                self._trigger("device_lost")
            self._reconcile_at = None
            return
        if ev.device == "reader":
            self._last_read.clear()
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
        try:
            return self.send("table", self.driver.encode(command))
        except ValueError as err:
            log.debug("table command %s not sent: %s", command, err)
            return False

    def _on_table_bytes(self, item: DataReceived) -> None:
        for ev in self.driver.feed(item.t, item.data):
            if self.stopped is not None:
                return  # the deal limit was reached by an earlier event of this chunk
            if isinstance(ev, FrameError):
                self._frame_error(ev)
                continue
            self._log(
                Source.TABLE,
                RecordKind.HW_FRAME,
                {"device": "table", "hex": item.data.hex(), "decoded": _describe(ev)},
                deal=self._open_deal(),
                t=ev.t,
            )
            self._on_table_event(ev)

    def _frame_error(self, ev: FrameError) -> None:
        self._log(
            Source.TABLE if ev.device == "table" else Source.READER,
            RecordKind.HW_ERROR,
            {"device": ev.device, "reason": ev.reason, "hex": ev.data.hex()},
            deal=self._open_deal(),
            t=ev.t,
        )

    def _on_bus(self, step: BusStep, data: bytes) -> None:
        # The records of one reader answer are committed together (one fsync), then acted on:
        # an answer of a bus address carries up to eight antennas' inventories.
        entries = [self._error_entry(ev) for ev in step.events if isinstance(ev, FrameError)]
        reads = [ev for ev in step.events if isinstance(ev, TagsRead)]
        frame = self._frame_entry(reads, step.answer or data)
        if frame is not None:
            entries.append(frame)
        if entries:
            self.seq = self.journal.append_many(entries)[-1].seq
        for ev in reads:
            if ev.antenna in self._wall_antennas:
                if self._held_shuffle():
                    if len(self._held) < HELD_LIMIT:  # the new walls' scan, after the shuffle
                        self._held.append(ev)
                else:
                    self.recognised(self.recogniser.on_wall_read(ev), ev.t)
            self.debouncer.observe(ev)
        self._write("reader", step.send)
        if step.round_done:
            self._end_round()

    def _error_entry(self, ev: FrameError) -> tuple:
        source = Source.TABLE if ev.device == "table" else Source.READER
        payload = {"device": ev.device, "reason": ev.reason, "hex": ev.data.hex()}
        return (source, RecordKind.HW_ERROR, payload, self._open_deal(), Stamp(ev.t, self._wall()))

    def _frame_entry(self, reads: list[TagsRead], answer: bytes) -> tuple | None:
        """One `hw.frame` per reader answer: its bytes as received and the inventories that
        changed. An antenna whose answer repeats its previous one exactly is counted, not
        stored again (docs/DAEMON.md): a quiet table would otherwise fill the journal."""
        changed = []
        for read in reads:
            uids = tuple(sorted(read.uids))
            if self._last_read.get(read.antenna) != uids:
                self._last_read[read.antenna] = uids
                changed.append(read)
        if not changed:
            return None
        decoded = [
            {"antenna": r.antenna, "uids": [u.hex() for u in r.uids], "rssi": list(r.rssi)}
            for r in changed
        ]
        payload: dict[str, Any] = {"device": "reader", "hex": answer.hex(), "decoded": decoded}
        if len(changed) == 1:
            payload["antenna"] = changed[0].antenna
        stamp = Stamp(changed[-1].t, self._wall())
        return (Source.READER, RecordKind.HW_FRAME, payload, self._open_deal(), stamp)

    def _wall(self) -> str:
        return self.clock.wall()

    def _end_round(self) -> None:
        self.rounds += 1
        for change in self.debouncer.end_round():
            if isinstance(change, UnknownTagSeen | DuplicateTile):
                self.recognised(self.recogniser.on_tag_alert(change), change.t)
            elif self._live():
                self.recognised(self.recogniser.on_presence(change, self._as_seen()), change.t)
        if self._pending_dice is not None and not self._wall_antennas:
            self._start_from_hands()
        if self._reconcile_at is not None and self.rounds >= self._reconcile_at:
            self._reconcile_at = None
            self._reconcile()


def _describe(ev: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"event": type(ev).__name__}
    for name in getattr(ev, "__slots__", ()):
        if name == "t":
            continue
        value = getattr(ev, name)
        out[name] = getattr(value, "value", None) or getattr(value, "name", None) or value
        if isinstance(value, Seat):
            out[name] = value.name
    return out
