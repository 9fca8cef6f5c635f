"""Settlement as an itemised ledger: who pays whom, how much, why, and the rule it comes from.

Each payment is a `LedgerLine(payer, payee, points, why, rule)`; `payee=None` is a penalty
paid to nobody (the void penalty), `payer=None` never occurs. A refund is a line in the other
direction that names the line it returns. The deal judge (`rules.deal`) calls the builders
below as things happen and at the end of the deal; they are plain functions of typed values
so a referee tool can call them too.

Sources (RULES.md "Payments"): 004 Table 6 (Hu and waiting-hand payments), Table 7 (kong
payments and their refunds), Lesson 5 (false Hu, the 48-point void penalty); 002 (the flat
1 point for a ready hand in Chengdu 2016); 000/003 (WMT situation formulas, flower pig,
kong refund on a draw).

Invariant (`Ledger.check`): the deltas of the four seats sum to minus the points paid to
nobody; every line moves a positive number of points between two different parties.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING

from rules.melds import Meld, MeldKind
from rules.ruleset import MultipleHuDealer, PaymentParams, RuleSet, WallEndValue
from rules.seats import SEATS, Seat
from rules.tiles import Suit, Tile

if TYPE_CHECKING:  # the judge's facts; rules.moves builds on the scoring this module serves
    from rules.moves import Won

R_HU_DISCARD = "004 Table 6: Hu on a discard, the discarder pays the hand value"
R_HU_SELF = "004 Table 6: self-drawn Hu, each player still in pays hand value + 1"
R_WMT_FORMULA = "003 B/C: situation payment"
R_WMT_KONG_BLOOM = "003 B: kong bloom after a melded kong, the kong's discarder pays"
R_KONG = {
    MeldKind.CONCEALED_KONG: "004 Table 7: concealed kong, 2 from each player still in",
    MeldKind.KONG: "004 Table 7: melded kong, 2 from the discarder",
    MeldKind.PROMOTED_KONG: "004 Table 7: promoted kong, 1 from each player still in",
    MeldKind.POSTPONED_KONG: "004 Table 7: postponed kong, nothing",
}
R_REFUND_NEXT_DISCARD = "004 Table 7: no kong payment when Hu is declared on the next discard"
R_REFUND_NOT_READY = "004 Table 7: no kong payment for a declarer not ready at wall end"
R_REFUND_DRAW = "000 2.5.4: kong points are returned when the hand ends in a draw"
R_REFUND_FALSE_HU = "004 Lesson 5: a false Hu returns every kong payment received"
R_FALSE_HU = "004 Lesson 5: false Hu, 8 to each player still in"
R_FALSE_HU_WMT = "000 3.3: false win, the maximum to each remaining player"
R_SEQUENTIAL = "000 2.2.4: a sequential win or pung is a false win unless it raises the score"
R_WALL_END = "004 Table 6: wall end, not ready pays each ready player its theoretical maximum"
R_WALL_END_FLAT = "002: a ready hand at wall end is worth a flat amount, no doubles"
R_VOID_HELD = "004 Lesson 2: void-suit tiles held at the end, 48 to nobody"
R_VOID_MELD = "004 Lesson 5: a set of the void suit declared, 48 to nobody"
R_FLOWER_PIG = "000 2.3.1: flower pig (three suits at the end) pays each other player"
R_REFEREE = "referee penalty"


@dataclass(frozen=True, slots=True)
class LedgerLine:
    payer: Seat | None
    payee: Seat | None  # None: paid to nobody (a penalty)
    points: int
    why: str
    rule: str

    def __str__(self) -> str:
        to = str(self.payee) if self.payee is not None else "nobody"
        return f"{self.payer} -> {to}: {self.points:>3}  {self.why}  [{self.rule}]"


@dataclass(frozen=True, slots=True)
class Ledger:
    lines: tuple[LedgerLine, ...] = ()

    def deltas(self) -> tuple[int, ...]:
        """Points won (+) or lost (-) per seat, E S W N."""
        out = [0, 0, 0, 0]
        for line in self.lines:
            if line.payer is not None:
                out[line.payer] -= line.points
            if line.payee is not None:
                out[line.payee] += line.points
        return tuple(out)

    def to_nobody(self) -> int:
        return sum(line.points for line in self.lines if line.payee is None)

    def check(self) -> list[str]:
        """Violations of the ledger invariants (empty when all hold)."""
        problems = []
        for line in self.lines:
            if line.points <= 0:
                problems.append(f"non-positive line: {line}")
            if line.payer is None:
                problems.append(f"line paid by nobody: {line}")
            if line.payer is not None and line.payer == line.payee:
                problems.append(f"a seat pays itself: {line}")
        if sum(self.deltas()) != -self.to_nobody():
            problems.append(f"deltas {self.deltas()} do not sum to -{self.to_nobody()}")
        return problems

    def __str__(self) -> str:
        body = "\n".join(str(line) for line in self.lines)
        totals = "  ".join(f"{s}{d:+d}" for s, d in zip(SEATS, self.deltas(), strict=True))
        return f"{body}\n{totals}" if body else totals


# `LedgerLine(payer, payee, points, why, rule)`, slots set from C (a few lines a deal)


def _line(payer: Seat, payee: Seat | None, points: int, why: str, rule: str) -> list[LedgerLine]:
    return [LedgerLine(payer, payee, points, why, rule)] if points > 0 else []


# -- Hu -----------------------------------------------------------------------------------


def hu_on_discard(
    winner: Seat, discarder: Seat, value: int, multiplier: int, why: str
) -> list[LedgerLine]:
    """004 Table 6: the discarder pays A to each winner; WMT: A x the situation multiplier
    (003 B: robbing 2A, discard after a kong 2A, last-minute save 2A)."""
    rule = R_HU_DISCARD if multiplier == 1 else R_WMT_FORMULA
    return _line(discarder, winner, value * multiplier, why, rule)


def self_drawn_hu(
    rs: RuleSet,
    winner: Seat,
    payers: Iterable[Seat],
    value: int,
    multiplier: int,
    why: str,
    kong_discarder: Seat | None = None,
) -> list[LedgerLine]:
    """004 Table 6: each player still in pays A + 1; WMT: A x multiplier + 1 each (003 C:
    moon from the sea bottom 2A+1, kong bloom 4A+1). With `kong_discarder` (003 B, kong
    bloom after a melded kong) that player alone pays."""
    points = value * multiplier + rs.payments.self_drawn_plus
    if kong_discarder is not None:
        return _line(kong_discarder, winner, points, why, R_WMT_KONG_BLOOM)
    rule = R_HU_SELF if multiplier == 1 else R_WMT_FORMULA
    return [line for p in payers for line in _line(p, winner, points, why, rule)]


def false_hu(
    rs: RuleSet, offender: Seat, payees: Iterable[Seat], why: str = "false Hu", rule: str = ""
) -> list[LedgerLine]:
    """004 Lesson 5: the offender pays `false_hu` to each player still in after the
    declaration (WMT 000 3.3: the maximum, 8). A sequential Hu or pung settled as a false
    win (000 2.2.4) names its own `why` and `rule`."""
    pts = rs.payments.false_hu
    rule = rule or (R_FALSE_HU_WMT if "000" in rs.ruleset.follows else R_FALSE_HU)
    return [line for p in payees for line in _line(offender, p, pts, why, rule)]


# -- kongs --------------------------------------------------------------------------------


def kong_payment(
    rs: RuleSet, declarer: Seat, meld: Meld, payers: Iterable[Seat]
) -> list[LedgerLine]:
    """004 Table 7. `payers`: the discarder for a melded kong, else every other player
    still in."""
    kind = meld.kind
    points = _KONG_POINTS[kind](rs.payments)
    why = f"{meld}"
    rule = R_KONG[kind]
    return [line for p in payers for line in _line(p, declarer, points, why, rule)]


# the rule set's payment for each kind of kong (a MeldKind key is hashed in Python: one
# look-up a kong)
_KONG_POINTS: dict[MeldKind, Callable[[PaymentParams], int]] = {
    MeldKind.CONCEALED_KONG: attrgetter("concealed_kong"),
    MeldKind.KONG: attrgetter("melded_kong"),
    MeldKind.PROMOTED_KONG: attrgetter("promoted_kong"),
    MeldKind.POSTPONED_KONG: attrgetter("postponed_kong"),
}


def refund(lines: Iterable[LedgerLine], rule: str) -> list[LedgerLine]:
    """The same payments back, each naming what it returns."""
    return [
        LedgerLine(line.payee, line.payer, line.points, f"refund: {line.why}", rule)
        for line in lines
        if line.payee is not None
    ]


# -- the end of the deal ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EndHand:
    """A player still in when the wall is exhausted."""

    seat: Seat
    counts: tuple[int, ...]  # standing tiles
    melds: tuple[Meld, ...]
    void: Suit | None
    maximum: int  # theoretical maximum (0: not ready; void tiles count as not ready)
    flower_pig: bool  # all three suits held (WMT)

    @property
    def ready(self) -> bool:
        return self.maximum > 0


def wall_end(rs: RuleSet, hands: Sequence[EndHand]) -> list[LedgerLine]:
    """004 Table 6: each not-ready player pays each ready player that player's theoretical
    maximum (002: a flat amount). WMT (000 2.3.1): a flower pig pays `flower_pig` to each
    other player still in who is not a flower pig, instead of the not-ready payments, or
    besides them with `flower_pig_pays_wall_end` (000 2.6)."""
    lines: list[LedgerLine] = []
    params = rs.payments
    pig_rule = params.flower_pig > 0
    ready = [h for h in hands if h.ready]
    if not pig_rule and (not ready or len(ready) == len(hands)):
        return lines  # nobody pays: every player ready, or none
    flat = params.wall_end is WallEndValue.FLAT
    # what each ready player is paid by each not-ready one, made once per ready player
    owed = [
        (
            winner.seat,
            params.wall_end_flat if flat else winner.maximum,
            "not ready at wall end"
            if flat
            else f"not ready at wall end ({winner.seat} ready, maximum {winner.maximum})",
        )
        for winner in ready
    ]
    rule = R_WALL_END_FLAT if flat else R_WALL_END
    for loser in hands:
        if pig_rule and loser.flower_pig:
            for other in hands:
                if other.seat != loser.seat and not other.flower_pig:
                    lines += _line(
                        loser.seat, other.seat, params.flower_pig, "flower pig", R_FLOWER_PIG
                    )
            if not params.flower_pig_pays_wall_end:
                continue
        if loser.ready:
            continue
        for seat, points, why in owed:
            lines += _line(loser.seat, seat, points, why, rule)
    return lines


def void_penalty(rs: RuleSet, seat: Seat, meld: bool, tile: Tile | None = None) -> list[LedgerLine]:
    """004 Lesson 2/5: 48 points to nobody, for a void-suit set declared or void-suit tiles
    held at the end."""
    why = f"void suit meld {tile}" if meld else f"void-suit tile {tile} held at the end"
    rule = R_VOID_MELD if meld else R_VOID_HELD
    return _line(seat, None, rs.payments.void_penalty, why, rule)


def referee_penalty(seat: Seat, points: int, reason: str, to: Seat | None) -> list[LedgerLine]:
    return _line(seat, to, points, reason, R_REFEREE)


def next_dealer(rs: RuleSet, wins: Sequence[Won]) -> Seat:
    """The deal seat of the next dealer (`Seat.E`: the dealer stays), 001 IV 1.2: the first
    winner deals; a false win does not count; nobody won: the dealer stays. Several first
    winners on one discard: `dealer.multiple-hu`."""
    valid = [w for w in wins if not w.false_hu]
    if not valid:
        return Seat.E
    first = min(w.order for w in valid)
    group = [w.seat for w in valid if w.order == first]
    if len(group) == 1:
        return group[0]
    discarder = next(w.from_seat for w in valid if w.order == first)
    assert discarder is not None, "several Hu at once are on one discarded tile"
    if rs.dealer.multiple_hu is MultipleHuDealer.DISCARDER:
        return discarder
    if Seat.E in group:
        return Seat.E
    return min(group, key=lambda s: (s - discarder) % 4)
