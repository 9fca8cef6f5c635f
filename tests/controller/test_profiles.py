"""Hardware profiles: the shipped ones load; every kind of mistake is an error naming file,
section and key; the generated tag sets match their generator."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from controller.profiles import (
    TileCopy,
    Zone,
    ZoneKind,
    available,
    load_reader,
    load_table,
    load_tags,
    parse_reader,
    parse_table,
    parse_tags,
    sim_tag_map,
    sim_tag_uid,
    write_sim_tags,
)
from rules.schema import SchemaError
from rules.seats import Seat
from rules.tiles import Tile, TileSet

SIM_TABLE = Path(__file__).parents[2] / "hw_profiles" / "tables" / "sim-table.toml"


def test_shipped_profiles_load() -> None:
    assert "sim-table" in available("tables")
    for name in available("tables"):
        load_table(name)
    for name in available("readers"):
        load_reader(name)
    for name in available("tags"):
        load_tags(name)


def table_with(edit: str, old: str = "", new: str = "") -> dict:
    text = SIM_TABLE.read_text(encoding="utf-8")
    if old:
        assert old in text
        text = text.replace(old, new, 1)
    return tomllib.loads(text + edit)


@pytest.mark.parametrize(
    ("data", "section", "key", "message"),
    [
        (
            table_with("", "max-payload = 16", "max-payload = 16\nbaud = 9600"),
            "framing",
            "baud",
            "unknown key",
        ),
        (
            table_with("", "header = [0xAA, 0x55]", "header = [0xAA, 0x155]"),
            "framing",
            "header",
            "out of range",
        ),
        (
            table_with("", 'checksum = "xor"', 'checksum = "crc32"'),
            "framing",
            "checksum",
            "not one of",
        ),
        (
            table_with("[commands.show-score.extra]\n"),
            "commands.show-score",
            "extra",
            "unknown key",
        ),
        (table_with("[commands.beep]\ncode = 0x30\n"), "commands", "beep", "unknown message"),
        (
            table_with("", "code = 0x11", "code = 0x10"),
            "commands.raise-walls",
            "code",
            "also start-shuffle",
        ),
        (
            table_with("", "code = 0x11", "code = 0x1FF"),
            "commands.raise-walls",
            "code",
            "code size",
        ),
        (
            table_with("", '{ name = "score", type = "i16be" }', '{ name = "points" }'),
            "commands.show-score",
            "fields[1]",
            "unknown field 'points'",
        ),
        (
            table_with("", '{ name = "score", type = "i16be" }', '{ name = "seat" }'),
            "commands.show-score",
            "fields[1]",
            "appears twice",
        ),
        (
            table_with("", '{ name = "score", type = "i16be" }', '{ name = "const", value = 300 }'),
            "commands.show-score",
            "fields[1]",
            "does not fit u8",
        ),
        (table_with("", "hu = 1, ", ""), "events.button", "fields[1]", "values must name"),
        (
            table_with("", "void-s = 7", "void-s = 6"),
            "events.button",
            "fields[1]",
            "share one wire value",
        ),
        (
            table_with(
                "", '{ name = "seat", offset = 1 }', '{ name = "seat", values = { E = 1 } }'
            ),
            "commands.show-score",
            "fields[0]",
            "takes no values",
        ),
        (
            table_with("", "[events.dice]\ncode = 0x82", "[events.dice-x]\ncode = 0x82"),
            "events",
            "dice-x",
            "unknown message",
        ),
        (
            table_with("", 'type = "i16be"', 'type = "i24"'),
            "commands.show-score.fields",
            "type",
            "not one of",
        ),
    ],
)
def test_table_errors_name_file_section_key(
    data: dict, section: str, key: str, message: str
) -> None:
    with pytest.raises(SchemaError) as info:
        parse_table(data, "tables/x.toml")
    err = info.value
    assert (err.source, err.section, err.key) == ("tables/x.toml", section, key)
    assert message in str(err)
    assert str(err).startswith("tables/x.toml: ")


def test_missing_required_event() -> None:
    data = table_with("")
    del data["events"]["button"]
    with pytest.raises(SchemaError, match=re.escape("[events] key 'button': missing required")):
        parse_table(data, "x.toml")


def test_a_board_may_leave_the_shuffle_walls_and_dice_to_the_reader() -> None:
    """Issue 18 item 2: a board with seat buttons only; the daemon reads the rest."""
    from controller.daemon.boardless import inferred
    from controller.profiles import EventKind

    data = table_with("")
    for name in ("shuffle-done", "walls-up", "dice"):
        del data["events"][name]
    profile = parse_table(data, "x.toml")
    assert inferred(profile) == {EventKind.SHUFFLE_DONE, EventKind.WALLS_UP, EventKind.DICE}
    assert inferred(load_table("sim-table")) == frozenset()
    assert inferred(load_table("sim-table-buttons")) == inferred(None) == inferred(profile)


def test_bad_framing_is_reported_in_its_section() -> None:
    data = table_with(
        "", 'fields = ["length", "code", "payload"]', 'fields = ["code", "payload", "length"]'
    )
    with pytest.raises(SchemaError, match=r"\[framing\].*payload must come last"):
        parse_table(data, "x.toml")


# ---- readers


def test_bought_readers_say_their_debounce_is_guessed() -> None:
    from controller.profiles import CalibrationState, ReaderModel

    for name in ("uhfreader18-rs485", "uhfreader18-rs485-nowall", "pn532-pi-uart", "pn533-usb"):
        assert load_reader(name).calibration.state is CalibrationState.GUESSED, name
    assert load_reader("pn532-pi-uart").reader.model is ReaderModel.PN532_UART
    assert load_reader("pn533-usb").reader.model is ReaderModel.PN533_USB
    for single in ("pn532-pi-uart", "pn533-usb"):  # no RSSI: the margin is off
        assert load_reader(single).debounce.crosstalk_margin == 0


@pytest.mark.parametrize(
    ("name", "readers"), [("uhfreader18-rs485", 5), ("uhfreader18-rs485-nowall", 4)]
)
def test_the_rs485_bus_profiles_use_four_ports_of_each_address(name: str, readers: int) -> None:
    """Antenna n is port (n-1) mod 8 + 1 of the reader at address (n-1) div 8
    (controller/daemon/reader_bus.py): a 4-port reader's antennas are 8k+1 .. 8k+4."""
    profile = load_reader(name)
    by_address: dict[int, list[int]] = {}
    for n in profile.antennas:
        by_address.setdefault((n - 1) // 8, []).append((n - 1) % 8 + 1)
    assert sorted(by_address) == list(range(readers))
    assert all(ports == sorted(ports) and max(ports) <= 4 for ports in by_address.values())
    seats = {a.zone.seat for n, a in profile.antennas.items() if n <= 32}
    assert len(seats) == 4 and len(profile.zones) == len(profile.antennas)
    assert profile.reader.address == 0  # never broadcast on a shared bus


def test_a_measured_calibration_names_its_rounds() -> None:
    data = tomllib.loads(READER + '[calibration]\nstate = "measured"\n')
    with pytest.raises(SchemaError, match=r"\[calibration\].*names the rounds"):
        parse_reader(data, "r.toml")
    data = tomllib.loads(READER + '[calibration]\nstate = "guessed"\nown-rssi = [9, 3, 4]\n')
    with pytest.raises(SchemaError, match="lowest, median, highest"):
        parse_reader(data, "r.toml")


def test_sim_uhf_zones() -> None:
    r = load_reader("sim-uhf")
    assert len(r.antennas) == 17
    assert r.zone_of(1) == Zone(ZoneKind.HAND, Seat.E)
    assert r.zone_of(14) == Zone(ZoneKind.RIVER, Seat.N)
    assert r.zone_of(17) == Zone(ZoneKind.WALL)
    assert r.zone_of(18) is None
    assert len(r.zones) == 17  # every seat has all four zones, plus the wall
    for a in r.antennas.values():  # neighbours are symmetric
        assert all(a.number in r.antennas[n].neighbours for n in a.neighbours)
    assert r.antennas[2].neighbours == {1, 6, 14}  # E river: E hand, S river, N river
    assert str(r.zone_of(6)) == "S.river"


READER = """
[reader]
name = "r"
model = "uhf-serial"
verified-by = "t"
date = "d"
[antennas]
1 = { zone = "hand", seat = "E", neighbours = [2] }
2 = { zone = "wall" }
"""


@pytest.mark.parametrize(
    ("old", "new", "section", "key", "message"),
    [
        ('zone = "wall"', 'zone = "wall", seat = "S"', "antennas.2", "seat", "the wall has none"),
        ('seat = "E", ', "", "antennas.1", "seat", "needs a seat"),
        ('seat = "E"', 'seat = "X"', "antennas.1", "seat", "a seat is one of"),
        ("neighbours = [2]", "neighbours = [3]", "antennas.1", "neighbours", "no other antenna 3"),
        ("neighbours = [2]", "neighbours = [1]", "antennas.1", "neighbours", "no other antenna 1"),
        ("2 = {", "x = {", "antennas", "x", "an antenna is a number"),
        ('model = "uhf-serial"', 'model = "uhf"', "reader", "model", "not one of"),
        ('date = "d"', 'date = "d"\nbaud = 10', "reader", "baud", "out of range"),
        ('zone = "wall"', 'zone = "table"', "antennas.2", "zone", "not one of"),
    ],
)
def test_reader_errors(old: str, new: str, section: str, key: str, message: str) -> None:
    with pytest.raises(SchemaError) as info:
        parse_reader(tomllib.loads(READER.replace(old, new)), "readers/r.toml")
    assert (info.value.section, info.value.key) == (section, key)
    assert message in str(info.value)


def test_debounce_needs_a_majority() -> None:
    data = tomllib.loads(READER + "[debounce]\nwindow = 6\nappear = 3\nvanish = 2\n")
    with pytest.raises(SchemaError, match=r"\[debounce\].*more than half"):
        parse_reader(data, "r.toml")


# ---- tags


def test_tile_copy_notation() -> None:
    assert TileCopy.parse("5p#2") == TileCopy(Tile.P5, 2)
    assert str(TileCopy(Tile.S9, 4)) == "9s#4"
    for bad in ("5p", "5p#5", "5p#0", "0p#1", "5x#1", "5p#a"):
        with pytest.raises(ValueError):
            TileCopy.parse(bad)


def test_generated_sets_are_shipped_unchanged(tmp_path: Path) -> None:
    """The shipped sim tag sets are exactly the generator's output (regenerate with
    `write_sim_tags`), and both load back to the generator's map."""
    shipped = Path(__file__).parents[2] / "hw_profiles" / "tags"
    for path in write_sim_tags(tmp_path):
        assert path.read_text() == (shipped / path.name).read_text()
    m108, m136 = load_tags("sim-108"), load_tags("sim-136")
    assert dict(m108.by_uid) == dict(sim_tag_map(TileSet.SUITED_108).by_uid)
    assert len(m108.by_uid) == 108 and len(m136.by_uid) == 136
    assert m108.missing() == () and m136.missing() == ()
    uid = sim_tag_uid(TileCopy(Tile.P5, 2))
    assert len(uid) == 12 and uid[:4] == bytes.fromhex("e2806894")
    assert m108.lookup(uid) == m136.lookup(uid) == TileCopy(Tile.P5, 2)
    assert len(set(m136.by_uid)) == 136  # no two tiles share a UID


TAGS = """
[tags]
name = "t"
tileset = 108
[uids]
"e2806894000000000000aa01" = "5p#1"
"e2806894000000000000aa02" = "5p#2"
"""


@pytest.mark.parametrize(
    ("extra", "key", "message"),
    [
        ('"e2806894000000000000aa03" = "5p#5"\n', "e2806894000000000000aa03", "copies are 1..4"),
        (
            '"e2806894000000000000aa03" = "5p#1"\n',
            "e2806894000000000000aa03",
            "already tag e2806894000000000000aa01",
        ),
        ('"e2806894000000000000AA01" = "6p#1"\n', "e2806894000000000000AA01", "UID listed twice"),
        ('"zz" = "5p#3"\n', "zz", "hex digits"),
        ('"0102" = "5p#3"\n', "0102", "4..32 bytes"),
        (
            '"e2806894000000000000aa03" = "5z#1"\n',
            "e2806894000000000000aa03",
            "not in the 108-tile set",
        ),
    ],
)
def test_tag_errors(extra: str, key: str, message: str) -> None:
    with pytest.raises(SchemaError) as info:
        parse_tags(tomllib.loads(TAGS + extra), "tags/t.toml")
    assert (info.value.source, info.value.section, info.value.key) == ("tags/t.toml", "uids", key)
    assert message in str(info.value)


def test_lenient_tags_keep_duplicates() -> None:
    extra = '"e2806894000000000000aa03" = "5p#1"\n'
    tags = parse_tags(tomllib.loads(TAGS + extra), "t.toml", strict=False)
    assert tags.duplicates == {bytes.fromhex("e2806894000000000000aa03")}
    assert len(tags.missing()) == 108 - 2


def test_a_reader_profile_says_its_inventory_layout_and_antenna_selection() -> None:
    from controller.devices.uhf_reader import InventoryLayout

    assert load_reader("uhfreader18-rs485").reader.inventory_layout is InventoryLayout.ANTENNA_RSSI
    spot = load_reader("uhfreader18-spot").reader
    assert spot.inventory_layout is InventoryLayout.PLAIN and not spot.select_antenna
    data = tomllib.loads(READER.replace('date = "d"', 'date = "d"\ninventory-layout = "sideways"'))
    with pytest.raises(SchemaError, match="inventory-layout"):
        parse_reader(data, "r.toml")
    data = tomllib.loads(READER.replace('date = "d"', 'date = "d"\nselect-antenna = false'))
    with pytest.raises(SchemaError, match=r"\[antennas\.2\].*port 1 only"):
        parse_reader(data, "r.toml")
