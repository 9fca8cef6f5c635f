"""Issue 32 item 2: the hub tells a table's results from a forgery even on a broker that lets
anyone publish (`allow_anonymous true`, as these tests' broker): deals are signed with the
table's Ed25519 key, the hub holds its public key. A real Mosquitto on loopback, the real
publisher, a raw paho client as the forger, the real hub subscriber and keys file."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import paho.mqtt.client as paho
import pytest

from controller.cli import main
from controller.hub.signing import Check, TableKey, TableKeyError, public_text
from controller.hub.standings import Standings
from controller.hub.subscriber import HubSubscriber
from controller.hub.trust import Gate, read_keys, trust_key
from controller.hub.wire import Channel, Ledger, SettledDeal, encode, topic
from controller.journal.store import Journal
from controller.outputs.hall_results import POLL_S, HallResults
from controller.outputs.mqtt import MqttPublisher
from rules.seats import Seat
from tests.controller.hub.test_hub_broker import T, fast
from tests.tools.test_referee import capped_journal

PLAYERS = ("Ann", "Bo", "Cy", "Di")


def deal1(seq: int = 100, deltas=(6, -2, -2, -2)) -> SettledDeal:
    return SettledDeal(
        seq=seq,
        session=1,
        deal=1,
        rules="sbr-mil",
        dealer=Seat.E,
        dice=(3, 4),
        winners=(Seat.E,),
        deltas=deltas,
        players=PLAYERS,
        head="ab" * 32,
    )


def totals(sub: HubSubscriber, table: str = "T1") -> tuple[int, ...] | None:
    snap = sub.standings.snapshot()
    sessions = [s for t in snap.tables if t.table == table for s in t.sessions]
    return sessions[0].totals if sessions else None


class Forger:
    """Another client on the hall network: its own client id, no credentials."""

    def __init__(self, broker) -> None:
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="laptop")
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()

    def publish(self, payload: bytes, channel: Channel = Channel.DEAL) -> None:
        info = self.client.publish(topic("h", "T1", channel), payload, qos=1)
        info.wait_for_publish(T)
        assert info.is_published()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def signed_hall(broker, tmp_path: Path):
    """Table T1 with a key the hub holds; the hub subscribed; a forger connected."""
    key = TableKey.make()
    keys = tmp_path / "hall.keys"
    trust_key(keys, "h", "T1", public_text(key.public))
    gate = Gate(keys)
    hub = HubSubscriber(fast(broker), Standings(lambda name: None), hall="h", gate=gate)
    pub = MqttPublisher(fast(broker), "h", "T1", key=key)
    hub.start()
    pub.start()
    forger = Forger(broker)
    assert hub.wait_until(lambda: hub.connected, T) and pub.wait_connected(T)
    yield hub, pub, forger, gate, keys
    forger.close()
    pub.stop(drain_timeout_s=2)
    hub.stop()


def test_regression_a_forged_deal_from_another_client_no_longer_rewrites_the_standings(
    signed_hall,
) -> None:
    """Issue 32: seq 101 with deltas [-30,10,10,10] from another client was taken as the
    referee's correction of T1's deal 1."""
    hub, pub, forger, gate, _ = signed_hall
    pub.publish_deal(deal1())
    assert hub.wait_until(lambda: totals(hub) == (6, -2, -2, -2), T)
    forged = deal1(seq=101, deltas=(-30, 10, 10, 10))
    forger.publish(encode(forged))  # unsigned
    assert hub.wait_until(lambda: hub.stats.refused == 1, T)
    # signed by the forger's own key, and a copy of the table's signature on changed fields
    forger.publish(encode(TableKey.make().sign("h", "T1", dataclasses.replace(forged, seq=102))))
    genuine = pub.key.sign("h", "T1", deal1())  # type: ignore[union-attr]
    copied = dataclasses.replace(forged, seq=103, key=genuine.key, sig=genuine.sig)
    forger.publish(encode(copied))
    forger.publish(encode(Ledger((copied,))), Channel.LEDGER)  # the same forgery again
    assert hub.wait_until(lambda: hub.stats.refused == 4, T)
    assert totals(hub) == (6, -2, -2, -2)
    assert hub.stats.applied == 1
    trust = gate.trust("h", "T1")
    assert trust.keyed and trust.refused == 3  # distinct deals; the ledger repeated one
    assert trust.last is not None and (trust.last.why, trust.last.seq) == (Check.BAD, 103)
    assert {p.name: p.score for p in hub.standings.snapshot().players}["Ann"] == 6


def test_a_deal_replayed_from_an_old_capture_is_never_applied_again(signed_hall) -> None:
    hub, pub, forger, gate, _ = signed_hall
    captured = encode(pub.key.sign("h", "T1", deal1()))  # type: ignore[union-attr]
    pub.publish_deal(deal1())
    pub.publish_deal(deal1(seq=105, deltas=(4, 0, -2, -2)))  # the referee's correction
    assert hub.wait_until(lambda: totals(hub) == (4, 0, -2, -2), T)
    forger.publish(captured)  # a good signature, a lower seq: stale
    forger.publish(captured)
    assert hub.wait_until(lambda: hub.stats.duplicates >= 2, T)
    assert totals(hub) == (4, 0, -2, -2)
    assert hub.stats.refused == 0 and gate.trust("h", "T1").refused == 0


def test_a_table_whose_key_was_replaced_is_named_and_keeps_its_deals(signed_hall) -> None:
    hub, pub, _, gate, keys = signed_hall
    pub.publish_deal(deal1())
    assert hub.wait_until(lambda: totals(hub) == (6, -2, -2, -2), T)
    new = TableKey.make()  # the table's SD card was replaced: a new key, the same journal
    pub.key = new
    second = dataclasses.replace(deal1(seq=120, deltas=(-1, 3, -1, -1)), deal=2)
    pub.publish_deal(second)
    assert hub.wait_until(lambda: hub.stats.refused >= 1, T)
    trust = gate.trust("h", "T1")
    assert trust.other_key == new.fingerprint and trust.other_key_since is not None
    assert totals(hub) == (6, -2, -2, -2)  # deal 1, accepted before, stays
    # unasked, the keys file keeps the old key; asked, the hub takes the new one at once and
    # the deal it refused meanwhile
    with pytest.raises(TableKeyError, match="another key"):
        trust_key(keys, "h", "T1", public_text(new.public))
    trust_key(keys, "h", "T1", public_text(new.public), replace=True)
    pub.publish_status(session=1, deal=3, phase="playing")  # any message: the file is re-read
    assert hub.wait_until(lambda: totals(hub) == (5, 1, -3, -3), T), totals(hub)
    assert gate.trust("h", "T1").other_key == ""


def test_a_table_without_a_key_is_unsigned_and_its_deals_are_taken(broker, tmp_path) -> None:
    keys = tmp_path / "hall.keys"
    trust_key(keys, "h", "T1", public_text(TableKey.make().public))
    gate = Gate(keys)
    hub = HubSubscriber(fast(broker), Standings(lambda name: None), hall="h", gate=gate)
    pub = MqttPublisher(fast(broker), "h", "T2")
    hub.start()
    pub.start()
    try:
        assert hub.wait_until(lambda: hub.connected, T) and pub.wait_connected(T)
        pub.publish_deal(deal1())
        assert hub.wait_until(lambda: totals(hub, "T2") == (6, -2, -2, -2), T)
        assert not gate.trust("h", "T2").keyed and gate.trust("h", "T1").keyed
    finally:
        pub.stop(drain_timeout_s=2)
        hub.stop()


def test_a_correction_made_at_the_table_is_signed_there_and_taken(broker, tmp_path) -> None:
    """Item 3: `mjtable correct` on the table's journal; the daemon's HallResults publishes
    the re-judged deal with the correction record's chain head, signed."""
    path = capped_journal(tmp_path / "t.journal")
    key = TableKey.make()
    keys = tmp_path / "hall.keys"
    trust_key(keys, "h1", "t1", public_text(key.public))
    heads: list[SettledDeal] = []
    hub = HubSubscriber(
        fast(broker),
        Standings(lambda name: None),
        hall="h1",
        on_deal=lambda hall, table, deal: heads.append(deal),
        gate=Gate(keys),
    )
    pub = MqttPublisher(fast(broker), "h1", "t1", key=key)
    hub.start()
    pub.start()
    try:
        assert hub.wait_until(lambda: hub.connected, T) and pub.wait_connected(T)
        with Journal.open(path) as journal:
            hall = HallResults(journal, pub.publish_deal)
            assert hall.start() == 1
            assert hub.wait_until(lambda: totals(hub, "t1") == (-9, 27, -9, -9), T)
            penalty = ["penalty", "--deal", "1", "--seat", "N", "--points", "8", "--to", "W"]
            why = ["--referee", "Li Wei", "--why", "seen on the video"]
            assert main(["correct", str(path), *penalty, *why]) == 0
            hall.poll(100.0)
            hall.poll(100.0 + POLL_S)
            assert hub.wait_until(lambda: totals(hub, "t1") == (-9, 27, -1, -17), T)
            correction = next(r for r in journal.records() if r.kind.value == "correction")
        assert hub.stats.refused == 0
        assert (heads[-1].seq, heads[-1].head) == (correction.seq, correction.hash)
        assert heads[0].head and heads[0].key == key.fingerprint
    finally:
        pub.stop(drain_timeout_s=2)
        hub.stop()


def test_a_bad_keys_file_names_its_line(tmp_path) -> None:
    keys = tmp_path / "hall.keys"
    keys.write_text("# hall table key\nh T1 ed25519:AAAA\n")
    with pytest.raises(TableKeyError, match=r"hall.keys:2: not an Ed25519 public key"):
        read_keys(keys)
    keys.write_text("h T1\n")
    with pytest.raises(TableKeyError, match=r"hall.keys:1: a line is `HALL TABLE"):
        Gate(keys)


def test_clock_skew_changes_nothing(tmp_path) -> None:
    """No time is signed or compared: a hub whose clock is a year off takes the table's deal
    and refuses the forgery exactly as one on time (its clock only stamps the refusal)."""
    key = TableKey.make()
    keys = tmp_path / "hall.keys"
    trust_key(keys, "h", "T1", public_text(key.public))
    signed = key.sign("h", "T1", deal1())
    forged = dataclasses.replace(signed, deltas=(-30, 10, 10, 10), seq=101)
    for wall in ("2026-11-28T14:02:00+00:00", "2027-11-28T14:02:00+00:00", "2001-01-01T00:00:00"):
        gate = Gate(keys, clock=lambda wall=wall: wall)
        assert gate.admit("h", "T1", signed) and not gate.admit("h", "T1", forged)
        last = gate.trust("h", "T1").last
        assert last is not None and (last.wall, last.why) == (wall, Check.BAD)
