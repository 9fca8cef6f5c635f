"""Seat buttons read as declarations: Hu, Pung, Kong, Pass, the void buttons and CHOW, held
when pressed for a discard not read yet and released after it (docs/RECOGNITION.md)."""

from __future__ import annotations

import logging

from controller.alerts import AlertKind
from controller.devices.events import Button, SeatButton
from controller.profiles import ZoneKind
from controller.recognition.expected import (
    Spot,
    Tally,
)
from controller.recognition.readings import Reading
from controller.recognition.reconcile import fork
from controller.recognition.results import (
    VOID_SUIT,
    MoveSeen,
    PendingChow,
    Recognised,
    RefereeAlert,
    chow_starts,
)
from rules.claims import WindowKind
from rules.deal import Deal
from rules.deal_state import Phase
from rules.hand import waits
from rules.melds import MeldKind
from rules.moves import (
    ChooseVoid,
    Chow,
    CloseClaims,
    Discard,
    Hu,
    Kong,
    Move,
    Pass,
    Pung,
    RobKong,
    SelfDrawnHu,
)
from rules.seats import Seat
from rules.tiles import Tile

log = logging.getLogger(__name__)


class Declarations:
    """A part of `Recogniser` (the module's docstring says what it owns)."""

    def on_button(self, press: SeatButton, deal: Deal | None) -> list[Recognised]:
        return self._declared_by(press, f"button {press.button.name}", deal)

    def _declared_by(self, press: SeatButton, what: str, deal: Deal | None) -> list[Recognised]:
        """A declaration from any source (a button, a card: `card_declarations.py`), read
        as the button it stands for; `what` names the source in the evidence."""
        seat = self.layout.seat(press.seat)
        note = f"{press.seat} (deal {seat}) {what} at {press.t:.3f}"
        if deal is None or deal.over:
            return [RefereeAlert(AlertKind.UNRECOGNISED, seat, f"{note}: no deal", (note,))]
        if self._early(press.button, seat, deal):
            # a claim pressed before the discard settled on the reader (RFID is slower
            # than a finger): held until the discard is read, then offered after it
            self._held.append((press.t, seat, press.button, f"{note} (before the discard)"))
            return self._evaluate(deal, press.t)
        if press.button is Button.CHOW:
            return self._chow(seat, deal, press.t, note) + self._evaluate(deal, press.t)
        move = self._declaration(press.button, seat, deal, press.t)
        out: list[Recognised] = []
        if move is not None:
            out.append(MoveSeen(move, (note,)))
            out += self._if_false_hu(deal, move, note)
            return out
        return self._evaluate(deal, press.t)

    def _declaration(self, button: Button, seat: Seat, deal: Deal, t: float) -> Move | None:
        """The move a button declares, or None when its tiles are still to come."""
        w = deal.window
        if button in VOID_SUIT:
            suit = VOID_SUIT[button]
            held = sorted(t for t in deal.hand(seat) if t.suit is suit)
            if held and self.layout.zone(ZoneKind.VOID, seat) is not None:
                return None  # the laid tile will show which one
            # no void spot: the button is all there is; the lowest tile is taken as laid
            return ChooseVoid(seat, suit, held[0] if held else None)
        if button is Button.HU:
            if deal.phase is Phase.DISCARD and deal.turn is seat:
                return SelfDrawnHu(seat)
            return RobKong(seat) if w is not None and w.kind is WindowKind.ROBBING else Hu(seat)
        if button is Button.PUNG:
            return Pung(seat)
        if button is Button.PASS:
            return Pass(seat)
        if w is not None and w.kind is WindowKind.DISCARD and not self._draws_next(seat, deal):
            return Kong(seat, MeldKind.KONG, w.tile)
        if w is not None and w.kind is WindowKind.DISCARD:
            # the next to draw, who cannot claim this discard: its own kong after the draw,
            # the window closing on the timer meanwhile (a 10/10/2 campaign, seed 310 deal
            # 31: the press was held, offered as a melded kong and refused, the referee called)
            self._kong_button[seat] = t
            return None
        if deal.turn is seat and deal.phase in (Phase.DISCARD, Phase.DRAW, Phase.REPLACEMENT):
            # its own kong, to be read from the tiles (pressed before its draw was read: the
            # drawn tile may go straight to the melds, 10/10/2 campaign seed 310 deal 14)
            self._kong_button[seat] = t
            return None
        return Kong(seat, MeldKind.KONG)  # no window and not its turn: the judge says why

    @staticmethod
    def _draws_next(seat: Seat, deal: Deal) -> bool:
        """`seat` cannot take the open discard as a kong and is the one to draw after it."""
        w = deal.window
        if w is None or deal.check(Kong(seat, MeldKind.KONG, w.tile)) is None:
            return False
        trial = fork(deal)
        return bool(trial.apply(CloseClaims())) and trial.turn is seat and trial.phase is Phase.DRAW

    def _chow_options(self, seat: Seat, deal: Deal) -> tuple[Chow, ...]:
        return tuple(m for m in deal.admissible_claims().get(seat, ()) if isinstance(m, Chow))

    def _chow(self, seat: Seat, deal: Deal, t: float, note: str) -> list[Recognised]:
        """A CHOW button: the one chow it can be, offered; several, the laid tiles will
        say (`_chow_readings`); none, the referee is told why (the judge's reason)."""
        options = self._chow_options(seat, deal)
        if len(options) == 1:
            return [MoveSeen(options[0], (note,))]
        w = deal.window
        if options:
            assert w is not None
            self._chow_button[seat] = PendingChow(t, w.tile, options, note)
            return []
        if w is None or w.kind is not WindowKind.DISCARD:
            why = "no discard is open to claims"
        else:
            tries = [Chow(seat, low) for low in chow_starts(w.tile)] or [Chow(seat, w.tile)]
            problems = [p for p in map(deal.check, tries) if p is not None]
            why = str(problems[0]) if problems else "no chow fits"
            why = f"{w.discarder}'s {w.tile}: {why}"
        text = f"{seat} pressed CHOW, no chow is possible ({why}); nothing offered"
        return [RefereeAlert(AlertKind.UNRECOGNISED, seat, text, (note,))]

    def _chow_readings(self, deal: Deal, res: Tally) -> list[Reading]:
        """A pending CHOW and the two tiles the player laid in the melds (or, without a
        melds antenna, took from the hand) that make one of its chows with the discard."""
        out: list[Reading] = []
        for seat, pending in self._chow_button.items():
            hz = self.layout.zone(ZoneKind.HAND, seat)
            mz = self.layout.zone(ZoneKind.MELDS, seat)
            if hz is None and mz is None:
                continue
            for chow in pending.options:
                laid = [x for x in (Tile(chow.tile + i) for i in range(3)) if x is not pending.tile]
                spots: set[Spot] = set()
                for x in laid:
                    if mz is not None and res.get(Spot(mz, x), 0) < 1:
                        break
                    if hz is not None and res.get(Spot(hz, x), 0) > -1:
                        break
                    spots |= {Spot(z, x) for z in (hz, mz) if z is not None}
                else:
                    out.append(Reading(seat, (chow,), frozenset(spots), Button.CHOW))
        return out

    def _early(self, button: Button, seat: Seat, deal: Deal) -> bool:
        """A claim pressed before the discard it is for was read: held for `settle`."""
        if button not in (Button.HU, Button.PUNG, Button.KONG, Button.PASS, Button.CHOW):
            return False
        if deal.window is None:
            if deal.phase in (Phase.DRAW, Phase.REPLACEMENT, Phase.CHOOSING_VOID):
                # nothing is open to a claim and nobody holds 14: the press is for a draw and
                # a discard not read yet (the drawer's own HU is a self-drawn Hu to come; a
                # claim while voids are still to be read is for the dealer's first discard,
                # campaign seed 200 deal 71)
                return True
            return deal.phase is Phase.DISCARD and deal.turn is not seat
        if deal.window.discarder is seat:
            # nobody claims their own discard: the press is for the next discard, which the
            # reader has not settled yet (seed 505 deal 2: the third Hu, on the last discard)
            return True
        # a claim the open window refuses may be for the discard that follows it, not read
        # yet (seed 505 deal 8: S's pung of E's discard after E's pung, judged on the
        # pung's window: "S holds fewer than two 1p"); if none comes within `settle`, it
        # is offered as pressed and refused with the judge's reason
        if button is Button.CHOW:
            return not self._chow_options(seat, deal)
        if button is Button.KONG and self._draws_next(seat, deal):
            return False  # its own kong to come (`_declaration`)
        move = self._declaration(button, seat, deal, 0.0)
        if move is None:
            return False
        return deal.check(move) is not None or self._for_a_later_discard(deal, move)

    def _for_a_later_discard(self, deal: Deal, move: Move) -> bool:
        """A HU this window would take only as a false Hu, from a hand that waits on some
        tile: most likely for a discard not read yet. After another player's pung or kong on
        it (a 10/10/2 campaign, seed 311 deal 1: W's HU for E's discard after E's pung was
        taken as a false Hu on the pung's window), or with the next draw and discard both
        unread (seed 310 deal 19: taken twice as a false Hu, the deal lost). A hand that waits
        on nothing declares a false Hu wherever it lands: taken at once."""
        w = deal.window
        if w is None or not isinstance(move, Hu | RobKong) or not self._false_hu(deal, move):
            return False
        seat = move.seat
        if any(isinstance(c, Pung | Kong) and s is not seat for s, c in w.declared):
            return True
        return bool(waits(deal.counts(seat), deal.melds(seat), deal.void(seat), deal.rs.tiles.set))

    def _held_hu_taken(self, deal: Deal, res: Tally) -> list[Recognised]:
        """A HU held as perhaps for a later discard (`_for_a_later_discard`) whose presser
        the tiles show taking the last discard into the hand: it was for that discard (a
        false Hu), offered now; the runtime judges it on its open window. Held for `settle`,
        a fast table played on and the next turns were read against the window closed
        without it (a recognition campaign at 0 % noise, seed 11 deals 15 and 21: the
        referee called on a clean table). `deal` is the deal tiles are read against: the
        window may be closed on it already (`ClaimClock._as_seen`)."""
        last = _last_discard(deal)
        if last is None:
            return []
        river = self.layout.zone(ZoneKind.RIVER, last.seat)
        if river is None or res.get(Spot(river, last.tile), 0) >= 0:
            return []  # the discard still lies in the river
        for held in [h for h in self._held if h[2] is Button.HU and h[1] is not last.seat]:
            t, seat, _, note = held
            hand = self.layout.zone(ZoneKind.HAND, seat)
            if hand is None or res.get(Spot(hand, last.tile), 0) <= 0:
                continue
            self._held.remove(held)
            note = note.replace(" (before the discard)", "")
            hu = Hu(seat)
            # one at a time: the runtime applies it, and the tiles are read again on it
            return [MoveSeen(hu, (note,), t), *self._if_false_hu(_window_open(deal), hu, note)]
        return []

    def _drawers_hu(self, deal: Deal, moves: tuple[Move, ...]) -> list[Recognised]:
        """A HU (or a KONG) the drawer pressed before its draw was read: its self-drawn Hu,
        offered right after the draw (its own kong, read from the tiles). Waiting out
        `settle` let a fast table play on meanwhile (a noisy e2e run, seed 202 deal 2: the
        Hu accepted 1 s late, the next draw, discard and pung all done, the judge never
        caught up)."""
        take = moves[-1]
        kongs = [h for h in self._held if h[1] is take.seat and h[2] is Button.KONG]
        mine = [h for h in self._held if h[1] is take.seat and h[2] is Button.HU]
        if not mine and not kongs:
            return []
        trial = fork(deal)
        for m in moves:
            if trial.window is not None and trial.check(m) is not None:
                trial.apply(CloseClaims())  # the draw closes the window it follows
            trial.apply(m)
        if kongs and any(isinstance(m, Kong) for m in trial.legal_moves(take.seat)):
            # a KONG the drawer pressed before its draw was read, and the draw makes a kong:
            # its own kong, read from the tiles at once (held for `settle`, it was read 1 s
            # late, the table played on; 10/10/2 seed 313 deal 7, a later HU taken as a
            # robbing one)
            for h in kongs:
                self._held.remove(h)
            self._kong_button[take.seat] = kongs[0][0]
        if not mine:
            return []
        for h in mine:
            self._held.remove(h)
        t, seat, _, note = mine[0]
        note = note.replace(" (before the discard)", "")
        hu = SelfDrawnHu(seat)
        return [MoveSeen(hu, (note,), t), *self._if_false_hu(trial, hu, note)]

    def _release_held(self, deal: Deal, moves: tuple[Move, ...]) -> list[Recognised]:
        """The held claims, after the move that opened their window (on a copy of the judge)."""
        held, self._held = self._held, []
        trial = fork(deal)
        for m in moves:
            if trial.window is not None and trial.check(m) is not None:
                trial.apply(CloseClaims())  # a turn move closes the window it follows
            trial.apply(m)
        out: list[Recognised] = []
        for t, seat, button, note in held:
            if button is Button.CHOW:
                said = self._chow(seat, trial, t, note)
                out += said
                for r in said:
                    if isinstance(r, MoveSeen):
                        trial.apply(r.move)
                continue
            move = self._declaration(button, seat, trial, t)
            if move is None:
                continue
            late = self._clock is None or self._clock - t >= self.settle
            refused = trial.check(move) is not None
            if not late and (refused or self._for_a_later_discard(trial, move)):
                # this window refuses it too: two discards were read late, and the claim is
                # for the later one (campaign seed 31 deal 4: E's HU for N's 4p was offered
                # on W's 3m window, refused as a void-suit claim, and the deal was lost)
                self._held.append((t, seat, button, note))
                continue
            out.append(MoveSeen(move, (note,), t))
            out += self._if_false_hu(trial, move, note)
            trial.apply(move)
        return out

    def _if_false_hu(self, deal: Deal, move: Move, note: str) -> list[Recognised]:
        """The referee's alert when a Hu declared is a false one (it is accepted as such)."""
        if not isinstance(move, Hu | RobKong | SelfDrawnHu) or not self._false_hu(deal, move):
            return []
        text = f"{move.seat} declared Hu without a winning hand (accepted as a false Hu)"
        return [RefereeAlert(AlertKind.FALSE_HU, move.seat, text, (note,))]

    @staticmethod
    def _false_hu(deal: Deal, move: Move) -> bool:
        return deal.check(move) is None and move not in deal.legal_moves(move.seat)


def _last_discard(deal: Deal) -> Discard | None:
    """The discard the deal's last turn ended with, while only its claim window (open, or
    closed with nothing claimed) follows it."""
    for m in reversed(deal.history):
        if isinstance(m, Discard):
            return m
        if not isinstance(m, CloseClaims | Pass):
            return None
    return None


def _window_open(deal: Deal) -> Deal:
    """`deal` with its last claim window open: as it is, or before the `CloseClaims` that
    reading the tiles as if it had closed added (`ClaimClock._as_seen`)."""
    history = deal.history
    if deal.window is not None or not history or not isinstance(history[-1], CloseClaims):
        return deal
    return Deal.replay(deal.rs, deal.dice, deal.wall_order, history[:-1], prevalent=deal.prevalent)
