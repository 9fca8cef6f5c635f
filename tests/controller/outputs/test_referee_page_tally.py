"""The campaign's referee counts its work as the referee page offers it (issue 27 item 5):
a call put right by its first candidate is one tap; an answer the page does not offer is
"Something else…", the form and its button; a call gone with no answer is the table's.
The referee answers through the real web server and its referee API."""

from __future__ import annotations

import dataclasses

import pytest
from outputs_views import public_steps, referee_view

from controller.outputs.http import WebServer
from controller.outputs.scoreboard import ActionResult, RefereeAction, Scoreboard
from tools.campaign.referee import MANUAL_TAP, TOKEN, TruthReferee


@pytest.fixture
def page(tmp_path):
    actions: list[RefereeAction] = []

    def on_action(action: RefereeAction) -> ActionResult:
        actions.append(action)
        return ActionResult(True, 900 + len(actions))

    sb = Scoreboard(referee_token=TOKEN, on_action=on_action)
    server = WebServer()
    sb.mount(server)
    server.start()
    ref = TruthReferee(tmp_path / "j", tmp_path / "t", "sbr-mil", url=server.url)
    yield sb, ref, actions
    server.close()


def _call(n: int, answers: int = 0) -> dict:
    draw = {"seat": "E", "move": "draw", "tile": "7s"}
    first = {"text": "East drew 7s: enter it", "headline": "East's draw", "move": draw}
    return {"id": f"{n}.{answers}", "headline": "East's draw", "candidates": [first]}


def _show(sb, ref, call) -> None:
    """The page shows `call` (None: no call), and the referee has looked at it."""
    view = public_steps()[6]
    sb.publish(view, referee=dataclasses.replace(referee_view(view), call=call))
    ref.follow(call)


def test_taps_and_first_candidates_are_counted_as_the_page_offers_them(page):
    sb, ref, actions = page
    _show(sb, ref, _call(41))
    # (the truth names no draw's tile: the button's draw is the same move)
    assert ref._post({"kind": "move", "seat": "E", "move": "draw", "note": "x"})
    assert actions[-1].call == "41.0"  # the candidate's button names its call
    _show(sb, ref, _call(41, 1))  # answered, standing until the table agrees
    _show(sb, ref, _call(57))  # the next call: the first is counted
    assert ref._post({"kind": "cancel", "count": 2, "note": "not what the table showed"})
    assert actions[-1].call == ""  # "Something else…": the manual form names no call
    _show(sb, ref, _call(60))
    _show(sb, ref, None)  # gone with no answer: the table caught up
    tally = ref.finish().summary()
    assert tally["calls"] == 3 and tally["by_first_candidate"] == 1 and tally["by_table"] == 1
    assert tally["first_candidate_percent"] == 50.0
    assert tally["max_taps"] == MANUAL_TAP and tally["mean_taps"] == (1 + MANUAL_TAP) / 2
    assert tally["abandoned"] == 0 and tally["mean_seconds"] is not None
