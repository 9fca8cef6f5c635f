"""The recogniser and a wall-scan pair of unknown order (`WallScanned.uncertain`): a draw of
the neighbour's tile is offered (the runtime re-judges on the swapped wall), with a line of
evidence saying so, instead of a WALL_MISMATCH alert; a tile from elsewhere is still one."""

from __future__ import annotations

from scene import Scene, alerts, moves

from controller.alerts import AlertKind
from controller.profiles import ZoneKind
from rules.moves import Draw
from rules.seats import Seat

S = Seat.S


def after_first_discard(uncertain: bool) -> tuple[Scene, int]:
    sc = Scene(live="2p7s3p8s")  # the live wall begins 2p 7s: two different tiles
    sc.choose_voids()
    sc.discard(Seat.E, "5s", ZoneKind.VOID)
    sc.close()
    k = sc.deal.wall.next_index()
    if uncertain:
        sc.rec._uncertain = (k,)  # what `_wall_scanned` keeps from the scan
    return sc, k


def test_the_neighbours_tile_drawn_from_an_uncertain_pair_is_offered() -> None:
    sc, k = after_first_discard(uncertain=True)
    neighbour = sc.copies[k + 1]
    got = sc.place(neighbour, sc.zone(ZoneKind.HAND, S))
    assert moves(got) == [Draw(S, neighbour.tile)] and alerts(got) == []
    assert any("other way round" in str(line) for line in got[0].evidence)


def test_regression_the_draws_own_pair_is_in_doubt_even_unmarked() -> None:
    """Issue 13 item 6: a scan can misorder two neighbours without marking them; the
    neighbour's tile drawn is offered all the same, its evidence saying the pair was not
    marked."""
    sc, k = after_first_discard(uncertain=False)
    neighbour = sc.copies[k + 1]
    got = sc.place(neighbour, sc.zone(ZoneKind.HAND, S))
    assert moves(got) == [Draw(S, neighbour.tile)] and alerts(got) == []
    assert any("not marked as in doubt" in str(line) for line in got[0].evidence)


def test_a_tile_from_further_away_is_still_a_wall_mismatch() -> None:
    sc, k = after_first_discard(uncertain=True)
    assert sc.place(sc.copies[k + 3], sc.zone(ZoneKind.HAND, S)) == []
    assert [a.kind for a in alerts(sc.wait(1.0))] == [AlertKind.WALL_MISMATCH]
