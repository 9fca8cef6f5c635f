"""Players' hands on the simulated table: judge moves turned into tag moves between zones and
seat button presses; whole deals planned by the judge's seeded bots (rules.bots).

`PhysicalPlayer` performs one deal on the `World`: `build_walls`, `deal` (rules.wall, 004
Lesson 2), then `perform(move)` for each move of a deal record, in order. It keeps its own
`rules.wall.Wall` to know which wall spot a draw empties, so a scripted list of moves works
without the judge. Seats in moves are deal seats (East = dealer); `physical` maps them to the
table's sides, which the reader profile's zones name.

What each move does physically (RULES.md "Play"; the recogniser expects the same):
- ChooseVoid with a tile: the tile leaves the hand for the void spot (laid face down); with
  the indicator card (no tile), the seat presses its void button.
- Draw / ReplacementDraw: the wall tile goes to the hand.
- Discard: hand (or the void spot, for the laid tile) → river.
- Pung, melded Kong, Hu, RobKong, Pass: the seat's button only. When the window closes
  (CloseClaims, the controller's clock), the claim that won takes the tile: a Hu declarer
  moves it to the hand (river, or the melds for a robbed kong); a pung / kong claimer moves
  it and two / three tiles of the hand to the melds.
- Chow (rule sets with chow claims, 001 IV 2.1): the CHOW button, and at once the two tiles
  of the hand that make the chow with the discard are laid in the melds (shown: the button
  alone cannot say which chow when several fit). When the window closes the discard joins
  them; if a Hu or a pung/kong beat the chow, the two tiles go back to the hand.
- Concealed Kong: button, four tiles hand → melds. Promoted / postponed: button, one tile.
  A kong of the void suit takes the face-down void tile along from the void spot.
  SelfDrawnHu: button.
- Correction (a referee takes a discard back): the tiles of the undone moves go back.
  Penalty: nothing on the table.

Without buttons (`declarations`, issue 18; the recogniser reads the same,
controller/recognition/card_declarations.py and tile_declarations.py):
- `cards`: a Hu (on a discard, robbing, self-drawn) is the seat's Win card laid in its melds
  zone; a void is the void indicator card laid at the void spot (with the tile, when one is
  laid); a pung or melded kong is shown at once: the discard and two or three tiles of the
  hand go to the claimer's melds (if a Hu beats it, they go back when the window closes, the
  discard to the winner); an own-turn kong is its tiles alone; a pass is silence;
- `tiles`: the same, but a Hu is the hand laid open in the melds zone (the winner's tile goes
  there too when the window closes), and a void with no tile to lay is not shown at all (the
  recogniser infers it when play starts: the suit the hand lacks, the lower of two).
Where the table cannot show it (no void or melds antenna, a CHOW) the button is pressed.

`pace(kind)` is called after each physical step, "glimpse" (one tile crossing the wall
antenna) or "settle" (a state the reader must see long enough to believe it), and "react"
before a button is pressed (a player reacts to what the table shows: the claimed discard,
the drawn tile, which the reader must have had time to see as well).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from controller.devices.events import Button
from controller.profiles import Card, CardKind, TileCopy, Zone, ZoneKind
from rules.melds import MeldKind
from rules.moves import (
    ChooseVoid,
    Chow,
    CloseClaims,
    Correction,
    Discard,
    Draw,
    Hu,
    Kong,
    Move,
    Pass,
    PlayerMove,
    Pung,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
)
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat
from rules.tiles import Suit, Tile
from rules.wall import Dice, Wall
from tools.sim.world import IN_MACHINE, WALL_SCAN, Place, WallSpot, World, place_name

Pace = Callable[[str], None]
Press = Callable[[Seat, Button], None]
Note = Callable[[dict], None]

VOID_BUTTON = {Suit.M: Button.VOID_M, Suit.P: Button.VOID_P, Suit.S: Button.VOID_S}
VOID_CARD = {Suit.M: CardKind.VOID_M, Suit.P: CardKind.VOID_P, Suit.S: CardKind.VOID_S}
DECLARATIONS = ("buttons", "cards", "tiles")  # how the players declare (issue 18)
CLAIMS = (Pung, Kong, Chow, Hu, RobKong, Pass, CloseClaims)
CLAIM_BUTTON = {Pung: Button.PUNG, Kong: Button.KONG, Hu: Button.HU, RobKong: Button.HU}

Moved = list[tuple[TileCopy, Place, Place]]


def move_name(move: Move) -> str:
    """The deal record's word for a move (docs/DEAL-RECORD.md "Moves")."""
    from rules.move_json import MOVE_NAMES

    return MOVE_NAMES.get(type(move), type(move).__name__.lower())


class PhysicalPlayer:
    def __init__(
        self,
        world: World,
        rs: RuleSet,
        dealer: Seat,
        press: Press,
        pace: Pace,
        note: Note,
        declarations: str = "buttons",
    ) -> None:
        if declarations not in DECLARATIONS:
            raise ValueError(
                f"declarations: one of {', '.join(DECLARATIONS)}, not {declarations!r}"
            )
        self.declarations = declarations
        self.world = world
        self.rs = rs
        self.dealer = dealer
        self.press = press
        self.pace = pace
        self.note = note
        self.order: tuple[TileCopy, ...] = ()
        self.wall: Wall | None = None
        self._open: tuple[TileCopy, Place, Seat] | None = None  # tile open to claims, discarder
        self._declared: list[Move] = []  # claims of the open window
        self._shown: Moved = []  # a chow's two hand tiles laid in the melds, window open
        self._claimed: Moved = []  # a pung / kong shown at once (no buttons), window open
        self._done: list[list[tuple[TileCopy, Place, Place]]] = []  # per player move

    def physical(self, seat: Seat) -> Seat:
        return SEATS[(self.dealer + seat) % 4]

    def zone(self, kind: ZoneKind, seat: Seat) -> Zone:
        return Zone(kind, self.physical(seat))

    # -- the table's own work ----------------------------------------------------------------
    def build_walls(self, order: tuple[TileCopy, ...], linger: int) -> None:
        """Tiles cross the wall antenna single-file in wall order, each staying `linger`
        glimpses in its field, and end in their wall spot."""
        self.order = order
        scan = self.world.has_zone(WALL_SCAN)
        n = len(order)
        for i in range(n + (linger if scan else 0)):
            moves: list[tuple[TileCopy, Place, Place]] = []
            if scan:
                if i < n:
                    moves.append((order[i], IN_MACHINE, WALL_SCAN))
                if i >= linger:
                    moves.append((order[i - linger], WALL_SCAN, WallSpot(i - linger)))
            else:
                moves.append((order[i], IN_MACHINE, WallSpot(i)))
            self.world.move_many(moves)
            if scan:
                self.pace("glimpse")

    def deal(self, dice: Dice) -> None:
        """004 Lesson 2: two stacks at a time, three times round, then East's jump."""
        self.wall = Wall(self.rs, dice, tuple(tc.tile for tc in self.order))
        takes = self.wall.deal()
        groups = [takes[i : i + 4] for i in range(0, 48, 4)] + [(t,) for t in takes[48:]]
        for group in groups:
            self.world.move_many(
                (self.order[t.index], WallSpot(t.index), self.zone(ZoneKind.HAND, t.seat))
                for t in group
            )
            self.pace("settle")

    # -- the players' moves ----------------------------------------------------------------
    def perform(self, move: Move) -> dict:
        """Do `move` physically; returns its truth record (tile copies, from, to)."""
        if self._declared and not isinstance(move, CLAIMS):
            self.perform(CloseClaims())  # the judge closed the window by itself
        rec: dict = {"move": move_name(move)}
        seat = getattr(move, "seat", None)
        if seat is not None:
            rec["seat"] = str(seat)
            rec["side"] = str(self.physical(seat))
        moved: list[tuple[TileCopy, Place, Place]] = []
        button: Button | None = None
        card: tuple[Card, Zone] | None = None
        shown = self.declarations != "buttons"
        hand = self.zone(ZoneKind.HAND, seat) if seat is not None else None
        melds = self.zone(ZoneKind.MELDS, seat) if seat is not None else None
        match move:
            case ChooseVoid(_, suit, tile):
                rec["suit"] = suit.value
                void = self.zone(ZoneKind.VOID, seat)
                spot = self.world.has_zone(void)
                if tile is not None and spot:
                    moved.append((self._take(tile, hand), hand, void))
                if self.declarations == "cards" and spot:
                    card = (Card(VOID_CARD[suit], str(self.physical(seat) + 1)), void)
                elif self.declarations == "tiles" and tile is None:
                    pass  # nothing to lay: the recogniser infers it from the hand
                elif not moved:
                    button = VOID_BUTTON[suit]  # nothing the table can read says it
            case Draw() | ReplacementDraw():
                assert self.wall is not None
                take = (
                    self.wall.draw(seat) if isinstance(move, Draw) else self.wall.replacement(seat)
                )
                moved.append((self.order[take.index], WallSpot(take.index), hand))
            case Discard(_, tile):
                void = self.zone(ZoneKind.VOID, seat)
                frm = void if self._holds(tile, void) else hand
                tc = self._take(tile, frm)
                river = self.zone(ZoneKind.RIVER, seat)
                moved.append((tc, frm, river))
                self._open = (tc, river, seat)
            case Pung() | Kong(kind=MeldKind.KONG) if shown and self._can_show(seat):
                self._declared.append(move)
                moved = self._show_claim(move)
            case Hu() | RobKong() if shown and self._can_show(seat):
                self._declared.append(move)
                card, moved = self._show_hu(seat)
            case Pung() | Kong(kind=MeldKind.KONG) | Hu() | RobKong():
                button = CLAIM_BUTTON[type(move)]
                self._declared.append(move)
            case Chow(_, low):
                button = Button.CHOW
                rec["tile"] = str(low)  # the lowest tile of the chow (docs/DEAL-RECORD.md)
                self._declared.append(move)
                moved = self._show_chow(seat, low)
            case CloseClaims():
                moved, taker = self._resolve()
                if taker is not None:
                    rec["seat"], rec["side"] = str(taker), str(self.physical(taker))
            case Kong(_, MeldKind.CONCEALED_KONG, tile):
                button = None if shown and self._can_show(seat) else Button.KONG
                for _ in range(4):
                    moved.append((*self._take_held(tile, seat, moved), melds))
            case Kong(_, _, tile):  # promoted or postponed: the fourth tile joins the pung
                button = None if shown and self._can_show(seat) else Button.KONG
                tc, frm = self._take_held(tile, seat)
                moved.append((tc, frm, melds))
                self._open = (tc, melds, seat)
            case Correction(undo=undo):
                rec["undo"] = undo
                moved = self._undo(undo)
            case SelfDrawnHu() if shown and self._can_show(seat):
                card, moved = self._show_hu(seat)
            case SelfDrawnHu():
                button = Button.HU
            case Pass() if not shown:
                button = Button.PASS
        if button is not None:
            rec["button"] = button.value
            self.pace("react")  # a player presses after seeing the table: the reader too
            self.press(self.physical(seat), button)
        if card is not None:
            rec["card"] = str(card[0])
            self.pace("react")
            self.world.lay_card(*card)
        if isinstance(move, PlayerMove):
            self._done.append(moved)
        if moved:
            # a declaration shown by tiles (no buttons) names them apart: `tiles` is what a
            # turn move took (the truth's readers find a draw's or an own kong's tile there)
            claim = isinstance(move, Pung | Hu | RobKong | SelfDrawnHu) or (
                isinstance(move, Kong) and move.kind is MeldKind.KONG
            )
            key = "shown" if claim else "tiles"
            rec[key] = [str(tc) for tc, _, _ in moved]
            rec["from" if not claim else "shown_from"] = [str(f) for _, f, _ in moved]
            rec["to" if not claim else "shown_to"] = [str(t) for _, _, t in moved]
            self.world.move_many(moved)
        self.note(rec)
        if button is not None or moved or card is not None:
            self.pace("settle")
        return rec

    # -- declarations without buttons (issue 18) -------------------------------------------
    def _can_show(self, seat: Seat) -> bool:
        """The table reads a declaration shown by tiles or cards in this seat's melds."""
        return self.world.has_zone(self.zone(ZoneKind.MELDS, seat)) and self.world.has_zone(
            self.zone(ZoneKind.HAND, seat)
        )

    def _show_claim(self, move: Pung | Kong) -> Moved:
        """A pung or melded kong shown at once: the open discard and two or three tiles of
        the hand into the claimer's melds (a Hu may still beat it: `_resolve`)."""
        if self._open is None or self._claimed:
            return []
        tc, frm, discarder = self._open
        hand, melds = self.zone(ZoneKind.HAND, move.seat), self.zone(ZoneKind.MELDS, move.seat)
        moved: Moved = [(tc, frm, melds)]
        for _ in range(2 if isinstance(move, Pung) else 3):
            moved.append((self._take(tc.tile, hand, moved), hand, melds))
        self._claimed = list(moved)
        self._open = (tc, melds, discarder)
        return moved

    def _show_hu(self, seat: Seat) -> tuple[tuple[Card, Zone] | None, Moved]:
        """`cards`: the seat's Win card in its melds zone; `tiles`: the hand laid open there."""
        melds = self.zone(ZoneKind.MELDS, seat)
        if self.declarations == "cards":
            return (Card(CardKind.HU, self.physical(seat).name), melds), []
        hand = self.zone(ZoneKind.HAND, seat)
        return None, [(tc, hand, melds) for tc in self.world.in_place(hand)]

    def _undo(self, n: int) -> list[tuple[TileCopy, Place, Place]]:
        """A referee takes back the last `n` player moves (000 3.6.A: a discard retrieved):
        their tiles go back where they came from; the claim window they opened is gone."""
        back: list[tuple[TileCopy, Place, Place]] = []
        for _ in range(n):
            if not self._done:
                break
            for tc, frm, to in reversed(self._done.pop()):
                if isinstance(frm, WallSpot):
                    raise ValueError(f"{tc} cannot go back into the wall")
                back.append((tc, to, frm))
        self._open, self._declared, self._claimed = None, [], []
        return back

    def _resolve(self) -> tuple[list[tuple[TileCopy, Place, Place]], Seat | None]:
        """The window closes: the first Hu declarer counter-clockwise from the discarder
        takes the tile (Hu beats Pung/Kong; the others Hu on it without moving it), or
        the pung/kong claimer melds it with tiles of its hand."""
        declared, self._declared = self._declared, []
        shown, self._shown = self._shown, []
        claimed, self._claimed = self._claimed, []
        if self._open is None or not declared:
            return [], None
        tc, frm, discarder = self._open
        hu = [m for m in declared if isinstance(m, Hu | RobKong)]
        melded = [m for m in declared if isinstance(m, Pung | Kong)]
        back = [(c, to, was) for c, was, to in shown]  # a beaten chow's tiles go home
        if hu:
            winner = min(hu, key=lambda m: (m.seat - discarder) % 4).seat
            self._open = None
            # a pung shown at once and beaten: its hand tiles go home
            back += [(c, to, was) for c, was, to in claimed if c != tc]
            kind = ZoneKind.MELDS if self.declarations == "tiles" else ZoneKind.HAND
            if not self._can_show(winner) or self.declarations == "buttons":
                kind = ZoneKind.HAND
            return [(tc, frm, self.zone(kind, winner)), *back], winner
        if claimed:
            self._open = None
            return back, melded[0].seat  # shown when declared; a beaten chow's tiles go home
        if not melded:  # 001 IV 2.1: the chow, whose two tiles already lie in the melds
            (chow,) = [m for m in declared if isinstance(m, Chow)]
            self._open = None
            return [(tc, frm, self.zone(ZoneKind.MELDS, chow.seat))], chow.seat
        claim = melded[0]
        hand, melds = self.zone(ZoneKind.HAND, claim.seat), self.zone(ZoneKind.MELDS, claim.seat)
        moved: Moved = [(tc, frm, melds), *back]
        for _ in range(2 if isinstance(claim, Pung) else 3):
            moved.append((self._take(tc.tile, hand, moved), hand, melds))
        self._open = None
        return moved, claim.seat

    def _show_chow(self, seat: Seat, low: Tile) -> Moved:
        """The two tiles of the hand that make the chow `low` with the open discard, laid
        in the melds as the CHOW button is pressed."""
        assert self._open is not None
        discard = self._open[0].tile
        hand, melds = self.zone(ZoneKind.HAND, seat), self.zone(ZoneKind.MELDS, seat)
        moved: Moved = []
        for step in range(3):
            t = Tile(low + step)
            if t is not discard:
                moved.append((self._take(t, hand, moved), hand, melds))
        self._shown = list(moved)
        return moved

    def _holds(self, tile: Tile, place: Place) -> bool:
        return any(tc.tile is tile for tc in self.world.in_place(place))

    def _take_held(self, tile: Tile, seat: Seat, already=()) -> tuple[TileCopy, Place]:
        """A tile of `seat`'s for a kong: from the hand, else the face-down void tile (the
        judge counts it as held, and a concealed kong of the void suit takes it along)."""
        hand, void = self.zone(ZoneKind.HAND, seat), self.zone(ZoneKind.VOID, seat)
        taken = {tc for tc, _, _ in already}
        for place in (hand, void):
            for tc in self.world.in_place(place):
                if tc.tile is tile and tc not in taken:
                    return tc, place
        raise ValueError(f"no {tile} left at {place_name(hand)} or {place_name(void)}")

    def _take(self, tile: Tile, place: Place, already=()) -> TileCopy:
        taken = {tc for tc, _, _ in already}
        for tc in self.world.in_place(place):
            if tc.tile is tile and tc not in taken:
                return tc
        raise ValueError(f"no {tile} left at {place}")


# --------------------------------------------------------------------------- the bots


@dataclass(frozen=True, slots=True)
class DealPlan:
    """One deal decided in advance by the judge's bots: the moves, in order, each with the
    bots' simulated time `t` (seconds from the deal's start)."""

    dice: Dice
    moves: tuple[Move, ...]
    next_dealer: int  # deal seat (0 = this dealer) of the next deal's dealer


def plan_deal(
    rs: RuleSet,
    dice: Dice,
    tiles: tuple[Tile, ...],
    rng: random.Random,
    referee: bool = True,
    prevalent: Seat = Seat.E,
) -> DealPlan:
    """Plays the deal on the physical wall with the seeded bots of rules.bots (through the
    judge, so every move is legal; referee corrections and penalties included unless
    `referee` is False: the same random draws are made, so the deals stay the same up to
    where a referee would have stepped in). `prevalent` is the round wind (rule sets that
    score winds, 001 II 3)."""
    from dataclasses import replace

    from rules.bots import DEFAULT_STYLE, BotError, BotTable
    from rules.deal import Deal

    deal = Deal.start(rs, dice, tiles, prevalent=prevalent)
    style = DEFAULT_STYLE
    if not referee:
        style = replace(style, retrieve_discard=0.0, referee_penalty=0.0)
    table = BotTable(rs, rng, style)
    moves: list[Move] = []
    while (move := table.next_move(deal)) is not None:
        result = deal.apply(move)
        if not result:
            raise BotError(f"the judge refused the bots' {move}: {result}")
        moves.append(move)
    return DealPlan(dice, tuple(moves), _next_dealer(deal))


def _next_dealer(deal) -> int:
    """RULES.md: nobody won → same dealer; first Hu by one player → that player; several on
    one discard → the discarder, or as the rule set's `dealer.multiple-hu` says (Wellness,
    001 IV 1.2). A false Hu does not count. The judge's own rule (rules.record)."""
    from rules.record import next_dealer

    return int(next_dealer(deal))
