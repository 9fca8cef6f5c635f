"""The compact journal of device inputs (`hw.batch`, issue 15 item 2) replays recognition
exactly: a noisy deal (5 % missed reads, 5 % crosstalk, 1 % damaged answers, repeats and
answers cut across chunks) is played on the simulator's reader bus into a runtime on a fake
clock with a real journal; the debouncer's every input and every round's changes, read back
from the journal and fed to a fresh debouncer, are the ones the daemon saw, times included."""

from __future__ import annotations

import random

import pytest
from rig import Rig, begin_deal

from controller.daemon.input_log import reader_steps, replay_presence
from controller.devices.events import DataReceived, FrameError, TagsRead
from controller.journal.inputs import ReaderStep, TableChunk, journal_inputs
from controller.journal.records import RecordKind
from controller.journal.store import Journal
from controller.profiles import TileCopy, ZoneKind
from controller.recognition.presence import Debouncer
from tools.sim.devices import ReaderBus as SimBus
from tools.sim.noise import Noise, NoiseConfig
from tools.sim.world import IN_MACHINE, WALL_SCAN, World


class Recording(Debouncer):
    """The real debouncer, keeping what it was given and what it answered."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.seen: list[TagsRead] = []
        self.answered: list[list] = []

    def observe(self, read: TagsRead) -> None:
        self.seen.append(read)
        super().observe(read)

    def end_round(self, t: float | None = None) -> list:
        out = super().end_round(t)
        self.answered.append(out)
        return out


class Endpoint:
    """Where the simulated reader bus writes its answers."""

    def __init__(self) -> None:
        self.out = bytearray()

    def write(self, data: bytes) -> bool:
        self.out += data
        return True


class NoisyTable:
    def __init__(self, rig: Rig, seed: int) -> None:
        self.rig = rig
        self.rng = random.Random(seed)
        self.world = World(rig.rs.tiles.set, rig.reader, seed)
        noise = NoiseConfig(missed=5, crosstalk=5, corrupt=1, repeated=1)
        self.endpoint = Endpoint()
        self.bus = SimBus(self.world, Noise(noise, rig.reader, seed), self.endpoint, None)

    def serve(self, rounds: int) -> None:
        """Answer the daemon's reader commands until `rounds` debouncer rounds went by; the
        answers arrive in pieces, as from a serial line."""
        rt, clock = self.rig.rt, self.rig.clock
        target = rt.rounds + rounds
        while rt.rounds < target:
            commands = [data for device, data in self.rig.sent if device == "reader"]
            self.rig.sent.clear()
            for data in commands:
                self.bus.on_bytes(data)
            answer, self.endpoint.out = bytes(self.endpoint.out), bytearray()
            clock.advance(0.004)
            while answer:
                cut = self.rng.randint(1, len(answer))
                rt.handle(DataReceived(clock.monotonic(), "reader", answer[:cut]))
                answer = answer[cut:]
                clock.advance(0.001)
            rt.tick()


@pytest.fixture
def table(tmp_path):
    rig = Rig(tmp_path / "t.journal")
    rig.rt.debouncer = Recording(rig.reader, rig.tags, lambda: pytest.fail("clock read"))
    yield NoisyTable(rig, 15)
    rig.close()


def test_a_noisy_deal_replays_from_the_compact_journal_exactly(table):
    rig, world = table.rig, table.world
    rig.link("table", True)
    rig.link("reader", True)
    table.serve(8)
    begin_deal(rig, 3)  # deal 1 opens: its inputs start a key batch
    zones = sorted(
        {a.zone for a in rig.reader.antennas.values() if a.zone.kind is not ZoneKind.WALL},
        key=str,
    )
    hands = [z for z in zones if z.kind is ZoneKind.HAND]
    copies = [TileCopy(t, c) for t in rig.rs.tiles.set.kinds for c in range(1, 5)]
    table.rng.shuffle(copies)
    where = {}
    for i, tc in enumerate(copies[:53]):
        where[tc] = hands[i % 4]
        world.move(tc, IN_MACHINE, hands[i % 4])
    table.serve(10)
    for _ in range(30):  # tiles moved between zones, each a few rounds apart
        tc = table.rng.choice(list(where))
        to = table.rng.choice(zones)
        world.move(tc, where[tc], to)
        where[tc] = to
        table.serve(table.rng.randint(1, 6))
    rig.rt.inputs.flush()
    debouncer = rig.rt.debouncer

    with Journal.open_readonly(rig.path) as journal:
        assert journal.verify().ok
        steps = reader_steps(journal.records())
        deal_steps = reader_steps(journal.deal_records(1))  # a deal is read on its own
        kinds = {r.kind for r in journal.records()}

    assert RecordKind.HW_FRAME not in kinds  # no record per answer any more
    events = [ev for step in steps for ev in step.events]
    assert [ev for ev in events if isinstance(ev, TagsRead)] == debouncer.seen
    assert any(isinstance(ev, FrameError) for ev in events)  # the noise was there
    assert any(56 in ev.rssi for ev in debouncer.seen)  # crosstalk reads
    assert sum(step.round_done for step in steps) == len(debouncer.answered)
    assert deal_steps == steps[-len(deal_steps) :] and len(deal_steps) > 100

    fresh = Debouncer(rig.reader, rig.tags, lambda: pytest.fail("clock read"))
    replayed = replay_presence(steps, fresh)
    assert replayed == debouncer.answered
    assert sum(len(changes) for changes in replayed) > 50  # tiles came, moved and went


def test_the_table_bytes_are_kept_in_order_with_the_reader_steps(table):
    rig = table.rig
    rig.link("table", True)
    rig.link("reader", True)
    table.serve(3)
    begin_deal(rig, 4)
    table.serve(3)
    rig.rt.inputs.flush()
    with Journal.open_readonly(rig.path) as journal:
        items = [item for _, item in journal_inputs(journal.records())]
    chunks = [item for item in items if isinstance(item, TableChunk)]
    assert len(chunks) == 3  # shuffle, walls up, dice: each as the driver received it
    assert all(isinstance(item, ReaderStep | TableChunk) for item in items)
    times = [item.t for item in items]
    assert times == sorted(times)


def test_regression_a_changed_wall_read_is_committed_before_it_is_used(table):
    """A tile passes the wall spot once. Batched like the others, the wall antenna's reads
    of the last second were lost with a kill mid-scan, and the restarted daemon never
    started the deal (test_campaign's wall-scan kill). A wall read that changed is
    committed at once: what a kill leaves holds every one."""
    rig, world = table.rig, table.world
    rig.link("table", True)
    rig.link("reader", True)
    table.serve(2)
    (wall,) = [a.number for a in rig.reader.antennas.values() if a.zone == WALL_SCAN]
    copies = [TileCopy(t, 1) for t in rig.rs.tiles.set.kinds[:6]]
    for tc in copies:  # tiles cross the wall spot one after the other
        world.move(tc, IN_MACHINE, WALL_SCAN)
        table.serve(2)
        world.move(tc, WALL_SCAN, IN_MACHINE)
    seen = {ev.uids for ev in rig.rt.debouncer.seen if ev.antenna == wall}
    with Journal.open_readonly(rig.path) as journal:  # no flush: as a kill leaves it
        steps = reader_steps(journal.records())
    kept = {
        ev.uids for s in steps for ev in s.events if isinstance(ev, TagsRead) and ev.antenna == wall
    }
    assert len(seen) > len(copies) // 2 and seen <= kept
