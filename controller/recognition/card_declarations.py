"""Declarations from tagged cards (issue 18): a seat's Win card (WMT 000, live matches: a
declaration is the physical action and a Win card placed on the table) laid in any zone of
a seat declares Hu for that seat: self-drawn, on the open discard or robbing the kong, by
context, exactly as the HU button does; a void indicator card (004 Lesson 2) laid at a
seat's void spot chooses that void, as the void button does. Both go through the buttons'
path (`declarations.py`: held when read before their discard, offered with the time they
were read), so the judge and the claim clock see one kind of declaration.

A card declares when it arrives at a side. It does not declare again while it lies there:
a card moved between that side's zones, or lifted by missed reads and read again within
`settle` seconds in the same deal, is the same declaration. A card already lying on the
table when the deal starts declares nothing until it has been taken away and laid again. The card's own mark
(`card:hu#W` is the Win card kept at side W) does not change who declares: the zone does;
a card laid at another side is noted in the evidence.

After a restart or a reconnection (`cards_on_table`, then the reconciliation) the cards the
reader finds were laid before, or while the daemon was not reading: one whose declaration
the judge holds (that void chosen, that seat among the winners) is the same card still; any
other declares then, before the tiles are reconciled (a void chosen by card shows on no
tile; a Win card's Hu is by context, as when laid)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from controller.alerts import AlertKind
from controller.devices.events import Button, SeatButton
from controller.profiles import Card, CardKind, DeclarationSource, Zone, ZoneKind
from controller.recognition.presence import CardLifted, CardPlaced
from controller.recognition.results import MoveSeen, Recognised, RefereeAlert
from rules.deal import Deal
from rules.seats import Seat

log = logging.getLogger(__name__)

BUTTON_FOR = {
    CardKind.HU: Button.HU,
    CardKind.VOID_M: Button.VOID_M,
    CardKind.VOID_P: Button.VOID_P,
    CardKind.VOID_S: Button.VOID_S,
}


class CardDeclarations:
    """A part of `Recogniser` (the module's docstring says what it owns)."""

    def _cards_new_deal(self) -> None:
        """A shuffle: a card taken away now, or before, is laid afresh in the new deal,
        however soon (a fast table's void card, lifted at the shuffle and laid again within
        `settle`, was taken for the same declaration, and the void was never chosen); one
        that stays on the table through the shuffle is still the old declaration."""
        for card in self._card_gone:
            self._card_side.pop(card, None)
        self._card_gone.clear()

    def on_card(self, change: CardPlaced | CardLifted, deal: Deal | None) -> list[Recognised]:
        side = change.zone.seat
        card = change.card
        if isinstance(change, CardLifted):
            if not self._dealt:
                # taken back with the tiles (a reader polling only the wall antenna while
                # the walls are built sees it go once the hands are being dealt)
                self._card_side.pop(card, None)
            elif self._card_side.get(card) == side:
                self._card_gone[card] = change.t
            return []
        was = self._card_side.get(card)
        gone = self._card_gone.pop(card, None)
        self._card_side[card] = side
        if side is None:
            return []  # the wall spot: no seat's card
        if was == side and (gone is None or change.t - gone < self.settle):
            return []  # the same card still (or again, after missed reads) at that side
        if DeclarationSource.CARDS not in self.layout.sources:
            log.info("%s laid at %s: this table's declarations are not cards", card, change.zone)
            return []
        if card.kind is not CardKind.HU and change.zone.kind is not ZoneKind.VOID:
            return []  # a void card declares at the void spot only
        what = f"{card} laid at {change.zone}"
        if card.kind is CardKind.HU and card.mark != side.name:
            what += f" (the Win card of side {card.mark})"
        press = SeatButton(change.t, side, BUTTON_FOR[card.kind])
        return self._declared_by(press, what, deal)

    def cards_on_table(self, cards: Mapping[Card, Zone]) -> None:
        """(added) The cards the reader sees now, given before a reconciliation (the runtime
        after a restart or a reconnection): `_cards_found` declares those laid meanwhile."""
        self._found_cards = dict(cards)

    def _cards_found(self, deal: Deal, t: float) -> list[Recognised]:
        """The declarations of the cards given by `cards_on_table` that the judge does not
        hold yet, in order (void cards, then Win cards; E, S, W, N), applied to `deal` (a
        copy of the judge the reconciliation goes on from). A card the judge refuses (a Win
        card on no Hu) is said to the referee, never dropped silently."""
        found, self._found_cards = self._found_cards, {}
        if DeclarationSource.CARDS not in self.layout.sources:
            return []
        out: list[Recognised] = []
        order = sorted(found.items(), key=lambda cz: (cz[0].kind is CardKind.HU, _side(cz[1])))
        for card, zone in order:
            side = zone.seat
            if side is None or (card.kind is not CardKind.HU and zone.kind is not ZoneKind.VOID):
                continue
            self._card_side[card] = side
            self._card_gone.pop(card, None)
            seat = self.layout.seat(side)
            if _declared(deal, card, seat):
                continue  # declared before: the same card still lying there
            note = f"{side} (deal {seat}) {card} found at {zone} after the reader was back"
            move = self._declaration(BUTTON_FOR[card.kind], seat, deal, t)
            if move is None:
                continue  # a void card whose laid tile shows which tile: the tiles say it
            problem = deal.check(move)
            if problem is not None:
                text = f"{note}: refused, {problem}"
                out.append(RefereeAlert(AlertKind.UNRECOGNISED, seat, text, (note,)))
                continue
            out.append(MoveSeen(move, (note,)))
            out += self._if_false_hu(deal, move, note)
            deal.apply(move)
        return out


def _declared(deal: Deal, card: Card, seat: Seat) -> bool:
    """The judge holds the card's declaration already: that seat's void, or its Hu."""
    if card.kind is CardKind.HU:
        return any(w.seat is seat for w in deal.winners)
    return deal.void(seat) is not None


def _side(zone: Zone) -> int:
    return -1 if zone.seat is None else int(zone.seat)
