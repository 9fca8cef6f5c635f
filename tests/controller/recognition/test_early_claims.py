"""A claim pressed for a discard the reader has not settled yet, while the judge still holds
the previous window open: by the discarder of that window (nobody claims their own tile), or
one that window refuses. It is held and offered after the next discard, whether the draw
and discard are read one by one or found together by the multi-move search."""

from __future__ import annotations

from scene import Scene, alerts, moves

from controller.devices.events import Button
from controller.profiles import ZoneKind
from rules.melds import MeldKind
from rules.moves import CloseClaims, Discard, Draw, Hu, Kong, Pung
from rules.seats import Seat
from rules.tiles import Tile

E, S = Seat.E, Seat.S
HAND, RIVER, VOID, MELDS = ZoneKind.HAND, ZoneKind.RIVER, ZoneKind.VOID, ZoneKind.MELDS


# S holds three 9m and draws the fourth (the live wall's next tile)
S_HOLDS_THREE_9M = {
    E: "1111234m1567p599s",
    S: "2345678999m234p",
    Seat.W: "2345678p23456s9p",
    Seat.N: "1122334455667s",
}


def opening() -> Scene:
    sc = Scene()
    sc.choose_voids()
    assert moves(sc.discard(E, "5s", VOID)) == [Discard(E, Tile.parse("5s"))]
    return sc  # E's window is open on the judge


def north_pungs_easts_5s() -> Scene:
    """E discards the laid 5s; N (holding two) declares a pung on it."""
    hands = {
        E: "1111234m1567p599s",
        S: "23456789m234p88p",
        Seat.W: "2345678p23456s9p",
        Seat.N: "112233445567s8p",
    }
    sc = Scene(hands=hands)
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    assert moves(sc.press(Seat.N, Button.PUNG)) == [Pung(Seat.N)]
    return sc


def lay_norths_pung(sc: Scene) -> None:
    """The window closes on N's pung and N lays it down."""
    sc.close()
    sc.move(sc.copy_in("5s", RIVER, E), MELDS, Seat.N)
    sc.move(sc.copy_in("5s", HAND, Seat.N), MELDS, Seat.N)
    sc.move(sc.copy_in("5s", HAND, Seat.N), MELDS, Seat.N)


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
    """The drawn tile was read in W's river first (crosstalk from S's), so it did not come
    straight from the wall to S's river: the search finds the draw and the discard."""
    sc = opening()
    sc.press(E, Button.HU)
    drawn = sc.next_copy()
    said = sc.place(drawn, sc.zone(RIVER, Seat.W))
    said += sc.move(drawn, RIVER, S)
    said += sc.wait(0.5) + sc.wait(0.6)
    assert [type(m) for m in moves(said)] == [CloseClaims, Draw, Discard, Hu]
    assert moves(said)[1:] == [Draw(S, drawn.tile), Discard(S, drawn.tile), Hu(E)]
    assert sc.rt.rejected == []


def test_the_held_claim_follows_a_draw_discarded_before_it_settled() -> None:
    sc = opening()
    sc.press(E, Button.HU)
    drawn = sc.next_copy()
    said = sc.place(drawn, sc.zone(RIVER, S))  # drawn and discarded before it settled
    assert moves(said) == [Draw(S, drawn.tile), Discard(S, drawn.tile), Hu(E)]
    assert sc.rt.rejected == []


def test_regression_a_pung_pressed_before_the_punger_discarded_is_not_lost() -> None:
    """Seed 505, deal 8 (noisy, fast): E punged W's 1p and discarded 4p; S pressed PUNG for
    the 4p before the reader settled it, so it was judged on W's window ("S holds fewer
    than two 1p") and lost. A claim the open window refuses is held for the next discard."""
    sc = north_pungs_easts_5s()
    assert sc.press(S, Button.PUNG) == []  # not for E's 5s: held, not refused
    lay_norths_pung(sc)
    got = sc.discard(Seat.N, "8p")
    assert moves(got) == [Discard(Seat.N, Tile.parse("8p")), Pung(S)]
    assert sc.rt.rejected == []


def test_a_held_claim_is_offered_with_the_time_its_button_was_read() -> None:
    """Issue 13 item 2: the runtime times a claim (late or not) from when its button was
    read, so a held claim carries its press time when it is finally offered."""
    from controller.recognition.recogniser import MoveSeen

    sc = opening()
    sc.press(E, Button.HU)
    pressed = sc.t
    drawn = sc.next_copy()
    said = sc.draw(S)
    said += sc.move(drawn, RIVER, S)
    (hu,) = [r for r in said if isinstance(r, MoveSeen) and isinstance(r.move, Hu)]
    assert hu.read_at == pressed


def test_regression_a_claim_held_over_two_late_discards_goes_to_the_one_it_fits() -> None:
    """Campaign seed 31 deal 4 (10 % missed, 10 % crosstalk): two discards were read late;
    E's HU, held for the discard after its own, was released after the first of them, a
    tile of E's void suit, refused ("void-suit-claim") and lost with the deal. A held claim
    the next window refuses waits for the discard after it (within `settle`)."""
    sc = Scene(live="1s2p3p4p")
    sc.choose_voids()  # E and S void s, W and N void m
    sc.discard(E, "5s", VOID)
    assert sc.press(E, Button.HU) == []  # E's own window: held
    said = sc.draw(S)
    said += sc.discard(S, "1s")  # a tile of E's void suit: not the discard E's HU is for
    assert Hu(E) not in moves(said)
    said = sc.draw(Seat.W)
    said += sc.discard(Seat.W, "2p")
    assert moves(said)[-1] == Hu(E)
    assert [r.reason.value for r in sc.rt.rejected] == []


def test_regression_a_false_hu_on_a_punged_discard_waits_for_the_pungers_discard() -> None:
    """A 10/10/2 campaign, seed 311 deal 1: E punged; W's HU, read while the pung's window
    was still open, was taken there as a false Hu (W does not win on that tile) instead of
    on E's discard that followed, and the deal was settled wrong. A HU that window would
    take only as a false Hu, after another player's pung, waits for that player's discard."""
    sc = north_pungs_easts_5s()
    assert sc.press(Seat.W, Button.HU) == []  # held: not a false Hu on E's 5s
    lay_norths_pung(sc)
    got = sc.discard(Seat.N, "8p")
    assert moves(got) == [Discard(Seat.N, Tile.parse("8p")), Hu(Seat.W)]
    assert sc.deal.window is not None and sc.deal.window.tile == Tile.parse("8p")


def test_regression_a_kong_pressed_before_its_draw_was_read_is_read_from_the_tiles() -> None:
    """10/10/2 campaign, seed 310 deal 14: S pressed KONG while still to draw and the drawn
    tile went straight from the wall to the melds with the three S held (9m here); the press, held for
    the draw, was offered as a melded kong with nothing to claim and refused, the draw was
    never read, and the deal was lost. The press is S's own kong to come: the search reads
    the draw and the kong together."""
    sc = Scene(hands=S_HOLDS_THREE_9M, live="9m")
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    sc.close()
    assert sc.press(S, Button.KONG) == []  # S is to draw: held
    drawn = sc.next_copy()
    assert drawn.tile == Tile.parse("9m")
    said = sc.place(drawn, sc.zone(MELDS, S))  # never read in the hand
    for _ in range(3):
        said += sc.move(sc.copy_in("9m", HAND, S), MELDS, S)
    said += sc.wait(0.6) + sc.wait(0.6)
    nine_m = Tile.parse("9m")
    assert moves(said) == [Draw(S, nine_m), Kong(S, MeldKind.CONCEALED_KONG, nine_m)]
    assert sc.rt.rejected == [] and alerts(said) == []


def test_regression_a_kong_pressed_by_the_next_to_draw_while_the_window_was_open() -> None:
    """A 10/10/2 campaign, seed 310 deal 31: S pressed KONG after its draw, unread, while E's
    window was still open on the timer; the press was held, offered as a melded kong of E's
    discard and refused, and the referee was called ("declared a kong; no tiles followed").
    The next to draw, who cannot take that discard as a kong, declares its own kong to come."""
    sc = Scene(hands=S_HOLDS_THREE_9M, live="9m")
    sc.choose_voids()
    sc.discard(E, "5s", VOID)  # the window stays open
    assert sc.press(S, Button.KONG) == []
    said = sc.place(sc.next_copy(), sc.zone(MELDS, S))  # never read in the hand
    for _ in range(3):
        said += sc.move(sc.copy_in("9m", HAND, S), MELDS, S)
    for _ in range(10):
        said += sc.wait(0.6)
    nine_m = Tile.parse("9m")
    kong = Kong(S, MeldKind.CONCEALED_KONG, nine_m)
    assert moves(said) == [CloseClaims(), Draw(S, nine_m), kong]
    assert sc.rt.rejected == [] and alerts(said) == []


def test_regression_a_hu_for_the_next_discard_was_taken_as_a_false_hu_on_the_open_window() -> None:
    """A 10/10/2 campaign, seed 310 deal 19: N's HU for S's discard, pressed while S's draw
    and discard were not read yet and E's window was still open, was taken there as a false
    Hu (N does not win on E's 5s), and the deal was lost. A HU the open window takes only as
    a false Hu, from a hand that waits on some tile, is held for the discard that follows."""
    sc = Scene(live="7s")  # S draws 7s and lets it go: N's seven pairs win on it
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    assert sc.press(Seat.N, Button.HU) == []  # N waits on 7s, not 5s: held
    got = sc.draw(S) + sc.discard(S, "7s")
    assert moves(got) == [Draw(S, Tile.parse("7s")), Discard(S, Tile.parse("7s")), Hu(Seat.N)]
    assert alerts(got) == [] and not sc.rt.rejected
    sc.close()
    assert not sc.deal.winners[-1].false_hu


def test_a_false_hu_from_a_hand_that_waits_on_nothing_is_taken_at_once() -> None:
    sc = opening()  # W's hand waits on no tile
    got = sc.press(Seat.W, Button.HU)
    assert moves(got) == [Hu(Seat.W)] and [a.kind.value for a in alerts(got)] == ["false-hu"]


def test_a_held_false_looking_hu_is_taken_on_its_window_when_the_table_stands_still() -> None:
    """The player who declared a false Hu shows the hand and the table stops: nothing else
    is read, and after `settle` the HU is taken as pressed, on the window still open."""
    sc = opening()
    assert sc.press(Seat.N, Button.HU) == []
    got = sc.wait(1.1)
    assert moves(got) == [Hu(Seat.N)] and [a.kind.value for a in alerts(got)] == ["false-hu"]
    sc.close()
    won = sc.deal.winners[-1]
    assert won.false_hu and won.from_seat is E  # on E's window


def test_regression_a_kong_pressed_before_its_draw_was_read_is_read_with_the_tiles() -> None:
    """A 10/10/2 campaign, seed 313 deal 7: E pressed KONG in the same instant its draw of
    the fourth 8s settled in the hand, before it was read; the press was held for `settle`
    like a claim for a discard not read yet, so the promoted kong laid 0.08 s later waited
    for it and was read 1 s late; the replacement, a discard and W's pung went by meanwhile,
    and W's next HU was taken on the kong's robbing window, a false Hu. Once the draw is
    read and makes a kong, the held KONG is the drawer's own kong: read with its tiles."""
    sc = Scene(hands=S_HOLDS_THREE_9M, live="9m")
    sc.choose_voids()
    sc.discard(E, "5s", VOID)
    sc.close()
    assert sc.press(S, Button.KONG) == []  # S is to draw: held
    nine_m = Tile.parse("9m")
    assert moves(sc.draw(S)) == [Draw(S, nine_m)]
    said: list = []
    for _ in range(4):
        said += sc.move(sc.copy_in("9m", HAND, S), MELDS, S)
    assert moves(said) == [Kong(S, MeldKind.CONCEALED_KONG, nine_m)]
    assert sc.rt.rejected == [] and not sc.rt.alerts


def test_regression_a_held_false_hu_is_taken_when_its_presser_takes_the_discard() -> None:
    """A recognition campaign at 0 % noise (seed 11, deals 15 and 21; a clean table under
    load): W's HU on E's 1p, a false Hu from a hand waiting on another tile, was held for
    `settle` as perhaps for a later discard; the table played on meanwhile (W took the 1p,
    N drew and discarded), the next turns were read against the window closed without it,
    and the referee was called (a wall mismatch, then a declaration without tiles). The
    tiles showing the presser take the open window's discard say the HU was for it."""
    sc = opening()
    assert sc.press(Seat.N, Button.HU) == []  # N waits on another tile: held
    got = sc.move(sc.copy_in("5s", RIVER, E), HAND, Seat.N)  # N takes E's 5s
    assert moves(got) == [Hu(Seat.N)]
    assert [a.kind.value for a in alerts(got)] == ["false-hu"]
    sc.close()
    won = sc.deal.winners[-1]
    assert won.false_hu and won.from_seat is E  # on E's window, at once


def test_the_held_false_hu_is_taken_when_the_tiles_are_read_as_if_the_window_closed() -> None:
    """The daemon reads tiles against the deal as if the open window had closed now
    (`ClaimClock._as_seen`): the discard taken by the HU's presser releases it there too,
    the false Hu judged on the window it was pressed in."""
    from controller.recognition.presence import TileLifted, TilePlaced
    from controller.recognition.reconcile import fork

    sc = opening()
    assert sc.press(Seat.N, Button.HU) == []
    seen = fork(sc.deal)
    assert seen.apply(CloseClaims())  # the deal as the daemon reads tiles against it
    taken = sc.copy_in("5s", RIVER, E)
    sc.rec.on_presence(TileLifted(7.0, taken.tile, taken.copy, sc.zone(RIVER, E)), seen)
    got = sc.rec.on_presence(TilePlaced(7.0, taken.tile, taken.copy, sc.zone(HAND, Seat.N)), seen)
    assert moves(got) == [Hu(Seat.N)]
    assert [a.kind.value for a in alerts(got)] == ["false-hu"]
