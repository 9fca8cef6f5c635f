"""The udev rules `mjtable setup` writes from what `mjtable probe` found (tools/udev_rules.py):
the reader and the table board by USB serial number, or by USB port when an adapter has
none; the only other adapter taken for the table board; several that answered nothing left
untold; a role not found now keeps the line an earlier file had, else a placeholder."""

from __future__ import annotations

import re

from controller.devices.uhf_info import ReaderInfo
from tools.probe import Finding, SerialCandidate, TableBoard, UhfBus
from tools.udev_rules import Role, assign, existing_line, placeholders, render, written_by_setup

CH340 = SerialCandidate("/dev/ttyUSB0", vid=0x1A86, pid=0x7523, location="1-1.2:1.0")
FTDI = SerialCandidate("/dev/ttyUSB1", vid=0x0403, pid=0x6001, serial_number="A50285BI")
CP2102 = SerialCandidate(
    "/dev/ttyUSB2", vid=0x10C4, pid=0xEA60, serial_number="0001", location="1-1.4:1.0"
)
BUS = UhfBus((ReaderInfo(0, (2, 1), 0x09, 0x03, 0x3E, 0x00, 30, 10),))


def reader(port: SerialCandidate) -> Finding:
    return Finding(port.device, "", True, str(BUS), BUS, port.device, ("sim-uhf",), port)


def unasked(port: SerialCandidate) -> Finding:
    return Finding(port.device, "", False, "not a known reader family: not asked", port=port)


def test_reader_by_port_table_by_serial() -> None:
    board = TableBoard("sim-table", 0x0101, 3)
    table = Finding(FTDI.device, "", True, str(board), board, FTDI.device, ("sim-table",), FTDI)
    found = assign([reader(CH340), table])
    text = render(found)
    assert written_by_setup(text) and placeholders(text) == []
    assert (
        'SUBSYSTEM=="tty", ATTRS{idVendor}=="1a86", ATTRS{idProduct}=="7523", '
        'KERNELS=="1-1.2:1.0", SYMLINK+="mjtable-reader", GROUP="dialout", MODE="0660", '
        'TAG+="systemd"'
    ) in text.splitlines()
    assert (
        'SUBSYSTEM=="tty", ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001", '
        'ATTRS{serial}=="A50285BI", SYMLINK+="mjtable-table", GROUP="dialout", MODE="0660", '
        'TAG+="systemd"'
    ) in text.splitlines()
    assert "answered as a table board" in text and "04cc" in text  # the PN533 lines stay


def test_the_only_other_adapter_is_the_table_board_two_are_not_told_apart() -> None:
    found = assign([reader(CH340), unasked(FTDI)])
    assert found.table is not None and found.table.port == FTDI and found.unsure == ()
    assert "the only other USB serial adapter" in found.table.why
    two = assign([reader(CH340), unasked(FTDI), unasked(CP2102)])
    assert two.table is None and two.unsure == (FTDI, CP2102)
    assert placeholders(render(two)) == [Role.TABLE]


def test_nothing_found_placeholders_that_match_nothing_and_say_how() -> None:
    serial0 = SerialCandidate("/dev/ttyS0")  # a UART: no USB attributes to name it by
    text = render(assign([unasked(serial0)]))
    assert placeholders(text) == [Role.READER, Role.TABLE]
    assert text.count('ATTRS{idVendor}=="VENDOR", ATTRS{idProduct}=="PRODUCT"') == 2
    assert "run\n# `sudo mjtable setup` again, or put its numbers in place of VENDOR" in text


def test_a_role_not_found_now_keeps_its_earlier_line() -> None:
    earlier = render(assign([reader(CH340), unasked(FTDI)]))
    # run again while the daemon holds both ports: neither answers, two are not told apart
    now = render(assign([unasked(CH340), unasked(FTDI)]), earlier)
    for role in Role:
        assert existing_line(now, role) == existing_line(earlier, role) is not None
    assert placeholders(now) == []


def test_a_serial_number_udev_cannot_match_as_written_falls_back_to_the_port() -> None:
    odd = SerialCandidate(
        "/dev/ttyUSB3", vid=0x0403, pid=0x6001, serial_number='A" B', location="1-1.3:1.0"
    )
    line = existing_line(render(assign([reader(odd)])), Role.READER)
    assert line is not None and 'KERNELS=="1-1.3:1.0"' in line and "serial" not in line


def test_every_rule_is_key_op_value_pairs() -> None:
    """udev's syntax: comma-separated KEY=="value" / KEY+="value" pairs, quotes balanced."""
    pair = re.compile(r'^[A-Z]+(?:\{[a-zA-Z]+\})?(==|\+=|=)"[^"]*"$')
    for found in (assign([reader(CH340), unasked(FTDI)]), assign([])):
        for line in render(found).splitlines():
            if line and not line.startswith("#"):
                assert all(pair.match(p.strip()) for p in line.split(", ")), line
