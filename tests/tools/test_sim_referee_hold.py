"""The simulated players wait as players at a table do (issue 13): while the host shows a
referee call (every seat's light on) nobody touches a tile, and after the last move they look
for their scores before the next shuffle. A `--fast` table used to play a deal to its end and
shuffle before the host's stall alarm could stop it (campaign seed 200, deals 134 and 150)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from test_sim import WAIT, client_for, truth

from controller.devices.table import Light, ShowScore
from rules.seats import SEATS, Seat
from tools.sim.run import SimConfig, Simulation


def _until(condition, what: str) -> None:
    end = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < end, what
        time.sleep(0.02)


def _play(config: SimConfig):
    sim = Simulation(config)
    client = client_for(sim.paths())
    client.start()
    assert sim.wait_for_client(WAIT)
    played: list[int] = []
    thread = threading.Thread(target=lambda: played.append(sim.run()), daemon=True)
    thread.start()
    return sim, client, thread, played


def _records(path: Path, cls: str) -> list[dict]:
    return [r for r in truth(path) if r["class"] == cls] if path.exists() else []


def test_regression_the_fast_table_played_on_through_a_referee_call(tmp_path: Path) -> None:
    path = tmp_path / "truth.jsonl"
    config = SimConfig(deals=1, seed=11, folder=tmp_path, truth=path, max_moves=30, fast=True)
    sim, client, thread, played = _play(config)
    try:
        _until(lambda: len(_records(path, "move")) >= 5, "five moves")
        for seat in SEATS:
            client.command(Light(seat, True))
        _until(lambda: _records(path, "referee-hold"), "the players see the call")
        held = len(_records(path, "move"))
        time.sleep(0.5)  # what the test checks is that nothing happens meanwhile
        assert len(_records(path, "move")) in (held, held + 1)  # a move under way ends
        assert thread.is_alive()
        client.command(Light(Seat.E, False))  # the call is answered: the lights go out
        thread.join(WAIT)
        assert played == [1] and len(_records(path, "move")) == 30
    finally:
        client.stop()
        sim.close()


def test_players_look_for_their_scores_before_the_next_shuffle(tmp_path: Path) -> None:
    path = tmp_path / "truth.jsonl"
    config = SimConfig(deals=2, seed=11, folder=tmp_path, truth=path, fast=True, score_wait=60)
    sim, client, thread, _ = _play(config)
    try:
        steps = lambda: [r["step"] for r in _records(path, "step")]  # noqa: E731
        _until(lambda: steps()[-1:] == ["scores"], "the last move of deal 1")
        time.sleep(0.3)
        assert not _records(path, "deal-end")  # nobody shuffles before the scores show
        client.command(ShowScore(Seat.S, 12))
        _until(lambda: _records(path, "deal-end"), "the deal ends once scores show")
        assert [r["deal"] for r in _records(path, "deal")] in ([1], [1, 2])
    finally:
        sim.stop()
        client.stop()
        thread.join(WAIT)
        sim.close()
