"""Wellness (001) scoring: the fan-table patterns, bonuses in base points, the wall-end maximum,
and the payment facts the deal judge needs (win, false win, etiquette, next dealer).

001 II 3: a winning hand scores its single highest pattern ("do not make a combination of
compound score"), from the 1-5 fan table of 001 V (`scoring.fan-points`), plus the bonuses of
001 III 2 (`scoring.bonuses`, in base points of `scoring.base-points`): each declared kong
(two base points for four identical tiles in a seven-pairs hand) and each pung or kong of a
dragon, of the seat wind and of the prevalent wind (both for a double wind). Every reading
(decomposition) of the hand is scored so and the most valuable counts. `rules.scoring`
calls `best_score` and `theoretical_maximum` for rule sets with `method = "highest-pattern"`.

Where 001 is silent or garbled the choices are the rule set's and docs/WELLNESS.md's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any

from rules.hand import Decomposition, GroupKind, Shape, decompositions, waits
from rules.melds import Meld, MeldKind, count_meld_tiles
from rules.patterns import SUIT_NAMES
from rules.ruleset import FalseHuPayees, RuleSet
from rules.score import Bonus, PatternHit, Score, hand_value
from rules.seats import SEATS, Seat
from rules.settlement import EndHand, LedgerLine
from rules.tiles import N_KINDS, NUMBER_SUITS, TILES, Suit, Tile

WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
DRAGONS = (Tile.WHITE, Tile.GREEN, Tile.RED)
# 001 V Lv-fu: "the green 2-3-4-6-8 SUO suit and Dragon Fa" (Fa, 發, is the Green dragon, 6z)
GREEN_TILES = frozenset((Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN))
HONOUR_NAMES = MappingProxyType(
    dict(
        zip(
            (*WINDS, *DRAGONS),
            ("East", "South", "West", "North", "White", "Green", "Red"),
            strict=True,
        )
    )
)


class SetKind(Enum):
    CHOW = "chow"
    PUNG = "pung"  # a kong is a pung for every pattern


@dataclass(frozen=True, slots=True)
class Block:
    """One set of a reading, from the standing tiles or a declared meld."""

    kind: SetKind
    tile: Tile  # the lowest tile of a chow
    kong: bool = False  # a declared kong
    concealed: bool = True  # formed in the hand: standing tiles or a concealed kong

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind is SetKind.CHOW:
            return (self.tile, TILES[self.tile + 1], TILES[self.tile + 2])
        return (self.tile,) * (4 if self.kong else 3)

    def __str__(self) -> str:
        return "".join(str(t.rank) for t in self.tiles) + str(self.tile.suit)


@dataclass(frozen=True, slots=True)
class Winds:
    """The player's seat wind and the prevalent (round) wind; None: not known (no bonus)."""

    seat: Seat | None = None
    prevalent: Seat | None = None


@dataclass(frozen=True, slots=True)
class Hand:
    """One reading of a complete hand in Wellness terms."""

    sets: tuple[Block, ...]  # regular: the four sets (melds included); seven pairs: ()
    pair: Tile | None  # regular: the pair
    pairs: tuple[Tile, ...]  # seven pairs: seven tiles, one twice for four copies
    counts: tuple[int, ...]  # every tile held, a kong as four
    melds: tuple[Meld, ...]
    win: Tile
    self_drawn: bool

    @property
    def regular(self) -> bool:
        return self.pair is not None

    @property
    def held(self) -> tuple[Tile, ...]:
        return tuple(TILES[i] for i in range(N_KINDS) if self.counts[i])

    def groups(self) -> tuple[tuple[Tile, ...], ...]:
        """The tiles of each set and of the pair (regular readings)."""
        assert self.pair is not None
        return (*(b.tiles for b in self.sets), (self.pair, self.pair))

    def pungs(self) -> tuple[Block, ...]:
        return tuple(b for b in self.sets if b.kind is SetKind.PUNG)

    def chows(self) -> tuple[Block, ...]:
        return tuple(b for b in self.sets if b.kind is SetKind.CHOW)

    def __str__(self) -> str:
        if not self.regular:
            return " ".join(f"{t.rank}{t.rank}{t.suit}" for t in self.pairs)
        assert self.pair is not None
        p = self.pair
        return " ".join(str(b) for b in self.sets) + f" + {p.rank}{p.rank}{p.suit}"


def reading(
    d: Decomposition, melds: Sequence[Meld], win: Tile, counts: Sequence[int], self_drawn: bool
) -> Hand:
    """A decomposition of the standing tiles + the declared melds, as one `Hand`."""
    if d.shape is Shape.SEVEN_PAIRS:
        return Hand((), None, d.pairs, tuple(counts), tuple(melds), win, self_drawn)
    sets = [
        Block(SetKind.CHOW if g.kind is GroupKind.CHOW else SetKind.PUNG, g.tile) for g in d.groups
    ]
    for m in melds:
        kind = SetKind.CHOW if m.kind is MeldKind.CHOW else SetKind.PUNG
        sets.append(Block(kind, m.tile, m.is_kong, m.kind is MeldKind.CONCEALED_KONG))
    return Hand(tuple(sets), d.pair, (), tuple(counts), tuple(melds), win, self_drawn)


# -- the patterns of 001 V: each detector gives the tiles that show it, or None -----------


def _number_suits(h: Hand) -> set[Suit]:
    return {t.suit for t in h.held if not t.is_honour}


def _honours(h: Hand) -> tuple[Tile, ...]:
    return tuple(t for t in h.held if t.is_honour)


def _all_pungs(h: Hand) -> bool:
    return h.regular and all(b.kind is SetKind.PUNG for b in h.sets)


def _every_tile(h: Hand, ok: Callable[[Tile], bool]) -> bool:
    return all(ok(t) for t in h.held)


def _ping_fu(h: Hand) -> str | None:
    return str(h) if h.regular and not h.pungs() else None


def _yi_bei(h: Hand) -> str | None:
    twice = [t for t, n in Counter(b.tile for b in h.chows()).items() if n >= 2]
    return f"{Block(SetKind.CHOW, twice[0])} twice" if twice else None


def _men_fu(h: Hand) -> str | None:
    if any(m.kind is not MeldKind.CONCEALED_KONG for m in h.melds):
        return None
    kongs = ", ".join(str(m) for m in h.melds)
    return f"every tile stands{' but ' + kongs if kongs else ''}"


def _tan_yao(h: Hand) -> str | None:
    return str(h) if _every_tile(h, lambda t: not t.is_honour and 2 <= t.rank <= 8) else None


def _dui_fu(h: Hand) -> str | None:
    return str(h) if _all_pungs(h) else None


def _wu_men(h: Hand) -> str | None:
    honours = _honours(h)
    winds = any(t in WINDS for t in honours)
    dragons = any(t in DRAGONS for t in honours)
    return str(h) if len(_number_suits(h)) == 3 and winds and dragons else None


def _three_suits(blocks: Sequence[Block]) -> str | None:
    by_rank: dict[int, set[Suit]] = {}
    for b in blocks:
        if not b.tile.is_honour:
            by_rank.setdefault(b.tile.rank, set()).add(b.tile.suit)
    for rank, suits in sorted(by_rank.items()):
        if len(suits) == 3:
            return " ".join(
                str(next(b for b in blocks if b.tile == Tile.of(s, rank))) for s in NUMBER_SUITS
            )
    return None


def _san_ke(h: Hand) -> str | None:
    return _three_suits(h.pungs())


def _san_sun(h: Hand) -> str | None:
    return _three_suits(h.chows())


def _hun_yao(h: Hand) -> str | None:
    if not h.regular or not _honours(h):
        return None
    ok = all(any(t.is_honour or t.is_terminal for t in g) for g in h.groups())
    return str(h) if ok else None


def _hun_qin(h: Hand) -> str | None:
    return str(h) if len(_number_suits(h)) == 1 and _honours(h) else None


def _yao_fu(h: Hand) -> str | None:
    if not h.regular or _honours(h):
        return None
    return str(h) if all(any(t.is_terminal for t in g) for g in h.groups()) else None


def _liang_bei(h: Hand) -> str | None:
    chows = Counter(b.tile for b in h.chows())
    if sum(chows.values()) != 4 or any(n % 2 for n in chows.values()):
        return None
    return " ".join(str(b) for b in sorted(h.chows(), key=lambda b: b.tile))


def _long_fu(h: Hand) -> str | None:
    starts = {b.tile for b in h.chows()}
    for s in NUMBER_SUITS:
        if {Tile.of(s, 1), Tile.of(s, 4), Tile.of(s, 7)} <= starts:
            return f"123{s} 456{s} 789{s}"
    return None


def _yao_dui(h: Hand) -> str | None:
    ok = _all_pungs(h) and _every_tile(h, lambda t: t.is_honour or t.is_terminal)
    return str(h) if ok else None


def _qin_fu(h: Hand) -> str | None:
    suits = _number_suits(h)
    if len(suits) != 1 or _honours(h):
        return None
    suit = next(iter(suits))
    return f"every tile is {SUIT_NAMES[suit]} ({suit})"


def _qi_dui(h: Hand) -> str | None:
    return None if h.regular else str(h)


def _jiang_dui(h: Hand) -> str | None:
    ok = _all_pungs(h) and _every_tile(h, lambda t: not t.is_honour and t.rank in (2, 5, 8))
    return str(h) if ok else None


def _qin_dui(h: Hand) -> str | None:
    return str(h) if _all_pungs(h) and _qin_fu(h) else None


def _san_gan(h: Hand) -> str | None:
    kongs = [m for m in h.melds if m.is_kong]
    return ", ".join(str(m) for m in kongs) if len(kongs) >= 3 else None


def _qin_qi(h: Hand) -> str | None:
    return str(h) if not h.regular and _qin_fu(h) else None


def _san_an(h: Hand) -> str | None:
    """Pungs formed in the hand and concealed kongs; a pung the winning discard completed is
    not concealed, unless this reading can give that tile to a chow or the pair instead."""
    if not h.regular:
        return None
    hidden = [b for b in h.pungs() if b.concealed]
    shown = [b for b in hidden if b.tile == h.win and not b.kong]
    standing_chows = [b for b in h.chows() if b.concealed]
    elsewhere = h.pair == h.win or any(h.win in b.tiles for b in standing_chows)
    if shown and not h.self_drawn and not elsewhere:
        hidden.remove(shown[0])
    return " ".join(str(b) for b in hidden) if len(hidden) >= 3 else None


def _honour_sets(h: Hand, kinds: tuple[Tile, ...], pungs: int, pair: bool) -> str | None:
    if not h.regular:
        return None
    found = [b for b in h.pungs() if b.tile in kinds]
    if len(found) != pungs or (pair and h.pair not in kinds):
        return None
    text = " ".join(str(b) for b in found)
    return f"{text} + {h.pair.rank}{h.pair}" if pair and h.pair is not None else text


def _feng_fu(h: Hand) -> str | None:
    return _honour_sets(h, WINDS, 3, True)


def _zi_fu(h: Hand) -> str | None:
    return _honour_sets(h, DRAGONS, 2, True)


def _lao_tou(h: Hand) -> str | None:
    return str(h) if _all_pungs(h) and _every_tile(h, lambda t: t.is_terminal) else None


def _quan_zi(h: Hand) -> str | None:
    return str(h) if h.regular and _every_tile(h, lambda t: t.is_honour) else None


def _lv_fu(h: Hand) -> str | None:
    return str(h) if _every_tile(h, lambda t: t in GREEN_TILES) else None


def _si_xi(h: Hand) -> str | None:
    return _honour_sets(h, WINDS, 4, False)


def _san_yuan(h: Hand) -> str | None:
    return _honour_sets(h, DRAGONS, 3, False)


@dataclass(frozen=True, slots=True)
class Pattern:
    """A pattern of 001 V: what a referee checks, in words, and its detector."""

    what: str
    detect: Callable[[Hand], str | None]


PATTERNS: Mapping[str, Pattern] = MappingProxyType(
    {
        "ping-fu": Pattern("four chows and a pair (an honour pair allowed)", _ping_fu),
        "yi-bei": Pattern("two identical chows, same suit and numbers", _yi_bei),
        "men-fu": Pattern("nothing claimed from a discard (concealed kongs allowed)", _men_fu),
        "tan-yao": Pattern("no terminal (1, 9) and no honour", _tan_yao),
        "dui-fu": Pattern("four pungs or kongs and a pair", _dui_fu),
        "wu-men": Pattern("Characters, Dots, Bamboo, a wind and a dragon", _wu_men),
        "san-ke": Pattern("pungs of one number in all three suits", _san_ke),
        "san-sun": Pattern("chows of one sequence in all three suits", _san_sun),
        "hun-yao": Pattern("a terminal or honour in every set and the pair", _hun_yao),
        "hun-qin": Pattern("one suit and honours", _hun_qin),
        "yao-fu": Pattern("a terminal in every set and the pair, no honour", _yao_fu),
        "liang-bei": Pattern("two pairs of identical chows", _liang_bei),
        "long-fu": Pattern("chows 123, 456 and 789 of one suit", _long_fu),
        "yao-dui": Pattern("pungs and pair of terminals and honours only", _yao_dui),
        "qin-fu": Pattern("one suit, no honour", _qin_fu),
        "qi-dui": Pattern("seven pairs", _qi_dui),
        "jiang-dui": Pattern("pungs and pair of 2, 5 and 8 only", _jiang_dui),
        "qin-dui": Pattern("pungs and pair of one suit, no honour", _qin_dui),
        "san-gan": Pattern("three declared kongs", _san_gan),
        "qin-qi": Pattern("seven pairs of one suit, no honour", _qin_qi),
        "san-an": Pattern("three pungs formed in the hand, not claimed", _san_an),
        "feng-fu": Pattern("pungs of three winds and a pair of the fourth", _feng_fu),
        "zi-fu": Pattern("pungs of two dragons and a pair of the third", _zi_fu),
        "lao-tou": Pattern("pungs and pair of terminals only", _lao_tou),
        "quan-zi": Pattern("pungs and pair of honours only", _quan_zi),
        "lv-fu": Pattern("only 2 3 4 6 8 Bamboo and the Green dragon", _lv_fu),
        "si-xi": Pattern("pungs of all four winds", _si_xi),
        "san-yuan": Pattern("pungs of all three dragons", _san_yuan),
    }
)
PLAIN_HAND = "plain-hand"  # a complete hand with no pattern of the table (not in 001 V)
BONUSES = ("kong", "kong-in-seven-pairs", "dragon-pung", "seat-wind-pung", "prevalent-wind-pung")


# -- scoring ------------------------------------------------------------------------------


_ORDERS: dict[int, tuple[RuleSet, tuple[tuple[str, int], ...]]] = {}


def _order(rs: RuleSet) -> tuple[tuple[str, int], ...]:
    """The rule set's patterns, highest fan first (table order on a tie), checked once."""
    cached = _ORDERS.get(id(rs))
    if cached is not None and cached[0] is rs:
        return cached[1]
    for name in rs.scoring.fans:
        if name not in PATTERNS:
            raise ValueError(f"rule set {rs.name} scores an unknown Wellness pattern {name!r}")
    for name in rs.scoring.bonuses:
        if name not in BONUSES:
            raise ValueError(f"rule set {rs.name} gives an unknown bonus {name!r}")
    if not rs.scoring.fan_points:
        raise ValueError(f"rule set {rs.name}: highest-pattern scoring needs fan-points")
    order = tuple(sorted(rs.scoring.fans.items(), key=lambda item: -item[1]))
    _ORDERS[id(rs)] = (rs, order)
    return order


def _bonuses(h: Hand, rs: RuleSet, winds: Winds) -> tuple[Bonus, ...]:
    """001 III 2.2-2.3 and II 3, in base points."""
    table, base = rs.scoring.bonuses, rs.scoring.base_points
    found: list[tuple[str, str]] = [("kong", f"{m} declared") for m in h.melds if m.is_kong]
    if not h.regular:
        fours = [t for t in h.held if h.counts[t] == 4]
        found += [("kong-in-seven-pairs", f"four {t} in seven pairs") for t in fours]
    seat = WINDS[winds.seat] if winds.seat is not None else None
    prevalent = WINDS[winds.prevalent] if winds.prevalent is not None else None
    double = ", a double wind" if seat is not None and seat == prevalent else ""
    for b in h.pungs():
        name = HONOUR_NAMES.get(b.tile)
        if b.tile in DRAGONS:
            found.append(("dragon-pung", f"{b} ({name} dragon)"))
        if b.tile == seat:
            found.append(("seat-wind-pung", f"{b} ({name}, the seat wind{double})"))
        if b.tile == prevalent:
            found.append(("prevalent-wind-pung", f"{b} ({name}, the prevalent wind{double})"))
    return tuple(
        Bonus(name, table[name], table[name] * base, f"{name}: {detail}")
        for name, detail in found
        if table.get(name, 0) > 0
    )


def score_reading(h: Hand, rs: RuleSet, winds: Winds = Winds()) -> Score:
    """One reading's score: its single highest pattern (the first in table order on a tie,
    001 II 3 "take any"), plus its bonuses."""
    # memoised per rule set: a Score is a pure function of the reading (a frozen value)
    # and the winds; the judge scores a hand's readings again on a replay, a re-judge and
    # each not-ready player's wall-end payment (theoretical_maximum over every wait)
    memo = _memo(rs)
    key = (h, winds)
    score = memo.get(key)
    if score is None:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        score = memo[key] = _score_reading(h, rs, winds)
    return score


_MEMO_SIZE = 1 << 16  # entries kept per rule set (cleared when full: bounded memory)
_MEMOS: dict[int, tuple[RuleSet, dict[tuple[object, ...], Any]]] = {}


def _memo(rs: RuleSet) -> dict[tuple[object, ...], Any]:
    """The rule set's memo of scored readings and theoretical maxima, keyed apart by their
    shapes (a RuleSet holds mappings, so it is known by identity)."""
    found = _MEMOS.get(id(rs))
    if found is None or found[0] is not rs:
        found = _MEMOS[id(rs)] = (rs, {})
    return found[1]


def _score_reading(h: Hand, rs: RuleSet, winds: Winds) -> Score:
    hit = PatternHit(
        PLAIN_HAND,
        rs.scoring.plain_hand_fan,
        f"{PLAIN_HAND}: a complete hand with no pattern of the table ({h})",
    )
    for name, fan in _order(rs):
        detail = PATTERNS[name].detect(h)
        if detail is not None:
            hit = PatternHit(name, fan, f"{name}: {PATTERNS[name].what} ({detail})")
            break
    bonuses = _bonuses(h, rs, winds)
    value = hand_value(hit.fan, rs.scoring) + sum(b.points for b in bonuses)
    return Score((hit,), hit.fan, value, bonuses=bonuses)


def best_score(
    readings: Sequence[Decomposition],
    melds: Sequence[Meld],
    win: Tile,
    counts: Sequence[int],
    rs: RuleSet,
    self_drawn: bool,
    winds: Winds = Winds(),
) -> Score:
    """The most valuable reading (then the most fan); `counts`: every tile held."""
    best: Score | None = None
    for d in readings:
        s = score_reading(reading(d, melds, win, counts, self_drawn), rs, winds)
        if best is None or (s.value, s.total_fan) > (best.value, best.total_fan):
            best = s
    assert best is not None, "no reading of a complete hand"
    return best


def theoretical_maximum(
    counts: Sequence[int], melds: Sequence[Meld], rs: RuleSet, winds: Winds = Winds()
) -> int:
    """The highest value a 13-tile hand can reach over its waits (001 II 4, III 3.1: what a
    not-ready player pays a ready one), bonuses of the hand included. The winning tile is
    taken as drawn (San-an keeps its pungs concealed) but earns no self-drawn point. 0 when
    not ready; a long or short hand is not ready (III 3.3)."""
    melds = tuple(melds)
    if sum(counts) != 13 - 3 * len(melds):
        return 0
    # memoised with the readings (`_memo`): a pure function of the hand, melds and winds
    memo = _memo(rs)
    key = (bytes(counts), melds, winds)
    value = memo.get(key)
    if value is None:
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        value = memo[key] = _theoretical_maximum(counts, melds, rs, winds)
    return value


def _theoretical_maximum(
    counts: Sequence[int], melds: tuple[Meld, ...], rs: RuleSet, winds: Winds
) -> int:
    held = list(counts)
    count_meld_tiles(held, melds)
    if max(held) > 4:
        return 0
    best = 0
    for w in waits(counts, melds, None, rs.tiles.set):
        if held[w] >= 4:
            continue
        standing = list(counts)
        standing[w] += 1
        readings = decompositions(standing, len(melds))
        if readings:
            all_held = list(held)
            all_held[w] += 1
            score = best_score(readings, melds, w, all_held, rs, True, winds)
            best = max(best, score.value)
    return best


# -- payment facts for the deal judge (RuleSet data, ledger lines as in rules.settlement) --

R_WIN_DISCARD = "001 II 2: the discarder alone pays the winning hand"
R_WIN_SELF = "001 II 2, III 2.1: each opponent still in pays the hand + 1 base point"
R_FALSE_WIN = "001 III 3.2: false win, 4 fan of points to each of the three opponents"
R_FALSE_CLAIM = "001 III 3.2: a chow, pung or kong of a wrong tile pays as a false win"
R_ETIQUETTE = "001 III 3.4, IV 4.3: one warning, then a penalty for each violation"


def _lines(
    payer: Seat, payees: Iterable[Seat], points: int, why: str, rule: str
) -> list[LedgerLine]:
    return [LedgerLine(payer, p, points, why, rule) for p in payees if points > 0]


def win_lines(
    rs: RuleSet, score: Score, winner: Seat, discarder: Seat | None, still_in: Iterable[Seat]
) -> list[LedgerLine]:
    """001 II 2: on a discard the discarder pays the hand value; self-drawn (`discarder`
    None), each other player still in pays it + `payments.self-drawn-plus`."""
    why = f"{score.patterns[0].name} {score.value}" if score.patterns else str(score.value)
    if discarder is not None:
        return _lines(discarder, [winner], score.value, why, R_WIN_DISCARD)
    points = score.value + rs.payments.self_drawn_plus
    payers = [p for p in still_in if p != winner]
    return [line for p in payers for line in _lines(p, [winner], points, why, R_WIN_SELF)]


def false_win_lines(
    rs: RuleSet, offender: Seat, still_in: Iterable[Seat], *, claim: bool = False
) -> list[LedgerLine]:
    """001 III 3.2: a false win (or, `claim`, a chow/pung/kong of a wrong tile) pays
    `false-hu` (`false-claim`) to each of the three opponents, winners included
    (`false-hu-payees = "all-opponents"`; "still-in": only `still_in`)."""
    pay = rs.payments
    if pay.false_hu_payees is FalseHuPayees.ALL_OPPONENTS:
        payees = [s for s in SEATS if s != offender]
    else:
        payees = [s for s in still_in if s != offender]
    if claim:
        return _lines(offender, payees, pay.false_claim, "false claim", R_FALSE_CLAIM)
    return _lines(offender, payees, pay.false_hu, "false win", R_FALSE_WIN)


def etiquette_lines(rs: RuleSet, offender: Seat, violation: int) -> list[LedgerLine]:
    """001 III 3.4, IV 4.3: the player's `violation`-th violation (1, 2, ...): the first
    `etiquette-warnings` are warnings (no line), each later one costs `etiquette-penalty`,
    paid to nobody (001 names no payee)."""
    if violation <= rs.payments.etiquette_warnings:
        return []
    points = rs.payments.etiquette_penalty
    why = f"etiquette violation {violation}"
    return [LedgerLine(offender, None, points, why, R_ETIQUETTE)] if points > 0 else []


def end_hand(
    rs: RuleSet,
    seat: Seat,
    counts: Sequence[int],
    melds: Sequence[Meld],
    winds: Winds = Winds(),
) -> EndHand:
    """A player still in at wall end, for `rules.settlement.wall_end` (001 III 3.1, 3.3)."""
    maximum = theoretical_maximum(counts, melds, rs, winds)
    return EndHand(seat, tuple(counts), tuple(melds), None, maximum, False)
