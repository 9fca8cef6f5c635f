"""Rule sets: every parameter on which the source documents disagree, loaded from
`rules/rulesets/<name>.toml` into frozen dataclasses (see ../shared/RULES.md).

Each section of the file is one dataclass below; the file's `[ruleset]` header names the
document it follows. `load("sbr-mil")` is cached; `available()` lists the shipped sets.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from pathlib import Path

from rules.errors import RulesError
from rules.schema import SchemaError, build
from rules.tiles import TileSet

DEFAULT = "sbr-mil"


class Indent(Enum):
    """How many stacks are counted off the broken wall: the smaller die or the dice sum."""

    MIN = "min"
    SUM = "sum"


class ReplacementEnd(Enum):
    """Where kong replacement tiles come from: the far end of the wall (tail) or the live end."""

    TAIL = "tail"
    HEAD = "head"


class VoidDiscard(Enum):
    """`strict`: a non-void discard while void tiles are held is rejected;
    `lenient`: allowed, risking the void penalty at the end."""

    STRICT = "strict"
    LENIENT = "lenient"


class VoidSet(Enum):
    """A pung or melded kong claimed on a tile of the claimer's void suit."""

    # accepted, and the void penalty charged (once a deal): 004 Lesson 5 "When a set of
    # forbidden suit tiles is declared, the player always receives a penalty of 48 points"
    PENALIZED = "penalized"
    REFUSED = "refused"  # refused as `void-suit-claim` (the judge's reading before issue 14)


class Multipliers(Enum):
    """How the payment multipliers of two situations of one Hu combine (WMT, 003 B)."""

    PRODUCT = "product"  # each doubles again: discard after a kong + last-minute save = 4A
    LARGEST = "largest"  # only the largest counts: 2A


class ExhaustedWait(Enum):
    """Which copies make a tile no wait when the player holds all four."""

    HELD = "held"  # standing or in the melds (the fifth copy does not exist)
    STANDING = "standing"  # standing only: 004 "all four copies of which are in the standing"


class ScoringMethod(Enum):
    DOUBLING = "doubling"  # SBR/WMT: value = base * 2^min(fans, cap)
    HIGHEST_PATTERN = "highest-pattern"  # Wellness: the single highest pattern's table value


class WallEndValue(Enum):
    """What a not-ready player pays a ready one at wall end."""

    MAXIMUM = "maximum"  # the ready hand's theoretical maximum (004)
    FLAT = "flat"  # a flat amount, no doubles (002, Chengdu 2016)


class KongRefund(Enum):
    """Which kong payments are returned when the deal ends on an exhausted wall."""

    NOT_READY = "not-ready"  # only a declarer who is not ready (004)
    ALL = "all"  # every kong declared this deal (000, literal reading)


class Identity(Enum):
    SICHUAN = "sichuan"
    WELLNESS = "wellness"


@dataclass(frozen=True, slots=True)
class Header:
    name: str
    title: str
    follows: str  # the seed document(s), e.g. "004"
    notes: str = ""
    game: Identity = Identity.SICHUAN


@dataclass(frozen=True, slots=True)
class TilesParams:
    set: TileSet = TileSet.SUITED_108
    # stacks per wall, E S W N, two tiles high
    wall_stacks: tuple[int, ...] = field(
        default=(14, 13, 14, 13), metadata={"length": 4, "range": (1, 40)}
    )


@dataclass(frozen=True, slots=True)
class WallParams:
    indent: Indent = Indent.MIN
    replacement: ReplacementEnd = ReplacementEnd.TAIL


class SequentialClaim(Enum):
    """A Hu held by the skipped-Hu lock (`skip-hu-lock`) or a pung held by the skipped-pung
    lock (`skip-pung-lock`), declared all the same."""

    REFUSED = "refused"  # refused: skipped-hu-lock, skipped-pung-lock (004 Lesson 4)
    # accepted and settled as a false win (000 2.2.4: "Sequential Pungs and Wins are
    # considered false wins unless they increase the total score")
    FALSE_WIN = "false-win"


@dataclass(frozen=True, slots=True)
class PlayParams:
    void_suit: bool = True  # each player chooses a void (forbidden) suit, 定缺
    void_discard: VoidDiscard = VoidDiscard.LENIENT
    void_suit_set: VoidSet = VoidSet.PENALIZED  # a pung or melded kong of the void suit
    chow_claims: bool = False
    claim_seconds: float = field(default=3.0, metadata={"range": (0.5, 60.0)})
    move_seconds: float = field(default=0.0, metadata={"range": (0.0, 600.0)})  # 0 = no clock
    skip_hu_lock: bool = True  # no Hu on a discard after letting a winning discard go by
    skip_pung_lock: bool = False  # WMT: no pung on the same tile after passing it
    sequential_claim: SequentialClaim = SequentialClaim.REFUSED  # a claim held by a lock
    winners_to_end: int = field(default=3, metadata={"range": (1, 3)})


class WinBy(Enum):
    """Which wins a situation applies to."""

    ANY = "any"
    SELF_DRAWN = "self-drawn"
    DISCARD = "discard"


class Payer(Enum):
    """Who pays a win scored with a situation."""

    USUAL = "usual"  # the discarder; on a self-drawn win every player still in the deal
    # 003 B: kong bloom after a melded kong: the discarder of the kong's tile alone pays
    # (multiplier x A + the self-drawn plus); after any other kong the usual payers
    MELDED_KONG_DISCARDER = "melded-kong-discarder"


@dataclass(frozen=True, slots=True)
class Situation:
    """A winning situation, keyed in the TOML by the pattern name it reports.

    SBR adds `fan`; WMT multiplies the hand value A (A*multiplier, 003 B/C). `on` is the
    event the deal judge reports (win-after-kong, shoot-after-kong, robbing-the-kong,
    under-the-sea, heavenly, earthly; empty: the entry's own name); `win` restricts it to
    self-drawn or discard wins."""

    fan: int = field(default=0, metadata={"range": (0, 13)})
    multiplier: int = field(default=1, metadata={"range": (1, 16)})
    on: str = ""
    win: WinBy = WinBy.ANY
    payer: Payer = Payer.USUAL


@dataclass(frozen=True, slots=True)
class ScoringParams:
    method: ScoringMethod = ScoringMethod.DOUBLING
    fan_cap: int = field(default=3, metadata={"range": (0, 13)})
    base_points: int = field(default=1, metadata={"range": (1, 10000)})
    fans: Mapping[str, int] = field(default_factory=dict, metadata={"range": (0, 13)})
    situations: Mapping[str, Situation] = field(default_factory=dict)
    kong_is_root: bool = False  # WMT (000 2.8.3 "With Root"): a declared kong is a root
    # the wall-end theoretical maximum counts declared kongs (their fan, or their root with
    # `kong-is-root`); 004 Lesson 6 prices its example without them ("'Kong' is not
    # suitable, since it requires a declaration")
    maximum_counts_kongs: bool = False
    # two situations of one Hu that both multiply the hand value (003 B)
    situation_multipliers: Multipliers = Multipliers.PRODUCT
    # a tile of which the player holds four copies is no wait (004 Lesson 6 "exhaustive")
    exhausted_wait: ExhaustedWait = ExhaustedWait.HELD
    # a pattern that already contains others (WMT golden hook contains all triplets, 003 A):
    # when it scores, one occurrence of each listed pattern is not counted again
    includes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # highest-pattern (Wellness, 001 V): the points of fan rows 1, 2, ... of the table
    fan_points: tuple[int, ...] = field(default=(), metadata={"range": (0, 100000)})
    # highest-pattern: bonuses added to the hand, in base points (`base-points` each; 001 III 2)
    bonuses: Mapping[str, int] = field(default_factory=dict, metadata={"range": (0, 100)})
    # highest-pattern: the fan row of a complete hand with no table pattern (0: bonuses only)
    plain_hand_fan: int = field(default=0, metadata={"range": (0, 13)})


class FalseHuPayees(Enum):
    """Who receives the false-Hu payment."""

    STILL_IN = "still-in"  # every player still in the deal (004 Lesson 5)
    ALL_OPPONENTS = "all-opponents"  # the three others, winners included (001 III 3.2)


@dataclass(frozen=True, slots=True)
class PaymentParams:
    self_drawn_plus: int = field(default=1, metadata={"range": (0, 100)})
    concealed_kong: int = field(default=2, metadata={"range": (0, 100)})
    melded_kong: int = field(default=2, metadata={"range": (0, 100)})
    promoted_kong: int = field(default=1, metadata={"range": (0, 100)})
    postponed_kong: int = field(default=0, metadata={"range": (0, 100)})
    void_penalty: int = field(default=48, metadata={"range": (0, 10000)})
    void_penalty_waived_if_all_discards_void: bool = True
    # the void penalty also for a player still in when the deal ends on the third Hu (002);
    # 004 Lesson 5: in the 3-Hu final "the non-Hu player's hand is not shown and not checked"
    void_penalty_after_three_hu: bool = False
    false_hu: int = field(default=8, metadata={"range": (0, 10000)})
    false_hu_returns_kong_payments: bool = True
    wall_end: WallEndValue = WallEndValue.MAXIMUM
    wall_end_flat: int = field(default=1, metadata={"range": (0, 10000)})
    kong_refund_on_draw: KongRefund = KongRefund.NOT_READY
    flower_pig: int = field(default=0, metadata={"range": (0, 10000)})  # 0: no such rule
    # a flower pig also pays each ready player the not-ready payment (000 2.6), besides
    # `flower-pig` to each other player (000 2.3.1)
    flower_pig_pays_wall_end: bool = False
    false_hu_payees: FalseHuPayees = FalseHuPayees.STILL_IN
    # Wellness (001 III 3.2): a claim (chow, pung, kong) of a wrong tile pays like a false Hu
    false_claim: int = field(default=0, metadata={"range": (0, 10000)})  # 0: no such rule
    # 001 III 3.4, IV 4.3: the first violations are warnings, each later one costs points
    etiquette_warnings: int = field(default=0, metadata={"range": (0, 10)})
    etiquette_penalty: int = field(default=0, metadata={"range": (0, 10000)})  # 0: none


class MultipleHuDealer(Enum):
    """The next dealer when the deal's first Hu is several players' on one discard."""

    DISCARDER = "discarder"  # 004 Lesson 4, 002
    # 001 IV 1.2: the dealer stays if among them; else (001 silent) the winner nearest
    # after the discarder in turn order
    DEALER_ELSE_NEAREST = "dealer-else-nearest"


@dataclass(frozen=True, slots=True)
class DealerParams:
    multiple_hu: MultipleHuDealer = MultipleHuDealer.DISCARDER


@dataclass(frozen=True, slots=True)
class SessionParams:
    deals: int = field(default=0, metadata={"range": (0, 1000)})  # 0: no deal limit
    minutes: int = field(default=0, metadata={"range": (0, 1440)})  # 0: no time limit
    hands_per_round: int = field(default=0, metadata={"range": (0, 100)})  # WMT: 8
    rank_points: tuple[int, ...] = field(default=(), metadata={"range": (-100, 100)})


@dataclass(frozen=True, slots=True)
class RuleSet:
    ruleset: Header
    tiles: TilesParams = TilesParams()
    wall: WallParams = WallParams()
    play: PlayParams = PlayParams()
    scoring: ScoringParams = ScoringParams()
    payments: PaymentParams = PaymentParams()
    session: SessionParams = SessionParams()
    dealer: DealerParams = DealerParams()

    @property
    def name(self) -> str:
        return self.ruleset.name

    def fan(self, pattern: str) -> int:
        """The fan of a pattern, 0 where this rule set does not score it."""
        return self.scoring.fans.get(pattern, 0)


class UnknownRuleSet(RulesError, LookupError):
    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"unknown rule set {name!r} (available: {', '.join(available())})")


def _dir() -> resources.abc.Traversable:
    return resources.files("rules") / "rulesets"


def available() -> tuple[str, ...]:
    return tuple(sorted(p.name[:-5] for p in _dir().iterdir() if p.name.endswith(".toml")))


def parse(text: str, source: str) -> RuleSet:
    """A rule set from TOML text; `source` names the file in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SchemaError(source, "", None, f"not valid TOML: {err}") from None
    rs = build(RuleSet, data, source)
    tiles_needed = sum(rs.tiles.wall_stacks) * 2
    if tiles_needed != rs.tiles.set.value:
        raise SchemaError(
            source,
            "tiles",
            "wall-stacks",
            f"walls hold {tiles_needed} tiles, the set has {rs.tiles.set.value}",
        )
    return rs


@functools.cache
def load(name: str = DEFAULT) -> RuleSet:
    """A shipped rule set by name, or a path to a TOML file."""
    if name.endswith(".toml"):
        path = Path(name)
        return parse(path.read_text(encoding="utf-8"), str(path))
    res = _dir() / f"{name}.toml"
    if not res.is_file():
        raise UnknownRuleSet(name)
    return parse(res.read_text(encoding="utf-8"), f"rules/rulesets/{name}.toml")
