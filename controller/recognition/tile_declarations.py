"""Declarations read from the tiles alone (issue 18): a table without seat buttons, or whose
players only show what they claim. The shapes, each read only when every tile of it has
settled (transit noise never makes a claim: a pung is read only when the discard AND the two
hand tiles lie in the claimer's melds):

| shape on the table (`tiles` among the profile's declaration sources) | declaration |
|---|---|
| the open discard leaves the discarder's river for the claimer's melds, with two of the claimer's tiles from the hand | `Pung` |
| the same with three tiles from the hand | melded `Kong` |
| four tiles hand → melds on one's own turn; one onto a pung | concealed / promoted / postponed `Kong` (read by `readings.Reader`, here without the KONG button) |
| (tiles only: no cards, no buttons) a player's whole hand laid open in the melds | `SelfDrawnHu` on one's own turn, `RobKong` in a robbing window, `Hu` on the open discard |
| (tiles only) a dealt hand with no tile of one suit | `ChooseVoid` of that suit with no tile (nothing can be laid: the indicator card's case, 004 Lesson 2), once the hands are dealt |

A pass is silence until the claim clock runs out. Claims are read against the window still
open, or the one the runtime's view of the table has just closed (`claim_clock._as_seen`:
tiles are read as if the window had closed now): the runtime judges the claim on the real
window, with the time the tiles were read, so claim priority and the 3-second window are
judged by the tiles (a claim read after the window closed is refused as late).
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.profiles import ZoneKind
from controller.recognition.expected import Layout, Spot, Tally
from controller.recognition.readings import Reading
from controller.recognition.results import MoveSeen
from rules.claims import WindowKind
from rules.deal import Deal, Phase
from rules.melds import MeldKind
from rules.moves import (
    ChooseVoid,
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
    """The window still open, or the one just closed with nothing claimed (the runtime reads
    tiles as if the open window had closed now)."""
    w = deal.window
    if w is not None:
        return OpenTile(w.kind, w.discarder, w.tile, frozenset(s for s, _ in w.declared))
    moves = deal.moves
    if not moves or not isinstance(moves[-1], CloseClaims):
        return None
    for m in reversed(moves[:-1]):
        if isinstance(m, Pass):
            continue
        if isinstance(m, Discard):
            return OpenTile(WindowKind.DISCARD, m.seat, m.tile)
        if isinstance(m, Kong) and m.kind in ADDED:
            return OpenTile(WindowKind.ROBBING, m.seat, m.tile)
        return None
    return None


def claim_readings(layout: Layout, deal: Deal, res: Tally) -> list[Reading]:
    """Pungs and melded kongs of the open discard shown by the tiles."""
    if deal.over:
        return []
    o = open_tile(deal)
    if o is None or o.kind is not WindowKind.DISCARD:
        return []
    rz = layout.zone(ZoneKind.RIVER, o.giver)
    if rz is None or res.get(Spot(rz, o.tile), 0) >= 0:
        return []  # the discard has not left the river
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
            spots = frozenset({Spot(rz, t), Spot(mz, t), *held})
            out.append(Reading(seat, (move,), spots))
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
            move = _hu_now(deal, seat, o)
            if move is not None:
                out.append(Reading(seat, (move,), frozenset(spots)))
    return out


def _hu_now(deal: Deal, seat: Seat, o: OpenTile | None) -> Move | None:
    if deal.window is None and deal.phase is Phase.DISCARD and deal.turn is seat:
        return SelfDrawnHu(seat)
    if o is None or o.giver is seat or seat in o.declared:
        return None
    return RobKong(seat) if o.kind is WindowKind.ROBBING else Hu(seat)


def is_tile_claim(move: Move) -> bool:
    """A claim read from the tiles: judged by the runtime on its real window."""
    return isinstance(move, Pung | Hu | RobKong) or (
        isinstance(move, Kong) and move.kind is MeldKind.KONG
    )


def silent_voids(layout: Layout, deal: Deal) -> list[MoveSeen]:
    """Tiles only: a seat whose dealt hand holds no tile of exactly one suit has that void
    (it has no tile to lay, and no card or button to say it)."""
    if not layout.open_hands or deal.phase is not Phase.CHOOSING_VOID:
        return []
    out = []
    for seat in SEATS:
        if deal.void(seat) is not None:
            continue
        suits = [
            s for s in (Suit.M, Suit.P, Suit.S) if not any(t.suit is s for t in deal.hand(seat))
        ]
        if len(suits) == 1:
            note = f"{seat} holds no {suits[0]} tile: its void (tiles only, nothing to lay)"
            out.append(MoveSeen(ChooseVoid(seat, suits[0]), (note,)))
    return out
