"""Residue shapes read as moves (controller.recognition.recogniser): which single move of
which player would turn the judge's table into the one the reader sees. The inverse of
tools/sim/player.py move by move; the judge decides afterwards whether the move is legal.

| shape | move |
|---|---|
| a tile hand (or void spot) → river | Discard |
| a tile hand → void spot, while voids are chosen | ChooseVoid |
| a tile hand → river, while that seat's void is still to be chosen and it holds every suit | ChooseVoid (the laid tile) |
| four tiles hand (and the laid void tile) → melds / one onto a pung (needs the KONG button) |
  own-turn Kong |
| a tile from the wall onto the pung of the player to draw (needs the KONG button) | Draw and
  promoted Kong |
| a new tile in the hand of the player due to draw (or of the next player, or of a kong's
  declarer, while the window is still open) | Draw / ReplacementDraw |
| the next wall tile straight into the river of the player due to draw, its stay in the hand
  unread | Draw / ReplacementDraw and Discard |
| two tiles hand → melds making a chow with the open discard (needs a pending CHOW button;
  read in controller.recognition.recogniser, which holds the button) | Chow |
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from controller.devices.events import Button
from controller.profiles import TileCopy, Zone, ZoneKind
from controller.recognition.expected import Layout, Spot, Tally
from rules.claims import WindowKind
from rules.deal import Deal
from rules.deal_state import Phase
from rules.melds import Meld, MeldKind
from rules.moves import (
    ChooseVoid,
    Chow,
    CloseClaims,
    Discard,
    Draw,
    Kong,
    Move,
    Pass,
    Pung,
    ReplacementDraw,
)
from rules.seats import Seat
from rules.tiles import Tile


@dataclass(frozen=True, slots=True)
class Reading:
    """A residue shape read as moves of one seat; `button` is the declaration it needs."""

    seat: Seat
    moves: tuple[Move, ...]
    spots: frozenset[Spot]
    button: Button | None = None
    closes: bool = False  # a draw seen while the window is still open: it closes it


def lost(res: Tally, zone: Zone | None, tile: Tile) -> bool:
    return zone is not None and res.get(Spot(zone, tile), 0) < 0


def _lays_a_tile(deal: Deal, seat: Seat) -> bool:
    """`seat`'s void is still to be chosen and any choice lays a tile (it holds every suit: a
    player short of a suit may choose it by button with nothing laid, and then a tile in its
    river is a discard, not a void choice)."""
    if deal.phase is not Phase.CHOOSING_VOID or deal.void(seat) is not None:
        return False
    return len({t.suit for t in deal.hand(seat)}) == 3


class Reader:
    """One look at the table: the layout, where each tile copy lies, the copies off the wall
    whose draw the judge has not taken (`new`: in a hand, a draw; in a river, a draw and its
    discard), and the seats with a KONG button pending."""

    def __init__(
        self,
        layout: Layout,
        where: Mapping[TileCopy, Zone],
        new: Collection[TileCopy],
        declared: Collection[Seat],
    ) -> None:
        self.layout = layout
        self.where = where
        self.new = new
        self.declared = declared

    def read(self, deal: Deal, res: Tally) -> list[Reading]:
        out: list[Reading] = []
        straight: list[Reading] = []
        for spot, n in res.items():
            if spot.zone.seat is None:
                continue
            if n < 0:
                out += self._unwatched_kong(deal, res, spot, n)
                continue
            seat = self.layout.seat(spot.zone.seat)
            kind, t = spot.zone.kind, spot.tile
            hz = self.layout.zone(ZoneKind.HAND, seat)
            vz = self.layout.zone(ZoneKind.VOID, seat)
            if kind is ZoneKind.RIVER:
                src = vz if lost(res, vz, t) and deal.laid_tile(seat) == t else None
                src = (
                    src or (hz if lost(res, hz, t) else None) or (vz if lost(res, vz, t) else None)
                )
                if src is not None:
                    spots = frozenset({spot, Spot(src, t)})
                    move: Move = Discard(seat, t)
                    if src is hz and _lays_a_tile(deal, seat):
                        # nothing reaches a river before the voids are chosen but a laid
                        # void tile, discarded before its stay on the void spot was read
                        # (campaign seed 200, deals 71 and 87: a fast dealer's)
                        move = ChooseVoid(seat, t.suit, t)
                    out.append(Reading(seat, (move,), spots))
                else:
                    straight += self._straight_reading(deal, res, seat, spot, n)
            elif kind is ZoneKind.VOID and deal.phase is Phase.CHOOSING_VOID and lost(res, hz, t):
                assert hz is not None
                spots = frozenset({spot, Spot(hz, t)})
                out.append(Reading(seat, (ChooseVoid(seat, t.suit, t),), spots))
            elif kind is ZoneKind.MELDS:
                out += self._kong_reading(deal, res, seat, spot, n, hz)
            elif kind is ZoneKind.HAND:
                out += self._draw_reading(deal, res, seat, spot)
        if not straight:
            return out
        # a wall tile gone straight to the river was drawn before any tile the hand shows
        # drawn: the hand's draw is the next one, read after it
        seats = {r.seat for r in straight}
        return [r for r in out if r.seat not in seats or not _a_draw(r)] + straight

    def _kong_reading(
        self, deal: Deal, res: Tally, seat: Seat, spot: Spot, n: int, hz: Zone | None
    ) -> list[Reading]:
        if deal.phase is Phase.DRAW and deal.turn is seat:
            return _drawn_onto_a_pung(deal, res, seat, spot, n)
        if deal.phase is not Phase.DISCARD or deal.turn is not seat or hz is None:
            return []
        t = spot.tile
        held = self._held_spots(deal, seat, t, hz)
        lost = -sum(min(res.get(s, 0), 0) for s in held)
        spots = frozenset({spot, *held})
        if n >= 4 and lost >= 4:
            return [Reading(seat, (Kong(seat, MeldKind.CONCEALED_KONG, t),), spots, Button.KONG)]
        if lost >= 1 and Meld(MeldKind.PUNG, t) in deal.melds(seat):
            # RULES.md: promoted when the fourth tile was freshly drawn, else postponed
            kind = MeldKind.PROMOTED_KONG if deal.drawn == t else MeldKind.POSTPONED_KONG
            return [Reading(seat, (Kong(seat, kind, t),), spots, Button.KONG)]
        return []

    def _unwatched_kong(self, deal: Deal, res: Tally, spot: Spot, n: int) -> list[Reading]:
        """No melds antenna: a KONG button and tiles leaving the hand are the kong."""
        if spot.zone.kind is not ZoneKind.HAND or spot.zone.seat is None:
            return []
        seat = self.layout.seat(spot.zone.seat)
        if seat not in self.declared:
            return []
        if self.layout.zone(ZoneKind.MELDS, seat) is not None:
            return []
        if deal.phase is not Phase.DISCARD or deal.turn is not seat:
            return []
        t = spot.tile
        held = self._held_spots(deal, seat, t, spot.zone)
        lost = -sum(min(res.get(s, 0), 0) for s in held)
        if lost >= 4 and deal.counts(seat)[t] == 4:
            move = Kong(seat, MeldKind.CONCEALED_KONG, t)
        elif lost == 1 and Meld(MeldKind.PUNG, t) in deal.melds(seat):
            kind = MeldKind.PROMOTED_KONG if deal.drawn == t else MeldKind.POSTPONED_KONG
            move = Kong(seat, kind, t)
        else:
            return []
        return [Reading(seat, (move,), frozenset(held), Button.KONG)]

    def _held_spots(self, deal: Deal, seat: Seat, t: Tile, hz: Zone) -> tuple[Spot, ...]:
        """Where `seat`'s own tiles `t` lie: the hand, and the void spot when the face-down
        void tile is a `t` (a kong of the void suit takes it along: 004 lets it be declared,
        at the 48-point penalty; seed 1016 melded 9m with the laid 9m)."""
        vz = self.layout.zone(ZoneKind.VOID, seat)
        if vz is not None and deal.laid_tile(seat) == t:
            return (Spot(hz, t), Spot(vz, t))
        return (Spot(hz, t),)

    def _draw_reading(self, deal: Deal, res: Tally, seat: Seat, spot: Spot) -> list[Reading]:
        t = spot.tile
        for other, n in res.items():
            if n >= 0 or other.zone.seat is None:
                continue
            if other.tile == t and (
                other.zone.kind is ZoneKind.RIVER or other.zone.seat == spot.zone.seat
            ):
                return []  # the tile came from a watched zone, not from the wall
            mine = other.zone.kind is ZoneKind.MELDS and other.zone.seat == spot.zone.seat
            if mine and _still_out(res, other):
                # a declared meld not laid down yet (a meld tile that lies nowhere else is
                # a missed read: 10/10/2 seed 312 deal 14, a draw then a kong unread)
                return []
        if not any(tc.tile == t and self.where.get(tc) == spot.zone for tc in self.new):
            return []  # no new tile: one that was there before (a meld not laid down yet)
        surplus = sum(n for o, n in res.items() if o.zone == spot.zone and n > 0)
        if surplus != 1:
            return []  # a draw brings one tile; more is a claimed meld not laid down yet
        taken = _taken_now(deal, seat, t)
        if taken is None:
            return []
        take, closes = taken
        return [Reading(seat, (take,), frozenset({spot}), closes=closes)]

    def _straight_reading(
        self, deal: Deal, res: Tally, seat: Seat, spot: Spot, n: int
    ) -> list[Reading]:
        """The next wall tile in the river of the player due to take it, come there straight
        from the wall and no watched zone short of it: its draw, its stay in the hand unread,
        and its discard (10/10/2 seed 313 deal 36: S's 7m lay in its river while the claims
        on E's 3m stayed open, unread until S drew another 7m a turn later; that draw was
        taken for this one and the 4m discarded after it for this discard, the 7m in the
        river for a later one)."""
        t = spot.tile
        if n != 1 or any(m < 0 and s.tile == t for s, m in res.items()):
            return []  # it came from a watched zone (a hand read late, crosstalk, a claim)
        if not any(tc.tile == t and self.where.get(tc) == spot.zone for tc in self.new):
            return []
        taken = _taken_now(deal, seat, t)
        if taken is None:
            return []
        take, closes = taken
        nxt = deal.wall.peek() if isinstance(take, Draw) else deal.wall.peek_replacement()
        if nxt is not None and nxt != t:
            return []  # not the tile it would take
        return [Reading(seat, (take, Discard(seat, t)), frozenset({spot}), closes=closes)]


def _a_draw(r: Reading) -> bool:
    return len(r.moves) == 1 and isinstance(r.moves[0], Draw | ReplacementDraw)


def _taken_now(deal: Deal, seat: Seat, t: Tile) -> tuple[Move, bool] | None:
    """The draw of `t` by `seat` the judge would take now, and whether it closes the open
    claim window first (the window closes early when the next player takes a tile, issue 5
    item 3; the runtime closes it, as it owns the claim clock); None: not `seat`'s to take."""
    if deal.turn is seat and deal.phase is Phase.DRAW:
        return Draw(seat, t), False
    if deal.turn is seat and deal.phase is Phase.REPLACEMENT:
        return ReplacementDraw(seat, t), False
    w = deal.window
    if w is None or w.last or any(not isinstance(c, Pass) for _, c in w.declared):
        return None
    if w.kind is WindowKind.DISCARD:
        nxt = next(
            (s for s in (w.discarder.after(i) for i in (1, 2, 3)) if not deal.is_out(s)), None
        )
        return (Draw(seat, t), True) if nxt is seat else None
    return (ReplacementDraw(seat, t), True) if w.discarder is seat else None


def _drawn_onto_a_pung(deal: Deal, res: Tally, seat: Seat, spot: Spot, n: int) -> list[Reading]:
    """The player to draw shows one tile more on its pung, a tile no watched zone lost: its
    draw, laid onto the pung before it was read in the hand, and the promoted kong (tiles
    campaign seed 503 deal 14: S's 3m was read in its hand twice in 0.1 s, then on its 3m
    pung; the draw was never read, nor anything after it, and S's Hu was taken for a false
    self-drawn Hu with that 3m)."""
    t = spot.tile
    if n != 1 or Meld(MeldKind.PUNG, t) not in deal.melds(seat):
        return []
    if any(m < 0 and s.tile == t for s, m in res.items()):
        return []  # it came from a watched zone, not from the wall
    if any(m < 0 and s.zone.seat == spot.zone.seat for s, m in res.items()):
        return []  # its hand is being laid open: a self-drawn Hu with that tile (hu_readings)
    moves = (Draw(seat, t), Kong(seat, MeldKind.PROMOTED_KONG, t))
    return [Reading(seat, moves, frozenset({spot}), Button.KONG)]


def _still_out(res: Tally, melds: Spot) -> bool:
    """A tile of the meld missing at `melds` lies elsewhere: in that seat's hand, or in a
    river (a claimed discard); a missed read of a laid tile lies nowhere."""
    return any(
        n > 0
        and o.tile == melds.tile
        and (o.zone.kind is ZoneKind.RIVER or o.zone.seat == melds.zone.seat)
        for o, n in res.items()
    )


def orphan(res: Tally) -> bool:
    """A tile settled in a river that no hand or void spot of that seat lost: the table
    went past a move the reader missed (a drawn tile discarded before it settled)."""
    for spot, n in res.items():
        if n > 0 and spot.zone.kind is ZoneKind.RIVER:
            side = spot.zone.seat
            if not any(
                m < 0 and o.tile == spot.tile and o.zone.seat == side for o, m in res.items()
            ):
                return True
    return False


def shown(moves: tuple[Move, ...], declared: Collection[Seat], claims: bool = False) -> bool:
    """Moves the table showed without a button being missed: tile moves, a window's
    close, own-turn kongs whose KONG button is pending and chows whose CHOW button is;
    with `claims` (the tiles are a declaration source) pungs and melded kongs too."""
    if not moves:
        return False
    for m in moves:
        if claims and (isinstance(m, Pung) or (isinstance(m, Kong) and m.kind is MeldKind.KONG)):
            continue
        if (isinstance(m, Kong) and m.kind is not MeldKind.KONG) or isinstance(m, Chow):
            if m.seat not in declared:
                return False
        elif not isinstance(m, Draw | ReplacementDraw | Discard | ChooseVoid | CloseClaims):
            return False
    return True


def move_text(m: Move) -> str:
    name = type(m).__name__
    seat = getattr(m, "seat", None)
    tile = getattr(m, "tile", None)
    kind = getattr(m, "kind", None) or getattr(m, "suit", None)
    parts = [name] + [str(x) for x in (seat, kind, tile) if x is not None]
    return " ".join(parts)
