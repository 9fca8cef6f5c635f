"""The void suit (定缺) in a deal: choosing it, the claims and discards it forbids, and its
penalty (004 Lessons 2 and 5; 002). Checks return None when the move is legal, else
`(Reason, detail)`; effects change the `State` after their check passed.

- 004 Lesson 2: each seat lays a tile of its void suit face down (or the indicator card when
  it holds none); that tile is its mandatory first discard, in both `void_discard` modes;
  `strict` also refuses any other discard while void tiles are held.
- 002: "mahjong cannot be declared on voided suit on discard": a Hu or chow on a tile of
  one's void suit is refused; a pung or melded kong of it is accepted and penalised (004
  Lesson 5) unless `play.void-suit-set` refuses it.
- The void penalty is charged at most once per player per deal.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules import settlement as pay
from rules.deal_state import Facts, Phase, Problem, State, common
from rules.melds import Meld
from rules.moves import ChooseVoid, Reason, VoidSetDeclared
from rules.ruleset import VoidDiscard, VoidSet
from rules.seats import Seat
from rules.tiles import Suit, Tile


def check_choose(st: State, m: ChooseVoid) -> Problem:
    p = common(st, m.seat)
    if p:
        return p
    if st.phase is not Phase.CHOOSING_VOID:
        return Reason.WRONG_PHASE, "void suits are chosen right after the deal"
    if st.void_chosen[m.seat]:
        return Reason.VOID_ALREADY_CHOSEN, f"{m.seat} chose {st.void[m.seat]} already"
    if m.suit not in st.rs.tiles.set.suits or m.suit is Suit.Z:
        return Reason.VOID_TILE_WRONG_SUIT, f"{m.suit} cannot be a void suit"
    h = st.hands[m.seat]
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


def choose(st: State, m: ChooseVoid, facts: Facts) -> None:
    st.void[m.seat] = m.suit
    st.void_chosen[m.seat] = True
    st.laid[m.seat] = m.tile
    if all(st.void_chosen):
        st.phase = Phase.DISCARD
        st.turn = Seat.E


def discard_problem(st: State, seat: Seat, tile: Tile) -> Problem:
    """004 Lesson 2: the face-down tile goes first; `strict`: void tiles before others."""
    laid = st.laid[seat]
    if laid is not None and tile != laid:
        return Reason.VOID_TILE_FIRST, f"the face-down {laid} is {seat}'s first discard"
    void = st.void[seat]
    if void is not None and tile.suit is not void and st.rs.play.void_discard is VoidDiscard.STRICT:
        held = st.void_held(seat)
        if held is not None:
            return Reason.VOID_DISCARD_ORDER, f"{seat} must discard {held} (void {void}) first"
    return None


def claim_problem(st: State, seat: Seat, tile: Tile) -> Problem:
    """002: no Hu (or chow) on a tile of one's void suit."""
    void = st.void[seat]
    if void is not None and tile.suit is void:
        return Reason.VOID_SUIT_CLAIM, f"{tile} is of {seat}'s void suit {void}"
    return None


def set_problem(st: State, seat: Seat, tile: Tile) -> Problem:
    """A pung or melded kong of one's void suit: accepted and penalised (004 Lesson 5: "When
    a set of forbidden suit tiles is declared, the player always receives a penalty of 48
    points"), or refused where `play.void-suit-set` says so."""
    if st.rs.play.void_suit_set is VoidSet.PENALIZED:
        return None
    return claim_problem(st, seat, tile)


def lay_down(st: State, seat: Seat, tile: Tile) -> None:
    """The face-down tile went into a set or the river: it is no longer laid aside."""
    if st.laid[seat] == tile and not st.hands[seat][tile]:
        st.laid[seat] = None


def penalize(st: State, seat: Seat, meld: bool, tile: Tile | None) -> None:
    """The void penalty, once a deal per player (004 Lessons 2 and 5)."""
    if not st.void_penalized[seat]:
        st.void_penalized[seat] = True
        st.lines += pay.void_penalty(st.rs, seat, meld, tile)


def set_declared(st: State, seat: Seat, meld: Meld) -> VoidSetDeclared:
    """004 Lesson 5: a declared set of the void suit costs the void penalty, paid to nobody,
    once a deal; the fact tells the referee."""
    before = len(st.lines)
    penalize(st, seat, True, meld.tile)
    return VoidSetDeclared(seat, meld, sum(x.points for x in st.lines[before:]))


def charge_held(st: State, seats: Iterable[Seat], waiver: bool) -> None:
    """The void penalty for each of `seats` still holding a void-suit tile; with `waiver`,
    not for one whose every discard was of its void suit (004 Lesson 2 Note: "after taking
    all the tiles from the wall, the penalty is not charged")."""
    for seat in seats:
        held = st.void_held(seat)
        if held is None:
            continue
        void = st.void[seat]
        if waiver and all(t.suit is void for t in st.discards[seat]):
            continue
        penalize(st, seat, False, held)
