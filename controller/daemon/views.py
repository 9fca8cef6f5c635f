"""The daemon's table state turned into the view models of controller/outputs/view.py: one
place decides what each audience sees (docs/SCOREBOARD.md "What never reaches a public
answer"). Seats in views are the table's fixed seats; the judge's deal seats are converted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from controller.daemon.records import deal_seat, table_seat
from controller.outputs.view import (
    AlertView,
    BroadcastView,
    CorrectionView,
    HandView,
    PublicView,
    RefereeView,
    SeatView,
)
from rules.deal import Deal
from rules.hand import waits
from rules.moves import Won
from rules.ruleset import ScoringMethod
from rules.seats import SEATS, Seat
from rules.tiles import Tile


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the views are made of, besides the judge."""

    table: str
    session: int
    deal_no: int
    rules: str
    dealer: Seat
    players: tuple[str, str, str, str]
    totals: tuple[int, int, int, int]  # session totals after the last settlement, fixed seats
    phase: str
    claim_remaining_s: float | None
    seq: int
    referee_called: bool = False  # the table waits for the referee (issue 13)


def _revealed(deal: Deal, s: Seat) -> bool:
    """A void is public once its face-down tile was turned up (discarded) or at the end."""
    if deal.over:
        return True
    return deal.void(s) is not None and deal.laid_tile(s) is None and bool(deal.discards(s))


def public_view(facts: TableFacts, deal: Deal | None) -> PublicView:
    seats = []
    for side in SEATS:
        s = deal_seat(side, facts.dealer)
        win = None
        if deal is not None:
            win = next((w for w in deal.winners if w.seat == s and not w.false_hu), None)
        deltas = deal.deltas() if deal is not None else (0, 0, 0, 0)
        void = deal.void(s) if deal is not None and _revealed(deal, s) else None
        seats.append(
            SeatView(
                seat=side.name,
                player=facts.players[side],
                score=facts.totals[side],
                deal_delta=deltas[s] if deal is not None and not _settled(facts) else 0,
                discards=tuple(str(t) for t in deal.river(s)) if deal else (),
                melds=tuple(str(m) for m in deal.melds(s)) if deal else (),
                standing=len(deal.hand(s)) if deal else 0,
                void=None if void is None else void.value,
                hu_order=None if win is None else win.order,
                hu_tile=None if win is None or win.tile is None else str(win.tile),
                **_hand_score(deal, win),
            )
        )
    turn = None
    last = None
    if deal is not None and not deal.over:
        turn = table_seat(deal.turn, facts.dealer).name
        window = deal.window
        if window is not None:
            last = str(window.tile)
    return PublicView(
        table=facts.table,
        session=facts.session,
        deal=facts.deal_no,
        rules=facts.rules,
        dealer=facts.dealer.name,
        phase=facts.phase,
        turn=turn,
        tiles_left=deal.tiles_left if deal is not None else 0,
        claim_remaining_s=facts.claim_remaining_s,
        referee_called=facts.referee_called,
        last_discard=last,
        seats=tuple(seats),
        seq=facts.seq,
        prevalent=_prevalent(deal),
    )


def _hand_score(deal: Deal | None, win: Won | None) -> dict[str, Any]:
    """Wellness (highest-pattern scoring, 001 II 3): the winner's one pattern and bonuses,
    once the deal is over: until then the winner's hand lies face down, and its pattern
    would tell the others about tiles they cannot see."""
    if deal is None or win is None or win.score is None or not deal.over:
        return {}
    if deal.rs.scoring.method is not ScoringMethod.HIGHEST_PATTERN:
        return {}
    score = win.score
    return {
        "hu_pattern": score.patterns[0].name if score.patterns else None,
        "hu_value": score.value,
        "hu_bonuses": tuple(f"{b.name} {b.points}" for b in score.bonuses),
    }


def _prevalent(deal: Deal | None) -> str | None:
    """The round wind, shown where the tiles have winds (136-tile sets)."""
    if deal is None or not deal.rs.tiles.set.contains(Tile.EAST):
        return None
    return deal.prevalent.name


def _settled(facts: TableFacts) -> bool:
    # after the settlement the deltas are in the totals already
    return facts.phase == "settled"


def hand_views(facts: TableFacts, deal: Deal | None) -> tuple[HandView, ...]:
    if deal is None:
        return ()
    out = []
    for side in SEATS:
        s = deal_seat(side, facts.dealer)
        void = deal.void(s)
        hand = deal.hand(s)
        found: Sequence[object] = ()
        if len(hand) % 3 == 1 and not deal.is_out(s):
            found = waits(deal.counts(s), deal.melds(s), void, deal.rs.tiles.set)
        out.append(
            HandView(
                seat=side.name,
                standing=tuple(str(t) for t in hand),
                void=None if void is None else void.value,
                waits=tuple(str(t) for t in found),
            )
        )
    return tuple(out)


def referee_view(
    public: PublicView,
    facts: TableFacts,
    deal: Deal | None,
    alerts: Sequence[AlertView],
    tail: Sequence[str],
    called: str | None = None,
    corrections: Sequence[CorrectionView] = (),
    candidates: Sequence[dict[str, Any]] = (),
    heads: Sequence[dict[str, Any]] = (),
) -> RefereeView:
    wall: tuple[str, ...] = ()
    if deal is not None:
        wall = tuple(str(deal.wall.order[i]) for i in deal.wall.remaining())
    return RefereeView(
        public,
        hand_views(facts, deal),
        wall,
        tuple(alerts),
        tuple(tail),
        called,
        tuple(corrections),
        tuple(candidates),
        tuple(heads),
    )


def broadcast_view(public: PublicView, facts: TableFacts, deal: Deal | None, t: float):
    return BroadcastView(public, hand_views(facts, deal), t)
