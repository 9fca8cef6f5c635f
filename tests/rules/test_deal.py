"""The deal judge: every rejection reason (and that a rejection changes nothing), referee
moves, `legal_moves` against a brute-force search, and random legal deals whose ledgers keep
their invariants."""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st
from judge_helpers import deal_of, drain_step, ok, refused as shared_refused

from rules.deal import Deal, Phase
from rules.melds import MeldKind
from rules.moves import (
    Accepted,
    ChooseVoid,
    Chow,
    CloseClaims,
    Correction,
    DealEnd,
    Discard,
    Draw,
    EndDeal,
    Hu,
    Kong,
    Pass,
    Penalty,
    Pung,
    Reason,
    Rejected,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
)
from rules.ruleset import SequentialClaim, load
from rules.seats import SEATS, Seat
from rules.settlement import R_REFUND_FALSE_HU, R_REFUND_NOT_READY
from rules.tiles import TILES, Suit, Tile, parse_tiles
from rules.wall import Dice

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N
RULE_SETS = ("sbr-mil", "sbr-russia", "sbr-chengdu2016", "wmt")

BLOOD = {
    "E": "5p1122334455667m",  # void p, lays 5p
    "S": "46p111222333s99s",  # void m: waits on 5p
    "W": "46p444555666s88s",  # void m: waits on 5p
    "N": "1123789p778899m",  # void s
}


SEEN: set[Reason] = set()


def refused(deal: Deal, move, reason: Reason) -> None:
    shared_refused(deal, move, reason)
    SEEN.add(reason)


def blood(rules: str = "sbr-mil", live: str = "") -> Deal:
    return deal_of(rules, BLOOD, live=live)


def test_void_choice_reasons():
    d = blood()
    refused(d, Discard(E, Tile.P5), Reason.WRONG_PHASE)
    refused(d, ChooseVoid(E, Suit.P), Reason.VOID_TILE_REQUIRED)  # E holds 5p
    refused(d, ChooseVoid(E, Suit.P, Tile.M1), Reason.VOID_TILE_WRONG_SUIT)
    refused(d, ChooseVoid(E, Suit.Z), Reason.VOID_TILE_WRONG_SUIT)
    refused(d, ChooseVoid(E, Suit.S, Tile.S5), Reason.TILE_NOT_IN_HAND)
    ok(d, ChooseVoid(E, Suit.P, Tile.P5))
    refused(d, ChooseVoid(E, Suit.M, Tile.M1), Reason.VOID_ALREADY_CHOSEN)
    assert d.phase is Phase.CHOOSING_VOID
    ok(d, ChooseVoid(S, Suit.M), ChooseVoid(W, Suit.M), ChooseVoid(N, Suit.S))
    assert (d.phase, d.turn) == (Phase.DISCARD, E)


def chosen(rules: str = "sbr-mil", live: str = "") -> Deal:
    d = blood(rules, live)
    ok(d, ChooseVoid(E, Suit.P, Tile.P5), ChooseVoid(S, Suit.M))
    ok(d, ChooseVoid(W, Suit.M), ChooseVoid(N, Suit.S))
    return d


def test_turn_and_tile_reasons():
    d = chosen(live="9s")
    refused(d, Discard(S, Tile.S1), Reason.NOT_YOUR_TURN)
    refused(d, Discard(E, Tile.S1), Reason.TILE_NOT_IN_HAND)
    refused(d, Discard(E, Tile.M1), Reason.VOID_TILE_FIRST)
    refused(d, Draw(E), Reason.WRONG_PHASE)
    refused(d, Pung(S), Reason.CLAIM_NOT_ADMISSIBLE)  # no discard is open
    refused(d, Kong(E, MeldKind.CONCEALED_KONG, Tile.M1), Reason.NOT_A_KONG)
    refused(d, Kong(E, MeldKind.PROMOTED_KONG, Tile.M1), Reason.NOT_A_KONG)
    refused(d, Kong(E, MeldKind.PUNG, Tile.M1), Reason.NOT_A_KONG)
    refused(d, Penalty(E, 0, "nothing"), Reason.BAD_PENALTY)
    refused(d, Penalty(E, 5, "to itself", to=E), Reason.BAD_PENALTY)
    ok(d, Discard(E, Tile.P5))
    refused(d, Pung(E), Reason.CLAIM_NOT_ADMISSIBLE)  # one's own discard
    refused(d, Pung(S), Reason.CLAIM_NOT_ADMISSIBLE)  # S holds no 5p
    refused(d, RobKong(S), Reason.CLAIM_NOT_ADMISSIBLE)  # no kong to rob
    refused(d, Discard(S, Tile.S1), Reason.WRONG_PHASE)
    ok(d, Hu(S))
    refused(d, Pass(S), Reason.ALREADY_DECLARED)
    ok(d, Pass(W), Pass(N))
    refused(d, Draw(S), Reason.PLAYER_OUT)
    refused(d, Draw(N), Reason.NOT_YOUR_TURN)
    refused(d, Draw(W, Tile.S8), Reason.WALL_MISMATCH)
    ok(d, Draw(W, Tile.S9))
    refused(d, ReplacementDraw(W), Reason.WRONG_PHASE)
    refused(d, CloseClaims(), Reason.WRONG_PHASE)


def test_void_claims_and_strict_void_discard():
    d = chosen("wmt", live="1m")  # WMT: void-discard = "strict"
    ok(d, Discard(E, Tile.P5), Pass(S), Pass(W), Pass(N), Draw(S, Tile.M1))
    # S (void m) holds 1m: in strict mode it must go before any other tile
    refused(d, Discard(S, Tile.S1), Reason.VOID_DISCARD_ORDER)
    ok(d, Discard(S, Tile.M1))
    refused(d, Hu(W), Reason.VOID_SUIT_CLAIM)  # 1m is of W's void suit (a pung of it would
    # be accepted and penalised, `play.void-suit-set`: tests/rules/test_readings.py)
    ok(d, Pass(W), Pass(N), Pass(E))
    # sbr-mil is lenient: the same discard is allowed
    d = chosen("sbr-mil", live="1m")
    ok(d, Discard(E, Tile.P5), Pass(S), Pass(W), Pass(N), Draw(S), Discard(S, Tile.S1))


def test_deal_over_correction_and_end_deal():
    d = chosen()
    ok(d, Discard(E, Tile.P5))
    before = d.snapshot()
    ok(d, Hu(S), Pass(W), Pass(N))
    assert d.is_out(S)
    # a referee takes back the three declarations: the window is open again
    ok(d, Correction(undo=3, note="claims were made before the discard landed"))
    assert d.snapshot() == before and d.history[-1] == Correction(
        3, "claims were made before the discard landed"
    )
    refused(d, Correction(undo=99), Reason.NOTHING_TO_UNDO)
    ok(d, Penalty(N, 4, "slow play", to=E), EndDeal())
    assert d.over and d.end is DealEnd.TIME
    assert [(x.payer, x.payee, x.points) for x in d.ledger().lines] == [(N, E, 4)]
    refused(d, Pass(S), Reason.DEAL_OVER)
    refused(d, EndDeal(), Reason.DEAL_OVER)
    refused(d, CloseClaims(), Reason.DEAL_OVER)
    assert d.legal_moves(S) == ()


def test_lock_and_last_tile_reasons():
    d = chosen(live="5p")
    ok(d, Discard(E, Tile.P5), Pass(S), Pass(W), Pass(N), Draw(S), Discard(S, Tile.P5))
    refused(d, Hu(W), Reason.SKIPPED_HU_LOCK)  # W let the first 5p go
    hands = dict(BLOOD, W="55p444555666s88s")
    # the pung lock refuses under `sequential-claim = "refused"` (wmt settles it as a false
    # win instead, 000 2.2.4: tests/rules/test_readings.py)
    wmt = load("wmt")
    refusing = replace(wmt, play=replace(wmt.play, sequential_claim=SequentialClaim.REFUSED))
    d = deal_of(refusing, hands, live="5p")
    ok(d, ChooseVoid(E, Suit.P, Tile.P5), ChooseVoid(S, Suit.M))
    ok(d, ChooseVoid(W, Suit.M), ChooseVoid(N, Suit.S))
    ok(d, Discard(E, Tile.P5), Pass(S), Pass(W), Pass(N), Draw(S), Discard(S, Tile.P5))
    refused(d, Pung(W), Reason.SKIPPED_PUNG_LOCK)  # W let the first 5p go (000 2.2.4)
    d = chosen()
    while not (d.tiles_left == 0 and d.phase is Phase.DISCARD):
        drain_step(d)
    refused(d, Kong(d.turn, MeldKind.CONCEALED_KONG, Tile.M1), Reason.NO_REPLACEMENT_TILE)
    drawer = d.turn
    tile = d.drawn
    ok(d, Discard(drawer, tile))
    claimer = next(s for s in d.window.eligible if d.void(s) is not tile.suit)
    refused(d, Kong(claimer, MeldKind.KONG), Reason.AFTER_LAST_TILE)


def test_every_reason_is_exercised():
    for test in (
        test_void_choice_reasons,
        test_turn_and_tile_reasons,
        test_void_claims_and_strict_void_discard,
        test_deal_over_correction_and_end_deal,
        test_lock_and_last_tile_reasons,
        _kong_reasons,
        _unknown_wall_reasons,
        _chow_reasons,
    ):
        test()
    assert set(Reason) == SEEN, set(Reason) - SEEN


def _chow_reasons():
    # Wellness (001 IV 2.1, 4.2; worked in test_wellness_deal.py): South, next after East,
    # holds 12m; West holds 45m; East discards 3m
    hands = {
        "E": "3m999p111222333s9s",
        "S": "12m12345p66z77z19s",
        "W": "45m456789s11z22z5z",
        "N": "3m678m678p777s444z",
    }
    d = deal_of("wellness", hands)
    ok(d, Discard(E, Tile.M3))
    refused(d, Chow(W, Tile.M3), Reason.CHOW_NOT_FROM_LEFT)
    refused(d, Chow(S, Tile.M2), Reason.NOT_A_CHOW)
    ok(d, Chow(S, Tile.M1), CloseClaims())
    refused(d, Kong(S, MeldKind.CONCEALED_KONG, Tile.P1), Reason.KONG_AFTER_CHOW)
    refused(blood(), Chow(S, Tile.P4), Reason.NO_CHOW_CLAIMS)


def _kong_reasons():
    d = deal_of(
        "wmt",
        {
            "E": "9s1122334455667m",
            "S": "1m99s1222345678p",
            "W": "111333p555s78s66s",
            "N": "66778899m23466s",
        },
    )
    ok(d, ChooseVoid(E, Suit.S, Tile.S9), ChooseVoid(S, Suit.M, Tile.M1))
    ok(d, ChooseVoid(W, Suit.M), ChooseVoid(N, Suit.P))
    ok(d, Discard(E, Tile.S9))
    refused(d, Kong(S, MeldKind.KONG), Reason.CLAIM_NOT_ADMISSIBLE)  # only two 9s
    ok(d, Pung(S), Pass(W), Pass(N))
    refused(d, Kong(S, MeldKind.CONCEALED_KONG, Tile.P2), Reason.KONG_AFTER_PUNG)


def _unknown_wall_reasons():
    """A wall not scanned (tests/rules/test_unknown_wall.py has the rest)."""
    hands = {Seat[k]: parse_tiles(v) for k, v in BLOOD.items()}
    d = Deal.start_dealt(load("sbr-mil"), Dice(6, 4), hands)
    ok(d, ChooseVoid(E, Suit.P, Tile.P5), ChooseVoid(S, Suit.M), ChooseVoid(W, Suit.M))
    ok(d, ChooseVoid(N, Suit.S), Discard(E, Tile.P5), Pass(S), Pass(W), Pass(N))
    refused(d, Draw(S), Reason.TILE_UNKNOWN)
    refused(d, Draw(S, Tile.EAST), Reason.TILE_IMPOSSIBLE)  # no honours in 108 tiles


# -- legal_moves against a brute-force search ----------------------------------------------


def brute_force(d: Deal, seat: Seat) -> set:
    """Every move of `seat` (of the kinds `legal_moves` lists) that the judge accepts."""
    tiles = TILES[:27]
    candidates = [Draw(seat), ReplacementDraw(seat), SelfDrawnHu(seat), Pung(seat), Pass(seat)]
    candidates += [RobKong(seat)]
    w = d.window
    if w is None or w.kind.value != "robbing":
        candidates.append(Hu(seat))  # a Hu in a robbing window is listed as RobKong
    candidates += [Discard(seat, t) for t in tiles]
    candidates += [Kong(seat, k, t) for k in MeldKind for t in tiles if k is not MeldKind.KONG]
    candidates += [Kong(seat, MeldKind.KONG, t) for t in tiles]
    candidates += [ChooseVoid(seat, s, t) for s in Suit for t in (None, *tiles)]
    return {m for m in candidates if d.check(m) is None}


def steer(d: Deal, moves: list, rng: random.Random):
    """A nudge towards wins, so random deals reach every rule: declare Hu, lay the least-held
    suit as void, discard void tiles and isolated tiles first; otherwise uniform."""
    wins = [m for m in moves if isinstance(m, Hu | SelfDrawnHu | RobKong)]
    if wins:
        return rng.choice(wins)
    voids = [m for m in moves if isinstance(m, ChooseVoid)]
    if voids:
        seat = voids[0].seat
        held = {s: sum(t.suit is s for t in d.hand(seat)) for s in (Suit.M, Suit.P, Suit.S)}
        least = min(held, key=lambda s: held[s])
        return rng.choice([m for m in voids if m.suit is least])
    discards = [m for m in moves if isinstance(m, Discard)]
    if discards:
        seat = discards[0].seat
        counts = d.counts(seat)

        def keep(t: Tile) -> int:
            if t.suit is d.void(seat):
                return -1
            near = sum(
                counts[t + k] for k in (-2, -1, 1, 2) if 0 <= t + k < 27 and (t + k) // 9 == t // 9
            )
            return 3 * counts[t] + near

        low = min(keep(m.tile) for m in discards)
        return rng.choice([m for m in discards if keep(m.tile) == low])
    return rng.choice(moves)


def random_deal(
    rules: str, seed: int, *, false_hu: float = 0.0, close: float = 0.1, steering: float = 0.7
):
    """Play a deal with moves chosen uniformly from `legal_moves` (or, with probability
    `steering`, nudged by `steer`); yields after each move."""
    rng = random.Random(seed)
    rs = load(rules)
    order = [t for t in rs.tiles.set.kinds for _ in range(4)]
    rng.shuffle(order)
    d = Deal.start(rs, Dice(rng.randint(1, 6), rng.randint(1, 6)), order)
    while not d.over:
        moves = [
            m for s in SEATS for m in d.legal_moves(s, include_false_hu=rng.random() < false_hu)
        ]
        if d.window is not None and rng.random() < close:
            moves = [CloseClaims()]
        assert moves, (d.phase, d.turn)
        move = steer(d, moves, rng) if rng.random() < steering else rng.choice(moves)
        before = len(d.ledger().lines)
        result = d.apply(move)
        assert isinstance(result, Accepted), (move, result)
        yield d, move, before


@pytest.mark.parametrize("rules", RULE_SETS)
def test_legal_moves_match_a_brute_force_search(rules):
    for seed in range(4):
        for i, (d, _, _) in enumerate(random_deal(rules, seed, false_hu=0.0)):
            if i % 7:
                continue
            for seat in SEATS:
                assert brute_force(d, seat) == set(d.legal_moves(seat, include_false_hu=True))


# -- random legal deals ---------------------------------------------------------------------


def check_deal(d: Deal) -> None:
    ledger = d.ledger()
    assert ledger.check() == []
    assert sum(ledger.deltas()) == -ledger.to_nobody()
    assert all(line.payee is None for line in ledger.lines if "48 to nobody" in line.rule)
    assert len(d.winners) <= d.rs.play.winners_to_end
    for w in d.winners:
        assert d.is_out(w.seat)
    for seat in d.still_in:
        size = len(d.hand(seat)) + 3 * len(d.melds(seat))
        assert size == 13
    if d.end is DealEnd.WALL:
        assert d.tiles_left == 0
    replayed = Deal.replay(d.rs, d.dice, d.wall_order, d.moves)
    assert replayed.ledger() == ledger and replayed.snapshot() == d.snapshot()


def play_and_check(rules: str, seed: int) -> Deal:
    out_at: dict[Seat, int] = {}
    d = None
    for d, _, before in random_deal(rules, seed, false_hu=0.002):
        for line in d.ledger().lines[before:]:
            # after its Hu a player neither pays nor receives, except kong refunds (004)
            for seat in (line.payer, line.payee):
                if seat in out_at and not line.why.startswith("refund"):
                    raise AssertionError(f"{seat} is out but {line}")
        for w in d.winners:
            out_at.setdefault(w.seat, len(d.ledger().lines))
        probe = random.Random(seed).choice(
            [Discard(Seat(seed % 4), Tile.M1), Pung(Seat.N), Draw(Seat.S), Hu(Seat.W)]
        )
        if d.check(probe) is not None:
            snap = d.snapshot()
            assert isinstance(d.apply(probe), Rejected) and d.snapshot() == snap
    assert d is not None and d.over
    check_deal(d)
    return d


@pytest.mark.parametrize("rules", RULE_SETS)
def test_random_legal_deals_keep_the_ledger_invariants(rules):
    ends = set()
    kongs = hus = 0
    for seed in range(60):
        d = play_and_check(rules, seed)
        ends.add(d.end)
        hus += sum(not w.false_hu for w in d.winners)
        kongs += sum(m.is_kong for s in SEATS for m in d.melds(s))
    assert DealEnd.WALL in ends and hus > 0 and kongs > 0


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RULE_SETS), st.integers(0, 2**31))
def test_random_deals_hypothesis(rules, seed):
    play_and_check(rules, seed)


def test_false_hu_refund_and_not_ready_refund_rules_are_named():
    assert "004 Lesson 5" in R_REFUND_FALSE_HU and "004 Table 7" in R_REFUND_NOT_READY
