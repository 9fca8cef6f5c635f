"""Wellness (001) scoring properties over random complete hands (hypothesis): the score is the
best over the readings, a hand never scores two table patterns, value = table row + bonuses,
tile-content patterns and bonuses agree with independent counts, and the wall-end maximum
equals a brute force over all 34 tiles."""

from hypothesis import given, settings, strategies as st

from rules.hand import decompositions
from rules.melds import Meld, MeldKind
from rules.ruleset import load
from rules.scoring import hand_value, is_winning, score_hand, theoretical_maximum
from rules.seats import SEATS
from rules.tiles import NUMBER_SUITS, TILES, Tile
from rules.wellness import PLAIN_HAND, Winds, reading, score_reading

W = load("wellness")
KONG_KINDS = [k for k in MeldKind if k.is_kong]
DRAGONS = (Tile.WHITE, Tile.GREEN, Tile.RED)
GREEN = {Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN}


@st.composite
def regular_hands(draw):
    """Four sets (chow, pung, kong) + a pair; kongs and some other sets declared."""
    held = [0] * 34
    standing: list[Tile] = []
    melds: list[Meld] = []
    for _ in range(4):
        kind = draw(st.sampled_from(["chow", "pung", "kong"]))
        if kind == "chow":
            starts = [
                Tile.of(s, r)
                for s in NUMBER_SUITS
                for r in range(1, 8)
                if all(held[Tile.of(s, r + i)] < 4 for i in range(3))
            ]
            start = draw(st.sampled_from(starts))
            tiles = [TILES[start + i] for i in range(3)]
            meld = Meld(MeldKind.CHOW, start)
        else:
            need = 3 if kind == "pung" else 4
            tile = draw(st.sampled_from([t for t in TILES if held[t] + need <= 4]))
            tiles = [tile] * need
            meld_kind = MeldKind.PUNG if need == 3 else draw(st.sampled_from(KONG_KINDS))
            meld = Meld(meld_kind, tile)
        for t in tiles:
            held[t] += 1
        if kind == "kong" or draw(st.booleans()):
            melds.append(meld)
        else:
            standing += tiles
    pair = draw(st.sampled_from([t for t in TILES if held[t] <= 2]))
    standing += [pair, pair]
    return standing, melds


@st.composite
def seven_pair_hands(draw):
    """Seven pairs; a kind drawn twice is held four times (two pairs)."""
    pairs = draw(
        st.lists(st.sampled_from(TILES), min_size=7, max_size=7).filter(
            lambda ks: max(ks.count(k) for k in ks) <= 2
        )
    )
    return [t for t in sorted(pairs) for _ in range(2)], []


hands = st.one_of(regular_hands(), seven_pair_hands())
winds = st.builds(Winds, st.none() | st.sampled_from(SEATS), st.none() | st.sampled_from(SEATS))


def counts_of(tiles):
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


def all_held(standing, melds):
    return counts_of([*standing, *(t for m in melds for t in m.tiles)])


def content_fan(held, melds):
    """A lower bound of the fan from the tiles alone (patterns that do not depend on how
    the hand is read), computed without rules.wellness."""
    kinds = [TILES[i] for i in range(34) if held[i]]
    suits = {t.suit for t in kinds if not t.is_honour}
    honours = [t for t in kinds if t.is_honour]
    fan = 0
    if all(m.kind is MeldKind.CONCEALED_KONG for m in melds):
        fan = max(fan, W.fan("men-fu"))
    if all(not t.is_honour and 2 <= t.rank <= 8 for t in kinds):
        fan = max(fan, W.fan("tan-yao"))
    if (
        len(suits) == 3
        and any(t < Tile.WHITE for t in honours)
        and any(t in DRAGONS for t in honours)
    ):
        fan = max(fan, W.fan("wu-men"))
    if len(suits) == 1 and honours:
        fan = max(fan, W.fan("hun-qin"))
    if len(suits) == 1 and not honours:
        fan = max(fan, W.fan("qin-fu"))
    if all(t in GREEN for t in kinds):
        fan = max(fan, W.fan("lv-fu"))
    if sum(1 for m in melds if m.is_kong) >= 3:
        fan = max(fan, W.fan("san-gan"))
    return fan


@settings(max_examples=300, deadline=None)
@given(hands, st.data(), st.booleans(), winds)
def test_score_is_the_best_reading_and_one_pattern(hand, data, self_drawn, w):
    standing, melds = hand
    win = data.draw(st.sampled_from(standing))
    s = score_hand(
        standing,
        melds,
        win,
        W,
        self_drawn=self_drawn,
        seat_wind=w.seat,
        prevalent_wind=w.prevalent,
    )
    held = all_held(standing, melds)
    readings = decompositions(counts_of(standing), len(melds))
    per_reading = [
        score_reading(reading(d, melds, win, held, self_drawn), W, w).value for d in readings
    ]
    assert s.value == max(per_reading)
    # a hand never scores two table patterns (001 II 3)
    (hit,) = s.patterns
    assert hit.name == PLAIN_HAND or W.fan(hit.name) == hit.fan
    assert hit.fan == s.total_fan
    assert s.value == hand_value(hit.fan, W.scoring) + sum(b.points for b in s.bonuses)
    assert all(b.points == b.base * W.scoring.base_points > 0 for b in s.bonuses)
    assert s.total_fan >= content_fan(held, melds)


@settings(max_examples=300, deadline=None)
@given(regular_hands(), winds)
def test_bonuses_match_independent_counts(hand, w):
    standing, melds = hand
    s = score_hand(standing, melds, standing[0], W, seat_wind=w.seat, prevalent_wind=w.prevalent)
    names = [b.name for b in s.bonuses]
    held = all_held(standing, melds)
    kongs = sum(1 for m in melds if m.is_kong)
    if melds:  # no seven-pairs reading: honour triplets are always pungs
        assert names.count("kong") == kongs
        assert names.count("dragon-pung") == sum(1 for t in DRAGONS if held[t] >= 3)
        for name, seat in (("seat-wind-pung", w.seat), ("prevalent-wind-pung", w.prevalent)):
            expected = 1 if seat is not None and held[Tile.EAST + seat] >= 3 else 0
            assert names.count(name) == expected


@settings(max_examples=150, deadline=None)
@given(hands, st.data(), winds)
def test_theoretical_maximum_is_a_brute_force_over_all_tiles(hand, data, w):
    standing, melds = hand
    out = data.draw(st.sampled_from(standing))
    rest = list(standing)
    rest.remove(out)
    held = all_held(rest, melds)
    best = 0
    for t in TILES:
        if held[t] < 4 and is_winning([*rest, t], melds, None, W):
            s = score_hand(
                [*rest, t],
                melds,
                t,
                W,
                self_drawn=True,
                seat_wind=w.seat,
                prevalent_wind=w.prevalent,
            )
            best = max(best, s.value)
    got = theoretical_maximum(
        counts_of(rest), melds, None, W, seat_wind=w.seat, prevalent_wind=w.prevalent
    )
    assert got == best > 0
    # a long or short hand is never ready (001 III 3.3)
    for wrong in (rest[1:], [*rest, out]):
        assert theoretical_maximum(counts_of(wrong), melds, None, W) == 0
