"""The rules engine's look-up tables (rules/suit_tables.py) are built beside the core once the
daemon has said READY=1, not before it (its start-up CPU) and not by the core at the first
hand's waits, where they held the core up once per start (controller/daemon/app.py
`Daemon.run`). In a process of its own: the tables are built once per process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import argparse, os, sys, threading
from controller.cli import run as run_cli
from controller.daemon.app import Daemon
from controller.daemon.notify import Notifier
from rules import suit_tables

class Watch(Notifier):
    def ready(self, status=""):
        self.built_when_ready = suit_tables.built()
        return False

parser = argparse.ArgumentParser()
run_cli.add_arguments(parser)
argv = ["--table", "loop://", "--reader", "loop://", "--http", "127.0.0.1:0",
        "--journal", sys.argv[1], "--config", os.devnull]
notifier = Watch(None)
daemon = Daemon(run_cli.settings_from(parser.parse_args(argv)), "loop://", "loop://",
                notifier=notifier)
try:
    daemon.start()
    core = threading.Thread(target=daemon.run)
    core.start()
    daemon.stop("test")
    core.join(30)
    assert not core.is_alive(), "the core did not stop"
    assert notifier.built_when_ready is False, "built before READY=1"
    daemon.warming.join(60)
    assert suit_tables.built(), "not built after READY=1"
finally:
    daemon.close()
print("ok")
"""


def test_the_rule_tables_are_built_after_ready_with_no_deal_played(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "j.journal")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
