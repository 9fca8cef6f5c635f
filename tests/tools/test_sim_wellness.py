"""The simulator plays Wellness (issue 8 item 2): 136 tiles on walls of 17 stacks, no void
choice, honours, and chows shown as the CHOW button is pressed (tools/sim/player.py)."""

from __future__ import annotations

import random

from controller.devices.events import Button
from controller.profiles import Zone, ZoneKind, load_reader
from controller.recognition.expected import Layout, expected, observed, residue
from rules.deal import Deal
from rules.moves import ChooseVoid, Chow, CloseClaims, Discard, Draw, Pass, Pung
from rules.ruleset import load
from rules.seats import SEATS, Seat
from rules.tiles import Tile
from rules.wall import Dice
from tools.sim.player import PhysicalPlayer, plan_deal
from tools.sim.world import WallSpot, World

RS = load("wellness")
PROFILE = load_reader("sim-uhf")


def _table(seed: int, dealer: Seat = Seat.E):
    rng = random.Random(seed)
    world = World(RS.tiles.set, PROFILE, seed)
    order = world.shuffle()
    dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
    presses: list = []
    notes: list = []
    player = PhysicalPlayer(
        world, RS, dealer, lambda s, b: presses.append((s, b)), lambda k: None, notes.append
    )
    player.build_walls(order, 5)
    player.deal(dice)
    return player, rng, order, dice, presses, notes


def _residue(player: PhysicalPlayer, deal: Deal):
    layout = Layout(PROFILE, player.dealer)
    where = {tc: z for tc, z in player.world.snapshot().items() if isinstance(z, Zone)}
    return residue(observed(where, layout), expected(deal, layout))


def test_a_136_tile_wall_of_17_stacks_is_dealt_with_honours_and_no_void() -> None:
    player, _, order, _, _, _ = _table(3)
    assert len(order) == 136 and any(tc.tile >= Tile.EAST for tc in order)
    walls = [p for p in player.world.snapshot().values() if isinstance(p, WallSpot)]
    assert len(walls) == 136 - 53 == 83  # docs/WELLNESS.md: 83 tiles stay in the wall


def test_bot_deals_end_with_the_table_as_the_judge_says() -> None:
    """Twelve seeded Wellness deals played physically: after the last move every zone holds
    what the judge says (the recogniser's convention, controller/recognition/expected.py);
    chows are among the moves, no void is chosen."""
    chows = 0
    for seed in range(12):
        dealer = SEATS[seed % 4]
        player, rng, order, dice, presses, notes = _table(seed, dealer)
        plan = plan_deal(RS, dice, tuple(tc.tile for tc in order), rng, referee=False)
        assert not any(isinstance(m, ChooseVoid) for m in plan.moves)
        for m in plan.moves:
            player.perform(m)
        if player._declared:
            player.perform(CloseClaims())  # the deal's last Hu: its tile is taken too
        deal = Deal.replay(RS, dice, tuple(tc.tile for tc in order), plan.moves)
        assert not _residue(player, deal), seed
        n = sum(isinstance(m, Chow) for m in plan.moves)
        assert sum(b is Button.CHOW for _, b in presses) == n
        assert sum(r["move"] == "chow" for r in notes) == n
        chows += n
    assert chows >= 12


def _chow_and_pung_window(seed: int):
    """A deal played by the judge until a discard both the next player can chow and another
    player can pung (searched over seeds, then scripted)."""
    for s in range(seed, seed + 400):
        player, _rng, order, dice, presses, notes = _table(s)
        deal = Deal.start(RS, dice, tuple(tc.tile for tc in order))
        moves = []
        while not deal.over and len(moves) < 120:
            claims = deal.admissible_claims()
            chow = [m for ms in claims.values() for m in ms if isinstance(m, Chow)]
            pung = [m for ms in claims.values() for m in ms if isinstance(m, Pung)]
            if chow and pung and pung[0].seat is not chow[0].seat:
                return player, presses, notes, moves, chow[0], pung[0], deal
            if deal.window is not None:
                move = CloseClaims()
            elif deal.phase.value == "draw":
                move = Draw(deal.turn)
            else:
                move = Discard(deal.turn, max(deal.hand(deal.turn)))
            assert deal.apply(move), move
            moves.append(move)
    raise AssertionError("no window with both a chow and a pung")


def test_a_chow_shows_two_tiles_at_once_and_the_discard_joins_them() -> None:
    player, presses, _notes, moves, chow, _, deal = _chow_and_pung_window(1)
    for m in moves:
        player.perform(m)
    discarder = SEATS[(chow.seat - 1) % 4]
    rec = player.perform(chow)
    assert presses[-1] == (chow.seat, Button.CHOW)
    assert rec["to"] == [f"{chow.seat}.melds"] * 2 and rec["tile"] == str(chow.tile)
    laid = [tc.tile for tc in player.world.in_place(Zone(ZoneKind.MELDS, chow.seat))]
    assert sorted([*laid, deal.window.tile]) == [Tile(chow.tile + i) for i in range(3)]
    for s in SEATS:
        if s not in (chow.seat, discarder) and not deal.is_out(s):
            player.perform(Pass(s))
    assert deal.apply(chow)
    close = player.perform(CloseClaims())
    assert close["seat"] == str(chow.seat) and close["from"] == [f"{discarder}.river"]
    for s in SEATS:
        if deal.window is not None and s not in (chow.seat, discarder):
            deal.apply(Pass(s))
    if deal.window is not None:
        deal.apply(CloseClaims())
    assert not _residue(player, deal)


def test_a_chow_beaten_by_a_pung_takes_its_two_tiles_back() -> None:
    player, _, _notes, moves, chow, pung, deal = _chow_and_pung_window(1)
    for m in moves:
        player.perform(m)
    player.perform(chow)
    player.perform(pung)
    close = player.perform(CloseClaims())
    assert close["seat"] == str(pung.seat)  # 001 IV 2.1: Pung beats Chow
    back = [f for f, t in zip(close["from"], close["to"], strict=True) if t == f"{chow.seat}.hand"]
    assert back == [f"{chow.seat}.melds"] * 2
    assert deal.apply(chow) and deal.apply(pung)
    if deal.window is not None:
        deal.apply(CloseClaims())
    assert not _residue(player, deal)
