"""Seat buttons read as declarations: Hu, Pung, Kong, Pass, the void buttons and CHOW, held
when pressed for a discard not read yet and released after it (docs/RECOGNITION.md)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from controller.alerts import AlertKind
from controller.devices.events import Button, SeatButton
from controller.locale import Said, says
from controller.profiles import DeclarationSource, ZoneKind
from controller.recognition.alert_said import declared, early, side_said
from controller.recognition.expected import Layout, Spot, Tally
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
from controller.words import tile_said
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
    Draw,
    Hu,
    Kong,
    Move,
    Pass,
    Pung,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
)
from rules.seats import SEATS, Seat
from rules.tiles import Tile

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class HeldClaim:
    """A claim pressed before the discard it is for was read (`Declarations._early`)."""

    t: float
    seat: Seat  # deal seat
    button: Button
    note: Said  # the declaration's evidence

    @property
    def early_note(self) -> Said:
        """The note until the claim is offered after its discard."""
        return early(self.note)


@dataclass(frozen=True, slots=True)
class Declared:
    """What a declaration says at once, and whether the tiles are to be read now (its tiles
    may follow it, or it waits for its discard)."""

    said: tuple[Recognised, ...]
    read_tiles: bool


class Declarations:
    """The declarations of one deal still waiting: KONG buttons and CHOW buttons for their
    tiles, claims held for their discard."""

    def __init__(self, settle: float, grace: float) -> None:
        self.settle = settle  # a held claim with no discard read this long is offered as is
        self.grace = grace  # a KONG or CHOW button with no tiles this long: an alert
        self.new_deal()

    def new_deal(self) -> None:
        self._kong_button: dict[Seat, float] = {}
        self._chow_button: dict[Seat, PendingChow] = {}
        self._held: list[HeldClaim] = []  # claims before their discard

    @property
    def kong_buttons(self) -> Mapping[Seat, float]:
        """The seats whose KONG button waits for its tiles, and when it was pressed."""
        return self._kong_button

    @property
    def holding(self) -> bool:
        """Claims are held for a discard not read yet."""
        return bool(self._held)

    def holds_window(self) -> bool:
        """A CHOW button that fits several chows waits for its tiles."""
        return bool(self._chow_button)

    def kong_declared(self, layout: Layout) -> set[Seat] | frozenset[Seat]:
        """The seats whose own-turn kong is declared: a KONG button pending, or every seat
        where the tiles are a declaration source (tile_declarations.py)."""
        if DeclarationSource.TILES in layout.sources:
            return frozenset(SEATS)
        return set(self._kong_button)

    def declared(self, layout: Layout) -> set[Seat]:
        """The seats whose kong or chow is declared and waits for its tiles."""
        return {*self.kong_declared(layout), *self._chow_button}

    # -- a declaration -----------------------------------------------------------------
    def declare(self, press: SeatButton, what: Said, deal: Deal | None, layout: Layout) -> Declared:
        """A declaration from any source (a button, a card: `card_declarations.py`), read
        as the button it stands for; `what` names the source in the evidence."""
        seat = layout.seat(press.seat)
        note = declared(press.seat, layout, what, press.t)
        if deal is None or deal.over:
            said = says("{note}: no deal", note=note)
            alert = RefereeAlert(AlertKind.UNRECOGNISED, press.seat, said, (note,))
            return Declared((alert,), read_tiles=False)
        if self._early(press.button, seat, deal, layout):
            # a claim pressed before the discard settled on the reader (RFID is slower
            # than a finger): held until the discard is read, then offered after it
            self._held.append(HeldClaim(press.t, seat, press.button, note))
            return Declared((), read_tiles=True)
        if press.button is Button.CHOW:
            return Declared(tuple(self._chow(seat, deal, press.t, note, layout)), read_tiles=True)
        move = self._declaration(press.button, seat, deal, press.t, layout)
        if move is None:
            return Declared((), read_tiles=True)
        first = self._hus_pressed_before(move, press.t, deal, layout)
        alerts = false_hu_alert(deal, move, note, layout)
        return Declared((*first, MoveSeen(move, (note,)), *alerts), False)

    def _hus_pressed_before(
        self, claim: Move, t: float, deal: Deal, layout: Layout
    ) -> list[Recognised]:
        """The HUs held as perhaps for a later discard (`_for_a_later_discard`) that were
        pressed before `claim`, a pung or kong of the open discard pressed at `t`: no later
        discard can follow this one before that pung or kong is played, so they were for
        this discard, and are offered before it, in the order pressed (5/5/1 seed 200 deal
        132: W's false Hu on S's 6m was held, N's PUNG 52 ms later was taken and N played
        on, and the Hu went to N's discard; the table gave the 6m to W's Hu)."""
        w = deal.window
        if w is None or w.kind is not WindowKind.DISCARD:
            return []
        if not (
            isinstance(claim, Pung) or (isinstance(claim, Kong) and claim.kind is MeldKind.KONG)
        ):
            return []
        out: list[Recognised] = []
        for h in sorted(self._held, key=lambda h: h.t):
            if h.button is not Button.HU or h.seat is claim.seat or h.t > t:
                continue
            hu = Hu(h.seat)
            if deal.check(hu) is not None:
                continue
            self._held.remove(h)
            out.append(MoveSeen(hu, (h.note,), h.t))
            out += false_hu_alert(deal, hu, h.note, layout)
        return out

    def found(
        self, button: Button, seat: Seat, note: Said, deal: Deal, t: float, layout: Layout
    ) -> list[Recognised]:
        """A declaration found lying on the table after the reader was back (a card), applied
        to `deal` (a copy of the judge the reconciliation goes on from). One the judge
        refuses (a Win card on no Hu) is said to the referee, never dropped silently."""
        move = self._declaration(button, seat, deal, t, layout)
        if move is None:
            return []  # a void card whose laid tile shows which tile: the tiles say it
        problem = deal.check(move)
        if problem is not None:
            said = says("{note}: refused, {problem}", note=note, problem=str(problem))
            return [RefereeAlert(AlertKind.UNRECOGNISED, layout.side(seat), said, (note,))]
        alerts = false_hu_alert(deal, move, note, layout)
        out: list[Recognised] = [MoveSeen(move, (note,)), *alerts]
        deal.apply(move)
        return out

    def _declaration(
        self, button: Button, seat: Seat, deal: Deal, t: float, layout: Layout
    ) -> Move | None:
        """The move a button declares, or None when its tiles are still to come."""
        w = deal.window
        if button in VOID_SUIT:
            suit = VOID_SUIT[button]
            held = sorted(t for t in deal.hand(seat) if t.suit is suit)
            if held and layout.zone(ZoneKind.VOID, seat) is not None:
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
        if w is not None and w.kind is WindowKind.DISCARD and not _draws_next(seat, deal):
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

    def _chow(
        self, seat: Seat, deal: Deal, t: float, note: Said, layout: Layout
    ) -> list[Recognised]:
        """A CHOW button: the one chow it can be, offered; several, the laid tiles will
        say (`chow_readings`); none, the referee is told why (the judge's reason)."""
        options = _chow_options(seat, deal)
        if len(options) == 1:
            return [MoveSeen(options[0], (note,))]
        w = deal.window
        if options:
            assert w is not None
            self._chow_button[seat] = PendingChow(t, w.tile, options, note)
            return []
        if w is None or w.kind is not WindowKind.DISCARD:
            why = Said("no discard is open to claims")
        else:
            tries = [Chow(seat, low) for low in chow_starts(w.tile)] or [Chow(seat, w.tile)]
            problems = [p for p in map(deal.check, tries) if p is not None]
            fits: str | Said = str(problems[0]) if problems else Said("no chow fits")
            why = says(
                "{seat}'s {tile}: {why}",
                seat=side_said(w.discarder, layout),
                tile=tile_said(w.tile),
                why=fits,
            )
        said = says(
            "{seat} pressed CHOW, no chow is possible ({why}); nothing offered",
            seat=side_said(seat, layout),
            why=why,
        )
        return [RefereeAlert(AlertKind.UNRECOGNISED, layout.side(seat), said, (note,))]

    def chow_readings(self, deal: Deal, res: Tally, layout: Layout) -> list[Reading]:
        """A pending CHOW and the two tiles the player laid in the melds (or, without a
        melds antenna, took from the hand) that make one of its chows with the discard."""
        out: list[Reading] = []
        for seat, pending in self._chow_button.items():
            hz = layout.zone(ZoneKind.HAND, seat)
            mz = layout.zone(ZoneKind.MELDS, seat)
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

    def _early(self, button: Button, seat: Seat, deal: Deal, layout: Layout) -> bool:
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
            return not _chow_options(seat, deal)
        if button is Button.KONG and _draws_next(seat, deal):
            return False  # its own kong to come (`_declaration`)
        move = self._declaration(button, seat, deal, 0.0, layout)
        if move is None:
            return False
        return (
            deal.check(move) is not None
            or _for_a_later_discard(deal, move)
            or _for_its_own_draw(deal, move)
        )

    # -- held claims ----------------------------------------------------------------------
    def held_hu_taken(self, deal: Deal, res: Tally, layout: Layout) -> list[Recognised]:
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
        river = layout.zone(ZoneKind.RIVER, last.seat)
        if river is None or res.get(Spot(river, last.tile), 0) >= 0:
            return []  # the discard still lies in the river
        for held in [h for h in self._held if h.button is Button.HU and h.seat is not last.seat]:
            hand = layout.zone(ZoneKind.HAND, held.seat)
            if hand is None or res.get(Spot(hand, last.tile), 0) <= 0:
                continue
            self._held.remove(held)
            note = held.note
            hu = Hu(held.seat)
            # one at a time: the runtime applies it, and the tiles are read again on it
            alerts = false_hu_alert(_window_open(deal), hu, note, layout)
            return [MoveSeen(hu, (note,), held.t), *alerts]
        return []

    def offered(
        self, deal: Deal, moves: tuple[Move, ...], now: float | None, layout: Layout
    ) -> list[Recognised]:
        """The moves of one reading were offered: the declarations they fulfil are done, and
        the claims held for them (a discard, a kong) or pressed by the drawer before its
        draw was read follow them."""
        move = moves[-1]
        if isinstance(move, Kong):
            self._kong_button.pop(move.seat, None)
        if isinstance(move, Chow):
            self._chow_button.pop(move.seat, None)
        if self._held and isinstance(move, Draw | ReplacementDraw):
            return self._drawers_hu(deal, moves, move.seat, layout)
        return self.release(deal, moves, now, layout)

    def _drawers_hu(
        self, deal: Deal, moves: tuple[Move, ...], drawer: Seat, layout: Layout
    ) -> list[Recognised]:
        """A HU (or a KONG) the drawer pressed before its draw was read: its self-drawn Hu,
        offered right after the draw (its own kong, read from the tiles). Waiting out
        `settle` let a fast table play on meanwhile (a noisy e2e run, seed 202 deal 2: the
        Hu accepted 1 s late, the next draw, discard and pung all done, the judge never
        caught up)."""
        kongs = [h for h in self._held if h.seat is drawer and h.button is Button.KONG]
        mine = [h for h in self._held if h.seat is drawer and h.button is Button.HU]
        if not mine and not kongs:
            return []
        trial = fork(deal)
        for m in moves:
            if trial.window is not None and trial.check(m) is not None:
                trial.apply(CloseClaims())  # the draw closes the window it follows
            trial.apply(m)
        if kongs and any(isinstance(m, Kong) for m in trial.legal_moves(drawer)):
            # a KONG the drawer pressed before its draw was read, and the draw makes a kong:
            # its own kong, read from the tiles at once (held for `settle`, it was read 1 s
            # late, the table played on; 10/10/2 seed 313 deal 7, a later HU taken as a
            # robbing one)
            for h in kongs:
                self._held.remove(h)
            self._kong_button[drawer] = kongs[0].t
        if not mine:
            return []
        for h in mine:
            self._held.remove(h)
        first = mine[0]
        note = first.note
        hu = SelfDrawnHu(first.seat)
        return [MoveSeen(hu, (note,), first.t), *false_hu_alert(trial, hu, note, layout)]

    def release(
        self, deal: Deal, moves: tuple[Move, ...], now: float | None, layout: Layout
    ) -> list[Recognised]:
        """The held claims, after the move that opened their window (a discard or a kong;
        judged on a copy of the judge); `now`: the latest event time seen."""
        if not self._held or not isinstance(moves[-1], Discard | Kong):
            return []
        held, self._held = self._held, []
        trial = fork(deal)
        for m in moves:
            if trial.window is not None and trial.check(m) is not None:
                trial.apply(CloseClaims())  # a turn move closes the window it follows
            trial.apply(m)
        out: list[Recognised] = []
        for h in held:
            if h.button is Button.CHOW:
                said = self._chow(h.seat, trial, h.t, h.early_note, layout)
                out += said
                for r in said:
                    if isinstance(r, MoveSeen):
                        trial.apply(r.move)
                continue
            move = self._declaration(h.button, h.seat, trial, h.t, layout)
            if move is None:
                continue
            late = now is None or now - h.t >= self.settle
            refused = trial.check(move) is not None
            if not late and (refused or _for_a_later_discard(trial, move)):
                # this window refuses it too: two discards were read late, and the claim is
                # for the later one (campaign seed 31 deal 4: E's HU for N's 4p was offered
                # on W's 3m window, refused as a void-suit claim, and the deal was lost)
                self._held.append(h)
                continue
            out.append(MoveSeen(move, (h.early_note,), h.t))
            out += false_hu_alert(trial, move, h.early_note, layout)
            trial.apply(move)
        return out

    def accepted(self, move: Move, deal: Deal) -> None:
        """The judge accepted `move`: a kong or chow declared is done, and a pending CHOW's
        window is over once no window is open."""
        if isinstance(move, Kong):
            self._kong_button.pop(move.seat, None)
        if deal.window is None:
            self._chow_button.clear()  # the window a pending CHOW was for is over
        elif isinstance(move, Chow):
            self._chow_button.pop(move.seat, None)

    def expire(self, now: float, deal: Deal, layout: Layout) -> list[Recognised]:
        """The deadlines: a claim held `settle` with no discard read is offered as pressed
        (the judge, and the runtime's window clock, say why not); a KONG or CHOW button
        whose tiles did not follow within `grace` is an alert."""
        out: list[Recognised] = []
        for held in [h for h in self._held if now - h.t >= self.settle]:
            # no discard read within `settle`: not an early claim but a late (or stray) one
            self._held.remove(held)
            if held.button is Button.CHOW:
                out += self._chow(held.seat, deal, held.t, held.note, layout)
                continue
            move = self._declaration(held.button, held.seat, deal, held.t, layout)
            if move is not None:
                note = held.note
                out.append(MoveSeen(move, (note,), held.t))
                out += false_hu_alert(deal, move, note, layout)
        for seat, t0 in list(self._kong_button.items()):
            if now - t0 >= self.grace:
                del self._kong_button[seat]
                said = says(
                    "{seat} declared a kong; no tiles followed within {s} s",
                    seat=side_said(seat, layout),
                    s=format(self.grace, "g"),
                )
                side = layout.side(seat)
                out.append(RefereeAlert(AlertKind.DECLARATION_WITHOUT_TILES, side, said))
        for seat, pending in list(self._chow_button.items()):
            if now - pending.t >= self.grace:
                del self._chow_button[seat]
                said = says(
                    "{seat} pressed CHOW on {tile}; no chow was laid in the melds within {s} s",
                    seat=side_said(seat, layout),
                    tile=tile_said(pending.tile),
                    s=format(self.grace, "g"),
                )
                alert = RefereeAlert(
                    AlertKind.DECLARATION_WITHOUT_TILES, layout.side(seat), said, (pending.note,)
                )
                out.append(alert)
        return out


def false_hu_alert(deal: Deal, move: Move, note: Said, layout: Layout) -> list[Recognised]:
    """The referee's alert when a Hu declared is a false one (it is accepted as such)."""
    if not isinstance(move, Hu | RobKong | SelfDrawnHu) or not _false_hu(deal, move):
        return []
    said = says(
        "{seat} declared Hu without a winning hand (accepted as a false Hu)",
        seat=side_said(move.seat, layout),
    )
    return [RefereeAlert(AlertKind.FALSE_HU, layout.side(move.seat), said, (note,))]


def _false_hu(deal: Deal, move: Hu | RobKong | SelfDrawnHu) -> bool:
    return deal.check(move) is None and move not in deal.legal_moves(move.seat)


def _draws_next(seat: Seat, deal: Deal) -> bool:
    """`seat` cannot take the open discard as a kong and is the one to draw after it."""
    w = deal.window
    if w is None or deal.check(Kong(seat, MeldKind.KONG, w.tile)) is None:
        return False
    trial = fork(deal)
    return bool(trial.apply(CloseClaims())) and trial.turn is seat and trial.phase is Phase.DRAW


def _chow_options(seat: Seat, deal: Deal) -> tuple[Chow, ...]:
    return tuple(m for m in deal.admissible_claims().get(seat, ()) if isinstance(m, Chow))


def _for_a_later_discard(deal: Deal, move: Move) -> bool:
    """A HU this window would take only as a false Hu, from a hand that waits on some
    tile: most likely for a discard not read yet. After another player's pung or kong on
    it (a 10/10/2 campaign, seed 311 deal 1: W's HU for E's discard after E's pung was
    taken as a false Hu on the pung's window), or with the next draw and discard both
    unread (seed 310 deal 19: taken twice as a false Hu, the deal lost). A hand that waits
    on nothing declares a false Hu wherever it lands: taken at once."""
    w = deal.window
    if w is None or not isinstance(move, Hu | RobKong) or not _false_hu(deal, move):
        return False
    seat = move.seat
    if any(isinstance(c, Pung | Kong) and s is not seat for s, c in w.declared):
        return True
    return bool(waits(deal.counts(seat), deal.melds(seat), deal.void(seat), deal.rs.tiles.set))


def _for_its_own_draw(deal: Deal, move: Move) -> bool:
    """A HU this window would take only as a false Hu, pressed by the one to draw after
    it: most likely its self-drawn Hu (true or false) on a draw not read yet, held until
    the draw is read (`_drawers_hu`). Taken at once as a false Hu on the discard, the
    judge's wall stayed one tile behind the table and the deal was lost (10/10/2 seed 313
    deal 25: E's HU 18 ms before its draw of 4p was read)."""
    w = deal.window
    if w is None or w.kind is not WindowKind.DISCARD or not isinstance(move, Hu):
        return False
    if not _false_hu(deal, move):
        return False
    trial = fork(deal)
    return (
        bool(trial.apply(CloseClaims())) and trial.turn is move.seat and trial.phase is Phase.DRAW
    )


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
