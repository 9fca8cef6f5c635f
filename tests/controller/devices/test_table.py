"""The table driver on the sim-table profile (hand-worked bytes) and on a second, very
different profile given inline: commands out, events in, round trips both ways."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings, strategies as st

from controller.devices.events import (
    Button,
    CommandAcked,
    DiceRolled,
    FrameError,
    LidChanged,
    SeatButton,
    ShuffleDone,
    TableFault,
    TableIdentified,
    WallsUp,
)
from controller.devices.table import (
    Buzzer,
    Identify,
    Light,
    RaiseWalls,
    ShowCountdown,
    ShowScore,
    StartShuffle,
    TableDriver,
    TableSide,
    Unsupported,
)
from controller.profiles import CommandKind, load_table, parse_table
from rules.seats import Seat

SIM = load_table("sim-table")

# AA 55 | LEN (code + payload) | CODE | PAYLOAD | XOR of LEN..payload; seats 1..4 on the wire
COMMAND_BYTES = [
    (StartShuffle(), "aa 55 01 10 11"),
    (RaiseWalls(), "aa 55 01 11 10"),
    (ShowScore(Seat.N, -12), "aa 55 04 12 04 ff f4 19"),
    (ShowScore(Seat.E, 300), "aa 55 04 12 01 01 2c 3a"),
    (Light(Seat.E, True), "aa 55 03 13 01 01 10"),
    (Buzzer(500), "aa 55 03 14 01 f4 e2"),
    (ShowCountdown(Seat.S, 3), "aa 55 03 15 02 03 17"),
    (Identify(), "aa 55 01 16 17"),
]


@pytest.mark.parametrize(("command", "wire"), COMMAND_BYTES)
def test_command_bytes(command: object, wire: str) -> None:
    assert TableDriver(SIM).encode(command).hex(" ") == wire  # type: ignore[arg-type]
    assert TableSide(SIM).feed(0.0, bytes.fromhex(wire)) == [command]


def test_events_one_byte_at_a_time_with_noise() -> None:
    wire = bytes.fromhex(
        "aa 55 01 80 81"  # shuffle-done
        "00 ff"  # line noise
        "aa 55 01 81 80"  # walls-up
        "aa 55 03 82 06 04 83"  # dice 6 4
        "aa 55 03 83 03 06 85"  # W presses void-p
        "aa 55 03 83 01 01 80"  # E presses hu
        "aa 55 02 85 01 86"  # lid open
        "aa 55 02 84 07 81"  # fault 7
        "aa 55 02 86 14 90"  # ack of the buzzer command (0x14)
    )
    driver = TableDriver(SIM)
    out = []
    for i, b in enumerate(wire):
        out += driver.feed(float(i), bytes([b]))
    kinds = [type(e).__name__ for e in out]
    assert kinds == [
        "ShuffleDone",
        "FrameError",
        "WallsUp",
        "DiceRolled",
        "SeatButton",
        "SeatButton",
        "LidChanged",
        "TableFault",
        "CommandAcked",
    ]
    assert out[1] == FrameError(
        8.0, "table", "garbage", b"\x00\xff"
    )  # reported when AA 55 completes
    assert (out[3].a, out[3].b) == (6, 4)
    assert (out[4].seat, out[4].button) == (Seat.W, Button.VOID_P)
    assert (out[5].seat, out[5].button) == (Seat.E, Button.HU)
    assert out[6].open is True
    assert out[7].code == 7
    assert out[8].command is CommandKind.BUZZER
    assert driver.errors == 1


def test_the_chow_button_of_the_136_tile_table():
    """sim-table's button value 8 (issue 8: Wellness claims chows). Worked by hand:
    LEN 03, CODE 83, seat S = 02, chow = 08; XOR 03^83^02^08 = 8A."""
    driver = TableDriver(SIM)
    assert driver.feed(1.0, bytes.fromhex("aa 55 03 83 02 08 8a")) == [
        SeatButton(1.0, Seat.S, Button.CHOW)
    ]
    assert TableSide(SIM).encode(SeatButton(0.0, Seat.S, Button.CHOW)) == bytes.fromhex(
        "aa 55 03 83 02 08 8a"
    )


@pytest.mark.parametrize(
    ("wire", "reason"),
    [
        ("aa 55 03 82 07 01 87", "dice 7 1 are not 1..6"),
        ("aa 55 03 83 05 01 84", "seat 4 is not 0..3"),
        ("aa 55 03 83 01 09 88", "button value 9 is not in the profile"),
        ("aa 55 02 82 06 86", "payload 1 bytes, layout 2"),
        ("aa 55 01 99 98", "unknown code 0x99"),
    ],
)
def test_frames_with_good_checksums_but_bad_content(wire: str, reason: str) -> None:
    driver = TableDriver(SIM)
    (err,) = driver.feed(1.0, bytes.fromhex(wire))
    assert isinstance(err, FrameError)
    assert reason in err.reason
    assert err.data == bytes.fromhex(wire)
    assert driver.feed(2.0, bytes.fromhex("aa 55 01 80 81")) == [ShuffleDone(2.0)]


def test_values_that_do_not_fit() -> None:
    driver = TableDriver(SIM)
    with pytest.raises(Unsupported):
        driver.encode(ShowScore(Seat.E, 40000))
    with pytest.raises(Unsupported):
        driver.encode(Buzzer(-1))


# A second table: one-byte header, code before length, length counts the whole frame,
# CRC-16/MODBUS over header..payload sent big-endian, CR trailer, seats 0x10..0x13.
OTHER = """
[table]
model = "other"
firmware = "x"
verified-by = "test"
date = "2026-01-01"

[framing]
header = [0x02]
fields = ["code", "length", "payload"]
length-counts = "frame"
checksum = "crc16-modbus"
covers = "from-header"
checksum-order = "big"
trailer = [0x0D]

[commands.start-shuffle]
code = 0x01
[commands.raise-walls]
code = 0x02
fields = [{ name = "const", value = 0x5A }]
[commands.show-score]
code = 0x03
fields = [{ name = "score", type = "i16le" }, { name = "seat" }]

[events.shuffle-done]
code = 0x41
[events.walls-up]
code = 0x42
[events.dice]
code = 0x43
fields = [{ name = "b" }, { name = "a" }]
[events.button]
code = 0x44
fields = [{ name = "seat", offset = 0x10 },
          { name = "button", type = "u16be", values = { hu = 0x100, pung = 0x200, kong = 0x300, pass = 0 } }]
"""


def test_a_different_profile() -> None:
    profile = parse_table(tomllib.loads(OTHER), "other.toml")
    driver, side = TableDriver(profile), TableSide(profile)
    assert not driver.supports(Light)
    assert not driver.supports(Identify)  # mjtable probe cannot ask this board who it is
    with pytest.raises(Unsupported):
        driver.encode(ShowCountdown(Seat.E, 3))
    frame = driver.encode(ShowScore(Seat.W, -2))
    assert frame[:6] == bytes.fromhex("02 03 09 fe ff 02") and frame[-1] == 0x0D
    assert side.feed(0.0, frame) == [ShowScore(Seat.W, -2)]
    assert driver.encode(RaiseWalls())[3] == 0x5A
    wire = side.encode(SeatButton(0.0, Seat.N, Button.KONG))
    assert wire[3:6] == bytes.fromhex("13 03 00")
    assert driver.feed(5.0, wire) == [SeatButton(5.0, Seat.N, Button.KONG)]
    with pytest.raises(Unsupported):  # this table has no void buttons
        side.encode(SeatButton(0.0, Seat.N, Button.VOID_M))
    with pytest.raises(Unsupported):
        side.encode(LidChanged(0.0, True))


# ---- round trips


seats = st.sampled_from(Seat)
commands = st.one_of(
    st.just(StartShuffle()),
    st.just(RaiseWalls()),
    st.builds(ShowScore, seats, st.integers(-32768, 32767)),
    st.builds(Light, seats, st.booleans()),
    st.builds(Buzzer, st.integers(0, 65535)),
    st.builds(ShowCountdown, seats, st.integers(0, 255)),
    st.just(Identify()),
)
events = st.one_of(
    st.builds(ShuffleDone, st.just(0.0)),
    st.builds(WallsUp, st.just(0.0)),
    st.builds(DiceRolled, st.just(0.0), st.integers(1, 6), st.integers(1, 6)),
    st.builds(SeatButton, st.just(0.0), seats, st.sampled_from(Button)),
    st.builds(TableFault, st.just(0.0), st.integers(0, 255)),
    st.builds(LidChanged, st.just(0.0), st.booleans()),
    st.builds(CommandAcked, st.just(0.0), st.sampled_from(CommandKind)),
    st.builds(TableIdentified, st.just(0.0), st.integers(0, 65535), st.integers(0, 255)),
)


@settings(max_examples=200, deadline=None)
@given(cmds=st.lists(commands, max_size=8))
def test_commands_round_trip(cmds: list) -> None:
    driver, side = TableDriver(SIM), TableSide(SIM)
    wire = b"".join(driver.encode(c) for c in cmds)
    got = []
    for b in wire:
        got += side.feed(0.0, bytes([b]))
    assert got == cmds


@settings(max_examples=200, deadline=None)
@given(evs=st.lists(events, max_size=8))
def test_events_round_trip(evs: list) -> None:
    driver, side = TableDriver(SIM), TableSide(SIM)
    assert driver.feed(0.0, b"".join(side.encode(e) for e in evs)) == evs
