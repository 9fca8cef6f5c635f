"""A scripted table for hand-written recogniser cases: a composed wall (rules.wall.compose),
the judge, a Recogniser and the rig's Runtime, and verbs that move tile copies between
zones, press buttons and move the clock, each returning what the recogniser said."""

from __future__ import annotations

from recog_rig import Runtime, reader

from controller.devices.events import Button, SeatButton
from controller.profiles import Card, TileCopy, Zone, ZoneKind, sim_tag_map, with_declarations
from controller.recognition.presence import CardLifted, CardPlaced, TileLifted, TilePlaced
from controller.recognition.recogniser import MoveSeen, Recogniser, RefereeAlert
from rules import ruleset
from rules.deal import Deal
from rules.moves import CloseClaims
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat
from rules.tiles import Tile, parse_tiles
from rules.wall import Dice, compose

# E lays 5s (void s), S has no s (void button), W and N have no m (void buttons)
HANDS = {
    Seat.E: "1111234m1567p599s",
    Seat.S: "23456789m23456p",
    Seat.W: "2345678p23456s9p",
    Seat.N: "1122334455667s",
}


class Scene:
    def __init__(
        self,
        rs: RuleSet | str = "sbr-mil",
        hands: dict[Seat, str] | None = None,
        live: str = "",
        dealer_side: Seat = Seat.E,
        told: Seat | None = None,  # the dealer side the runtime believes, if it differs
        declarations: str = "buttons",  # the table's declaration sources (issue 18)
        **kw,
    ) -> None:
        self.rs = ruleset.load(rs) if isinstance(rs, str) else rs
        dice = Dice(6, 4)
        hands = {s: tuple(parse_tiles(h)) for s, h in (hands or HANDS).items()}
        order = compose(self.rs, dice, hands, tuple(parse_tiles(live)) if live else ())
        self.deal = Deal.start(self.rs, dice, order)
        profile = with_declarations(reader(), declarations)
        self.rec = Recogniser(self.rs, profile, sim_tag_map(self.rs.tiles.set), **kw)
        self.rec.new_deal(dealer_side if told is None else told)
        self.rt = Runtime(self.rs, self.rec, deal=self.deal)
        self.side = lambda seat: SEATS[(dealer_side + seat) % 4]
        used: dict[Tile, int] = {}
        self.copies: list[TileCopy] = []
        for t in order:
            used[t] = used.get(t, 0) + 1
            self.copies.append(TileCopy(t, used[t]))
        self.where: dict[TileCopy, Zone] = {}
        self.t = 0.0
        self.out: list = self.rec.start_deal(self.deal)
        self.rt.feed(self.out)
        for take in self.deal.deal_takes:
            self.place(self.copies[take.index], self.zone(ZoneKind.HAND, take.seat))

    # -- places ------------------------------------------------------------------------
    def zone(self, kind: ZoneKind, seat: Seat) -> Zone:
        return Zone(kind, self.side(seat))

    def copy_in(self, tile: str | Tile, kind: ZoneKind, seat: Seat) -> TileCopy:
        tile = Tile.parse(tile) if isinstance(tile, str) else tile
        z = self.zone(kind, seat)
        return next(tc for tc in sorted(self.where) if tc.tile == tile and self.where[tc] == z)

    def wall_copy(self, tile: str | Tile) -> TileCopy:
        """A copy still in the wall (not the next live one unless it is that tile)."""
        tile = Tile.parse(tile) if isinstance(tile, str) else tile
        return next(tc for tc in self.copies if tc.tile == tile and tc not in self.where)

    def next_copy(self) -> TileCopy:
        return self.copies[self.deal.wall.remaining()[0]]

    # -- verbs -------------------------------------------------------------------------
    def feed(self, results: list) -> list:
        self.rt.feed(results)
        self.out = results
        return results

    def place(self, tc: TileCopy, zone: Zone) -> list:
        self.t += 0.1
        self.where[tc] = zone
        return self.feed(
            self.rec.on_presence(TilePlaced(self.t, tc.tile, tc.copy, zone), self.deal)
        )

    def lift(self, tc: TileCopy) -> list:
        self.t += 0.1
        zone = self.where.pop(tc)
        return self.feed(
            self.rec.on_presence(TileLifted(self.t, tc.tile, tc.copy, zone), self.deal)
        )

    def move(self, tc: TileCopy, kind: ZoneKind, seat: Seat) -> list:
        return self.lift(tc) + self.place(tc, self.zone(kind, seat))

    def lay_card(self, card: Card | str, kind: ZoneKind, seat: Seat) -> list:
        self.t += 0.1
        card = Card.parse(card) if isinstance(card, str) else card
        placed = CardPlaced(self.t, card, self.zone(kind, seat))
        return self.feed(self.rec.on_presence(placed, self.deal))

    def lift_card(self, card: Card | str, kind: ZoneKind, seat: Seat) -> list:
        self.t += 0.1
        card = Card.parse(card) if isinstance(card, str) else card
        return self.feed(
            self.rec.on_presence(CardLifted(self.t, card, self.zone(kind, seat)), self.deal)
        )

    def press(self, seat: Seat, button: Button) -> list:
        self.t += 0.1
        press = SeatButton(self.t, self.side(seat), button)
        return self.feed(self.rec.on_button(press, self.deal))

    def wait(self, seconds: float) -> list:
        self.t += seconds
        return self.feed(self.rec.tick(self.t, self.deal))

    def close(self) -> None:
        self.rt.apply(CloseClaims())

    # -- common openings ------------------------------------------------------------------
    def choose_voids(self) -> None:
        self.move(self.copy_in("5s", ZoneKind.HAND, Seat.E), ZoneKind.VOID, Seat.E)
        self.press(Seat.S, Button.VOID_S)
        self.press(Seat.W, Button.VOID_M)
        self.press(Seat.N, Button.VOID_M)
        assert all(self.deal.void(s) is not None for s in SEATS), self.rt.rejected

    def discard(self, seat: Seat, tile: str, kind: ZoneKind = ZoneKind.HAND) -> list:
        return self.move(self.copy_in(tile, kind, seat), ZoneKind.RIVER, seat)

    def draw(self, seat: Seat) -> list:
        return self.place(self.next_copy(), self.zone(ZoneKind.HAND, seat))


def moves(results: list) -> list:
    return [r.move for r in results if isinstance(r, MoveSeen)]


def alerts(results: list) -> list[RefereeAlert]:
    return [r for r in results if isinstance(r, RefereeAlert)]
