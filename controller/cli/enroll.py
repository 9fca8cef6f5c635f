"""`mjtable enroll`: write a tag map by presenting the tiles of a set one at a time.

    mjtable enroll --reader /dev/serial/by-id/usb-… --set club-a --out hw_profiles/tags/club-a.toml

Resumable: run the same command again after an interruption. See tools/enroll.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.profiles import load_reader
from rules.schema import SchemaError
from rules.tiles import TileSet
from tools.enroll import EnrolError, Enrolment, run_enrolment


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reader",
        required=True,
        help="serial device path or pyserial URL, or usb / usb:VID:PID for a PN533 on USB",
    )
    parser.add_argument("--reader-profile", default="sim-uhf", help="reader profile name/path")
    parser.add_argument("--antenna", type=int, default=1, help="the enrolment antenna (1)")
    parser.add_argument("--set", dest="name", required=True, help="tag set name")
    parser.add_argument("--out", type=Path, required=True, help="the tag map file to write")
    parser.add_argument("--tiles", type=int, choices=(108, 136), default=108)
    parser.add_argument(
        "--stable", type=int, default=2, help="inventories in a row a tile must be read"
    )


def run(args: argparse.Namespace) -> int:
    try:
        profile = load_reader(args.reader_profile)
        enrolment = Enrolment(args.out, args.name, TileSet(args.tiles))
    except (SchemaError, EnrolError, OSError) as err:
        print(f"mjtable enroll: {err}", file=sys.stderr)
        return 2
    try:
        done = run_enrolment(enrolment, args.reader, profile, args.antenna, stable=args.stable)
    except EnrolError as err:
        print(f"mjtable enroll: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"interrupted: {enrolment.count}/{enrolment.total} saved in {args.out}")
        return 130
    return 0 if done else 1
