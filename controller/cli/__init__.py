"""The `mjtable` command line: one entry point, one module per sub-command.

A sub-command module (`controller/cli/<name>.py`) has `add_arguments(parser)` and
`run(args) -> int`. Modules are imported only when their command runs, so `mjtable score`
does not pay for the daemon's imports.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

from controller import __version__
from controller.errors import TableError

# name, module, one-line help (shown in `mjtable --help`)
COMMANDS: tuple[tuple[str, str, str], ...] = (
    (
        "run",
        "controller.cli.run",
        "run the table daemon (with no hardware: the built-in simulated table)",
    ),
    (
        "score",
        "controller.cli.score",
        "score a winning hand, with a readable breakdown (or JSON lines)",
    ),
    (
        "waits",
        "controller.cli.waits",
        "list the waits of a 13-tile hand and its theoretical maximum",
    ),
    ("judge", "controller.cli.judge", "judge a deal record, or play and settle random bot deals"),
    ("sim", "controller.cli.sim", "simulated automatic table and tile reader on pseudo-terminals"),
    (
        "enroll",
        "controller.cli.enroll",
        "enrol tile tags: present tiles one at a time to the reader",
    ),
    (
        "probe",
        "controller.cli.probe",
        "find the tile reader: list ports and USB devices, ask the readers, suggest a profile",
    ),
    (
        "calibrate",
        "controller.cli.calibrate",
        "measure the reader on the table and write its profile's debounce numbers",
    ),
    ("journal", "controller.cli.journal", "verify, export or summarise a deal journal"),
    ("replay", "controller.cli.replay", "step through a journalled deal move by move"),
    ("correct", "controller.cli.correct", "append a referee's correction to a deal journal"),
    (
        "report",
        "controller.cli.report",
        "printable HTML deal sheet or session report from a journal",
    ),
    ("hub", "controller.cli.hub", "tournament hub: hall standings from every table's MQTT feed"),
    (
        "hall",
        "controller.cli.hall",
        "tournament director: seat players, export results, secure the broker and the "
        "tables' results (broker-config, key)",
    ),
    ("bench", "controller.cli.bench", "benchmarks: rules, judge, daemon"),
    (
        "setup",
        "controller.cli.setup",
        "set up a table's Raspberry Pi: user, venv, config, udev rules, systemd unit (sudo)",
    ),
)


def _available() -> list[tuple[str, str, str]]:
    return [c for c in COMMANDS if importlib.util.find_spec(c[1]) is not None]


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, str]]:
    parser = argparse.ArgumentParser(
        prog="mjtable",
        description="Companion of an automatic mahjong table: rules engine, deal judge, "
        "table daemon and referee tools for Sichuan Bloody Rules tournaments.",
        epilog="Run 'mjtable COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"mjtable {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = {}
    for name, module, help_text in _available():
        sub.add_parser(name, help=help_text, description=help_text, add_help=False)
        modules[name] = module
    return parser, modules


def command_parser(name: str) -> tuple[ModuleType, argparse.ArgumentParser]:
    """The module of sub-command `name` and its argument parser, nothing run: what `main`
    parses with (and what a test parses a documented command line with)."""
    module = importlib.import_module(next(m for n, m, _ in COMMANDS if n == name))
    help_text = next(h for n, _, h in COMMANDS if n == name)
    cmd = argparse.ArgumentParser(prog=f"mjtable {name}", description=help_text)
    module.add_arguments(cmd)
    return module, cmd


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser, modules = build_parser()
    if not args_list or args_list[0] not in modules:
        parser.parse_args(args_list or ["--help"])
        return 2
    module, cmd = command_parser(args_list[0])
    args = cmd.parse_args(args_list[1:])
    try:
        return int(module.run(args) or 0)
    except TableError as err:  # the edge: what a sub-command left unsaid is one line, no traceback
        print(f"mjtable {args_list[0]}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
