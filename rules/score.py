"""What a scored hand is worth: the values the scorers (`rules.scoring` for Sichuan, WMT
and SBR; `rules.wellness` for highest-pattern rule sets) produce and the deal judge reads
(`rules.moves.Won.score`), and the hand value of a fan total (004 Lesson 5; 001 V)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.ruleset import Payer, ScoringMethod, ScoringParams


@dataclass(frozen=True, slots=True)
class PatternHit:
    """One occurrence of a pattern: its name, the fan it adds and why it applies."""

    name: str
    fan: int
    reason: str


@dataclass(frozen=True, slots=True)
class Bonus:
    """Wellness (001 III 2): base points added to a hand's pattern value, and why."""

    name: str
    base: int  # in base points
    points: int  # base x the rule set's base-points
    reason: str


@dataclass(frozen=True, slots=True)
class Score:
    """The best reading of a winning hand. `value` is the hand value A (doubling and cap
    applied); WMT situations multiply it (`multiplier`, 003 B/C) and may change who pays.
    Wellness (`highest-pattern`): one pattern, and `value` includes the `bonuses`."""

    patterns: tuple[PatternHit, ...]
    total_fan: int
    value: int
    multiplier: int = 1
    payer: Payer = Payer.USUAL
    bonuses: tuple[Bonus, ...] = ()

    def count(self, name: str) -> int:
        return sum(1 for p in self.patterns if p.name == name)


def hand_value(total_fan: int, scoring: ScoringParams) -> int:
    """004 Lesson 5: base doubled once per fan, up to the cap (Table 5). Wellness (001 V):
    the points of the fan's row of the table (0 fan: 0), bonuses not included."""
    if scoring.method is ScoringMethod.HIGHEST_PATTERN:
        rows = scoring.fan_points
        return rows[min(total_fan, len(rows)) - 1] if total_fan > 0 and rows else 0
    return scoring.base_points << min(max(total_fan, 0), scoring.fan_cap)
