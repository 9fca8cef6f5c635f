"""`mjtable probe`: list serial ports and USB devices, ask the readers among them who they
are, and print the reader profile that fits and the `mjtable run` line to start with
(tools/probe.py). Unknown devices are listed, never written to."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.cli.args import positive_float
from controller.profiles import available
from tools.probe import BY_ID, ProbeOptions, probe
from tools.probe_report import report

EPILOG = """\
Which devices are asked: a port you name with --port; a serial port whose USB VID:PID or
/dev/serial/by-id name belongs to a known reader family (a by-id name with "uhf", "rfid",
"ru5102", "pn532" or "nfc" in it); a PN533 on USB (04cc:2533, 04e6:5591). Every other
device is listed and left alone: a byte written to a table board could start its motors.

examples:
  mjtable probe                            every port and USB device; ask the known readers
  mjtable probe --port /dev/serial0        also ask the Pi's UART (a PN532 module there)
  mjtable probe --port /dev/ttyUSB0 --port /dev/ttyUSB1
  mjtable probe --no-usb                   serial ports only

Each answer is printed under its device, then "start with: mjtable run --reader ...
--reader-profile ..." for every reader identified; exit status 0 when a reader was
identified, 1 when none was, 2 on bad options. Profiles and wiring: docs/PROFILES.md.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument(
        "--port",
        action="append",
        default=[],
        metavar="PATH",
        help="a serial port to ask even if nothing says it is a reader (repeatable)",
    )
    parser.add_argument(
        "--by-id",
        type=Path,
        default=BY_ID,
        metavar="DIR",
        help=f"where the udev by-id links are (default {BY_ID})",
    )
    parser.add_argument("--no-usb", action="store_true", help="do not list USB devices")
    parser.add_argument(
        "--no-system",
        action="store_true",
        help="do not list pyserial's ports: only --port and the by-id links",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=0.15,
        metavar="S",
        help="seconds to wait for each answer (default 0.15)",
    )


def run(args: argparse.Namespace) -> int:
    for port in args.port:
        if not Path(port).exists() and "://" not in port:
            print(f"mjtable probe: {port}: no such device", file=sys.stderr)
            return 2
    options = ProbeOptions(
        ports=args.port,
        by_id=args.by_id,
        system=not args.no_system,
        usb=not args.no_usb,
        timeout=args.timeout,
        profiles=available("readers"),
    )
    findings = probe(options)
    for line in report(findings):
        print(line)
    return 0 if any(f.profiles for f in findings) else 1
