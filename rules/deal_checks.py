"""The legality of each move in a deal (the judge's checks): each check returns None when
the move is legal, else `(Reason, detail)`, and never changes the deal. Sources are named
beside each rule; the flow is described in rules.deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.claims import Window, WindowKind
from rules.deal_state import OWN_TURN_KONGS, Entry, Phase
from rules.melds import MeldKind, set_of
from rules.moves import (
    ChooseVoid,
    Chow,
    CloseClaims,
    Correction,
    Discard,
    Draw,
    EndDeal,
    Hu,
    Kong,
    Move,
    Pass,
    Penalty,
    Pung,
    Reason,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
)
from rules.ruleset import SequentialClaim, VoidDiscard, VoidSet
from rules.seats import Seat
from rules.tiles import TILES, Suit, Tile

if TYPE_CHECKING:
    from rules.deal import Deal


# -- checks: each returns None (legal) or (Reason, detail), and never changes the deal ------

Problem = tuple[Reason, str] | None


def _common(deal: Deal, seat: Seat) -> Problem:
    if deal.phase is Phase.OVER:
        return Reason.DEAL_OVER, "the deal is over"
    if deal._out[seat]:
        return Reason.PLAYER_OUT, f"{seat} has declared Hu and is out of the deal"
    return None


def _own_turn(deal: Deal, seat: Seat, phase: Phase, what: str) -> Problem:
    p = _common(deal, seat)
    if p:
        return p
    if deal.phase is not phase:
        return Reason.WRONG_PHASE, f"{what} is not possible now (phase {deal.phase.value})"
    if seat is not deal.turn:
        return Reason.NOT_YOUR_TURN, f"it is {deal.turn}'s turn"
    return None


def _check_void(deal: Deal, m: ChooseVoid) -> Problem:
    p = _common(deal, m.seat)
    if p:
        return p
    if deal.phase is not Phase.CHOOSING_VOID:
        return Reason.WRONG_PHASE, "void suits are chosen right after the deal"
    if deal._void_chosen[m.seat]:
        return Reason.VOID_ALREADY_CHOSEN, f"{m.seat} chose {deal._void[m.seat]} already"
    if m.suit not in deal.rs.tiles.set.suits or m.suit is Suit.Z:
        return Reason.VOID_TILE_WRONG_SUIT, f"{m.suit} cannot be a void suit"
    h = deal._hands[m.seat]
    if m.tile is None:
        held = next((t for t in m.suit.tiles if h[t]), None)
        if held is not None:
            return Reason.VOID_TILE_REQUIRED, f"{m.seat} holds {held}: lay a {m.suit} tile"
        return None
    if m.tile.suit is not m.suit:
        return Reason.VOID_TILE_WRONG_SUIT, f"{m.tile} is not of the suit {m.suit}"
    if not h[m.tile]:
        return Reason.TILE_NOT_IN_HAND, f"{m.seat} holds no {m.tile}"
    return None


def _check_wall_tile(deal: Deal, index: int | None, tile: Tile | None, what: str) -> Problem:
    """The tile a draw names against the wall position it comes from (rules.wall)."""
    wall = deal.wall
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


def _check_draw(deal: Deal, m: Draw) -> Problem:
    if deal.phase is Phase.DRAW and m.seat is deal.turn and not deal._out[m.seat]:
        # the usual case first: the seat on turn draws a known tile
        known = deal.wall.peek()
        if known is not None and (m.tile is None or m.tile is known):
            return None
    p = _own_turn(deal, m.seat, Phase.DRAW, "a draw")
    if p:
        return p
    return _check_wall_tile(deal, deal.wall.next_index(), m.tile, "the next wall tile")


def _check_replacement(deal: Deal, m: ReplacementDraw) -> Problem:
    p = _own_turn(deal, m.seat, Phase.REPLACEMENT, "a replacement draw")
    if p:
        return p
    return _check_wall_tile(
        deal, deal.wall.next_replacement_index(), m.tile, "the replacement tile"
    )


def _check_discard(deal: Deal, m: Discard) -> Problem:
    seat, tile = m.seat, m.tile
    # the usual case first (`_own_turn` passes): the seat on turn, still in, discards
    if deal.phase is not Phase.DISCARD or seat is not deal.turn or deal._out[seat]:
        p = _own_turn(deal, seat, Phase.DISCARD, "a discard")
        if p:
            return p
    if not deal._hands[seat][tile]:
        return Reason.TILE_NOT_IN_HAND, f"{seat} holds no {tile}"
    laid = deal._laid[seat]
    if laid is not None and tile != laid:
        return Reason.VOID_TILE_FIRST, f"the face-down {laid} is {seat}'s first discard"
    void = deal._void[seat]
    if void is not None and deal.rs.play.void_discard is VoidDiscard.STRICT:
        held = deal._void_held(seat)
        if held is not None and tile.suit is not void:
            return Reason.VOID_DISCARD_ORDER, f"{seat} must discard {held} (void {void}) first"
    return None


def _check_in_window(deal: Deal, seat: Seat, robbing: bool | None) -> Problem:
    """A declaration in the open window; `robbing` None: either kind of window."""
    p = _common(deal, seat)
    if p:
        return p
    w = deal._window
    if w is None:
        return Reason.CLAIM_NOT_ADMISSIBLE, "no discard is open to claims"
    if robbing is not None and (w.kind is WindowKind.ROBBING) != robbing:
        what = "a robbing window (only Hu)" if robbing is False else "no kong to rob"
        return Reason.CLAIM_NOT_ADMISSIBLE, f"this is {what}"
    if seat is w.discarder:
        return Reason.CLAIM_NOT_ADMISSIBLE, f"{seat} cannot claim its own tile"
    if seat in w.declared:
        return Reason.ALREADY_DECLARED, f"{seat} declared {w.declared[seat]} already"
    return None


def _check_void_claim(deal: Deal, seat: Seat, tile: Tile) -> Problem:
    void = deal._void[seat]
    if void is not None and tile.suit is void:
        return Reason.VOID_SUIT_CLAIM, f"{tile} is of {seat}'s void suit {void}"
    return None


def _check_void_set(deal: Deal, seat: Seat, tile: Tile) -> Problem:
    """A pung or melded kong of one's void suit: accepted and penalised (004 Lesson 5: "When
    a set of forbidden suit tiles is declared, the player always receives a penalty of 48
    points"), or refused where `play.void-suit-set` says so."""
    if deal.rs.play.void_suit_set is VoidSet.PENALIZED:
        return None
    return _check_void_claim(deal, seat, tile)


def _check_hu(deal: Deal, m: Hu | RobKong) -> Problem:
    p = _check_in_window(deal, m.seat, True if isinstance(m, RobKong) else None)
    if p:
        return p
    w = deal._window
    assert w is not None
    p = _check_void_claim(deal, m.seat, w.tile)
    if p:
        return p
    if deal._hu_lock[m.seat] and deal.rs.play.sequential_claim is SequentialClaim.REFUSED:
        detail = hu_lock(deal, m.seat, w)
        if detail is not None:
            return Reason.SKIPPED_HU_LOCK, detail
    return None


def hu_lock(deal: Deal, seat: Seat, w: Window) -> str | None:
    """Why a Hu by `seat` on the window's tile is a sequential win (the skipped-Hu lock, 004
    Lesson 4; 000 2.2.4 "unless they increase the total score"): it wins, and pays no more
    than a winning tile the seat let go since its last draw; None when it is not."""
    lock = deal._hu_lock[seat]
    if not lock or not deal._wins_with(seat, w.tile):
        return None
    events = deal._discard_events(w, seat)
    if deal._fan_lock:
        # 001 IV 3.2: no Hu on a discard again before a draw "and no change on the fan";
        # the lock holds one bit per fan row let go
        fan = deal._hu_score(seat, w.tile, events).total_fan
        if lock >> fan & 1:
            return f"{seat} let a winning tile of {fan} fan go; this Hu is {fan} fan too"
        return None
    value = deal._payment(seat, w.tile, events)
    if value <= lock:
        return f"{seat} let a winning tile go (worth {lock}); this Hu is worth {value}"
    return None


def sequential(deal: Deal, move: Move) -> str | None:
    """Why a claim in the open window is a sequential Hu or pung (000 2.2.4), which a rule
    set with `play.sequential-claim = "false-win"` accepts and settles as a false win, and
    others refuse; None when it is not one."""
    w = deal._window
    if w is None:
        return None
    if isinstance(move, Pung):
        if w.tile in deal._pung_lock[move.seat]:
            return f"{move.seat} passed {w.tile} already (000 2.2.4)"
        return None
    if isinstance(move, Hu | RobKong) and deal._hu_lock[move.seat]:
        return hu_lock(deal, move.seat, w)
    return None


def _check_pung(deal: Deal, m: Pung) -> Problem:
    p = _check_in_window(deal, m.seat, False)
    if p:
        return p
    w = deal._window
    assert w is not None
    p = _check_void_set(deal, m.seat, w.tile)
    if p:
        return p
    if deal._hands[m.seat][w.tile] < 2:
        return Reason.CLAIM_NOT_ADMISSIBLE, f"{m.seat} holds fewer than two {w.tile}"
    if (
        w.tile in deal._pung_lock[m.seat]
        and deal.rs.play.sequential_claim is SequentialClaim.REFUSED
    ):
        return Reason.SKIPPED_PUNG_LOCK, f"{m.seat} passed {w.tile} already (000 2.2.4)"
    return None


def _check_kong(deal: Deal, m: Kong) -> Problem:
    if m.kind is MeldKind.KONG:
        p = _check_in_window(deal, m.seat, False)
        if p:
            return p
        w = deal._window
        assert w is not None
        if m.tile is not None and m.tile != w.tile:
            return Reason.CLAIM_NOT_ADMISSIBLE, f"the open discard is {w.tile}, not {m.tile}"
        p = _check_void_set(deal, m.seat, w.tile)
        if p:
            return p
        if w.last:
            return Reason.AFTER_LAST_TILE, "only Hu or Pung on the last discard (004 Lesson 4)"
        if deal._hands[m.seat][w.tile] < 3:
            return Reason.CLAIM_NOT_ADMISSIBLE, f"{m.seat} holds fewer than three {w.tile}"
        return None
    p = _own_turn(deal, m.seat, Phase.DISCARD, "a kong")
    if p:
        return p
    if m.kind not in OWN_TURN_KONGS or m.tile is None:
        return Reason.NOT_A_KONG, f"{m.kind} {m.tile} is not a kong declared on one's own turn"
    if deal._entry is Entry.PUNG:
        return Reason.KONG_AFTER_PUNG, "no kong on a turn entered by a pung"
    if deal._entry is Entry.CHOW:
        # 001 IV 2.3: the claimed set is laid out, then a tile discarded; as after a pung
        return Reason.KONG_AFTER_CHOW, "no kong on a turn entered by a chow"
    if deal.wall.exhausted:
        return Reason.NO_REPLACEMENT_TILE, "no replacement tile is left"
    h = deal._hands[m.seat]
    if m.kind is MeldKind.CONCEALED_KONG:
        if h[m.tile] != 4:
            return Reason.NOT_A_KONG, f"{m.seat} holds {h[m.tile]} {m.tile}, not four"
        return None
    if set_of(MeldKind.PUNG, m.tile) not in deal._melds[m.seat]:
        return Reason.NOT_A_KONG, f"{m.seat} has no pung of {m.tile}"
    if not h[m.tile]:
        return Reason.TILE_NOT_IN_HAND, f"{m.seat} holds no {m.tile}"
    # 004 Table 3: the 4th tile freshly drawn makes a promoted kong, one kept in the hand a
    # postponed kong; the two pay differently (Table 7), so the kind must fit the tile.
    if (m.kind is MeldKind.PROMOTED_KONG) != (deal._drawn == m.tile):
        if m.kind is MeldKind.PROMOTED_KONG:
            return Reason.NOT_A_KONG, f"{m.tile} was not freshly drawn: a postponed kong"
        return Reason.NOT_A_KONG, f"{m.tile} was freshly drawn: a promoted kong"
    return None


def _check_self_drawn(deal: Deal, m: SelfDrawnHu) -> Problem:
    p = _own_turn(deal, m.seat, Phase.DISCARD, "a self-drawn Hu")
    if p:
        return p
    if deal._entry is Entry.PUNG or deal._entry is Entry.CHOW:
        return Reason.WRONG_PHASE, f"a turn entered by a {deal._entry.value} ends with a discard"
    return None


def _check_chow(deal: Deal, m: Chow) -> Problem:
    """001 IV 2.1: a chow is claimed on a discard; only the next player after the
    discarder (IV 4.2, the "upper seat" discards just before the claimer) may claim it; with
    players out (a won player is skipped) that is the next player still in, the one who
    would draw next."""
    p = _common(deal, m.seat)
    if p:
        return p
    if not deal.rs.play.chow_claims:
        return Reason.NO_CHOW_CLAIMS, f"no chow is claimed in {deal.rs.name}"
    p = _check_in_window(deal, m.seat, False)
    if p:
        return p
    w = deal._window
    assert w is not None
    if m.seat is not w.eligible[0]:
        return (
            Reason.CHOW_NOT_FROM_LEFT,
            f"only {w.eligible[0]}, next after {w.discarder}, may chow its discard",
        )
    low, tile = m.tile, w.tile
    if low.is_honour or low.rank > 7 or tile.suit is not low.suit or not 0 <= tile - low <= 2:
        return Reason.NOT_A_CHOW, f"the discard {tile} is not in a chow starting at {low}"
    p = _check_void_claim(deal, m.seat, tile)
    if p:
        return p
    h = deal._hands[m.seat]
    for other in (low, low + 1, low + 2):
        if other != tile and not h[other]:
            return Reason.NOT_A_CHOW, f"{m.seat} holds no {TILES[other]} for a chow of {tile}"
    return None


def _check_pass(deal: Deal, m: Pass) -> Problem:
    return _check_in_window(deal, m.seat, None)


def _check_close(deal: Deal, m: CloseClaims) -> Problem:
    if deal.phase is Phase.OVER:
        return Reason.DEAL_OVER, "the deal is over"
    if deal._window is None:
        return Reason.WRONG_PHASE, "no claim window is open"
    return None


def _check_penalty(deal: Deal, m: Penalty) -> Problem:
    if m.points <= 0 or m.to is m.seat:
        return Reason.BAD_PENALTY, "a penalty is a positive amount paid to another seat or nobody"
    return None


def _check_correction(deal: Deal, m: Correction) -> Problem:
    undoable = sum(1 for x in deal._moves if not isinstance(x, Penalty | EndDeal))
    if m.undo < 1 or m.undo > undoable:
        return Reason.NOTHING_TO_UNDO, f"{undoable} moves can be taken back, not {m.undo}"
    return None


def _check_end(deal: Deal, m: EndDeal) -> Problem:
    if deal.phase is Phase.OVER:
        return Reason.DEAL_OVER, "the deal is over"
    return None


CHECKS = {
    ChooseVoid: _check_void,
    Draw: _check_draw,
    ReplacementDraw: _check_replacement,
    Discard: _check_discard,
    Pung: _check_pung,
    Kong: _check_kong,
    Chow: _check_chow,
    Hu: _check_hu,
    RobKong: _check_hu,
    SelfDrawnHu: _check_self_drawn,
    Pass: _check_pass,
    CloseClaims: _check_close,
    Penalty: _check_penalty,
    Correction: _check_correction,
    EndDeal: _check_end,
}
