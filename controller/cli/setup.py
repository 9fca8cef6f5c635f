"""`mjtable setup`: set up a table's Raspberry Pi in one command (the user, the venv under
/opt, the config under /etc, udev rules for the adapters probe finds, the systemd unit), or
undo it with --uninstall (tools/pi_setup.py)."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

from tools.pi_setup import (
    CONFIG,
    RULES,
    STATE,
    TABLE_NAME,
    Plan,
    SetupError,
    Target,
    default_python,
    existing_table,
    install_plan,
    is_source,
    uninstall_plan,
)
from tools.probe import BY_ID

EPILOG = """\
Run it with sudo from the project folder (the README's first command made its .venv):

  sudo .venv/bin/mjtable setup --table table3     set up, or upgrade after a git pull
  .venv/bin/mjtable setup --table table3 --dry-run   what it would do (no root needed)
  sudo .venv/bin/mjtable setup --uninstall        undo it; the journal and a changed
                                                  config are kept

What it does, each part only when it is not already so (a second run changes nothing):
  user     the system user mjtable, in the groups dialout and plugdev
  venv     /opt/mjtable/venv made with Debian's /usr/bin/python3; the project folder
           installed in it (again when the folder changed: an upgrade)
  config   /etc/mjtable/mjtable.toml with the table's name (asked for when not given);
           one already there is checked and kept, never overwritten
  udev     /etc/udev/rules.d/90-mjtable.rules: /dev/mjtable-reader and /dev/mjtable-table
           for the adapters probe finds, by USB serial number (placeholders for what it
           does not find: plug them in and run setup again)
  unit     /etc/systemd/system/mjtable.service, enabled
  service  restarted when anything changed; a deal in progress resumes from the journal
           (/var/lib/mjtable, outside the venv)

--root DIR writes all of it under DIR (an image being built, a test) and touches nothing
running. Exit status 0 when set up, 1 when something could not be (the line says what), 2
on bad options. docs/DAEMON.md has the details.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument(
        "--table",
        default="",
        metavar="NAME",
        help="the table's name (letters, digits, - _ .): names its journal "
        "(default: the existing config's; asked for on a terminal)",
    )
    parser.add_argument("--dry-run", action="store_true", help="show what it would do; do it not")
    parser.add_argument("--uninstall", action="store_true", help="undo what setup did")
    parser.add_argument(
        "--root", type=Path, default=Path("/"), metavar="DIR", help="set up under DIR (default /)"
    )
    parser.add_argument(
        "--source",
        type=Path,
        metavar="DIR",
        help="the project folder to install into the venv (default: the one run from)",
    )
    parser.add_argument(
        "--python",
        default=default_python(),
        metavar="PATH",
        help="the interpreter the venv is made with (default %(default)s)",
    )
    parser.add_argument(
        "--port",
        action="append",
        default=[],
        metavar="PATH",
        help="a serial port to ask too, as `mjtable probe --port` (the table board's)",
    )
    parser.add_argument(
        "--by-id",
        type=Path,
        default=BY_ID,
        metavar="DIR",
        help=f"where the udev by-id links are (default {BY_ID})",
    )


def _source(given: Path | None) -> Path | None:
    if given is not None:
        return given.resolve()
    here = Path.cwd()
    if is_source(here):
        return here
    tree = Path(__file__).resolve().parents[2]  # run from a project folder's own code
    return tree if is_source(tree) else None


def _table(args: argparse.Namespace, target: Target) -> str:
    """The table's name: given, else the config's; asked for only when a config is to be
    written (one that does not load is named as it is, whatever the name)."""
    name = args.table or existing_table(target)
    if not name and target.path(CONFIG).exists():
        return ""
    if not name and sys.stdin.isatty():
        try:
            name = input("table name (it names the journal, e.g. table3): ").strip()
        except EOFError:
            name = ""
    if not name:
        raise SetupError(
            f"name the table: --table NAME (it names its journal, /{STATE}/NAME.journal)"
        )
    if not TABLE_NAME.match(name):
        raise SetupError(f"--table: letters, digits, '-', '_' and '.' (at most 40), not {name!r}")
    return name


def _install_plan(args: argparse.Namespace, target: Target) -> Plan:
    from tools.probe import ProbeOptions, probe
    from tools.udev_rules import assign, render

    target = replace(target, table=_table(args, target))
    found = assign(probe(ProbeOptions(ports=args.port, by_id=args.by_id)))
    rules = target.path(RULES)
    earlier = rules.read_text(encoding="utf-8") if rules.is_file() else ""
    says = []
    for adapter in (found.reader, found.table):
        if adapter is not None:
            says.append(f"/dev/{adapter.role.link} = {adapter.describe()}")
    if found.unsure:
        says.append(
            "not told apart: "
            + ", ".join(p.device for p in found.unsure)
            + " (name the table board's with --port PATH)"
        )
    return install_plan(target, render(found, earlier), "; ".join(says) or "no adapter found")


def run(args: argparse.Namespace) -> int:
    if not args.dry_run and os.geteuid() != 0:
        print(
            "mjtable setup: needs root (sudo): it adds the mjtable user and writes /opt/mjtable, "
            "/etc/mjtable, /etc/udev/rules.d and /etc/systemd/system (--dry-run shows the plan "
            "without root)",
            file=sys.stderr,
        )
        return 1
    if not args.root.is_dir():
        print(f"mjtable setup: --root {args.root}: no such folder", file=sys.stderr)
        return 2
    target = Target(args.root.resolve(), "", args.python, _source(args.source))
    try:
        plan = uninstall_plan(target) if args.uninstall else _install_plan(args, target)
    except SetupError as err:
        print(f"mjtable setup: {err}", file=sys.stderr)
        return 1
    what = "undo" if args.uninstall else "set up"
    where = "" if target.live else f" under {target.root}"
    print(f"mjtable setup: {what} the table daemon{where}" + (" (dry run)" if args.dry_run else ""))
    for item in plan.items:
        if item.todo is not None and not args.dry_run:
            try:
                item.todo()
            except (SetupError, OSError) as err:
                print(item.line(done=False))
                print(f"mjtable setup: {item.part.value}: {err}", file=sys.stderr)
                return 1
        print(item.line(done=not args.dry_run))
    if not plan.changes:
        print("nothing to change")
    for item in plan.items:
        for note in item.notes:
            print(f"then: {note}")
    if args.uninstall:
        print(f"kept: the journals in /{STATE} (remove them by hand when no longer needed)")
    problems = [i.problem for i in plan.items if i.problem]
    for problem in problems:
        print(f"mjtable setup: {problem}", file=sys.stderr)
    return 1 if problems else 0
