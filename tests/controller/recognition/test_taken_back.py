"""A move the referee cancelled is not read again from the tiles that showed it (issue 27):
its tiles may still lie where they were read, and a read missed or crossed there changes
the residue at once, so the residue changing is no sign that the players put them back."""

from __future__ import annotations

from scene import Scene, moves

from controller.profiles import ZoneKind
from rules import moves as mv
from rules.deal_state import Phase
from rules.seats import Seat
from rules.tiles import Tile

E = Seat.E
RIVER, VOID = ZoneKind.RIVER, ZoneKind.VOID


def cancelled_discard() -> tuple[Scene, mv.Discard]:
    """E's first discard read, then cancelled by the referee (the tile still lies there)."""
    sc = Scene()
    sc.choose_voids()
    sc.move(sc.copy_in("5s", VOID, E), RIVER, E)
    discard = sc.deal.history[-1]
    assert isinstance(discard, mv.Discard) and discard.tile == Tile.parse("5s")
    sc.rt.apply(mv.Correction(1))  # the referee's cancel, as the daemon's adopt says it
    sc.rec.taken_back([discard], sc.deal)
    assert sc.deal.phase is Phase.DISCARD and sc.deal.turn is E
    return sc, discard


def test_regression_a_cancelled_discard_was_read_again_at_once():
    """10/10/2: the judge held a discard the table never made (the truth: a self-drawn Hu);
    the referee cancelled it and the recogniser read the same discard again the moment a
    read of its tile was missed and came back, before the Hu could be entered."""
    sc, _discard = cancelled_discard()
    tile = sc.copy_in("5s", RIVER, E)
    said = sc.lift(tile) + sc.place(tile, sc.zone(RIVER, E)) + sc.wait(0.5)
    assert moves(said) == [] and sc.deal.phase is Phase.DISCARD
    assert sc.rec.ahead(sc.deal) == ()  # nor is it the call's first candidate
