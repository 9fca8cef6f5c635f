"""The reader profile's pace (issue 17): `inventory-ms` per antenna (the reader's default,
an antenna's own), `rounds-per-second`, and the table profile's `baud`; out-of-range values
name their file, section and key."""

from __future__ import annotations

import tomllib

import pytest

from controller.profiles import load_reader, load_table, parse_reader
from rules.schema import SchemaError

READER = """
[reader]
name = "r"
model = "uhf-serial"
verified-by = "t"
date = "d"
[antennas]
1 = { zone = "hand", seat = "E" }
2 = { zone = "wall" }
"""


def test_defaults_and_an_antenna_of_its_own() -> None:
    plain = parse_reader(tomllib.loads(READER), "readers/r.toml")
    assert [a.inventory_s for a in plain.antennas.values()] == [0.02, 0.02]
    assert plain.round_interval == 1 / 20
    text = READER.replace('date = "d"', 'date = "d"\ninventory-ms = 40\nrounds-per-second = 4')
    text = text.replace('zone = "wall"', 'zone = "wall", inventory-ms = 5')
    own = parse_reader(tomllib.loads(text), "readers/r.toml")
    assert [a.inventory_s for a in own.antennas.values()] == [0.04, 0.005]
    assert own.round_interval == 0.25


@pytest.mark.parametrize(
    ("old", "new", "section", "key"),
    [
        ('date = "d"', 'date = "d"\nrounds-per-second = 0', "reader", "rounds-per-second"),
        ('date = "d"', 'date = "d"\ninventory-ms = -1', "reader", "inventory-ms"),
        ('zone = "wall"', 'zone = "wall", inventory-ms = "x"', "antennas.2", "inventory-ms"),
    ],
)
def test_pace_errors_name_their_key(old: str, new: str, section: str, key: str) -> None:
    with pytest.raises(SchemaError) as info:
        parse_reader(tomllib.loads(READER.replace(old, new)), "readers/r.toml")
    assert (info.value.section, info.value.key) == (section, key)


def test_the_shipped_simulator_profiles_state_their_pace() -> None:
    for name in ("sim-uhf", "sim-uhf-nowall"):
        reader = load_reader(name)
        assert reader.reader.rounds_per_second == 20
        assert {a.inventory_s for a in reader.antennas.values()} == {0.01}
    assert load_table("sim-table").table.baud == 57600
