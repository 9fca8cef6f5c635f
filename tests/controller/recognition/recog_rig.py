"""Test rig for the recogniser: a seeded bot deal played physically on the simulator's World
by tools/sim/player.PhysicalPlayer, its zone changes and buttons fed to a `Recogniser`, and
a small stand-in for the daemon runtime that offers what is recognised to a fresh judge.

The runtime part does what controller/daemon/runtime.py does with recogniser results: a
MoveSeen is checked and applied (a draw seen while a window is open closes the window first,
the runtime owns the claim clock), `on_accepted` follows; alerts are collected. The bot's
`CloseClaims` (its claim clock) is applied by the runtime just before the player moves the
claimed tiles, as a real runtime's clock would run out first.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace

from controller.alerts import AlertKind
from controller.devices.events import Button, SeatButton, TagsRead
from controller.profiles import (
    Card,
    ReaderProfile,
    TileCopy,
    Zone,
    ZoneKind,
    load_reader,
    sim_tag_map,
    with_declarations,
)
from controller.recognition.presence import (
    CardLifted,
    CardPlaced,
    Debouncer,
    TileLifted,
    TilePlaced,
)
from controller.recognition.recogniser import (
    HandsDealt,
    MoveSeen,
    Recogniser,
    RefereeAlert,
    WallScanned,
)
from rules import ruleset
from rules.claims import is_claim
from rules.deal import Deal
from rules.melds import MeldKind
from rules.moves import (
    CloseClaims,
    Correction,
    Discard,
    Draw,
    EndDeal,
    Hu,
    Kong,
    Move,
    Pass,
    Penalty,
    Rejected,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
)
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat
from rules.wall import Dice
from tools.sim.noise import Noise, NoiseConfig
from tools.sim.player import CLAIMS, PhysicalPlayer, plan_deal
from tools.sim.world import WALL_SCAN, World

SICHUAN = ("sbr-mil", "sbr-russia", "sbr-chengdu2016", "wmt")
REFEREE = (Correction, Penalty, EndDeal)


def reader(name: str = "sim-uhf") -> ReaderProfile:
    return load_reader(name)


def strip(moves) -> list[Move]:
    """Moves compared without times and without the tile a draw names (the bot leaves it
    out, the recogniser names what it saw)."""
    out = []
    for m in moves:
        if isinstance(m, Draw | ReplacementDraw):
            m = replace(m, tile=None)
        out.append(replace(m, t=None))
    return out


def shown(moves) -> list[Move]:
    """Moves as a table without buttons shows them: a pass is silence, so no passes, and
    the window closes (which a pass may have made unneeded) left out."""
    return [m for m in strip(moves) if not isinstance(m, Pass | CloseClaims)]


def normalise(rs: RuleSet, dice: Dice, tiles, moves) -> tuple[Move, ...]:
    """The bot may call a kong on a freshly drawn fourth tile 'postponed'; on the table that
    is a promoted kong (RULES.md) and nothing tells them apart, so the reference is too."""
    deal = Deal.start(rs, dice, tiles)
    out = []
    for m in moves:
        if isinstance(m, Kong) and m.kind is MeldKind.POSTPONED_KONG and deal.drawn == m.tile:
            m = replace(m, kind=MeldKind.PROMOTED_KONG)
        assert deal.apply(m), m
        out.append(m)
    return tuple(out)


def noted(rs: RuleSet, dice: Dice, tiles, moves) -> Counter:
    """The alerts a correct recogniser raises on these moves: a false Hu, and a discard
    that breaks the void order under `lenient` (both accepted by the judge)."""
    deal = Deal.start(rs, dice, tiles)
    out: Counter = Counter()
    for m in moves:
        hu = isinstance(m, Hu | SelfDrawnHu | RobKong)
        if hu and replace(m, t=None) not in deal.legal_moves(m.seat):
            out[AlertKind.FALSE_HU] += 1
        if isinstance(m, Discard):
            void = deal.void(m.seat)
            held = any(t.suit is void for t in deal.hand(m.seat))
            if void is not None and m.tile.suit is not void and held:
                out[AlertKind.VOID_DISCARD_ORDER] += 1
        deal.apply(m)
    return out


@dataclass
class Runtime:
    rs: RuleSet
    rec: Recogniser
    deal: Deal | None = None
    alerts: list[RefereeAlert] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    scanned: tuple[TileCopy, ...] | None = None
    dealt: bool = False
    close_due: bool = False  # the claim clock ran out before the discard was read

    def feed(self, results) -> None:
        self._feed(results)
        due = self.close_due and self.deal is not None and self.deal.window is not None
        if due and not self.rec.holds_window():
            self.close_due = False
            self.apply(CloseClaims())

    def close(self) -> None:
        """The runtime's claim clock: close the window now, or as soon as it opens (and
        no CHOW waits for its tiles, as the daemon's runtime does)."""
        if self.deal is not None and self.deal.window is not None and not self.rec.holds_window():
            self.apply(CloseClaims())
        else:
            self.close_due = True

    def _feed(self, results) -> None:
        for r in results:
            if isinstance(r, MoveSeen):
                self.offer(r.move)
            elif isinstance(r, RefereeAlert):
                self.alerts.append(r)
            elif isinstance(r, WallScanned):
                self.scanned = r.order
            elif isinstance(r, HandsDealt):
                self.dealt = True

    def offer(self, move: Move) -> bool:
        deal = self.deal
        assert deal is not None
        rejected = deal.check(move)
        if rejected is not None and deal.window is not None and not is_claim(move):
            trial = deal.copy()
            if trial.apply(CloseClaims()) and trial.check(move) is None:
                self.apply(CloseClaims())
                rejected = deal.check(move)
        if rejected is not None:
            self.rejected.append(rejected)
            return False
        self.apply(move)
        return True

    def apply(self, move: Move) -> None:
        assert self.deal is not None
        was_open = self.deal.window is not None
        result = self.deal.apply(move)
        assert result, result
        if was_open and self.deal.window is None:
            self.close_due = False  # that window is closed, whoever closed it
        self.rec.on_accepted(move, self.deal)


class Table:
    """The physical side: a World, the PhysicalPlayer, and the events the reader and the
    table's buttons would give (noise-free: every pace settles exactly what moved)."""

    def __init__(self, rs: RuleSet, profile: ReaderProfile, runtime: Runtime, seed: int) -> None:
        self.rs = rs
        self.runtime = runtime
        self.rec = runtime.rec
        self.world = World(rs.tiles.set, profile, seed)
        self.wall_antennas = self.world.antennas_of(WALL_SCAN)
        self.t = 0.0
        self.seen: dict[TileCopy, Zone] = {}
        self.seen_cards: dict[Card, Zone] = {}
        self.tick_each_pace = True
        self.noise: Noise | None = None
        self.debouncer = Debouncer(profile, sim_tag_map(rs.tiles.set), clock=lambda: self.t)
        d = profile.debounce
        self.settle_rounds = max(d.appear, d.vanish) + 1  # as tools/sim/run.py paces
        self.glimpse_rounds = 2  # rounds a tile entering the wall antenna's field is read

    def rounds(self, n: int) -> None:
        """`n` noisy inventory rounds through the real debouncer (20 rounds a second)."""
        for _ in range(n):
            self.t += 0.05
            fields = self.world.tags_by_antenna()
            for a in sorted(self.world.reader.antennas):
                got = self.noise.reads(a, fields)
                read = TagsRead(self.t, a, tuple(r.epc for r in got), tuple(r.rssi for r in got))
                if a in self.wall_antennas:
                    self.runtime.feed(self.rec.on_wall_read(read))
                self.debouncer.observe(read)
            for change in self.debouncer.end_round(self.t):
                if isinstance(change, CardPlaced | CardLifted):
                    self.runtime.feed(self.rec.on_presence(change, self.runtime.deal))
                if isinstance(change, TilePlaced | TileLifted):
                    self.seen = self.debouncer.presence()
                    self.runtime.feed(self.rec.on_presence(change, self.runtime.deal))
            self.runtime.feed(self.rec.tick(self.t, self.runtime.deal))

    def stand_still(self, seconds: float) -> None:
        """Nothing moves for `seconds`: the reader goes on polling, the recogniser ticks."""
        if self.noise is not None:
            self.rounds(round(seconds / 0.05) + 1)
            return
        self.t += seconds
        self.runtime.feed(self.rec.tick(self.t, self.runtime.deal))

    def press(self, side: Seat, button: Button) -> None:
        self.t += 0.1
        self.runtime.feed(self.rec.on_button(SeatButton(self.t, side, button), self.runtime.deal))

    def pace(self, kind: str) -> None:
        if self.noise is not None:
            self.rounds(self.glimpse_rounds if kind == "glimpse" else self.settle_rounds)
            return
        self.t += 0.5
        if kind == "glimpse":
            tags = self.world.tags_by_antenna()
            for a in self.wall_antennas:
                self.runtime.feed(self.rec.on_wall_read(TagsRead(self.t, a, tuple(tags[a]))))
            return
        for change in self.changes():
            self.runtime.feed(self.rec.on_presence(change, self.runtime.deal))
        if self.tick_each_pace:
            self.runtime.feed(self.rec.tick(self.t, self.runtime.deal))

    def changes(self) -> list[TilePlaced | TileLifted | CardPlaced | CardLifted]:
        now = {
            tc: p
            for tc, p in self.world.snapshot().items()
            if isinstance(p, Zone) and self.world.has_zone(p) and p.kind is not ZoneKind.WALL
        }
        lifts = [
            TileLifted(self.t, tc.tile, tc.copy, z)
            for tc, z in sorted(self.seen.items())
            if now.get(tc) != z
        ]
        places = [
            TilePlaced(self.t, tc.tile, tc.copy, z)
            for tc, z in sorted(now.items())
            if self.seen.get(tc) != z
        ]
        self.seen = now
        cards = {c: z for c, z in self.world.cards().items() if self.world.has_zone(z)}
        card_lifts = [
            CardLifted(self.t, c, z) for c, z in self.seen_cards.items() if cards.get(c) != z
        ]
        card_places = [
            CardPlaced(self.t, c, z) for c, z in cards.items() if self.seen_cards.get(c) != z
        ]
        self.seen_cards = cards
        return [*lifts, *places, *card_lifts, *card_places]


@dataclass
class Played:
    runtime: Runtime
    table: Table
    reference: Deal
    moves: tuple[Move, ...]
    dealer_side: Seat
    noted: Counter
    # the settled presence after the deal and after each move: snapshots[i] follows moves[:i]
    snapshots: list[dict[TileCopy, Zone]] = field(default_factory=list)


def play(
    rules: str,
    seed: int,
    profile: str = "sim-uhf",
    noise: NoiseConfig | None = None,
    declarations: str = "buttons",
    **rec_kw,
) -> Played:
    """One seeded deal, planned by the bot, played on the table and recognised; the players
    declare with `declarations` (buttons, cards, tiles: tools/sim/player.py)."""
    rs = ruleset.load(rules)
    prof = with_declarations(reader(profile), declarations)
    rng = random.Random(seed)
    dealer_side = SEATS[rng.randrange(4)]
    rec = Recogniser(rs, prof, sim_tag_map(rs.tiles.set), **rec_kw)
    runtime = Runtime(rs, rec)
    table = Table(rs, prof, runtime, rng.randrange(1 << 30))
    if noise is not None:
        table.noise = Noise(noise, prof, seed)
    order = table.world.shuffle()
    tiles = tuple(tc.tile for tc in order)
    dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
    plan = plan_deal(rs, dice, tiles, rng)
    moves = normalise(rs, dice, tiles, plan.moves)
    player = PhysicalPlayer(
        table.world, rs, dealer_side, table.press, table.pace, lambda r: None, declarations
    )
    rec.new_deal(dealer_side)
    player.build_walls(order, 5)
    wall = tuple(tc.tile for tc in runtime.scanned) if runtime.scanned else tiles
    runtime.deal = Deal.start(rs, dice, wall)
    runtime.feed(rec.start_deal(runtime.deal))
    player.deal(dice)
    snapshots = [dict(table.seen)]
    judged = Deal.start(rs, dice, tiles)
    for move in moves:
        # a player who declares Hu shows the hand: a false one stops the table until the
        # referee has seen it (the recogniser holds a false-looking HU for `settle`, in case
        # a discard not read yet is its own)
        false_hu = isinstance(move, Hu | SelfDrawnHu | RobKong) and replace(
            move, t=None
        ) not in judged.legal_moves(move.seat)
        judged.apply(move)
        silent = declarations != "buttons" and not isinstance(move, (*CLAIMS, *REFEREE))
        if silent and runtime.deal.window is not None:
            runtime.close()  # a pass is silence: a window the bots' passes completed ends
        if isinstance(move, CloseClaims):
            if declarations != "buttons":
                # the claim clock runs while claims shown by tiles settle (a real one for
                # seconds; `ClaimHold` waits a debounce window before reading a pung)
                if table.noise is not None:
                    table.rounds(2 * table.settle_rounds)
                else:
                    table.pace("react")
            runtime.close()  # the runtime's claim clock ran out
        elif isinstance(move, REFEREE):
            runtime.apply(move)  # the referee's own decision; a correction's tiles follow
        player.perform(move)
        if false_hu:
            table.stand_still(rec.settle + 0.1)
        snapshots.append(dict(table.seen))
    if table.noise is not None:
        table.rounds(2 * table.settle_rounds)  # the reader goes on polling after the deal
    reference = Deal.replay(rs, dice, tiles, moves)
    expect = noted(rs, dice, tiles, moves)
    return Played(runtime, table, reference, moves, dealer_side, expect, snapshots)
