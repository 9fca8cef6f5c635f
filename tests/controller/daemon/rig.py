"""A daemon runtime on a fake clock with a real journal, real drivers and a scripted
recogniser, plus bot deals planned through the judge (tests only)."""

from __future__ import annotations

import random
from pathlib import Path

from standin import StandIn, install

from controller.clock import FakeClock
from controller.daemon.replay import recover
from controller.daemon.runtime import Runtime, RuntimeConfig
from controller.devices.events import DataReceived, LinkChanged, LinkState
from controller.devices.table import TableSide
from controller.journal.records import RecordKind
from controller.journal.store import Journal
from controller.locale import Said
from controller.profiles import TileCopy, load_reader, load_table, sim_tag_map
from controller.recognition.presence import Debouncer
from rules import moves as mv
from rules.ruleset import RuleSet, load
from rules.wall import Dice
from tools.sim.player import plan_deal

rec_types = install()


class Rig:
    def __init__(
        self, path: Path, rs: RuleSet | None = None, clock: FakeClock | None = None, **config
    ) -> None:
        self.path = path
        self.clock = clock or FakeClock()
        self.rs = rs or load("sbr-mil")
        self.reader = load_reader("sim-uhf")
        self.tags = sim_tag_map(self.rs.tiles.set)
        self.side = TableSide(load_table("sim-table"))
        self.sent: list[tuple[str, bytes]] = []
        self.rec = StandIn()
        self.journal = Journal.open(path, clock=self.clock)
        from controller.devices.table import TableDriver

        wall = frozenset(
            a.number for a in self.reader.antennas.values() if a.zone.kind.value == "wall"
        )
        recovered = recover(self.journal, self.rs, wall)
        self.recovered = recovered
        self.rt = Runtime(
            self.rs,
            self.journal,
            self.clock,
            self.rec,
            self.reader,
            Debouncer(self.reader, self.tags, self.clock.monotonic),
            TableDriver(load_table("sim-table")),
            self._send,
            RuntimeConfig(**config),
            recovered=recovered,
        )

    def _send(self, device: str, data: bytes) -> bool:
        self.sent.append((device, data))
        return True

    def table(self, event) -> None:
        self.rt.handle(DataReceived(self.clock.monotonic(), "table", self.side.encode(event)))

    def link(self, device: str, up: bool) -> None:
        state = LinkState.UP if up else LinkState.DOWN
        self.rt.handle(LinkChanged(self.clock.monotonic(), device, state, "test"))

    def seen(self, *moves: mv.Move) -> None:
        self.rt.recognised([rec_types.MoveSeen(m, (Said("test"),)) for m in moves], self.clock.now)

    def step(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.rt.tick()

    def wait_ready(self, rounds: int = 200) -> None:
        """Bring both links up and step until the daemon is neither degraded nor
        recovering: the silent reader times out antenna by antenna, so rounds go by."""
        self.link("table", True)
        self.link("reader", True)
        for _ in range(rounds):
            self.step(0.6)
            if self.rt.machine.phase != "degraded" and not self.rt.resume.recovering:
                return
        raise AssertionError(f"still {self.rt.machine.phase} after the links came back")

    def records(self, kind: RecordKind | None = None) -> list:
        return [r for r in self.journal.records() if kind is None or r.kind is kind]

    def close(self) -> None:
        self.journal.close()


def wall_copies(rs: RuleSet, seed: int) -> tuple[TileCopy, ...]:
    copies = [TileCopy(t, c) for t in rs.tiles.set.kinds for c in range(1, 5)]
    random.Random(seed).shuffle(copies)
    return tuple(copies)


def begin_deal(rig: Rig, seed: int, dice: Dice | None = None):
    """Shuffle, walls, dice; returns the bot's plan for the deal."""
    from controller.devices.events import DiceRolled, ShuffleDone, WallsUp

    dice = dice or Dice(6, 4)
    order = wall_copies(rig.rs, seed)
    rig.table(ShuffleDone(0.0))
    rig.rt.recognised([rec_types.WallScanned(order)], rig.clock.now)
    rig.table(WallsUp(0.0))
    rig.rec.outbox = [rec_types.HandsDealt()]
    rig.table(DiceRolled(0.0, dice.a, dice.b))
    return plan_deal(rig.rs, dice, tuple(tc.tile for tc in order), random.Random(seed))


def play(rig: Rig, moves, fast: bool = False) -> None:
    """Offer the plan's moves as seen; the claim window closes on the daemon's clock, or —
    `fast` — early, by the next move, as with the simulator's --fast."""
    moves = list(moves)
    for i, move in enumerate(moves):
        if isinstance(move, mv.CloseClaims):
            window = rig.rt.deal is not None and rig.rt.deal.window is not None
            if window and (not fast or i == len(moves) - 1):
                rig.step(rig.rs.play.claim_seconds + 0.01)
            continue
        rig.seen(move)
        rig.step(0.2)
