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
from dataclasses import dataclass

from controller.devices.events import Button, SeatButton
from controller.locale import Said
from controller.profiles import Card, CardKind, DeclarationSource, Zone, ZoneKind
from controller.recognition.alert_said import card_laid
from controller.recognition.expected import Layout
from controller.recognition.presence import CardLifted, CardPlaced
from rules.deal import Deal
from rules.seats import Seat

log = logging.getLogger(__name__)

BUTTON_FOR = {
    CardKind.HU: Button.HU,
    CardKind.VOID_M: Button.VOID_M,
    CardKind.VOID_P: Button.VOID_P,
    CardKind.VOID_S: Button.VOID_S,
}


@dataclass(frozen=True, slots=True)
class CardPress:
    """A card that declares, as the button it stands for; `what` names the card in the
    evidence."""

    press: SeatButton
    what: Said


@dataclass(frozen=True, slots=True)
class FoundCard:
    """A card found on the table after the reader was back (`Cards.take_found`)."""

    card: Card
    zone: Zone
    seat: Seat  # the deal seat of the side it lies at
    button: Button


class Cards:
    """Where each declaring card last settled, and when it was lifted from there."""

    def __init__(self, settle: float) -> None:
        self.settle = settle
        self._side: dict[Card, Seat | None] = {}  # where each card last settled
        self._gone: dict[Card, float] = {}  # when a card was lifted from that side
        self._found: dict[Card, Zone] = {}  # on the table at a reconciliation

    def new_deal(self) -> None:
        """A shuffle: a card taken away now, or before, is laid afresh in the new deal,
        however soon (a fast table's void card, lifted at the shuffle and laid again within
        `settle`, was taken for the same declaration, and the void was never chosen); one
        that stays on the table through the shuffle is still the old declaration."""
        for card in self._gone:
            self._side.pop(card, None)
        self._gone.clear()

    def on_card(
        self, change: CardPlaced | CardLifted, layout: Layout, dealt: bool
    ) -> CardPress | None:
        """The declaration a card's arrival makes, if any; `dealt`: the dealt hands were
        read in this deal."""
        side = change.zone.seat
        card = change.card
        if isinstance(change, CardLifted):
            if not dealt:
                # taken back with the tiles (a reader polling only the wall antenna while
                # the walls are built sees it go once the hands are being dealt)
                self._side.pop(card, None)
            elif self._side.get(card) == side:
                self._gone[card] = change.t
            return None
        was = self._side.get(card)
        gone = self._gone.pop(card, None)
        self._side[card] = side
        if side is None:
            return None  # the wall spot: no seat's card
        if was == side and (gone is None or change.t - gone < self.settle):
            return None  # the same card still (or again, after missed reads) at that side
        if DeclarationSource.CARDS not in layout.sources:
            log.info("%s laid at %s: this table's declarations are not cards", card, change.zone)
            return None
        if card.kind is not CardKind.HU and change.zone.kind is not ZoneKind.VOID:
            return None  # a void card declares at the void spot only
        what = card_laid(card, change.zone, side)
        return CardPress(SeatButton(change.t, side, BUTTON_FOR[card.kind]), what)

    def cards_on_table(self, cards: Mapping[Card, Zone]) -> None:
        """The cards the reader sees now, given before a reconciliation (the runtime after a
        restart or a reconnection): `take_found` gives those that may declare."""
        self._found = dict(cards)

    @property
    def any_found(self) -> bool:
        return bool(self._found)

    def take_found(self, layout: Layout) -> list[FoundCard]:
        """The cards given by `cards_on_table` that can declare, in order (void cards, then
        Win cards; E, S, W, N), each now lying at its side; once."""
        found, self._found = self._found, {}
        if DeclarationSource.CARDS not in layout.sources:
            return []
        out: list[FoundCard] = []
        order = sorted(found.items(), key=lambda cz: (cz[0].kind is CardKind.HU, _side(cz[1])))
        for card, zone in order:
            side = zone.seat
            if side is None or (card.kind is not CardKind.HU and zone.kind is not ZoneKind.VOID):
                continue
            self._side[card] = side
            self._gone.pop(card, None)
            out.append(FoundCard(card, zone, layout.seat(side), BUTTON_FOR[card.kind]))
        return out


def declared(deal: Deal, card: Card, seat: Seat) -> bool:
    """The judge holds the card's declaration already: that seat's void, or its Hu."""
    if card.kind is CardKind.HU:
        return any(w.seat is seat for w in deal.winners)
    return deal.void(seat) is not None


def _side(zone: Zone) -> int:
    return -1 if zone.seat is None else int(zone.seat)
