"""Buttons the daemon could not hear: the table's cable out, or the daemon restarting. A claim
pressed then never reaches the daemon; the reconciliation reads the claims whose tiles are
laid by then, and the runtime tells the recogniser (`buttons_unheard`) that the window left
open may have had claims pressed unheard, whose tiles are laid after it."""

from __future__ import annotations

from scene import Scene, alerts, moves

from controller.alerts import AlertKind
from controller.profiles import ZoneKind
from rules.moves import CloseClaims, Pung
from rules.seats import Seat

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N
HAND, MELDS, RIVER, VOID = ZoneKind.HAND, ZoneKind.MELDS, ZoneKind.RIVER, ZoneKind.VOID
# N holds two 5s: it can pung E's laid 5s
HANDS = {
    E: "1111234m1567p599s",
    S: "23456789m234p88p",
    W: "2345678p23456s9p",
    N: "112233445567s8p",
}


def easts_5s_discarded() -> Scene:
    sc = Scene(hands=HANDS)
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    assert sc.deal.window is not None
    return sc


def lay_norths_pung(sc: Scene) -> list:
    said = sc.move(sc.copy_in("5s", RIVER, E), MELDS, N)
    said += sc.move(sc.copy_in("5s", HAND, N), MELDS, N)
    said += sc.move(sc.copy_in("5s", HAND, N), MELDS, N)
    return said + sc.wait(0.5) + sc.wait(0.6)


def test_regression_a_pung_pressed_just_after_the_table_cable_came_back_was_lost() -> None:
    """tests/e2e/test_daemon_sim.py::test_a_cable_unplugged_mid_deal[table], 1 run in 3 with
    the cable out 3 s (3 in 6 with a faster core): S discarded while the cable was out; E
    pressed PUNG 6 ms after it came back, 0.2 s before the daemon reopened the port, so the
    board's bytes went nowhere; the reconciliation found the discard, and E's pung laid a
    second later, with no button heard, was only "tiles moved into the melds undeclared":
    the pung and the four moves after it were lost."""
    sc = easts_5s_discarded()
    sc.rec.buttons_unheard(sc.deal)  # (the runtime, once the table is reconciled)
    said = lay_norths_pung(sc)
    assert moves(said) == [Pung(N), CloseClaims()]
    assert sc.rt.rejected == [] and not alerts(said)


def test_a_pung_laid_with_no_button_heard_is_still_an_alert() -> None:
    """The buttons were heard: tiles in the melds with no declaration are the referee's."""
    sc = easts_5s_discarded()
    said = lay_norths_pung(sc) + sc.wait(5.0)
    assert moves(said) == []
    assert AlertKind.TILES_WITHOUT_DECLARATION in {a.kind for a in alerts(said)}


def test_only_the_window_open_while_unheard_reads_claims_from_the_tiles() -> None:
    """Once that window is closed, the next discard's claims need their buttons again."""
    sc = easts_5s_discarded()
    sc.rec.buttons_unheard(sc.deal)
    assert moves(lay_norths_pung(sc)) == [Pung(N), CloseClaims()]
    sc.discard(N, "8p")
    said = sc.move(sc.copy_in("8p", RIVER, N), MELDS, S)
    said += sc.move(sc.copy_in("8p", HAND, S), MELDS, S)
    said += sc.move(sc.copy_in("8p", HAND, S), MELDS, S)
    said += sc.wait(0.5) + sc.wait(0.6) + sc.wait(5.0)
    assert moves(said) == []
    assert AlertKind.TILES_WITHOUT_DECLARATION in {a.kind for a in alerts(said)}
