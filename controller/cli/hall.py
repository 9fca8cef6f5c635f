"""`mjtable hall`: the tournament director's tools — seat the players of a roster for every
session, check a seating plan written by hand, export the results a ranking body takes; and
secure the hall (`broker-config`, `key`: controller/cli/hall_security.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.cli import hall_security
from controller.hall.roster import RosterError, read_roster

EXAMPLES = """\
examples:
  mjtable hall seat --roster players.csv --sessions 7 --out seating.csv
  mjtable hall seat --roster players.csv --check seating.csv
  mjtable hall export --roster players.csv --plan seating.csv --out results.csv
  mjtable hall broker-config --hall h1 --table T1 --table T2 --out hall-broker
  mjtable hall key make
  mjtable hall key trust --keys hall.keys --hall h1 --table T1 ed25519:...
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EXAMPLES
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    seat = sub.add_parser(
        "seat",
        help="generate a seating plan for every session (or check one with --check)",
        description="Seat the roster's players at tables and winds for each session so that "
        "no pair meets more often than needed, nobody keeps a table or a wind from one "
        "session to the next. Prints what the plan achieves.",
    )
    seat.add_argument("--roster", type=Path, required=True, help="CSV: id,name[,club]")
    seat.add_argument("--sessions", type=int, help="sessions to seat (generating)")
    seat.add_argument(
        "--tables",
        help="the tables' names, comma-separated, one per four players (default T1, T2, ...)",
    )
    seat.add_argument("--seed", type=int, default=0, help="the search's seed (default 0)")
    seat.add_argument("--effort", type=int, default=1, help="search steps multiplier (default 1)")
    seat.add_argument("--out", type=Path, help="write the plan here (default: standard output)")
    seat.add_argument(
        "--check", type=Path, metavar="PLAN", help="check this plan file instead of generating"
    )

    export = sub.add_parser(
        "export",
        help="results and standings as CSV, and a printable standings sheet",
        description="Read every table's retained ledger from the hall broker, key the seats "
        "to players through the seating plan and write one CSV line per player and session "
        "(player id, name, table, session, score, rank points, penalties).",
    )
    export.add_argument("--roster", type=Path, required=True, help="CSV: id,name[,club]")
    export.add_argument("--plan", type=Path, required=True, help="the seating plan CSV")
    export.add_argument("--broker", default="127.0.0.1:1883", help="MQTT broker host[:port]")
    export.add_argument("--hall", default="hall", help="the hall's name (default %(default)s)")
    export.add_argument("--username", help="MQTT user name")
    export.add_argument("--password-file", type=Path, help="file holding the MQTT password")
    export.add_argument(
        "--wait", type=float, default=3.0, help="seconds to collect the ledgers (default 3)"
    )
    export.add_argument("--out", type=Path, required=True, help="results CSV to write")
    export.add_argument("--standings", type=Path, help="also write the standings as CSV")
    export.add_argument("--sheet", type=Path, help="also write a printable standings sheet")
    export.add_argument(
        "--no-hold",
        action="store_true",
        help="count sessions some tables have not finished (default: hold them back)",
    )
    hall_security.add_actions(sub)


def run(args: argparse.Namespace) -> int:
    if args.action in ("broker-config", "key"):
        return hall_security.run(args)
    try:
        roster = read_roster(args.roster)
        if args.action == "seat":
            return _seat(args, roster)
        return _export(args, roster)
    except RosterError as err:
        print(f"mjtable hall: {err}", file=sys.stderr)
        return 2


def _write(path: Path | None, text: str) -> None:
    """Write whole or not at all: a temporary file beside `path`, renamed over it."""
    if path is None:
        sys.stdout.write(text)
        return
    tmp = path.with_name(path.name + ".part")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise RosterError(f"{path}: cannot write: {err.strerror or err}") from None


def _seat(args: argparse.Namespace, roster) -> int:
    from controller.hall.seating import format_plan, generate, quality, read_plan

    if args.check is not None:
        plan = read_plan(args.check, roster)
    else:
        if args.sessions is None:
            print("mjtable hall seat: --sessions N (or --check PLAN)", file=sys.stderr)
            return 2
        tables = args.tables.split(",") if args.tables else None
        plan = generate(roster, args.sessions, tables, seed=args.seed, effort=args.effort)
        _write(args.out, format_plan(plan))
    # the report is the output, unless the plan itself went to standard output
    report = sys.stderr if args.check is None and args.out is None else sys.stdout
    for line in quality(plan).lines():
        print(line, file=report)
    return 0


def _export(args: argparse.Namespace, roster) -> int:
    import os

    from controller.hall.export import build, results_csv, standings_csv, standings_html
    from controller.hall.seating import read_plan
    from controller.hub.standings import Standings
    from controller.hub.subscriber import HubSubscriber
    from controller.hub.wire import BrokerOptions

    plan = read_plan(args.plan, roster)
    password = os.environ.get("MJTABLE_MQTT_PASSWORD")
    if args.password_file is not None:
        try:
            password = args.password_file.read_text(encoding="utf-8").strip()
        except OSError as err:
            raise RosterError(f"{args.password_file}: cannot read: {err.strerror}") from None
    try:
        options = BrokerOptions.parse_address(
            args.broker, username=args.username, password=password
        )
    except ValueError as err:
        raise RosterError(str(err)) from None
    standings = Standings()
    subscriber = HubSubscriber(options, standings, args.hall, client_id="mjtable-hall-export")
    subscriber.start()
    try:
        if not subscriber.wait_until(lambda: subscriber.ever_connected, args.wait + 5):
            print(f"mjtable hall: no broker answered at {args.broker}", file=sys.stderr)
            return 1
        # every planned table's retained status, and the last deal it says it published
        subscriber.wait_until(
            lambda: all(standings.caught_up(args.hall, t) for t in plan.tables), args.wait
        )
        silent = [t for t in plan.tables if not standings.caught_up(args.hall, t)]
        if silent:
            print(
                f"mjtable hall: no status or last deal heard from {', '.join(silent)} "
                f"within {args.wait:g} s: exported without them",
                file=sys.stderr,
            )
    finally:
        subscriber.stop()
    export = build(standings.snapshot(), plan, roster, hold=not args.no_hold)
    _write(args.out, results_csv(export))
    if args.standings is not None:
        _write(args.standings, standings_csv(export))
    if args.sheet is not None:
        _write(args.sheet, standings_html(export, f"Standings — {args.hall}"))
    print(
        f"{len(export.results)} results, {len(export.standings)} players ranked over "
        f"sessions {', '.join(map(str, export.counted)) or 'none'}"
    )
    for note in export.held + export.unplanned:
        print(f"  not counted: {note}", file=sys.stderr)
    for note in export.unbalanced:
        print(f"  check: {note}", file=sys.stderr)
    return 0
