"""A kong of the void suit that takes the face-down void tile along (RULES.md: a meld of the
void suit is allowed, at the 48-point penalty). Seed 1016 (`sbr-mil`): East laid 9m for void
m and then declared a concealed kong of 9m; the simulated player took the four tiles from the
hand, which held three ("no 9m left at W.hand"), and the recogniser only read a concealed
kong of four tiles leaving the hand."""

from __future__ import annotations

from collections import Counter

import recog_rig
from recog_rig import NoiseConfig, play, strip
from scene import Scene, moves
from test_recognise_deals import bare_profile

from controller.devices.events import Button
from controller.profiles import ZoneKind
from rules.melds import MeldKind
from rules.moves import ChooseVoid, Kong
from rules.seats import Seat
from rules.tiles import Suit, Tile

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N
HAND, MELDS, VOID = ZoneKind.HAND, ZoneKind.MELDS, ZoneKind.VOID


def lay_1m_and_choose(sc: Scene) -> None:
    """scene.HANDS: E holds 1m x4 and lays one of them for void m."""
    got = sc.move(sc.copy_in("1m", HAND, E), VOID, E)
    assert moves(got) == [ChooseVoid(E, Suit.M, Tile.M1)]
    sc.press(S, Button.VOID_S)
    sc.press(W, Button.VOID_M)
    sc.press(N, Button.VOID_M)
    assert sc.deal.laid_tile(E) == Tile.M1 and sc.deal.phase.value == "discard"


def test_a_concealed_kong_with_the_laid_void_tile_is_read() -> None:
    sc = Scene()
    lay_1m_and_choose(sc)
    sc.press(E, Button.KONG)
    got = []
    for _ in range(3):
        got = sc.move(sc.copy_in("1m", HAND, E), MELDS, E)
        assert moves(got) == []  # three of four: not a kong yet
    got = sc.move(sc.copy_in("1m", VOID, E), MELDS, E)
    assert moves(got) == [Kong(E, MeldKind.CONCEALED_KONG, Tile.M1)]
    assert sc.deal.laid_tile(E) is None and sc.deal.phase.value == "replacement"
    assert not sc.rt.alerts and not sc.rt.rejected


def check(p) -> None:
    rt = p.runtime
    assert Counter(a.kind for a in rt.alerts) == p.noted, rt.alerts
    assert rt.rejected == []
    assert strip(rt.deal.history) == strip(p.reference.history)
    assert rt.deal.ledger() == p.reference.ledger()
    kongs = [m for m in rt.deal.history if isinstance(m, Kong)]
    assert Kong(E, MeldKind.CONCEALED_KONG, Tile.M9) in [
        Kong(k.seat, k.kind, k.tile) for k in kongs
    ]


def test_seed_1016_concealed_kong_of_the_laid_void_tile() -> None:
    check(play("sbr-mil", 1016))


def test_seed_1016_concealed_kong_of_the_laid_void_tile_noisy() -> None:
    check(play("sbr-mil", 1016, noise=NoiseConfig(missed=5, crosstalk=5)))


def test_seed_1016_without_melds_antennas(monkeypatch) -> None:
    profile = bare_profile("melds")
    monkeypatch.setattr(recog_rig, "reader", lambda name="": profile)
    check(play("sbr-mil", 1016))
