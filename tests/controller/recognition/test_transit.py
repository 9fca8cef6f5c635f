"""Which tiles in the air hold a reading back. A player's own moves take tiles from the hand
and the void spot, so another tile of that player's hand in the air may change the reading
(two tiles dropped into the river at once: test_alerts.py); a tile of its river or melds
missing for a few rounds is a missed read, and holds nothing back (10/10/2 seed 311 deal
58); nor does a meld tile missing hold a draw back (seed 312 deal 14)."""

from __future__ import annotations

from scene import Scene, alerts, moves

from controller.devices.events import Button
from controller.profiles import ZoneKind
from rules.moves import Discard, Draw, Pung
from rules.seats import Seat
from rules.tiles import Tile

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N
HAND, RIVER, MELDS, VOID = ZoneKind.HAND, ZoneKind.RIVER, ZoneKind.MELDS, ZoneKind.VOID

# scene.HANDS with N holding 99s (a pair for E's 9s) instead of 67s; each player's draw
# is of its void suit and discarded again
HANDS = {
    E: "1111234m1567p599s",
    S: "23456789m23456p",
    W: "2345678p23456s9p",
    N: "1122334455699s",
}


def a_round_played() -> Scene:
    """E discards the laid 5s; S, W and N each draw and discard a tile; E draws: its 5s
    lies in its river, its 9s are in its hand."""
    sc = Scene(hands=HANDS, live="1s2m3m4m1s8m9m1p")
    sc.choose_voids()  # E and S void s, W and N void m
    sc.discard(E, "5s", VOID)
    for seat, tile in ((S, "1s"), (W, "2m"), (N, "3m")):
        sc.close()
        sc.draw(seat)
        assert moves(sc.discard(seat, tile)) == [Discard(seat, Tile.parse(tile))]
    sc.close()
    sc.draw(E)
    assert sc.deal.turn is E and sc.deal.phase.value == "discard"
    assert not sc.rt.alerts and not sc.rt.rejected
    return sc


def test_regression_missed_reads_of_an_old_river_tile_held_a_claimed_discard_back() -> None:
    """10/10/2 campaign seed 311 deal 58: W drew 7p and discarded it, S pressed PUNG. While
    the 7p lay in W's river (0.14 s), one or another of W's old river and meld tiles was
    always lifted by missed reads; each held the discard back as "another tile of that
    player in the air", S then took the 7p into its melds, the PUNG held for the discard
    was offered after `settle` and refused (no discard open), the deal stalled and was
    settled wrong. A river tile missing holds no reading back: the discard is read at once
    and the held PUNG follows it."""
    sc = a_round_played()
    old = sc.copy_in("5s", RIVER, E)
    assert sc.lift(old) == []  # missed reads: E's old discard is not read for a while
    assert sc.press(N, Button.PUNG) == []  # before the discard settled: held
    got = sc.discard(E, "9s")
    assert moves(got) == [Discard(E, Tile.parse("9s")), Pung(N)]
    assert sc.deal.window is not None and sc.deal.window.tile == Tile.parse("9s")
    assert not alerts(got) and not sc.rt.rejected
    # the window closes on N's pung; N lays it down, E's 5s is read again: nothing left
    sc.close()
    sc.move(sc.copy_in("9s", RIVER, E), MELDS, N)
    sc.move(sc.copy_in("9s", HAND, N), MELDS, N)
    sc.move(sc.copy_in("9s", HAND, N), MELDS, N)
    sc.place(old, sc.zone(RIVER, E))
    assert not sc.rt.alerts and not alerts(sc.wait(6.0)) and not sc.rt.rejected
    assert sc.deal.turn is N and sc.deal.phase.value == "discard"


def test_a_missing_meld_tile_holds_no_discard_back() -> None:
    """The same with a tile of the discarder's melds missing (deal 58 had both)."""
    sc = a_round_played()
    _n_pungs_9s(sc)
    assert sc.lift(sc.copy_in("9s", MELDS, N)) == []  # missed reads
    got = sc.discard(N, "6s")
    assert moves(got) == [Discard(N, Tile.parse("6s"))]
    assert not sc.rt.alerts and not sc.rt.rejected


def test_a_hand_tile_in_the_air_still_holds_the_discard_back() -> None:
    """A second tile leaving the hand may be the real discard: the reading waits for it."""
    sc = a_round_played()
    other = sc.copy_in("2m", HAND, E)
    sc.lift(other)
    assert moves(sc.discard(E, "9s")) == []
    got = sc.place(other, sc.zone(HAND, E))  # it was only lifted: the discard is read
    assert moves(got) == [Discard(E, Tile.parse("9s"))]


def test_regression_a_missed_read_of_a_meld_tile_held_the_draw_back() -> None:
    """10/10/2 campaign seed 312 deal 14: W (deal E) drew 7s in the very round one tile of
    its melds went unread; a meld tile missing was taken for "a declared meld not laid down
    yet", the draw was not read, W promoted its pung with the 7s at once (KONG pressed), and
    the judge, still waiting for the draw, never read the kong: the deal stalled. A meld
    tile that lies nowhere else is a missed read: the draw is read."""
    sc = a_round_played()
    _n_pungs_9s(sc)
    sc.discard(N, "6s")
    for seat in (E, S, W):  # each draws a tile and discards it again
        sc.close()
        drawn = sc.next_copy()
        sc.draw(seat)
        assert moves(sc.move(drawn, RIVER, seat)) == [Discard(seat, drawn.tile)]
    sc.close()
    meld = sc.copy_in("9s", MELDS, N)
    assert sc.lift(meld) == []  # missed reads
    drawn = sc.next_copy()
    assert moves(sc.draw(N)) == [Draw(N, drawn.tile)]
    sc.place(meld, sc.zone(MELDS, N))
    assert not sc.rt.alerts and not sc.rt.rejected


def _n_pungs_9s(sc) -> None:
    """N pungs E's 9s and lays the pung down."""
    sc.press(N, Button.PUNG)
    sc.discard(E, "9s")
    sc.close()
    sc.move(sc.copy_in("9s", RIVER, E), MELDS, N)
    sc.move(sc.copy_in("9s", HAND, N), MELDS, N)
    sc.move(sc.copy_in("9s", HAND, N), MELDS, N)
