"""Draws and discards in a deal: a live draw, a kong's replacement draw, and the discard
that opens a claim window (004 Lessons 2-4; RULES.md "Play"). A draw names the tile the
reader saw where the wall position is unknown (rules.wall "Unknown positions"); on a known
position a named tile must be the wall's. Taking a tile from the wall lifts the seat's
skipped-Hu and skipped-pung locks (004 Lesson 4; 000 2.2.4)."""

from __future__ import annotations

from rules.claims import Window, WindowKind
from rules.deal_state import Entry, Facts, Phase, Problem, State, own_turn
from rules.deal_void import discard_problem
from rules.moves import Discard, Draw, Drawn, Reason, ReplacementDraw
from rules.seats import Seat
from rules.tiles import Tile


def _wall_tile_problem(st: State, index: int | None, tile: Tile | None, what: str) -> Problem:
    """The tile a draw names against the wall position it comes from (rules.wall)."""
    wall = st.wall
    known = None if index is None else wall.order[index]
    if known is not None or index is None:
        if tile is not None and known != tile:
            return Reason.WALL_MISMATCH, f"{what} is {known}, not {tile}"
        return None
    if tile is None:
        where = wall.geometry.position(index)
        return Reason.TILE_UNKNOWN, f"{what} ({where}) is not known: the draw must name it"
    if not wall.possible(tile):
        if not wall.tileset.contains(tile):
            return Reason.TILE_IMPOSSIBLE, f"{tile} is not in a {wall.tileset.value}-tile set"
        return Reason.TILE_IMPOSSIBLE, f"all four {tile} are known already"
    return None


def check_draw(st: State, m: Draw) -> Problem:
    p = own_turn(st, m.seat, Phase.DRAW, "a draw")
    if p:
        return p
    return _wall_tile_problem(st, st.wall.next_index(), m.tile, "the next wall tile")


def check_replacement(st: State, m: ReplacementDraw) -> Problem:
    p = own_turn(st, m.seat, Phase.REPLACEMENT, "a replacement draw")
    if p:
        return p
    index = st.wall.next_replacement_index()
    return _wall_tile_problem(st, index, m.tile, "the replacement tile")


def draw(st: State, m: Draw, facts: Facts) -> None:
    st.kong_chain = []  # a live draw starts a turn: no kong of it yet
    _take(st, m.seat, False, m.tile, facts)


def replacement(st: State, m: ReplacementDraw, facts: Facts) -> None:
    _take(st, m.seat, True, m.tile, facts)


def _take(st: State, seat: Seat, replacement: bool, tile: Tile | None, facts: Facts) -> None:
    wall = st.wall
    index = wall.next_replacement_index() if replacement else wall.next_index()
    assert index is not None  # the check found the wall not exhausted
    taken = wall.take(index, tile)
    st.add_tiles(seat, taken, 1)
    st.drawn = taken
    st.hu_lock[seat] = 0
    st.pung_lock[seat].clear()
    st.draws[seat] += 1
    st.entry = Entry.REPLACEMENT if replacement else Entry.DRAW
    st.phase = Phase.DISCARD
    if facts is not None:
        facts.append(Drawn(wall.take_at(seat, taken, index), replacement, wall.exhausted))


def check_discard(st: State, m: Discard) -> Problem:
    p = own_turn(st, m.seat, Phase.DISCARD, "a discard")
    if p:
        return p
    if not st.hands[m.seat][m.tile]:
        return Reason.TILE_NOT_IN_HAND, f"{m.seat} holds no {m.tile}"
    return discard_problem(st, m.seat, m.tile)


def discard(st: State, m: Discard, facts: Facts) -> None:
    """The tile leaves the hand for the river and opens a claim window to the others."""
    seat, tile = m.seat, m.tile
    st.add_tiles(seat, tile, -1)
    if st.laid[seat] == tile:
        st.laid[seat] = None  # the face-down void tile is discarded
    # the deal's first discard made by East, before any meld (WMT earthly hand)
    dealer_first = not any(st.discards) and seat is Seat.E and not st.melded_any
    st.river[seat].append(tile)
    st.discards[seat].append(tile)
    st.drawn = None
    eligible = st.others_in(seat)
    after_kong = bool(st.kong_chain)
    st.window = Window(
        WindowKind.DISCARD, tile, seat, eligible, st.wall.exhausted, after_kong, dealer_first
    )
    st.window_kongs = st.kong_chain
    st.kong_chain = []
    st.phase = Phase.CLAIMS
