"""Hand shapes and waits (RULES.md, Hand shapes; 004 Lesson 3), checked three ways:
hand-worked cases, hypothesis properties, and a slow recursive reference kept here."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings, strategies as st

from rules import suit_tables
from rules.hand import (
    NOT_COMPLETE_FACTS,
    Decomposition,
    Group,
    GroupKind,
    Shape,
    ShapeFacts,
    completions,
    decompositions,
    is_complete,
    is_seven_pairs,
    shape_facts,
    waits,
)
from rules.melds import Meld, MeldKind
from rules.tiles import TILES, Suit, Tile, TileSet, parse_tiles, to_counts


def c(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def ms(*texts: str) -> tuple[Meld, ...]:
    return tuple(Meld.parse(t) for t in texts)


def ts(text: str) -> tuple[Tile, ...]:
    return parse_tiles(text)


# --- the reference: plain recursion over the counts, no tables -----------------------------


def _ref_sets(counts: list[int], chows: bool) -> list[tuple[tuple[str, int], ...]]:
    """Every multiset of sets (sorted tuples of (kind, tile)) that uses up `counts`."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return [()]
    out = []
    if counts[i] >= 3:
        counts[i] -= 3
        out += [(("pung", i), *r) for r in _ref_sets(counts, chows)]
        counts[i] += 3
    if chows and i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for j in (i, i + 1, i + 2):
            counts[j] -= 1
        out += [(("chow", i), *r) for r in _ref_sets(counts, chows)]
        for j in (i, i + 1, i + 2):
            counts[j] += 1
    return out


def ref_readings(counts: Sequence[int], n_melds: int) -> set[tuple]:
    """Every regular reading as (pair, sorted sets), and ("seven", pairs) for seven pairs."""
    found: set[tuple] = set()
    if sum(counts) != 14 - 3 * n_melds or max(counts) > 4:
        return found
    work = list(counts)
    for i in range(34):
        if work[i] >= 2:
            work[i] -= 2
            for sets in _ref_sets(work, True):
                found.add((i, tuple(sorted(sets))))
            work[i] += 2
    if n_melds == 0 and all(n % 2 == 0 for n in counts):
        found.add(("seven", tuple(i for i, n in enumerate(counts) for _ in range(n // 2))))
    return found


def ref_complete(counts: Sequence[int], n_melds: int) -> bool:
    return bool(ref_readings(counts, n_melds))


def ref_waits(
    counts: Sequence[int],
    melds: Sequence[Meld] = (),
    void: Suit | None = None,
    tileset: TileSet = TileSet.SUITED_108,
) -> tuple[Tile, ...]:
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    if void is not None and any(counts[t] for t in void.tiles):
        return ()
    found = []
    for t in tileset.kinds:
        if held[t] >= 4 or (void is not None and t.suit is void):
            continue
        work = list(counts)
        work[t] += 1
        if ref_complete(work, len(melds)):
            found.append(t)
    return tuple(found)


def ref_facts(counts: Sequence[int], melds: Sequence[Meld]) -> ShapeFacts:
    readings = ref_readings(counts, len(melds))
    regular = [r for r in readings if r[0] != "seven"]
    no_chow_melds = all(m.kind is not MeldKind.CHOW for m in melds)
    pungs = no_chow_melds and any(all(k == "pung" for k, _ in sets) for _, sets in regular)
    return ShapeFacts(bool(regular), pungs, len(readings) > len(regular))


def as_readings(decs: list[Decomposition]) -> set[tuple]:
    out = set()
    for d in decs:
        if d.shape is Shape.SEVEN_PAIRS:
            out.add(("seven", tuple(int(t) for t in d.pairs)))
        else:
            sets = tuple(sorted((g.kind.value, int(g.tile)) for g in d.groups))
            out.add((int(d.pair), sets))
    return out


# --- hand-worked cases ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        ("111m234m555p678s99s", (), True),  # 004 Lesson 3 Figure 1: pung chow pung chow pair
        ("123m456p789p11s", ("pung 5s",), True),  # RULES.md CLI example, one melded pung
        ("123m456p789p12s", ("pung 5s",), False),
        ("11223344556677m", (), True),  # seven pairs
        ("11112233445566m", (), True),  # seven pairs with four 1m = two pairs (a root)
        ("1111m2222p3333s55s", (), True),  # four of a kind three times (004 exercise)
        ("11112222333344m", (), True),  # regular (123 123 123 123 44) and seven pairs
        ("1111m2222p3333s5s6s", (), False),  # two singles: not seven pairs
        ("55p", ("kong 1m", "concealed-kong 2m", "promoted-kong 3s", "postponed-kong 4s"), True),
        ("5p6p", ("kong 1m", "concealed-kong 2m", "kong 3s", "pung 4s"), False),
        ("111m22m", ("pung 5p", "pung 9s", "kong 7s"), True),
        ("11223344556677m", ("pung 9s",), False),  # seven pairs needs all 14 tiles standing
        ("1112345678999m5m", (), True),  # nine gates completed by 5m
        ("123m456p789s111s22s", (), True),  # three suits: a shape (the suit rule: the judge)
    ],
)
def test_complete_hands(hand: str, melds: tuple[str, ...], expected: bool) -> None:
    counts = c(hand)
    assert is_complete(counts, len(melds)) is expected
    assert ref_complete(counts, len(melds)) is expected


def test_wrong_tile_counts_are_never_complete() -> None:
    assert not is_complete(c("111m234m555p678s9s"))  # 13 tiles
    assert not is_complete(c("111m234m555p678s999s"))  # 15 tiles
    assert not is_complete(c("111m234m555p678s99s"), 1)  # 14 standing + a meld
    assert not is_complete(c("22m"), 3)  # 2 + 9


def test_seven_pairs_flag() -> None:
    assert is_seven_pairs(c("11112233445566m"))
    assert not is_seven_pairs(c("1112233445566m7m"))


@pytest.mark.parametrize(
    ("hand", "melds", "void", "expected"),
    [
        ("1112345678999m", (), None, "123456789m"),  # nine gates: every tile of the suit
        ("1112345678999m", (), Suit.P, "123456789m"),
        ("1112345678999m", (), Suit.M, ""),  # void tiles held: nothing
        ("1122334455667m", (), None, "147m"),  # 7m completes both shapes, listed once
        ("1112233445566m", (), None, "1234567m"),  # 1m: seven pairs with four 1m
        ("5p", ("kong 1m", "concealed-kong 2m", "kong 3s", "pung 4s"), None, "5p"),  # golden
        ("4s", ("kong 1m", "concealed-kong 2m", "kong 3s", "pung 4s"), None, ""),  # 4 held
        ("123456789m5s", ("pung 5s",), None, ""),  # the 4th 5s is already held
        ("123456789m6s", ("pung 5s",), None, "6s"),
        ("1111m2m456p789p55s", (), None, "3m"),  # never a 5th 1m
        ("123m456p789p555s6s", (), None, "467s"),
        ("123m456p11s56s", ("pung 9s",), None, "47s"),
        ("23m55s", ("pung 1p", "pung 2p", "pung 3p"), None, "14m"),
        ("123m456m789m1p2p", ("pung 5s",), Suit.S, ""),  # 5s meld is void: nothing standing
        ("12m45m", (), None, ""),  # 4 tiles and no melds: not a 13-tile hand
    ],
)
def test_waits(hand: str, melds: tuple[str, ...], void: Suit | None, expected: str) -> None:
    counts = c(hand)
    meld_objs = ms(*melds)
    if not (void is Suit.S and melds):  # the void-meld row checks only standing tiles
        assert waits(counts, meld_objs, void) == ts(expected)
        assert ref_waits(counts, meld_objs, void) == ts(expected)


def test_honours_form_no_chows() -> None:
    full = TileSet.FULL_136
    assert not is_complete(c("123z456z777z11m222m"))
    assert is_complete(c("111z222z333z44z55z5z"))
    assert is_complete(c("11223344556677z"))  # seven pairs of honours
    assert waits(c("111z222z333z44z55z"), tileset=full) == ts("45z")
    assert waits(c("111z222z333z44z55z")) == ()  # no honours in a 108-tile set
    assert waits(c("123456789m111z5z"), tileset=full) == ts("5z")
    assert waits(c("12z345678m111p22s"), tileset=full) == ()


def test_decompositions_list_every_reading() -> None:
    decs = decompositions(c("111222333m456p99s"))
    pungs = tuple(Group(GroupKind.PUNG, Tile.parse(t)) for t in ("1m", "2m", "3m"))
    chows = (Group(GroupKind.CHOW, Tile.M1),) * 3
    p456 = Group(GroupKind.CHOW, Tile.P4)
    assert decs == [
        Decomposition(Shape.REGULAR, groups=(*pungs, p456), pair=Tile.S9),
        Decomposition(Shape.REGULAR, groups=(*chows, p456), pair=Tile.S9),
    ]


def test_decompositions_of_seven_pairs_with_four_of_a_kind() -> None:
    (dec,) = decompositions(c("1111m2222p3333s55s"))
    assert dec.shape is Shape.SEVEN_PAIRS
    assert dec.pairs == ts("11m22p335s")


def test_decompositions_with_melds_count_only_standing_sets() -> None:
    decs = decompositions(c("123m55p"), 3)
    assert decs == [
        Decomposition(Shape.REGULAR, groups=(Group(GroupKind.CHOW, Tile.M1),), pair=Tile.P5)
    ]
    assert decompositions(c("123m55p")) == []


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        ("111m222p333s44s555s", (), ShapeFacts(True, True, False)),
        ("111222333m456p99s", (), ShapeFacts(True, False, False)),
        ("111222333m444p99s", (), ShapeFacts(True, True, False)),  # pungs or chows: all-pungs
        ("11223344556677m", (), ShapeFacts(True, False, True)),
        ("1111m2222p3333s55s", (), ShapeFacts(False, False, True)),
        (
            "55p",
            ("kong 1m", "concealed-kong 2m", "kong 3s", "pung 4s"),
            ShapeFacts(True, True, False),
        ),
        ("111z22z", ("chow 123m", "pung 5p", "pung 6p"), ShapeFacts(True, False, False)),
        ("1357m2468p1357s99s", (), NOT_COMPLETE_FACTS),
        ("123m456p789s1s", (), NOT_COMPLETE_FACTS),
    ],
)
def test_shape_facts(hand: str, melds: tuple[str, ...], expected: ShapeFacts) -> None:
    assert shape_facts(c(hand), ms(*melds)) == expected
    assert ref_facts(c(hand), ms(*melds)) == expected


def test_completions_give_the_shape_of_each_completed_hand() -> None:
    got = {x.tile: x.facts for x in completions(c("1122334455667m"))}
    assert got == {
        Tile.M1: ShapeFacts(True, False, False),
        Tile.M4: ShapeFacts(True, False, False),
        Tile.M7: ShapeFacts(True, False, True),
    }
    shanpon = {x.tile: x.facts.all_pungs for x in completions(c("111m222p333s44s55s"))}
    assert shanpon == {Tile.S3: False, Tile.S4: True, Tile.S5: True, Tile.S6: False}


def test_tables_build_fast_and_share_codes() -> None:
    t = suit_tables.build()
    assert t.build_seconds < 1.0  # target 0.3 s, measured by `mjtable bench rules`
    assert suit_tables.info_code(t.info[bytes(9)]) == 0
    nine_gates = t.info[bytes([3, 1, 1, 1, 1, 1, 1, 1, 3])]
    assert suit_tables.info_mask(nine_gates) == 0b111111111
    assert suit_tables.info_code(nine_gates) == suit_tables.NOT_COMPLETE
    assert (
        suit_tables.info_gain(nine_gates) == suit_tables.code(14, True) - suit_tables.NOT_COMPLETE
    )
    done = t.info[bytes([3, 1, 1, 1, 2, 1, 1, 1, 3])]  # complete, and no 15th tile completes it
    assert (suit_tables.info_code(done), suit_tables.info_mask(done)) == (
        suit_tables.code(14, True),
        0,
    )
    assert t.live[0][suit_tables.live_key([3, 1, 1, 1, 2, 1, 1, 1, 3])] == suit_tables.code(
        14, True
    )
    assert t.live[0][suit_tables.live_key([3, 1, 1, 1, 1, 1, 1, 1, 3])] == suit_tables.LIVE_NOT
    assert t.live[1][suit_tables.live_key([3, 0, 0, 2, 0, 0, 0])] == suit_tables.code(5, True)
    assert suit_tables.info_code(t.info[bytes(7)]) == 0
    assert bytes([1, 1, 1, 0, 0, 0, 0]) not in t.info  # honours: no chow
    assert suit_tables.info_code(t.info[bytes([1, 0, 0, 0, 0, 0, 0])]) == suit_tables.NOT_COMPLETE


# --- properties ---------------------------------------------------------------------------------

SUITED = TILES[:27]
CHOW_STARTS = [t for t in SUITED if t.rank <= 7]


@st.composite
def built_hand(draw: st.DrawFn, honours: bool = False) -> tuple[list[int], tuple[Meld, ...]]:
    """A complete hand built from four sets and a pair, some sets declared as melds (chows
    only in the 136-tile set), never more than 4 copies of a tile."""
    kinds = TILES if honours else SUITED
    meld_kinds = [MeldKind.PUNG, MeldKind.KONG, MeldKind.CONCEALED_KONG, MeldKind.PROMOTED_KONG]
    n_melds = draw(st.integers(0, 4))
    counts = [0] * 34
    held = [0] * 34  # standing + melds
    melds: list[Meld] = []
    for k in range(4):
        chow = draw(st.booleans())
        t = draw(st.sampled_from(CHOW_STARTS if chow else kinds))
        meld = None
        if k < n_melds and (honours or not chow):
            meld = Meld(MeldKind.CHOW if chow else draw(st.sampled_from(meld_kinds)), t)
        tiles = meld.tiles if meld else (t, TILES[t + 1], TILES[t + 2]) if chow else (t,) * 3
        if any(held[x] + tiles.count(x) > 4 for x in tiles):
            continue  # replaced by a fresh pung below
        for x in tiles:
            held[x] += 1
            counts[x] += meld is None
        if meld:
            melds.append(meld)
    pair = draw(st.sampled_from([t for t in kinds if held[t] <= 2]))
    counts[pair] += 2
    held[pair] += 2
    for _ in range(4 - len(melds) - sum(counts) // 3):
        t = draw(st.sampled_from([t for t in kinds if held[t] == 0]))
        counts[t] += 3
        held[t] += 3
    return counts, tuple(melds)


@st.composite
def seven_pairs_hand(draw: st.DrawFn) -> list[int]:
    counts = [0] * 34
    while sum(counts) < 14:
        t = draw(st.sampled_from([t for t in SUITED if counts[t] <= 2]))
        counts[t] += 2
    return counts


@st.composite
def random_hand(draw: st.DrawFn, size: int) -> list[int]:
    """`size` tiles drawn from a 108-tile set, often from one or two suits."""
    pool = draw(st.sampled_from([SUITED, SUITED[:9], SUITED[9:27], SUITED[:18]]))
    counts = [0] * 34
    while sum(counts) < size:
        t = draw(st.sampled_from([t for t in pool if counts[t] < 4]))
        counts[t] += 1
    return counts


@settings(max_examples=400, deadline=None)
@given(built_hand())
def test_built_hands_are_complete_and_read_as_the_reference(hand) -> None:
    counts, melds = hand
    assert is_complete(counts, len(melds))
    assert as_readings(decompositions(counts, len(melds))) == ref_readings(counts, len(melds))
    assert shape_facts(counts, melds) == ref_facts(counts, melds)


@settings(max_examples=300, deadline=None)
@given(built_hand(), st.data())
def test_a_complete_hand_minus_a_tile_waits_on_it(hand, data) -> None:
    counts, melds = hand
    t = data.draw(st.sampled_from([t for t in TILES if counts[t]]))
    counts[t] -= 1
    held = counts[t] + sum(m.tiles.count(t) for m in melds)  # in the 13-tile hand
    found = waits(counts, melds, tileset=TileSet.FULL_136)
    assert (t in found) == (held < 4)
    assert found == ref_waits(counts, melds, tileset=TileSet.FULL_136)


@settings(max_examples=300, deadline=None)
@given(built_hand(honours=True), st.data())
def test_honour_hands_agree_with_the_reference(hand, data) -> None:
    counts, melds = hand
    assert is_complete(counts, len(melds))
    assert shape_facts(counts, melds) == ref_facts(counts, melds)
    t = data.draw(st.sampled_from([t for t in TILES if counts[t]]))
    counts[t] -= 1
    found = waits(counts, melds, tileset=TileSet.FULL_136)
    assert found == ref_waits(counts, melds, tileset=TileSet.FULL_136)
    for comp in completions(counts, melds, tileset=TileSet.FULL_136):
        counts[comp.tile] += 1
        assert comp.facts == shape_facts(counts, melds)
        counts[comp.tile] -= 1


@settings(max_examples=300, deadline=None)
@given(seven_pairs_hand(), st.data())
def test_seven_pairs_hands(counts, data) -> None:
    assert is_complete(counts) and shape_facts(counts).seven_pairs
    assert as_readings(decompositions(counts)) == ref_readings(counts, 0)
    t = data.draw(st.sampled_from([t for t in TILES if counts[t]]))
    counts[t] -= 1
    assert t in waits(counts)
    assert waits(counts) == ref_waits(counts)


@settings(max_examples=500, deadline=None)
@given(random_hand(13), st.sampled_from([None, Suit.M, Suit.P, Suit.S]))
def test_waits_of_random_hands_match_the_reference(counts, void) -> None:
    found = waits(counts, void=void)
    assert found == ref_waits(counts, void=void)
    for t in found:
        counts[t] += 1
        assert is_complete(counts)
        counts[t] -= 1
    assert tuple(x.tile for x in completions(counts, void=void)) == found


@settings(max_examples=500, deadline=None)
@given(random_hand(14))
def test_completeness_of_random_hands_matches_the_reference(counts) -> None:
    assert is_complete(counts) == ref_complete(counts, 0)
    assert shape_facts(counts) == ref_facts(counts, ())


def test_table_entries_agree_with_the_reference() -> None:
    """Every 7th complete one-suit vector, as a full flush (with a 1z pair when the suit
    holds none) over the melds that fill up the hand."""
    complete = [
        (key, code)
        for key, value in suit_tables.tables().info.items()
        if (code := suit_tables.info_code(value)) != suit_tables.NOT_COMPLETE
    ]
    for key, code in complete[::7]:
        if len(key) != 9:
            continue
        n = sum(key)
        assert code == suit_tables.code(n, n % 3 == 2)
        counts = [*key] + [0] * 25
        if n % 3 == 0:
            counts[Tile.EAST] = 2
        n_melds = (14 - sum(counts)) // 3
        assert ref_complete(counts, n_melds) and is_complete(counts, n_melds)
