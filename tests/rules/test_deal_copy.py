"""`Deal.copy` (`State.copy`, `Wall.copy`): the trial a move is tried on. A copy taken at any
point of a deal plays the rest of the deal to the same end as the deal itself, and nothing
played on it reaches the deal it was copied from; nothing mutable is shared between the two.
Seeded bot deals of both rule sets (rules.bots.play_deal), kongs and claim windows among
them."""

from __future__ import annotations

import pytest

from rules.bots import play_deal
from rules.claims import Window
from rules.deal import Deal
from rules.deal_state import KongRecord, State
from rules.ruleset import load
from rules.wall import Wall

RULESETS = {name: load(name) for name in ("sbr-mil", "wellness")}
MUTABLE = (list, bytearray, set, dict, Window, KongRecord, Wall)


def _deals(name: str, seeds: range) -> list[Deal]:
    return [play_deal(RULESETS[name], seed)[0] for seed in seeds]


@pytest.mark.parametrize("name", RULESETS)
def test_a_copy_taken_anywhere_plays_the_rest_to_the_same_end_and_leaves_its_deal_alone(name):
    rs = RULESETS[name]
    for whole in _deals(name, range(6)):
        moves = whole.history
        deal = Deal.start(rs, whole.dice, whole.wall_order)
        for i, move in enumerate(moves):
            if i % 3 == 0:  # every third point of the deal: a copy played to the end
                before = deal.snapshot()
                trial = deal.copy()
                for rest in moves[i:]:
                    assert trial.play(rest) is None, rest
                assert trial.snapshot() == whole.snapshot()
                assert trial.deltas() == whole.deltas() and trial.ledger() == whole.ledger()
                assert deal.snapshot() == before and len(deal.history) == i
            assert deal.play(move) is None, move
        assert deal.snapshot() == whole.snapshot()


def _reachable(obj: object, out: dict[int, object]) -> None:
    """Every mutable object a state holds, by id (the rule set is not the state's)."""
    if isinstance(obj, State | Wall | Window | KongRecord):
        out[id(obj)] = obj
        names = obj.__slots__  # type: ignore[union-attr]  # every one of these has slots
        for name in names:
            if name != "rs":
                _reachable(getattr(obj, name), out)
    elif isinstance(obj, list | tuple | set | frozenset):
        if isinstance(obj, MUTABLE):
            out[id(obj)] = obj
        for item in obj:
            _reachable(item, out)
    elif isinstance(obj, dict):
        out[id(obj)] = obj
        for item in obj.values():
            _reachable(item, out)
    elif isinstance(obj, bytearray):
        out[id(obj)] = obj


def test_a_copy_shares_nothing_mutable_with_its_deal():
    """Checked where the most is held: a claim window open and kongs declared (a kong's
    record held by two of the state's lists is one record in the copy too)."""
    points = 0
    for whole in _deals("sbr-mil", range(40)):
        deal = Deal.start(whole.rs, whole.dice, whole.wall_order)
        for move in whole.history:
            assert deal.play(move) is None
            st = deal.state
            if st.window is None or not st.kongs or not st.kong_chain + st.window_kongs:
                continue
            points += 1
            trial = deal.copy()
            mine: dict[int, object] = {}
            theirs: dict[int, object] = {}
            _reachable(st, mine)
            _reachable(trial.state, theirs)
            shared = [type(o).__name__ for i, o in theirs.items() if i in mine]
            assert not shared, shared
            copied = trial.state
            for r in copied.kong_chain + copied.window_kongs:
                assert any(r is k for k in copied.kongs)
            assert trial.history == deal.history and trial.history is not deal.history
    assert points > 0, "no deal had a window open after a kong"
