"""The result screen names the deal it shows: the public view's `deal` and `session_deal`
are the settled deal's while the table shuffles for the next (issue 28 item 1)."""

import pytest
from rig import Rig, begin_deal, play

from controller.devices.events import ShuffleDone
from rules.ruleset import load


@pytest.mark.parametrize("rules", ["sbr-mil", "wellness"])
def test_regression_the_result_screen_named_the_next_deal_during_the_shuffle(tmp_path, rules):
    """`mjtable run --fast`: the terminal said "Deal 6 settled", the board "Deal 7 result"
    (`/api/public` deal 6, session_deal 7) once the table shuffled for the next deal."""
    rig = Rig(tmp_path / "t.journal", rs=load(rules))
    rig.link("table", True)
    rig.link("reader", True)
    for seed in (1, 2):
        play(rig, begin_deal(rig, seed).moves)
        settled = rig.rt.public()
        assert settled.end is not None
        assert (settled.deal, settled.session_deal) == (seed, seed)
        rig.table(ShuffleDone(0.0))  # the result stays on the board through the shuffle
        shown = rig.rt.public()
        assert shown.phase == "shuffling" and shown.end == settled.end
        assert (shown.deal, shown.session_deal) == (seed, seed)
    rig.close()


def test_regression_the_result_screen_numbers_deals_in_the_second_session(tmp_path):
    """Session 2 counts its own deals: its first result is "Deal 1", also through the
    shuffle that follows it."""
    path = tmp_path / "t.journal"
    rig = Rig(path, deals=1)
    rig.link("table", True)
    rig.link("reader", True)
    play(rig, begin_deal(rig, 1).moves)
    rig.close()
    again = Rig(path)
    again.wait_ready()
    play(again, begin_deal(again, 2).moves)
    again.table(ShuffleDone(0.0))
    shown = again.rt.public()
    assert (shown.session, shown.deal, shown.session_deal) == (2, 2, 1)
    again.close()
