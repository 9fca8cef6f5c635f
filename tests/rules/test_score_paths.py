"""The scorer's shortcuts keep the answers of the plain path (issue 17 item 5): `score_hand`
(situations and hand values kept per rule set, the hits made for the best reading only, the
standing tiles counted once) against a scorer written the plain way, every detector on every
reading; the rewritten detectors against their plain forms; `decompositions`' one-reading
case against the product of the suits' readings; a suit's readings (the pair positions
pruned by the tables) against the plain search; the wall-end payments against the plain
loop. Hands: random complete hands of every Sichuan-family rule set, with melds, roots,
several readings and situations."""

import itertools
import random

import pytest

from rules import patterns, settlement as pay
from rules.hand import Decomposition, Group, GroupKind, Shape, _suit_readings, decompositions
from rules.melds import Meld, MeldKind
from rules.patterns import DETECTORS, SUIT_NAMES, Found, Reading
from rules.ruleset import Multipliers, Payer, WallEndValue, load
from rules.score import PatternHit, Score, hand_value
from rules.scoring import (
    EVENTS,
    BadSituation,
    NotAWin,
    _apply_includes,
    _check,
    _check_situations,
    _situation_hits,
    score_hand,
)
from rules.seats import SEATS
from rules.suit_tables import tables
from rules.tiles import N_KINDS, TILES, Suit

RULE_SETS = ("sbr-mil", "sbr-chengdu2016", "sbr-russia", "wmt")
_MELD_KINDS = (
    MeldKind.PUNG,
    MeldKind.KONG,
    MeldKind.CONCEALED_KONG,
    MeldKind.PROMOTED_KONG,
    MeldKind.POSTPONED_KONG,
)


def plain_score(standing, melds, win, rs, self_drawn, events):
    """`score_hand` as first written: every detector on every reading, a Score each."""
    melds = tuple(melds)
    counts = _check(standing, melds, None, rs)
    if win not in standing:
        raise NotAWin(None, "win")
    _check_situations(events, self_drawn, melds, win, counts)
    standing_counts = [0] * N_KINDS
    for t in standing:
        standing_counts[t] += 1
    readings = decompositions(standing_counts, len(melds))
    if not readings:
        raise NotAWin(None, "shape")
    sits = _situation_hits(events, self_drawn, rs)
    multiplier, payer = 1, Payer.USUAL
    largest = rs.scoring.situation_multipliers is Multipliers.LARGEST
    for _, sit, _ in sits:
        multiplier = max(multiplier, sit.multiplier) if largest else multiplier * sit.multiplier
        if sit.payer is not Payer.USUAL:
            payer = sit.payer
    fan_of = {**rs.scoring.fans, **{name: sit.fan for name, sit, _ in sits}}
    best = None
    for d in readings:
        reading = Reading(d, melds, win, tuple(counts), rs.scoring.kong_is_root)
        found = [
            (name, f.detail) for name in rs.scoring.fans for f in DETECTORS[name].detect(reading)
        ]
        found.extend((n, detail) for n, _, detail in sits)
        found = _apply_includes(found, rs)
        hits = tuple(PatternHit(n, fan_of[n], f"{n}: {detail}") for n, detail in found)
        total = sum(h.fan for h in hits)
        score = Score(hits, total, hand_value(total, rs.scoring), multiplier, payer, ())
        if best is None or (score.value, score.total_fan) > (best.value, best.total_fan):
            best = score
    return best


def _random_hand(rng: random.Random):
    """(standing tiles, melds, winning tile): four sets and a pair of the number suits, some
    declared, often one suit, often a fourth copy or runs of three pungs (several
    readings); now and then seven pairs."""
    suits = rng.choice(((0,), (0, 9), (9, 18), (0, 18), (0, 9, 18)))
    while True:
        counts = [0] * N_KINDS
        melds = []
        if rng.random() < 0.12:  # seven pairs, four of a kind now and then
            for _ in range(7):
                counts[rng.choice(suits) + rng.randrange(9)] += 2
        else:
            n_melds = rng.choice((0, 0, 1, 1, 2, 3, 4))
            for k in range(4):
                base = rng.choice(suits)
                rank = rng.randrange(9)
                if k < n_melds:
                    kind = rng.choice(_MELD_KINDS)
                    melds.append(Meld(kind, TILES[base + rank]))
                elif rank < 7 and rng.random() < 0.5:
                    for j in range(3):
                        counts[base + rank + j] += 1
                else:
                    counts[base + rank] += 3
            counts[rng.choice(suits) + rng.randrange(9)] += 2
        held = counts.copy()
        for m in melds:
            for t in m.tiles:
                held[t] += 1
        if max(held) <= 4:
            break
    standing = [TILES[i] for i in range(N_KINDS) for _ in range(counts[i])]
    return standing, melds, rng.choice(standing)


def _outcome(score, *args):
    try:
        return score(*args)
    except NotAWin:
        return "not a win"
    except BadSituation as e:
        return e.situation


@pytest.mark.parametrize("name", RULE_SETS)
def test_score_hand_scores_as_the_plain_path(name):
    rs = load(name)
    rng = random.Random(17)
    several = roots = 0
    for _ in range(1500):
        standing, melds, win = _random_hand(rng)
        self_drawn = rng.random() < 0.4
        events = frozenset(e for e in EVENTS if rng.random() < 0.06)
        got = _outcome(
            lambda *a: score_hand(*a[:4], self_drawn=a[4], situations=a[5]),
            standing,
            melds,
            win,
            rs,
            self_drawn,
            events,
        )
        assert got == _outcome(plain_score, standing, melds, win, rs, self_drawn, events)
        counts = [0] * N_KINDS
        for t in standing:
            counts[t] += 1
        several += len(decompositions(counts, len(melds))) > 1
        roots += isinstance(got, Score) and any(p.name == "root" for p in got.patterns)
    # the hands reach the paths that matter: several readings, roots
    assert several > 20 and roots > 50


def _plain_kongs(r):
    return tuple(Found(str(m)) for m in r.melds if m.is_kong)


def _plain_roots(r):
    found = []
    if 4 in r.counts:
        kong_tiles = {m.tile for m in r.melds if m.is_kong}
        found = [
            Found(f"four {TILES[i]} {patterns._where(r, TILES[i])}")
            for i in range(N_KINDS)
            if r.counts[i] == 4 and TILES[i] not in kong_tiles
        ]
    if r.kong_is_root:
        found.extend(Found(f"{m} (a declared kong is a root)") for m in r.melds if m.is_kong)
    return tuple(found)


def _plain_all_pungs(r):
    d = r.decomposition
    if d.shape is not Shape.REGULAR:
        return ()
    if any(g.kind is not patterns.GroupKind.PUNG for g in d.groups):
        return ()
    if any(m.kind is MeldKind.CHOW for m in r.melds):
        return ()
    return (Found(f"four pungs/kongs and a pair of {d.pair}"),)


def _plain_one_suit(r):
    suits = [s for s in Suit if any(r.counts[s.offset : s.offset + s.size])]
    if len(suits) != 1:
        return ()
    return (Found(f"every tile is {SUIT_NAMES[suits[0]]} ({suits[0]})"),)


@pytest.mark.parametrize(
    ("detector", "plain"),
    [
        (patterns.kongs, _plain_kongs),
        (patterns.roots, _plain_roots),
        (patterns.all_pungs, _plain_all_pungs),
        (patterns.one_suit, _plain_one_suit),
    ],
)
def test_the_rewritten_detectors_find_what_their_plain_forms_find(detector, plain):
    rng = random.Random(5)
    for _ in range(1500):
        standing, melds, win = _random_hand(rng)
        counts = [0] * N_KINDS
        for t in standing:
            counts[t] += 1
        held = counts.copy()
        for m in melds:
            for t in m.tiles:
                held[t] += 1
        for d in decompositions(counts, len(melds)):
            for kong_is_root in (False, True):
                r = Reading(d, tuple(melds), win, tuple(held), kong_is_root)
                assert detector(r) == plain(r)
        # a winning tile not in the hand (a caller's mistake): one suit still reads the hand
        r = Reading(Decomposition(Shape.REGULAR), tuple(melds), TILES[33], tuple(held))
        assert patterns.one_suit(r) == _plain_one_suit(r)


def test_decompositions_are_the_product_of_the_suits_readings():
    rng = random.Random(11)
    for _ in range(1500):
        standing, melds, _ = _random_hand(rng)
        counts = [0] * N_KINDS
        for t in standing:
            counts[t] += 1
        b = bytes(counts)
        per_suit = [
            _suit_readings(b[lo:hi], lo) for lo, hi in ((0, 9), (9, 18), (18, 27), (27, 34))
        ]
        want = [
            Decomposition(
                Shape.REGULAR,
                groups=tuple(g for _, gs in combo for g in gs),
                pair=next(p for p, _ in combo if p is not None),
            )
            for combo in itertools.product(*per_suit)
            # a suit's tile count tells whether it holds the pair: exactly one suit does
            # in a regular hand (two pairs of seven pairs: no regular reading)
            if sum(p is not None for p, _ in combo) == 1
        ]
        got = decompositions(counts, len(melds))
        assert [d for d in got if d.shape is Shape.REGULAR] == want


def _plain_suit_readings(key, offset):
    """`_suit_readings` as first written: every pair position searched."""
    counts = list(key)
    chows = len(key) == 9
    out = []
    if sum(counts) % 3 == 0:
        out.extend((None, g) for g in _plain_sets(counts, 0, offset, chows))
    else:
        for i in range(len(counts)):
            if counts[i] >= 2:
                counts[i] -= 2
                out.extend((TILES[offset + i], g) for g in _plain_sets(counts, 0, offset, chows))
                counts[i] += 2
    return tuple(out)


def _plain_sets(counts, i, offset, chows):
    while i < len(counts) and counts[i] == 0:
        i += 1
    if i == len(counts):
        return [()]
    found = []
    if counts[i] >= 3:
        counts[i] -= 3
        head = Group(GroupKind.PUNG, TILES[offset + i])
        found.extend((head, *rest) for rest in _plain_sets(counts, i, offset, chows))
        counts[i] += 3
    if chows and i + 2 < len(counts) and counts[i + 1] and counts[i + 2]:
        for j in (i, i + 1, i + 2):
            counts[j] -= 1
        head = Group(GroupKind.CHOW, TILES[offset + i])
        found.extend((head, *rest) for rest in _plain_sets(counts, i, offset, chows))
        for j in (i, i + 1, i + 2):
            counts[j] += 1
    return found


def test_suit_readings_read_every_table_key_as_the_plain_search():
    # every suit vector the tables hold (complete or one tile short), in order, duplicates
    # included; a sample of the number suits keeps the test short
    keys = sorted(tables().info)
    rng = random.Random(3)
    sample = [k for k in keys if len(k) == 7] + rng.sample([k for k in keys if len(k) == 9], 12000)
    complete = 0
    for key in sample:
        offset = 27 if len(key) == 7 else rng.choice((0, 9, 18))
        want = _plain_suit_readings(key, offset)
        assert _suit_readings(key, offset) == want, key
        complete += bool(want)
    assert complete > 2000


def _plain_wall_end(rs, hands):
    """`settlement.wall_end` as first written: every loser against every hand."""
    lines = []
    for loser in hands:
        if rs.payments.flower_pig > 0 and loser.flower_pig:
            for other in hands:
                if other.seat != loser.seat and not other.flower_pig:
                    lines += pay._line(
                        loser.seat,
                        other.seat,
                        rs.payments.flower_pig,
                        "flower pig",
                        pay.R_FLOWER_PIG,
                    )
            if not rs.payments.flower_pig_pays_wall_end:
                continue
        if loser.ready:
            continue
        for winner in hands:
            if not winner.ready:
                continue
            if rs.payments.wall_end is WallEndValue.FLAT:
                lines += pay._line(
                    loser.seat,
                    winner.seat,
                    rs.payments.wall_end_flat,
                    "not ready at wall end",
                    pay.R_WALL_END_FLAT,
                )
            else:
                why = f"not ready at wall end ({winner.seat} ready, maximum {winner.maximum})"
                lines += pay._line(loser.seat, winner.seat, winner.maximum, why, pay.R_WALL_END)
    return lines


@pytest.mark.parametrize("name", RULE_SETS)
def test_wall_end_pays_as_the_plain_loop(name):
    # every rule set's wall-end payment (maximum or flat, flower pigs under wmt) on random
    # players still in: some ready, some not, some holding three suits
    rs = load(name)
    rng = random.Random(23)
    for _ in range(2000):
        seats = sorted(rng.sample(list(SEATS), rng.randint(1, 4)))
        hands = [
            pay.EndHand(
                s,
                (0,) * N_KINDS,
                (),
                None,
                rng.choice((0, 0, 1, 2, 4, 8, 16, 32)),
                rng.random() < 0.2,
            )
            for s in seats
        ]
        assert pay.wall_end(rs, hands) == _plain_wall_end(rs, hands)
