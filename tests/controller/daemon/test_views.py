"""The daemon's views (controller/daemon/views.py) of real judged deals: the waits and
maximum beside each hand are what `mjtable waits` says under the same rule set; a finished
deal shows every hand, the ledger and each Hu's patterns, and stays on the public feed until
the next deal's play begins; nothing concealed is public before the deal is over."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from controller.cli import main
from controller.daemon.views import (
    ResultScreen,
    TableFacts,
    broadcast_view,
    hand_views,
    public_view,
)
from rules import moves as mv
from rules.bots import play_deal
from rules.deal import Deal
from rules.ruleset import load
from rules.seats import SEATS, Seat
from rules.tiles import Suit, Tile, parse_tiles
from rules.wall import Dice

ROOT = Path(__file__).resolve().parents[3]
RS = load("sbr-mil")
PLAYERS = ("Ann", "Bo", "Cy", "Di")


def facts(dealer: Seat = Seat.S, phase: str = "playing.awaiting_discard", **kw) -> TableFacts:
    base = TableFacts("T1", 1, 3, RS.name, dealer, PLAYERS, (10, 20, 30, 40), phase, None, 99)
    return replace(base, **kw)


def prefixes(deal: Deal):
    """The deal after each of its moves (re-judged from its history)."""
    for k in range(1, len(deal.history) + 1):
        yield Deal.replay(deal.rs, deal.dice, deal.wall_order, deal.history[:k])


def cli_waits(capsys, standing, melds, void, rules: str) -> tuple[tuple[str, ...], int]:
    args = ["waits", "".join(standing), "--rules", rules]
    for m in melds:
        args += ["--melds", m]
    if void:
        args += ["--void", void]
    assert main(args) == 0
    out = capsys.readouterr().out
    found = next(line for line in out.splitlines() if line.startswith("waits"))
    best = next(line for line in out.splitlines() if line.startswith("maximum"))
    shown = () if "none" in found else tuple(found.split()[1:])
    return shown, int(best.split()[1])


def test_the_maximum_beside_each_wait_is_what_mjtable_waits_says(capsys):
    """Issue 16 item 2: `max_value` was never set (always 0 on the referee and broadcast
    pages, while the CLI said 1 for the same hand)."""
    deal, _ = play_deal(RS, 11)
    f = facts(dealer=Seat.W)
    compared = ready = 0
    seen = set()
    for moment in prefixes(deal):
        public = public_view(f, moment)
        for h, s in zip(hand_views(f, moment), public.seats, strict=True):
            key = (h.standing, s.melds, h.void)
            if len(h.standing) % 3 != 1 or s.hu_order or key in seen:
                continue
            seen.add(key)
            if h.max_value:
                ready += 1
            if compared < 12 and (h.max_value or compared < 4):
                cli = cli_waits(capsys, h.standing, s.melds, h.void, RS.name)
                assert (h.waits, h.max_value) == cli, (h, s.melds)
                compared += 1
    assert ready >= 3 and compared >= 8


def _flipped(tmp_path: Path) -> str:
    """sbr-mil with `exhausted-wait = "standing"` (004 Lesson 6 read literally)."""
    text = (ROOT / "rules" / "rulesets" / "sbr-mil.toml").read_text(encoding="utf-8")
    assert text.count('exhausted-wait = "held"') == 1
    path = tmp_path / "sbr-mil-standing.toml"
    path.write_text(text.replace('exhausted-wait = "held"', 'exhausted-wait = "standing"'))
    return str(path)


def _pung_then_wait(rs) -> Deal:
    """S pungs E's 1p holding a fourth 1p: pung 1p + standing 1p 456p 567s 999s, void m
    (the hand of tests/rules/test_readings.py, reached at a table)."""
    hands = {
        Seat.E: parse_tiles("1p123456789m2348s"),
        Seat.S: parse_tiles("111456p567999s1m"),
        Seat.W: parse_tiles("23456789m2378p2s"),
        Seat.N: parse_tiles("234567m2378p348s"),
    }
    deal = Deal.start_dealt(rs, Dice(3, 4), hands)
    for move in (
        mv.ChooseVoid(Seat.E, Suit.P, Tile.parse("1p")),
        mv.ChooseVoid(Seat.S, Suit.M, Tile.parse("1m")),
        mv.ChooseVoid(Seat.W, Suit.S, Tile.parse("2s")),
        mv.ChooseVoid(Seat.N, Suit.S, Tile.parse("3s")),
        mv.Discard(Seat.E, Tile.parse("1p")),
        mv.Pung(Seat.S),
        mv.CloseClaims(),
        mv.Discard(Seat.S, Tile.parse("1m")),
    ):
        assert deal.apply(move), move
    return deal


def test_the_views_follow_the_rule_sets_exhausted_wait(tmp_path, capsys):
    """The views counted the melded copies whatever the rule set said; under
    `exhausted-wait = "standing"` the fourth 1p is a wait worth 2, as `mjtable waits` says."""
    flipped = _flipped(tmp_path)
    f = facts(dealer=Seat.E)
    held = hand_views(f, _pung_then_wait(RS))[Seat.S]
    assert (held.waits, held.max_value) == ((), 0)
    standing = hand_views(f, _pung_then_wait(load(flipped)))[Seat.S]
    assert (standing.waits, standing.max_value) == (("1p",), 2)
    for rules, view in ((RS.name, held), (flipped, standing)):
        assert cli_waits(capsys, view.standing, ["pung 1p"], "m", rules) == (
            view.waits,
            view.max_value,
        )


def test_the_claim_box_and_the_last_action_name_the_discarder():
    deal = _pung_then_wait(RS)
    before = Deal.replay(RS, deal.dice, deal.wall_order, deal.history[:6])  # S pungs, open
    view = public_view(facts(dealer=Seat.W, phase="playing.claim_window"), before)
    # deal seats E S → table seats W N (W deals)
    assert (view.last_discard, view.discarder) == ("1p", "W")
    assert view.last_action is not None and view.last_action.text == "N pungs 1p from W"
    after = public_view(facts(dealer=Seat.W), deal)
    assert after.discarder == "N" and after.last_action.text == "N discards 1m"
    voids = Deal.replay(RS, deal.dice, deal.wall_order, deal.history[:2])
    chosen = public_view(facts(dealer=Seat.W), voids).last_action
    assert chosen.text == "N chooses a void suit" and chosen.tile is None  # laid face down


def _a_deal_with(rs, what, seeds=range(200)) -> Deal:
    for seed in seeds:
        deal, _ = play_deal(rs, seed)
        if what(deal):
            return deal
    raise AssertionError("no seeded deal fits")


def test_a_settled_deal_shows_every_hand_the_ledger_and_each_hus_patterns():
    """Issue 16 item 3: at "Settled" every change went back to ±0, the hands stayed hidden
    and a Sichuan Hu showed no pattern or value."""
    deal = _a_deal_with(RS, lambda d: any(w.score and w.score.patterns for w in d.winners))
    f = facts(dealer=Seat.N, phase="settled", totals=(5, 6, 7, 8))
    view = public_view(f, deal)
    assert view.end in ("three-won", "wall-exhausted")
    deltas = deal.deltas()
    for s in SEATS:  # deal seats; N deals, so table seat = deal seat + 3
        seat = view.seats[(s + Seat.N) % 4]
        assert seat.hand == tuple(str(t) for t in deal.hand(s))
        assert seat.deal_change == deltas[s] and seat.deal_delta == 0  # in the totals
    for w in deal.winners:
        if w.false_hu:
            continue
        seat = view.seats[(w.seat + Seat.N) % 4]
        assert seat.hu_value == w.value and seat.hu_fan == w.score.total_fan
        assert [(p.name, p.fan) for p in seat.hu_patterns] == [
            (p.name, p.fan) for p in w.score.patterns
        ]
    lines = deal.ledger().lines
    assert len(view.ledger) == len(lines)
    change = {s.seat: 0 for s in view.seats}
    for line in view.ledger:
        change[line.payer] -= line.points
        if line.payee is not None:
            change[line.payee] += line.points
    assert [change[s.seat] for s in view.seats] == [s.deal_change for s in view.seats]
    assert any("(" in line.why and line.rule.startswith("004") for line in view.ledger)
    json.dumps(view.to_json())  # plain JSON types


def test_nothing_concealed_is_public_before_the_deal_ends():
    deal = _a_deal_with(RS, lambda d: len(d.winners) >= 2)
    f = facts(dealer=Seat.E)
    hu_lines = 0
    for moment in prefixes(deal):
        view = public_view(f, moment)
        if moment.over:
            break
        assert view.end is None
        assert all(s.hand is None and s.hu_patterns == () and s.hu_fan is None for s in view.seats)
        assert all(s.deal_change is None for s in view.seats)
        for line in view.ledger:
            if line.why == "Hu":
                hu_lines += 1
            assert "fan" not in line.why and "A=" not in line.why, line
        action = view.last_action
        if action is not None and action.move in ("draw", "replacement", "void"):
            assert action.tile is None
    assert hu_lines >= 1  # a Hu's payment is public during the deal, its patterns are not


def test_a_penalty_is_public_when_it_is_applied():
    deal, _ = play_deal(RS, 3)
    early = Deal.replay(RS, deal.dice, deal.wall_order, deal.history[:12])
    assert early.apply(mv.Penalty(Seat.S, 10, "slow play", None))
    view = public_view(facts(dealer=Seat.E), early)
    (line,) = [x for x in view.ledger if x.rule == "referee penalty"]
    assert (line.payer, line.payee, line.points, line.why) == ("S", None, 10, "slow play")
    assert view.last_action.text == "Penalty: S pays 10 to nobody"
    assert view.seats[Seat.S].deal_delta <= -10


def test_the_result_stays_until_the_next_deals_play_begins():
    """However fast the next shuffle comes: the settled deal's view (hands, ledger, changes)
    is what the hall sees through the shuffle, the dealing and the void choices, with the
    table's phase; the next deal's first discard replaces it."""
    screen = ResultScreen()
    first, _ = play_deal(RS, 4)
    settled = screen.shown(public_view(facts(phase="settled", seq=50), first), first)
    assert settled.end is not None and settled.seats[0].hand is not None
    shuffling = screen.shown(public_view(facts(phase="shuffling", seq=51), first), first)
    assert shuffling.seats == settled.seats and shuffling.phase == "shuffling"
    nxt = Deal.start_shuffled(RS, random.Random(9))
    f = facts(phase="dealing", seq=52, deal_no=4, dealer=Seat.W)
    dealing = screen.shown(public_view(f, nxt), nxt)
    assert (dealing.deal, dealing.phase, dealing.seq) == (3, "dealing", 52)
    assert dealing.ledger == settled.ledger and dealing.end == settled.end
    # the broadcast shows the held result too, without the next deal's hands
    assert broadcast_view(dealing, f, nxt, 1.0).hands == ()
    for s in SEATS:
        laid = next(t for t in nxt.hand(s) if t.suit is Suit.M) if s else None
        suit = Suit.M if laid is not None else Suit.P
        if laid is None:
            laid = next((t for t in nxt.hand(s) if t.suit is Suit.P), None)
        assert nxt.apply(mv.ChooseVoid(s, suit, laid))
    voids = screen.shown(public_view(replace(f, phase="playing.awaiting_discard"), nxt), nxt)
    assert voids.deal == 3 and voids.phase == "playing.awaiting_discard"
    east = nxt.hand(Seat.E)
    laid = nxt.laid_tile(Seat.E)
    assert nxt.apply(mv.Discard(Seat.E, laid if laid is not None else east[0]))
    live = screen.shown(public_view(replace(f, phase="playing.claim_window"), nxt), nxt)
    assert live.deal == 4 and live.end is None and all(s.hand is None for s in live.seats)
    again = screen.shown(public_view(replace(f, seq=60), nxt), nxt)
    assert again.deal == 4  # never back to the old result


@pytest.mark.parametrize("rules", ["wellness", "wmt"])
def test_other_rule_sets_show_their_hu_values_at_the_end(rules):
    rs = load(rules)
    deal = _a_deal_with(rs, lambda d: any(not w.false_hu for w in d.winners), range(60))
    view = public_view(replace(facts(dealer=Seat.E, phase="settled"), rules=rules), deal)
    for w in deal.winners:
        if not w.false_hu:
            assert view.seats[w.seat].hu_value == w.value
    assert sum(s.deal_change for s in view.seats) == sum(deal.deltas())
