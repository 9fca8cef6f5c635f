"""What of an accepted move goes out on the MQTT event topic: only what the table shows."""

import pytest

from controller.hub.wire import EventKind
from controller.outputs.mqtt import public_event
from rules.seats import Seat


def event(**payload):
    return public_event(payload, seq=7, session=1, deal=2)


def test_a_draw_is_published_without_its_tile():
    e = event(move="draw", seat="S", tile="5p")
    assert (e.kind, e.seat, e.tile, e.meld) == (EventKind.DRAW, Seat.S, None, None)
    assert event(move="replacement-draw", seat="W", tile="9s").tile is None


def test_a_discard_carries_its_tile():
    e = event(move="discard", seat="E", tile="3m")
    assert (e.kind, e.tile, e.seq, e.deal) == (EventKind.DISCARD, "3m", 7, 2)


@pytest.mark.parametrize("kind", ["kong", "concealed-kong", "promoted-kong", "postponed-kong"])
def test_a_kong_names_its_meld(kind):
    e = event(move=kind, seat="N", tile="8s")
    assert (e.kind, e.meld, e.tile) == (EventKind.KONG, f"{kind} 8s", None)


def test_a_void_choice_pass_and_window_close_are_not_published():
    assert event(move="void", seat="S", tile="2m", suit="m") is None
    assert event(move="pass", seat="S") is None
    assert event(move="close-claims") is None


def test_a_self_drawn_hu_does_not_show_the_drawn_tile():
    e = event(move="hu", seat="W", tile="4p", self_drawn=True)
    assert (e.kind, e.tile) == (EventKind.HU, None)


def test_a_chow_names_its_three_tiles():
    """Wellness: the journal names a chow by its lowest tile; the event says which chow."""
    e = event(move="chow", seat="S", tile="3m", from_seat="E")
    assert (e.kind, e.meld, e.tile, e.seat) == (EventKind.CHOW, "chow 345m", None, Seat.S)
    assert e.to_json()["event"] == "chow"
