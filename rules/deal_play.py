"""The three moves of every turn (a live draw, a discard, the close of a silent claim
window), each checked and applied by the judge in one function: what `Deal.play` does for
them (the check of rules.deal_checks, then the effect of rules.deal_effects), less the
history, which the caller keeps. The bots' `play_deal` plays every such move so, a live
draw by `draw_live`, which makes the draw as it takes the tile.

`play_discard` and `play_close` take the usual case (the seat on turn, still in, no
face-down void tile to lay, a window nobody spoke in) in one pass and return None; any
other move goes the long way (the check, and the effect when it passes) and returns what
the check found, as `play_draw` does for every draw. So each answers what `Deal.check`
answers and leaves the deal as `Deal.apply` leaves it (tests/rules/test_deal_play.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.claims import Window, WindowKind
from rules.deal_checks import CHECKS, Problem
from rules.deal_effects import EFFECTS, OTHERS_IN, PLAY_EFFECTS, only_passes, resolve_silent
from rules.deal_state import Entry, Phase
from rules.live_hand import SUIT_INDEX, UNIT
from rules.moves import CloseClaims, Discard, Draw
from rules.quick import twin
from rules.seats import Seat

if TYPE_CHECKING:
    from rules.deal import Deal

# Enum members read on every move, as module constants (see rules.deal)
_CLAIMS = Phase.CLAIMS
_DISCARD = Phase.DISCARD
_DRAW = Phase.DRAW
_OVER = Phase.OVER
_EAST = Seat.E
_ENTRY_DRAW = Entry.DRAW
_WINDOW_DISCARD = WindowKind.DISCARD
_CHECK_DRAW, _CHECK_DISCARD, _CHECK_CLOSE = CHECKS[Draw], CHECKS[Discard], CHECKS[CloseClaims]
_DRAW_EFFECT, _DISCARD_EFFECT = PLAY_EFFECTS[Draw], EFFECTS[Discard]
_CLOSE_EFFECT = EFFECTS[CloseClaims]
_DRAW_TWIN = twin(Draw)
_new_object = object.__new__


def play_draw(deal: Deal, m: Draw) -> Problem:
    """A live draw the long way: the judge's check, then the draw's effect when it passes
    (the usual draw of a bot deal is `draw_live`'s, made and played in one pass)."""
    problem = _CHECK_DRAW(deal, m)
    if problem is None:
        _DRAW_EFFECT(deal, m)
    return problem


def draw_live(deal: Deal, t: float | None) -> Draw | None:
    """The usual live draw of the seat on turn made and played at once: the draw that
    names the wall's next tile (`Draw(deal.turn, deal.wall.peek(), t=t)`), as `play_draw`
    takes it, the wall looked at once. None, and nothing changed, for any other case (not
    a draw's turn, the seat out, the next tile unknown or none left): the caller then makes
    its draw and plays it with `play_draw`, which says what is wrong."""
    seat = deal.turn
    i = seat + 0
    if deal.phase is not _DRAW or deal._out[i]:
        return None
    # `deal.wall.draw_next(None)` written out, a call less each draw: the next live
    # position not taken; its tile taken when it is known
    wall = deal.wall
    if not wall.tiles_left:
        return None
    head, live, taken = wall._head, wall._live, wall._taken
    while taken[live[head]]:
        head += 1
    p = live[head]
    tile = wall.order[p]
    if tile is None:
        wall._head = head
        return None
    taken[p] = 1
    wall._head = head + 1
    wall.tiles_left -= 1
    wall.last_index = p
    # `play_draw`'s effect, written out
    if deal._kong_chain:
        deal._kong_chain = []
    t_ = tile + 0
    deal._hands[i][t_] += 1
    deal._keys[i][SUIT_INDEX[t_]] += UNIT[t_]
    deal._drawn = tile
    deal._hu_lock[i] = 0
    lock = deal._pung_lock[i]
    if lock:
        lock.clear()
    deal._draws[i] += 1
    deal._entry = _ENTRY_DRAW
    deal.phase = _DISCARD
    # `new_draw(seat, tile, t)` written out (rules.quick.twin), a call less each draw
    move = _DRAW_TWIN()
    move.seat = seat
    move.tile = tile
    move.t = t
    move.__class__ = Draw
    return move  # type: ignore[no-any-return]


def play_discard(deal: Deal, m: Discard) -> Problem:
    """A discard: the usual one (the seat on turn, still in, holds the tile, has no
    face-down void tile to lay first, and is not bound to discard its void suit first)
    checked and made in one pass; the window it opens is the effect's
    (`deal_effects._do_discard`, written out)."""
    seat, tile = m.seat, m.tile
    i, t = seat + 0, tile + 0  # plain ints: list subscripts on CPython's fast path
    hand = deal._hands[i]
    if (
        deal.phase is _DISCARD
        and seat is deal.turn
        and not deal._out[i]
        and hand[t]
        and deal._laid[i] is None
        and (deal._void[i] is None or not deal._strict_void)
    ):
        hand[t] -= 1
        deal._keys[i][SUIT_INDEX[t]] -= UNIT[t]
        # the deal's first discard made by East, before any meld (WMT earthly hand)
        dealer_first = seat is _EAST and not deal._melded_any and not any(deal._discards)
        deal._river[i].append(tile)
        deal._discards[i].append(tile)
        deal._drawn = None
        chain = deal._kong_chain
        # `discard_window(tile, seat, eligible, last, bool(chain), dealer_first)` written
        # out, a call less each discard (tests/rules/test_deal_play.py compares the two)
        w = _new_object(Window)
        w.kind = _WINDOW_DISCARD
        w.tile = tile
        w.discarder = seat
        w.eligible = OTHERS_IN[i][deal._out_mask]
        w.last = not deal.wall.tiles_left
        w.after_kong = chain != []
        w.dealer_first = dealer_first
        w.kong_meld = None
        w.kong_index = -1
        w.declared = {}
        w.wins = [None, None, None, None]
        deal._window = w
        deal._window_kongs = chain
        deal._kong_chain = []
        deal.phase = _CLAIMS
        return None
    problem = _CHECK_DISCARD(deal, m)
    if problem is None:
        _DISCARD_EFFECT(deal, m)
    return problem


def play_close(deal: Deal, m: CloseClaims) -> Problem:
    """The close of a claim window: one after a discard where nobody spoke, or only to
    pass, resolves at once (`deal_effects.resolve_silent`: the turn passes on, or the deal
    ends at the wall)."""
    w = deal._window
    if (
        w is not None
        and w.kind is _WINDOW_DISCARD
        and deal.phase is not _OVER
        and (not w.declared or only_passes(w))
    ):
        # `resolve_silent(deal, w)` written out for the usual window, a call less: nobody
        # to lock (no pung lock in the rule set; every passer known not to win, as the
        # bots leave them), not the wall's last tile, no kong this turn: play passes on
        # to the first eligible seat (nobody left the deal since the discard)
        eligible = w.eligible
        usual = eligible and not (deal._skip_pung_lock or w.last or deal._window_kongs)
        if usual and deal._skip_hu_lock:
            wins = w.wins
            for s in eligible:
                if wins[s] is not False:
                    usual = False
                    break
        if usual:
            deal._window = None
            deal.turn = eligible[0]
            deal.phase = _DRAW
        else:
            resolve_silent(deal, w)
        return None
    problem = _CHECK_CLOSE(deal, m)
    if problem is None:
        _CLOSE_EFFECT(deal, m)
    return problem
