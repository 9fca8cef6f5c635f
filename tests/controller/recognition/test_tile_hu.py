"""A Hu shown with the tiles alone (issue 18, the open-hand convention), read as the daemon
reads it: on its view of the table with the claim window closed now (claim_clock._as_seen).
A false one is alerted as a button's or a card's is; the next player's Hu on a discard is a
Hu, not a draw of the same tile and a self-drawn Hu; a Hu on a discard never read in the
river is read with that discard."""

from __future__ import annotations

from scene import Scene, alerts, moves

from controller.alerts import AlertKind
from controller.profiles import TileCopy, ZoneKind
from controller.recognition.presence import TileLifted, TilePlaced
from controller.recognition.reconcile import fork
from rules.deal import Deal
from rules.moves import CloseClaims, Discard, Draw, Hu, SelfDrawnHu
from rules.seats import Seat
from rules.tiles import Tile


def runtime_view(sc: Scene) -> Deal:
    """The deal as the daemon reads tiles against it while the window is open."""
    seen = fork(sc.deal)
    assert seen.apply(CloseClaims())
    return seen


def lay_open(sc: Scene, seat: Seat, seen: Deal, extra: list[TileCopy]) -> list:
    """`seat`'s whole hand and `extra` moved into its melds, read against `seen`."""
    melds = sc.zone(ZoneKind.MELDS, seat)
    hand = [tc for tc, z in sorted(sc.where.items()) if z == sc.zone(ZoneKind.HAND, seat)]
    out: list = []
    for tc in [*extra, *hand]:
        was = sc.where.get(tc)
        sc.where[tc] = melds
        sc.t += 0.01
        if was is not None:
            out += sc.rec.on_presence(TileLifted(sc.t, tc.tile, tc.copy, was), seen)
        out += sc.rec.on_presence(TilePlaced(sc.t, tc.tile, tc.copy, melds), seen)
    return out


def test_regression_a_false_hu_shown_with_the_tiles_is_alerted_like_a_win_cards() -> None:
    """N lays its hand open with E's 5s (no win: 11223344556675s): the Hu is read, and the
    judge takes it as a false Hu. Read on the daemon's view (the window closed now) the
    judge's own check refused it there, and no FALSE_HU was raised, unlike a Win card's."""
    sc = Scene(declarations="tiles")
    sc.move(sc.copy_in("5s", ZoneKind.HAND, Seat.E), ZoneKind.VOID, Seat.E)
    sc.discard(Seat.E, "5s", ZoneKind.VOID)
    sc.wait(0.5)
    assert sc.deal.window is not None
    river = sc.copy_in("5s", ZoneKind.RIVER, Seat.E)
    out = lay_open(sc, Seat.N, runtime_view(sc), [river])
    assert moves(out) == [Hu(Seat.N)]
    assert [a.kind for a in alerts(out)] == [AlertKind.FALSE_HU]
    assert sc.deal.check(Hu(Seat.N)) is None and not sc.deal.wins(Seat.N, river.tile)


def test_a_winning_hand_shown_with_the_tiles_raises_no_alert() -> None:
    sc = Scene(declarations="tiles", hands=NEXT_WINS, live="7m")
    sc.move(sc.copy_in("5s", ZoneKind.HAND, Seat.E), ZoneKind.VOID, Seat.E)
    sc.discard(Seat.E, "5s", ZoneKind.VOID)
    sc.wait(0.5)
    river = sc.copy_in("5s", ZoneKind.RIVER, Seat.E)
    out = lay_open(sc, Seat.S, runtime_view(sc), [river])
    assert moves(out) == [Hu(Seat.S)] and alerts(out) == []


# S wins on 5s (222333444m 46s 99s: 456s); the wall's next tile is a 5s as well
NEXT_WINS = {
    Seat.E: "1111234m1567p599s",
    Seat.S: "222333444m4699s",
    Seat.W: "2345678p23466s9p",
    Seat.N: "1112233777888s",
}


def test_the_next_players_hu_on_a_discard_is_not_a_draw_of_that_tile() -> None:
    """E discarded 5s, S (next to draw) laid its hand open with it; in the daemon's view the
    window had closed and it was S's draw, and the wall's next tile was a 5s too: the judge
    would accept a draw and a self-drawn Hu. The discard left the river: a Hu on it."""
    sc = Scene(declarations="tiles", hands=NEXT_WINS, live="5s")
    sc.move(sc.copy_in("5s", ZoneKind.HAND, Seat.E), ZoneKind.VOID, Seat.E)
    sc.discard(Seat.E, "5s", ZoneKind.VOID)
    sc.wait(0.5)
    assert str(sc.deal.wall.peek()) == "5s"  # the draw would fit the wall
    river = sc.copy_in("5s", ZoneKind.RIVER, Seat.E)
    out = lay_open(sc, Seat.S, runtime_view(sc), [river])
    assert moves(out) == [Hu(Seat.S)]
    assert alerts(out) == []


def test_a_drawn_tile_laid_open_with_a_hand_that_does_not_win_is_a_false_self_drawn_hu() -> None:
    """S's draw laid open with its hand before the draw was read (no win): the draw and a
    self-drawn Hu, alerted as a false Hu (judged after the draw)."""
    sc = Scene(declarations="tiles")
    sc.move(sc.copy_in("5s", ZoneKind.HAND, Seat.E), ZoneKind.VOID, Seat.E)
    sc.discard(Seat.E, "5s", ZoneKind.VOID)
    sc.wait(0.5)
    sc.close()
    drawn = sc.next_copy()
    out = lay_open(sc, Seat.S, sc.deal, [drawn])
    assert moves(out)[-1] == SelfDrawnHu(Seat.S)
    assert [a.kind for a in alerts(out)] == [AlertKind.FALSE_HU]


def test_regression_a_hand_laid_open_before_its_draw_is_read_waits_for_the_draw() -> None:
    """Tiles campaign seed 502 deal 38: S drew and laid the drawn tile open with its hand;
    the hand settled in the melds before the drawn tile did, and was read as a Hu on N's
    open discard (a false one: the deal ended there, settled wrong). The next player's
    hand alone, not winning on the discard, waits for its draw."""
    sc = Scene(declarations="tiles")
    sc.move(sc.copy_in("5s", ZoneKind.HAND, Seat.E), ZoneKind.VOID, Seat.E)
    sc.discard(Seat.E, "5s", ZoneKind.VOID)
    sc.wait(0.5)
    seen = runtime_view(sc)
    drawn = sc.next_copy()
    out = lay_open(sc, Seat.S, seen, [])
    assert moves(out) == [] and alerts(out) == []
    out = lay_open(sc, Seat.S, seen, [drawn])
    assert moves(out) == [Draw(Seat.S, drawn.tile), SelfDrawnHu(Seat.S)]


def a_round_then_easts_draw(sc: Scene) -> TileCopy:
    """E's 5s (its void tile) read in the river, a round of draws and discards read, and E's
    draw: E is to discard the tile it drew (NEXT_WINS: a 5s, the tile S wins on)."""
    sc.move(sc.copy_in("5s", ZoneKind.HAND, Seat.E), ZoneKind.VOID, Seat.E)
    sc.discard(Seat.E, "5s", ZoneKind.VOID)
    sc.wait(0.5)
    for seat in (Seat.S, Seat.W, Seat.N):
        sc.close()
        drawn = sc.next_copy()
        sc.draw(seat)
        sc.move(drawn, ZoneKind.RIVER, seat)
        sc.wait(0.5)
    sc.close()
    drawn = sc.next_copy()
    assert moves(sc.draw(Seat.E)) == [Draw(Seat.E, drawn.tile)]
    assert sc.deal.turn is Seat.E and sc.deal.window is None and sc.rt.rejected == []
    return drawn


def test_regression_a_hu_on_a_discard_never_read_in_the_river_is_read_with_the_discard() -> None:
    """Tiles campaign seed 502 deal 73: E drew 7m and discarded it, S (next) won on it and
    laid its hand open; the 7m went from E's hand into S's melds without settling in the
    river (read there in three rounds out of seven: never `appear`). Nothing read the open
    hand (no discard was open), E's next discard was taken for this one and the referee was
    called. A tile that left the discarder's hand for the open hand that wins on it is the
    discard and the Hu on it, as a pung of an unread discard is."""
    sc = Scene(declarations="tiles", hands=NEXT_WINS, live="9p9m1p5s")
    drawn = a_round_then_easts_draw(sc)
    assert drawn.tile == Tile.parse("5s") and sc.deal.wins(Seat.S, drawn.tile)
    out: list = []
    hand = [tc for tc, z in sorted(sc.where.items()) if z == sc.zone(ZoneKind.HAND, Seat.S)]
    for tc in hand:
        out += sc.move(tc, ZoneKind.MELDS, Seat.S)
    assert moves(out) == []  # the hand alone: nothing is open to win on
    out = sc.move(drawn, ZoneKind.MELDS, Seat.S)  # straight from E's hand
    assert moves(out) == [Discard(Seat.E, drawn.tile), Hu(Seat.S)]
    assert alerts(out) == [] and sc.rt.rejected == []
    assert sc.deal.window is not None and dict(sc.deal.window.declared) == {Seat.S: Hu(Seat.S)}
    sc.close()  # the deal goes on: W's draw and discard are read
    nxt = sc.next_copy()
    got = sc.draw(Seat.W) + sc.move(nxt, ZoneKind.RIVER, Seat.W)
    assert moves(got) == [Draw(Seat.W, nxt.tile), Discard(Seat.W, nxt.tile)]
    assert sc.rt.rejected == [] and alerts(sc.wait(6.0)) == []


def test_a_hand_laid_open_with_a_tile_from_the_discarders_hand_it_does_not_win_on() -> None:
    """The same with a tile S does not win on (E's 1m): no discard and no Hu are inferred
    (a guessed discard and a false Hu would end S's deal); the referee is told."""
    sc = Scene(declarations="tiles", hands=NEXT_WINS, live="9p9m1p5s")
    a_round_then_easts_draw(sc)
    one = sc.copy_in("1m", ZoneKind.HAND, Seat.E)
    assert not sc.deal.wins(Seat.S, one.tile)
    hand = [tc for tc, z in sorted(sc.where.items()) if z == sc.zone(ZoneKind.HAND, Seat.S)]
    out: list = []
    for tc in [*hand, one]:
        out += sc.move(tc, ZoneKind.MELDS, Seat.S)
    assert moves(out) == []
    told = [a.kind for a in alerts(sc.wait(6.0))]
    assert AlertKind.TILES_WITHOUT_DECLARATION in told
    assert sc.deal.turn is Seat.E and sc.deal.window is None
