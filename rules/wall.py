"""The physical wall: geometry, the dice and the break, dealing, live and replacement draws.

Physical order of a wall (the `order` tuple given to `Wall`, as the simulator builds it and
the wall-scan antenna reports it): the four walls **clockwise seen from above, starting at
the right end of East's wall** — East, North, West, South — each wall's stacks from its
owner's right end to the left end, each stack **top tile, then bottom tile**. So `order[0]`
is the top tile of the stack at East's right end (beside South), `order[1]` the bottom tile
under it, `order[2]` the top of East's second stack, ... and after East's last stack comes
the stack at the right end of North's wall (beside East). Seats are those of the deal: East
is the dealer, whichever physical side of the table that is.

004 Lesson 2 and RULES.md "The physical table":
- walls are `rs.tiles.wall_stacks` stacks (E S W N; 14/13/14/13 for 108 tiles), two high;
- the dice **sum** picks the wall to break, counting players counter-clockwise from East
  as 1 (5/9 East, 2/6/10 South, 3/7/11 West, 4/8/12 North);
- the **indent** (the smaller die, or the sum: `rs.wall.indent`) is counted in stacks
  clockwise from the right end of that wall; the wall breaks after it;
- tiles are taken clockwise from the break: E, S, W, N take two stacks each, three times;
  then East the tops of the 1st and 3rd stacks, South the bottom of the 1st, West the top of
  the 2nd, North the bottom of the 2nd ("East's jump");
- live draws continue clockwise, top before bottom; kong replacements come from the other
  end (`tail`, the stack just before the break, counter-clockwise from there) or the live
  end (`head`). At the tail the top tile is taken before the bottom one (004 does not say;
  it is the tile a hand lifts off a stack).

Unknown positions: a table without a wall antenna (DESIGN.md "a table may lack some zones")
knows only the tiles the reader sees arrive in the hands. Its wall order holds `None` where
the tile is not known; `dealt_order` builds such an order from the dealt hands as read. The
geometry (tiles left, the last tile, where every draw comes from) stays exact; a take from an
unknown position must name the tile it turned out to be, and that tile must still be
possible (fewer than four copies known so far, the wall's known tiles and the hands
included).

`Wall` is the only mutable object here; it never allows a tile to be taken twice.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from rules.errors import RulesError
from rules.ruleset import Indent, ReplacementEnd, RuleSet
from rules.seats import SEATS, Seat
from rules.tiles import Tile, TileSet, to_counts

# Walls in physical (clockwise) order, see the module docstring.
RING: tuple[Seat, ...] = (Seat.E, Seat.N, Seat.W, Seat.S)
DEALT_TILES = 53  # 14 + 3 * 13


class Layer(Enum):
    TOP = "top"
    BOTTOM = "bottom"


@dataclass(frozen=True, slots=True)
class WallPosition:
    """Where a tile lies: whose wall, stack counted from that wall's right end (0-based,
    clockwise), and top or bottom."""

    wall: Seat
    stack: int
    layer: Layer

    def __str__(self) -> str:
        return f"{self.wall} wall stack {self.stack + 1} {self.layer.value}"


@dataclass(frozen=True, slots=True)
class Dice:
    """East's single roll of two dice."""

    a: int
    b: int

    def __post_init__(self) -> None:
        if not (1 <= self.a <= 6 and 1 <= self.b <= 6):
            raise ValueError(f"dice show 1-6, not {self.a}+{self.b}")

    @property
    def total(self) -> int:
        return self.a + self.b

    @property
    def low(self) -> int:
        return min(self.a, self.b)

    def __str__(self) -> str:
        return f"{self.a}+{self.b}"


@dataclass(frozen=True, slots=True)
class Break:
    """The wall to break and the indent in stacks (004 Lesson 2)."""

    wall: Seat
    indent: int


def wall_for(total: int) -> Seat:
    """The wall picked by a dice sum: players counted counter-clockwise from East as 1."""
    return SEATS[(total - 1) % 4]


def break_for(dice: Dice, indent: Indent = Indent.MIN) -> Break:
    """004 Lesson 2: the sum picks the wall, the smaller die (or the sum) is the indent."""
    return Break(wall_for(dice.total), dice.low if indent is Indent.MIN else dice.total)


@dataclass(frozen=True, slots=True)
class Take:
    """One tile taken from the wall: by whom, which tile, and from where."""

    seat: Seat
    tile: Tile
    position: WallPosition
    index: int  # index into the physical order


class WallError(RulesError, ValueError):
    """A wall order that is not a full set, or a take from an empty wall."""


class Geometry:
    """Where every physical index lies, for given stacks per wall (E S W N)."""

    __slots__ = ("_offset", "_positions", "stacks", "total_stacks")

    def __init__(self, stacks: tuple[int, ...]) -> None:
        self.stacks = stacks  # E S W N
        self._offset: dict[Seat, int] = {}
        at = 0
        for seat in RING:
            self._offset[seat] = at
            at += stacks[seat]
        self.total_stacks = at
        self._positions = tuple(self._locate(i) for i in range(2 * at))

    def first_stack(self, brk: Break) -> int:
        """Ring index of the first stack after the break (the first one dealt)."""
        return (self._offset[brk.wall] + brk.indent) % self.total_stacks

    def position(self, index: int) -> WallPosition:
        if 0 <= index < len(self._positions):
            return self._positions[index]
        return self._locate(index)

    def _locate(self, index: int) -> WallPosition:
        stack, layer = divmod(index, 2)
        for seat in reversed(RING):
            if stack >= self._offset[seat]:
                return WallPosition(seat, stack - self._offset[seat], _LAYERS[layer])
        raise WallError(f"no wall position {index}")  # pragma: no cover - offsets start at 0

    def index(self, pos: WallPosition) -> int:
        return 2 * (self._offset[pos.wall] + pos.stack) + (pos.layer is Layer.BOTTOM)


_LAYERS = (Layer.TOP, Layer.BOTTOM)


@cache
def geometry_of(stacks: tuple[int, ...]) -> Geometry:
    """The (immutable) geometry of a wall of `stacks`, built once per size."""
    return Geometry(stacks)


@cache
def _full_counts(tileset: TileSet) -> tuple[int, ...]:
    return tuple(to_counts(full_set(tileset)))


@cache  # a handful of breaks (live orders), one plan each
def _deal_plan(n: int, first: int) -> tuple[tuple[Seat, int], ...]:
    live = _draw_orders(n, first)[0]
    plan: list[tuple[Seat, int]] = []
    for rnd in range(3):
        for seat in SEATS:
            base = 16 * rnd + 4 * seat
            plan.extend((seat, live[base + k]) for k in range(4))
    # East's jump: tops of the 1st and 3rd stacks, S bottom of 1st, W top of 2nd,
    # N bottom of 2nd.
    for seat, k in ((Seat.E, 48), (Seat.E, 52), (Seat.S, 49), (Seat.W, 50), (Seat.N, 51)):
        plan.append((seat, live[k]))
    return tuple(plan)


@cache
def _dealt_by_seat(n: int, first: int) -> tuple[tuple[int, ...], ...]:
    """`_deal_plan`'s indices grouped by seat (East to North), each in take order."""
    plan = _deal_plan(n, first)
    return tuple(tuple(i for s, i in plan if s is seat) for seat in SEATS)


@cache
def _dealt_mask(n: int, first: int) -> bytes:
    """`_deal_plan`'s indices as a mask of the wall: 1 where a tile is dealt."""
    mask = bytearray(n)
    for _, i in _deal_plan(n, first):
        mask[i] = 1
    return bytes(mask)


@cache
def _draw_orders(n: int, first: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Physical indices in live draw order (clockwise from the break at index `first`) and
    in replacement order (the stack before the break first, top then bottom, then
    counter-clockwise)."""
    live = tuple((first + i) % n for i in range(n))
    last_stack = first // 2 - 1
    nstacks = n // 2
    tail = tuple(2 * ((last_stack - j // 2) % nstacks) + j % 2 for j in range(n))
    return live, tail


@cache
def full_set(tileset: TileSet) -> tuple[Tile, ...]:
    """Four of every kind of the set, in tile order (a wall before its shuffle)."""
    return tuple(t for t in tileset.kinds for _ in range(4))


def check_order(order: tuple[Tile | None, ...], tileset: TileSet) -> None:
    """A wall order must hold every tile of the set exactly four times; with unknown
    positions (`None`), no tile of the set may be known more than four times."""
    _check(order, tileset)


def _check(order: tuple[Tile | None, ...], tileset: TileSet) -> bool:
    """`check_order`; True when every position is known (no `None`)."""
    if len(order) != tileset.value:
        raise WallError(f"a wall of a {tileset.value}-tile set has {len(order)} tiles")
    if None in order:
        _check_known([t for t in order if t is not None], tileset, "the wall holds")
        return False
    counts = Counter(order)  # counted in C: every deal starts here
    for tile in tileset.kinds:
        if counts[tile] != 4:
            raise WallError(f"the wall holds {counts[tile]} copies of {tile}, not 4")
    if len(tileset.kinds) * 4 == len(order):
        return True  # four of every kind fill the wall: no room for a tile of another set
    extra = [t for t in order if t is not None and not tileset.contains(t)]
    if extra:
        raise WallError(f"{extra[0]} is not in a {tileset.value}-tile set")
    return True


def _check_known(tiles: Sequence[Tile], tileset: TileSet, what: str) -> None:
    extra = [t for t in tiles if not tileset.contains(t)]
    if extra:
        raise WallError(f"{extra[0]} is not in a {tileset.value}-tile set")
    counts = to_counts(tiles)
    for tile in tileset.kinds:
        if counts[tile] > 4:
            raise WallError(f"{what} {counts[tile]} copies of {tile}: a set has four")


class Wall:
    """The wall of one deal: dealing, live draws and replacement draws.

    `Wall(rs, dice, order)` checks the order and breaks the wall (`Wall.shuffled(rs, rng)`
    shuffles the full set itself: nothing to check); `deal()` returns the 53 takes of the
    deal in the order they happen (`deal_out()` deals without building them); then
    `draw()` and `replacement()` take one tile each (a `Take`; `take(index)` the tile alone,
    at `next_index()` or `next_replacement_index()`),
    and `tiles_left` counts what remains. `order[i] is None` where the tile is not known:
    `deal()` needs the dealt positions known, and `draw(seat, tile)` /
    `replacement(seat, tile)` on an unknown position must name a `possible` tile.
    """

    __slots__ = (
        "_head",
        "_live",
        "_positions",
        "_seen",
        "_tail",
        "_tail_at",
        "_taken",
        "brk",
        "complete",
        "dice",
        "geometry",
        "last_index",
        "order",
        "replacement_end",
        "tiles_left",
        "tileset",
    )

    def __init__(self, rs: RuleSet, dice: Dice, order: Sequence[Tile | None]) -> None:
        order = tuple(order)
        self._setup(rs, dice, order, _check(order, rs.tiles.set))

    @classmethod
    def shuffled(cls, rs: RuleSet, rng: random.Random) -> Wall:
        """A wall as the table makes it: the full set shuffled (`rng.shuffle`), then East's
        roll of the dice (two `rng.randint(1, 6)`), in that order. The order is a
        permutation of `full_set` by construction, so `check_order` is not asked."""
        tiles = list(full_set(rs.tiles.set))
        rng.shuffle(tiles)
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        wall = cls.__new__(cls)
        wall._setup(rs, dice, tuple(tiles), True)
        return wall

    def _setup(
        self, rs: RuleSet, dice: Dice, order: tuple[Tile | None, ...], complete: bool
    ) -> None:
        """Break a checked `order` (`complete`: it holds no `None`)."""
        self.order = order
        self.complete = complete  # every tile known (a scanned or shuffled wall)
        self.tileset = rs.tiles.set
        # copies of each tile known so far: the known order, then tiles named on unknown takes
        if complete:  # a full wall (checked): four of every kind of the set
            self._seen = list(_full_counts(self.tileset))
        else:
            self._seen = to_counts(t for t in order if t is not None)
        self.dice = dice
        self.geometry = geometry_of(rs.tiles.wall_stacks)
        # `geometry.position(i)` as its table: every index of a wall is in it
        self._positions = self.geometry._positions
        self.brk = break_for(dice, rs.wall.indent)
        self.replacement_end = rs.wall.replacement
        n = len(order)
        first = 2 * self.geometry.first_stack(self.brk)
        self._live, self._tail = _draw_orders(n, first)
        self._taken = bytearray(n)
        self._head = 0
        self._tail_at = 0
        self.tiles_left = n
        self.last_index = -1  # the physical index of the last tile taken after the deal

    def _take(self, seat: Seat, index: int, tile: Tile | None = None) -> Take:
        return Take(seat, self.take(index, tile), self._positions[index], index)

    def take(self, index: int, tile: Tile | None = None) -> Tile:
        """Take the tile at `index` (named `tile` by the reader, required where the wall
        is not known): the tile taken."""
        known = self.order[index]
        if known is None:
            if tile is None:
                raise WallError(f"the tile at {self.geometry.position(index)} is not known")
            if not self.possible(tile):
                raise WallError(f"{tile} cannot be drawn: {self._why_impossible(tile)}")
            self._seen[tile] += 1
            known = tile
        elif tile is not None and tile != known:
            raise WallError(f"the tile at {self.geometry.position(index)} is {known}, not {tile}")
        self._taken[index] = 1
        self.tiles_left -= 1
        self.last_index = index
        if self.tiles_left and index == self._live[self._head]:
            self._skip_taken()
        return known

    def _skip_taken(self) -> None:
        """Move the live head past taken positions: the next live draw is at the head (a
        replacement off the tail may have taken a position ahead of it)."""
        live, taken, head = self._live, self._taken, self._head
        while head < len(live) and taken[live[head]]:
            head += 1
        self._head = head

    def take_at(self, seat: Seat, tile: Tile, index: int) -> Take:
        """The `Take` of `tile`, taken by `seat` from physical `index`."""
        return Take(seat, tile, self._positions[index], index)

    def deal_plan(self) -> tuple[tuple[Seat, int], ...]:
        """Who takes which physical index, for the 53 takes of the deal (004 Lesson 2)."""
        return _deal_plan(len(self._live), self._live[0])

    def dealt_by_seat(self) -> tuple[tuple[int, ...], ...]:
        """The physical indices each seat is dealt (East to North), in take order."""
        return _dealt_by_seat(len(self._live), self._live[0])

    def deal(self) -> tuple[Take, ...]:
        """The 53 takes of the deal (004 Lesson 2), East's jump included."""
        self.deal_out()
        return self.dealt_takes()

    def deal_out(self) -> tuple[tuple[Seat, int], ...]:
        """Deal (004 Lesson 2): the 53 dealt positions leave the wall; returns `deal_plan()`.
        `deal()` is this and the takes (`dealt_takes()`)."""
        if self._head:
            raise WallError("the wall has already been dealt")
        plan = self.deal_plan()
        order, taken = self.order, self._taken
        if not self.complete:
            unknown = [i for _, i in plan if order[i] is None]
            if unknown:
                where = self.geometry.position(unknown[0])
                raise WallError(f"{len(unknown)} dealt tiles are not known ({where} first)")
        if taken.find(1) < 0:  # nothing taken before (always, but for a replacement)
            taken[:] = _dealt_mask(len(self._live), self._live[0])  # one copy, not 53 stores
        else:
            for _, i in plan:
                taken[i] = 1
        self.tiles_left -= len(plan)
        self._head = DEALT_TILES
        self._skip_taken()
        return plan

    def dealt_takes(self) -> tuple[Take, ...]:
        """The 53 takes of the deal in the order they happen (built when asked: the judge
        needs only the tiles)."""
        takes = []
        for seat, i in self.deal_plan():
            tile = self.order[i]
            assert tile is not None  # the dealt positions are known (checked when built)
            takes.append(Take(seat, tile, self._positions[i], i))
        return tuple(takes)

    def peek(self) -> Tile | None:
        """The next live tile, or None when the wall is exhausted or the tile not known."""
        i = self._next_live()
        return None if i is None else self.order[i]

    def peek_replacement(self) -> Tile | None:
        i = self._next_replacement()
        return None if i is None else self.order[i]

    def next_index(self) -> int | None:
        """Physical index of the next live draw (None when the wall is exhausted)."""
        return self._next_live()

    def next_replacement_index(self) -> int | None:
        """Physical index of the next replacement tile (None when the wall is exhausted)."""
        return self._next_replacement()

    def possible(self, tile: Tile) -> bool:
        """Whether an unknown position may hold `tile`: it is of the set and fewer than four
        copies are known (the known order, dealt tiles included, and earlier named takes)."""
        return self.tileset.contains(tile) and self._seen[tile] < 4

    def _why_impossible(self, tile: Tile) -> str:
        if not self.tileset.contains(tile):
            return f"it is not in a {self.tileset.value}-tile set"
        return "all four copies are known already"

    def _next_live(self) -> int | None:
        return self._live[self._head] if self.tiles_left else None

    def _next_replacement(self) -> int | None:
        if self.replacement_end is ReplacementEnd.HEAD:
            return self._next_live()
        if not self.tiles_left:
            return None
        at = self._tail_at
        while self._taken[self._tail[at]]:
            at += 1
        self._tail_at = at
        return self._tail[at]

    def draw(self, seat: Seat, tile: Tile | None = None) -> Take:
        """A live draw, clockwise from the break; `tile` (what the reader saw) is required
        on an unknown position and checked on a known one."""
        i = self._next_live()
        if i is None:
            raise WallError("the wall is exhausted")
        return self._take(seat, i, tile)

    def replacement(self, seat: Seat, tile: Tile | None = None) -> Take:
        """A kong replacement tile, from the replacement end; `tile` as for `draw`."""
        i = self._next_replacement()
        if i is None:
            raise WallError("no replacement tile left")
        return self._take(seat, i, tile)

    @property
    def exhausted(self) -> bool:
        return not self.tiles_left

    def remaining(self) -> tuple[int, ...]:
        """Physical indices of the tiles still in the wall, in live draw order."""
        return tuple(i for i in self._live if not self._taken[i])

    def replacements_left(self) -> tuple[int, ...]:
        """Physical indices of the tiles still in the wall, in replacement draw order."""
        return tuple(i for i in self._tail if not self._taken[i])

    def copy(self) -> Wall:
        """An independent copy (a trial's, `State.copy`): what takes change is copied (the
        positions taken, the copies of each tile seen); the order and geometry are shared."""
        twin = Wall.__new__(Wall)
        for name in Wall.__slots__:
            setattr(twin, name, getattr(self, name))
        twin._taken = bytearray(self._taken)
        twin._seen = list(self._seen)
        return twin


def dealt_order(
    rs: RuleSet, dice: Dice, hands: Mapping[Seat, Sequence[Tile]] | Sequence[Sequence[Tile]]
) -> tuple[Tile | None, ...]:
    """The wall order a table without a wall antenna knows after the deal: the dealt hands
    as read (East 14, the others 13; a mapping by seat, or four sequences E S W N) placed at
    the positions they were dealt from, `None` everywhere else.

    Each hand is taken in the order its tiles arrived, when the reader saw that; otherwise
    any order gives the same deal, except that East's last tile counts as its 14th (the
    jump) tile: the "drawn" tile of East's first turn, which only a heavenly Hu's winning
    tile reports."""
    tileset = rs.tiles.set
    by_seat = hands if isinstance(hands, Mapping) else dict(zip(SEATS, hands, strict=True))
    wanted = {s: list(by_seat.get(s, ())) for s in SEATS}
    for seat, tiles in wanted.items():
        size = 14 if seat is Seat.E else 13
        if len(tiles) != size:
            raise WallError(f"{seat} is dealt {size} tiles, not {len(tiles)}")
    _check_known([t for s in SEATS for t in wanted[s]], tileset, "the hands hold")
    order: list[Tile | None] = [None] * tileset.value
    for seat, index in Wall(rs, dice, order).deal_plan():
        order[index] = wanted[seat].pop(0)
    return tuple(order)


def compose(
    rs: RuleSet,
    dice: Dice,
    hands: dict[Seat, tuple[Tile, ...]],
    live: tuple[Tile, ...] = (),
    replacements: tuple[Tile, ...] = (),
) -> tuple[Tile, ...]:
    """A wall order (physical order, see the module docstring) that deals `hands` (East 14,
    others 13; a shorter hand is filled up), then gives `live` as the next live draws and
    `replacements` as the next replacement tiles. The rest of the set fills the wall in
    sorted order. For scripted deals: tests, the simulator, referee examples."""
    tileset = rs.tiles.set
    if replacements and rs.wall.replacement is ReplacementEnd.HEAD:
        raise WallError("replacements come from the live end: list them among `live`")
    pool = to_counts(t for t in tileset.kinds for _ in range(4))
    for tiles in (*hands.values(), live, replacements):
        for t in tiles:
            pool[t] -= 1
            if pool[t] < 0:
                raise WallError(f"more than four {t} asked for")
    rest = [t for t in tileset.kinds for _ in range(pool[t])]
    dummy = Wall(rs, dice, tuple(t for t in tileset.kinds for _ in range(4)))
    takes = dummy.deal()
    order: list[Tile | None] = [None] * tileset.value
    wanted = {s: list(hands.get(s, ())) for s in SEATS}
    for take in takes:
        mine = wanted[take.seat]
        order[take.index] = mine.pop(0) if mine else rest.pop(0)
    for s, left in wanted.items():
        if left:
            raise WallError(f"{s} is dealt {14 if s is Seat.E else 13} tiles, not more")
    live_at = list(dummy.remaining())
    tail_at = list(dummy.replacements_left())
    for i, replacement in zip(tail_at, replacements, strict=False):
        order[i] = replacement
        live_at.remove(i)
    for i, drawn in zip(live_at, live, strict=False):
        if order[i] is not None:
            raise WallError("the live draws and the replacements meet")
        order[i] = drawn
    for i, known in enumerate(order):
        if known is None:
            order[i] = rest.pop(0)
    return tuple(t for t in order if t is not None)
