"""The daemon's polling bound follows the reader profile unless `--fast` (issue 17), and the
checkpoint thread's housekeeping (the heap trimmed once a minute) runs on its schedule."""

from __future__ import annotations

import threading
from pathlib import Path

from controller.daemon.checkpoint import Checkpointer
from controller.daemon.memory import trimmer
from controller.journal import Journal
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


def test_housekeeping_runs_after_the_first_checkpoint_and_every_nth(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.journal")
    done = threading.Event()
    calls: list[int] = []
    keeper = Checkpointer(journal, interval=0.005, housekeeping=None, every=3)

    def housekeeping() -> None:
        calls.append(keeper.runs)
        if len(calls) == 3:
            done.set()

    keeper.housekeeping = housekeeping
    keeper.start()
    try:
        assert done.wait(20)
    finally:
        keeper.stop()
        journal.close()
    assert calls[:3] == [1, 4, 7] and keeper.housekept >= 3


def test_a_failing_housekeeping_is_logged_and_the_checkpoints_go_on(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.journal")
    keeper = Checkpointer(journal, interval=0.005, housekeeping=lambda: 1 / 0, every=1)
    keeper.start()
    try:
        pause = threading.Event()
        for _ in range(2000):  # 20 s at most
            if keeper.runs >= 5:
                break
            pause.wait(0.01)
    finally:
        keeper.stop()
        journal.close()
    assert keeper.runs >= 5 and keeper.housekept == 0


def test_the_heap_trimmer_is_glibc_malloc_trim() -> None:
    trim = trimmer()
    assert trim is not None  # this project's machines run glibc
    assert trim() in (0, 1)
