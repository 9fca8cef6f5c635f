"""A deal's life at the table: the shuffle, the wall scan and the dice start the judge, the
dealt hands may move the dealer, draws confirm the scanned wall, the end is settled."""

from __future__ import annotations

import copy
import logging
from collections.abc import Mapping
from typing import Any

from controller.alerts import AlertKind
from controller.daemon import machine as m
from controller.daemon.contracts import (
    ENDS,
    tail_line,
)
from controller.daemon.replay import session_totals
from controller.journal.payloads import (
    deal_seat,
    fixed_order,
    ledger_payload,
    table_seat,
    to_drawing,
)
from controller.journal.records import Correction, CorrectionAction, RecordKind, Source, Stamp
from controller.profiles import ZoneKind
from controller.recognition.wall_doubt import next_index, pair_of, swap_for, swapped
from rules import moves as mv
from rules.deal import Deal
from rules.record import next_dealer as record_next_dealer
from rules.seats import SEATS, Seat
from rules.wall import Dice

log = logging.getLogger(__name__)


class DealCycle:
    """A part of `Runtime` (the module's docstring says what it owns)."""

    def _shuffle(self, t: float) -> None:
        if self.machine.phase in m.INTERRUPTIONS:
            return
        self.board.shuffle_heard = True  # (boardless.py: a board's shuffle missed while down)
        if self.deal is not None and self.deal.window is not None:
            self._close_window("shuffle", t)  # the table moved on: the window's time is up
            if self.stopped is not None:
                return  # that closed the session's last deal: the daemon has stopped
        # a deal not ended stays for the referee: its missing moves or its end settle it
        # while the table plays the next (recovery.py `_overtaken`); the next deal's start
        # abandons it if nobody did (tiles campaign seed 501 deal 6: abandoned here, the
        # restart resumed it and the referee's end of it raised a MachineError)
        overtaken = self.deal is not None and not self.deal.over and not self._overtaken()
        if not self.machine.can("shuffle_started"):
            self._trigger("deal_ended")
        self._wall_scan = None
        self._uncertain = ()
        self._pending_dice = None
        self._hands_late = False
        if self.session is None:
            number, players = self.lineup.start(self._last_session)
            self.session = self._last_session = number
            self.settled_deltas = {}
            self._log(
                Source.DAEMON,
                RecordKind.SESSION_STARTED,
                {
                    "session": self.session,
                    "rules": self.rs.name,
                    "players": list(players.names),
                    "table": self.config.table,
                    **players.payload(),
                },
            )
        self.recogniser.new_deal(self.dealer)
        self._trigger("shuffle_started")
        self.bus.focus(self._wall_antennas)  # the walls are built: read the wall antenna
        if overtaken:
            self._call_overtaken()

    def _dice(self, t: float, dice: Dice, note: Mapping[str, object] | None = None) -> None:
        if not self.machine.can("dice_rolled"):
            self._alert(AlertKind.DICE, f"dice {dice} in phase {self.machine.phase}: ignored")
            return
        self._trigger("dice_rolled")
        self.bus.focus(None)  # the deal is dealt next: every antenna
        if self._wall_scan is None:
            # the wall antenna's last (empty) read may still be on its way: wait for it
            self._pending_dice = (t, dice, note or {})
            self._dice_judged_at = self.clock.monotonic()
            return
        self._start_deal(t, dice, note or {})

    def _start_deal(self, t: float, dice: Dice, note: Mapping[str, object]) -> None:
        """The scanned wall is known: the judge deals it."""
        self._pending_dice = None
        assert self._wall_scan is not None
        physical = tuple(tc.tile for tc in self._wall_scan)
        try:
            deal = Deal.start(self.rs, dice, physical, prevalent=self.config.prevalent)
        except ValueError as err:
            self._alert(
                AlertKind.BAD_WALL_SCAN,
                f"the scanned wall cannot be dealt: {err}",
                severity="error",
            )
            return
        self._begin_deal(
            t,
            dice,
            deal,
            {
                "wall": [str(x) for x in to_drawing(self.rs, dice, physical)],
                "wall_copies": [str(tc) for tc in self._wall_scan],
                **({"wall_uncertain": list(self._uncertain)} if self._uncertain else {}),
                **note,  # dice read off the dealt hands (boardless.py)
            },
        )

    def _start_from_hands(self) -> None:
        """No wall antenna: the judge starts from the dealt hands as the reader sees them
        (`Deal.start_dealt`, every other wall position unknown), once every hand holds its
        13 or 14 tiles and no other zone holds any. `deal.started` is journalled then, after
        the dealing, with `wall: null` and the `hands` (fixed seats), which replay needs."""
        assert self._pending_dice is not None
        t, dice, _ = self._pending_dice
        hands = dealt_hands(self.debouncer.presence(), self.dealer)
        if hands is None:
            return
        try:
            deal = Deal.start_dealt(self.rs, dice, hands, prevalent=self.config.prevalent)
        except ValueError as err:
            self._alert(
                AlertKind.BAD_HANDS, f"the dealt hands cannot be dealt: {err}", severity="error"
            )
            self._pending_dice = None
            return
        self._pending_dice = None
        fixed = {table_seat(s, self.dealer).name: [str(x) for x in hands[s]] for s in SEATS}
        self._begin_deal(t, dice, deal, {"wall": None, "hands": fixed})

    def _begin_deal(self, t: float, dice: Dice, deal: Deal, wall: Mapping[str, Any]) -> None:
        if self._overtaken():  # the referee did not end it while the table shuffled
            self._alert(
                AlertKind.DEAL_ABANDONED,
                f"deal {self.deal_no + 1} starts: deal {self.deal_no} stays unsettled",
                severity="error",
            )
            self.referee_answered()
        number = self.next_deal
        self._log(
            Source.DAEMON,
            RecordKind.DEAL_STARTED,
            {
                "deal": number,
                "rules": self.rs.name,
                "dealer": self.dealer.name,
                "dice": [dice.a, dice.b],
                "prevalent": deal.prevalent.name,
                "players": list(self.lineup.now.names),
                "session": self.session,
                **wall,
            },
            deal=number,
            t=t,
        )
        self._started_seq = self.seq
        self.deal, self.deal_no, self.next_deal = deal, number, number + 1
        self._dealt_by = self.dealer
        self.claims.new_move()
        self._trigger("dealing_started")
        self.recognised(self.recogniser.start_deal(deal), t)

    def _dealer_moved(self, side: Seat) -> None:
        """The dealt hands show the dealer at `side`: after a deal the daemon lost (a kill,
        an abandoned deal) its idea of the next dealer can be wrong, and the table is right.
        Journalled as a `dealer` correction of `deal.started` (every reader of the journal
        takes it), and seats are mapped from that side from here on (issue 13 item 7)."""
        if self.deal is None or self.deal.history or side is self._dealt_by:
            return
        was = self._dealt_by
        correction = Correction(
            self._started_seq,
            "daemon",
            CorrectionAction.DEALER,
            f"the dealt hands show the dealer at side {side}, not {was}",
            {"dealer": side.name},
        )
        stamp = Stamp(self.clock.monotonic(), self.clock.wall())
        record = self.journal.append_correction(correction, source=Source.DAEMON, at=stamp)
        self.journalled(record)
        self.dealer = self._dealt_by = side

    def _reorder_wall(self, deal: Deal, move: mv.Move) -> bool:
        """A draw the judge refuses as WALL_MISMATCH that fits the wall with an uncertain
        pair of the scan swapped (controller/recognition/wall_doubt.py): the judge is
        re-judged on that order, and the draw's `move.accepted` records it (`wall_check`)."""
        if not isinstance(move, mv.Draw | mv.ReplacementDraw):
            return False
        trial = deal
        if deal.window is not None:  # the draw closes the window first
            trial = copy.deepcopy(deal, {id(deal.rs): deal.rs})
            if not trial.apply(mv.CloseClaims()):
                return False
        if trial.check(move) is None or trial.check(move).reason is not mv.Reason.WALL_MISMATCH:
            return False
        found = swap_for(trial, self._uncertain, move)
        if found is None:
            return False
        i = found.index
        if i not in self._uncertain:  # a pair the scan did not mark: the draw journals it too
            self._uncertain = tuple(sorted((*self._uncertain, i)))
        order = swapped(deal.wall_order, i)
        self.deal = Deal.replay(self.rs, deal.dice, order, deal.history, prevalent=deal.prevalent)
        self.claims.forget()
        self._wall_check = {"positions": [i, i + 1], "order": "swapped"}
        log.info("wall positions %d and %d were the other way round: %s", i, i + 1, move)
        return True

    def _swap_dealt(self, i: int, why: str) -> None:
        """The dealt hands show scan positions i and i + 1 the other way round
        (controller/recognition/wall_doubt.py `dealt_swap`): the judge is re-judged on that
        order, and the next accepted move records it (`wall_check`), as a draw's swap is."""
        deal = self.deal
        if deal is None or deal.over:
            return
        order = swapped(deal.wall_order, i)
        try:
            self.deal = Deal.replay(
                self.rs, deal.dice, order, deal.history, prevalent=deal.prevalent
            )
        except ValueError:
            return  # an accepted void choice does not fit it: the referee is called as before
        self.claims.forget()
        self._wall_check = {"positions": [i, i + 1], "order": "swapped"}
        log.info("%s", why)

    def _confirm_wall(self, deal: Deal, move: mv.Move, payload: dict[str, Any]) -> None:
        """The first draw from an uncertain pair shows its order: journalled with the draw;
        a swap the dealt hands showed goes with the next accepted move."""
        check, self._wall_check = self._wall_check, None
        if isinstance(move, mv.Draw | mv.ReplacementDraw):
            i = pair_of(next_index(deal, move), self._uncertain)
            if i is not None:
                payload["wall_check"] = check or {"positions": [i, i + 1], "order": "scanned"}
                self._uncertain = tuple(j for j in self._uncertain if j != i)
                return
        if check is not None:
            payload["wall_check"] = check

    def session_deal(self) -> int:
        """The deal's number in its session (1, 2, ...; 0 before the first): the journal
        numbers deals across sessions, people count them in theirs."""
        n = self.deals_done
        if self.deal is not None:
            # a finished deal stays the view's deal (its result) until the next one is dealt,
            # through the shuffle: counted once settled (deals_done), not twice
            return n if self.deal.over and self.deal_no in self.settled_deltas else n + 1
        return n + 1 if self.machine.phase in BEFORE_PLAY else n

    def recheck_settled(self, now: float) -> None:
        """Every RECHECK_S: a settled deal of the open session corrected since (`mjtable
        correct` beside the running daemon) is re-judged, and the session totals, the views
        and the seat displays follow the corrected result."""
        if now - self._rechecked_at < RECHECK_S:
            return
        self._rechecked_at = now
        self._recheck_live()
        changed = False
        for number, deltas in list(self.settled_deltas.items()):
            newest = max((r.seq for r, _ in self.journal.corrections(number)), default=0)
            if newest <= self._corrections_seen.get(number, 0):
                continue
            self._corrections_seen[number] = newest
            # the referee tools' re-judging, imported only once a correction is made
            from controller.referee.session import corrected_deltas

            corrected = corrected_deltas(self.journal, number)
            if corrected is not None and corrected != deltas:
                self.settled_deltas[number] = corrected
                changed = True
                log.info("deal %d corrected (record %d): %s", number, newest, corrected)
        if changed:
            self.totals = list(session_totals(self.settled_deltas.values()))
            self._dirty = True
            self.show_scores()

    def _recheck_live(self) -> None:
        """A correction of the deal in progress appended beside the daemon (`mjtable correct`
        on the Pi, which checked it with the same trial as the referee page): the live judge
        is rebuilt with it, as after the page's actions (the daemon's own corrections are
        marked seen when written, `Runtime.journalled`)."""
        deal, number = self.deal, self.deal_no
        if deal is None or deal.over or not number:
            return
        found = self.journal.corrections(number)
        seen = self._corrections_seen.get(number, 0)
        fresh = [r for r, _ in found if r.seq > seen]
        if not fresh:
            return
        self._corrections_seen[number] = fresh[-1].seq
        for record in fresh:
            self.tail.append(tail_line(record))
        rebuilt = self.desk.rebuilt()
        if rebuilt is not None:
            log.info("deal %d corrected beside the daemon (record %d)", number, fresh[-1].seq)
            self.adopt(rebuilt)

    def _settle_deal(self) -> None:
        deal = self.deal
        assert deal is not None and deal.end is not None
        dealer = self.dealer
        deltas = fixed_order(deal.deltas(), dealer)
        winners = [table_seat(w.seat, dealer).name for w in deal.winners]
        nxt = table_seat(next_dealer(deal), dealer)
        payload = {
            "deal": self.deal_no,
            "winners": winners,
            "deltas": list(deltas),
            "ledger": ledger_payload(deal.ledger().lines, dealer),
            "end": ENDS[deal.end].value,
            "next_dealer": nxt.name,
            "false_hu": [table_seat(w.seat, dealer).name for w in deal.winners if w.false_hu],
        }
        record = self._log(Source.JUDGE, RecordKind.DEAL_SETTLED, payload, deal=self.deal_no)
        for s in SEATS:
            self.totals[s] += deltas[s]
        self.settled_deltas[self.deal_no] = (deltas[0], deltas[1], deltas[2], deltas[3])
        self._corrections_seen[self.deal_no] = record.seq
        self.dealer = nxt
        if self.machine.can("settlement_done"):
            self._trigger("settlement_done")
        else:  # the table shuffled before the deal was ended (Recovery._table_moved_on)
            log.info("deal %d settled in phase %s", self.deal_no, self.machine.phase)
        self.deals_done += 1
        self.publish()
        self.outputs.deal_settled(payload, record)
        if self.config.deals and self.deals_done >= self.config.deals:
            self.stop("deals")


RECHECK_S = 2.0  # how often the settled deals of the session are checked for corrections

# the phases of the next deal before its play: it is counted already
BEFORE_PLAY = ("shuffling", "walls_up", "dice_rolled", "dealing", "choosing_void")


def next_dealer(deal: Deal) -> Seat:
    """RULES.md: nobody won → the same dealer; the first Hu by one player → that player;
    by several on one discard → the discarder, or as the rule set's `dealer.multiple-hu`
    says (Wellness, 001 IV 1.2). A false Hu does not count. Deal seats (rules.record)."""
    return record_next_dealer(deal)


def dealt_hands(presence: Mapping[Any, Any], dealer: Seat) -> dict[Seat, tuple[Any, ...]] | None:
    """The dealt hands (deal seats) when the tiles on the table are exactly a deal: every
    tile in a hand zone, East (the dealer's side) 14, the others 13; else None."""
    hands: dict[Seat, list[Any]] = {s: [] for s in SEATS}
    for tc, zone in presence.items():
        if zone.kind is not ZoneKind.HAND or zone.seat is None:
            return None  # a tile in a river, a meld, the void spot: not a fresh deal
        hands[deal_seat(zone.seat, dealer)].append(tc.tile)
    if any(len(hands[s]) != (14 if s is Seat.E else 13) for s in SEATS):
        return None
    return {s: tuple(sorted(hands[s])) for s in SEATS}
