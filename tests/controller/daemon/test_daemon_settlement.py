"""Issue 25 item 4: the settled deal is built once, typed, in the core (settlement.py); its
`deal.settled` record is written from it and the outputs are handed it, none reading the
journal back."""

from __future__ import annotations

from pathlib import Path

import pytest
from rig import Rig, begin_deal, play

from controller.daemon.app import AppOutputs
from controller.daemon.notify import Notifier
from controller.daemon.settlement import Settlement
from controller.journal.records import Record, RecordKind
from controller.outputs.scoreboard import Scoreboard
from rules.seats import Seat
from rules.wall import Dice


class Hall:
    """The MQTT client's part AppOutputs uses for a settlement."""

    def __init__(self) -> None:
        self.deals: list = []

    def publish_deal(self, deal) -> None:
        self.deals.append(deal)


class Kept:
    """Outputs that keep what the core hands them at a settlement."""

    def __init__(self) -> None:
        self.settled: list[tuple[Settlement, Record]] = []

    def publish(self, public, referee, broadcast) -> None:
        pass

    def move_accepted(self, payload, record) -> None:
        pass

    def deal_settled(self, settled: Settlement, record: Record) -> None:
        self.settled.append((settled, record))

    def tick(self) -> None:
        pass

    def table_back(self) -> None:
        pass


@pytest.fixture
def rig(tmp_path: Path):
    r = Rig(tmp_path / "j.journal", players=("Ann", "Bo", "Cy", "Di"))
    r.rt.outputs = kept = Kept()
    r.wait_ready()
    yield r, kept
    r.close()


def test_the_record_and_the_outputs_get_the_one_settlement(rig) -> None:
    rig, kept = rig
    plan = begin_deal(rig, 11, Dice(3, 5))
    play(rig, plan.moves)
    ((settled, record),) = kept.settled
    (journalled,) = rig.records(RecordKind.DEAL_SETTLED)
    assert record.seq == journalled.seq and journalled.data() == settled.payload()
    assert settled.deal == 1 and settled.session == 1 and settled.dice == (3, 5)
    assert settled.dealer is Seat.E and settled.players == ("Ann", "Bo", "Cy", "Di")
    assert list(rig.rt.totals) == list(settled.deltas)  # the session's scores took it


def test_the_hall_gets_the_settlement_without_reading_the_journal(rig) -> None:
    rig, kept = rig
    plan = begin_deal(rig, 11, Dice(3, 5))
    play(rig, plan.moves)
    ((settled, record),) = kept.settled
    rig.journal.close()  # an output that read the journal back would fail now
    hall = Hall()
    outputs = AppOutputs(Scoreboard(), None, hall, Notifier(None), "T1")
    outputs.deal_settled(settled, record)
    (sent,) = hall.deals
    assert (sent.seq, sent.head, sent.deal, sent.session) == (record.seq, record.hash, 1, 1)
    assert (sent.dealer, sent.dice, sent.players) == (Seat.E, (3, 5), settled.players)
    true_hu = tuple(s for s in settled.winners if s not in settled.false_hu)
    assert sent.winners == true_hu and sent.deltas == settled.deltas


def test_regression_the_live_hall_deal_lacked_its_penalties_and_counted_a_false_hu(rig) -> None:
    """Seed 11 has a false Hu (8 to each player still in) and void tiles held at the end (48
    to nobody). The deal sent to the hall as it settles must be the one the table sends
    again from its journal after a restart: the live one had no penalties, nothing paid to
    nobody, and the false Hu among its winners."""
    from controller.outputs.hall_results import HallResults

    rig, kept = rig
    plan = begin_deal(rig, 11, Dice(3, 5))
    play(rig, plan.moves)
    ((settled, record),) = kept.settled
    assert settled.false_hu, "seed 11's deal has a false Hu"
    hall = Hall()
    AppOutputs(Scoreboard(), None, hall, Notifier(None), "T1").deal_settled(settled, record)
    again = Hall()
    assert HallResults(rig.journal, again.publish_deal).start() == 1
    (live,), (from_journal,) = hall.deals, again.deals
    assert from_journal.to_nobody > 0 and any(from_journal.penalties)
    assert live == from_journal
