"""A claim pressed by the player whose own discard's window is still open on the judge: the
press is for the next discard, which the reader has not settled yet. It is held and offered
after that discard, whether the draw and discard are read one by one or found together by
the multi-move search."""

from __future__ import annotations

from scene import Scene, moves

from controller.devices.events import Button
from controller.profiles import ZoneKind
from rules.moves import CloseClaims, Discard, Draw, Hu
from rules.seats import Seat
from rules.tiles import Tile

E, S = Seat.E, Seat.S
HAND, RIVER, VOID = ZoneKind.HAND, ZoneKind.RIVER, ZoneKind.VOID


def opening() -> Scene:
    sc = Scene()
    sc.choose_voids()
    assert moves(sc.discard(E, "5s", VOID)) == [Discard(E, Tile.parse("5s"))]
    return sc  # E's window is open on the judge


def test_regression_a_hu_pressed_before_the_next_discard_settled_is_not_lost() -> None:
    """Seed 505, deal 2 (noisy, fast): N pressed HU for W's last discard while the reader
    still showed N's own discard as the latest; the judge refused it ("cannot claim its own
    tile"), W's draw and discard were read after, and the deal never got its third Hu."""
    sc = opening()
    assert sc.press(E, Button.HU) == []  # E's own window: held, not refused
    drawn = sc.next_copy()
    said = sc.draw(S)
    said += sc.move(drawn, RIVER, S)
    assert moves(said) == [Draw(S, drawn.tile), Discard(S, drawn.tile), Hu(E)]
    assert sc.rt.rejected == []


def test_the_held_claim_follows_moves_found_by_the_search() -> None:
    sc = opening()
    sc.press(E, Button.HU)
    drawn = sc.next_copy()
    said = sc.place(drawn, sc.zone(RIVER, S))  # drawn and discarded before it settled
    said += sc.wait(0.5) + sc.wait(0.6)
    assert [type(m) for m in moves(said)] == [CloseClaims, Draw, Discard, Hu]
    assert moves(said)[1:] == [Draw(S, drawn.tile), Discard(S, drawn.tile), Hu(E)]
    assert sc.rt.rejected == []
