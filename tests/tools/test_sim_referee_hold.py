"""The simulated players wait as players at a table do (issue 13): while the host shows a
referee call (every seat's light on) nobody touches a tile, and after the last move they look
for their scores before the next shuffle. A `--fast` table used to play a deal to its end and
shuffle before the host's stall alarm could stop it (campaign seed 200, deals 134 and 150).

The checks read the order of the simulator's truth: a command it received is noted when it
arrives, so "no move between the hold and the lights going out" needs no waiting."""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from pathlib import Path

from test_sim import WAIT, client_for, truth

from controller.devices.table import Light, ShowScore
from rules.seats import SEATS, Seat
from tools.campaign.truth import read_truth, truth_deltas
from tools.sim.run import SimConfig, Simulation

# a whole deal played at the test host's pace: ~17 s on a quiet 2-core machine, and CI, on a
# slower one, ran out of `WAIT` (20 s) before its end; an upper bound, never slept
DEAL_WAIT = 90.0


def _until(client, condition, what: str, wait: float = WAIT) -> None:
    """Until `condition()` holds, woken by what the host reads of the simulated table."""
    end = time.monotonic() + wait
    while not condition():
        assert time.monotonic() < end, what
        with contextlib.suppress(queue.Empty):
            client.events.get(timeout=0.05)


class _Clock:
    """Real time plus what the test has advanced it by: the simulator's waits still wake on
    its devices, its deadlines come as the test says."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.ahead

    def advance(self, seconds: float) -> None:
        self.ahead += seconds


def _play(config: SimConfig, clock=time.monotonic):
    sim = Simulation(config, clock)
    client = client_for(sim.paths())
    client.start()
    assert sim.wait_for_client(WAIT)
    played: list[int] = []
    thread = threading.Thread(target=lambda: played.append(sim.run()), daemon=True)
    thread.start()
    return sim, client, thread, played


def _records(path: Path, cls: str) -> list[dict]:
    return [r for r in truth(path) if r["class"] == cls] if path.exists() else []


def _after(records: list[dict], first: int, test) -> int:
    """The index of the first record after `first` that passes `test`."""
    return next(i for i in range(first + 1, len(records)) if test(records[i]))


def test_regression_the_fast_table_played_on_through_a_referee_call(tmp_path: Path) -> None:
    path = tmp_path / "truth.jsonl"
    config = SimConfig(deals=1, seed=11, folder=tmp_path, truth=path, max_moves=30, fast=True)
    sim, client, thread, played = _play(config)
    try:
        _until(client, lambda: len(_records(path, "move")) >= 5, "five moves")
        for seat in SEATS:
            client.command(Light(seat, True))
        _until(client, lambda: _records(path, "referee-hold"), "the players see the call")
        client.command(Light(Seat.E, False))  # the call is answered: the lights go out
        thread.join(WAIT)
        assert played == [1] and len(_records(path, "move")) == 30
        records = truth(path)
        hold = next(i for i, r in enumerate(records) if r["class"] == "referee-hold")
        off = _after(records, hold, lambda r: r["class"] == "command" and r.get("on") is False)
        moved = [r for r in records[hold:off] if r["class"] == "move"]
        assert len(moved) <= 1  # a move under way ends; none is made while the call stands
    finally:
        client.stop()
        sim.close()


def test_players_look_for_their_scores_before_the_next_shuffle(tmp_path: Path) -> None:
    path = tmp_path / "truth.jsonl"
    config = SimConfig(deals=2, seed=11, folder=tmp_path, truth=path, fast=True, score_wait=60)
    sim, client, thread, _ = _play(config)
    try:
        steps = lambda: [r["step"] for r in _records(path, "step")]  # noqa: E731
        _until(client, lambda: steps()[-1:] == ["scores"], "the last move of deal 1", DEAL_WAIT)
        client.command(ShowScore(Seat.S, 12))
        _until(client, lambda: _records(path, "deal-end"), "the deal ends once scores show")
        records = truth(path)
        looking = next(i for i, r in enumerate(records) if r.get("step") == "scores")
        shown = _after(records, looking, lambda r: r.get("command") == "show-score")
        ended = next(i for i, r in enumerate(records) if r["class"] == "deal-end")
        assert looking < shown < ended  # nobody shuffles before the scores show
        assert [r["deal"] for r in _records(path, "deal")] in ([1], [1, 2])
    finally:
        sim.stop()
        client.stop()
        thread.join(WAIT)
        sim.close()


def test_regression_the_players_shuffled_while_the_referee_was_still_putting_the_deal_right(
    tmp_path: Path,
) -> None:
    """A 10/10/2 campaign, seed 310 deal 4: the referee was called after the last move, and
    the players' `score_wait` ran out while the referee's answers were caught up with; they
    shuffled 0.2 s before the settlement and the deal was lost. After the referee is done
    they look for their scores `score_wait` anew.

    The referee's time passes on the simulation's clock, not in sleeps: `score_wait` is far
    longer than the test, and the clock jumps past it while the referee is at the table."""
    path = tmp_path / "truth.jsonl"
    wait = 60.0
    clock = _Clock()
    config = SimConfig(deals=2, seed=11, folder=tmp_path, truth=path, fast=True, score_wait=wait)
    sim, client, thread, _ = _play(config, clock)
    try:
        steps = lambda: [r["step"] for r in _records(path, "step")]  # noqa: E731
        _until(client, lambda: steps()[-1:] == ["scores"], "the last move of deal 1", DEAL_WAIT)
        for seat in SEATS:
            client.command(Light(seat, True))
        _until(client, lambda: _records(path, "referee-hold"), "the players see the call")
        clock.advance(wait + 1)  # the referee takes longer than the players' score wait
        assert not _records(path, "deal-end")
        for seat in SEATS:
            client.command(Light(seat, False))
        # the host settles the deal after the referee's answer: the players go on from the
        # hold either to the shuffle (the deal ends) or to their displays again
        _until(client, lambda: _after_done(path), "the players go on after the referee")
        assert not _records(path, "deal-end")  # they look for the scores again
        client.command(ShowScore(Seat.S, 12))
        _until(client, lambda: _records(path, "deal-end"), "the deal ends once scores show")
        records = truth(path)
        shown = next(i for i, r in enumerate(records) if r.get("command") == "show-score")
        ended = next(i for i, r in enumerate(records) if r["class"] == "deal-end")
        assert shown < ended  # they waited for the scores after the referee, not before
        done = next(r for r in records if r["class"] == "referee-done")
        assert done["answered"] is True
        sim.stop()
        thread.join(WAIT)
        # the campaign's reader takes the hold, its end and the second look in its stride
        deal = next(d for d in read_truth(path) if d.number == 1)
        assert deal.complete and len(truth_deltas("sbr-mil", deal)) == 4
    finally:
        sim.stop()
        client.stop()
        thread.join(WAIT)
        sim.close()


def _after_done(path: Path) -> list[dict]:
    """What the simulator noted after the players saw the referee's lights go out, up to
    the step they took next: looking at their displays again, or ending the deal."""
    records = truth(path) if path.exists() else []
    done = next((i for i, r in enumerate(records) if r["class"] == "referee-done"), None)
    if done is None:
        return []
    after = records[done + 1 :]
    return [r for r in after if r["class"] == "deal-end" or r.get("step") == "scores"]
