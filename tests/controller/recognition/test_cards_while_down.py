"""Cards laid while the daemon was down (issue 18): the reconciliation after a restart
explained the tiles only, and a void or Win card laid meanwhile declared nothing (the reader
reported it while the daemon was recovering, when nothing is read as a move). The restarted
recogniser is given the cards on the table (`cards_on_table`) before the reconciliation, as
the runtime does (controller/daemon/recovery.py)."""

from __future__ import annotations

from recog_rig import reader
from scene import Scene, alerts, moves

from controller.alerts import AlertKind
from controller.profiles import Card, ZoneKind, sim_tag_map, with_declarations
from controller.recognition.recogniser import Recogniser
from rules.moves import ChooseVoid, Hu
from rules.seats import Seat
from rules.tiles import Suit

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N


def restarted(sc: Scene, cards: dict[str, tuple[ZoneKind, Seat]]) -> list:
    """A fresh recogniser (the daemon restarted) reconciles the scene's table with the judge,
    the `cards` (name → zone) lying on it."""
    rec = Recogniser(sc.rs, with_declarations(reader(), "cards"), sim_tag_map(sc.rs.tiles.set))
    rec.new_deal(E)
    rec.start_deal(sc.deal)
    rec.cards_on_table({Card.parse(c): sc.zone(k, s) for c, (k, s) in cards.items()})
    out = rec.reconcile(dict(sc.where), sc.deal)
    sc.feed(out)
    return out


VOID_CARDS = {
    "card:void-s#2": (ZoneKind.VOID, S),
    "card:void-m#3": (ZoneKind.VOID, W),
    "card:void-m#4": (ZoneKind.VOID, N),
}


def test_regression_void_cards_laid_while_down_choose_the_voids_after_the_restart() -> None:
    """E laid its void tile and S, W, N their void cards while the daemon was down; then E
    discarded the laid tile. The voids come from the cards, the discard from the tiles."""
    sc = Scene(declarations="cards")
    laid = sc.copy_in("5s", ZoneKind.HAND, E)
    sc.where[laid] = sc.zone(ZoneKind.RIVER, E)  # laid on the void spot, then discarded
    out = restarted(sc, VOID_CARDS)
    assert [sc.deal.void(s) for s in (E, S, W, N)] == [Suit.S, Suit.S, Suit.M, Suit.M]
    assert {m for m in moves(out) if isinstance(m, ChooseVoid) and m.seat is not E} == {
        ChooseVoid(S, Suit.S),
        ChooseVoid(W, Suit.M),
        ChooseVoid(N, Suit.M),
    }
    assert sc.deal.window is not None and sc.deal.window.discarder is E
    assert not [a for a in alerts(out) if a.kind is AlertKind.RECOVERY]


def test_cards_whose_declarations_the_judge_holds_declare_nothing_again() -> None:
    sc = Scene(declarations="cards")
    sc.move(sc.copy_in("5s", ZoneKind.HAND, E), ZoneKind.VOID, E)
    for card, (kind, seat) in VOID_CARDS.items():
        sc.lay_card(card, kind, seat)
    assert all(sc.deal.void(s) is not None for s in (E, S, W, N))
    assert restarted(sc, VOID_CARDS) == []


def test_a_win_card_laid_while_down_is_its_hu_on_the_open_discard() -> None:
    """N laid its Win card on E's discard while the daemon was down: Hu by context (a false
    one here, alerted as when laid live); once among the winners, the card lying there
    declares nothing at the next restart."""
    sc = Scene(declarations="cards")
    sc.move(sc.copy_in("5s", ZoneKind.HAND, E), ZoneKind.VOID, E)
    for card, (kind, seat) in VOID_CARDS.items():
        sc.lay_card(card, kind, seat)
    sc.discard(E, "5s", ZoneKind.VOID)
    assert sc.deal.window is not None
    win = {"card:hu#N": (ZoneKind.MELDS, N)}
    out = restarted(sc, {**VOID_CARDS, **win})
    assert moves(out) == [Hu(N)]
    assert [a.kind for a in alerts(out)] == [AlertKind.FALSE_HU]
    assert "card:hu#N found at" in str(out[0].evidence[0])
    sc.close()
    assert any(w.seat is N for w in sc.deal.winners)
    assert moves(restarted(sc, {**VOID_CARDS, **win})) == []


def test_a_win_card_the_judge_refuses_is_said_to_the_referee() -> None:
    """A Win card found while the voids are still being chosen: no Hu now, said (and a
    restart before any move is not taken for one during the dealing, which reads on)."""
    sc = Scene(declarations="cards")
    out = restarted(sc, {"card:hu#S": (ZoneKind.MELDS, S)})
    assert moves(out) == []
    (said,) = [a for a in alerts(out) if a.kind is AlertKind.UNRECOGNISED]
    assert said.seat is S and "card:hu#S found at" in said.text
    assert not sc.deal.moves
