"""Wellness `legal_moves` against a brute-force search (honours and every chow included), and
random legal Wellness deals (moves drawn from `legal_moves`) whose ledgers keep their
invariants, replay to the same state, and whose players stay out after a Hu except as the
payees of a later false win (001 III 3.2). Reuses the Sichuan tests' driver (test_deal.py)."""

import pytest
from test_deal import brute_force, check_deal, random_deal

from rules.deal import Deal
from rules.melds import MeldKind
from rules.moves import Chow, Discard, Kong
from rules.seats import SEATS, Seat
from rules.tiles import TILES
from rules.wellness import R_FALSE_WIN

HONOURS = TILES[27:]


def brute_force_136(d: Deal, seat: Seat) -> set:
    """`brute_force` (number tiles) plus honour discards and kongs, and a chow from every
    tile."""
    extra = [Discard(seat, t) for t in HONOURS]
    extra += [Kong(seat, k, t) for k in MeldKind if k.is_kong for t in HONOURS]
    extra += [Chow(seat, t) for t in TILES]
    return brute_force(d, seat) | {m for m in extra if d.check(m) is None}


@pytest.mark.parametrize("seed", range(4))
def test_wellness_legal_moves_match_a_brute_force_search(seed):
    for i, (d, _, _) in enumerate(random_deal("wellness", seed, false_hu=0.0)):
        if i % 7:
            continue
        for seat in SEATS:
            assert brute_force_136(d, seat) == set(d.legal_moves(seat, include_false_hu=True))
    assert d.over


def test_random_legal_wellness_deals_keep_the_ledger_invariants():
    chows = hus = false = 0
    for seed in range(40):
        out_at: dict[Seat, int] = {}
        d = None
        for d, move, before in random_deal("wellness", seed, false_hu=0.002):
            chows += isinstance(move, Chow)
            for line in d.ledger().lines[before:]:
                for seat in (line.payer, line.payee):
                    if seat in out_at and not (seat is line.payee and line.rule == R_FALSE_WIN):
                        raise AssertionError(f"{seat} is out but {line}")
            for w in d.winners:
                out_at.setdefault(w.seat, len(d.ledger().lines))
        assert d is not None and d.over
        check_deal(d)
        hus += sum(not w.false_hu for w in d.winners)
        false += sum(w.false_hu for w in d.winners)
    assert chows > 0 and hus > 0 and false > 0
