"""Random deals: play and settle N seeded bot deals, count what happened, check invariants.

    summary = run(load("sbr-mil"), deals=1000, seed=7)
    summary.counts[Category.HU_ROBBING]     # how many Hu robbed a kong
    summary.violations                      # () when every invariant held

Deal `i` of seed `s` is bot seed `s * 2**32 + i` (`deal_seed`), so any deal of a run can be
played again alone (`rules.bots.play_deal`). The invariants checked on every deal (issue 3
items 5 and 8; RULES.md "Payments"):
- every ledger line moves a positive amount between two different parties, and the deltas
  sum to zero except the penalties paid to nobody (`Ledger.check`);
- the deltas equal the sum of the ledger lines, counted here independently;
- after its Hu a player neither pays nor receives anything more, except kong payments and
  their refunds (004 Table 7, 000 2.5.4), and (Wellness, 001 III 3.2) a later false win,
  which pays each of the three opponents, winners included;
- with `rejudge`, the deal record, to JSON text and back, re-judges to the same ledger,
  winners and end.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from rules import deal_wellness, settlement as pay, wellness
from rules.bots import DEFAULT_STYLE, BotTable, Style, new_deal
from rules.claims import WindowKind
from rules.deal import Deal
from rules.deal_hu import sequential
from rules.melds import MeldKind
from rules.move_json import RecordError
from rules.moves import (
    Correction,
    DealEnd,
    DealOver,
    Draw,
    Drawn,
    Fact,
    Hu,
    Melded,
    Pass,
    Rejected,
    ReplacementDraw,
    Robbed,
    RobKong,
    TurnPassed,
    Won,
)
from rules.record import (
    DealRecord,
    from_record,
    judge,
    record_to_json,
    to_record,
)
from rules.ruleset import RuleSet
from rules.seats import Seat


class Category(Enum):
    """What a run counts (one per deal event)."""

    HU_DISCARD = "hu-discard"
    HU_SELF_DRAWN = "hu-self-drawn"
    HU_ROBBING = "hu-robbing"
    HU_AFTER_KONG = "hu-after-kong"  # self-drawn on a replacement tile
    HU_SHOOT_AFTER_KONG = "hu-shoot-after-kong"  # on the discard right after a kong
    HU_UNDER_THE_SEA = "hu-under-the-sea"  # last wall tile, or the discard after it
    HU_MULTIPLE = "hu-multiple"  # several Hu on one discard
    FALSE_HU = "false-hu"
    KONG_MELDED = "kong-melded"
    KONG_CONCEALED = "kong-concealed"
    KONG_PROMOTED = "kong-promoted"
    KONG_POSTPONED = "kong-postponed"
    KONG_ROBBED = "kong-robbed"
    PUNG = "pung"
    CHOW = "chow"  # rule sets with chow claims (Wellness)
    PASS = "pass"
    HU_PASSED = "hu-passed"  # a winning discard let go: the skipped-Hu lock (004 Lesson 4)
    END_THIRD_HU = "end-third-hu"
    END_WALL = "end-wall"
    END_TIME = "end-time"
    VOID_PENALTY = "void-penalty"
    WALL_END_PAYMENT = "wall-end-payment"  # a not-ready player paid a ready one
    KONG_REFUND = "kong-refund"
    FLOWER_PIG = "flower-pig"
    CORRECTION = "correction"
    REFEREE_PENALTY = "referee-penalty"


_KONGS = {
    MeldKind.KONG: Category.KONG_MELDED,
    MeldKind.CONCEALED_KONG: Category.KONG_CONCEALED,
    MeldKind.PROMOTED_KONG: Category.KONG_PROMOTED,
    MeldKind.POSTPONED_KONG: Category.KONG_POSTPONED,
}
_UNCOUNTED = (Drawn, TurnPassed)  # facts of every turn that count nothing
_ENDS = {
    DealEnd.HU: Category.END_THIRD_HU,
    DealEnd.WALL: Category.END_WALL,
    DealEnd.TIME: Category.END_TIME,
}
# ledger rules a player who has won may still appear in (004 Table 7, 000 2.5.4)
KONG_RULES = frozenset(pay.R_KONG.values()) | {
    pay.R_REFUND_NEXT_DISCARD,
    pay.R_REFUND_NOT_READY,
    pay.R_REFUND_DRAW,
    pay.R_REFUND_FALSE_HU,
}
# ledger rules in which a player who has won may still be paid (001 III 3.2: the three
# opponents of a false win, winners included)
PAID_AFTER_OUT_RULES = frozenset((wellness.R_FALSE_WIN, wellness.R_FALSE_CLAIM))
_LINE_CATEGORIES = {
    pay.R_VOID_HELD: Category.VOID_PENALTY,
    pay.R_VOID_MELD: Category.VOID_PENALTY,
    pay.R_WALL_END: Category.WALL_END_PAYMENT,
    pay.R_WALL_END_FLAT: Category.WALL_END_PAYMENT,
    deal_wellness.R_WALL_END: Category.WALL_END_PAYMENT,
    pay.R_REFUND_NEXT_DISCARD: Category.KONG_REFUND,
    pay.R_REFUND_NOT_READY: Category.KONG_REFUND,
    pay.R_REFUND_DRAW: Category.KONG_REFUND,
    pay.R_REFUND_FALSE_HU: Category.KONG_REFUND,
    pay.R_FLOWER_PIG: Category.FLOWER_PIG,
    pay.R_REFEREE: Category.REFEREE_PENALTY,
}


def applicable(rs: RuleSet) -> frozenset[Category]:
    """The categories a rule set can produce (the others are zero by its rules)."""
    p = rs.payments
    out = set(Category) - {Category.END_TIME}  # bots never run out of session time
    if p.void_penalty == 0:
        out.discard(Category.VOID_PENALTY)
    if p.flower_pig == 0:
        out.discard(Category.FLOWER_PIG)
    if not rs.play.chow_claims:
        out.discard(Category.CHOW)
    if not (p.concealed_kong or p.melded_kong or p.promoted_kong or p.postponed_kong):
        out.discard(Category.KONG_REFUND)  # no kong payment, nothing to refund
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class Violation:
    """An invariant broken by one deal (replay it with `play_deal(rs, seed)`)."""

    seed: int
    message: str


@dataclass(frozen=True, slots=True)
class DealReport:
    """One played deal: its judge, record, what it counted and what it broke."""

    seed: int
    deal: Deal
    record: DealRecord
    counts: Mapping[Category, int]
    rules_used: Mapping[str, int]  # ledger lines per rule
    violations: tuple[Violation, ...]


@dataclass(frozen=True, slots=True)
class Summary:
    rules: str
    deals: int
    seed: int
    counts: Mapping[Category, int]
    rules_used: Mapping[str, int]
    violations: tuple[Violation, ...]
    moves: int

    def missing(self, rs: RuleSet) -> tuple[Category, ...]:
        """Categories the rule set can produce that this run never reached."""
        return tuple(c for c in Category if c in applicable(rs) and not self.counts.get(c))


def deal_seed(seed: int, i: int) -> int:
    return seed * 2**32 + i


def play_one(
    rs: RuleSet, seed: int, style: Style = DEFAULT_STYLE, rejudge: bool = True
) -> DealReport:
    """Play one bot deal, counting its events and checking the invariants."""
    rng = random.Random(seed)
    deal = new_deal(rs, rng)
    table = BotTable(rs, rng, style)
    counts: Counter[Category] = Counter()
    out_at: dict[Seat, int] = {}  # ledger length once a seat's Hu was settled
    kong_by: Seat | None = None  # who declared a kong since the last live draw
    on_replacement = False  # the player on turn took a replacement tile
    wall = deal.wall
    while (move := table.next_move(deal)) is not None:
        kind = type(move)
        under_sea = wall.tiles_left == 0
        if isinstance(move, Pass) and _could_hu(deal, move.seat):
            counts[Category.HU_PASSED] += 1
        shooter = kong_by
        result = deal.apply(move)
        if isinstance(result, Rejected):
            problem = Violation(seed, f"the judge refused the bot's {move}: {result}")
            return DealReport(seed, deal, to_record(deal), counts, {}, (problem,))
        if kind is Draw:
            kong_by, on_replacement = None, False
        elif kind is ReplacementDraw:
            on_replacement = True
        elif kind is Pass:
            counts[Category.PASS] += 1
        elif kind is Correction:
            counts[Category.CORRECTION] += 1
            wall = deal.wall  # a correction re-judges the deal on a fresh wall
        for fact in result.facts:
            if type(fact) in _UNCOUNTED:
                continue
            if isinstance(fact, Melded):
                if fact.meld.is_kong:
                    counts[_KONGS[fact.meld.kind]] += 1
                    kong_by = fact.seat
                elif fact.meld.kind is MeldKind.CHOW:
                    counts[Category.CHOW] += 1
                    on_replacement = False
                else:
                    counts[Category.PUNG] += 1
                    on_replacement = False
            elif isinstance(fact, Robbed):
                counts[Category.KONG_ROBBED] += 1
            elif isinstance(fact, Won):
                out_at[fact.seat] = len(deal.ledger().lines)
                _count_win(fact, result.facts, under_sea, shooter, on_replacement, counts)
            elif isinstance(fact, DealOver):
                counts[_ENDS[fact.end]] += 1
    lines = deal.ledger().lines
    rules_used = Counter(line.rule for line in lines)
    for rule, n in rules_used.items():
        if rule in _LINE_CATEGORIES:
            counts[_LINE_CATEGORIES[rule]] += n
    problems = _check_ledger(seed, deal, out_at)
    if deal.end is not DealEnd.HU and deal.end is not DealEnd.WALL:
        problems.append(Violation(seed, f"the bots' deal ended by {deal.end}"))
    record = to_record(deal)
    if rejudge:
        problems += _check_record(seed, deal, record)
    return DealReport(seed, deal, record, counts, rules_used, tuple(problems))


def _could_hu(deal: Deal, seat: Seat) -> bool:
    """Whether `deal.admissible_claims()` lists a Hu (or RobKong) for `seat` (asked alone)."""
    window = deal.window
    if window is None or not deal.wins(seat, window.tile):
        return False
    hu = RobKong(seat) if window.kind is WindowKind.ROBBING else Hu(seat)
    return deal.check(hu) is None and not sequential(deal.state, hu)


def _count_win(
    won: Won,
    facts: tuple[Fact, ...],
    under_sea: bool,
    kong_by: Seat | None,
    on_replacement: bool,
    counts: Counter[Category],
) -> None:
    if won.false_hu:
        counts[Category.FALSE_HU] += 1
        return
    if any(isinstance(f, Robbed) for f in facts):
        counts[Category.HU_ROBBING] += 1
    elif won.from_seat is None:
        counts[Category.HU_SELF_DRAWN] += 1
        if on_replacement:
            counts[Category.HU_AFTER_KONG] += 1
    else:
        counts[Category.HU_DISCARD] += 1
        if kong_by is won.from_seat:
            counts[Category.HU_SHOOT_AFTER_KONG] += 1
        if sum(1 for f in facts if isinstance(f, Won)) > 1:
            counts[Category.HU_MULTIPLE] += 1
    if under_sea:
        counts[Category.HU_UNDER_THE_SEA] += 1


def hu_marks(deal: Deal) -> dict[Seat, int]:
    """For each seat that declared Hu, the ledger length once that Hu was settled (the deal's
    moves replayed on a fresh judge)."""
    twin = Deal.start(deal.rs, deal.dice, deal.wall_order, prevalent=deal.prevalent)
    marks: dict[Seat, int] = {}
    for move in deal.history:
        result = twin.apply(move)
        for fact in getattr(result, "facts", ()):
            if isinstance(fact, Won):
                marks[fact.seat] = len(twin.ledger().lines)
    return marks


def check_invariants(
    deal: Deal, seed: int = 0, out_at: Mapping[Seat, int] | None = None
) -> list[Violation]:
    """The ledger invariants of a deal (module docstring); `out_at` as `hu_marks` gives."""
    return _check_ledger(seed, deal, hu_marks(deal) if out_at is None else out_at)


def _check_ledger(seed: int, deal: Deal, out_at: Mapping[Seat, int]) -> list[Violation]:
    ledger = deal.ledger()
    problems = [Violation(seed, p) for p in ledger.check()]
    mine = [0, 0, 0, 0]
    for line in ledger.lines:
        if line.payer is not None:
            mine[line.payer] -= line.points
        if line.payee is not None:
            mine[line.payee] += line.points
    if tuple(mine) != deal.deltas():
        problems.append(Violation(seed, f"deltas {deal.deltas()} but the lines sum to {mine}"))
    for seat, at in out_at.items():
        for line in ledger.lines[at:]:
            if seat in (line.payer, line.payee) and line.rule not in KONG_RULES:
                if line.payee is seat and line.rule in PAID_AFTER_OUT_RULES:
                    continue
                problems.append(Violation(seed, f"{seat} has won, yet: {line}"))
    return problems


def _check_record(seed: int, deal: Deal, record: DealRecord) -> list[Violation]:
    """The record to JSON text and back re-judges to the same deal."""
    try:
        again = from_record(json.loads(json.dumps(record_to_json(record))))
        twin = judge(again)
    except RecordError as err:
        return [Violation(seed, f"its own record does not replay: {err}")]
    problems = []
    if again != record:
        problems.append(Violation(seed, "the record changed through JSON"))
    if twin.ledger() != deal.ledger():
        problems.append(Violation(seed, "the record re-judges to another ledger"))
    if twin.winners != deal.winners or twin.end is not deal.end:
        problems.append(Violation(seed, "the record re-judges to other winners or end"))
    return problems


def run(
    rs: RuleSet,
    deals: int,
    seed: int = 0,
    *,
    style: Style = DEFAULT_STYLE,
    rejudge: bool = True,
    first: int = 0,
    on_deal: Callable[[DealReport], None] | None = None,
) -> Summary:
    """Play deals `first` .. `first + deals - 1` of `seed`; `on_deal` sees each report (for
    progress displays and saving records)."""
    counts: Counter[Category] = Counter()
    rules_used: Counter[str] = Counter()
    violations: list[Violation] = []
    moves = 0
    for i in range(first, first + deals):
        report = play_one(rs, deal_seed(seed, i), style, rejudge)
        counts.update(report.counts)
        rules_used.update(report.rules_used)
        violations += report.violations
        moves += len(report.record.moves)
        if on_deal is not None:
            on_deal(report)
    return Summary(
        rs.name,
        deals,
        seed,
        MappingProxyType(dict(counts)),
        MappingProxyType(dict(rules_used)),
        tuple(violations),
        moves,
    )


def merge(summaries: list[Summary]) -> Summary:
    """One summary of several runs of a rule set (e.g. a run split over several tests)."""
    counts: Counter[Category] = Counter()
    rules_used: Counter[str] = Counter()
    for s in summaries:
        counts.update(s.counts)
        rules_used.update(s.rules_used)
    return Summary(
        summaries[0].rules,
        sum(s.deals for s in summaries),
        summaries[0].seed,
        MappingProxyType(dict(counts)),
        MappingProxyType(dict(rules_used)),
        tuple(v for s in summaries for v in s.violations),
        sum(s.moves for s in summaries),
    )
