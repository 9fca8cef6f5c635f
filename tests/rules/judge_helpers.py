"""Helpers shared by the hand-written deal tests: a deal from chosen hands, moves that must be
accepted, and moves that must be refused without changing anything."""

from rules.deal import Deal, Phase
from rules.moves import Accepted, CloseClaims, Discard, Draw, Reason, Rejected, ReplacementDraw
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import parse_tiles
from rules.wall import Dice, compose


def deal_of(rules, hands: dict, live: str = "", repl: str = "", dice=(6, 4)) -> Deal:
    """A deal whose wall deals `hands` ({"E": "123m...", ...}), then `live` draws and
    `repl` replacement tiles; `rules` is a rule-set name or a RuleSet."""
    rs = load(rules) if isinstance(rules, str) else rules
    hands_tiles = {Seat[k]: parse_tiles(v) for k, v in hands.items()}
    order = compose(rs, Dice(*dice), hands_tiles, parse_tiles(live), parse_tiles(repl))
    return Deal.start(rs, Dice(*dice), order)


def ok(deal: Deal, *moves):
    """Apply moves that must each be accepted; returns the last result."""
    result = None
    for m in moves:
        result = deal.apply(m)
        assert isinstance(result, Accepted), (m, result)
    return result


def refused(deal: Deal, move, reason: Reason) -> Rejected:
    """A move that must be refused for `reason`, `check` agreeing with `apply`, and the deal
    left exactly as it was."""
    before = deal.snapshot()
    moves = deal.moves
    assert deal.check(move) == deal.apply(move)
    result = deal.check(move)
    assert isinstance(result, Rejected) and result.reason is reason, (move, result)
    assert deal.snapshot() == before and deal.moves == moves
    return result


def drain_step(deal: Deal) -> None:
    """One move of `drain`: a window closes unclaimed, or the player on turn draws, or
    discards the face-down void tile first (Sichuan), then the tile just drawn."""
    if deal.phase in (Phase.CLAIMS, Phase.ROBBING):
        ok(deal, CloseClaims())
    elif deal.phase is Phase.DRAW:
        ok(deal, Draw(deal.turn))
    elif deal.phase is Phase.REPLACEMENT:
        ok(deal, ReplacementDraw(deal.turn))
    else:
        seat = deal.turn
        ok(deal, Discard(seat, deal.laid_tile(seat) or deal.drawn or deal.hand(seat)[0]))


def drain(deal: Deal) -> None:
    """Play on to the end with `drain_step`."""
    while not deal.over:
        drain_step(deal)
