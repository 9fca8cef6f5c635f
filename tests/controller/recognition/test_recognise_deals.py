"""Seeded bot deals played physically (tools/sim/player.py convention) and read back by the
recogniser: the moves it offers, applied to a fresh judge, reproduce the bot's deal move for
move and its ledger, with no alert (issue 5 item 4). 50 deals per Sichuan rule set, each
with a random dealer side (so deal seats and table sides differ)."""

from __future__ import annotations

import types
from collections import Counter

import pytest
from recog_rig import SICHUAN, play, reader, strip

from controller.profiles import parse_reader
from rules.melds import MeldKind
from rules.moves import Hu, Kong, RobKong, SelfDrawnHu

DEALS = 50
seen_kinds: Counter[str] = Counter()


def kind_of(move) -> str:
    if isinstance(move, Kong):
        return move.kind.value
    return type(move).__name__


@pytest.mark.slow
@pytest.mark.parametrize("rules", SICHUAN)
def test_deals_are_recognised_move_for_move(rules: str) -> None:
    for seed in range(DEALS):
        p = play(rules, seed)
        rt = p.runtime
        assert rt.scanned is not None and rt.dealt
        assert [tc.tile for tc in rt.scanned] == list(p.reference.wall_order)
        assert Counter(a.kind for a in rt.alerts) == p.noted, (seed, rt.alerts)
        assert rt.rejected == [], (seed, rt.rejected)
        assert strip(rt.deal.history) == strip(p.reference.history), seed
        assert rt.deal.ledger() == p.reference.ledger(), seed
        assert rt.deal.over
        seen_kinds.update(kind_of(m) for m in rt.deal.history)
        seen_kinds.update(a.kind.value for a in rt.alerts)
        multi = Counter(w.order for w in rt.deal.winners)
        if any(n > 1 for n in multi.values()):
            seen_kinds["several Hu on one discard"] += 1


def test_the_corpus_reaches_every_kind_of_move() -> None:
    """Run after the deals above (file order): every move the table can show was met."""
    if not seen_kinds:
        pytest.skip("run with the deal tests")
    for kind in (
        "ChooseVoid",
        "Draw",
        "ReplacementDraw",
        "Discard",
        "Pung",
        Hu.__name__,
        SelfDrawnHu.__name__,
        RobKong.__name__,
        MeldKind.KONG.value,
        MeldKind.CONCEALED_KONG.value,
        MeldKind.PROMOTED_KONG.value,
        MeldKind.POSTPONED_KONG.value,
        "CloseClaims",
    ):
        assert seen_kinds[kind] > 0, kind


def bare_profile(*drop: str):
    """sim-uhf without the antennas of some zone kinds (a table lacking them)."""
    base = reader()
    data = {
        "reader": {
            "name": "bare",
            "model": "uhf-serial",
            "verified-by": "test",
            "date": "2026-11-22",
        },
        "antennas": {
            str(a.number): {"zone": a.zone.kind.value}
            | ({"seat": a.zone.seat.name} if a.zone.seat is not None else {})
            for a in base.antennas.values()
            if a.zone.kind.value not in drop
        },
    }
    return parse_reader(data, "test:bare")


def test_a_table_without_melds_antennas_still_reads_deals(monkeypatch) -> None:
    """Melds are read from the tiles leaving the hand and the declarations. (Without a void
    antenna the laid tile is unknowable: the void button stands for the lowest tile of the
    suit, docs/RECOGNITION.md; the bots lay their loneliest one, so they are not replayed.)"""
    import recog_rig

    profile = bare_profile("melds")
    monkeypatch.setattr(recog_rig, "reader", lambda name="": profile)
    for seed in range(5):
        p = recog_rig.play("sbr-mil", 100 + seed)
        rt = p.runtime
        assert Counter(a.kind for a in rt.alerts) == p.noted, (seed, rt.alerts)
        assert strip(rt.deal.history) == strip(p.reference.history), seed
        assert rt.deal.ledger() == p.reference.ledger()


def test_rig_profile_is_the_simulators() -> None:
    assert isinstance(reader().antennas, types.MappingProxyType)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["sbr-mil", "wmt"])
def test_noisy_reads_through_the_real_debouncer(rules: str) -> None:
    """5% missed reads and 5% crosstalk (tools/sim/noise.py), inventory rounds through the
    real `Debouncer`, the simulator's pace (a settle is max(appear, vanish) + 1 rounds, a
    tile entering the wall antenna is read for 2 rounds): tiles settle late and out of
    order, buttons come before their discard is read, and the deal still reads back."""
    from recog_rig import NoiseConfig

    for seed in range(8):
        p = play(rules, 300 + seed, noise=NoiseConfig(missed=5, crosstalk=5))
        rt = p.runtime
        assert p.table.noise.counts["missed"] > 0
        assert [tc.tile for tc in rt.scanned] == list(p.reference.wall_order), seed
        assert Counter(a.kind for a in rt.alerts) == p.noted, (seed, rt.alerts)
        assert rt.rejected == [], (seed, rt.rejected)
        assert strip(rt.deal.history) == strip(p.reference.history), seed
        assert rt.deal.ledger() == p.reference.ledger(), seed
