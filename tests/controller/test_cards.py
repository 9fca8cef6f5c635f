"""Declaration cards in tag maps and through the debouncer (issue 18 item 1): `card:hu#E`
(the Win card kept at side E) and `card:void-p#1` (a void indicator card) are tags like the
tiles' ones, debounced by the same rules, reported as `CardPlaced` / `CardLifted`."""

from __future__ import annotations

import tomllib

import pytest

from controller.devices.events import TagsRead
from controller.profile_files import read_profile
from controller.profiles import (
    Card,
    CardKind,
    load_reader,
    load_tags,
    parse_reader,
    parse_tags,
    sim_card_uid,
    sim_tag_map,
)
from controller.recognition.presence import (
    CardLifted,
    CardPlaced,
    Debouncer,
    TilePlaced,
    Zone,
    ZoneKind,
)
from rules.schema import SchemaError
from rules.seats import Seat
from rules.tiles import TileSet

TAGS = """
[tags]
name = "t"
tileset = 108
[uids]
"e2806894000000000000aa01" = "5p#1"
"e2806894000000000000cc01" = "card:hu#E"
"e2806894000000000000cc02" = "card:void-p#1"
"""


def test_a_tag_map_names_cards_beside_tiles() -> None:
    tags = parse_tags(tomllib.loads(TAGS), "tags/t.toml")
    win = bytes.fromhex("e2806894000000000000cc01")
    assert tags.item(win) == Card(CardKind.HU, "E") and tags.lookup(win) is None
    assert tags.item(bytes.fromhex("e2806894000000000000cc02")) == Card.parse("card:void-p#1")
    assert str(tags.item(bytes.fromhex("e2806894000000000000aa01"))) == "5p#1"
    assert CardKind.VOID_P.suit is not None and CardKind.HU.suit is None
    assert len(tags.missing()) == 107  # cards are no tiles


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("card:hu#X", "names its side"),
        ("card:void-p#5", "copy is 1..4"),
        ("card:pung#1", "card kind 'pung'"),
        ("card:hu", "is not card:KIND#MARK"),
        ("card:hu#E", "already tag e2806894000000000000cc01"),
    ],
)
def test_card_errors_name_the_key(value: str, message: str) -> None:
    extra = f'"e2806894000000000000cc09" = "{value}"\n'
    with pytest.raises(SchemaError) as info:
        parse_tags(tomllib.loads(TAGS + extra), "tags/t.toml")
    assert info.value.key == "e2806894000000000000cc09"
    assert message in str(info.value)


def test_the_simulated_sets_carry_every_card() -> None:
    for tileset in TileSet:
        shipped = load_tags(f"sim-{tileset.value}", complete=True)
        assert sorted(map(str, shipped.cards.values())) == sorted(
            map(str, sim_tag_map(tileset).cards.values())
        )
        assert len(shipped.cards) == 4 + 3 * 4


def test_a_card_is_debounced_like_a_tile() -> None:
    reader = load_reader("sim-uhf")
    deb = Debouncer(reader, sim_tag_map(TileSet.SUITED_108), lambda: 0.0)
    card = Card.parse("card:hu#S")
    uid = sim_card_uid(card)
    melds = 7  # S.melds

    def round_(t: float, seen: bool) -> list:
        reads = [TagsRead(t, a, (uid,) if seen and a == melds else (), (93,)) for a in range(1, 18)]
        return deb.feed_round(reads)

    out = [c for i in range(4) for c in round_(float(i), True)]
    assert out == [CardPlaced(2.0, card, Zone(ZoneKind.MELDS, Seat.S))]
    assert deb.cards() == {card: Zone(ZoneKind.MELDS, Seat.S)} and deb.presence() == {}
    out = [c for i in range(4, 8) for c in round_(float(i), False)]
    assert out == [CardLifted(6.0, card, Zone(ZoneKind.MELDS, Seat.S))]
    assert not any(isinstance(c, TilePlaced) for c in out)


def test_the_reader_profile_says_which_declaration_sources_a_table_has() -> None:
    data, source = read_profile("readers", "sim-uhf")
    assert [d.value for d in parse_reader(data, source).reader.declarations] == ["buttons"]
    data["reader"]["declarations"] = ["cards", "tiles"]
    assert [d.value for d in parse_reader(data, source).reader.declarations] == ["cards", "tiles"]
    for bad, message in (
        (["cardz"], "is not one of"),
        ([], "at least one"),
        (["tiles"] * 2, "twice"),
    ):
        data["reader"]["declarations"] = bad
        with pytest.raises(SchemaError, match=message):
            parse_reader(data, source)
