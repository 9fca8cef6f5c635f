"""What the core publishes, as functions of what it knows: each audience's view (the hall's,
the referee's, the broadcast) from the table's facts and the judge, and after a restart the
settled deal's result shown again (the views themselves are built in views.py)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from controller.daemon.views import (
    ResultScreen,
    TableFacts,
    broadcast_view,
    public_view,
    referee_view,
)
from controller.journal.records import JournalError
from controller.journal.store import Journal
from controller.outputs.view import (
    AlertView,
    BroadcastView,
    CorrectionView,
    PublicView,
    RefereeView,
)
from rules.deal import Deal

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
    call: dict[str, Any] | None
    corrections: Sequence[CorrectionView]
    heads: Sequence[dict[str, Any]]
    settled: tuple[int, Sequence[CorrectionView]]


@dataclass(frozen=True, slots=True)
class Published:
    """One publication: the hall's view (a settled deal may stay on it a while, `screen`),
    the referee's (built on the live view) and the broadcast."""

    public: PublicView
    referee: RefereeView
    broadcast: BroadcastView


def live_view(facts: TableFacts, deal: Deal | None, count: SessionCount) -> PublicView:
    """The public view of the table as it is now, the deal counted in its session."""
    return replace(public_view(facts, deal), session_deal=count.deal, session_deals=count.deals)


def views(
    facts: TableFacts,
    deal: Deal | None,
    count: SessionCount,
    screen: ResultScreen,
    desk: DeskFacts,
    now: float,
) -> Published:
    live = live_view(facts, deal, count)
    public = screen.shown(live, deal)  # the hall: a settled deal stays a while
    referee = referee_view(
        live,
        facts,
        deal,
        tuple(desk.alerts),
        tuple(desk.tail),
        desk.call,
        desk.corrections,
        tuple(desk.heads),
        desk.settled,
    )
    return Published(public, referee, broadcast_view(public, facts, deal, now))


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
