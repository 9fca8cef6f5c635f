"""`mjtable bench daemon`, the polling-round part: CPU microseconds the daemon's core spends
on one reader answer and on one polling round of the shipped reader profile (sim-uhf: 17
antennas on three bus addresses, six answers a round), clean and noisy.

The table is a deal in progress (53 tiles in the hands, 24 in the rivers, a pung in a meld
zone, four void tiles): the simulator's own reader bus answers the daemon's commands from
that world (`tools/sim/devices.py`; noisy: 5 % missed reads and 5 % crosstalk, as the e2e
suite), and the answers are recorded first, untimed. Then a real `Runtime` (journal on disk,
debouncer, recogniser, reader bus) is handed them back to back as `DataReceived` items, as
its core thread receives them; the clock is the CPU time of that thread alone
(`time.thread_time`), so neither the checkpoint thread nor other jobs on the machine count.
A noisy answer usually changes an antenna's tag set, so it is journalled (an SQLite commit
per answer); a clean table's answers repeat and are only counted.

The yardstick, timed in the same run as in `mjtable bench judge`: the standard library
shuffling a 108-tile wall, code the daemon does not touch; `us_per_round / yardstick_us`
carries to another machine. Against the line: 10⁶ / `us_per_answer` answers a second is what
one core could take (a `--fast` run is bounded by that and the journal's fsyncs), beside
`line_answers_per_s`, what the line carries at the profile's baud rate.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path
from typing import Any

PROFILE = "sim-uhf"


class _Capture:
    """The simulator's endpoint, keeping what the reader answers."""

    def __init__(self) -> None:
        self.out: list[bytes] = []

    def write(self, data: bytes) -> bool:
        self.out.append(data)
        return True


def _world(seed: int) -> Any:
    from controller.profiles import Zone, ZoneKind, load_reader
    from rules.seats import SEATS
    from rules.tiles import TileSet
    from tools.sim.world import IN_MACHINE, World

    world = World(TileSet.SUITED_108, load_reader(PROFILE), seed)
    order = list(world.shuffle())
    moves = []
    for i, seat in enumerate(SEATS):
        hand = 14 if i == 0 else 13
        for kind, n in ((ZoneKind.HAND, hand - 4), (ZoneKind.RIVER, 6), (ZoneKind.VOID, 1)):
            moves += [(order.pop(), IN_MACHINE, Zone(kind, seat)) for _ in range(n)]
        if i == 1:
            moves += [(order.pop(), IN_MACHINE, Zone(ZoneKind.MELDS, seat)) for _ in range(3)]
    world.move_many(moves)
    return world


def record_answers(rounds: int, noisy: bool, seed: int = 17) -> tuple[list[bytes], int]:
    """The simulated reader's answers to the daemon's own bus for `rounds` rounds, and the
    bytes on the line both ways (commands and answers)."""
    from controller.daemon.reader_bus import ReaderBus as HostBus
    from controller.profiles import load_reader
    from tools.sim.devices import ReaderBus as SimBus
    from tools.sim.noise import Noise, NoiseConfig

    world = _world(seed)
    noise = NoiseConfig(missed=5.0, crosstalk=5.0) if noisy else NoiseConfig()
    line = _Capture()
    sim = SimBus(world, Noise(noise, world.reader, seed), line, None)  # type: ignore[arg-type]  # a capture in place of the serial line
    host = HostBus(load_reader(PROFILE))
    send = host.start(0.0).send
    answers: list[bytes] = []
    wire = 0
    t = 0.0
    while host.rounds < rounds:
        line.out.clear()
        sim.on_bytes(send)
        answer = b"".join(line.out)
        answers.append(answer)
        wire += len(send) + len(answer)
        t += 0.001
        step = host.feed(t, answer)
        send = step.send or host.tick(t + 1.0).send
    return answers, wire


def measure(folder: Path, rounds: int, noisy: bool) -> dict[str, float]:
    from controller.clock import SystemClock
    from controller.daemon.runtime import Runtime, RuntimeConfig
    from controller.devices.events import DataReceived, LinkChanged, LinkState
    from controller.devices.table import TableDriver
    from controller.journal.store import Journal
    from controller.profiles import load_reader, load_table, sim_tag_map
    from controller.recognition.presence import Debouncer
    from controller.recognition.recogniser import Recogniser
    from rules.ruleset import load

    warm = 20
    answers, wire = record_answers(rounds + warm, noisy)
    rs = load("sbr-mil")
    reader = load_reader(PROFILE)
    tags = sim_tag_map(rs.tiles.set)
    clock = SystemClock()
    name = "noisy" if noisy else "clean"
    journal = Journal.open(folder / f"rounds-{name}.journal", clock=clock)
    runtime = Runtime(
        rs,
        journal,
        clock,
        Recogniser(rs, reader, tags),
        reader,
        Debouncer(reader, tags, clock.monotonic),
        TableDriver(load_table("sim-table")),
        lambda device, b: True,
        RuntimeConfig(fast_polling=True),
    )
    runtime.handle(LinkChanged(clock.monotonic(), "table", LinkState.UP))
    runtime.handle(LinkChanged(clock.monotonic(), "reader", LinkState.UP))
    per_round = len(answers) // (rounds + warm)
    start = cpu = 0.0
    first = 0
    for i, answer in enumerate(answers):
        if i == warm * per_round:  # the debouncer's windows are full, the caches warm
            first, start = runtime.rounds, time.thread_time()
        runtime.handle(DataReceived(clock.monotonic(), "reader", answer))
    cpu = time.thread_time() - start
    done = runtime.rounds - first
    timed = len(answers) - warm * per_round
    journal.close()
    return {
        f"{name}_us_per_answer": 1e6 * cpu / timed,
        f"{name}_us_per_round": 1e6 * cpu / max(done, 1),
        f"{name}_answers_per_round": timed / max(done, 1),
        # what a 57600-baud line carries: answers (with their commands) a second
        f"{name}_line_answers_per_s": reader.reader.baud / 10 / (wire / len(answers)),
    }


def yardstick_us(n: int = 2000) -> float:
    """Median µs of the standard library shuffling a 108-tile wall."""
    wall = list(range(108))
    times = []
    for s in range(n):
        rng = random.Random(s)
        t0 = time.thread_time_ns()
        rng.shuffle(wall)
        times.append(time.thread_time_ns() - t0)
    return statistics.median(times) / 1e3


def measure_rounds(folder: Path, rounds: int) -> dict[str, float]:
    out = {"yardstick_us": yardstick_us()}
    for noisy in (False, True):
        out |= measure(folder, rounds, noisy)
    out["yardstick_after_us"] = yardstick_us()
    return out
