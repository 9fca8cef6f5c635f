"""`mjtable calibrate`: measure the reader on the table (tiles placed at known spots, guided
antenna by antenna) or a recorded capture, and write the reader profile's debounce numbers
and crosstalk margin with the figures they rest on (tools/calibrate.py, tools/calibration.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from controller.cli.args import positive_int
from controller.profiles import ReaderModel, ReaderProfile, load_reader, parse_reader
from rules.schema import SchemaError

EPILOG = """\
Live: the command names an antenna at a time ("[2/17] antenna 2 (E.river): put 1 to 4 tiles
on it, nothing on the other antennas"); put the tiles down and leave them until it says
"done" and names the next antenna (lift the previous tiles). A progress line follows each
quarter of the rounds. From a capture (tools/capture.py; e.g. one recorded while tiles lay
still, or a deal) where each tile lay is inferred from the reads themselves.

Then it prints the figures (rounds, read rate, longest run of misses, RSSI of own reads and
of crosstalk, which antennas read each other's tiles) and the numbers drawn from them with
the reason for each, and rewrites [debounce] and [calibration] in the profile (the rest of
the file is kept). A shipped profile is not edited in place: give --out.

examples:
  mjtable calibrate --reader /dev/serial/by-id/usb-…-port0 --reader-profile uhfreader18-rs485 \\
      --out /etc/mjtable/table3-reader.toml
  mjtable calibrate --reader /dev/serial0 --reader-profile pn532-pi-uart --out pi-spot.toml
  mjtable calibrate --reader usb --reader-profile pn533-usb --out usb-spot.toml --rounds 300
  mjtable calibrate --reader /dev/ttyUSB0 --reader-profile table3-reader.toml --antennas 1,2,33
  mjtable calibrate --reader /dev/ttyUSB0 --reader-profile table3-reader.toml --record cal.jsonl.gz
  mjtable calibrate --capture cal.jsonl.gz --reader-profile table3-reader.toml --dry-run

Exit status: 0 written (or --dry-run), 1 the measurements give no usable numbers (the
message says why), 2 bad options or files.
"""


def _antennas(text: str) -> tuple[int, ...]:
    try:
        out = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of antenna numbers") from None
    if not out:
        raise argparse.ArgumentTypeError("no antennas")
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--reader", help="the reader: a serial port, or usb / usb:VID:PID (PN533)")
    src.add_argument("--capture", type=Path, help="a recorded capture instead of a live reader")
    parser.add_argument(
        "--reader-profile",
        help="reader profile name or .toml path (default with --capture: the capture's)",
    )
    parser.add_argument("--out", type=Path, help="the profile file to write")
    parser.add_argument(
        "--rounds", type=positive_int, default=100, help="rounds recorded per antenna (100)"
    )
    parser.add_argument(
        "--antennas", type=_antennas, help="antennas to measure, e.g. 1,2,33 (default all)"
    )
    parser.add_argument(
        "--settle", type=positive_int, default=3, help="calm rounds before recording (3)"
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="live, UHF: keep the reader's traffic as a capture (FILE.jsonl or .jsonl.gz)",
    )
    parser.add_argument("--dry-run", action="store_true", help="print, write nothing")


def fail(message: str, code: int = 2) -> int:
    print(f"mjtable calibrate: {message}", file=sys.stderr)
    return code


def _target(args: argparse.Namespace, name: str) -> Path | None:
    if args.out is not None:
        return args.out
    return Path(name) if name.endswith(".toml") else None


Say = Callable[[str], None]


def say(line: str) -> None:
    print(line, flush=True)


def run(args: argparse.Namespace, usb_backend: Any = None) -> int:
    from tools.calibration import CalibrationError, calibration_of, derive

    name = args.reader_profile or ""
    if args.reader is not None and not name:
        return fail("--reader needs --reader-profile (mjtable probe names the one that fits)")
    if args.capture is not None and not args.capture.is_file():
        return fail(f"{args.capture}: no such file")
    if args.reader is not None and not _reachable(args.reader):
        return fail(f"{args.reader}: no such device")
    got = _capture(args, name) if args.capture is not None else _live(args, name, usb_backend)
    if isinstance(got, int):
        return got
    tally, name, profile, source = got
    figures = tally.figures()
    say("measured:")
    for line in figures.lines():
        say(f"    {line}")
    try:
        derived = derive(figures)
    except CalibrationError as err:
        return fail(str(err), 1)
    d, old = derived.debounce, profile.debounce
    say(
        f"debounce: window {d.window}, appear {d.appear}, vanish {d.vanish}, "
        f"crosstalk-margin {d.crosstalk_margin} (was {old.window}, {old.appear}, "
        f"{old.vanish}, {old.crosstalk_margin})"
    )
    for reason in derived.reasons:
        say(f"    {reason}")
    _neighbours(profile, figures.crosstalk_pairs)
    if args.dry_run:
        return 0
    target = _target(args, name)
    assert target is not None  # checked before anything was measured
    cal = calibration_of(figures, time.strftime("%Y-%m-%d"), source)
    return _write(target, name, profile, derived, cal)


def _reachable(reader: str) -> bool:
    return reader == "usb" or reader.startswith("usb:") or "://" in reader or Path(reader).exists()


Collected = tuple[Any, str, ReaderProfile, str]  # tally, profile name, profile, source


def _profile(args: argparse.Namespace, name: str) -> ReaderProfile | int:
    try:
        profile = load_reader(name)
    except SchemaError as err:
        return fail(str(err))
    if _target(args, name) is None and not args.dry_run:
        return fail(f"{name} is a shipped profile: give --out PATH for the calibrated copy")
    return profile


def _capture(args: argparse.Namespace, name: str) -> Collected | int:
    from tools.calibrate import capture_rounds
    from tools.calibration import Tally, infer_placements
    from tools.capture_file import CaptureError

    try:
        used, rounds = capture_rounds(args.capture)
    except (CaptureError, SchemaError, OSError) as err:
        return fail(str(err))
    name = name or used.reader.name
    profile = _profile(args, name)
    if isinstance(profile, int):
        return profile
    if set(used.antennas) != set(profile.antennas):
        return fail(f"the capture's reader ({used.reader.name}) has other antennas than {name}")
    tally = Tally()
    for reads, placed in zip(rounds, infer_placements(rounds), strict=True):
        tally.add(reads, placed)
    return tally, name, profile, f"capture {args.capture.name}"


def _live(args: argparse.Namespace, name: str, usb_backend: Any) -> Collected | int:
    from tools.calibrate import SerialRounds, SpotRounds, guided

    profile = _profile(args, name)
    if isinstance(profile, int):
        return profile
    antennas = args.antennas or tuple(profile.antennas)
    unknown = [a for a in antennas if a not in profile.antennas]
    if unknown:
        return fail(f"antenna {unknown[0]} is not in reader profile {name}")
    usb = args.reader == "usb" or args.reader.startswith("usb:")
    if usb != (profile.reader.model is ReaderModel.PN533_USB):
        return fail(f"reader {args.reader!r} does not fit {name} ({profile.reader.model.value})")
    if args.record is not None and profile.reader.model is not ReaderModel.UHF_SERIAL:
        return fail("--record keeps UHF reader traffic only (captures replay the UHF family)")
    if usb:
        from controller.devices.pn53x_reader import Backoff
        from controller.devices.pn533_usb import PN533Reader, parse_usb_address

        try:
            devices = parse_usb_address(args.reader)
        except ValueError as err:
            return fail(str(err))
        pn533 = PN533Reader(backend=usb_backend, backoff=Backoff(0.1, 1.0), devices=devices)
        reader: Any = SpotRounds(say, pn533)
    elif profile.reader.model is ReaderModel.PN532_UART:
        from controller.devices.pn53x_reader import Backoff
        from controller.devices.pn532_uart import PN532UartReader

        baud = profile.reader.baud
        reader = SpotRounds(say, PN532UartReader(args.reader, baud, backoff=Backoff(0.1, 1.0)))
    else:
        record = None
        if args.record is not None:
            from tools.capture_file import CaptureWriter

            header = {
                "date": time.strftime("%Y-%m-%d"),
                "table": None,
                "reader": {"profile": name, "model": profile.reader.model.value},
                "odd": "mjtable calibrate: tiles laid antenna by antenna, left still",
                "source": f"mjtable calibrate --reader {args.reader}",
            }
            try:
                record = CaptureWriter(args.record, header)
            except OSError as err:
                return fail(f"{args.record}: {err}")
        reader = SerialRounds(args.reader, profile, say, record=record)
    try:
        tally = guided(reader, profile, antennas, args.rounds, say, args.settle)
    finally:
        reader.close()
    if tally is None and getattr(reader, "misfit", None):
        return fail(f"{reader.misfit}: nothing written")
    if tally is None:
        return fail("stopped before the end: nothing written", 130)
    return tally, name, profile, f"live {args.reader}"


def _neighbours(profile: ReaderProfile, pairs: Mapping[tuple[int, int], int]) -> None:
    """Crosstalk between antennas the profile does not call neighbours: worth a look."""
    odd = sorted({tuple(sorted(p)) for p in pairs if p[1] not in profile.antennas[p[0]].neighbours})
    if odd:
        listed = ", ".join(f"{a}-{b}" for a, b in odd)
        say(f"crosstalk between antennas the profile does not list as neighbours: {listed}")


def _write(target: Path, name: str, profile: ReaderProfile, derived: Any, cal: Any) -> int:
    import tomllib
    from importlib import resources

    from tools.calibration import rewrite, sections

    if name.endswith(".toml"):
        text = Path(name).read_text(encoding="utf-8")
    else:
        text = (resources.files("hw_profiles") / "readers" / f"{name}.toml").read_text("utf-8")
    new = rewrite(text, sections(profile, derived, cal))
    try:
        parse_reader(tomllib.loads(new), str(target))
    except (SchemaError, tomllib.TOMLDecodeError) as err:  # a bug here, never a bad file out
        return fail(f"the rewritten profile does not load: {err}")
    tmp = target.with_name(target.name + ".tmp")
    try:
        tmp.write_text(new, encoding="utf-8")
        os.replace(tmp, target)
    except OSError as err:
        return fail(f"{target}: {err}")
    say(f"wrote {target}")
    return 0
