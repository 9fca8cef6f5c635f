"""The simulation: world, devices, noise and players put together, deal after deal.

    sim = Simulation(SimConfig(deals=2, fast=True, seed=7, folder=tmp))
    sim.paths()             # {"table": "/tmp/…/table", "reader": "/tmp/…/reader"}
    sim.wait_for_client(30) # a client opened the table and sent the reader a command
    sim.run()               # plays the deals, writes the truth, returns the deal count
    sim.close()

Pace. Every physical step is held until the reader has been polled enough to see it:
`glimpse` (a tile crossing the wall antenna) for `glimpse_rounds` inventories of the wall
antenna (a host that polls every antenna gives it one per round; one that polls the wall
antenna alone while the walls are built gives it many, and reads each tile more often),
`settle` (a deal group, a discard, a meld) for `settle_rounds` — by default the profile's
`appear` and `vanish` plus one, so the host's debouncer can believe a tile came and went —
and the end of a deal for the debouncer's whole `window` plus one, so the last move is read
before the shuffle takes every tile away; before a button press (`react`) the rounds that
make up that whole window, since a player presses after seeing the discard or the draw.
`--fast` waits for those rounds only; real time also follows the bots' time line (their
thinking time per move, the 3-second claim window before `CloseClaims`, rules.bots) and adds
human-ish pauses to shuffling and rolling the dice, and its devices answer at the hardware's
pace (the wire time at the profiles' baud rates and the reader's inventory time per antenna,
tools/sim/devices.py); under `--fast` they answer at once. While a cable is out the world goes
on at a player's pace (`PERSON_STEP` per move), and when no antenna has been inventoried for
`stall` seconds it goes on without waiting (a real table does).

Truth (`truth` path, JSON lines, one object per line, each naming its `class`): `session`
(seed, rule set, profiles), `deal` (deal number, dealer side, dice, the wall order as tile
copies), then `step` (shuffle, walls, dice, deal groups) and `move` records (the judge move,
the seat and its table side, the button, the tile copies moved and their from/to places),
each with `t` in seconds since the session started, and `deal-end` (the next dealer).
`command` records what the host sent the table (`show-score` with `seat` and `score`, …),
as the board received it: what the seat displays show; `referee-hold` and `referee-done`
when the players stop for a referee call and go on again.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from controller.devices.events import (
    Button,
    DiceRolled,
    LinkState,
    SeatButton,
    ShuffleDone,
    WallsUp,
)
from controller.devices.table import Command
from controller.profiles import CommandKind, ReaderModel, load_reader, load_table, sim_tags_name
from rules import ruleset as rulesets
from rules.seats import SEATS, Seat
from rules.wall import Dice
from tools.capture_file import CaptureWriter
from tools.sim.devices import (
    DeviceLoop,
    NoBoard,
    PtyEndpoint,
    ReaderBus,
    Tap,
    VirtualTable,
    open_endpoint,
)
from tools.sim.noise import Noise, NoiseConfig, Unplug
from tools.sim.player import DECLARATIONS, PhysicalPlayer, plan_deal
from tools.sim.world import WALL_SCAN, World

log = logging.getLogger(__name__)

READERS = ("uhf", "feig", "pn533-usb")
# the reader kind a profile's model is simulated as (the serial line's protocol follows it)
KIND_OF = {
    ReaderModel.UHF_SERIAL: "uhf",
    ReaderModel.FEIG_ISO15693: "feig",
    ReaderModel.PN533_USB: "pn533-usb",
}
PERSON_STEP = 1.0  # seconds a player's move takes while no host paces the world (a cable out)
REFEREE_WAIT = 600.0  # seconds the players wait for a referee the host called


def _both(first: Tap, second: Tap) -> Tap:
    def tap(device: str, direction: str, data: bytes) -> None:
        first(device, direction, data)
        second(device, direction, data)

    return tap


def default_kind(reader_profile: str) -> str:
    """The reader kind a profile's model is simulated as (`uhf` for a model with none)."""
    return KIND_OF.get(load_reader(reader_profile).reader.model, "uhf")


@dataclass(frozen=True, slots=True)
class SimConfig:
    deals: int = 1
    fast: bool = True
    seed: int = 0
    rules: str = "sbr-mil"
    table_profile: str = "sim-table"
    reader_profile: str = "sim-uhf"
    reader: str = "uhf"  # "feig" (ISO 15693 on the same serial line), "pn533-usb": in-process
    noise: NoiseConfig = field(default_factory=NoiseConfig)
    truth: Path | None = None
    record: Path | None = None
    folder: Path | None = None  # where the device symlinks live (a temp dir by default)
    linger: int = 5  # glimpses a tile stays over the wall antenna while walls are built
    glimpse_rounds: int = 1
    settle_rounds: int | None = None  # default: max(appear, vanish) + 1 of the profile
    stall: float = 2.0  # seconds without an inventory before the world goes on
    speed: float = 1.0  # real-time mode: divides the human pauses
    odd: str = ""  # recorded in a capture's header: what is unusual in it
    max_moves: int | None = None  # stop each deal after this many moves (short captures)
    referee: bool = True  # False: no referee corrections or penalties in the bots' deals
    prevalent: Seat = Seat.E  # the round wind (Wellness scores it, 001 II 3)
    score_wait: float = 10.0  # seconds the players look for their scores before a shuffle
    board: bool = True  # False: a table with no serial link (`--table none`, issue 18)
    declarations: str = "buttons"  # or "cards", "tiles": how the players declare (player.py)

    def __post_init__(self) -> None:
        if self.reader not in READERS:
            raise ValueError(f"reader is one of {', '.join(READERS)}, not {self.reader!r}")
        if self.deals < 0:
            raise ValueError("deals must be >= 0")
        if not self.speed > 0:
            raise ValueError(f"speed divides the pauses: more than 0, not {self.speed}")
        if self.glimpse_rounds < 1 or self.linger < 1:
            raise ValueError("glimpse rounds and linger are at least 1")
        if self.declarations not in DECLARATIONS:
            raise ValueError(f"declarations: one of {', '.join(DECLARATIONS)}")
        if self.max_moves is not None and self.max_moves < 0:
            raise ValueError(f"max_moves must be >= 0, not {self.max_moves}")


class Simulation:
    def __init__(
        self,
        config: SimConfig,
        clock: Callable[[], float] = time.monotonic,
        tap: Tap | None = None,
    ) -> None:
        """`clock` (seconds, never going back) gives every deadline the players and the
        faults keep and every `t` of the truth; the waits themselves are real (a test
        advances its clock instead of sleeping through a `score_wait`). `tap(device,
        direction, bytes)` is called with every chunk a device received ("tx", the host's
        view) or wrote ("rx": the table's once written, the reader's answers as they are
        written, before the host can read them, and so also one whose host just went), on the thread that moved it, as a capture
        records them (`mjtable bench daemon` times the reader's answers with it)."""
        self.config = config
        self._clock = clock
        self.rs = rulesets.load(config.rules)
        self.table_profile = load_table(config.table_profile)
        self.reader_profile = load_reader(config.reader_profile)
        model = self.reader_profile.reader.model
        feig = model is ReaderModel.FEIG_ISO15693 or config.reader == "feig"
        if feig and KIND_OF.get(model) != config.reader:
            raise ValueError(
                f"reader profile {config.reader_profile} is a {model.value} reader: "
                f"--reader {KIND_OF.get(model, 'uhf')}, not {config.reader}"
            )
        d = self.reader_profile.debounce
        self.settle_rounds = config.settle_rounds or max(d.appear, d.vanish) + 1
        # the end of a deal: the host's whole debounce window sees the last move before the
        # tiles go into the machine (in real time the last claim window gives it seconds)
        self.end_rounds = max(self.settle_rounds, d.window + 1)
        self._wall = frozenset(
            a.number for a in self.reader_profile.antennas.values() if a.zone == WALL_SCAN
        )
        self.rng = random.Random(config.seed)
        self.world = World(self.rs.tiles.set, self.reader_profile, self.rng.randrange(1 << 30))
        self.noise = Noise(config.noise, self.reader_profile, self.rng.randrange(1 << 30))
        self.folder = Path(config.folder or tempfile.mkdtemp(prefix="mjtable-sim-"))
        self.capture = CaptureWriter(config.record, self._header()) if config.record else None
        if self.capture:  # the caller's tap first: it may be timing the bytes
            tap = self.capture.chunk if tap is None else _both(tap, self.capture.chunk)
        self.loop = DeviceLoop()
        paced = not config.fast  # real time: devices answer at the hardware's pace
        self.table: VirtualTable | NoBoard = NoBoard()  # `--table none`: no serial link
        if config.board:
            self.table = VirtualTable(
                self.table_profile,
                open_endpoint(self.folder, "table"),
                tap,
                self._command,
                later=self.loop.later,
                paced=paced,
            )
            self.loop.add(self.table.endpoint, self.table.on_bytes)
        self.bus: ReaderBus | None = None
        self.usb = None
        if config.reader in ("uhf", "feig"):
            self.bus = ReaderBus(
                self.world,
                self.noise,
                open_endpoint(self.folder, "reader"),
                tap,
                later=self.loop.later,
                paced=paced,
            )
            self.loop.add(self.bus.endpoint, self.bus.on_bytes)
        else:
            from tools.sim.usb_spot import UsbSpot

            self.usb = UsbSpot(self.world, WALL_SCAN)
        self._truth: IO[str] | None = None
        self._truth_lock = threading.Lock()  # commands are noted from the device thread
        self._t0 = clock()
        self._unplugs: list[tuple[float, float, Unplug]] = []
        self._unplugged: dict[str, float] = {}
        self._rejoin: dict[str, int] = {}  # device → reader commands seen when it came back
        self.deals_played = 0
        self._stop = threading.Event()
        self.loop.start()

    # -- public ----------------------------------------------------------------------------
    def paths(self) -> dict[str, str]:
        out = {} if self.table.endpoint is None else {"table": str(self.table.endpoint.link)}
        if self.bus is not None:
            out["reader"] = str(self.bus.endpoint.link)
        else:
            out["reader"] = "usb 04cc:2533 (in-process pyusb backend, see docs/SIMULATOR.md)"
        return out

    @property
    def usb_backend(self):
        """The pyusb backend of the simulated PN533 (`--reader pn533-usb` only)."""
        return self.usb.backend if self.usb is not None else None

    def wait_for_client(self, timeout: float | None = None) -> bool:
        """A client opened the table's port and sent the reader its first command."""
        deadline = None if timeout is None else self._clock() + timeout
        while not self._stop.is_set():
            reader_ok = self.bus is None or self.bus.commands > 0
            table_ok = self.table.endpoint is None or self.table.endpoint.client_open()
            if table_ok and reader_ok:
                return True
            left = None if deadline is None else deadline - self._clock()
            if left is not None and left <= 0:
                return False
            if self.bus is not None:
                with self.bus.cond:
                    self.bus.cond.wait(0.05 if left is None else min(0.05, left))
            else:
                self._stop.wait(0.05)
        return False

    def run(self) -> int:
        """Play the configured deals; returns how many were played."""
        self._t0 = self._clock()
        self._unplugs = [(u.at, u.at + u.seconds, u) for u in self.config.noise.unplugs]
        if self.config.truth:
            self._truth = open(self.config.truth, "w", encoding="utf-8")  # noqa: SIM115
        try:
            self._note(
                {
                    "class": "session",
                    "seed": self.config.seed,
                    "rules": self.rs.name,
                    "table": self.config.table_profile if self.config.board else "none",
                    "reader": self.config.reader_profile,
                    "reader_kind": self.config.reader,
                    "deals": self.config.deals,
                    "prevalent": str(self.config.prevalent),
                    "declarations": self.config.declarations,
                }
            )
            dealer = Seat.E
            for n in range(1, self.config.deals + 1):
                if self._stop.is_set():
                    break
                dealer = self.play_deal(n, dealer)
                self.deals_played = n
            self._end_faults()
        finally:
            with self._truth_lock:
                if self._truth:
                    self._truth.close()
                    self._truth = None
        return self.deals_played

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        self._stop.set()
        self.loop.stop()
        if self.table.endpoint is not None:
            self.table.endpoint.close()
        if self.bus is not None:
            self.bus.endpoint.close()
        if self.capture:
            self.capture.close()

    # -- one deal ------------------------------------------------------------------------
    def play_deal(self, n: int, dealer: Seat) -> Seat:
        player = PhysicalPlayer(
            self.world,
            self.rs,
            dealer,
            self._press,
            self._pace,
            lambda r: self._move(n, r),
            self.config.declarations,
        )
        order = self.world.shuffle()
        self._step(n, "shuffle")
        self._human(3.0)
        self.table.send(ShuffleDone(0.0))
        player.build_walls(order, self.config.linger)
        self.table.send(WallsUp(0.0))
        self._step(n, "walls")
        dice = Dice(self.rng.randint(1, 6), self.rng.randint(1, 6))
        self._human(1.5)
        self.table.send(DiceRolled(0.0, dice.a, dice.b))
        plan = plan_deal(
            self.rs,
            dice,
            tuple(tc.tile for tc in order),
            self.rng,
            self.config.referee,
            self.config.prevalent,
        )
        self._note(
            {
                "class": "deal",
                "deal": n,
                "t": self._now(),
                "dealer": str(dealer),
                "dice": [dice.a, dice.b],
                "prevalent": str(self.config.prevalent),
                "wall": [str(tc) for tc in order],
            }
        )
        self._pace("settle")
        player.deal(dice)
        self._step(n, "dealt")
        clock = 0.0  # the bots' simulated time line (rules.bots): real time follows it
        shown = self.table.scores_shown
        for i, move in enumerate(plan.moves):
            if self._stop.is_set() or i == self.config.max_moves:
                break
            if move.t is not None:
                if not self.config.fast:
                    self._stop.wait(max(0.0, move.t - clock) / self.config.speed)
                clock = max(clock, move.t)
            shown = self.table.scores_shown
            player.perform(move)
        else:
            self._read_scores(n, shown)
        nxt = SEATS[(dealer + plan.next_dealer) % 4]
        self._note({"class": "deal-end", "deal": n, "t": self._now(), "next_dealer": str(nxt)})
        self._pace("end")
        return nxt

    # -- pace, faults, truth ------------------------------------------------------------
    def _now(self) -> float:
        return round(self._clock() - self._t0, 3)

    def _press(self, seat: Seat, button: Button) -> None:
        self.table.send(SeatButton(0.0, seat, button))

    def _human(self, seconds: float) -> None:
        """A person's pause, real time only."""
        if self.config.fast or seconds <= 0:
            return
        pause = seconds * self.rng.uniform(0.6, 1.4) / self.config.speed
        self._stop.wait(pause)

    def _pace(self, kind: str) -> None:
        self._faults()
        self._hold_for_referee()
        if self.usb is not None:
            self.usb.sync()
        rounds = {
            "glimpse": self.config.glimpse_rounds,
            "end": self.end_rounds,
            # before a button: the previous step has had the host's whole debounce window
            "react": self.end_rounds - self.settle_rounds,
        }.get(kind, self.settle_rounds)
        if rounds <= 0:
            return
        if self._unplugged or self._rejoining():
            # a cable is out, or back but the host has not reopened it yet: the host cannot
            # set the pace, the players go on at theirs
            if kind == "settle":
                self._person_step()
            return
        if self.bus is None:
            self._stop.wait(0.01 * rounds)
            return
        if kind == "glimpse" and self._wall:
            target = self.bus.inventories(self._wall) + rounds
            ok = self.bus.wait_inventories(self._wall, target, self.config.stall)
        else:
            ok = self.bus.wait_rounds(self.bus.rounds() + rounds, self.config.stall)
        if not ok:
            log.debug("sim: no reader rounds for %.1f s; the world goes on", self.config.stall)

    def _hold_for_referee(self) -> bool:
        """The host lit every seat's light (a referee call): nobody touches a tile until the
        lights go out, as players at a table wait for the referee; cables still come and go
        on time meanwhile. True when the players waited; the truth notes `referee-hold` when
        they start and `referee-done` when they go on (`answered`: the lights went out, not
        the players' patience or the run)."""
        if not self.table.referee_called:
            return False
        self._note({"class": "referee-hold", "t": self._now()})
        end = self._clock() + REFEREE_WAIT
        while self.table.referee_called and not self._stop.is_set() and self._clock() < end:
            self._stop.wait(0.02)
            self._faults()
        answered = not self.table.referee_called
        self._note({"class": "referee-done", "t": self._now(), "answered": answered})
        return True

    def _read_scores(self, n: int, shown: int) -> None:
        """After the last move the players look at their displays before the next shuffle:
        they wait (up to `score_wait`) for scores the host sent after that move was made, and
        for the referee if the host calls one meanwhile: once the referee is done they look
        for the scores again, `score_wait` anew (a 10/10/2 campaign, seed 310 deal 4: the
        referee's last answer came 10 s after the deal ended, the players shuffled 0.2 s
        before the settlement, and the deal was lost); the truth notes the step `scores` again
        when they do. A table nobody listens to goes on."""
        self._step(n, "scores")
        end = self._clock() + self.config.score_wait
        while not self._stop.is_set() and self._board_listened():
            if self._hold_for_referee():
                self._step(n, "scores")
                end = self._clock() + self.config.score_wait
            if self.table.scores_shown > shown or self._clock() >= end:
                return
            self._stop.wait(0.02)
            self._faults()

    def _board_listened(self) -> bool:
        """A host has the board's port open (a table with no board: nobody ever does)."""
        return self.table.endpoint is not None and self.table.endpoint.client_open()

    def _faults(self) -> None:
        now = self._elapsed()
        for at, until, u in self._unplugs:
            endpoint = self._endpoint(u.device)
            if endpoint is None:
                continue
            if at <= now < until and u.device not in self._unplugged:
                endpoint.unplug()
                self._unplugged[u.device] = until
                self._link(u.device, LinkState.DOWN)
            elif now >= until and self._unplugged.get(u.device) == until:
                endpoint.plug()
                del self._unplugged[u.device]
                self._rejoin[u.device] = self.bus.commands if self.bus is not None else 0
                self._link(u.device, LinkState.UP)

    def _person_step(self) -> None:
        """A player's move while no host paces the world; cables go out and come back on
        time meanwhile (a fault shorter than a move is not skipped)."""
        end = self._clock() + PERSON_STEP
        while not self._stop.is_set() and self._clock() < end:
            self._stop.wait(min(0.02, max(0.0, end - self._clock())))
            self._faults()

    def _rejoining(self) -> bool:
        """A cable is back but its host has not reopened the port yet (the table: the pty's
        slave is not open; the reader: no command since the replug)."""
        for device, commands in list(self._rejoin.items()):
            if device == "table":
                back = self._board_listened()
            else:
                back = self.bus is None or self.bus.commands > commands
            if back:
                del self._rejoin[device]
        return bool(self._rejoin)

    def _end_faults(self) -> None:
        """A cable still out at the end is plugged back when its time is up, the host is
        given `stall` seconds to reopen it and the reader its rounds, so the host ends in
        step with the world."""
        while self._unplugged and not self._stop.is_set():
            self._stop.wait(max(0.0, min(self._unplugged.values()) - self._elapsed()))
            self._faults()
        deadline = self._clock() + self.config.stall
        while self._rejoining() and self._clock() < deadline and not self._stop.is_set():
            self._stop.wait(0.02)
        self._pace("settle")

    def _elapsed(self) -> float:
        return self._clock() - self._t0

    def _endpoint(self, device: str) -> PtyEndpoint | None:
        if device == "table":
            return self.table.endpoint
        return self.bus.endpoint if self.bus is not None else None

    def _link(self, device: str, state: LinkState) -> None:
        if self.capture:
            self.capture.link(device, state)
        self._note({"class": "fault", "t": self._now(), "device": device, "link": state.value})

    def _step(self, n: int, what: str) -> None:
        self._note({"class": "step", "deal": n, "t": self._now(), "step": what})

    def _move(self, n: int, rec: dict[str, Any]) -> None:
        self._note({"class": "move", "deal": n, "t": self._now(), **rec})

    def _command(self, kind: CommandKind, command: Command) -> None:
        fields = {f.name: getattr(command, f.name) for f in dataclasses.fields(command)}
        fields = {k: str(v) if isinstance(v, Seat) else v for k, v in fields.items()}
        self._note({"class": "command", "t": self._now(), "command": kind.value, **fields})

    def _note(self, rec: dict[str, Any]) -> None:
        with self._truth_lock:
            if self._truth:
                self._truth.write(json.dumps(rec) + "\n")
                self._truth.flush()

    def _header(self) -> dict[str, Any]:
        t, r = self.table_profile.table, self.reader_profile.reader
        return {
            "date": time.strftime("%Y-%m-%d"),
            "table": {
                "profile": self.config.table_profile,
                "model": t.model,
                "firmware": t.firmware,
            }
            if self.config.board
            else None,  # a table with no serial link (tools/capture.py replays none)
            "reader": {
                "profile": self.config.reader_profile,
                "model": r.model.value,
                "firmware": f"mjtable-sim {self.config.reader.upper()} bus",
            },
            "tags": sim_tags_name(self.rs.tiles.set, r.model.tags),
            "odd": self.config.odd,
            "source": f"mjtable sim seed={self.config.seed} noise={self.config.noise}",
        }
