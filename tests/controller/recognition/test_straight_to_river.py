"""A drawn tile read on its way: discarded before its stay in the hand was read, the next wall
tile appears in the river of the player due to draw, from no watched zone, and is read as
that player's draw and discard (controller.recognition.readings, `Reader._straight_reading`),
before any later draw its hand shows; read first on a zone beside the hand (crosstalk), it
is still a new tile when it reaches the hand (controller.recognition.table_seen)."""

from __future__ import annotations

from scene import Scene, moves

from controller.profiles import ZoneKind
from controller.recognition.presence import TilePlaced
from rules.moves import Discard, Draw, Move
from rules.seats import Seat
from rules.tiles import Tile

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N
HAND, RIVER, VOID, MELDS = ZoneKind.HAND, ZoneKind.RIVER, ZoneKind.VOID, ZoneKind.MELDS
T = Tile.parse

# S draws 7m twice, a round apart; between them W draws 1p, N 2p, E 3p
LIVE = "7m1p2p3p7m4p"


def tile_moves(sc: Scene) -> list[Move]:
    return [m for m in sc.deal.moves if isinstance(m, Draw | Discard)]


def a_round_with_the_first_draw_unread() -> tuple[Scene, list[Move]]:
    """E discards its laid 5s; S draws 7m and discards it straight (its hand never read it),
    read only after W's draw reached W's hand; W, N and E play; S draws the second 7m and
    discards 2m. Returns the scene and the moves the table made, in order."""
    sc = Scene(live=LIVE)
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    first_7m = sc.next_copy()
    wall = [sc.copies[i] for i in sc.deal.wall.remaining()[:5]]
    assert [c.tile for c in wall] == [T(t) for t in ("7m", "1p", "2p", "3p", "7m")]
    sc.place(wall[1], sc.zone(HAND, W))  # W's draw read before S's river tile
    sc.place(first_7m, sc.zone(RIVER, S))
    sc.discard(W, "9p")
    sc.place(wall[2], sc.zone(HAND, N))
    sc.discard(N, "7s")
    sc.place(wall[3], sc.zone(HAND, E))
    sc.discard(E, "9s")
    sc.place(wall[4], sc.zone(HAND, S))
    sc.discard(S, "2m")
    sc.wait(0.1)
    played: list[Move] = [
        Discard(E, T("5s")),
        Draw(S, T("7m")),
        Discard(S, T("7m")),
        Draw(W, T("1p")),
        Discard(W, T("9p")),
        Draw(N, T("2p")),
        Discard(N, T("7s")),
        Draw(E, T("3p")),
        Discard(E, T("9s")),
        Draw(S, T("7m")),
        Discard(S, T("2m")),
    ]
    return sc, played


def test_regression_a_later_draw_of_the_same_tile_was_taken_for_the_unread_one() -> None:
    """10/10/2 seed 313 deal 36 (after a kill): S's 7m went from the wall to its river while
    the claims on E's 3m were open; W had drawn meanwhile, so the search of a few moves could
    not explain the table, and the window stayed open until S drew another 7m a round
    later. That draw was taken for the first, S's 4m after it for that turn's discard, and
    the 7m in the river for a later one: the deal settled with S's discards swapped."""
    sc, played = a_round_with_the_first_draw_unread()
    assert tile_moves(sc)[-len(played) :] == played, sc.rt.rejected
    assert sc.rt.rejected == []


def test_the_tile_is_read_at_once_while_the_window_is_open() -> None:
    """The discard window the draw closes, the draw and the discard: nothing waits."""
    sc = Scene(live=LIVE)
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    drawn = sc.next_copy()
    got = sc.place(drawn, sc.zone(RIVER, S))
    assert moves(got) == [Draw(S, drawn.tile), Discard(S, drawn.tile)]
    assert sc.deal.window is not None and sc.deal.window.discarder is S
    assert sc.rt.rejected == []


def test_a_tile_that_is_not_the_next_wall_tile_is_not_read_as_the_draw() -> None:
    """A tile from no watched zone that the wall does not give next (a tile of the wall read
    where it does not lie) is no draw: nothing is read from it."""
    sc = Scene(live=LIVE)
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    other = sc.wall_copy("4p")
    got = sc.place(other, sc.zone(RIVER, S))
    assert moves(got) == []
    assert sc.deal.window is not None and sc.deal.window.discarder is E


def test_a_tile_read_in_the_river_from_the_hand_is_a_discard_not_a_draw() -> None:
    """A copy the hand held, read in the river (its hand read missed: crosstalk), is not
    straight from the wall: it is read as the discard it is when it is the player's turn,
    and never as the draw."""
    sc = Scene(live=LIVE)
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    sc.close()
    held = sc.copy_in("7m", HAND, S)  # S holds one 7m, the wall's next tile is a 7m too
    got = sc.move(held, RIVER, S)
    assert moves(got) == []  # S has not drawn: a discard now is refused, not a draw
    assert not sc.rec.table.straight


def test_the_hands_later_draw_stays_new_when_the_draw_taken_went_to_the_river() -> None:
    """Taking the draw of a tile that went straight to the river leaves a tile drawn later
    in that hand new (it is the next draw), and takes that tile off the river's list."""
    sc = Scene(live=LIVE)
    table = sc.rec.table
    wall = [sc.copies[i] for i in sc.deal.wall.remaining()[:5]]
    first, later = wall[0], wall[4]
    river, hand = sc.zone(RIVER, S), sc.zone(HAND, S)
    table.place(TilePlaced(1.0, first.tile, first.copy, river))
    table.place(TilePlaced(2.0, later.tile, later.copy, hand))
    assert table.straight == {first} and later in table.fresh
    table.drawn(S, first.tile)
    assert table.straight == set() and later in table.fresh
    table.drawn(S, later.tile)
    assert later not in table.fresh


def test_regression_a_draw_read_first_on_the_melds_was_no_new_tile() -> None:
    """10/10/2 seed 313 deal 32: South's drawn 7s was read on its melds spot for a round
    (crosstalk from the hand), then in its hand; coming from the melds it was no new tile,
    its draw was never read and the table ran on for 5 s until the referee was called."""
    sc = Scene(live=LIVE)
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    drawn = sc.next_copy()
    assert moves(sc.place(drawn, sc.zone(MELDS, S))) == []
    got = sc.move(drawn, HAND, S)
    assert moves(got) == [Draw(S, drawn.tile)]
    assert moves(sc.discard(S, "2m")) == [Discard(S, T("2m"))]
    assert sc.rt.rejected == []


def test_a_tile_of_another_seat_is_no_draw() -> None:
    """A tile that lay in another seat's zone (a claim, crosstalk across seats) is not new
    when it reaches a hand: nothing reads it as a draw."""
    sc = Scene(live=LIVE)
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    drawn = sc.next_copy()
    sc.place(drawn, sc.zone(HAND, N))  # read at N's hand first
    got = sc.move(drawn, HAND, S)
    assert moves(got) == []
