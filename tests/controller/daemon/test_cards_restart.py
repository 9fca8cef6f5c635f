"""Cards laid while the daemon was down (issue 18): killed while the voids were being
chosen, restarted after the players laid them (E a tile face down, S, W and N, who hold no
tile of their void suit, the void indicator card). The reader reported the cards while the
daemon was recovering, when nothing is read as a move, and the reconciliation explained the
tiles only: S, W and N's voids were never chosen and the deal stalled. The real runtime,
recogniser and debouncer on a journal on disk, the simulator's world as the table."""

from __future__ import annotations

from pathlib import Path

from test_boardless import Table

from controller.devices.events import LinkChanged, LinkState
from controller.journal.records import RecordKind
from controller.profiles import Card, TileCopy, Zone, ZoneKind
from rules.ruleset import RuleSet
from rules.seats import Seat
from rules.tiles import Tile, parse_tiles
from rules.wall import Dice, compose
from tools.sim.player import PhysicalPlayer

# E lays 5s (void s); S holds no s, W and N no m: their voids are cards alone
HANDS = {
    Seat.E: "1111234m1567p599s",
    Seat.S: "23456789m23456p",
    Seat.W: "2345678p23456s9p",
    Seat.N: "1122334455667s",
}
CARDS = {"card:void-s#2": Seat.S, "card:void-m#3": Seat.W, "card:void-m#4": Seat.N}


def composed(rs: RuleSet, dice: Dice) -> tuple[TileCopy, ...]:
    order = compose(rs, dice, {s: tuple(parse_tiles(h)) for s, h in HANDS.items()})
    used: dict[Tile, int] = {}
    copies = []
    for t in order:
        used[t] = used.get(t, 0) + 1
        copies.append(TileCopy(t, used[t]))
    return tuple(copies)


def ready(table: Table) -> None:
    table.rt.handle(LinkChanged(table.clock.monotonic(), "reader", LinkState.UP, "test"))
    for _ in range(400):
        table.round()
        if table.rt.machine.phase != "degraded" and not table.rt.resume.recovering:
            return
    raise AssertionError(f"still {table.rt.machine.phase}")


def test_regression_void_cards_laid_while_the_daemon_was_down_choose_the_voids(tmp_path: Path):
    path = tmp_path / "t.journal"
    dice = Dice(6, 4)
    table = Table(path, declarations="cards")
    ready(table)
    for _ in range(8):
        table.round()
    player = PhysicalPlayer(
        table.world, table.rs, Seat.E, lambda s, b: None, table.round, lambda r: None
    )
    order = composed(table.rs, dice)
    player.build_walls(order, linger=5)
    player.deal(dice)
    for _ in range(8):
        table.round()
    assert table.rt.machine.phase == "choosing_void" and table.rt.deal_no == 1
    table.journal.close()  # killed
    world = table.world
    hand = Zone(ZoneKind.HAND, Seat.E)
    laid = next(tc for tc in order if tc.tile == Tile.parse("5s") and world.where(tc) == hand)
    world.move_many([(laid, hand, Zone(ZoneKind.VOID, Seat.E))])
    for card, side in CARDS.items():
        world.lay_card(Card.parse(card), Zone(ZoneKind.VOID, side))
    again = Table(path, clock=table.clock, world=world, declarations="cards")
    ready(again)
    for _ in range(8):
        again.round()
    accepted = again.records(RecordKind.MOVE_ACCEPTED)
    voids = {d["seat"]: d["suit"] for d in accepted if d["move"] == "void"}
    assert voids == {"E": "s", "S": "s", "W": "m", "N": "m"}, accepted
    assert again.rt.machine.phase == "playing.awaiting_discard"
    codes = [a["code"] for a in again.records(RecordKind.ALERT)]
    assert "recovery" not in codes, codes
    found = [d for d in accepted if d["move"] == "void" and d["seat"] == "W"]
    assert "card:void-m#3 found at" in " ".join(found[0]["evidence"])
