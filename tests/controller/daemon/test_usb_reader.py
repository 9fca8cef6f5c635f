"""A PN533 reader on USB in the daemon (issue 5 item 8, `--reader usb[:VID:PID]`): pyusb's own
code against the simulator's USB backend (tools/sim/usb_backend.py), the real driver, the
polled link, the runtime on a fake clock with a real journal. Tags put on the spot are read,
journalled (every poll's decoded UIDs in the `hw.batch` records) and debounced into zone
presence; an unplug is a lost device (degraded, alert), the replug brings it back and the
table is reconciled. Then `Daemon` itself: the reader address must fit the profile's model."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path

import pytest
from spot_table import SpotTable

from controller.clock import FakeClock
from controller.daemon.app import Daemon
from controller.daemon.config import DevicesSection, HttpSection, Settings, TableSection
from controller.daemon.reader_bus import PolledRounds
from controller.devices.events import LinkChanged, LinkState, ReaderPolled
from controller.devices.pn533_usb import Backoff, PN533Reader, parse_usb_address
from controller.journal.records import RecordKind
from controller.profiles import TileCopy, Zone, ZoneKind, parse_reader, sim_tag_uid
from controller.recognition.presence import TilePlaced
from rules.seats import Seat
from rules.tiles import Tile
from tools.sim.usb_backend import SimPN533, SimUsbBackend
from tools.sim.usb_spot import nfc_tags_toml, nfc_uid, spot_profile_toml

SPOT = Zone(ZoneKind.HAND, Seat.E)
FIVE_P = TileCopy(Tile.parse("5p"), 2)


class UsbTable(SpotTable):
    def __init__(self, path: Path) -> None:
        clock = FakeClock()
        self.device = SimPN533()
        reader = PN533Reader(
            backend=SimUsbBackend([self.device]), clock=clock.monotonic, backoff=Backoff(0.1, 0.5)
        )
        profile = parse_reader(tomllib.loads(spot_profile_toml(SPOT)), "test:pn533")
        super().__init__(path, clock, profile, reader)


def test_the_daemon_polls_a_pn533_on_usb_and_journals_what_it_reads(tmp_path: Path) -> None:
    t = UsbTable(tmp_path / "t.journal")
    first = t.poll()
    assert isinstance(first[0], LinkChanged) and first[0].state is LinkState.UP
    assert t.rt.machine.phase == "idle" and isinstance(t.rt.bus, PolledRounds)
    t.device.add_tag(nfc_uid(sim_tag_uid(FIVE_P)))
    polled = [i for i in t.poll(4) if isinstance(i, ReaderPolled)]
    assert len(polled) == 4 and all(i.events[0].uids for i in polled)
    reads = [ev for ev in t.reads() if ev.uids]  # every poll, repeats included
    assert [ev.uids for ev in reads] == [(nfc_uid(sim_tag_uid(FIVE_P)),)] * 4
    assert [ev.t for ev in reads] == [i.t for i in polled]
    assert t.rt.debouncer.presence() == {FIVE_P: SPOT}  # appear: 3 polls of the 5-poll window
    placed = [c for c in t.rec.calls if c[0] == "on_presence"]
    assert [type(c[1]) for c in placed] == [TilePlaced]


def test_a_pn533_unplugged_and_plugged_back(tmp_path: Path) -> None:
    t = UsbTable(tmp_path / "t.journal")
    t.poll()
    t.device.add_tag(nfc_uid(sim_tag_uid(FIVE_P)))
    t.poll(4)
    t.device.unplug()
    t.poll()
    assert t.rt.machine.phase == "degraded"
    assert "device-lost" in [r.data()["code"] for r in t.records(RecordKind.ALERT)]
    links = [r.data() for r in t.records(RecordKind.HW_LINK) if r.data()["device"] == "reader"]
    assert [x["state"] for x in links] == ["up", "down"] and "unplugged" in links[-1]["detail"]
    frames = len(t.reads())
    t.poll(5)  # while it is out: nothing read, nothing journalled, still degraded
    assert len(t.reads()) == frames and t.rt.machine.phase == "degraded"
    t.device.replug()  # a new USB address, as after a real re-enumeration
    t.poll(3)
    links = [r.data() for r in t.records(RecordKind.HW_LINK) if r.data()["device"] == "reader"]
    assert [x["state"] for x in links] == ["up", "down", "up"]
    assert t.rt.machine.phase == "degraded"  # reconciled only after the re-inventory
    t.poll(t.rt.resume.settle)
    assert t.rt.machine.phase == "idle"
    triggers = [r.data()["trigger"] for r in t.records(RecordKind.TABLE_PHASE)]
    assert triggers[-2:] == ["device_lost", "device_back"]
    assert t.rt.debouncer.presence() == {FIVE_P: SPOT}


def test_usb_addresses() -> None:
    (pn533,) = parse_usb_address("usb:04cc:2533")
    assert (pn533.vendor, pn533.product, pn533.name) == (0x04CC, 0x2533, "NXP PN533")
    assert len(parse_usb_address("usb")) == 2
    (other,) = parse_usb_address("usb:1234:abcd")
    assert other.name == "USB 1234:abcd"
    for bad in ("usb:04cc", "usb:zz:2533", "serial:04cc:2533", "usb:10000:1"):
        with pytest.raises(ValueError):
            parse_usb_address(bad)


def settings(tmp_path: Path, reader: str, profile: str, tags: str) -> Settings:
    return Settings(
        table=TableSection(journal=str(tmp_path / "d.journal")),
        devices=DevicesSection(
            table=str(tmp_path / "no-table"), reader=reader, reader_profile=profile, tags=tags
        ),
        http=HttpSection(listen="127.0.0.1:0"),
    )


def test_the_daemon_opens_a_pn533_named_usb_through_pyusb(tmp_path: Path) -> None:
    """`Daemon` with `usb:04cc:2533` and a pn533-usb profile: its link thread finds the
    simulated device through pyusb and the reads reach the core's queue."""
    profile, tags = tmp_path / "pn533.toml", tmp_path / "nfc.toml"
    profile.write_text(spot_profile_toml(SPOT))
    tags.write_text(nfc_tags_toml())
    master, slave = os.openpty()  # the table: a real pty nobody speaks on
    device = SimPN533()
    device.add_tag(nfc_uid(sim_tag_uid(FIVE_P)))
    s = settings(tmp_path, "usb:04cc:2533", str(profile), str(tags))
    s = dataclasses.replace(s, devices=dataclasses.replace(s.devices, table=os.ttyname(slave)))
    daemon = Daemon(s, s.devices.table, s.devices.reader, usb_backend=SimUsbBackend([device]))
    try:
        daemon.start()
        assert daemon.runtime is not None
        seen: list = []
        while not any(isinstance(i, ReaderPolled) and i.events[0].uids for i in seen):
            seen.append(daemon.runtime.inbox.get(timeout=10))
        ups = [i for i in seen if isinstance(i, LinkChanged) and i.device == "reader"]
        assert ups and ups[0].state is LinkState.UP and "PN533" in ups[0].detail
    finally:
        daemon.close()
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize(
    ("reader", "model", "says"),
    [("usb", "sim-uhf", "not pn533-usb"), ("/dev/ttyUSB1", "pn533", "name the reader 'usb'")],
)
def test_a_reader_address_that_does_not_fit_its_profile(tmp_path, reader, model, says) -> None:
    profile = tmp_path / "pn533.toml"
    profile.write_text(spot_profile_toml(SPOT))
    name = str(profile) if model == "pn533" else model
    s = settings(tmp_path, reader, name, "sim-108")
    daemon = Daemon(s, s.devices.table, s.devices.reader)
    with pytest.raises(ValueError, match=says):
        daemon.start()
    daemon.close()
    assert not (tmp_path / "d.journal").exists()  # refused before anything was opened
