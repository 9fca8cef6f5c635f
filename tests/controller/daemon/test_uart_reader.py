"""A PN532 on a serial line in the daemon (issue 18 item 4: `mjtable run --reader /dev/serial0
--reader-profile pn532-pi-uart`): the real driver (controller/devices/pn532_uart.py) on real
pyserial, opening a pseudo-terminal whose far end is the simulated PN532 module
(tools/sim/uart_pn532.py: asleep until the HSU wake-up, byte-exact frames), stepped by the
polled link the PN533 uses, into the runtime on a fake clock with a real journal.

Tiles placed and lifted at the spot are read, journalled and debounced; a damaged answer
(bad LCS or DCS) is skipped, counted and journalled, and its tag is not lost; the line
pulled and plugged back is a lost device, then the chip is woken again and the table
reconciled. Then `Daemon` itself opens the shipped `pn532-pi-uart` profile's reader."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from spot_table import SpotTable

from controller.clock import FakeClock
from controller.daemon.app import Daemon
from controller.daemon.config import DevicesSection, HttpSection, Settings, TableSection
from controller.daemon.reader_bus import PolledRounds
from controller.devices import pn532
from controller.devices.events import FrameError, LinkChanged, LinkState, ReaderPolled, TagsRead
from controller.devices.pn53x_reader import Backoff
from controller.devices.pn532 import PN532ErrorKind
from controller.devices.pn532_uart import PN532UartReader
from controller.journal.records import RecordKind
from controller.profiles import ReaderModel, TileCopy, Zone, ZoneKind, parse_reader, sim_tag_uid
from controller.recognition.presence import TileLifted, TilePlaced
from rules.seats import Seat
from rules.tiles import Tile
from tools.sim.devices import DeviceLoop
from tools.sim.uart_pn532 import UartPN532
from tools.sim.usb_backend import PN532_FIRMWARE, Damage, SimPN533
from tools.sim.usb_spot import nfc_tags_toml, nfc_uid, spot_profile_toml

SPOT = Zone(ZoneKind.HAND, Seat.E)
FIVE_P = TileCopy(Tile.parse("5p"), 2)
UID = nfc_uid(sim_tag_uid(FIVE_P))
CONFIGURED = [  # what the chip hears after the wake-up, before its first poll
    pn532.sam_configuration(),
    pn532.get_firmware_version(),
    pn532.rf_max_retries(),
]


class UartTable(SpotTable):
    def __init__(self, folder: Path) -> None:
        self.loop = DeviceLoop()
        self.module = UartPN532(folder)
        self.module.attach(self.loop)
        self.loop.start()
        clock = FakeClock()
        profile = tomllib.loads(spot_profile_toml(SPOT, ReaderModel.PN532_UART))
        reader = PN532UartReader(
            str(self.module.path), clock=clock.monotonic, backoff=Backoff(0.1, 0.5)
        )
        super().__init__(folder / "t.journal", clock, parse_reader(profile, "test:pn532"), reader)

    @property
    def chip(self) -> SimPN533:
        return self.module.chip

    def placed(self) -> list:
        return [type(c[1]) for c in self.rec.calls if c[0] == "on_presence"]

    def close(self) -> None:
        super().close()
        self.loop.stop()
        self.module.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[UartTable]:
    t = UartTable(tmp_path)
    yield t
    t.close()


def test_the_simulated_pn532_sleeps_until_the_hsu_wake_up() -> None:
    chip = SimPN533(firmware=PN532_FIRMWARE)
    assert chip.serial_feed(pn532.get_firmware_version()) == b""  # asleep: not heard
    answer = chip.serial_feed(pn532.WAKEUP + pn532.get_firmware_version())
    assert answer == pn532.ACK_FRAME + pn532.firmware_version_answer(PN532_FIRMWARE)


def test_the_daemon_polls_a_pn532_on_a_uart_and_sees_tiles_come_and_go(table) -> None:
    first = table.poll()
    assert isinstance(first[0], LinkChanged) and first[0].state is LinkState.UP
    assert first[0].detail == f"PN532 on {table.module.path} (PN532 v1.6)"
    assert isinstance(table.rt.bus, PolledRounds) and table.rt.machine.phase == "idle"
    assert not table.chip.asleep and table.chip.received[:3] == CONFIGURED
    table.chip.add_tag(UID)
    polled = [i for i in table.poll(4) if isinstance(i, ReaderPolled)]
    assert len(polled) == 4 and all(i.events[0].uids == (UID,) for i in polled)
    assert polled[0].answer.startswith(b"\x00\x00\xff") and UID in polled[0].answer
    assert table.chip.received[3:] == [pn532.in_list_passive_target()] * 4
    reads = [ev for ev in table.reads() if ev.uids]  # every poll journalled, repeats included
    assert [ev.uids for ev in reads] == [(UID,)] * 4
    assert table.rt.debouncer.presence() == {FIVE_P: SPOT}  # appear: 3 polls of 5
    assert table.placed() == [TilePlaced]
    table.chip.remove_tag(UID)
    table.poll(4)
    assert table.rt.debouncer.presence() == {}  # vanish: 3 polls without it
    assert table.placed() == [TilePlaced, TileLifted]
    assert table.reader.stats().error_total == 0


@pytest.mark.parametrize("where", [Damage.LCS, Damage.DCS])
def test_a_damaged_pn532_answer_is_skipped_counted_and_its_tag_kept(table, where) -> None:
    table.poll()
    table.chip.add_tag(UID)
    table.poll(4)
    assert table.rt.debouncer.presence() == {FIVE_P: SPOT}
    table.chip.damage(where)
    (polled,) = table.poll()
    assert isinstance(polled, ReaderPolled)
    skipped, read = polled.events  # the damaged frame, then the answer asked again (NACK)
    assert isinstance(skipped, FrameError) and skipped.reason == f"bad-{where.value}"
    assert isinstance(read, TagsRead) and read.uids == (UID,)
    assert table.chip.nacks == 1
    kind = PN532ErrorKind.BAD_LCS if where is Damage.LCS else PN532ErrorKind.BAD_DCS
    assert dict(table.reader.stats().errors) == {kind: 1}
    assert [e.reason for e in table.frame_errors()] == [f"bad-{where.value}"]  # journalled
    assert [ev.uids for ev in table.reads() if ev.uids] == [(UID,)] * 5  # no poll lost it
    assert table.rt.debouncer.presence() == {FIVE_P: SPOT}
    assert table.placed() == [TilePlaced]


def test_an_answer_damaged_twice_costs_one_poll_and_no_tile(table) -> None:
    """The NACK's answer damaged too: the exchange fails (timed out, the command aborted
    with an ACK), the next poll reads the tag again and the debouncer never lost it."""
    table.poll()
    table.chip.add_tag(UID)
    table.poll(4)
    table.chip.damage(Damage.DCS, Damage.DCS)
    (polled,) = table.poll()
    assert [e.reason for e in polled.events] == ["bad-dcs", "read timed out"]
    assert table.reader.timeouts == 1 and table.reader.connected
    (polled,) = table.poll()
    assert polled.events[0].uids == (UID,)
    assert table.rt.debouncer.presence() == {FIVE_P: SPOT}
    assert table.placed() == [TilePlaced]


def test_a_pn532_uart_pulled_and_plugged_back(table) -> None:
    table.poll()
    table.chip.add_tag(UID)
    table.poll(4)
    table.module.unplug()
    (lost,) = table.poll()
    assert isinstance(lost, LinkChanged) and lost.state is LinkState.DOWN
    assert table.rt.machine.phase == "degraded"
    (alert,) = [r.data() for r in table.records(RecordKind.ALERT)]
    assert alert["code"] == "device-lost" and "\n" not in alert["message"]
    assert str(table.module.path) in alert["message"]
    reads = len(table.reads())
    assert table.poll(5) == []  # while it is out: nothing read, one alert, still degraded
    assert len(table.reads()) == reads and table.rt.machine.phase == "degraded"
    assert len(table.records(RecordKind.ALERT)) == 1
    table.module.replug()  # a new pty behind the same path, the chip asleep again
    assert table.chip.asleep
    table.poll(3)
    links = [r.data() for r in table.records(RecordKind.HW_LINK) if r.data()["device"] == "reader"]
    assert [x["state"] for x in links] == ["up", "down", "up"]
    assert not table.chip.asleep and table.chip.received[-3:][0] in CONFIGURED  # woken again
    assert table.chip.received.count(pn532.sam_configuration()) == 2
    assert table.rt.machine.phase == "degraded"  # reconciled only after the re-inventory
    table.poll(table.rt.resume.settle)
    assert table.rt.machine.phase == "idle"
    triggers = [r.data()["trigger"] for r in table.records(RecordKind.TABLE_PHASE)]
    assert triggers[-2:] == ["device_lost", "device_back"]
    assert table.rt.debouncer.presence() == {FIVE_P: SPOT}
    assert table.placed() == [TilePlaced]  # the tile was never read as lifted


def test_regression_a_pn532_reset_behind_its_uart_is_woken_again_and_no_tile_lifted(
    table,
) -> None:
    """The module browns out and resets while the Pi's UART stays: the chip sleeps again and
    every poll times out. Those polls said nothing of the spot: they end no debouncer round
    (the tile stayed on the spot), and after three of them the reader counts as lost (one
    alert), is opened and woken again, and the table is reconciled."""
    table.poll()
    table.chip.add_tag(UID)
    table.poll(4)
    rounds = table.rt.rounds
    table.chip.brown_out()  # asleep: nothing is heard until the wake-up
    failed = table.poll(3)
    assert [type(i) for i in failed] == [ReaderPolled, ReaderPolled, ReaderPolled, LinkChanged]
    assert all(e.reason == "read timed out" for i in failed[:3] for e in i.events)
    lost = failed[-1]
    assert lost.state is LinkState.DOWN
    assert lost.detail == f"PN532 on {table.module.path}: no answer to 3 polls in a row"
    assert [e.reason for e in table.frame_errors()] == ["read timed out"] * 3  # journalled
    assert table.rt.rounds == rounds  # no round ended without an answer
    assert table.placed() == [TilePlaced] and table.rt.machine.phase == "degraded"
    (alert,) = [r.data() for r in table.records(RecordKind.ALERT)]
    assert alert["code"] == "device-lost"
    (up,) = [i for i in table.poll(3) if isinstance(i, LinkChanged)]  # 0.1 s on (backoff)
    assert isinstance(up, LinkChanged) and up.state is LinkState.UP and not table.chip.asleep
    assert table.chip.received.count(pn532.sam_configuration()) == 2  # woken again
    table.poll(table.rt.resume.settle)
    assert table.rt.machine.phase == "idle"
    assert table.rt.debouncer.presence() == {FIVE_P: SPOT} and table.placed() == [TilePlaced]


def test_the_daemon_runs_the_shipped_pn532_pi_uart_profile_on_a_serial_port(tmp_path) -> None:
    """`Daemon` as `mjtable run --reader PATH --reader-profile pn532-pi-uart` builds it: its
    link thread opens the port, wakes the chip, and the reads of the wall spot reach the
    core's queue."""
    tags = tmp_path / "nfc.toml"
    tags.write_text(nfc_tags_toml())
    loop = DeviceLoop()
    module = UartPN532(tmp_path)
    module.attach(loop)
    loop.start()
    module.chip.add_tag(UID)
    master, slave = os.openpty()  # the table: a real pty nobody speaks on
    s = Settings(
        table=TableSection(journal=str(tmp_path / "d.journal")),
        devices=DevicesSection(
            table=os.ttyname(slave),
            reader=str(module.path),
            reader_profile="pn532-pi-uart",
            tags=str(tags),
        ),
        http=HttpSection(listen="127.0.0.1:0"),
    )
    daemon = Daemon(s, s.devices.table, s.devices.reader)
    try:
        daemon.start()
        assert daemon.runtime is not None and isinstance(daemon.runtime.bus, PolledRounds)
        seen: list = []
        while not any(isinstance(i, ReaderPolled) and i.events[0].uids for i in seen):
            seen.append(daemon.runtime.inbox.get(timeout=10))
        ups = [i for i in seen if isinstance(i, LinkChanged) and i.device == "reader"]
        assert ups and ups[0].state is LinkState.UP and "PN532 v1.6" in ups[0].detail
        assert module.chip.received[:3] == CONFIGURED
    finally:
        daemon.close()
        loop.stop()
        module.close()
        os.close(master)
        os.close(slave)


def test_a_usb_address_with_the_pn532_profile_is_refused(tmp_path) -> None:
    s = Settings(
        table=TableSection(journal=str(tmp_path / "d.journal")),
        devices=DevicesSection(reader="usb", reader_profile="pn532-pi-uart", tags="sim-108"),
        http=HttpSection(listen="127.0.0.1:0"),
    )
    s = dataclasses.replace(s, devices=dataclasses.replace(s.devices, table=str(tmp_path / "t")))
    daemon = Daemon(s, s.devices.table, s.devices.reader)
    with pytest.raises(ValueError, match="pn532-uart reader, not pn533-usb"):
        daemon.start()
    daemon.close()
    assert not (tmp_path / "d.journal").exists()


@pytest.mark.parametrize("url", ["/nonexistent/serial0", "bogus://serial0"])
def test_a_port_that_cannot_be_opened_is_one_down_line_then_quiet_retries(url) -> None:
    clock = FakeClock()
    reader = PN532UartReader(url, clock=clock.monotonic, backoff=Backoff(0.1, 0.5))
    (down,) = reader.step()
    assert isinstance(down, LinkChanged) and down.state is LinkState.DOWN
    assert down.detail.startswith(f"cannot open {url}: ") and "\n" not in down.detail
    for _ in range(5):
        clock.advance(1.0)
        assert reader.step() == []  # retried, not reported again
    assert reader.failures == 6
