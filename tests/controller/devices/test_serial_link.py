"""SerialLink against real pseudo-terminals: data both ways, exclusive open, an unplug
(the pty master closed) and a replug at the same symlink path."""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import select
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from controller.devices.events import DataReceived, LinkChanged, LinkState
from controller.devices.serial_link import Direction, LinkConfig, SerialLink

WAIT = 5.0  # generous upper bound for a thread to react; never slept, only waited on


def new_pty(link: Path) -> int:
    """A raw pty pair; the slave is reachable through the symlink `link`. Returns the master."""
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    name = os.ttyname(slave)
    os.close(slave)
    tmp = link.with_suffix(".new")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(name)
    tmp.replace(link)  # atomic, as udev does for /dev/serial/by-id
    return master


def read_master(master: int, n: int) -> bytes:
    got = b""
    while len(got) < n:
        ready, _, _ = select.select([master], [], [], WAIT)
        assert ready, f"timed out with {got!r}"
        got += os.read(master, n - len(got))
    return got


class Events:
    def __init__(self) -> None:
        self.q: queue.Queue[LinkChanged | DataReceived] = queue.Queue()

    def put(self, item: LinkChanged | DataReceived) -> None:
        self.q.put(item)

    def next_state(self) -> LinkChanged:
        while True:
            item = self.q.get(timeout=WAIT)
            if isinstance(item, LinkChanged):
                return item

    def data(self, n: int) -> bytes:
        got = b""
        while len(got) < n:
            item = self.q.get(timeout=WAIT)
            assert isinstance(item, DataReceived), item
            got += item.data
        return got


class FakeClock:
    def __init__(self) -> None:
        self._ticks = itertools.count(100)

    def __call__(self) -> float:
        return float(next(self._ticks))


@pytest.fixture
def port_path(tmp_path: Path) -> Path:
    return tmp_path / "ttyTABLE"


@pytest.fixture
def link_and_events(port_path: Path) -> Iterator[tuple[SerialLink, Events, int]]:
    master = new_pty(port_path)
    events = Events()
    config = LinkConfig(str(port_path), read_timeout=0.02, backoff_initial=0.01, backoff_max=0.05)
    link = SerialLink("table", config, events.put, clock=FakeClock())
    link.start()
    yield link, events, master
    link.stop()
    with contextlib.suppress(OSError):
        os.close(master)


def test_up_then_bytes_both_ways(link_and_events: tuple[SerialLink, Events, int]) -> None:
    link, events, master = link_and_events
    up = events.next_state()
    assert up.state is LinkState.UP and up.device == "table"
    os.write(master, bytes.fromhex("aa 55 03 82 06 04 83"))
    assert events.data(7) == bytes.fromhex("aa 55 03 82 06 04 83")
    assert link.write(bytes.fromhex("aa 55 01 10 11"))
    assert read_master(master, 5) == bytes.fromhex("aa 55 01 10 11")
    directions = [h.direction for h in link.history()]
    assert directions[-1] is Direction.TX and Direction.RX in directions


def test_exclusive_open(link_and_events: tuple[SerialLink, Events, int], port_path: Path) -> None:
    _link, events, _master = link_and_events
    assert events.next_state().state is LinkState.UP
    with pytest.raises(serial.SerialException):
        serial.Serial(str(port_path), exclusive=True)


def test_unplug_and_replug_at_the_same_path(
    link_and_events: tuple[SerialLink, Events, int], port_path: Path
) -> None:
    link, events, master = link_and_events
    assert events.next_state().state is LinkState.UP
    os.close(master)  # the adapter is pulled
    down = events.next_state()
    assert down.state is LinkState.DOWN and link.state is LinkState.DOWN
    assert not link.write(b"\x00")
    master2 = new_pty(port_path)  # plugged in again, new tty behind the same name
    try:
        assert events.next_state().state is LinkState.UP
        os.write(master2, b"\x01\x02")
        assert events.data(2) == b"\x01\x02"
        assert link.write(b"ok")
        assert read_master(master2, 2) == b"ok"
    finally:
        link.stop()
        os.close(master2)


def test_missing_device_reports_down_once_then_up(port_path: Path) -> None:
    events = Events()
    config = LinkConfig(str(port_path), read_timeout=0.02, backoff_initial=0.01, backoff_max=0.02)
    link = SerialLink("reader", config, events.put, clock=FakeClock())
    link.start()
    try:
        first = events.next_state()
        assert first.state is LinkState.DOWN
        master = new_pty(port_path)
        assert events.next_state().state is LinkState.UP  # no repeated DOWN in between
        assert link.failures == 0
        os.close(master)
    finally:
        link.stop()


def test_url_loopback_and_dump() -> None:
    events = Events()
    link = SerialLink("loop", LinkConfig("loop://", read_timeout=0.02), events.put, FakeClock())
    link.start()
    try:
        assert events.next_state().state is LinkState.UP
        payload = bytes(range(20))
        assert link.write(payload)
        assert events.data(20) == payload
    finally:
        link.stop()
    lines = link.dump()
    # a TX entry of 20 bytes is two lines (16 + 4), then the RX side
    assert lines[0].split()[1:4] == ["loop", "tx", "00"]
    assert lines[0].endswith("0e 0f") and lines[1].strip() == "10 11 12 13"
    assert any(" rx " in line for line in lines[2:])


def test_a_failing_sink_does_not_drop_the_link(port_path: Path) -> None:
    seen: queue.Queue[LinkChanged | DataReceived] = queue.Queue()

    def sink(item: LinkChanged | DataReceived) -> None:
        seen.put(item)
        if isinstance(item, DataReceived):
            raise RuntimeError("a bug in the consumer")

    master = new_pty(port_path)
    link = SerialLink("t", LinkConfig(str(port_path), read_timeout=0.02), sink, FakeClock())
    link.start()
    try:
        assert seen.get(timeout=WAIT).state is LinkState.UP  # type: ignore[union-attr]
        os.write(master, b"a")
        assert isinstance(seen.get(timeout=WAIT), DataReceived)
        os.write(master, b"b")
        assert isinstance(seen.get(timeout=WAIT), DataReceived)
        assert link.state is LinkState.UP
    finally:
        link.stop()
        os.close(master)


def test_the_port_opens_with_the_configured_parity() -> None:
    """A FEIG reader answers only at its parity (factory e,8,1): the link opens the port with
    the parity its config names (a Linux pty clears the parity bits, so the opener is asked
    what it was given, on pyserial's loopback port)."""
    given: list[str] = []

    def opener(url: str, **kw: object) -> serial.SerialBase:
        given.append(str(kw["parity"]))
        return serial.serial_for_url(url, **kw)

    events = Events()
    config = LinkConfig("loop://", read_timeout=0.02, parity=serial.PARITY_EVEN)
    link = SerialLink("reader", config, events.put, FakeClock(), opener=opener)
    link.start()
    try:
        assert events.next_state().state is LinkState.UP
    finally:
        link.stop()
    assert given == [serial.PARITY_EVEN]
