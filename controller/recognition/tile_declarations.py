"""Declarations read from the tiles alone (issue 18): a table without seat buttons, or whose
players only show what they claim. The shapes, each read only when every tile of it has
settled (transit noise never makes a claim: a pung is read only when the discard AND the two
hand tiles lie in the claimer's melds):

| shape on the table (`tiles` among the profile's declaration sources) | declaration |
|---|---|
| the open discard leaves the discarder's river for the claimer's melds, with two of the claimer's tiles from the hand | `Pung` |
| the same with three tiles from the hand | melded `Kong` |
| the same with a discard never read in the river (it settled late, the claimer took it) | the `Discard` and the claim together |
| four tiles hand → melds on one's own turn; one onto a pung | concealed / promoted / postponed `Kong` (read by `readings.Reader`, here without the KONG button) |
| (tiles only: no cards, no buttons) a player's whole hand laid open in the melds | `SelfDrawnHu` on one's own turn (with the draw, when the drawn tile was laid open before it was read), `RobKong` in a robbing window, `Hu` on the open discard (the melds hold the hand and at most that tile) |
| (tiles only) the same with one tile more that left the hand of the player to discard, never read in the river, when the hand wins on it | the `Discard` and the `Hu` together |
| (tiles only) a seat that laid no void tile and holds no tile of a suit, when play starts (a tile in a river) | `ChooseVoid` of that suit (the lower of two) with no tile (nothing can be laid: the indicator card's case, 004 Lesson 2) |

A pung by a player who holds a third copy may be a kong still being laid (the fourth tile
settles a round later): it is read once its shape has stood for the reader's debounce window
(`ClaimHold`). A pass is silence until the claim clock runs out. Claims are read against the window still
open, or the one the runtime's view of the table has just closed (`claim_clock._as_seen`:
tiles are read as if the window had closed now): the runtime judges the claim on the real
window, with the time the tiles were read, so claim priority and the 3-second window are
judged by the tiles (a claim read after the window closed is refused as late).
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.alerts import AlertKind
from controller.locale import Said, says
from controller.profiles import ZoneKind
from controller.recognition.alert_said import side_said, void_shown
from controller.recognition.expected import Layout, Spot, Tally
from controller.recognition.readings import Reading
from controller.recognition.results import MoveSeen, RefereeAlert
from rules.claims import WindowKind, is_claim
from rules.deal import Deal
from rules.deal_state import Phase
from rules.melds import MeldKind
from rules.moves import (
    ChooseVoid,
    CloseClaims,
    Discard,
    Draw,
    Hu,
    Kong,
    Move,
    Pung,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
)
from rules.seats import SEATS, Seat
from rules.tiles import TILES, Suit, Tile

ADDED = (MeldKind.PROMOTED_KONG, MeldKind.POSTPONED_KONG)


@dataclass(frozen=True, slots=True)
class OpenTile:
    """The tile open to claims: the window's kind, who gave it, the tile, and the seats
    that declared in it already (none when the runtime's view has closed it)."""

    kind: WindowKind
    giver: Seat
    tile: Tile
    declared: frozenset[Seat] = frozenset()


def open_tile(deal: Deal) -> OpenTile | None:
    """The window still open, or the one just closed (the runtime reads tiles as if the open
    window had closed now: its claims are resolved in that view, and a Hu shown after a
    pung was declared is still for that discard)."""
    w = deal.window
    if w is not None:
        return OpenTile(w.kind, w.discarder, w.tile, frozenset(s for s, _ in w.declared))
    moves = deal.moves
    if not moves or not isinstance(moves[-1], CloseClaims):
        return None
    declared: set[Seat] = set()
    for m in reversed(moves[:-1]):
        if isinstance(m, Discard):
            return OpenTile(WindowKind.DISCARD, m.seat, m.tile, frozenset(declared))
        if isinstance(m, Kong) and m.kind in ADDED and m.tile is not None:
            return OpenTile(WindowKind.ROBBING, m.seat, m.tile, frozenset(declared))
        if not is_claim(m):
            return None
        declared.add(m.seat)  # a claim of that window (a Hu may still beat a pung)
    return None


def claim_readings(layout: Layout, deal: Deal, res: Tally) -> list[Reading]:
    """Pungs and melded kongs of the open discard shown by the tiles; also of a discard the
    reader never saw in the river (it settled late and the claimer took it at once): the
    discard and the claim are read together."""
    if deal.over:
        return []
    o = open_tile(deal)
    if o is not None and o.kind is WindowKind.DISCARD:
        # where the judge has the discard: the river, or (the runtime's view resolved a Hu
        # declared on it) a winner's hand or melds; a pung shown there took it from there
        places = [layout.zone(ZoneKind.RIVER, o.giver)]
        for s in o.declared:
            places += [layout.zone(ZoneKind.HAND, s), layout.zone(ZoneKind.MELDS, s)]
        for z in places:
            if z is not None and res.get(Spot(z, o.tile), 0) < 0:  # it left from there
                return _claims(layout, deal, res, o, (Spot(z, o.tile),), ())
    out: list[Reading] = []
    for spot in _unread_discards(layout, deal, res):
        discard = Discard(deal.turn, spot.tile)
        unread = OpenTile(WindowKind.DISCARD, deal.turn, spot.tile)
        out += _claims(layout, deal, res, unread, (spot,), (discard,))
    return out


def _unread_discards(layout: Layout, deal: Deal, res: Tally) -> list[Spot]:
    """Where a discard never read in the river may have come from: the player to discard
    (no window open) lost a tile it may discard from its hand or its void spot."""
    if deal.window is not None or deal.phase is not Phase.DISCARD:
        return []
    giver = deal.turn
    hz = layout.zone(ZoneKind.HAND, giver)
    vz = layout.zone(ZoneKind.VOID, giver)
    out: list[Spot] = []
    for spot, n in res.items():
        if n >= 0 or spot.zone not in (hz, vz):
            continue
        if spot.zone == vz and deal.laid_tile(giver) != spot.tile:
            continue
        if spot.zone == hz and deal.laid_tile(giver) not in (None, spot.tile):
            continue  # the face-down void tile is the first discard
        out.append(spot)
    return out


def _claims(
    layout: Layout,
    deal: Deal,
    res: Tally,
    o: OpenTile,
    taken: tuple[Spot, ...],
    before: tuple[Move, ...],
) -> list[Reading]:
    t = o.tile
    out: list[Reading] = []
    for seat in SEATS:
        if seat is o.giver or deal.is_out(seat) or seat in o.declared:
            continue
        hz = layout.zone(ZoneKind.HAND, seat)
        mz = layout.zone(ZoneKind.MELDS, seat)
        if hz is None or mz is None:
            continue  # without a melds antenna a claim cannot be told from tiles in transit
        vz = layout.zone(ZoneKind.VOID, seat)
        held = [Spot(hz, t)]
        if vz is not None and deal.laid_tile(seat) == t:
            held.append(Spot(vz, t))  # the face-down void tile goes into the set too
        lost = -sum(min(res.get(s, 0), 0) for s in held)
        laid = res.get(Spot(mz, t), 0)
        move: Move | None = None
        if laid == 3 and lost == 2:
            move = Pung(seat)
        elif laid == 4 and lost == 3:
            move = Kong(seat, MeldKind.KONG, t)
        if move is not None:
            spots = frozenset({*taken, Spot(mz, t), *held})
            out.append(Reading(seat, (*before, move), spots))
    return out


def hu_readings(layout: Layout, deal: Deal, res: Tally) -> list[Reading]:
    """A hand laid open in its melds zone: the Hu its moment makes (tables whose only
    declarations are the tiles, `Layout.open_hands`)."""
    if not layout.open_hands or deal.over or deal.phase is Phase.CHOOSING_VOID:
        return []
    o = open_tile(deal)
    out: list[Reading] = []
    for seat in SEATS:
        if deal.is_out(seat):
            continue
        hz = layout.zone(ZoneKind.HAND, seat)
        mz = layout.zone(ZoneKind.MELDS, seat)
        if hz is None or mz is None:
            continue
        counts = list(deal.counts(seat))
        laid = deal.laid_tile(seat)
        if laid is not None and layout.zone(ZoneKind.VOID, seat) is not None:
            counts[laid] -= 1
        spots: set[Spot] = set()
        for i, n in enumerate(counts):
            if not n:
                continue
            x = TILES[i]
            if res.get(Spot(hz, x), 0) != -n or res.get(Spot(mz, x), 0) < n:
                break
            spots |= {Spot(hz, x), Spot(mz, x)}
        else:
            if not spots:
                continue
            # tiles in the melds beyond the hand: none, the tile a Hu on a discard took, or
            # a tile drawn and laid open with the hand before the draw was read
            extra = [
                sp.tile
                for sp, n in res.items()
                if sp.zone == mz and n > counts[sp.tile]
                for _ in range(n - counts[sp.tile])
            ]
            took = o is not None and _left_river(layout, res, o)
            moves = _hu_now(deal, seat, o, extra, took)
            river = None if o is None else layout.zone(ZoneKind.RIVER, o.giver)
            if moves and took and isinstance(moves[-1], Hu) and o is not None and river:
                # the discard it took: a pung shown in the open hand is a part of this Hu
                spots.add(Spot(river, o.tile))
            if not moves:
                moves = _hu_on_unread(layout, deal, res, seat, extra, spots)
            if moves:
                out.append(Reading(seat, moves, frozenset(spots)))
    return out


def _hu_on_unread(
    layout: Layout, deal: Deal, res: Tally, seat: Seat, extra: list[Tile], spots: set[Spot]
) -> tuple[Move, ...]:
    """The hand laid open with one tile more, which left the hand (or void spot) of the
    player to discard, and the hand wins on it: that player's discard, never read in the
    river (it went straight into the winner's melds, or stayed there for less than the
    debounce), and the Hu on it (tiles campaign seed 502 deal 73). The discarder's spot
    joins `spots`. Read only when the judge takes both, the Hu as a win: a guessed discard
    with a false Hu would end that player's deal, so the referee is told of that residue."""
    if len(extra) != 1 or deal.turn is seat:
        return ()
    (tile,) = extra
    for spot in _unread_discards(layout, deal, res):
        if spot.tile != tile or not deal.wins(seat, tile):
            continue
        moves = (Discard(deal.turn, tile), Hu(seat))
        trial = deal.copy()
        if trial.apply(moves[0]) and trial.check(moves[1]) is None:
            spots.add(spot)
            return moves
    return ()


def _left_river(layout: Layout, res: Tally, o: OpenTile) -> bool:
    """The open discard has left the discarder's river (a claimer took it)."""
    river = layout.zone(ZoneKind.RIVER, o.giver)
    if river is None or o.kind is not WindowKind.DISCARD:
        return False
    return res.get(Spot(river, o.tile), 0) < 0


def _hu_now(
    deal: Deal, seat: Seat, o: OpenTile | None, extra: list[Tile], took: bool = False
) -> tuple[Move, ...]:
    """`took`: the open discard left the river. The next player's hand laid open with that
    tile is a Hu on it, not a draw of the same tile and a self-drawn Hu (when the wall's next
    tile was of that kind the judge took both). The next player's hand laid open alone, when
    it does not win on the discard, waits: its draw may not be read yet (tiles campaign seed
    502 deal 38: S drew 2s and laid it open with the hand, read as a false Hu on N's 2m
    before the 2s settled, and the deal ended there)."""
    own_turn = deal.window is None and deal.turn is seat
    if own_turn and deal.phase is Phase.DISCARD and not extra:
        return (SelfDrawnHu(seat),)
    to_draw = own_turn and deal.phase in (Phase.DRAW, Phase.REPLACEMENT)
    if to_draw and not extra and (o is None or not deal.wins(seat, o.tile)):
        return ()
    on_discard = took and o is not None and extra == [o.tile] and o.giver is not seat
    if own_turn and deal.phase in (Phase.DRAW, Phase.REPLACEMENT) and len(extra) == 1:
        if on_discard and o is not None and seat not in o.declared:
            return (Hu(seat),)
        take = Draw if deal.phase is Phase.DRAW else ReplacementDraw
        return (take(seat, extra[0]), SelfDrawnHu(seat))  # the wall decides (the judge)
    if o is None or o.giver is seat or seat in o.declared or extra not in ([], [o.tile]):
        return ()
    return (RobKong(seat),) if o.kind is WindowKind.ROBBING else (Hu(seat),)


def false_hu_shown(
    deal: Deal, moves: tuple[Move, ...], note: Said, layout: Layout
) -> list[RefereeAlert]:
    """The referee's alert for a Hu the tiles show that the judge takes as a false Hu, as a
    button's or a card's (`declarations.false_hu_alert`). The tiles are read on the runtime's
    view (`claim_clock._as_seen`: the window closed now), where the judge's own check refuses
    a Hu: it is judged on the open tile (`open_tile`), a self-drawn Hu after its draw."""
    move = moves[-1]
    if isinstance(move, Hu | RobKong):
        o = open_tile(deal)
        false = o is not None and not deal.wins(move.seat, o.tile)
    elif isinstance(move, SelfDrawnHu):
        trial = deal.copy()
        for m in moves[:-1]:
            if trial.window is not None and trial.check(m) is not None:
                trial.apply(CloseClaims())  # the draw closes the window it follows
            if trial.check(m) is not None:
                return []  # the judge refuses the draw: it says why itself
            trial.apply(m)
        false = trial.check(move) is None and not trial.wins(move.seat)
    else:
        return []
    if not false:
        return []
    said = says(
        "{seat} declared Hu without a winning hand (accepted as a false Hu)",
        seat=side_said(move.seat, layout),
    )
    return [RefereeAlert(AlertKind.FALSE_HU, layout.side(move.seat), said, (note,))]


def is_tile_claim(move: Move) -> bool:
    """A claim read from the tiles: judged by the runtime on its real window."""
    return isinstance(move, Pung | Hu | RobKong) or (
        isinstance(move, Kong) and move.kind is MeldKind.KONG
    )


def silent_voids(layout: Layout, deal: Deal, res: Tally) -> list[MoveSeen]:
    """Tiles only: once play starts (a tile in a river) while voids are still missing, a seat
    that laid no tile and holds no tile of a suit has that void (it had no tile to lay, and no
    card or button to say it; a player lacking a suit may still choose another and lay its
    tile, so nothing is inferred before); lacking two suits (a one-suit hand), the lower one:
    neither is held, and nothing on the table says which."""
    if not layout.open_hands or deal.phase is not Phase.CHOOSING_VOID:
        return []
    if not any(n > 0 and s.zone.kind is ZoneKind.RIVER for s, n in res.items()):
        return []
    out = []
    for seat in SEATS:
        if deal.void(seat) is not None:
            continue
        suits = [
            s for s in (Suit.M, Suit.P, Suit.S) if not any(t.suit is s for t in deal.hand(seat))
        ]
        if suits:
            note = void_shown(seat, layout, suits[0])
            out.append(MoveSeen(ChooseVoid(seat, suits[0]), (note,)))
    return out


class ClaimHold:
    """A pung whose claimer holds one more copy could be a kong whose last tile has not
    settled yet: read once the same shape has stood for `seconds` (the reader profile's
    debounce window, a round more), or as soon as the claimer's discard shows (a kong's
    declarer draws a replacement first; a fast table discards before those seconds)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._since: dict[tuple[Seat, tuple[Move, ...]], float] = {}

    def waits(self, layout: Layout, deal: Deal, res: Tally, r: Reading, now: float | None) -> bool:
        move = r.moves[-1]
        if not isinstance(move, Pung):
            return False
        rz = layout.zone(ZoneKind.RIVER, move.seat)
        if rz is not None and any(n > 0 and s.zone == rz for s, n in res.items()):
            return False  # the claimer discarded already: a kong would have drawn first
        tile = r.moves[0].tile if isinstance(r.moves[0], Discard) else None
        if tile is None:
            o = open_tile(deal)
            tile = o.tile if o is not None else None
        if tile is None or deal.counts(move.seat)[tile] < 3:
            return False
        if now is None:
            return True
        since = self._since.setdefault((r.seat, r.moves), now)
        return now - since < self.seconds

    def clear(self) -> None:
        self._since.clear()
