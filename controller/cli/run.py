"""`mjtable run`: the table daemon (docs/DAEMON.md).

With no hardware configured (no `--table`/`--reader`, no `[devices]` in the config file) it
starts the simulator as a child process (`python -m controller sim`, on pseudo-terminals,
with bot players), connects to it exactly as to real hardware, serves the scoreboard and
prints where to look. Ctrl-C or SIGTERM stop cleanly (links and journal closed);
`--deals N` stops after N settled deals with exit status 0.
"""

from __future__ import annotations

import argparse
import functools
import logging
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from controller.cli.args import natural_int, rules_help
from controller.cli.run_status import RunStatus, StatusLog
from controller.daemon.config import ConfigError, Settings, find_config, load_settings, overlay
from controller.journal.records import JournalError
from controller.locale import language, translator


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="TOML settings (default: XDG, then /etc/mjtable)")
    parser.add_argument("--deals", type=natural_int, help="stop after N settled deals (exit 0)")
    parser.add_argument("--rules", help=rules_help())
    parser.add_argument(
        "--prevalent",
        choices=("E", "S", "W", "N"),
        help="the prevalent (round) wind, scored by Wellness (default E; [table] prevalent)",
    )
    parser.add_argument("--journal", help="the journal file (default ./mjtable.journal)")
    parser.add_argument(
        "--http", help="scoreboard HOST:PORT (default 127.0.0.1:8080; another host is explicit)"
    )
    parser.add_argument("--table-name", help="this table's name (scoreboard, MQTT)")
    parser.add_argument(
        "--players",
        type=four_players,
        metavar="E,S,W,N",
        help="the players at E,S,W,N, comma-separated: they stay whatever seating the hall's "
        "hub sends ([table] players with fixed-players = true)",
    )
    parser.add_argument(
        "--lang",
        metavar="CODE",
        help="the terminal's language: en, zh-CN or ru (default en; [table] language)",
    )
    hw = parser.add_argument_group("hardware (none given: the built-in simulator)")
    hw.add_argument(
        "--table",
        help="the table controller's serial port; none: a table with no serial link (the "
        "shuffle, walls and dice read off the reader; alone, the built-in simulator's)",
    )
    hw.add_argument(
        "--reader",
        help="the tile reader's serial port, or usb / usb:VID:PID for a PN533 on USB "
        "(with a pn533-usb reader profile)",
    )
    hw.add_argument("--profile", help="table profile (hw_profiles/tables)")
    hw.add_argument("--reader-profile", help="reader profile (hw_profiles/readers)")
    hw.add_argument("--tags", help="tag map (hw_profiles/tags)")
    hw.add_argument(
        "--declarations",
        choices=("buttons", "cards", "tiles"),
        help="how the players declare: seat buttons, Win and void cards (pungs and kongs by "
        "the tiles), or the tiles alone (default: the reader profile's; the built-in "
        "simulator's players do the same)",
    )
    mq = parser.add_argument_group("hall broker")
    mq.add_argument("--mqtt", help="broker HOST[:PORT]")
    mq.add_argument("--hall", help="hall name on the broker")
    sim = parser.add_argument_group("the built-in simulator")
    sim.add_argument(
        "--fast",
        action="store_true",
        default=None,
        help="no human pauses, devices answer at once, and the reader is polled as fast as it "
        "answers (also with --table/--reader naming a simulator started with --fast)",
    )
    sim.add_argument("--seed", type=int, help="the simulator's seed")
    sim.add_argument("--missed", type=float, help="percent of tag reads missed")
    sim.add_argument("--crosstalk", type=float, help="percent of reads by a neighbour")
    sim.add_argument("--corrupt", type=float, help="percent of reader answers damaged")
    sim.add_argument("--truth", type=Path, help="the simulator writes its ground truth here")
    sim.add_argument(
        "--unplug", action="append", default=[], metavar="DEV:S@T", help="simulator fault"
    )
    parser.add_argument("-v", "--verbose", action="store_true")


def four_players(text: str) -> tuple[str, str, str, str]:
    """`--players Ann,Bo,Cy,Di`: four names, none empty."""
    names = tuple(n.strip() for n in text.split(","))
    if len(names) != 4 or not all(names):
        raise argparse.ArgumentTypeError(f"four names E,S,W,N, comma-separated, not {text!r}")
    return (names[0], names[1], names[2], names[3])


def settings_from(args: argparse.Namespace) -> Settings:
    settings = load_settings(find_config(args.config))
    return overlay(
        settings,
        table={
            "name": args.table_name,
            "rules": args.rules,
            "prevalent": args.prevalent,
            "journal": args.journal,
            "deals": args.deals,
            "players": args.players,
            "fixed_players": True if args.players is not None else None,
            "language": args.lang,
        },
        devices={
            "table": args.table,
            "reader": args.reader,
            "table_profile": args.profile,
            "reader_profile": args.reader_profile,
            "tags": args.tags,
            "declarations": args.declarations,
        },
        http={"listen": args.http},
        mqtt={"broker": args.mqtt, "hall": args.hall},
        sim={
            "fast": args.fast,
            "seed": args.seed,
            "missed": args.missed,
            "crosstalk": args.crosstalk,
            "corrupt": args.corrupt,
        },
    )


def start_simulator(
    settings: Settings, args: argparse.Namespace, folder: Path
) -> tuple[subprocess.Popen[str], str, str]:
    """The simulator as a child process; returns it and its table and reader paths."""
    s = settings.sim
    # one deal more than the daemon's limit: the simulator ends its ptys when done, and the
    # last deal's claim window closes on the daemon's clock (or by the next shuffle)
    deals = settings.table.deals + 1 if settings.table.deals else 1_000_000
    cmd = [
        sys.executable,
        "-m",
        "controller",
        "sim",
        "--deals",
        str(deals),
        "--seed",
        str(s.seed),
        "--rules",
        settings.table.rules,
        "--prevalent",
        settings.table.prevalent,
        "--table-profile",
        settings.devices.table_profile,
        "--reader-profile",
        settings.devices.reader_profile,
        "--dir",
        str(folder),
        "--missed",
        str(s.missed),
        "--crosstalk",
        str(s.crosstalk),
        "--corrupt",
        str(s.corrupt),
        # the daemon polls the wall antenna alone while the walls are built: several reads
        # per tile step keep the wall order exact under missed reads (docs/RECOGNITION.md)
        "--glimpse",
        "3",
        # the bots' referee corrections would reach a real daemon through its referee view,
        # not through the table: the built-in simulator plays without them
        "--no-referee",
    ]
    if s.fast:
        cmd.append("--fast")
    if settings.boardless:
        cmd += ["--table", "none"]
    if settings.devices.declarations:
        cmd += ["--declarations", settings.devices.declarations]
    if args.truth:
        cmd += ["--truth", str(args.truth)]
    for u in args.unplug:
        cmd += ["--unplug", u]
    child = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,  # forwarded, less its own "played N deal(s)" (_forward)
        text=True,
        bufsize=1,
        start_new_session=True,  # a Ctrl-C reaches the daemon, which ends the simulator
        preexec_fn=functools.partial(_die_with_parent, _libc()),
    )
    paths: dict[str, str] = {"table": "none"} if settings.boardless else {}
    assert child.stdout is not None
    while len(paths) < 2:
        line = child.stdout.readline()
        if not line:
            child.wait(5)
            raise RuntimeError(f"the simulator exited ({child.returncode}) before its devices")
        name, sep, path = line.strip().partition(": ")
        if sep and name in ("table", "reader"):
            paths[name] = path
    _forward(child)
    return child, paths["table"], paths["reader"]


def _forward(child: subprocess.Popen[str]) -> None:
    """The simulator's error output to ours, marked as its own; its closing count of the
    deals it played is the simulator's business, not the operator's."""

    def pump() -> None:
        assert child.stderr is not None
        for line in child.stderr:
            if not SIM_PLAYED.match(line):
                sys.stderr.write(f"simulator: {line}")

    threading.Thread(target=pump, name="mjtable-sim-stderr", daemon=True).start()


SIM_PLAYED = re.compile(r"played \d+ deal\(s\)$")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        settings = settings_from(args)
    except ConfigError as err:
        print(f"mjtable run: {err}", file=sys.stderr)
        return 2
    import tempfile

    from controller.daemon.app import Daemon, load_parts

    child = None
    _sweep_stale(Path(tempfile.gettempdir()))
    folder = Path(tempfile.mkdtemp(prefix=RUN_PREFIX))
    (folder / OWNER).write_text(str(os.getpid()))
    try:
        if settings.simulated:
            try:
                load_parts(settings)  # a typo is ours to report, not the simulator's
            except (ValueError, LookupError, OSError) as err:
                print(f"mjtable run: {err}", file=sys.stderr)
                return 2
            child, table_url, reader_url = start_simulator(settings, args, folder)
        else:
            table_url, reader_url = settings.devices.table, settings.devices.reader
        words = translator(language(settings.table.language))
        status = RunStatus(sys.stdout, sys.stdout.isatty(), tr=words)
        if status.tty and sys.stderr.isatty():
            _log_above(status)  # both on the terminal: the log goes above the status line
        # the status prints each alert: not as a log line as well (from the first: a restart
        # raises its "restarted" alert while the daemon starts)
        quiet = _AlertsShown()
        for handler in logging.getLogger().handlers:
            handler.addFilter(quiet)
        daemon = Daemon(settings, table_url, reader_url, watch=status)
        try:
            where = daemon.start()
        except (ValueError, LookupError, OSError, JournalError) as err:
            print(f"mjtable run: {err}", file=sys.stderr)
            daemon.close()
            return 2
        daemon.install_signals()
        print(f"scoreboard: {where.scoreboard}", flush=True)
        print(f"referee:    {where.referee}  (token {where.token})", flush=True)
        print(f"journal:    {where.journal}", flush=True)
        for note in where.notes:
            print(f"note:       {note}", flush=True)
        if child is not None:
            print(f"simulator:  table {table_url}, reader {reader_url} (pid {child.pid})")
            _watch(child, daemon)
        missing = _missing_ports(table_url, reader_url)
        for line in missing:
            print(line, flush=True)
        print("waiting; Ctrl-C stops" if missing else "playing; Ctrl-C stops", flush=True)
        try:
            reason = daemon.run()
        finally:
            daemon.close()
        status.finish(reason, where.journal)
        if reason == "journal-error" and daemon.runtime is not None:
            print(f"mjtable run: {daemon.runtime.journal_error}", file=sys.stderr)
        return 0 if reason in ("deals", "sigint", "sigterm") else 1
    except RuntimeError as err:
        print(f"mjtable run: {err}", file=sys.stderr)
        return 1
    finally:
        if child is not None:
            _end(child)
        for leftover in folder.iterdir():
            leftover.unlink(missing_ok=True)
        os.rmdir(folder)


def _missing_ports(table_url: str, reader_url: str) -> list[str]:
    """A line for each device named by a path that does not exist (yet): the daemon waits
    for it and starts when it answers (the board says the same)."""
    from controller.words import device_name

    out = []
    for device, url in (("table", table_url), ("reader", reader_url)):
        if url.startswith("/") and not Path(url).exists():
            out.append(
                f"waiting for {device_name(device)}: {url} does not exist (plug it in; "
                "the table starts when it answers)"
            )
    return out


def _log_above(status: RunStatus) -> None:
    """The root logger writes through the status's printer instead of straight to stderr."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, logging.StreamHandler) and handler.stream is sys.stderr:
            above = StatusLog(status)
            above.setFormatter(handler.formatter)
            above.setLevel(handler.level)
            root.removeHandler(handler)
            root.addHandler(above)


class _AlertsShown(logging.Filter):
    """Drops the runtime's "alert ..." log lines: the terminal status prints each alert."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "controller.daemon.runtime" and record.msg == "alert %s: %s")


RUN_PREFIX = "mjtable-run-"
OWNER = "daemon.pid"


def _libc() -> Any:
    """The C library, for `_die_with_parent`, loaded in the daemon before the fork (the
    child only calls it); None where it cannot be loaded. ctypes is imported here, only
    when there is a simulator to start: not on a real table's way to READY=1."""
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def _die_with_parent(libc: Any) -> None:
    """In the simulator child, before it runs: SIGTERM when the daemon dies, even by
    SIGKILL (Linux's PR_SET_PDEATHSIG), so a killed daemon leaves no table playing on."""
    # no libc, or not Linux (no prctl): the simulator ends when its ptys' client is gone
    if libc is not None and hasattr(libc, "prctl"):
        libc.prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG


def _sweep_stale(tmp: Path) -> None:
    """Remove the device folders of earlier runs whose daemon is gone (killed by SIGKILL:
    its `finally` never ran)."""
    for folder in tmp.glob(RUN_PREFIX + "*"):
        try:
            pid = int((folder / OWNER).read_text())
            os.kill(pid, 0)
            continue  # that daemon still runs
        except ProcessLookupError:
            pass
        except (OSError, ValueError):
            continue  # not ours to judge (no owner file, another user's)
        for leftover in folder.iterdir():
            leftover.unlink(missing_ok=True)
        folder.rmdir()


def _watch(child: subprocess.Popen[str], daemon) -> None:
    """When the simulator ends before the deal limit, stop a few seconds later."""

    def wait() -> None:
        child.wait()
        threading.Event().wait(5.0)
        daemon.stop("simulator-ended")

    threading.Thread(target=wait, name="mjtable-sim-watch", daemon=True).start()


def _end(child: subprocess.Popen[str]) -> None:
    if child.poll() is None:
        child.terminate()
        try:
            child.wait(5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    if child.stdout is not None:
        child.stdout.close()
