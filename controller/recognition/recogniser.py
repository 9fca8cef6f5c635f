"""The recogniser: settled tile presence and seat buttons → moves offered to the deal judge,
and referee alerts where the table does not fit the rules (issue 5 items 2, 4, 6, 7;
interface: the daemon contract, docs/RECOGNITION.md).

It is the inverse of tools/sim/player.py. Every reading compares what the reader sees (tile
copy → zone) with what the judge says the table holds (controller.recognition.expected); the
difference, the *residue*, is read as a move only when it has the exact shape of one move:
a tile from a hand (or the void spot) into the river is a discard, a tile from nowhere into
the hand of the player due to draw is a draw, four tiles hand → melds after a KONG button a
concealed kong, and so on. Buttons are declarations: Hu, Pung, Kong, Pass in a window, Hu
and Kong on one's own turn, the void buttons. The judge decides legality (`Deal.check`):

- a tile move whose move the judge refuses raises an alert (WALL_MISMATCH for a draw that is
  not the next wall tile, VOID_DISCARD_ORDER under `strict`, UNRECOGNISED with the judge's
  reason otherwise) and is not offered;
- a residue that fits two moves raises AMBIGUOUS; one that fits nothing waits: tiles in
  transit are normal. After `settle` seconds a bounded search (controller.recognition.
  reconcile) tries to explain it by several moves (a read missed in between); after `grace`
  seconds what is left becomes alerts: DECLARATION_WITHOUT_TILES (a declared meld not laid
  down, a KONG button with no tiles), TILES_WITHOUT_DECLARATION (tiles in the melds with no
  declaration; WMT 000: both are yellow-card matters), LONG_HAND / SHORT_HAND, UNRECOGNISED;
- button declarations are always offered (the judge's rejection names the reason, e.g. a
  claim after the window closed); a Hu the judge will accept as false raises FALSE_HU with
  it (from a hand that waits on some tile, after `settle`: it may be for a discard not read).
  CHOW (rule sets that claim chows, 001 IV 2.1) names no tile: with one possible chow it is
  offered at once, with several the two tiles the player lays in the melds say which
  (tools/sim/player.py); a CHOW with no possible chow (not the next player, no such tiles)
  is an UNRECOGNISED alert giving the judge's reason, nothing is offered.

Tables without buttons (issue 18; the reader profile's `declarations`): tagged Win and void
cards are read as the buttons they stand for (controller.recognition.card_declarations), and
pungs, kongs and, with the tiles alone, a Hu laid open are read from the tiles
(controller.recognition.tile_declarations).

Seats: moves and alerts use deal seats (East = this deal's dealer); zones and buttons use the
table's physical sides: deal seat = (side - dealer_side) mod 4.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from controller.alerts import AlertKind
from controller.devices.events import Button, SeatButton, TagsRead
from controller.locale import Said, says
from controller.profiles import (
    Card,
    DeclarationSource,
    ReaderProfile,
    TagMap,
    TileCopy,
    Zone,
    ZoneKind,
)
from controller.recognition.alert_said import (
    EITHER,
    NOTED,
    OR,
    STEP,
    button_said,
    card_found,
    copy_said,
    listed,
    moves_said,
    reconciled,
    seat_said,
    several,
    side_said,
    suit_said,
    tally_said,
    waits_said,
)
from controller.recognition.card_declarations import Cards, declared as card_declared
from controller.recognition.declarations import Declarations, false_hu_alert
from controller.recognition.expected import (
    Layout,
    Spot,
    Tally,
    fmt_tally,
)
from controller.recognition.presence import (
    CardLifted,
    CardPlaced,
    DuplicateTile,
    TileLifted,
    TilePlaced,
    UnknownTag,
)
from controller.recognition.readings import Reader, Reading, orphan, shown
from controller.recognition.reconcile import explain, follow, fork
from controller.recognition.results import (
    ALERT_FOR,
    DEALT,
    DealerMoved,
    HandsDealt,
    MoveSeen,
    Recognised,
    RefereeAlert,
    WallScanned,
    WallSwapped,
)
from controller.recognition.table_seen import JudgeKey, TableSeen, judge_key
from controller.recognition.tile_declarations import (
    ClaimHold,
    claim_readings,
    false_hu_shown,
    hu_readings,
    is_tile_claim,
    silent_voids,
)
from controller.recognition.wall_checks import WallChecks, dealer_shown
from controller.recognition.watchdog import StallWatch
from controller.words import tile_said
from rules.deal import Deal
from rules.deal_state import Phase
from rules.moves import (
    Chow,
    CloseClaims,
    Correction,
    Discard,
    Draw,
    Kong,
    Move,
    Reason,
    Rejected,
    ReplacementDraw,
    SelfDrawnHu,
)
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat
from rules.tiles import Tile

log = logging.getLogger(__name__)

# the zones a player takes tiles from on its own turn (`Recogniser._in_transit`)
_MOVED_ON_TURN = frozenset({ZoneKind.HAND, ZoneKind.VOID})

ResidueKey = frozenset[tuple[Spot, int]]  # a residue, as a set

__all__ = [
    "DealerMoved",
    "HandsDealt",
    "MoveSeen",
    "Recognised",
    "Recogniser",
    "RefereeAlert",
    "WallScanned",
    "WallSwapped",
]


class Recogniser:
    """One deal's table read against the judge: moves offered, referee alerts raised. It owns
    its parts: the table as seen (`TableSeen`), the wall scan (`WallChecks`), the waiting
    declarations (`Declarations`), the cards (`Cards`) and the safety net (`StallWatch`)."""

    def __init__(
        self,
        rs: RuleSet,
        reader: ReaderProfile,
        tags: TagMap,
        *,
        grace: float = 5.0,
        settle: float = 1.0,
        max_steps: int = 8,
    ) -> None:
        self.rs = rs
        self.reader = reader
        self.tags = tags
        self.grace = grace  # a declaration's tiles, a long/short hand: then an alert
        self.settle = settle  # a residue this old is searched for several moves
        self.max_steps = max_steps
        self.wall = WallChecks(reader, tags)
        self.table = TableSeen(reader)
        self._clock: float | None = None  # the latest event time seen
        self.cards = Cards(settle)
        self.declarations = Declarations(settle, grace)
        d = reader.debounce
        self._claim_hold = ClaimHold((d.window + 1) * reader.round_interval)
        self._reset_deal()

    def _reset_deal(self) -> None:
        self._dealt = False
        self.declarations.new_deal()
        # (judge state, residue) when moves were offered: not read again until either changes
        self._offered: tuple[JudgeKey, ResidueKey] | None = None
        self._alerted: set[tuple[AlertKind, Seat | None, Said, ResidueKey | None]] = set()
        self._residue_key: ResidueKey | None = None
        self._residue_since: float | None = None
        self._searched: tuple[JudgeKey, ResidueKey | None] | None = None
        self._logged: ResidueKey | None = None
        self._undone: ResidueKey | None = None  # the residue a referee correction left
        # the moves a referee cancelled: not read again until the judge takes another move
        self._held_back: frozenset[Move] = frozenset()
        self._read_at: float | None = None  # when the tiles last showed a move (`_offer`)
        self._watch = StallWatch(self.grace)
        # the open claim window's buttons went unheard for a while (`buttons_unheard`)
        self._unheard_window = False

    @property
    def layout(self) -> Layout:
        """Deal seats ↔ the table's sides, and the zones the reader watches."""
        return self.table.layout

    # -- the deal's life ----------------------------------------------------------------
    def new_deal(self, dealer_side: Seat) -> None:
        self.table.new_deal(dealer_side)
        self.wall.new_deal()
        self.cards.new_deal()
        self._reset_deal()

    def on_wall_read(self, read: TagsRead) -> list[Recognised]:
        return self.wall.on_wall_read(read)

    def start_deal(self, deal: Deal) -> list[Recognised]:
        self._watch.dealing_starts()
        log.debug(
            "deal started: %d tiles on the table, residue %d",
            len(self.table.where),
            sum(abs(n) for n in self.table.residue(deal).values()),
        )
        return self.wall.at_start(deal) + self._evaluate(deal, None)

    def holds_window(self) -> bool:
        """(added) A CHOW button that fits several chows waits for its tiles: the runtime
        keeps the claim window open meanwhile (`tick` gives up after `grace`)."""
        return self.declarations.holds_window()

    def on_wall_doubt(self, uncertain: tuple[int, ...]) -> None:
        """(added) The scan's pairs of unknown order, after a restart: the runtime journalled
        them in `deal.started` (`wall_uncertain`), the scan itself is not replayed."""
        self.wall.on_wall_doubt(uncertain)

    def on_tag_alert(self, alert: UnknownTag | DuplicateTile) -> list[Recognised]:
        """The debouncer's alerts as referee alerts (an addition to the contract)."""
        if isinstance(alert, UnknownTag):
            said = says("unknown tag {uid} at {t}", uid=alert.uid.hex(), t=format(alert.t, ".3f"))
            return [RefereeAlert(AlertKind.UNKNOWN_TAG, None, said)]
        uids = ", ".join(u.hex() for u in alert.uids)
        said = says(
            "{copy} under two tags ({uids}) at {t}",
            copy=copy_said(TileCopy(alert.tile, alert.copy)),
            uids=uids,
            t=format(alert.t, ".3f"),
        )
        return [RefereeAlert(AlertKind.DUPLICATE_TILE, None, said)]

    # -- inputs ----------------------------------------------------------------------------
    def on_presence(
        self, change: TilePlaced | TileLifted | CardPlaced | CardLifted, deal: Deal | None
    ) -> list[Recognised]:
        if isinstance(change, CardPlaced | CardLifted):
            # (issue 18) read against the real deal, as buttons are (the runtime passes it)
            pressed = self.cards.on_card(change, self.layout, self._dealt)
            return [] if pressed is None else self._declared_by(pressed.press, pressed.what, deal)
        self.table.place(change)
        return self._evaluate(deal, change.t)

    def on_button(self, press: SeatButton, deal: Deal | None) -> list[Recognised]:
        return self._declared_by(press, button_said(press.button), deal)

    def _declared_by(self, press: SeatButton, what: Said, deal: Deal | None) -> list[Recognised]:
        """A declaration from any source (a button, a card), read as the button it stands
        for (controller.recognition.declarations); the tiles are read again after it."""
        said = self.declarations.declare(press, what, deal, self.layout)
        if not said.read_tiles:
            return list(said.said)
        return [*said.said, *self._evaluate(deal, press.t)]

    def cards_on_table(self, cards: Mapping[Card, Zone]) -> None:
        """(added) The cards the reader sees now, given before a reconciliation (the runtime
        after a restart or a reconnection): those laid meanwhile declare at it."""
        self.cards.cards_on_table(cards)

    def buttons_unheard(self, deal: Deal) -> None:
        """(added) The table's buttons went unheard while `deal`'s claim window was open
        (its cable was out, the daemon restarted; the runtime says so once the table is
        reconciled): a claim pressed then never reached the daemon, and the tiles laid
        after the reconciliation are all there is of it. Until that window closes, a pung or
        a melded kong is read from the tiles as well, as the reconciliation reads one and as
        on a table whose tiles declare (tile_declarations.py)."""
        self._unheard_window = deal.window is not None

    def _claims_from_tiles(self) -> bool:
        """Pungs and melded kongs are read from the tiles: the tiles declare, or the open
        window's buttons went unheard (`buttons_unheard`)."""
        return DeclarationSource.TILES in self.layout.sources or self._unheard_window

    def _cards_found(self, deal: Deal, t: float) -> list[Recognised]:
        """The declarations of the cards given by `cards_on_table` that the judge does not
        hold yet, applied to `deal` (a copy of the judge the reconciliation goes on from)."""
        out: list[Recognised] = []
        for f in self.cards.take_found(self.layout):
            if card_declared(deal, f.card, f.seat):
                continue  # declared before: the same card still lying there
            side = f.zone.seat
            assert side is not None  # a card declares at a seat's zone only (`take_found`)
            note = card_found(side, self.layout, f.card, f.zone)
            out += self.declarations.found(f.button, f.seat, note, deal, t, self.layout)
        return out

    def on_accepted(self, move: Move, deal: Deal) -> None:
        self._offered = None
        self._claim_hold.clear()
        self._watch.reset()
        self._alerted.clear()
        self._searched = None
        if not isinstance(move, Correction | CloseClaims):
            self._held_back = frozenset()  # the table played on: its tiles are read anew
        if isinstance(move, Correction):
            # the undone moves still lie on the table until the tiles are put back: they
            # must not be read again (000 3.6.A, a discard retrieved)
            self._undone = frozenset(self.table.residue(deal).items())
        self.declarations.accepted(move, deal)
        if deal.window is None or isinstance(move, Discard | Kong | Correction):
            self._unheard_window = False  # that window closed, or another opened
        if isinstance(move, Draw | ReplacementDraw):
            self.table.drawn(move.seat, move.tile)

    def taken_back(self, moves: Sequence[Move], deal: Deal) -> None:
        """(added) The referee cancelled `moves`: their tiles may still lie where they were
        read, and a tile read on and off there (crosstalk, missed reads) changes the residue
        at once, so waiting for the residue to change (`_undone`) is not enough: the same
        moves are not read again until the judge takes another move (10/10/2: a discard the
        judge added where the truth was a self-drawn Hu, cancelled by the referee and read
        again at once, before the Hu could be entered). A player who takes a discard back
        and discards that tile again is a call: its candidate enters it."""
        self._held_back = frozenset(replace(m, t=None) for m in moves)

    def _unheld(self, moves: Sequence[Move]) -> tuple[Move, ...]:
        """`moves` up to the first the referee cancelled (`taken_back`)."""
        out: list[Move] = []
        for m in moves:
            if replace(m, t=None) in self._held_back:
                break
            out.append(m)
        return tuple(out)

    def differences(self, deal: Deal) -> dict[tuple[Seat, str, Tile], int]:
        """What the reader shows minus what the judge expects, per deal seat, zone kind and
        tile (the residue), for the referee's candidates (controller/daemon/candidates.py)."""
        return self.table.differences(deal)

    def arrivals(self, deal: Deal) -> dict[tuple[Seat, str, Tile], float]:
        """When the tiles the reader shows beyond the judge came where they lie, keyed as
        `differences` (the candidates' order: the first discard of a seat the judge has not
        followed is the one that reached its river first)."""
        return self.table.arrivals(deal)

    # -- the clock: deadlines, the search, alerts after `grace`, the safety net ---------
    def tick(self, now: float, deal: Deal | None) -> list[Recognised]:
        if deal is None or deal.over:
            return []
        out = self._tick(now, deal)
        if not any(isinstance(r, MoveSeen) for r in out):
            out += self._stalled(now, deal)  # the safety net, when nothing else was said
        return out

    def _tick(self, now: float, deal: Deal) -> list[Recognised]:
        out: list[Recognised] = []
        since = self._residue_since
        old = since is not None and now - since >= self.grace
        if old and self._residue_key and self._logged != self._residue_key:
            self._logged = self._residue_key
            log.debug("residue since %.1f: %s", since, fmt_tally(self.table.residue(deal)))
        out += self.declarations.expire(now, deal, self.layout)
        # a residue first noticed now dates from the last event (the judge's change)
        out += self._evaluate(deal, None, now)
        self._clock = now
        if self._offered == (judge_key(deal), self._residue_key) or not self._residue_key:
            return out
        if self._residue_since is None:
            self._residue_since = now
        age = now - self._residue_since
        probe = (judge_key(deal), self._residue_key)
        if age >= self.settle and self._searched != probe and self._undone is None:
            found = self._search(deal)
            if any(isinstance(r, MoveSeen) for r in found):
                return out + found
            out += found
        if age >= self.grace:
            out += self._classify(deal, self.table.residue(deal))
        return out

    def _stalled(self, now: float, deal: Deal) -> list[Recognised]:
        """The safety net (controller.recognition.watchdog): the residue has stayed
        unexplained for `grace` seconds, however often it changed, and nothing was accepted."""
        if deal.over:
            return []
        res = self.table.residue(deal)
        hands = self.table.hands()
        # a dealing that stopped short arms it too: no tile has landed in a hand for a while
        # and the hands still differ from the judge (20 % missed reads: a deal whose hands
        # never matched the judge went by with no alert at all)
        slow = self._watch.dealing_stopped(now, hands)
        armed = self._dealt or bool(deal.history) or hands >= DEALT or slow
        age = self._watch.check(now, bool(res) and self._undone is None, armed)
        if age is None:
            return []
        said = says(
            "no move read for {age} s while the table differs from the judge, which waits "
            "for {waits}: {tally}",
            age=format(age, ".1f"),
            waits=waits_said(deal, self.layout),
            tally=tally_said(res),
        )
        return [RefereeAlert(AlertKind.STALLED, None, said, self.table.evidence(frozenset(res)))]

    def _search(self, deal: Deal) -> list[Recognised]:
        """Several moves read at once (a read missed in between): the bounded search, once
        per judge state and residue; only moves the table showed are offered."""
        self._searched = (judge_key(deal), self._residue_key)
        found = explain(deal, self.table.where, self.layout, max_steps=4)
        if found.outcomes > 1:
            ways = listed((moves_said(e.moves, self.layout, STEP) for e in found.explanations), OR)
            said = says(
                "{n} different move sequences fit the table: {ways}", n=found.outcomes, ways=ways
            )
            return self._alert(AlertKind.AMBIGUOUS, None, said, (), self._residue_key)
        declared = self.declarations.declared(self.layout)
        claims = self._claims_from_tiles()
        if found.outcomes == 1 and shown(found.explanations[0].moves, declared, claims):
            best = min(found.explanations, key=lambda e: len(e.moves))
            if len(self._unheld(best.moves)) < len(best.moves):
                return []  # a move the referee cancelled, read from the same tiles
            evidence = self.table.evidence(frozenset(self.table.residue(deal)), consume=True)
            evidence = (several(), *evidence)
            self._mark_offered(deal)
            out: list[Recognised] = [MoveSeen(m, evidence) for m in best.moves]
            out += self.declarations.release(deal, best.moves, self._clock, self.layout)
            return out
        return []

    def _classify(self, deal: Deal, res: Tally) -> list[Recognised]:
        out: list[Recognised] = []
        key = frozenset(res.items())
        left = dict(res)
        in_rivers = {s.tile for s, n in res.items() if s.zone.kind is ZoneKind.RIVER and n > 0}
        for seat in SEATS:
            side = self.layout.side(seat)
            mine = {s: n for s, n in res.items() if s.zone.seat == side}
            melds = {s: n for s, n in mine.items() if s.zone.kind is ZoneKind.MELDS}
            hands = {s: n for s, n in mine.items() if s.zone.kind is ZoneKind.HAND}
            hand = sum(hands.values())
            claimed = {s.tile for s, n in (*melds.items(), *hands.items()) if n < 0} & in_rivers
            ev = self.table.evidence(frozenset(mine))
            if any(n < 0 for n in melds.values()) or (claimed and hand < 0):
                said = says(
                    "{side}: declared, but the tiles did not follow ({tally})",
                    side=seat_said(side),
                    tally=tally_said(mine),
                )
                out += self._alert(AlertKind.DECLARATION_WITHOUT_TILES, seat, said, ev, key)
            elif any(n > 0 for n in melds.values()):
                said = says(
                    "{side}: tiles moved into the melds undeclared ({tally})",
                    side=seat_said(side),
                    tally=tally_said(melds),
                )
                out += self._alert(AlertKind.TILES_WITHOUT_DECLARATION, seat, said, ev, key)
            elif hand:
                kind = AlertKind.LONG_HAND if hand > 0 else AlertKind.SHORT_HAND
                said = says(
                    "{side} hand holds {n} tiles: {tally}",
                    side=seat_said(side),
                    n=format(hand, "+d"),
                    tally=tally_said(hands),
                )
                out += self._alert(kind, seat, said, ev, key)
            else:
                continue
            for s in (*melds, *hands):
                left.pop(s, None)
            for s in list(left):
                if s.zone.kind is ZoneKind.RIVER and s.tile in claimed:
                    left.pop(s)  # the claimed tile still lying in the discarder's river
        if left:
            said = says("the table differs from the judge: {tally}", tally=tally_said(left))
            out += self._alert(
                AlertKind.UNRECOGNISED, None, said, self.table.evidence(frozenset(left)), key
            )
        return out

    def reconcile(self, presence: Mapping[TileCopy, Zone], deal: Deal) -> list[Recognised]:
        self.table.reset(presence)
        self._dealt = self._dealt or bool(deal.moves)
        if deal.over:
            return []
        judge = deal
        cards: list[Recognised] = []
        if self.cards.any_found:  # the cards laid meanwhile declare first (card_declarations.py)
            carded = fork(deal)
            cards = self._cards_found(carded, self._clock or 0.0)
            if any(isinstance(r, MoveSeen) for r in cards):
                deal = carded
        if not self._dealt and all(n < 0 for n in self.table.residue(deal).values()):
            # restarted while the walls were being dealt: tiles are only still missing from
            # the hands, none is anywhere else; the dealing goes on and is read as it lands
            # (no RECOVERY alert for a half-dealt table, issue 13 item 3)
            return [*cards, *self._evaluate(deal, None)]
        # a table far ahead of the judge (a fast table, a missed read answered by the
        # referee): followed a step at a time as far as the tiles decide
        found = follow(deal, self.table.where, self.layout, self._since(), self.max_steps)
        note = (reconciled(),)
        if found.outcomes == 1:
            best = self._unheld(min(found.explanations, key=lambda e: len(e.moves)).moves)
            if best or cards:
                self._mark_offered(judge)
            return [*cards, *(MoveSeen(m, note) for m in best)]
        sure = self._unheld(found.common_prefix())
        out: list[Recognised] = [*cards, *(MoveSeen(m, note) for m in sure)]
        if sure or cards:
            self._mark_offered(judge)
        if not found.explanations:
            res = self.table.residue(deal)
            said = says(
                "no legal sequence of up to {n} moves explains the table: {tally}",
                n=self.max_steps,
                tally=tally_said(res),
            )
        else:
            alts = [moves_said(e.moves[len(sure) :], self.layout, STEP) for e in found.explanations]
            said = says(
                "{n} different outcomes fit the table: {ways}",
                n=found.outcomes,
                ways=listed(alts, OR),
            )
        out.append(RefereeAlert(AlertKind.RECOVERY, None, said, note))
        return out

    def ahead(self, deal: Deal) -> tuple[Move, ...]:
        """The moves the tiles show the table made beyond the judge, as far as they decide
        (`reconcile.follow` on the table as seen now), for the referee's call: its first
        candidate is the first of them. Nothing is offered to the judge."""
        if deal.over:
            return ()
        found = follow(deal, self.table.where, self.layout, self._since(), self.max_steps)
        if found.outcomes == 1:
            return self._unheld(min(found.explanations, key=lambda e: len(e.moves)).moves)
        return self._unheld(found.common_prefix())

    def _since(self) -> dict[TileCopy, float]:
        """When the tiles reached where they lie, as evidence of the order of the moves the
        judge has not followed: only since the tiles last showed a move. A tile lying where
        it is since before then is no evidence (10/10/2 seed 313 deal 43: a 5s read in the
        river by crosstalk for 30 s while it stood in the hand; its discard was taken for the
        first of that seat's discards, and the deal was followed wrong)."""
        after = self._read_at
        return {tc: t for tc, t in self.table.moved_at().items() if after is None or t > after}

    # -- reading the residue -------------------------------------------------------------
    def _evaluate(
        self, deal: Deal | None, t: float | None, now: float | None = None
    ) -> list[Recognised]:
        if t is not None:
            self._clock = t
        if deal is None or deal.over:
            return []
        res = self.table.residue(deal)
        key = frozenset(res.items())
        if self._offered == (judge_key(deal), key):
            return []  # the runtime has not applied what was offered yet
        if key != self._residue_key:
            self._residue_key, self._residue_since = key, self._clock
        if self._undone is not None:
            if key == self._undone:
                return []
            self._undone = None
        if not res:
            self._alerted.clear()
            if not self._dealt:
                self._dealt = True
                self.table.dealt()
                return [HandsDealt()]
            return []
        self._watch.start(self._clock)
        if not self._dealt and deal.phase is Phase.CHOOSING_VOID:
            dealer = dealer_shown(
                deal, self.table.where, self.table.seen, self.reader, self.layout.dealer_side
            )
            if dealer is not None:
                self.table.follow(dealer.layout, dealer.seen)
                return [*dealer.said, *self._evaluate(deal, None)]
            swap = self.wall.dealt_swap(deal, self.table.where, self.layout)
            if swap is not None:
                return [swap]  # the runtime re-judges on that wall; read again then
        if self.declarations.holding:
            taken = self.declarations.held_hu_taken(deal, res, self.layout)
            if taken:
                self._mark_offered(deal)
                return taken
        silent = silent_voids(self.layout, deal, res)
        if silent:
            self._mark_offered(deal)
            return list(silent)
        viable: list[Reading] = []
        refused: list[tuple[Reading, Rejected]] = []
        pending = self.declarations.kong_buttons
        readings = Reader(self.layout, self.table.where, self.table.new, pending).read(deal, res)
        readings += self.declarations.chow_readings(deal, res, self.layout)
        if self._claims_from_tiles():
            readings += claim_readings(self.layout, deal, res)
        if DeclarationSource.TILES in self.layout.sources:
            readings += hu_readings(self.layout, deal, res)
        explained = frozenset().union(*(r.spots for r in readings))
        # a kong laid before its KONG button was read: that player's other readings wait
        # for it too (the CI run under load: S's promoted kong, its replacement and its
        # discard; the discard was read alone and accepted, the kong was lost)
        undeclared = {
            r.seat
            for r in readings
            if r.button is Button.KONG
            and r.seat not in self.declarations.kong_declared(self.layout)
        }
        for r in readings:
            if len(self._unheld(r.moves)) < len(r.moves):
                continue  # a move the referee cancelled, read again from the same tiles
            if self._in_transit(res, r, explained):
                continue  # another tile of that player is in the air: it may change the reading
            if r.seat in undeclared:
                continue  # wait for the declaration; `tick` reports it after `grace`
            if self._part_of_more(r, readings):
                continue  # a kong's tiles are a part of a hand laid open (tiles only)
            if self._claim_hold.waits(
                self.layout, deal, res, r, self._clock if now is None else now
            ):
                continue  # a pung that may be a kong still being laid
            problem = self._judge(deal, r)
            if problem is None:
                viable.append(r)
            else:
                refused.append((r, problem))
        # a declared kong comes before that player's other moves (its replacement, the
        # discard after it): read together they were AMBIGUOUS and the deal stalled (a noisy
        # e2e run in CI, seed 101 deal 3: "fits Kong S concealed-kong 4s and Discard S 8s")
        kongs = {r.seat for r in viable if r.button is Button.KONG}
        viable = [r for r in viable if r.seat not in kongs or r.button is Button.KONG]
        searchable = self._undone is None and self._searched != (judge_key(deal), key)
        if not viable and searchable and orphan(res):
            found = self._search(deal)
            if any(isinstance(r, MoveSeen) for r in found):
                return found  # the refusals were moves read out of order
        out: list[Recognised] = []
        now = now if now is not None else self._clock
        since = self._residue_since
        if refused and (now is None or since is None or now - since < self.settle):
            refused = []  # a read settling late may still explain it: said after `settle`
        for r, problem in refused:
            kind = ALERT_FOR.get(problem.reason, AlertKind.UNRECOGNISED)
            said = says("{moves}: refused, {problem}", moves=self._say(r), problem=str(problem))
            out += self._alert(kind, r.seat, said, self.table.evidence(r.spots), key)
        claims = [r for r in viable if is_tile_claim(r.moves[0])]
        if deal.phase is Phase.CHOOSING_VOID or claims:
            # each seat's declaration is its own (several may claim one discard)
            groups = [[r for r in viable if r.seat is s] for s in SEATS]
        else:
            groups = [viable] if viable else []
        for group in groups:
            if len(group) == 1:
                out += self._offer(deal, group[0])
            elif group:
                # the tile that reached its river first is the discard made first (10/10/2
                # seed 311 deal 24: "7m or 7s", then "7s or 7m" for the same tiles; the first
                # button was the wrong one the second time)
                group.sort(key=self._arrival)
                said = says("fits {moves}", moves=listed(map(self._say, group), EITHER))
                spots = frozenset().union(*(r.spots for r in group))
                fits = tuple(r.moves[0] for r in group if len(r.moves) == 1)
                out += self._alert(
                    AlertKind.AMBIGUOUS, group[0].seat, said, self.table.evidence(spots), key, fits
                )
        return out

    def _arrival(self, r: Reading) -> float:
        """When the tile a reading finds in a river came there (`inf`: none, or not known)."""
        river = frozenset(s for s in r.spots if s.zone.kind is ZoneKind.RIVER)
        t = self.table.arrived_at(river) if river else None
        return math.inf if t is None else t

    def _mark_offered(self, deal: Deal) -> None:
        self._offered = (judge_key(deal), frozenset(self.table.residue(deal).items()))

    def _in_transit(self, res: Tally, r: Reading, explained: frozenset[Spot]) -> bool:
        """Another tile of that player's hand or void spot is in the air that no reading
        explains: it may change the reading (two tiles dropped into the river at once). A
        tile missing from a river or a melds zone does not hold a reading back: a player's
        own moves take tiles from the hand and the void spot, and the tiles lying in its
        river and melds leave them only by another player's claim, which is read on its own
        (10/10/2 seed 311 deal 58: missed reads of old river tiles held a discard back for
        the 0.14 s it lay in the river; the claimer then took it, nobody read it)."""
        side = self.layout.side(r.seat)
        return any(
            n < 0
            and spot.zone.seat == side
            and spot.zone.kind in _MOVED_ON_TURN
            and spot not in explained
            for spot, n in res.items()
        )

    def _offer(self, deal: Deal, r: Reading) -> list[Recognised]:
        evidence = self.table.evidence(r.spots, consume=True)
        swap_note = self.wall.swap_note(r.moves[0])
        if swap_note is not None:
            evidence = (*evidence, swap_note)
        out: list[Recognised] = [MoveSeen(m, evidence) for m in r.moves]
        move = r.moves[-1]
        if is_tile_claim(move) or isinstance(move, SelfDrawnHu):
            note = listed(evidence, NOTED)
            out += false_hu_alert(deal, move, note, self.layout) or false_hu_shown(
                deal, r.moves, note, self.layout
            )
        if isinstance(move, Discard) and self._void_breach(deal, move):
            void = deal.void(move.seat)
            assert void is not None  # a breach is of a void chosen
            said = says(
                "{seat} discarded {tile} while holding void-suit {suit} tiles (lenient)",
                seat=side_said(move.seat, self.layout),
                tile=tile_said(move.tile),
                suit=suit_said(void),
            )
            side = self.layout.side(move.seat)
            out.append(RefereeAlert(AlertKind.VOID_DISCARD_ORDER, side, said, evidence))
        out += self.declarations.offered(deal, r.moves, self._clock, self.layout)
        self._mark_offered(deal)
        # when the tiles of this move reached where they lie, not when it was read: a move
        # read late (a kong's tile at 7.7 s read at 8.7 s) must not make a later move's
        # tiles (a discard at 7.8 s) look older than it (10/10/2 seed 311 deal 98)
        arrived = self.table.arrived_at(r.spots)
        clock = self._clock
        self._read_at = (
            arrived if clock is None or (arrived is not None and arrived < clock) else clock
        )
        return out

    def _void_breach(self, deal: Deal, m: Discard) -> bool:
        void = deal.void(m.seat)
        if void is None or m.tile.suit is void:
            return False
        return any(t.suit is void for t in deal.hand(m.seat))

    def _part_of_more(self, r: Reading, readings: list[Reading]) -> bool:
        """Tiles only (`Layout.open_hands`): an own-turn kong, or a pung or kong of the
        discard, the tiles show that is a part of a hand laid open (a Hu with a pung or four
        of a kind) yields to the Hu. (Read while the hand is still being laid, the other
        tiles in the air hold it back.)"""
        if not self.layout.open_hands or not (
            r.button is Button.KONG or is_tile_claim(r.moves[-1])
        ):
            return False
        return any(o.seat is r.seat and r.spots < o.spots for o in readings)

    def _judge(self, deal: Deal, r: Reading) -> Rejected | None:
        if is_tile_claim(r.moves[0]) and deal.window is None:
            return None  # read as if the window had closed: the runtime judges the claim
        if isinstance(r.moves[0], Chow) and deal.window is None:
            # read against the deal as if the window had closed (the runtime's view while
            # it is open): the CHOW was admissible when pressed, the runtime judges it on
            # the real window
            return None
        problem = self._check(deal, r)
        if problem is not None and problem.reason is Reason.WALL_MISMATCH:
            if self.wall.fits_swapped(deal, r):
                return None  # the runtime re-judges on the swapped wall (wall_doubt.py)
            return Rejected(
                problem.reason, problem.detail + self.wall.scan_doubt(deal), problem.move
            )
        return problem

    def _check(self, deal: Deal, r: Reading) -> Rejected | None:
        if not r.closes:
            return deal.check(r.moves[0])
        take = r.moves[0]
        problem = deal.check(CloseClaims())
        if problem is not None:
            return problem
        assert isinstance(take, Draw | ReplacementDraw)
        nxt = deal.wall.peek() if isinstance(take, Draw) else deal.wall.peek_replacement()
        if take.tile != nxt:
            return Rejected(Reason.WALL_MISMATCH, f"the next wall tile is {nxt}, not {take.tile}")
        return None

    # -- helpers ---------------------------------------------------------------------------
    def _alert(
        self,
        kind: AlertKind,
        seat: Seat | None,
        said: Said,
        evidence: tuple[Said, ...],
        key: ResidueKey | None,
        fits: tuple[Move, ...] = (),
    ) -> list[Recognised]:
        """An alert about deal seat `seat` (None: the table), given by its side."""
        tag = (kind, seat, said, key)
        if tag in self._alerted:
            return []
        self._alerted.add(tag)
        self._watch.told()  # the referee knows the table differs: no STALLED for it
        side = None if seat is None else self.layout.side(seat)
        return [RefereeAlert(kind, side, said, evidence, fits)]

    def _say(self, r: Reading) -> Said:
        return moves_said(r.moves, self.layout)
