"""A runtime on a fake clock with a real journal, fed by a single-spot PN53x reader through
the polled link as the daemon runs it (controller/devices/polled_link.py): the stand-in
recogniser, the sim-table board up. Shared by test_usb_reader.py (a PN533 on pyusb) and
test_uart_reader.py (a PN532 on a pty)."""

from __future__ import annotations

from pathlib import Path

from standin import StandIn

from controller.clock import FakeClock
from controller.daemon.input_log import reader_steps
from controller.daemon.runtime import Runtime
from controller.devices.events import FrameError, LinkChanged, LinkState, TagsRead
from controller.devices.pn53x_reader import PN53xReader
from controller.devices.polled_link import PolledReaderLink
from controller.devices.table import TableDriver
from controller.journal.records import RecordKind
from controller.journal.store import Journal
from controller.profiles import ReaderProfile, load_table
from controller.recognition.presence import Debouncer
from rules.ruleset import load
from tools.sim.usb_spot import nfc_tag_map


class SpotTable:
    def __init__(
        self, path: Path, clock: FakeClock, profile: ReaderProfile, reader: PN53xReader
    ) -> None:
        self.clock = clock
        self.profile = profile
        self.tags = nfc_tag_map()
        self.reader = reader
        self.link = PolledReaderLink(self.reader, sink=lambda item: None)
        self.rec = StandIn()
        self.journal = Journal.open(path, clock=self.clock)
        self.rt = Runtime(
            load("sbr-mil"),
            self.journal,
            self.clock,
            self.rec,
            self.profile,
            Debouncer(self.profile, self.tags, self.clock.monotonic),
            TableDriver(load_table("sim-table")),
            lambda device, data: True,
        )
        self.rt.handle(LinkChanged(self.clock.now, "table", LinkState.UP, "pty"))

    def poll(self, n: int = 1) -> list:
        items = []
        for _ in range(n):
            self.clock.advance(0.05)
            for item in self.link.poll():
                items.append(item)
                self.rt.handle(item)
            self.rt.tick()
        return items

    def records(self, kind: RecordKind) -> list:
        return [r for r in self.journal.records() if r.kind is kind]

    def steps(self) -> list:
        """Every reader step the journal holds (what is kept for the next batch committed
        first)."""
        self.rt.inputs.flush()
        return list(reader_steps(self.journal.records()))

    def reads(self) -> list[TagsRead]:
        return [ev for step in self.steps() for ev in step.events if isinstance(ev, TagsRead)]

    def frame_errors(self) -> list[FrameError]:
        return [ev for step in self.steps() for ev in step.events if isinstance(ev, FrameError)]

    def close(self) -> None:
        self.reader.close()
        self.journal.close()
