"""The daemon's polling bound follows the reader profile unless `--fast` (issue 17)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from controller.cli import run as run_cli
from controller.daemon.app import Daemon
from tests.controller.daemon.rig import Rig


def test_the_runtime_polls_at_the_profile_pace_unless_fast(tmp_path: Path) -> None:
    paced = Rig(tmp_path / "a.journal")
    fast = Rig(tmp_path / "b.journal", fast_polling=True)
    try:
        assert paced.rt.bus.interval == paced.reader.round_interval == 1 / 20
        assert fast.rt.bus.interval == 0.0
    finally:
        paced.close()
        fast.close()


@pytest.mark.parametrize("fast", [False, True])
def test_mjtable_run_fast_lifts_the_bound_with_named_devices_too(tmp_path: Path, fast: bool):
    """`--fast` with `--table/--reader` (a simulator started by hand with --fast, as the e2e
    harness does) polls as fast as the line answers; without it, at the profile's pace."""
    parser = argparse.ArgumentParser()
    run_cli.add_arguments(parser)
    argv = ["--table", "loop://", "--reader", "loop://", "--http", "127.0.0.1:0"]
    argv += ["--journal", str(tmp_path / "j.journal"), "--config", os.devnull]
    settings = run_cli.settings_from(parser.parse_args(argv + (["--fast"] if fast else [])))
    daemon = Daemon(settings, "loop://", "loop://")
    try:
        daemon.start()
        assert daemon.runtime.bus.interval == (0.0 if fast else 1 / 20)
    finally:
        daemon.close()
