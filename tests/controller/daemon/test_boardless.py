"""Issue 18 item 2: a table whose board says nothing of the shuffle, the walls or the dice
(`--table none`, or a board with buttons only). The reader stands in
(controller/daemon/boardless.py): the dice are read off where the dealt hands came from in
the scanned wall, and the runtime is given the events a board would send.

The runtime here is real (journal on disk, the real recogniser and debouncer, no table
driver, fake clock); the table is the simulator's world played by its physical player, and
each reader round is every antenna's inventory of the world, handed to the runtime as a
polled reader's answers (`ReaderPolled`)."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from controller.clock import FakeClock
from controller.daemon.boardless import DealtFrom, hand_tiles, inferred, judge, settled
from controller.daemon.replay import recover
from controller.daemon.runtime import Runtime, RuntimeConfig
from controller.devices.events import LinkChanged, LinkState, ReaderPolled, TagsRead
from controller.journal.payloads import to_drawing
from controller.journal.records import RecordKind
from controller.journal.store import Journal
from controller.profiles import (
    EventKind,
    TileCopy,
    Zone,
    ZoneKind,
    load_reader,
    sim_tag_map,
    with_declarations,
)
from controller.recognition.presence import Debouncer
from controller.recognition.recogniser import Recogniser
from rules.ruleset import load
from rules.seats import SEATS, Seat
from rules.wall import DEALT_TILES, Dice, Wall
from tools.sim.player import PhysicalPlayer
from tools.sim.world import IN_MACHINE, World


def shuffled(rs, seed: int) -> tuple[TileCopy, ...]:
    copies = [TileCopy(t, c) for t in rs.tiles.set.kinds for c in range(1, 5)]
    random.Random(seed).shuffle(copies)
    return tuple(copies)


def dealt(rs, order, dice: Dice, dealer: Seat, upto: int = DEALT_TILES) -> dict[TileCopy, Seat]:
    """The first `upto` dealt tiles and the side each lies at."""
    plan = Wall(rs, dice, tuple(tc.tile for tc in order)).deal_out()
    return {order[i]: SEATS[(seat + dealer) % 4] for seat, i in plan[:upto]}


@pytest.mark.parametrize(("dice", "dealer"), [(Dice(5, 3), Seat.S), (Dice(6, 6), Seat.E)])
def test_the_dealt_hands_name_the_dice_and_the_dealer(dice: Dice, dealer: Seat) -> None:
    rs = load("sbr-mil")
    order = shuffled(rs, 11)
    found = DealtFrom(rs, order).fit(dealt(rs, order, dice, dealer))
    assert found.decided and found.misfits == 0 and judge(found) is found
    (reading,) = found.readings
    assert reading.dice == Dice(min(dice.a, dice.b), max(dice.a, dice.b))
    assert reading.dealer is dealer


@pytest.mark.parametrize("seed", range(6))
def test_the_dice_are_named_only_when_one_break_fits(seed: int) -> None:
    """While the dealing goes on, a break a round earlier, or a dealer a side round with the
    break two stacks on, fits what is read so far when a roll makes it: the dice wait for
    the tile that tells them apart (at the latest East's jump), and are never named wrong."""
    rs = load("sbr-mil")
    rng = random.Random(seed)
    order = shuffled(rs, 100 + seed)
    dice, dealer = Dice(rng.randint(1, 6), rng.randint(1, 6)), SEATS[rng.randrange(4)]
    from_wall = DealtFrom(rs, order)
    named = []
    for upto in range(DEALT_TILES + 1):
        found = judge(from_wall.fit(dealt(rs, order, dice, dealer, upto)))
        if found is not None:
            assert {(r.dealer, r.first) for r in found.readings} == {
                (dealer, found.readings[0].first)
            }
            assert sorted((dice.a, dice.b)) in [[r.dice.a, r.dice.b] for r in found.readings]
            named.append(upto)
    assert named and named[-1] == DEALT_TILES and named == list(range(named[0], DEALT_TILES + 1))
    assert named[0] >= 8  # never from the first group alone


def test_rolls_that_break_the_wall_at_one_place_are_all_readings() -> None:
    """1+1 and 1+5 both break South's wall after one stack (`indent = "min"`); under the
    Wellness sum every roll of a sum does. One deal: decided, every roll a reading."""
    rs = load("sbr-mil")
    order = shuffled(rs, 13)
    found = DealtFrom(rs, order).fit(dealt(rs, order, Dice(5, 1), Seat.E))
    assert found.decided
    assert [r.dice for r in found.readings] == [Dice(1, 1), Dice(1, 5)]
    wellness = load("wellness")
    order = shuffled(wellness, 14)
    found = DealtFrom(wellness, order).fit(dealt(wellness, order, Dice(4, 3), Seat.N))
    assert found.decided and [r.dice for r in found.readings] == [
        Dice(1, 6),
        Dice(2, 5),
        Dice(3, 4),
    ]


def test_a_tile_misread_into_another_hand_still_names_the_break() -> None:
    rs = load("sbr-mil")
    order = shuffled(rs, 15)
    hands = dealt(rs, order, Dice(3, 4), Seat.E)
    tc = next(tc for tc, side in hands.items() if side is Seat.S)
    hands[tc] = Seat.N  # crosstalk settled the wrong way
    found = judge(DealtFrom(rs, order).fit(hands))
    assert found is not None and settled(found) and found.misfits == 1
    assert found.readings[0].dice == Dice(3, 4)


def test_a_void_tile_counts_as_its_hand_and_other_zones_do_not() -> None:
    presence = {
        TileCopy.parse("1m#1"): Zone(ZoneKind.HAND, Seat.E),
        TileCopy.parse("2m#1"): Zone(ZoneKind.VOID, Seat.S),
        TileCopy.parse("3m#1"): Zone(ZoneKind.RIVER, Seat.W),
        TileCopy.parse("4m#1"): Zone(ZoneKind.WALL),
    }
    assert hand_tiles(presence) == {TileCopy.parse("1m#1"): Seat.E, TileCopy.parse("2m#1"): Seat.S}


# --- the runtime -------------------------------------------------------------------------


class Table:
    """A runtime with no table driver, fed the simulated world's inventories round by round."""

    def __init__(
        self,
        path: Path,
        rules: str = "sbr-mil",
        clock: FakeClock | None = None,
        world: World | None = None,
        declarations: str = "buttons",
    ) -> None:
        self.clock = clock or FakeClock()
        self.rs = load(rules)
        self.reader = with_declarations(load_reader("sim-uhf"), declarations)
        self.tags = sim_tag_map(self.rs.tiles.set)
        self.journal = Journal.open(path, clock=self.clock)
        wall = frozenset(
            a.number for a in self.reader.antennas.values() if a.zone.kind.value == "wall"
        )
        self.rt = Runtime(
            self.rs,
            self.journal,
            self.clock,
            Recogniser(self.rs, self.reader, self.tags),
            self.reader,
            Debouncer(self.reader, self.tags, self.clock.monotonic),
            None,
            lambda device, data: True,
            RuntimeConfig(fast_polling=True),
            recovered=recover(self.journal, self.rs, wall),
        )
        self.world = world or World(self.rs.tiles.set, self.reader, 5)

    def round(self, _kind: str = "") -> None:
        self.clock.advance(0.05)
        t = self.clock.monotonic()
        fields = self.world.tags_by_antenna()
        reads = tuple(
            TagsRead(t, n, tuple(uids), (0x5D,) * len(uids)) for n, uids in fields.items()
        )
        self.rt.handle(ReaderPolled(t, "reader", reads))
        self.rt.tick()

    def records(self, kind: RecordKind) -> list[dict]:
        return [r.data() for r in self.journal.records() if r.kind is kind]

    def phases(self) -> list[str]:
        return [d["to"] for d in self.records(RecordKind.TABLE_PHASE)]


def test_a_table_with_no_board_is_shuffled_walled_and_dealt_from_the_reader(tmp_path: Path):
    table = Table(tmp_path / "t.journal")
    rt = table.rt
    assert rt.links == {"reader": LinkState.DOWN} and rt.board.inferred == inferred(None)
    assert EventKind.DICE in rt.board.inferred
    rt.handle(LinkChanged(0.0, "reader", LinkState.UP, "test"))
    for _ in range(8):  # an empty table read for a debounce window: the tiles are in the machine
        table.round()
    assert rt.machine.phase == "shuffling"
    player = PhysicalPlayer(
        table.world, table.rs, Seat.W, lambda s, b: None, table.round, lambda r: None
    )
    order = table.world.shuffle()
    player.build_walls(order, linger=5)
    for _ in range(3):
        table.round()
    assert rt.machine.phase == "walls_up"
    dice = Dice(6, 2)
    player.deal(dice)
    for _ in range(8):
        table.round()
    (started,) = table.records(RecordKind.DEAL_STARTED)
    # 2+2 breaks the wall where 2+6 does (North's, two stacks in): the same deal, the referee
    # is told both readings
    assert started["dice"] == [2, 2] and started["dice_from"] == "hands"
    assert started["dice_readings"] == [[2, 2], [2, 6]]
    (told,) = [a for a in table.records(RecordKind.ALERT) if a["code"] == "dice-readings"]
    assert told["severity"] == "info" and [r["dice"] for r in told["readings"]] == [[2, 2], [2, 6]]
    assert started["dealer"] == "W"  # the daemon thought E deals: the hands say W
    assert started["wall_copies"] == [str(tc) for tc in order]
    assert started["wall"] == [
        str(t) for t in to_drawing(table.rs, dice, [tc.tile for tc in order])
    ]
    assert table.phases()[-4:] == ["walls_up", "dice_rolled", "dealing", "choosing_void"]
    # the deal is played: its tiles go back into the machine, the next shuffle is read
    table.world.shuffle()
    for _ in range(8):
        table.round()
    codes = [a["code"] for a in table.records(RecordKind.ALERT)]
    assert "deal-overtaken" in codes  # nobody played it: the referee is called to end it
    assert rt.machine.phase == "shuffling"
    assert table.phases().count("shuffling") == 2


def dealt_from_the_reader(tmp_path: Path, dice: Dice) -> Table:
    """A table with no board read empty, its walls built and the deal dealt (dealer East)."""
    table = Table(tmp_path / "t.journal")
    table.rt.handle(LinkChanged(0.0, "reader", LinkState.UP, "test"))
    for _ in range(8):
        table.round()
    player = PhysicalPlayer(
        table.world, table.rs, Seat.E, lambda s, b: None, table.round, lambda r: None
    )
    player.build_walls(table.world.shuffle(), linger=5)
    player.deal(dice)
    for _ in range(8):
        table.round()
    return table


def test_regression_a_table_cleared_mid_deal_is_not_read_as_moves(tmp_path: Path):
    """The first boardless e2e run: the tiles of a stalled deal left for the machine over a
    few rounds (noise: not all at once), and the recogniser read the emptying table against
    the deal: a residue of most of the set, searched for moves (the core busy for seconds,
    the reader unpolled), then short-hand and unrecognised calls for a table being shuffled.
    A round that clears the table is noted, not read, until the shuffle or a tile placed."""
    table = dealt_from_the_reader(tmp_path, Dice(3, 3))
    rt = table.rt
    assert rt.deal is not None and rt.machine.phase == "choosing_void"
    on_table = [tc for tc, p in table.world.snapshot().items() if isinstance(p, Zone)]
    first, rest = on_table[:20], on_table[20:]
    table.world.move_many((tc, table.world.where(tc), IN_MACHINE) for tc in first)
    for _ in range(200):  # 10 s: the first tiles gone, the others still read
        table.round()
    assert rt.deal is not None and not rt.deal.over  # not a shuffle yet: tiles remain
    codes = [a["code"] for a in table.records(RecordKind.ALERT)]
    assert not set(codes) & {"short-hand", "unrecognised", "stalled", "long-hand"}, codes
    table.world.move_many((tc, table.world.where(tc), IN_MACHINE) for tc in rest)
    for _ in range(8):
        table.round()
    assert rt.machine.phase == "shuffling"
    codes = [a["code"] for a in table.records(RecordKind.ALERT)]
    assert "deal-overtaken" in codes
    assert not set(codes) & {"short-hand", "unrecognised", "stalled", "long-hand"}, codes


def test_a_tile_placed_again_ends_the_clearing(tmp_path: Path):
    """Tiles that vanish and come back (an antenna that stopped answering, then answered)
    are read against the deal again: no shuffle, the deal goes on."""
    table = dealt_from_the_reader(tmp_path, Dice(4, 5))
    rt = table.rt
    east = Zone(ZoneKind.HAND, Seat.E)
    hand = table.world.in_place(east)
    table.world.move_many((tc, east, IN_MACHINE) for tc in hand)
    for _ in range(6):
        table.round()
    assert rt._as_seen() is None  # read against no deal meanwhile
    table.world.move_many((tc, IN_MACHINE, east) for tc in hand)
    for _ in range(6):
        table.round()
    assert rt._as_seen() is rt.deal and rt.machine.phase == "choosing_void"


def test_table_none_in_the_settings_and_what_it_needs() -> None:
    """`--table none` alone: the built-in simulator without a board; with a reader: that
    reader alone. The reader must have a wall antenna (the walls and dice are read there);
    so must a board profile that leaves them to the reader."""
    from controller.daemon.app import load_parts
    from controller.daemon.config import ConfigError, Settings, overlay

    s = overlay(Settings(), devices={"table": "none"})
    assert s.simulated and s.boardless
    s = overlay(s, devices={"reader": "/dev/ttyUSB1"})
    assert not s.simulated and s.boardless
    assert s.echo()["devices"] == ["none", "/dev/ttyUSB1"]
    _, table, _, _ = load_parts(s)
    assert table is None
    nowall = overlay(s, devices={"reader_profile": "sim-uhf-nowall"})
    with pytest.raises(ConfigError, match="no serial link needs a reader with a wall antenna"):
        load_parts(nowall)
    buttons = overlay(
        Settings(),
        devices={"table_profile": "sim-table-buttons", "reader_profile": "sim-uhf-nowall"},
    )
    with pytest.raises(
        ConfigError, match=re.escape("sim-table-buttons (no walls-up or dice event)")
    ):
        load_parts(buttons)
    _, table, _, _ = load_parts(overlay(buttons, devices={"reader_profile": "sim-uhf"}))
    assert table is not None and inferred(table) == inferred(None)


def test_regression_walls_scanned_across_two_restarts_are_read_whole(tmp_path: Path):
    """The boardless e2e kill test: killed while the walls were built, restarted, killed
    again once they were up: the second restart replayed only the wall reads journalled
    since the first restart's key batch, so the tiles that crossed the wall antenna before
    it were lost, the scan never completed and no dice were read. Replay decodes every wall
    read since the shuffle, from the key batch before it."""
    path = tmp_path / "t.journal"
    table = Table(path)
    table.rt.handle(LinkChanged(0.0, "reader", LinkState.UP, "test"))
    for _ in range(8):
        table.round()
    order = table.world.shuffle()
    steps = itertools.count()
    cut = {40: "restart", 80: "restart"}

    def glimpse(_kind: str) -> None:
        nonlocal table
        table.round()
        if cut.get(next(steps)) == "restart":
            table.rt.stop("test")
            table.journal.close()
            table = Table(path, clock=table.clock, world=table.world)
            table.rt.handle(LinkChanged(table.clock.monotonic(), "reader", LinkState.UP, "up"))

    player = PhysicalPlayer(
        table.world, table.rs, Seat.E, lambda s, b: None, glimpse, lambda r: None
    )
    player.build_walls(order, linger=5)
    for _ in range(12):
        table.round()
    assert table.rt.machine.phase == "walls_up", table.phases()
    assert table.rt.deal_start.scan == order
    player.deal(Dice(2, 5))
    for _ in range(8):
        table.round()
    (started,) = table.records(RecordKind.DEAL_STARTED)
    assert started["wall_copies"] == [str(tc) for tc in order] and started["dice"] == [2, 5]


def test_hands_that_fit_no_break_call_the_referee_and_start_nothing(tmp_path: Path):
    """Four tiles dealt to East lie in South's hand and four of South's in East's: no break
    deals that (a wall scan that cannot be right, or tiles moved): the whole deal read, the
    referee is called with the best reading, and no deal starts on a guess."""
    table = Table(tmp_path / "t.journal")
    rt = table.rt
    rt.handle(LinkChanged(0.0, "reader", LinkState.UP, "test"))
    for _ in range(8):
        table.round()
    pacing = [True]  # the reader reads the walls being built, not the dealing
    player = PhysicalPlayer(
        table.world,
        table.rs,
        Seat.E,
        lambda s, b: None,
        lambda k: table.round() if pacing[0] else None,
        lambda r: None,
    )
    player.build_walls(table.world.shuffle(), linger=5)
    for _ in range(3):
        table.round()
    pacing[0] = False
    player.deal(Dice(1, 3))
    east, south = Zone(ZoneKind.HAND, Seat.E), Zone(ZoneKind.HAND, Seat.S)
    a, b = table.world.in_place(east)[:4], table.world.in_place(south)[:4]
    table.world.move_many([*((tc, east, south) for tc in a), *((tc, south, east) for tc in b)])
    for _ in range(10):
        table.round()
    assert rt.deal is None and not table.records(RecordKind.DEAL_STARTED)
    (call,) = [x for x in table.records(RecordKind.ALERT) if x["code"].startswith("dice-")]
    assert call["code"] == "dice-unread" and call["referee_called"] and call["severity"] == "error"
    assert call["readings"] == [{"dice": [1, 3], "dealer": "E"}]
    assert "but for 8 tiles" in call["message"]
    assert rt.referee_called and rt.machine.phase == "walls_up"
    # the call offers each reading as a candidate; the referee page applies one
    (offered,) = call["candidates"]
    assert offered["action"] == {"kind": "dice", "dice": "1+3", "seat": "E"}
    from controller.outputs.scoreboard import parse_action

    result = rt.referee(parse_action({**offered["action"], "note": "seen rolled"}, "ref-1"))
    assert result.accepted, result.detail
    (started,) = table.records(RecordKind.DEAL_STARTED)
    assert started["dice"] == [1, 3] and started["dealer"] == "E"
    assert (started["dice_from"], started["referee"], started["why"]) == (
        "referee",
        "ref-1",
        "seen rolled",
    )
    assert not rt.referee_called and rt.deal is not None
    again = rt.referee(parse_action({"kind": "dice", "dice": "2+2", "seat": "S"}, "ref-1"))
    assert not again.accepted and "no dice are awaited" in again.detail
