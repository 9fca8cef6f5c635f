"""The daemon's table state turned into the view models of controller/outputs/view.py: one
place decides what each audience sees (docs/SCOREBOARD.md "What never reaches a public
answer"). Seats in views are the table's fixed seats; the judge's deal seats are converted.

What a finished deal shows (its standing tiles, the whole ledger, each Hu's patterns) and
the words of the last action are built in controller/daemon/view_words.py; `ResultScreen`
keeps a settled deal's view on the public feed until the next deal's play begins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from controller.daemon.view_words import (
    deal_end,
    last_action,
    ledger_view,
    ledger_words,
    pattern_views,
)
from controller.journal.payloads import deal_seat, table_seat
from controller.outputs.view import (
    ActionView,
    AlertView,
    BroadcastView,
    CorrectionView,
    HandView,
    LedgerLineView,
    LedgerWords,
    PublicView,
    RefereeView,
    SeatView,
)
from controller.words import device_name, phase_words, table_name
from rules import moves as mv
from rules.deal import Deal
from rules.moves import Won
from rules.ruleset import ScoringMethod
from rules.scoring import waits_and_maximum
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
    devices_down: tuple[str, ...] = ()  # "table", "reader": links not up (waited for)


def _revealed(deal: Deal, s: Seat) -> bool:
    """A void is public once its face-down tile was turned up (discarded) or at the end."""
    if deal.over:
        return True
    return deal.void(s) is not None and deal.laid_tile(s) is None and bool(deal.discards(s))


def _hu_order(deal: Deal, win: Won) -> int:
    """The win's place among the true ones (1st, 2nd, ...; several on one discard share
    it): a false Hu declared before it is no win."""
    return 1 + len({w.order for w in deal.winners if not w.false_hu and w.order < win.order})


@dataclass(frozen=True, slots=True)
class DealShown:
    """What the views show of a deal that changes only when the deal does: its ledger, the
    ledger in words, the last action in words, how it ended, and every seat's hand with its
    waits (the referee's and the broadcast's), in fixed seats."""

    ledger: tuple[LedgerLineView, ...]
    ledger_words: tuple[LedgerWords, ...]
    last_action: ActionView | None
    end: str | None
    hands: tuple[HandView, ...]


def deal_shown(deal: Deal, dealer: Seat, hands: SeatHands | None = None) -> DealShown:
    """What the views show of `deal` (`hands`: the seats' hands as last made)."""
    return DealShown(
        ledger_view(deal, dealer),
        ledger_words(deal, dealer),
        last_action(deal, dealer),
        deal_end(deal) if deal.over else None,
        _hands(deal, dealer) if hands is None else hands.views(deal, dealer),
    )


def public_view(
    facts: TableFacts,
    deal: Deal | None,
    shown: DealShown | None = None,
    seats: tuple[SeatView, ...] | None = None,
) -> PublicView:
    """The hall's view; `shown`: `deal_shown(deal, facts.dealer)` and `seats`:
    `seat_views(facts, deal)` made already."""
    if deal is not None and shown is None:
        shown = deal_shown(deal, facts.dealer)
    turn = None
    last = None
    discarder = None
    if deal is not None and not deal.over:
        turn = table_seat(deal.turn, facts.dealer).name
        window = deal.window
        if window is not None:
            last = str(window.tile)
            discarder = table_seat(window.discarder, facts.dealer).name
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
        waiting_for=tuple(device_name(d) for d in facts.devices_down),
        table_title=table_name(facts.table),
        phase_text=phase_words(facts.phase, turn),
        ledger_words=() if shown is None else shown.ledger_words,
        last_discard=last,
        seats=seat_views(facts, deal) if seats is None else seats,
        seq=facts.seq,
        prevalent=_prevalent(deal),
        discarder=discarder,
        last_action=None if shown is None else shown.last_action,
        ledger=() if shown is None else shown.ledger,
        end=None if shown is None else shown.end,
    )


def seat_views(facts: TableFacts, deal: Deal | None) -> tuple[SeatView, ...]:
    """What the hall sees of each seat (fixed seats, East to North): its player, score and
    the deal's change so far, river, melds, how many tiles stand, a revealed void, its Hu;
    once the deal is over its standing tiles and each Hu's patterns. Made of the deal and
    of `facts`' dealer, players and totals, and whether the deal is settled (`seats_key`)."""
    seats = []
    settled = deal is not None and _settled(facts, deal)
    deltas = deal.deltas() if deal is not None else (0, 0, 0, 0)
    for side in SEATS:
        s = deal_seat(side, facts.dealer)
        win = None
        if deal is not None:
            win = next((w for w in deal.winners if w.seat == s and not w.false_hu), None)
        void = deal.void(s) if deal is not None and _revealed(deal, s) else None
        seats.append(
            SeatView(
                seat=side.name,
                player=facts.players[side],
                score=facts.totals[side],
                # score + deal_delta is the running score: once the deal is settled its
                # change is in the total, and `deal_change` says what it was
                deal_delta=deltas[s] if deal is not None and not settled else 0,
                discards=tuple(str(t) for t in deal.river(s)) if deal else (),
                melds=tuple(str(m) for m in deal.melds(s)) if deal else (),
                standing=len(deal.hand(s)) if deal else 0,
                void=None if void is None else void.value,
                hu_order=None if win is None or deal is None else _hu_order(deal, win),
                hu_tile=None if win is None or win.tile is None else str(win.tile),
                **_hand_score(deal, win),
                **_result(deal, s, deltas, settled),
            )
        )
    return tuple(seats)


def seats_key(facts: TableFacts, deal: Deal | None) -> tuple[Any, ...]:
    """What `seat_views(facts, deal)` is made of besides the deal's moves: two publications
    with the same key, of a deal with as many moves, show the same seats."""
    settled = deal is not None and _settled(facts, deal)
    return facts.dealer, facts.players, facts.totals, settled


def _hand_score(deal: Deal | None, win: Won | None) -> dict[str, Any]:
    """Each Hu's patterns, fan and value once the deal is over: until then the winner's
    hand lies face down, and its patterns would tell the others about tiles they cannot
    see. Wellness (highest-pattern scoring, 001 II 3) also names its one pattern and
    bonuses (`hu_pattern`, `hu_bonuses`)."""
    if deal is None or win is None or win.score is None or not deal.over:
        return {}
    score = win.score
    shown: dict[str, Any] = {
        "hu_value": score.value,
        "hu_fan": score.total_fan,
        "hu_patterns": pattern_views(score),
    }
    if deal.rs.scoring.method is ScoringMethod.HIGHEST_PATTERN:
        shown["hu_pattern"] = score.patterns[0].name if score.patterns else None
        shown["hu_bonuses"] = tuple(f"{b.name} {b.points}" for b in score.bonuses)
    return shown


def _result(deal: Deal | None, s: Seat, deltas: Sequence[int], settled: bool) -> dict[str, Any]:
    """A finished deal's standing tiles (every seat's, winners' too) and its change, which
    the total already holds once it is settled."""
    if deal is None or not deal.over:
        return {}
    return {
        "hand": tuple(str(t) for t in deal.hand(s)),
        "deal_change": deltas[s] if settled else None,
    }


def _prevalent(deal: Deal | None) -> str | None:
    """The round wind, shown where the tiles have winds (136-tile sets)."""
    if deal is None or not deal.rs.tiles.set.contains(Tile.EAST):
        return None
    return deal.prevalent.name


def _settled(facts: TableFacts, deal: Deal) -> bool:
    """The deal's payments are in the session totals: the daemon settles a deal as soon as
    it is over (controller/daemon/runtime.py), before it publishes again; only a restart
    can find one over and not yet settled (phase `deal_over`)."""
    return deal.over and facts.phase != "deal_over"


class ResultScreen:
    """Keeps a finished deal on the public feed: its view (hands, ledger, changes) stays
    until the next deal's play begins — its first draw, or the dealer's first discard
    (the dealer starts with 14 tiles) — however fast the table shuffles, with the table's
    phase, sequence number and referee flag kept current. Core thread only."""

    def __init__(self) -> None:
        self._held: PublicView | None = None

    def hold(self, view: PublicView) -> None:
        """Show `view`, a finished deal's, from now on (a restart restores the result)."""
        if view.end is not None:
            self._held = view

    def shown(self, live: PublicView, deal: Deal | None) -> PublicView:
        if live.end is not None:
            self._held = live
            return live
        held = self._held
        if held is None or (deal is not None and _in_play(deal)):
            self._held = None
            return live
        return replace(
            held,
            phase=live.phase,
            seq=live.seq,
            referee_called=live.referee_called,
            claim_remaining_s=None,
            waiting_for=live.waiting_for,
            phase_text=live.phase_text,
        )


def _in_play(deal: Deal) -> bool:
    return any(isinstance(m, mv.Draw | mv.Discard) for m in deal.history)


def hand_views(facts: TableFacts, deal: Deal | None) -> tuple[HandView, ...]:
    """Every seat's standing tiles, void, waits and theoretical maximum, as `mjtable waits`
    computes them (`rules.scoring.waits_and_maximum`: the rule set's `exhausted-wait`, the
    Wellness winds)."""
    return () if deal is None else _hands(deal, facts.dealer)


def _hands(deal: Deal, dealer: Seat) -> tuple[HandView, ...]:
    return tuple(_hand(deal, deal_seat(side, dealer), side) for side in SEATS)


def _hand(deal: Deal, s: Seat, side: Seat) -> HandView:
    """Seat `s`'s hand (deal seat; `side` the table's)."""
    void = deal.void(s)
    hand = deal.hand(s)
    found: Sequence[Tile] = ()
    best = 0
    if len(hand) % 3 == 1 and not deal.is_out(s):
        found, best = waits_and_maximum(
            deal.counts(s),
            deal.melds(s),
            void,
            deal.rs,
            seat_wind=s,
            prevalent_wind=deal.prevalent,
        )
    return HandView(
        seat=side.name,
        standing=tuple(str(t) for t in hand),
        void=None if void is None else void.value,
        waits=tuple(str(t) for t in found),
        max_value=best,
    )


class SeatHands:
    """Every seat's hand view as `hand_views` makes it, each made again only when what it is
    made of changed: a move changes one or two seats' hands, and the waits of the others are
    not looked for again. Core thread only."""

    def __init__(self) -> None:
        self._made: dict[Seat, tuple[tuple[Any, ...], HandView]] = {}

    def views(self, deal: Deal, dealer: Seat) -> tuple[HandView, ...]:
        out = []
        for side in SEATS:
            s = deal_seat(side, dealer)
            key: tuple[Any, ...] = (deal.rs, deal.prevalent, s, deal.hand(s), deal.melds(s))
            key += (deal.void(s), deal.is_out(s))
            made = self._made.get(side)
            if made is None or made[0] != key:
                made = self._made[side] = key, _hand(deal, s, side)
            out.append(made[1])
        return tuple(out)


def referee_view(
    public: PublicView,
    facts: TableFacts,
    deal: Deal | None,
    alerts: Sequence[AlertView],
    tail: Sequence[str],
    call: dict[str, Any] | None = None,
    corrections: Sequence[CorrectionView] = (),
    heads: Sequence[dict[str, Any]] = (),
    settled: tuple[int, Sequence[CorrectionView]] = (0, ()),
    hands: tuple[HandView, ...] | None = None,
    settled_number: int = 0,
) -> RefereeView:
    """The referee's view; `hands`: `hand_views(facts, deal)` made already."""
    wall: tuple[str, ...] = ()
    if deal is not None:
        wall = tuple(str(deal.wall.order[i]) for i in deal.wall.remaining())
    return RefereeView(
        public,
        hand_views(facts, deal) if hands is None else hands,
        wall,
        tuple(alerts),
        tuple(tail),
        call,
        tuple(corrections),
        tuple(heads),
        settled[0],
        tuple(settled[1]),
        settled_number=settled_number,
        chows=deal is not None and deal.rs.play.chow_claims,
    )


def broadcast_view(
    public: PublicView,
    facts: TableFacts,
    deal: Deal | None,
    t: float,
    hands: tuple[HandView, ...] | None = None,
) -> BroadcastView:
    """`public` as the hall sees it; the hands only when it shows `deal` (not while a
    finished deal's result is held on screen: its hands are in `public` already); `hands`:
    `hand_views(facts, deal)` made already."""
    if public.deal != facts.deal_no:
        return BroadcastView(public, (), t)
    return BroadcastView(public, hand_views(facts, deal) if hands is None else hands, t)
