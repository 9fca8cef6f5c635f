"""What the core publishes, as functions of what it knows: each audience's view (the hall's,
the referee's, the broadcast) from the table's facts and the judge, and after a restart the
settled deal's result shown again (the views themselves are built in views.py). What a
view shows of the deal, and the referee call in JSON, are made once per change of the deal
or the call and kept for every publication until the next (`Publisher`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from controller.daemon.referee_call import RefereeCall
from controller.daemon.views import (
    DealShown,
    ResultScreen,
    SeatHands,
    TableFacts,
    broadcast_view,
    deal_shown,
    public_view,
    referee_view,
    seat_views,
    seats_key,
)
from controller.journal.records import JournalError
from controller.journal.store import Journal
from controller.outputs.view import (
    AlertView,
    BroadcastView,
    CorrectionView,
    PublicView,
    RefereeView,
    SeatView,
)
from rules.deal import Deal
from rules.seats import Seat

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SessionCount:
    """The deal's number in its session and the session's length ("Deal 3 of 10")."""

    deal: int
    deals: int


@dataclass(frozen=True, slots=True)
class DeskFacts:
    """What the referee's view shows beside the table: the alerts, the journal's tail, the
    standing call, the corrections, the settled deals' chain heads."""

    alerts: Sequence[AlertView]
    tail: Sequence[str]
    call: RefereeCall | None
    corrections: Sequence[CorrectionView]
    heads: Sequence[dict[str, Any]]
    settled: tuple[int, Sequence[CorrectionView]]
    settled_number: int = 0  # the settled deal as its session counts it


@dataclass(frozen=True, slots=True)
class Published:
    """One publication: the hall's view (a settled deal may stay on it a while, `screen`),
    the referee's (built on the live view) and the broadcast."""

    public: PublicView
    referee: RefereeView
    broadcast: BroadcastView


def live_view(
    facts: TableFacts,
    deal: Deal | None,
    count: SessionCount,
    shown: DealShown | None = None,
    seats: tuple[SeatView, ...] | None = None,
) -> PublicView:
    """The public view of the table as it is now, the deal counted in its session (`shown`:
    `deal_shown(deal, facts.dealer)`, `seats`: `seat_views(facts, deal)` made already)."""
    view = public_view(facts, deal, shown, seats)
    return replace(view, session_deal=count.deal, session_deals=count.deals)


class Publisher:
    """Every audience's view, made for each publication from the table's facts and the
    judge. What the views show of the deal (its ledger and the ledger's words, the last
    action, the hands and their waits: `views.DealShown`) is made once per change of the
    deal, each seat's hand and waits once per change of that hand (`views.SeatHands`), what
    the hall sees of a seat once per change of it (by a move, the players or the scores),
    and the referee call's JSON (its sentences) once per call: the core publishes after
    every record, most of which change none of them. The publications in between share
    these parts, and a move the ledger lines and sentences made before it when it paid
    nothing, so the broadcast views held for their delay (a few hundred in 30 s of a fast
    table) hold little each. A deal changes only by its accepted moves, each of which
    lengthens its history (a correction too), or by being replaced (the referee's rebuild,
    a wall reordered). Keeps the settled deal on the public feed a while (`screen`). Core
    thread only."""

    def __init__(self) -> None:
        self.screen = ResultScreen()
        self._deal: tuple[Deal, int, Seat] | None = None
        self._shown: DealShown | None = None
        self._hands = SeatHands()
        self._seats: tuple[Deal | None, tuple[Any, ...], tuple[SeatView, ...]] | None = None
        self._call: RefereeCall | None = None
        self._call_json: dict[str, Any] | None = None

    def shown(self, deal: Deal | None, dealer: Seat) -> DealShown | None:
        """What the views show of `deal` as it is now, `dealer` dealing it."""
        if deal is None:
            return None
        made = self._deal
        if made is None or made[0] is not deal or made[1:] != (len(deal.history), dealer):
            shown = deal_shown(deal, dealer, self._hands)
            last = self._shown
            if last is not None:  # most moves pay nothing: the ledger made before is taken
                ledger = last.ledger if last.ledger == shown.ledger else shown.ledger
                words = shown.ledger_words
                shown = replace(
                    shown,
                    ledger=ledger,
                    ledger_words=last.ledger_words if last.ledger_words == words else words,
                )
            self._deal, self._shown = (deal, len(deal.history), dealer), shown
        return self._shown

    def seats(self, facts: TableFacts, deal: Deal | None) -> tuple[SeatView, ...]:
        """What the hall sees of each seat now (`views.seat_views`)."""
        key = (-1 if deal is None else len(deal.history), *seats_key(facts, deal))
        made = self._seats
        if made is None or made[0] is not deal or made[1] != key:
            seats = seat_views(facts, deal)
            if made is not None:  # a move changes a seat or two: the others' are taken again
                seats = tuple(
                    old if old == new else new for old, new in zip(made[2], seats, strict=True)
                )
            made = self._seats = deal, key, seats
        return made[2]

    def call_json(self, call: RefereeCall | None) -> dict[str, Any] | None:
        """The standing call as the referee page reads it (frozen: one per change)."""
        if call is None:
            return None
        if call is not self._call:
            self._call, self._call_json = call, call.to_json()
        return self._call_json

    def live(self, facts: TableFacts, deal: Deal | None, count: SessionCount) -> PublicView:
        return live_view(
            facts, deal, count, self.shown(deal, facts.dealer), self.seats(facts, deal)
        )

    def public(self, facts: TableFacts, deal: Deal | None, count: SessionCount) -> PublicView:
        """The hall's view now (a settled deal may stay on it a while)."""
        return self.screen.shown(self.live(facts, deal, count), deal)

    def views(
        self,
        facts: TableFacts,
        deal: Deal | None,
        count: SessionCount,
        desk: DeskFacts,
        now: float,
    ) -> Published:
        shown = self.shown(deal, facts.dealer)
        live = live_view(facts, deal, count, shown, self.seats(facts, deal))
        public = self.screen.shown(live, deal)  # the hall: a settled deal stays a while
        hands = () if shown is None else shown.hands
        referee = referee_view(
            live,
            facts,
            deal,
            tuple(desk.alerts),
            tuple(desk.tail),
            self.call_json(desk.call),
            desk.corrections,
            tuple(desk.heads),
            desk.settled,
            hands,
            desk.settled_number,
        )
        return Published(public, referee, broadcast_view(public, facts, deal, now, hands))


def restored_result(
    journal: Journal, shown: int, facts: TableFacts, count: SessionCount
) -> PublicView | None:
    """After a restart: the open session's last settled deal (`shown`) as `ResultScreen`
    held it before, rebuilt from the journal with its corrections. None when the tools
    cannot rebuild it (a screen lost must not stop the table from starting)."""
    # the referee tools, imported only for a restart with a result to show again
    from controller.referee.journal_deal import read_deal
    from controller.referee.rebuild import rebuild

    try:
        rebuilt = rebuild(read_deal(journal, shown))
    except JournalError as err:
        log.info("the result of deal %d is not shown again: %s", shown, err)
        return None
    except Exception:
        log.exception("the result of deal %d could not be rebuilt", shown)
        return None
    if not rebuilt.deal.over:
        return None
    started = rebuilt.source.started
    facts = replace(facts, deal_no=shown, dealer=started.dealer, players=started.players)
    return live_view(facts, rebuilt.deal, count)
