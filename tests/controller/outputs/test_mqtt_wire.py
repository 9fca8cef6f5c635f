"""The hall protocol: topics, payload round trips, and what a receiver rejects."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from controller.hub.wire import (
    BrokerOptions,
    Channel,
    EventKind,
    Ledger,
    Presence,
    SettledDeal,
    TableEvent,
    TableStatus,
    WireError,
    decode,
    encode,
    parse_topic,
    topic,
)
from rules.seats import Seat

seats = st.sampled_from(list(Seat))
deals = st.builds(
    SettledDeal,
    seq=st.integers(0, 2**40),
    session=st.integers(1, 99),
    deal=st.integers(1, 999),
    rules=st.sampled_from(["sbr-mil", "wmt"]),
    dealer=seats,
    dice=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    winners=st.lists(seats, unique=True, max_size=3).map(tuple),
    deltas=st.tuples(*[st.integers(-500, 500)] * 4),
    players=st.one_of(st.just(()), st.tuples(*[st.text(max_size=12)] * 4)),
)


@given(deals)
def test_a_deal_survives_the_wire(d):
    received = decode(topic("h", "t", Channel.DEAL), encode(d))
    assert (received.hall, received.table, received.payload) == ("h", "t", d)


@given(st.lists(deals, max_size=5))
def test_a_ledger_survives_the_wire(ds):
    assert decode("mjtable/h/t/ledger", encode(Ledger(tuple(ds)))).payload == Ledger(tuple(ds))


def test_status_payload_is_versioned_and_names_its_kind():
    status = TableStatus("h", "t", Presence.ONLINE, 1, 3, "playing", 17)
    obj = json.loads(encode(status))
    assert obj["kind"] == "status" and obj["version"] == 1 and obj["presence"] == "online"
    assert decode("mjtable/h/t/status", encode(status)).payload == status
    assert decode("mjtable/h/t/status", b"").payload is None  # a cleared retained status


def test_topics():
    assert topic("hall-1", "7", Channel.EVENT) == "mjtable/hall-1/7/event"
    assert parse_topic("mjtable/a/b/view") == ("a", "b", Channel.VIEW)
    for bad in ("a/b", "a+", "#", "", " t"):
        with pytest.raises(WireError):
            topic("h", bad, Channel.DEAL)
    with pytest.raises(WireError):
        parse_topic("mjtable/a/b/scores")


@pytest.mark.parametrize(
    "payload",
    [
        b"{",
        b"[1]",
        b'{"kind":"deal","version":2}',
        b'{"kind":"status","version":1}',  # a status on the deal topic
        b'{"kind":"deal","version":1,"seq":1,"session":1,"deal":1,"rules":"x","dealer":"X",'
        b'"dice":[1,1],"winners":[],"deltas":[0,0,0,0]}',
        b'{"kind":"deal","version":1,"seq":1,"session":1,"deal":1,"rules":"x","dealer":"E",'
        b'"dice":[1,7],"winners":[],"deltas":[0,0,0,0]}',
        b'{"kind":"deal","version":1,"seq":true,"session":1,"deal":1,"rules":"x","dealer":"E",'
        b'"dice":[1,1],"winners":[],"deltas":[0,0,0]}',
    ],
)
def test_malformed_deals_are_rejected(payload):
    with pytest.raises(WireError):
        decode("mjtable/h/t/deal", payload)


def test_a_draw_never_carries_its_tile():
    with pytest.raises(WireError):
        TableEvent(1, 1, 1, EventKind.DRAW, Seat.E, tile="5p")
    event = TableEvent(2, 1, 1, EventKind.PUNG, Seat.S, tile="5s", meld="pung 5s")
    assert json.loads(encode(event))["event"] == "pung"


def test_broker_addresses():
    assert BrokerOptions.parse_address("10.0.0.2").port == 1883
    assert BrokerOptions.parse_address("broker:1884").port == 1884
    assert BrokerOptions.parse_address("[::1]:1885").host == "::1"
    assert BrokerOptions.parse_address("b", tls_ca="ca.pem").port == 8883
    with pytest.raises(ValueError):
        BrokerOptions.parse_address(":1883")
