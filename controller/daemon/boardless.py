"""A table whose board does not say what the table does (issue 18 item 2): `--table none`
(no serial link at all), or a table profile without the `shuffle-done`, `walls-up` or
`dice` events (a board with seat buttons only). The reader stands in for the board
(`BoardStandIn`) and gives the core the same events a board sends, so the table machine, the
deal cycle and the recogniser stay one path:

- **the shuffle** (`ShuffleDone`): every tile has left the zones (the table is read empty
  for a whole debounce window), or a tile crosses the wall antenna while no deal is being
  built (a fast table building its walls before the hands were read empty);
- **the walls** (`WallsUp`): the wall antenna's scan is complete;
- **the dice** (`DiceRolled`): where the dealt hands came from in the scanned wall. Each
  roll breaks the wall at one place (rules.wall: the sum picks the wall, the smaller die or
  the sum the indent) and deals fixed positions to each seat; the reading is the break and
  the dealer's side under which every tile read in a hand (or laid on a void spot) is one
  that hand was dealt. Several rolls break the wall at the same place (1+1 and 1+5 under
  `indent = "min"`, every roll of one sum under `"sum"`): they deal the same deal, so the
  judge starts at once; `deal.started` journals `dice_readings` and an alert asks the
  referee which was rolled. Two *breaks* that fit the whole dealt deal (a wall scan that
  cannot be right) call the referee, the readings in the alert, and no deal starts.

Nothing is inferred while the daemon is degraded or recovering (the presence is not yet
believed); what the table is then is read again once it is ready.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from controller.alerts import AlertKind
from controller.daemon.candidates import Candidate
from controller.daemon.machine import TableMachine
from controller.devices.events import ShuffleDone, TagsRead, WallsUp
from controller.locale import Said, counted, says
from controller.profiles import EventKind, TableProfile, TileCopy, Zone, ZoneKind
from controller.recognition.presence import Debouncer, TileLifted, TilePlaced
from controller.words import seat_said
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat
from rules.wall import DEALT_TILES, Dice, Wall

log = logging.getLogger(__name__)

# the board's events the reader can stand in for
INFERABLE = (EventKind.SHUFFLE_DONE, EventKind.WALLS_UP, EventKind.DICE)
# phases in which no deal is being built or dealt: a tile crossing the wall antenna then is
# the next deal's walls being built
BETWEEN_DEALS = ("idle", "settled", "deal_over")
# phases in which the table's emptiness is a shuffle (a deal in play emptied is abandoned)
SHUFFLE_FROM = (*BETWEEN_DEALS, "choosing_void", "playing")
MAX_MISFITS = 2  # a whole dealt deal fitting one break but for this many tiles: that break
# tiles leaving the zones in one reader round, none arriving, beyond what any move lifts (a
# kong: four): the table is being cleared for the shuffle
CLEARING = 8


def inferred(profile: TableProfile | None) -> frozenset[EventKind]:
    """The events the reader stands in for: those the table profile lacks (no profile: a
    table with no serial link, all of them)."""
    if profile is None:
        return frozenset(INFERABLE)
    return frozenset(k for k in INFERABLE if profile.event(k) is None)


@dataclass(frozen=True, slots=True)
class DiceReading:
    """One way the table may have been dealt: a roll, the dealer's (physical) side, and the
    break it makes (the physical index of the first tile dealt)."""

    dice: Dice  # a <= b: dice are not told apart
    dealer: Seat
    first: int

    def to_json(self) -> dict[str, object]:
        return {"dice": [self.dice.a, self.dice.b], "dealer": self.dealer.name}


@dataclass(frozen=True, slots=True)
class DiceFound:
    """The best readings of the hands: one break (`decided`), or several for the referee."""

    readings: tuple[DiceReading, ...]  # every roll of the best break(s), lowest first
    seen: int  # tiles read in the hands
    misfits: int  # tiles of the hands the best break did not deal there

    @property
    def decided(self) -> bool:
        return len({(r.dealer, r.first) for r in self.readings}) == 1


class DealtFrom:
    """Which break of a scanned wall the hands were dealt from.

    `order` is the scanned wall (tile copies, physical order). Each distinct break the dice
    can make is dealt once (rules.wall), giving the deal seat of every dealt tile copy."""

    def __init__(self, rs: RuleSet, order: Sequence[TileCopy]) -> None:
        self.order = tuple(order)
        tiles = tuple(tc.tile for tc in self.order)
        self._dealt: dict[int, dict[TileCopy, Seat]] = {}
        self._rolls: dict[int, list[Dice]] = {}
        for a, b in combinations_with_replacement(range(1, 7), 2):
            dice = Dice(a, b)
            wall = Wall(rs, dice, tiles)
            plan = wall.deal_out()
            first = plan[0][1]
            self._rolls.setdefault(first, []).append(dice)
            if first not in self._dealt:
                self._dealt[first] = {self.order[i]: seat for seat, i in plan}

    def rolls(self, first: int) -> tuple[Dice, ...]:
        return tuple(self._rolls.get(first, ()))

    def fit(self, hands: Mapping[TileCopy, Seat]) -> DiceFound:
        """`hands`: each tile copy read in a hand (or on a void spot) → the physical side it
        lies at. The breaks and dealer sides with the fewest tiles out of place."""
        scores: list[tuple[int, Seat, int]] = []
        for first, dealt in self._dealt.items():
            for side in SEATS:
                misfits = 0
                for tc, at in hands.items():
                    seat = dealt.get(tc)
                    if seat is None or SEATS[(seat + side) % 4] is not at:
                        misfits += 1
                scores.append((misfits, side, first))
        best = min(s[0] for s in scores)
        readings = tuple(
            DiceReading(dice, side, first)
            for misfits, side, first in sorted(scores, key=lambda s: (s[2], s[1]))
            if misfits == best
            for dice in self.rolls(first)
        )
        return DiceFound(readings, len(hands), best)


def hand_tiles(presence: Mapping[TileCopy, Zone]) -> dict[TileCopy, Seat]:
    """The tiles of a presence that lie in a hand or on a void spot (a tile laid for the
    void choice was dealt to that hand), with their side."""
    return {
        tc: z.seat
        for tc, z in presence.items()
        if z.kind in (ZoneKind.HAND, ZoneKind.VOID) and z.seat is not None
    }


def judge(found: DiceFound) -> DiceFound | None:
    """Whether the hands say the dice yet: one break (and dealer side) fits every tile read,
    at least 8 of them (a break a round earlier, or a dealer a side round with the break two
    stacks on, fits a half-dealt table when a roll makes it: at the latest East's jump tells
    them apart); once the whole deal is read, the best fit, for the referee to answer unless
    it is one break missing at most MAX_MISFITS tiles (`settled`). None: not yet."""
    if not found.readings:
        return None
    if found.misfits == 0 and found.decided and found.seen >= 8:
        return found
    if found.seen >= DEALT_TILES:
        return found
    return None


def settled(found: DiceFound) -> bool:
    """The reading starts the deal: one break, at most MAX_MISFITS tiles out of place."""
    return found.decided and found.misfits <= MAX_MISFITS


def empty_table(presence: Mapping[TileCopy, Zone]) -> bool:
    """No tile in any zone but the wall spot."""
    return all(z.kind is ZoneKind.WALL for z in presence.values())


@dataclass(frozen=True, slots=True)
class DiceInferred:
    """The dice no board reported: read off the dealt hands, or answered by the referee. The
    deal starts from them as from the board's `DiceRolled`, the dealer at `dealer` (the
    physical side); `note` is what `deal.started` records of where they came from."""

    t: float
    dice: Dice
    dealer: Seat
    note: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class BoardAlert:
    """What the reading of the dice tells the referee (an `alert` record)."""

    kind: AlertKind
    text: Said
    severity: str = "warning"
    readings: tuple[DiceReading, ...] = ()


@dataclass(frozen=True, slots=True)
class DiceAsked:
    """The hands fit several breaks, or none well: the referee is called, each reading a
    candidate the referee page applies with one tap (`BoardStandIn.answer_dice`)."""

    kind: AlertKind
    text: Said
    candidates: tuple[Candidate, ...]
    readings: tuple[DiceReading, ...]


# what the stand-in gives the core, in the order the core is to take it
BoardNews = ShuffleDone | WallsUp | DiceInferred | BoardAlert | DiceAsked


class BoardStandIn:
    """The reader standing in for the board's `inferred` events. Its methods yield what it
    reads (`BoardNews`) as the table driver yields its events: the core takes each before
    the next is read, so the phase the stand-in looks at is the table machine's at that
    moment. The core calls it only while it is ready (not degraded, recovering or stopped)
    and once the reader has settled."""

    def __init__(
        self,
        rs: RuleSet,
        inferred: frozenset[EventKind],
        debouncer: Debouncer,
        machine: TableMachine,
    ) -> None:
        self.rs = rs
        self.inferred = inferred
        self._debouncer = debouncer
        self._machine = machine
        self._dealt_from: DealtFrom | None = None
        self._dice_found: DiceFound | None = None
        self._hands_key: frozenset[tuple[TileCopy, Seat]] | None = None
        self.clearing = False  # the tiles are leaving for the machine (`round_changes`)
        self.shuffle_heard = False  # a shuffle was handled since the daemon started

    def round_changes(self, changes: Sequence[object]) -> None:
        """Whether the table is being cleared for a shuffle the reader stands in for: a round
        lifted CLEARING tiles or more and placed none; until a tile is placed again or the
        shuffle is read, tiles are read against no deal (`Runtime._as_seen`). A deal's
        residue growing tile by tile as the tiles left for the machine sent the recogniser
        searching it for moves: seconds of the core's time a round, the reader unpolled."""
        if EventKind.SHUFFLE_DONE not in self.inferred:
            return
        if any(isinstance(c, TilePlaced) for c in changes):
            self.clearing = False
        elif sum(isinstance(c, TileLifted) for c in changes) >= CLEARING:
            self.clearing = True

    def wall_read(self, ev: TagsRead, ready: bool) -> ShuffleDone | None:
        """A known tile crossing the wall antenna between deals: the walls are being built,
        so the shuffle happened (judged before the read goes to the wall scan). A board's
        shuffle too, before any was heard since the daemon started: it came while the
        daemon was down (campaign seed 200 deal 87: killed at a settlement, restarted
        after the board's shuffle; its walls and dice were ignored and the deal lost).
        `ready`: the core judges now and the reader has settled."""
        if not ready or self._machine.phase not in BETWEEN_DEALS:
            return None
        if EventKind.SHUFFLE_DONE not in self.inferred and self.shuffle_heard:
            return None
        if any(self._debouncer.tags.lookup(uid) is not None for uid in ev.uids):
            return ShuffleDone(ev.t)
        return None

    def round_ended(
        self, t: float, scan: tuple[TileCopy, ...] | None, playing: bool, dealer: Seat
    ) -> Iterator[BoardNews]:
        """At the end of a reader round: the shuffle, the walls, the dice. `scan` is the
        wall scan (None: not complete), `playing` whether a deal is still being played
        (no dice are read then), `dealer` the side the core takes for the next dealer."""
        if not self.inferred:
            return
        phase = self._machine.phase.split(".")[0]
        shuffles = EventKind.SHUFFLE_DONE in self.inferred and phase in SHUFFLE_FROM
        if shuffles and empty_table(self._debouncer.presence()):
            self.clearing = False
            yield ShuffleDone(t)
            return
        walls = EventKind.WALLS_UP in self.inferred and scan is not None
        if walls and self._machine.can("walls_raised"):
            yield WallsUp(t)
        dice = EventKind.DICE in self.inferred and scan is not None and not playing
        if dice and scan is not None and self._machine.phase == "walls_up":
            yield from self._read_dice(t, scan, dealer)

    def _read_dice(self, t: float, scan: tuple[TileCopy, ...], dealer: Seat) -> Iterator[BoardNews]:
        if self._dealt_from is None or self._dealt_from.order != scan:
            try:
                self._dealt_from = DealtFrom(self.rs, scan)
            except ValueError as err:  # not a full set: the deal cycle says so at the dice
                log.debug("no dice from a wall that cannot be dealt: %s", err)
                return
            self._hands_key = self._dice_found = None
        hands = hand_tiles(self._debouncer.presence())
        key = frozenset(hands.items())
        if key == self._hands_key:
            return  # nothing new in the hands
        self._hands_key = key
        found = judge(self._dealt_from.fit(hands))
        if found is None or found == self._dice_found:
            return
        self._dice_found = found
        if not settled(found):
            yield dice_asked(found)
            return
        reading = found.readings[0]
        note: dict[str, object] = {"dice_from": "hands"}
        if len(found.readings) > 1:
            note["dice_readings"] = [[r.dice.a, r.dice.b] for r in found.readings]
        if found.misfits:
            yield BoardAlert(
                AlertKind.DICE_MISFIT,
                counted(
                    found.misfits,
                    "the dealt hands fit dice {dice} but for {n} tile",
                    "the dealt hands fit dice {dice} but for {n} tiles",
                    dice=str(reading.dice),
                ),
            )
        if reading.dealer is not dealer:
            log.info("the dealt hands put the dealer at side %s", reading.dealer)
        yield DiceInferred(t, reading.dice, reading.dealer, note)
        if len(found.readings) > 1:
            rolls = _either([str(r.dice) for r in found.readings])
            yield BoardAlert(
                AlertKind.DICE_READINGS,
                says(
                    "the dealt hands fit the dice {rolls}: the same deal; which was rolled?",
                    rolls=rolls,
                ),
                "info",
                found.readings,
            )

    def answer_dice(
        self, t: float, dice: Dice, dealer: Seat, who: str, why: str, playing: bool
    ) -> DiceInferred | Said:
        """The referee says which dice were rolled and where the dealer sits (the answer
        to `dice-ambiguous` / `dice-unread`, or to a table whose hands were never read
        whole): the deal starts as if the board had said it; `deal.started` journals
        `dice_from: "referee"` with who and why. A sentence: why the answer is not taken."""
        if EventKind.DICE not in self.inferred:
            return Said("this table's board reports its dice")
        if self._machine.phase != "walls_up" or playing:
            return Said("no dice are awaited now (the walls are not up, or a deal is in progress)")
        return DiceInferred(t, dice, dealer, {"dice_from": "referee", "referee": who, "why": why})


def dice_asked(found: DiceFound) -> DiceAsked:
    """The referee's call for dice the hands do not tell: each reading a candidate."""
    texts = _readings_words(found.readings)
    several = not found.decided
    problem = (
        Said("The dealt hands fit several breaks of the wall: which dice were rolled?")
        if several
        else Said("The dealt hands fit no break of the wall: which dice were rolled?")
    )
    offered = tuple(
        Candidate(
            says(
                "Dice {dice}, the dealer at {seat}", dice=str(r.dice), seat=seat_said(r.dealer.name)
            ),
            action={"kind": "dice", "dice": f"{r.dice.a}+{r.dice.b}", "seat": r.dealer.name},
            headline=problem,
        )
        for r in found.readings
    )
    return DiceAsked(
        AlertKind.DICE_AMBIGUOUS if several else AlertKind.DICE_UNREAD,
        counted(
            found.misfits,
            "the dealt hands fit {readings} but for {n} tile",
            "the dealt hands fit {readings} but for {n} tiles",
            readings=texts,
        ),
        offered,
        found.readings,
    )


def _readings_words(readings: Iterable[DiceReading]) -> Said | str:
    return _either(
        [
            says(
                "dice {dice} with the dealer at {seat}",
                dice=str(r.dice),
                seat=seat_said(r.dealer.name),
            )
            for r in readings
        ]
    )


def _either(ways: Sequence[str | Said]) -> Said | str:
    """ "a or b or c", said in the reader's language."""
    listed: Said | str = ways[0]
    for way in ways[1:]:
        listed = says("{first} or {second}", first=listed, second=way)
    return listed
