"""The simulator's devices at the hardware's pace (issue 17), on real ptys: a reader's answer
comes no sooner than the wire time of the command and the answer at the profile's baud rate
plus the inventory time of every antenna it inventoried; the table's acknowledgement no
sooner than the wire time of the command and the acknowledgement. Unpaced (`--fast`), the
same answer comes at once. Only lower bounds are checked: a busy machine is late, never
early."""

from __future__ import annotations

import os
import select
import time
import tty
from pathlib import Path

import pytest

from controller.devices.events import CommandAcked
from controller.devices.table import Light, TableDriver
from controller.devices.uhf_reader import (
    ResponseDecoder,
    group_select_command,
    inventory_command,
)
from controller.profiles import CommandKind, Zone, ZoneKind, load_reader, load_table
from rules.seats import Seat
from rules.tiles import TileSet
from tools.sim.devices import DeviceLoop, ReaderBus, VirtualTable, open_endpoint, wire_seconds
from tools.sim.noise import Noise, NoiseConfig
from tools.sim.world import IN_MACHINE, World

PROFILE = load_reader("sim-uhf")


def _open(link: Path) -> int:
    fd = os.open(link, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(fd)
    return fd


def _exchange(fd: int, command: bytes, expect_frames: int) -> tuple[bytes, float]:
    """Write `command`, read until `expect_frames` frames came; the answer and the seconds
    from the write to its last byte."""
    decoder = ResponseDecoder()
    got = b""
    frames = 0
    start = time.monotonic()
    os.write(fd, command)
    while frames < expect_frames:
        ready, _, _ = select.select([fd], [], [], 5.0)
        assert ready, "no answer within 5 s"
        chunk = os.read(fd, 4096)
        got += chunk
        frames += len(decoder.feed(chunk))
    return got, time.monotonic() - start


@pytest.mark.parametrize("paced", [True, False])
def test_the_reader_answers_after_the_wire_and_inventory_time(tmp_path: Path, paced: bool):
    world = World(TileSet.SUITED_108, PROFILE, seed=3)
    hand = Zone(ZoneKind.HAND, Seat.E)
    world.move_many((tc, IN_MACHINE, hand) for tc in world.copies[:14])
    loop = DeviceLoop()
    bus = ReaderBus(
        world,
        Noise(NoiseConfig(), PROFILE, 1),
        open_endpoint(tmp_path, "reader"),
        None,
        later=loop.later,
        paced=paced,
    )
    loop.add(bus.endpoint, bus.on_bytes)
    loop.start()
    fd = _open(bus.endpoint.link)
    try:
        select_cmd = group_select_command(range(1, 9), 0).encode()
        answer, took = _exchange(fd, select_cmd, 1)
        wire = wire_seconds(len(select_cmd) + len(answer), PROFILE.reader.baud)
        if paced:
            assert took >= wire
        inventory = inventory_command(0).encode()
        answer, took = _exchange(fd, inventory, 8)  # one frame per antenna of address 0
        rf = sum(PROFILE.antennas[a].inventory_s for a in range(1, 9))
        due = wire_seconds(len(inventory) + len(answer), PROFILE.reader.baud) + rf
        assert len(answer) > 14 * 13  # the hand's fourteen tags came
        if paced:
            assert took >= due
        # counted right after the answer was written (on the device thread)
        assert bus.wait_inventories(frozenset(range(1, 9)), 1, 5.0)
        assert bus.rounds() == 0 and bus.inventories(frozenset(range(1, 9))) == 1
    finally:
        os.close(fd)
        loop.stop()
        bus.endpoint.close()


def test_the_table_acknowledges_after_the_wire_time(tmp_path: Path):
    profile = load_table("sim-table")
    loop = DeviceLoop()
    table = VirtualTable(
        profile, open_endpoint(tmp_path, "table"), None, later=loop.later, paced=True
    )
    loop.add(table.endpoint, table.on_bytes)
    loop.start()
    fd = _open(table.endpoint.link)
    driver = TableDriver(profile)
    try:
        command = driver.encode(Light(Seat.S, True))
        start = time.monotonic()
        os.write(fd, command)
        got = b""
        events: list = []
        while not events:
            ready, _, _ = select.select([fd], [], [], 5.0)
            assert ready, "no acknowledgement within 5 s"
            chunk = os.read(fd, 4096)
            got += chunk
            events += driver.feed(time.monotonic(), chunk)
        took = time.monotonic() - start
        assert events == [CommandAcked(events[0].t, CommandKind.LIGHT)]
        assert took >= wire_seconds(len(command) + len(got), profile.table.baud)
        assert [type(c) for c in table.commands] == [Light]
    finally:
        os.close(fd)
        loop.stop()
        table.endpoint.close()
