"""What the core publishes (controller/daemon/publication.py `Publisher`) is the views of the
table as it is, while what a view shows of the deal, each seat's hand and the referee call's
sentences are made once per change and taken again by the publications in between: the
same values as made afresh, made again as soon as the deal, a hand or the call changes."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace

from controller.alerts import AlertKind
from controller.daemon.candidates import candidates
from controller.daemon.publication import DeskFacts, Publisher, SessionCount
from controller.daemon.referee_call import RefereeCall
from controller.daemon.views import (
    TableFacts,
    broadcast_view,
    deal_shown,
    hand_views,
    public_view,
    referee_view,
)
from controller.outputs.view import AlertView, CorrectionView
from rules import moves as mv
from rules.bots import play_deal
from rules.deal import Deal
from rules.ruleset import load
from rules.seats import Seat

RS = load("sbr-mil")
COUNT = SessionCount(3, 8)


def _facts(deal_no: int = 3, **kw) -> TableFacts:
    base = TableFacts(
        "T1", 1, deal_no, RS.name, Seat.S, ("Ann", "Bo", "Cy", "Di"), (1, 2, 3, 4),
        "playing.awaiting_discard", None, 99,
    )  # fmt: skip
    return replace(base, **kw)


def _desk(call: RefereeCall | None = None) -> DeskFacts:
    alert = AlertView(98, "2026-11-28T12:00:00", "error", "the reader is lost")
    correction = CorrectionView(97, "#96 move cancelled", True, {"text": "{x}", "x": "y"})
    heads = ({"deal": 2, "seq": 90, "hash": "ab"},)
    return DeskFacts((alert,), ("98\tt\tan alert\t{}",), call, (correction,), heads, (2, ()))


def _played() -> Deal:
    """A finished deal with a pung or kong (ledger lines) and a Hu."""
    for seed in range(100):
        deal, _ = play_deal(RS, seed)
        if deal.ledger().lines and any(isinstance(m, mv.Pung | mv.Kong) for m in deal.history):
            return deal
    raise AssertionError("no seeded deal fits")


def _afresh(facts: TableFacts, deal: Deal, desk: DeskFacts):
    """The views as made without anything kept (views.py's functions alone)."""
    public = replace(public_view(facts, deal), session_deal=3, session_deals=8)
    call = None if desk.call is None else desk.call.to_json()
    referee = referee_view(
        public, facts, deal, desk.alerts, desk.tail, call, desk.corrections, desk.heads,
        desk.settled,
    )  # fmt: skip
    return public, referee, broadcast_view(public, facts, deal, 5.0)


def test_every_publication_is_the_views_made_afresh():
    """A view taken again from what was kept is the view made anew, at every move of a
    deal to its end (the ledger, the last action, the waits, the end)."""
    deal = _played()
    publisher = Publisher()
    desk = _desk()
    for k in range(1, len(deal.history) + 1):
        moment = Deal.replay(deal.rs, deal.dice, deal.wall_order, deal.history[:k])
        phase = "settled" if moment.over else "playing.awaiting_discard"
        f = _facts(phase=phase, seq=100 + k)
        for _ in range(2):  # the second publication takes what the first made
            made = publisher.views(f, moment, COUNT, desk, 5.0)
            assert (made.public, made.referee, made.broadcast) == _afresh(f, moment, desk)


def test_the_deal_is_shown_again_from_what_was_made_until_it_changes():
    """Published after every record, the core made the ledger's sentences, the last action
    and every seat's waits again each time, though most records change no move."""
    deal, _ = play_deal(RS, 3)
    k = next(i for i in range(20, len(deal.history)) if isinstance(deal.history[i], mv.Draw))
    moment = Deal.replay(deal.rs, deal.dice, deal.wall_order, deal.history[:k])
    publisher = Publisher()
    first = publisher.shown(moment, Seat.S)
    assert first is not None
    assert publisher.shown(moment, Seat.S) is first  # a record that moved nothing
    assert publisher.shown(moment, Seat.E) is not first  # another dealer, other seats
    moved = publisher.shown(moment, Seat.S)
    moment.apply(deal.history[k])
    after = publisher.shown(moment, Seat.S)
    assert after is not moved and after == publisher.shown(moment, Seat.S)
    assert after.last_action != moved.last_action
    # one seat's hand changed: the three others' views (their waits) are the ones made before
    same = [a is b for a, b in zip(after.hands, moved.hands, strict=True)]
    assert same.count(True) >= 2 and same.count(False) >= 1
    assert after.hands == hand_views(_facts(), moment)
    # a deal replaced (the referee's rebuild) with as many moves is not taken for the other
    rebuilt = Deal.replay(deal.rs, deal.dice, deal.wall_order, deal.history[: k + 1])
    assert publisher.shown(rebuilt, Seat.S) is not after


def test_the_calls_words_are_made_once_per_call():
    deal, _ = play_deal(RS, 3)
    moment = Deal.replay(deal.rs, deal.dice, deal.wall_order, deal.history[:20])
    offered = candidates(moment, Seat.S)
    call = RefereeCall(AlertKind.STALLED.value, "the table stalled", offered, alert_seq=7)
    publisher = Publisher()
    made = publisher.call_json(call)
    assert made == call.to_json() and publisher.call_json(call) is made
    answered = call.updated(offered[1:], (), answered=True)
    again = publisher.call_json(answered)
    assert again == answered.to_json() and again != made
    assert publisher.call_json(None) is None


def test_a_views_json_is_what_asdict_gives():
    """`to_json` no longer deep-copies every string (dataclasses.asdict): the same JSON."""
    deal = _played()
    offered = candidates(
        Deal.replay(deal.rs, deal.dice, deal.wall_order, deal.history[:20]), Seat.S
    )
    call = RefereeCall(AlertKind.STALLED.value, "the table stalled", offered, alert_seq=7)
    made = Publisher().views(_facts(phase="settled"), deal, COUNT, _desk(call), 5.0)
    assert made.public.ledger and made.referee.call is not None
    for view in (made.public, made.referee, made.broadcast):
        assert view.to_json() == dataclasses.asdict(view)
        json.dumps(view.to_json())
    shared = made.public.to_json()
    assert made.referee.json_with(shared) == dataclasses.asdict(made.referee)


def test_the_referee_is_offered_a_chow_only_where_the_rules_have_chows():
    """A referee found "chows" among the moves to enter under sbr-mil (issue 27's tester)."""
    for name, chows in (("sbr-mil", False), ("wellness", True)):
        rs = load(name)
        deal, _ = play_deal(rs, 1)
        made = Publisher().views(_facts(phase="settled", seq=1), deal, COUNT, _desk(), 5.0)
        assert made.referee.chows is chows, name


def test_publications_between_changes_share_the_seats():
    """The hall's seats were made afresh at every publication (after every record, most of
    which change no seat): each broadcast view held for its 30 s delay held its own four
    seats, their rivers and melds (~2.5 kB a view; ~700 views, 2 MB, in 30 s of a fast
    table). Publications of the same deal, players and scores share one tuple of seats,
    made again when any of them changes, and a move keeps the views of the seats it did
    not change."""
    deal, _ = play_deal(RS, 3)
    k = next(i for i in range(20, len(deal.history)) if isinstance(deal.history[i], mv.Draw))
    moment = Deal.replay(deal.rs, deal.dice, deal.wall_order, deal.history[:k])
    publisher = Publisher()
    desk = _desk()
    first = publisher.views(_facts(seq=100), moment, COUNT, desk, 5.0)
    again = publisher.views(_facts(seq=101, claim_remaining_s=2.0), moment, COUNT, desk, 5.5)
    assert again.public.seq == 101 and again.broadcast.public is again.public
    assert again.public.seats is first.public.seats
    assert again.broadcast.public.seats is first.broadcast.public.seats
    changes = {
        "a move": (_facts(seq=102), deal.history[k]),
        "the scores": (_facts(seq=103, totals=(5, 2, 3, 4)), None),
        "the players": (_facts(seq=104, players=("Ann", "Bo", "Cy", "Ed")), None),
        "the dealer": (_facts(seq=105, dealer=Seat.W), None),
    }
    before = again.public.seats
    for what, (f, move) in changes.items():
        if move is not None:
            moment.apply(move)
        made = publisher.views(f, moment, COUNT, desk, 6.0)
        assert made.public.seats is not before, what
        assert made.public == _afresh(f, moment, desk)[0], what
        if move is not None:  # a draw changes one seat: the three others' views are kept
            kept = [a is b for a, b in zip(made.public.seats, before, strict=True)]
            assert kept.count(True) == 3, kept
        before = made.public.seats


def test_a_move_that_pays_nothing_keeps_the_ledger_made_before():
    """The ledger's lines (each with its sentence's JSON) and its sentences were made again
    at every move, and every broadcast view held for its delay kept its own: a move that
    pays nothing takes those made before, one that pays makes them anew."""
    deal = _played()
    lines = _lines(deal)
    paid = [i for i in range(len(deal.history)) if lines[i + 1] > lines[i]]
    k = next(i for i in range(paid[0] + 1, len(deal.history)) if lines[i + 1] == lines[i])
    moment = Deal.replay(deal.rs, deal.dice, deal.wall_order, deal.history[:k])
    publisher = Publisher()
    before = publisher.shown(moment, Seat.S)
    assert before is not None and before.ledger and before.ledger_words
    moment.apply(deal.history[k])
    after = publisher.shown(moment, Seat.S)
    assert after is not before and after.last_action != before.last_action
    assert after.ledger is before.ledger and after.ledger_words is before.ledger_words
    assert after == deal_shown(moment, Seat.S)
    j = next(i for i in paid if i > k)  # a move that pays: the ledger made anew
    for move in deal.history[k + 1 : j]:
        moment.apply(move)
    kept = publisher.shown(moment, Seat.S)
    moment.apply(deal.history[j])
    made = publisher.shown(moment, Seat.S)
    assert made.ledger != kept.ledger and made == deal_shown(moment, Seat.S)


def _lines(deal: Deal) -> list[int]:
    """How many ledger lines the deal has after each of its first k moves, k = 0, 1, ..."""
    moment = Deal.replay(deal.rs, deal.dice, deal.wall_order, ())
    counts = [len(moment.ledger().lines)]
    for move in deal.history:
        moment.apply(move)
        counts.append(len(moment.ledger().lines))
    return counts
