"""Fan evaluation: the value of a winning hand under a rule set, and the theoretical maximum
of a ready hand at wall end (RULES.md "Scoring"; 004 Lessons 5-6, Tables 4-9; 003 table A).

A hand is scored on every reading (decomposition) of its standing tiles; the most valuable
one counts (RULES.md). Structural patterns come from `rules.patterns`, named and valued by
the rule set's `[scoring.fans]`; situations (win after a kong, under the sea, ...) come from
`[scoring.situations]`: SBR adds fans, WMT multiplies the hand value A (003 B/C), which the
deal judge applies through `Score.multiplier` and `Score.payer`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import Enum

from rules.errors import RulesError
from rules.hand import decompositions, is_complete, wait_reading, waits
from rules.melds import Meld, MeldKind, count_meld_tiles
from rules.patterns import DETECTORS, Feature, Reading
from rules.ruleset import (
    ExhaustedWait,
    Multipliers,
    Payer,
    RuleSet,
    ScoringMethod,
    Situation,
    WinBy,
)
from rules.score import PatternHit, Score, hand_value
from rules.seats import Seat
from rules.tiles import N_KINDS, NUMBER_SUITS, TILES, Suit, Tile, TileSet

# The events the deal judge reports; a rule set maps them to its situational patterns.
EVENTS: dict[str, str] = {
    "win-after-kong": "Hu on a kong replacement tile",
    "shoot-after-kong": "Hu on the discard made right after a kong",
    "robbing-the-kong": "Hu on the tile added to a promoted/postponed kong",
    "under-the-sea": "Hu on the last wall tile or on the discard after it",
    "heavenly": "the dealer's Hu on the dealt hand",
    "earthly": "Hu on the dealer's first discard or on a non-dealer's first draw",
}


class NoWin(Enum):
    """Why a hand does not win."""

    SHAPE = "shape"  # neither four sets + a pair nor seven pairs
    VOID_TILE = "void-tile"  # a tile of the player's void suit (RULES.md Hand shapes)
    THREE_SUITS = "three-suits"  # a hand holding all three suits never wins
    TILE_COUNT = "tile-count"
    TOO_MANY_COPIES = "too-many-copies"
    NOT_IN_SET = "not-in-set"  # e.g. an honour under a 108-tile rule set
    WIN_NOT_IN_HAND = "win-not-in-hand"
    ILLEGAL_MELD = "illegal-meld"  # a declared chow where chows cannot be claimed


class NotAWin(RulesError, ValueError):
    """The hand is not a winning hand; `reason` says why in words, `kind` as a value."""

    def __init__(self, kind: NoWin, reason: str) -> None:
        self.kind = kind
        self.reason = reason
        super().__init__(reason)


class BadSituation(RulesError, ValueError):
    """A situation the scorer does not know, or one that contradicts the hand."""

    def __init__(self, situation: str, reason: str) -> None:
        self.situation = situation
        self.reason = reason
        super().__init__(f"situation {situation!r}: {reason}")


# -- checking the hand --------------------------------------------------------------


def _all_counts(standing: Iterable[Tile], melds: Sequence[Meld]) -> list[int]:
    counts = [0] * N_KINDS
    for t in standing:
        counts[t] += 1
    count_meld_tiles(counts, melds)
    return counts


def _suits(counts: Sequence[int]) -> list[Suit]:
    return [s for s in NUMBER_SUITS if any(counts[s.offset : s.offset + 9])]


def _check(
    standing: Sequence[Tile],
    melds: Sequence[Meld],
    void: Suit | None,
    rs: RuleSet,
) -> list[int]:
    """Raise NotAWin for anything but the shape; return the counts of every tile held."""
    # the usual case first (every Hu and every win test asks): a hand that passes all the
    # checks below, tested on its counts alone; any other hand takes `_check_each`, which
    # names the first problem
    standing_counts = [0] * N_KINDS
    for t in standing:
        standing_counts[t] += 1
    return _check_counted(standing, standing_counts, melds, void, rs)


def _check_counted(
    standing: Sequence[Tile],
    standing_counts: list[int],
    melds: Sequence[Meld],
    void: Suit | None,
    rs: RuleSet,
) -> list[int]:
    """`_check` given the counts of the standing tiles too (`score_hand` reads them again
    for the shape): the counts of every tile held, a new list."""
    n = len(melds)
    if n <= 4 and len(standing) == 14 - 3 * n:
        counts = standing_counts.copy()
        chow = count_meld_tiles(counts, melds)
        if (
            max(counts) <= 4
            and (not chow or rs.play.chow_claims)
            and (rs.tiles.set is TileSet.FULL_136 or not any(counts[27:]))
            and (void is None or not any(counts[_SUIT_SLICE[void]]))
            and (
                not rs.play.void_suit
                or not (any(counts[:9]) and any(counts[9:18]) and any(counts[18:27]))
            )
        ):
            return counts
    return _check_each(standing, melds, void, rs)


# each suit's slice of a count vector (no `Suit.offset` property calls)
_SUIT_SLICE: dict[Suit, slice] = {s: slice(s.offset, s.offset + 9) for s in Suit}


def _check_each(
    standing: Sequence[Tile],
    melds: Sequence[Meld],
    void: Suit | None,
    rs: RuleSet,
) -> list[int]:
    """`_check`, one rule at a time: raises NotAWin naming the first problem."""
    tileset = rs.tiles.set
    for t in (*standing, *(m.tile for m in melds)):
        if not tileset.contains(t):
            raise NotAWin(NoWin.NOT_IN_SET, f"{t} is not in a {tileset.value}-tile set")
    for m in melds:
        if m.kind is MeldKind.CHOW and not rs.play.chow_claims:
            raise NotAWin(NoWin.ILLEGAL_MELD, f"'{m}': chows cannot be declared in {rs.name}")
    if len(melds) > 4:
        raise NotAWin(NoWin.TILE_COUNT, f"{len(melds)} melds (a hand has at most four sets)")
    need = 14 - 3 * len(melds)
    if len(standing) != need:
        raise NotAWin(
            NoWin.TILE_COUNT,
            f"{len(standing)} standing tiles with {len(melds)} melds (a winning hand has {need})",
        )
    counts = _all_counts(standing, melds)
    over = [TILES[i] for i in range(N_KINDS) if counts[i] > 4]
    if over:
        raise NotAWin(NoWin.TOO_MANY_COPIES, f"{counts[over[0]]} copies of {over[0]} (a set has 4)")
    if void is not None and any(counts[t] for t in void.tiles):
        held = next(t for t in void.tiles if counts[t])
        raise NotAWin(NoWin.VOID_TILE, f"{held} is of the void suit {void}")
    if rs.play.void_suit and len(_suits(counts)) == 3:
        raise NotAWin(NoWin.THREE_SUITS, "the hand holds all three suits")
    return counts


def is_winning(
    standing: Sequence[Tile], melds: Sequence[Meld], void: Suit | None, rs: RuleSet
) -> bool:
    """Whether standing tiles (winning tile included) + melds form a winning hand."""
    try:
        _check(standing, melds, void, rs)
    except NotAWin:
        return False
    standing_counts = [0] * N_KINDS
    for t in standing:
        standing_counts[t] += 1
    return is_complete(standing_counts, len(melds))


# -- situations ---------------------------------------------------------------------


def _check_situations(
    events: frozenset[str], self_drawn: bool, melds: Sequence[Meld], win: Tile, counts: list[int]
) -> None:
    """Reject unknown events and combinations 004 Table 9 marks impossible."""
    if not events:
        return  # every rule below is about an event of the hand (most Hu have none)
    for e in sorted(events):
        if e not in EVENTS:
            raise BadSituation(e, f"unknown (one of {', '.join(EVENTS)})")

    def need(ok: bool, event: str, why: str) -> None:
        if event in events and not ok:
            raise BadSituation(event, why)

    need(self_drawn, "win-after-kong", "a replacement tile is self-drawn")
    need(any(m.is_kong for m in melds), "win-after-kong", "the hand has no declared kong")
    need(not self_drawn, "shoot-after-kong", "it is a win on a discard")
    need(not self_drawn, "robbing-the-kong", "a robbed tile counts as a discard")
    # the other three copies are the robbed player's pung
    need(counts[win] == 1, "robbing-the-kong", f"the hand holds another {win}")
    need("under-the-sea" not in events, "robbing-the-kong", "no kong without a replacement tile")
    need("shoot-after-kong" not in events, "robbing-the-kong", "the robbed tile is not a discard")
    for e in ("heavenly", "earthly"):
        need(not melds, e, "the hand has declared melds")
        need(len(events) == 1, e, "it combines with no other situation")
    need(self_drawn, "heavenly", "the dealer wins on the dealt tiles")


def _situation_hits(
    events: frozenset[str], self_drawn: bool, rs: RuleSet
) -> list[tuple[str, Situation, str]]:
    hits = []
    for name, sit in rs.scoring.situations.items():
        event = sit.on or name
        if event not in EVENTS:
            raise ValueError(f"rule set {rs.name}: situation {name!r} is on an unknown event")
        if event not in events:
            continue
        if sit.win is WinBy.SELF_DRAWN and not self_drawn:
            continue
        if sit.win is WinBy.DISCARD and self_drawn:
            continue
        detail = EVENTS[event]
        if sit.multiplier > 1:
            detail += f" (hand value x{sit.multiplier})"
        hits.append((name, sit, detail))
    return hits


# -- scoring ------------------------------------------------------------------------


def _apply_includes(found: list[tuple[str, str]], rs: RuleSet) -> list[tuple[str, str]]:
    """A pattern that contains others (003 A: golden hook contains all triplets) removes
    one occurrence of each pattern it contains."""
    names = {n for n, _ in found}
    drop: list[str] = []
    for name, inner in rs.scoring.includes.items():
        if name in names:
            drop.extend(inner)
    out = []
    for name, detail in found:
        if name in drop:
            drop.remove(name)
            continue
        out.append((name, detail))
    return out


def score_hand(
    standing: Sequence[Tile],
    melds: Sequence[Meld],
    win: Tile,
    rs: RuleSet,
    *,
    self_drawn: bool = False,
    situations: frozenset[str] = frozenset(),
    void: Suit | None = None,
    seat_wind: Seat | None = None,
    prevalent_wind: Seat | None = None,
) -> Score:
    """Score a winning hand; `standing` includes the winning tile `win`.

    Raises NotAWin (with `kind` and `reason`) for a hand that does not win, BadSituation for
    an unknown situation or one that contradicts the hand (004 Table 9). The winds count in
    Wellness only (001 II 3: pungs of the seat and prevalent wind); None: neither is known."""
    melds = tuple(melds)
    standing_counts = [0] * N_KINDS
    for t in standing:
        standing_counts[t] += 1
    counts = _check_counted(standing, standing_counts, melds, void, rs)
    if win not in standing:
        raise NotAWin(NoWin.WIN_NOT_IN_HAND, f"the winning tile {win} is not among the tiles")
    events = frozenset(situations)
    if events:  # most Hu have no situation
        _check_situations(events, self_drawn, melds, win, counts)
    readings = decompositions(standing_counts, len(melds))
    if not readings:
        raise NotAWin(NoWin.SHAPE, "no four sets and a pair, and not seven pairs")
    if rs.scoring.method is ScoringMethod.HIGHEST_PATTERN:
        from rules import wellness  # imported here: rules.wellness builds on this module

        winds = wellness.Winds(seat_wind, prevalent_wind)
        return wellness.best_score(readings, melds, win, counts, rs, self_drawn, winds)
    plan = _plan(rs)
    situated = plan.situated.get((events, self_drawn))
    if situated is None:
        situated = plan.situated[events, self_drawn] = _situate(events, self_drawn, rs)
    sits, fan_of, multiplier, payer = situated
    frozen_counts = tuple(counts)
    values = plan.values
    # each reading's patterns and fan; the hits (names, fans and reasons) are made for the
    # best one only (most hands have a single reading)
    best: list[tuple[str, str]] = []
    best_key: tuple[int, int] | None = None
    for d in readings:
        reading = Reading(d, melds, win, frozen_counts, plan.kong_is_root)
        found = [(name, f.detail) for name, detect in plan.detectors for f in detect(reading)]
        if sits:
            found += sits
        if plan.includes:
            found = _apply_includes(found, rs)
        total = 0
        for n, _ in found:
            total += fan_of[n]
        value = values.get(total)
        if value is None:
            value = values[total] = hand_value(total, rs.scoring)
        # the first of the most valuable readings counts
        if best_key is None or (value, total) > best_key:
            best, best_key = found, (value, total)
    assert best_key is not None
    value, total = best_key
    hits = tuple([PatternHit(n, fan_of[n], f"{n}: {detail}") for n, detail in best])
    return Score(hits, total, value, multiplier, payer, ())


def _situate(
    events: frozenset[str], self_drawn: bool, rs: RuleSet
) -> tuple[list[tuple[str, str]], Mapping[str, int], int, Payer]:
    """What the situations of a Hu add to every reading: (pattern name, detail) of each
    situation that applies, the fan of each pattern name (the rule set's, or the
    situation's own), the hand-value multiplier and who pays. Kept per (events, self-drawn)
    in the rule set's plan: a handful of combinations ever occur."""
    sits = _situation_hits(events, self_drawn, rs)
    multiplier = 1
    payer = Payer.USUAL
    largest = rs.scoring.situation_multipliers is Multipliers.LARGEST
    for _, sit, _ in sits:
        multiplier = max(multiplier, sit.multiplier) if largest else multiplier * sit.multiplier
        if sit.payer is not Payer.USUAL:
            payer = sit.payer
    fan_of = rs.scoring.fans
    if sits:
        fan_of = {**fan_of, **{name: sit.fan for name, sit, _ in sits}}
    return [(n, detail) for n, _, detail in sits], fan_of, multiplier, payer


# -- theoretical maximum ------------------------------------------------------------


def melded_copies(rs: RuleSet) -> bool:
    """Whether copies in the melds count toward the four that make a tile no wait
    (`scoring.exhausted-wait`; `rules.hand.waits`)."""
    return rs.scoring.exhausted_wait is ExhaustedWait.HELD


class _Plan:
    """A rule set's structural patterns resolved once: their detectors in the rule set's
    order (for `score_hand`) and, for the theoretical maximum, the value of a hand as a
    function of its feature counts, memoised (a handful of distinct keys ever occur)."""

    __slots__ = (
        "counts_kongs",
        "detectors",
        "fans",
        "includes",
        "kong_is_root",
        "melded_copies",
        "memo",
        "scoring",
        "situated",
        "tileset",
        "top",
        "values",
        "void_suit",
    )

    def __init__(self, rs: RuleSet) -> None:
        fans = []
        for name, fan in rs.scoring.fans.items():
            if name not in DETECTORS:
                raise ValueError(f"rule set {rs.name} scores an unknown pattern {name!r}")
            fans.append((name, DETECTORS[name].feature, fan))
        self.fans = tuple(fans)
        self.detectors = tuple((name, DETECTORS[name].detect) for name, _, _ in fans)
        self.includes = tuple((k, tuple(v)) for k, v in rs.scoring.includes.items())
        self.kong_is_root = rs.scoring.kong_is_root
        self.counts_kongs = rs.scoring.maximum_counts_kongs
        self.scoring = rs.scoring
        self.memo: dict[int, int] = {}  # feature key -> hand value
        # score_hand's: (events, self-drawn) -> `_situate`'s answer; total fan -> hand value
        self.situated: dict[
            tuple[frozenset[str], bool], tuple[list[tuple[str, str]], Mapping[str, int], int, Payer]
        ] = {}
        self.values: dict[int, int] = {}
        self.top = hand_value(99, rs.scoring)  # the capped value: no wait can beat it
        # the rule set's parameters the theoretical maximum reads on every hand
        self.melded_copies = melded_copies(rs)
        self.tileset = rs.tiles.set
        self.void_suit = rs.play.void_suit

    def fan(self, key: int) -> int:
        """Total fan for a key kongs << 12 | roots << 8 | golden wait << 3 | one suit << 2 |
        all pungs << 1 | seven pairs (each a count, 0 or 1 but kongs and roots)."""
        kongs, roots = key >> 12, key >> 8 & 15
        golden, one_suit, pungs, pairs = key >> 3 & 1, key >> 2 & 1, key >> 1 & 1, key & 1
        feature = {
            Feature.KONG: kongs,
            Feature.ROOT: roots,
            Feature.ALL_PUNGS: pungs,
            Feature.GOLDEN_WAIT: golden,
            Feature.ONE_SUIT: one_suit,
            Feature.SEVEN_PAIRS: pairs,
            Feature.DRAGON_SEVEN_PAIRS: pairs if roots - (kongs if self.kong_is_root else 0) else 0,
        }
        named = {name: feature[f] for name, f, _ in self.fans}
        for name, inner in self.includes:
            if named.get(name):
                for n in inner:
                    if named.get(n):
                        named[n] -= 1
        return sum(named[name] * value for name, _, value in self.fans)


_PLANS: dict[int, tuple[RuleSet, _Plan]] = {}
_EMPTY_SUIT = bytes(9)


def _plan(rs: RuleSet) -> _Plan:
    cached = _PLANS.get(id(rs))
    if cached is not None and cached[0] is rs:
        return cached[1]
    plan = _Plan(rs)
    if len(_PLANS) >= 16:  # a few rule sets per process; tests make more
        _PLANS.clear()
    _PLANS[id(rs)] = (rs, plan)
    return plan


def theoretical_maximum(
    counts: Sequence[int],
    melds: Sequence[Meld],
    void: Suit | None,
    rs: RuleSet,
    *,
    seat_wind: Seat | None = None,
    prevalent_wind: Seat | None = None,
) -> int:
    """The best hand value over all waits of a 13-tile hand, counting structural patterns
    only (004 Lesson 6 "Hand value theoretical maximum"; RULES.md Payments): no situation
    applies at wall end. 0 if the hand is not ready or holds void-suit tiles (counted as not
    ready, 004 Lesson 5) or all three suits. Declared kongs count only with
    `scoring.maximum-counts-kongs` (wmt; 004 Lesson 6's worked example leaves them out).

    What a not-ready player pays is the deal judge's (`payments.wall-end`: this maximum, or a
    flat amount under sbr-chengdu2016). Works on counts: what a wait adds follows from the
    counts alone (all pungs: one pair and every other kind 0 or 3; seven pairs: no odd count;
    a root: a kind held four times). Wellness: `rules.wellness.theoretical_maximum`."""
    if (
        rs.scoring.method is ScoringMethod.HIGHEST_PATTERN
    ):  # before the plan: Wellness has none here
        from rules import wellness  # imported here: rules.wellness builds on this module

        winds = wellness.Winds(seat_wind, prevalent_wind)
        return wellness.theoretical_maximum(counts, melds, rs, winds)
    plan = _plan(rs)
    # the waits, and how many number suits the standing tiles hold
    b = bytes(counts)
    found, _, _, suits = wait_reading(b, melds, void, plan.tileset, plan.melded_copies)
    if not found:
        return 0
    kongs = 0
    chow_melds = False
    extra: dict[int, int] | None = None  # meld tiles that can join a root (not kong tiles)
    if melds:
        extra = {}
        meld_suits = set()
        for m in melds:  # read from the kind and tile (no `Meld.tiles` tuple)
            kind, t = m.kind, m.tile
            meld_suits.add(t.suit)
            if kind.is_kong:
                kongs += 1
            elif kind is MeldKind.CHOW:
                chow_melds = True
                for u in (t, t + 1, t + 2):
                    extra[u] = extra.get(u, 0) + 1
            else:
                extra[t] = extra.get(t, 0) + 3
        if void is not None and void in meld_suits:
            return 0
        if not plan.counts_kongs:
            kongs = 0  # 004 Lesson 6: a declared kong adds nothing to the maximum
        for s in meld_suits:
            if s is not Suit.Z and b[_SUIT_SLICE[s]] == _EMPTY_SUIT:
                suits += 1
    if suits >= 3 and plan.void_suit:
        return 0
    n4 = b.count(4)
    n1 = b.count(1)
    roots0 = n4
    if extra:
        roots0 += sum(1 for t, n in extra.items() if b[t] + n == 4)
    if plan.kong_is_root:
        roots0 += kongs
    golden = 1 if len(melds) == 4 and not chow_melds else 0
    one_suit = 1 if suits == 1 else 0
    # per-hand part of the memo key (see _Plan.fan); a wait adds roots, all-pungs, pairs
    base = kongs << 12 | roots0 << 8 | golden << 3 | one_suit << 2
    seven = not melds and n1 < 2 and n1 + b.count(3) == 1
    # all pungs: after the tile no count is 1 or 4 and exactly one is 2, so the wait's count
    # must be 1 with no 2 held (it makes the pair) or 2 with two 2s held (it makes a pung)
    pung_count = -1  # the count a wait must have to make all pungs; -1: none can
    if not (chow_melds or n4 or n1 > 1):
        n2 = b.count(2)
        if n1 == 1:
            if n2 == 0:
                pung_count = 1
        elif n2 == 2:
            pung_count = 2
    value_of = plan.memo
    top = plan.top
    best = 0
    for w in found:
        c = b[w]
        key = base
        if (c + extra.get(w, 0) if extra else c) == 3:
            key += 1 << 8  # the wait is the fourth copy: a root
        if c == pung_count:
            key |= 2
        if seven and c & 1:
            key |= 1
        value = value_of.get(key)
        if value is None:
            value = value_of[key] = hand_value(plan.fan(key), plan.scoring)
        if value > best:
            if value == top:
                return value
            best = value
    return best


def waits_and_maximum(
    counts: Sequence[int],
    melds: Sequence[Meld],
    void: Suit | None,
    rs: RuleSet,
    *,
    seat_wind: Seat | None = None,
    prevalent_wind: Seat | None = None,
) -> tuple[tuple[Tile, ...], int]:
    """The waits of a 13-tile hand as the rule set counts them (`scoring.exhausted-wait`)
    and its theoretical maximum; no waits when the maximum is 0 (void-suit tiles or three
    suits held: not ready, 004 Lesson 5). What `mjtable waits` prints and what the referee
    and broadcast views show beside each hand."""
    found = waits(counts, melds, void, rs.tiles.set, melded_copies=melded_copies(rs))
    if not found:
        return (), 0
    best = theoretical_maximum(
        counts, melds, void, rs, seat_wind=seat_wind, prevalent_wind=prevalent_wind
    )
    return (found if best else ()), best
