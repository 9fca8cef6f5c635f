"""The WMT one-sheet score table (../shared/seeds/003), cell by cell.

Table A gives points per pattern row and root count ("four identical tiles are 1 root", a
declared kong included, 000 2.8.3); "/" marks a combination that does not exist under that
row's name. Tables B and C give the payment formulas for situations.
"""

import pytest

from rules.melds import Meld
from rules.ruleset import Payer, WinBy, load
from rules.scoring import score_hand
from rules.tiles import Tile, parse_tiles

WMT = load("wmt")

# row -> the patterns (besides roots) its hands score, per 003 table A
ROWS = {
    "Standard win": set(),
    "All Triplets": {"all-triplets"},
    "Pure Suit": {"pure-suit"},
    "Golden Hook": {"golden-hook"},
    "Seven Pairs": {"seven-pairs"},
    "Dragon Pairs": {"dragon-seven-pairs"},
    "Pure Triplets": {"pure-suit", "all-triplets"},
    "Pure Golden Hook": {"pure-suit", "golden-hook"},
    "Pure Pairs": {"pure-suit", "seven-pairs"},
}

# 003 table A, points for 0, 1, 2, 3 roots (None: "/")
SHEET = {
    "Standard win": (1, 2, 4, 8),
    "All Triplets": (2, 4, 8, 8),
    "Pure Suit": (4, 8, 8, 8),
    "Golden Hook": (4, 8, 8, 8),
    "Seven Pairs": (4, None, None, None),
    "Dragon Pairs": (None, 8, 8, 8),
    "Pure Triplets": (8, 8, 8, 8),
    "Pure Golden Hook": (8, 8, 8, 8),
    "Pure Pairs": (8, None, None, None),
}

# one hand per existing cell: (standing tiles with the winning tile last, melds); the
# roots are kongs or four identical standing tiles
HANDS = {
    ("Standard win", 0): ("123p456p789p234s11s", []),
    ("Standard win", 1): ("123p456p789p11s", ["kong 5s"]),
    ("Standard win", 2): ("123p456p11s", ["kong 5s", "kong 7s"]),
    ("Standard win", 3): ("123p11s", ["kong 5s", "kong 7s", "concealed-kong 9s"]),
    ("All Triplets", 0): ("111p222p333s44s", ["pung 9s"]),
    ("All Triplets", 1): ("111p222p333s44s", ["kong 9s"]),
    ("All Triplets", 2): ("111p222p44s", ["kong 9s", "promoted-kong 3s"]),
    ("All Triplets", 3): ("111p44s", ["kong 9s", "kong 3s", "postponed-kong 2p"]),
    ("Pure Suit", 0): ("123p456p789p234p11p", []),
    ("Pure Suit", 1): ("123p345p678p88p", ["kong 9p"]),
    ("Pure Suit", 2): ("123p345p66p", ["kong 8p", "kong 9p"]),
    ("Pure Suit", 3): ("123p66p", ["kong 7p", "kong 8p", "kong 9p"]),
    ("Golden Hook", 0): ("55s", ["pung 1p", "pung 2p", "pung 3s", "pung 4s"]),
    ("Golden Hook", 1): ("55s", ["kong 1p", "pung 2p", "pung 3s", "pung 4s"]),
    ("Golden Hook", 2): ("55s", ["kong 1p", "kong 2p", "pung 3s", "pung 4s"]),
    ("Golden Hook", 3): ("55s", ["kong 1p", "kong 2p", "kong 3s", "pung 4s"]),
    ("Seven Pairs", 0): ("1122p3344p55s66s77s", []),
    ("Dragon Pairs", 1): ("1111p3344p55s66s77s", []),
    ("Dragon Pairs", 2): ("1111p3333p55s66s77s", []),
    ("Dragon Pairs", 3): ("1111p3333p5555s77s", []),
    ("Pure Triplets", 0): ("111p222p444p66p", ["pung 9p"]),
    ("Pure Triplets", 1): ("111p222p444p66p", ["kong 9p"]),
    ("Pure Triplets", 2): ("111p222p66p", ["kong 9p", "kong 4p"]),
    ("Pure Triplets", 3): ("111p66p", ["kong 9p", "kong 4p", "kong 2p"]),
    ("Pure Golden Hook", 0): ("55p", ["pung 1p", "pung 2p", "pung 3p", "pung 4p"]),
    ("Pure Golden Hook", 1): ("55p", ["kong 1p", "pung 2p", "pung 3p", "pung 4p"]),
    ("Pure Golden Hook", 2): ("55p", ["kong 1p", "kong 2p", "pung 3p", "pung 4p"]),
    ("Pure Golden Hook", 3): ("55p", ["kong 1p", "kong 2p", "kong 3p", "pung 4p"]),
    ("Pure Pairs", 0): ("11223344556688p", []),
}

# hands for the "/" cells: the nearest hand that exists, and the row it is scored as
IMPOSSIBLE = {
    ("Seven Pairs", 1): ("1111p3344p55s66s77s", "Dragon Pairs"),
    ("Seven Pairs", 2): ("1111p3333p55s66s77s", "Dragon Pairs"),
    ("Seven Pairs", 3): ("1111p3333p5555s77s", "Dragon Pairs"),
    ("Dragon Pairs", 0): ("1122p3344p55s66s77s", "Seven Pairs"),
    ("Pure Pairs", 1): ("11112233445566p", None),
    ("Pure Pairs", 2): ("11112222334455p", None),
    ("Pure Pairs", 3): ("11112222333344p", None),
}

CELLS = [(row, roots) for row in SHEET for roots in range(4)]


def _score(hand, melds):
    standing = parse_tiles(hand)
    return score_hand(standing, [Meld.parse(m) for m in melds], standing[-1], WMT)


def _read(score):
    """(the row's patterns, the root count as the sheet counts them)."""
    names = [p.name for p in score.patterns]
    roots = names.count("root") + names.count("dragon-seven-pairs")  # dragon holds one
    return {n for n in names if n != "root"}, roots


def test_every_cell_of_table_a_is_covered():
    assert set(HANDS) | set(IMPOSSIBLE) == set(CELLS)
    assert {c for c in CELLS if SHEET[c[0]][c[1]] is None} == set(IMPOSSIBLE)


@pytest.mark.parametrize(("row", "roots"), sorted(HANDS))
def test_table_a_cell(row, roots):
    hand, melds = HANDS[(row, roots)]
    score = _score(hand, melds)
    assert _read(score) == (ROWS[row], roots)
    assert score.value == SHEET[row][roots]


@pytest.mark.parametrize(("row", "roots"), sorted(IMPOSSIBLE))
def test_table_a_slash_cells_do_not_exist(row, roots):
    hand, scored_as = IMPOSSIBLE[(row, roots)]
    score = _score(hand, [])
    patterns, found_roots = _read(score)
    assert patterns != ROWS[row] or found_roots != roots
    if scored_as is not None:
        assert patterns == ROWS[scored_as]
    else:  # pure dragon pairs: not a row of the sheet; the cap makes it 8
        assert patterns == {"pure-suit", "dragon-seven-pairs"} and found_roots == roots
        assert score.value == 8


def _pay(a, n, situation, self_drawn):
    """What a winner collects in total under the rule-set data (the deal judge's job):
    multiplier x A from each payer, plus the self-drawn plus on a self-drawn win."""
    sit = WMT.scoring.situations[situation] if situation else None
    mult = sit.multiplier if sit else 1
    plus = WMT.payments.self_drawn_plus if self_drawn else 0
    return (mult * a + plus) * n


@pytest.mark.parametrize("a", [1, 2, 4, 8])
def test_table_b_and_c_formulas(a):
    n = 3
    assert _pay(a, n, None, True) == (a + 1) * n  # C: self-draw
    assert _pay(a, n, "moon-from-the-sea-bottom", True) == (a * 2 + 1) * n  # C
    assert _pay(a, n, "kong-bloom", True) == (a * 4 + 1) * n  # C: own kong
    assert _pay(a, 1, "kong-bloom", True) == a * 4 + 1  # B: after a melded kong, one payer
    assert _pay(a, 1, "robbing-a-kong", False) == a * 2  # B
    assert _pay(a, 1, "discard-after-a-kong", False) == a * 2  # B
    assert _pay(a, 1, "last-minute-save", False) == a * 2  # B


def test_situation_data_matches_the_sheet():
    s = WMT.scoring.situations
    assert s["kong-bloom"].on == "win-after-kong"
    assert s["kong-bloom"].payer is Payer.MELDED_KONG_DISCARDER
    assert (s["moon-from-the-sea-bottom"].on, s["moon-from-the-sea-bottom"].win) == (
        "under-the-sea",
        WinBy.SELF_DRAWN,
    )
    assert (s["last-minute-save"].on, s["last-minute-save"].win) == ("under-the-sea", WinBy.DISCARD)
    assert (s["heavenly-hand"].fan, s["earthly-hand"].fan) == (3, 3)  # 000 2.8.3


def test_a_scored_hand_carries_the_sheet_multiplier():
    standing = parse_tiles("123p456p789p11s")
    score = score_hand(
        standing,
        [Meld.parse("kong 5s")],
        Tile.parse("1s"),
        WMT,
        self_drawn=True,
        situations=frozenset({"under-the-sea"}),
    )
    assert (score.value, score.multiplier) == (2, 2)  # 1 root; moon from the sea bottom
    assert [p.name for p in score.patterns] == ["root", "moon-from-the-sea-bottom"]
