"""The simulator's physical layer without ptys: the world, the noise model, and a scripted
deal record (no judge) turned into tag moves and button presses."""

from __future__ import annotations

import pytest

from controller.devices.events import Button
from controller.profiles import TileCopy, Zone, ZoneKind, load_reader, sim_tag_uid
from rules.melds import MeldKind
from rules.moves import (
    ChooseVoid,
    CloseClaims,
    Correction,
    Discard,
    Draw,
    Hu,
    Kong,
    Pung,
    ReplacementDraw,
)
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import Suit, Tile, TileSet, parse_tiles
from rules.wall import Dice, Wall, compose
from tools.sim.noise import CROSSTALK_RSSI, OWN_RSSI, Noise, NoiseConfig, Unplug
from tools.sim.player import PhysicalPlayer
from tools.sim.world import IN_MACHINE, WALL_SCAN, WallSpot, World, WorldError

PROFILE = load_reader("sim-uhf")
RS = load("sbr-mil")


def Z(kind: str, seat: str) -> Zone:
    return Zone(ZoneKind(kind), Seat.parse(seat))


def tc(text: str) -> TileCopy:
    return TileCopy.parse(text)


# ---- world


def test_world_moves_and_antenna_fields() -> None:
    w = World(TileSet.SUITED_108, PROFILE, seed=1)
    assert len(w.copies) == 108 and set(w.snapshot().values()) == {IN_MACHINE}
    w.move(tc("5p#2"), IN_MACHINE, Z("hand", "S"))
    w.move_many([(tc("1m#1"), IN_MACHINE, WALL_SCAN), (tc("1m#2"), IN_MACHINE, WallSpot(3))])
    fields = w.tags_by_antenna()
    assert fields[5] == [sim_tag_uid(tc("5p#2"))]  # antenna 5 = S.hand
    assert fields[17] == [sim_tag_uid(tc("1m#1"))]  # the wall-scan spot
    assert sum(map(len, fields.values())) == 2  # a built wall lies over no antenna
    with pytest.raises(WorldError, match=r"5p#2 is at S\.hand, not machine"):
        w.move(tc("5p#2"), IN_MACHINE, Z("river", "S"))
    with pytest.raises(WorldError):  # all or nothing
        w.move_many([(tc("1m#3"), IN_MACHINE, WALL_SCAN), (tc("1m#1"), IN_MACHINE, WALL_SCAN)])
    assert w.where(tc("1m#3")) is IN_MACHINE
    w.place_foreign(b"\x04" * 7, Z("hand", "E"))
    assert w.tags_by_antenna()[1] == [b"\x04" * 7]


def test_shuffle_is_seeded_and_a_permutation() -> None:
    a = World(TileSet.SUITED_108, PROFILE, seed=4).shuffle()
    b = World(TileSet.SUITED_108, PROFILE, seed=4).shuffle()
    c = World(TileSet.SUITED_108, PROFILE, seed=5).shuffle()
    assert a == b != c and sorted(a) == sorted(c)


# ---- noise


def test_unplug_parse() -> None:
    assert Unplug.parse("reader:3@20") == Unplug("reader", 3.0, 20.0)
    assert Unplug.parse("table:0.5@1.25") == Unplug("table", 0.5, 1.25)
    for bad in ("reader:3", "lamp:3@2", "reader:-1@2", "reader:x@y"):
        with pytest.raises(ValueError, match="DEVICE:SECONDS@AT"):
            Unplug.parse(bad)
    with pytest.raises(ValueError, match="percentage"):
        NoiseConfig(missed=101)


def fields() -> dict[int, list[bytes]]:
    return {1: [b"A" * 12], 2: [b"B" * 12], 3: [], 5: [b"C" * 12]}


def test_noise_reads() -> None:
    quiet = Noise(NoiseConfig(), PROFILE, 1)
    assert [(r.epc, r.rssi) for r in quiet.reads(1, fields())] == [(b"A" * 12, OWN_RSSI)]
    assert Noise(NoiseConfig(missed=100), PROFILE, 1).reads(1, fields()) == []
    twice = Noise(NoiseConfig(repeated=100), PROFILE, 1).reads(1, fields())
    assert [r.epc for r in twice] == [b"A" * 12] * 2
    # antenna 1 (E.hand) neighbours 2, 3, 4 in sim-uhf; antenna 5 is S.hand, no neighbour
    cross = Noise(NoiseConfig(crosstalk=100), PROFILE, 1).reads(1, fields())
    assert [(r.epc, r.rssi) for r in cross] == [(b"A" * 12, OWN_RSSI), (b"B" * 12, CROSSTALK_RSSI)]


def test_noise_frames_are_damaged_at_the_rate_and_repeatably() -> None:
    frame = bytes.fromhex("1500010301010ce28068940000400a9d22a9eb5df9c3")
    assert Noise(NoiseConfig(), PROFILE, 1).frame(frame) == frame
    a = Noise(NoiseConfig(corrupt=100), PROFILE, 7)
    b = Noise(NoiseConfig(corrupt=100), PROFILE, 7)
    damaged = [a.frame(frame) for _ in range(50)]
    assert damaged == [b.frame(frame) for _ in range(50)]
    assert all(d != frame for d in damaged)
    flips = [d for d in damaged if len(d) == len(frame)]
    cuts = [d for d in damaged if len(d) < len(frame)]
    assert flips and cuts and a.counts["corrupt"] == 50
    for d in flips:
        assert sum(bin(x ^ y).count("1") for x, y in zip(d, frame, strict=True)) == 1
    some = Noise(NoiseConfig(corrupt=10), PROFILE, 3)
    hits = sum(some.frame(frame) != frame for _ in range(2000))
    assert 120 < hits < 280


# ---- a scripted deal record, no judge


HANDS = {
    Seat.E: "123456789m1234p9s",
    Seat.S: "7777p123456s568p",
    Seat.W: "1m99s2345678s568p",
    Seat.N: "11223344999p22m",
}


def scripted() -> tuple[PhysicalPlayer, list, list, tuple[TileCopy, ...], Dice]:
    dice = Dice(3, 4)
    hands = {s: tuple(parse_tiles(h)) for s, h in HANDS.items()}
    tiles = compose(RS, dice, hands)
    world = World(TileSet.SUITED_108, PROFILE, seed=1)
    world.shuffle()
    seen: dict[Tile, int] = {}
    order = []
    for t in tiles:  # the tile copies in the composed order
        seen[t] = seen.get(t, 0) + 1
        order.append(TileCopy(t, seen[t]))
    presses: list = []
    notes: list = []
    paces: list = []
    player = PhysicalPlayer(
        world, RS, Seat.E, lambda s, b: presses.append((s, b)), paces.append, notes.append
    )
    player.build_walls(tuple(order), linger=2)
    assert paces.count("glimpse") == 110  # 108 tiles + 2 lingering at the end
    player.deal(dice)
    assert paces.count("settle") == 17  # 12 groups of four, then the five of East's jump
    return player, presses, notes, tuple(order), dice


def test_deal_fills_the_hand_zones_as_the_wall_geometry_says() -> None:
    player, _, _, order, dice = scripted()
    w = player.world
    for seat, text in HANDS.items():
        held = w.in_place(Z("hand", str(seat)))
        assert sorted(c.tile for c in held) == sorted(parse_tiles(text))
    assert len(w.in_place(WALL_SCAN)) == 0
    walls = [tc for tc, p in w.snapshot().items() if isinstance(p, WallSpot)]
    assert len(walls) == 55
    ref = Wall(RS, dice, tuple(c.tile for c in order))
    ref.deal()
    assert {order[i] for i in ref.remaining()} == set(walls)


def test_scripted_moves_become_tag_moves_and_buttons() -> None:
    player, presses, notes, order, dice = scripted()
    w = player.world
    moves = [
        ChooseVoid(Seat.E, Suit.S, Tile.parse("9s")),
        ChooseVoid(Seat.S, Suit.M),  # no characters: the indicator, i.e. the void button
        ChooseVoid(Seat.W, Suit.M, Tile.parse("1m")),
        ChooseVoid(Seat.N, Suit.S),
        Discard(Seat.E, Tile.parse("9s")),  # the face-down tile leaves the void spot
        Pung(Seat.W),
        CloseClaims(),
        Discard(Seat.W, Tile.parse("1m")),
        Hu(Seat.N),
        CloseClaims(),
        Draw(Seat.S),
        Kong(Seat.S, MeldKind.CONCEALED_KONG, Tile.parse("7p")),
        ReplacementDraw(Seat.S),
        Discard(Seat.S, Tile.parse("6p")),
        Correction(1, "discard retrieved"),  # 000 3.6.A: the 6p goes back to the hand
        Discard(Seat.S, Tile.parse("5p")),
        Hu(Seat.E),
        Hu(Seat.W),  # two Hu on one discard; the judge closed the window by itself
        Draw(Seat.E),
    ]
    for m in moves:
        player.perform(m)
    assert presses == [
        (Seat.S, Button.VOID_M),
        (Seat.N, Button.VOID_S),
        (Seat.W, Button.PUNG),
        (Seat.N, Button.HU),
        (Seat.S, Button.KONG),
        (Seat.E, Button.HU),
        (Seat.W, Button.HU),
    ]
    assert w.in_place(Z("void", "E")) == () and w.in_place(Z("void", "W")) == ()
    assert [c.tile for c in w.in_place(Z("melds", "W"))] == [Tile.parse("9s")] * 3
    assert w.in_place(Z("river", "E")) == () and w.in_place(Z("river", "W")) == ()
    assert Tile.parse("1m") in [c.tile for c in w.in_place(Z("hand", "N"))]
    assert [c.tile for c in w.in_place(Z("melds", "S"))] == [Tile.parse("7p")] * 4
    ref = Wall(RS, dice, tuple(c.tile for c in order))
    ref.deal()
    drawn = order[ref.draw(Seat.S).index]
    replacement = order[ref.replacement(Seat.S).index]
    east_draw = order[ref.draw(Seat.E).index]
    assert w.where(drawn) == Z("hand", "S") and w.where(replacement) == Z("hand", "S")
    assert w.where(east_draw) == Z("hand", "E")
    # the first Hu counter-clockwise from the discarder (S) is W: W takes the 5p
    discard = [n for n in notes if n["move"] == "discard" and n["seat"] == "S"][-1]
    assert w.where(tc(discard["tiles"][0])) == Z("hand", "W")
    assert w.in_place(Z("river", "S")) == ()
    pung = next(n for n in notes if n["move"] == "close-claims" and n.get("seat") == "W")
    assert pung["to"] == ["W.melds"] * 3 and pung["from"][0] == "E.river"
    # voids 1+1, discard 1, pung 3, discard 1, Hu 1, draw 1, kong 4, replacement 1,
    # discard 1, its correction 1, discard 1, the two Hu's one tile 1, draw 1
    assert sum(len(n.get("tiles", ())) for n in notes) == 19
    back = next(n for n in notes if n["move"] == "correction")
    assert back["from"] == ["S.river"] and back["to"] == ["S.hand"]
    assert Tile.parse("6p") in [c.tile for c in w.in_place(Z("hand", "S"))]
