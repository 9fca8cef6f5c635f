"""`mjtable sim`: the simulated automatic table and tile reader on pseudo-terminals.

Prints one line per device (`table: PATH`, `reader: PATH`; no table line with `--table
none`), waits for a client to open them (the table's port opened, the reader's first
command), plays the deals and exits 0.
See docs/SIMULATOR.md.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path

from controller.cli.args import natural_int, positive_float, positive_int, rules_help
from rules.ruleset import DEFAULT
from rules.seats import Seat
from tools.sim.noise import NoiseConfig, Unplug
from tools.sim.player import DECLARATIONS
from tools.sim.run import READERS, SimConfig, Simulation, default_kind


def _unplug(text: str) -> Unplug:
    try:
        return Unplug.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=natural_int, default=1, help="deals to play (default 1)")
    parser.add_argument("--fast", action="store_true", help="no human pauses: pace by reader")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random choice")
    parser.add_argument("--truth", type=Path, help="write the ground truth here (JSON lines)")
    parser.add_argument("--record", type=Path, help="record a capture (.jsonl or .jsonl.gz)")
    parser.add_argument("--odd", default="", help="capture header: what is unusual in it")
    parser.add_argument("--rules", default=DEFAULT, help=rules_help(DEFAULT))
    parser.add_argument(
        "--prevalent",
        type=Seat.parse,
        default=Seat.E,
        help="prevalent (round) wind E S W N, scored by Wellness (default E)",
    )
    parser.add_argument(
        "--reader",
        choices=READERS,
        help="reader kind (default: the reader profile's model: uhf, or feig for an ISO 15693 "
        "profile; pn533-usb is in-process)",
    )
    parser.add_argument(
        "--table",
        choices=("pty", "none"),
        default="pty",
        help="none: a table with no serial link (it shuffles, builds walls and rolls dice, "
        "and says nothing; no buttons, no displays)",
    )
    parser.add_argument(
        "--declarations",
        choices=DECLARATIONS,
        default="buttons",
        help="the players press buttons, lay Win and void cards (and show pungs and kongs "
        "with the tiles), or only move tiles (default buttons)",
    )
    parser.add_argument("--table-profile", default="sim-table")
    parser.add_argument("--reader-profile", default="sim-uhf")
    parser.add_argument("--dir", type=Path, help="folder for the device links (default: temp)")
    noise = parser.add_argument_group("noise and faults (percentages)")
    noise.add_argument("--missed", type=float, default=0.0, help="tag reads missed")
    noise.add_argument("--repeated", type=float, default=0.0, help="tag reads repeated")
    noise.add_argument("--crosstalk", type=float, default=0.0, help="reads by a neighbour")
    noise.add_argument("--corrupt", type=float, default=0.0, help="reader frames damaged")
    noise.add_argument(
        "--unplug",
        type=_unplug,
        action="append",
        default=[],
        metavar="DEV:S@T",
        help="unplug 'reader' or 'table' for S seconds, T seconds into play (repeatable)",
    )
    parser.add_argument(
        "--max-moves", type=natural_int, help="stop each deal after this many moves"
    )
    parser.add_argument(
        "--no-referee",
        action="store_true",
        help="no referee corrections or penalties in the bots' deals (a daemon cannot see them)",
    )
    parser.add_argument(
        "--glimpse",
        type=positive_int,
        default=1,
        metavar="N",
        help="wall-antenna inventories per tile step while the walls are built (default 1)",
    )
    parser.add_argument(
        "--speed", type=positive_float, default=1.0, help="real time: pause divisor"
    )
    parser.add_argument(
        "--wait", type=positive_float, default=None, help="give up if no client within SECONDS"
    )
    parser.add_argument("-v", "--verbose", action="store_true")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING)
    try:
        noise = NoiseConfig(
            args.missed, args.repeated, args.crosstalk, args.corrupt, tuple(args.unplug)
        )
        config = SimConfig(
            deals=args.deals,
            fast=args.fast,
            seed=args.seed,
            rules=args.rules,
            table_profile=args.table_profile,
            reader_profile=args.reader_profile,
            reader=args.reader or default_kind(args.reader_profile),
            noise=noise,
            truth=args.truth,
            record=args.record,
            folder=args.dir,
            speed=args.speed,
            odd=args.odd,
            max_moves=args.max_moves,
            glimpse_rounds=args.glimpse,
            referee=not args.no_referee,
            prevalent=args.prevalent,
            board=args.table != "none",
            declarations=args.declarations,
        )
        sim = Simulation(config)
    except (ValueError, LookupError, OSError) as err:
        print(f"mjtable sim: {err}", file=sys.stderr)
        return 2
    # SIGTERM (from `kill`, or the parent-death signal `mjtable run` sets up) ends the run
    # through `finally`, so the devices are closed and their links removed
    signal.signal(signal.SIGTERM, _terminated)
    try:
        for device, path in sim.paths().items():
            print(f"{device}: {path}", flush=True)
        if not sim.wait_for_client(args.wait):
            print("mjtable sim: no client opened the devices", file=sys.stderr)
            return 1
        played = sim.run()
        print(f"played {played} deal(s)", file=sys.stderr)
        return 0
    finally:
        sim.close()


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)
