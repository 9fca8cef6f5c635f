"""The bots' policy: what a seeded bot plays, legal (not good) moves over the judge's
public view. Split from rules.bots, which drives a table of them (`BotTable`, `play_deal`)
and re-exports `Bot`, `Style` and `DEFAULT_STYLE`.

`Bot.choose(deal, seat)` returns the move that seat makes now, or None when it has nothing
to do (not its turn, or it stays silent in a claim window). The bots aim to reach every
rule, not to win well (issue 3 item 8); see rules.bots for what they do and why.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import compress

from rules.bot_discards import honours_held, keep_score, loneliest_in_suit, loneliest_live
from rules.claims import ClaimWindow, WindowKind
from rules.deal import Deal, Phase
from rules.deal_checks import sequential
from rules.draws import BITS, below
from rules.live_hand import shape_tables
from rules.melds import Meld, MeldKind
from rules.moves import (
    ChooseVoid,
    Chow,
    Discard,
    Draw,
    Hu,
    Kong,
    Move,
    Pass,
    Pung,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
    new_discard,
)
from rules.quick import builder, twin
from rules.seats import Seat
from rules.tiles import TILES, Suit, Tile

# Enum members read on every move, as module constants: `Phase.DRAW` is looked up
# through the Enum class (about 0.1 us in CPython 3.11), a module constant is not
_CONCEALED_KONG = MeldKind.CONCEALED_KONG
_KONG = MeldKind.KONG
_POSTPONED_KONG = MeldKind.POSTPONED_KONG
_PROMOTED_KONG = MeldKind.PROMOTED_KONG
_PUNG = MeldKind.PUNG
_CHOOSING_VOID = Phase.CHOOSING_VOID
_CLAIMS = Phase.CLAIMS
_DRAW = Phase.DRAW
_OVER = Phase.OVER
_REPLACEMENT = Phase.REPLACEMENT
_ROBBING = Phase.ROBBING
_WINDOW_ROBBING = WindowKind.ROBBING


@dataclass(frozen=True, slots=True)
class Style:
    """How often a bot takes each kind of chance (probabilities, 0-1)."""

    hu: float = 0.93  # declare a winning discard (else let it go: the skipped-Hu lock)
    self_drawn_hu: float = 0.97
    pung: float = 0.6
    chow: float = 0.35  # rule sets with chow claims: the next player chows a possible chow
    melded_kong: float = 0.8
    own_kong: float = 0.85  # concealed / promoted / postponed
    explicit_pass: float = 0.04  # say Pass instead of staying silent
    false_hu: float = 0.0006  # per turn and per window: declare Hu without a winning hand
    void_breach: float = 0.04  # lenient mode: discard another suit while void tiles are held
    random_discard: float = 0.08  # forget the heuristic
    retrieve_discard: float = 0.0005  # the referee takes a discard back (Correction)
    referee_penalty: float = 0.001  # per turn: a referee penalty on a player still in
    thinking: tuple[float, float] = (0.4, 2.5)  # seconds per own move


DEFAULT_STYLE = Style()


class Bot:
    """One seat's policy; all bots of a table may share one `random.Random`."""

    __slots__ = ("_bits", "_shape", "rng", "style")

    def __init__(self, rng: random.Random, style: Style = DEFAULT_STYLE) -> None:
        self.rng = rng
        self.style = style
        # `rng.getrandbits` where `rng._randbelow` is the standard library's (rules.draws)
        self._bits = rng.getrandbits if type(rng) is random.Random else None
        # `keys_complete`'s tables, for `_turn`'s look-up (built here at the first bot)
        self._shape = shape_tables()

    def choose(self, deal: Deal, seat: Seat, t: float | None = None) -> Move | None:
        """The move `seat` makes now (stamped with time `t`), or None (nothing to do, or
        silent in a claim window)."""
        phase = deal.phase
        if phase is _OVER or deal.is_out(seat):
            return None
        if phase is _CHOOSING_VOID:
            return None if deal.void(seat) is not None else self._void(deal, seat, t)
        if phase is _CLAIMS or phase is _ROBBING:
            window = deal.window
            return None if window is None else self.claim(deal, seat, window, t)
        if seat is not deal.turn:
            return None
        if phase is _DRAW:
            return Draw(seat, deal.wall.peek(), t=t)
        if phase is _REPLACEMENT:
            return ReplacementDraw(seat, deal.wall.peek_replacement(), t=t)
        return self._turn(deal, seat, t)

    def _void(self, deal: Deal, seat: Seat, t: float | None) -> ChooseVoid:
        """004 Lesson 2: usually the shortest suit; the tile laid is its loneliest tile."""
        rng = self.rng
        counts = deal._hands[seat]  # the judge's own counts, only read
        suits = deal.rs.tiles.set.suits
        if rng.random() < 0.1:
            suit = rng.choice(suits)
        else:
            # the held count of each suit, ties broken at random (one draw per suit, in
            # order): the first suit with the lowest (count, draw)
            suit, low = suits[0], None
            for s in suits:
                o = _OFFSET[s]
                key = (sum(counts[o : o + 9]), rng.random())
                if low is None or key < low:
                    suit, low = s, key
        if suit is not _Z:
            # the first of the suit's held tiles with the lowest `keep_score`, looked up
            lonely = loneliest_in_suit(counts, _OFFSET[suit])
            return _new_void(seat, suit, None if lonely is None else TILES[lonely], t)
        held = [x for x in suit.tiles if counts[x]]
        if not held:
            return ChooseVoid(seat, suit, t=t)
        return ChooseVoid(seat, suit, min(held, key=lambda x: keep_score(counts, x)), t=t)

    def claim(
        self, deal: Deal, seat: Seat, window: ClaimWindow, t: float | None = None
    ) -> Move | None:
        """A declaration in the open claim (or robbing) window, or None (silence)."""
        if seat not in window.eligible or (
            window.declared and any(s is seat for s, _ in window.declared)
        ):
            return None
        return self._claim(deal, seat, window.tile, window.kind is _WINDOW_ROBBING, t)

    def _claim(
        self, deal: Deal, seat: Seat, tile: Tile, robbing: bool, t: float | None
    ) -> Move | None:
        """`claim` for a seat eligible and silent so far. `BotTable` calls it straight
        (three times a discard, the bots' hottest path): it reads the judge's hand counts
        and void suits without copying them."""
        void = deal._void[seat]
        if void is not None and SUIT_OF[tile] is void:
            return None  # 002: no claim on one's void suit, not even a false Hu
        rng, style = self.rng, self.style
        r = rng.random()
        # the moves `deal.legal_moves(seat)` would list, asked for one by one; a discarded
        # tile that wins is always a wait (the hand cannot hold its four copies)
        if deal._wins_with(seat, tile):
            hu = new_rob_kong(seat, None) if robbing else new_hu(seat, None)
            # a sequential Hu accepted as a false win (000 2.2.4) is not a win to take
            if deal.check(hu) is None and not sequential(deal, hu):
                return stamp(hu, t) if r < style.hu else new_pass(seat, t)
        held = deal._hands[seat][tile]
        if held >= 2 and not robbing:
            kong = held == 3 and r < style.melded_kong
            if kong or r < style.pung:
                m = Kong(seat, _KONG, tile) if kong else _new_pung(seat, None)
                if deal.check(m) is None and not sequential(deal, m):
                    return stamp(m, t)
        if deal.rs.play.chow_claims and not robbing and _CHOW_STARTS[tile]:
            w = deal._window
            if w is not None and seat is w.eligible[0]:  # the next player (001 IV 4.2)
                hand = deal._hands[seat]
                chows = [
                    Chow(seat, low, t=t)
                    for low in _CHOW_STARTS[tile]
                    if all(x == tile or hand[x] for x in _CHOW_TILES[low])
                ]
                chows = [c for c in chows if deal.check(c) is None]
                if chows and rng.random() < style.chow:
                    return rng.choice(chows)
        r = rng.random()
        if r < style.false_hu:
            return new_rob_kong(seat, t) if robbing else new_hu(seat, t)
        if r < style.false_hu + style.explicit_pass:
            return new_pass(seat, t)
        return None

    def _turn(self, deal: Deal, seat: Seat, t: float | None) -> Move:
        rng, style = self.rng, self.style
        # the judge's own counts (a bytearray), live keys and melds, read without copying
        # (`deal.counts(seat)` and `deal.melds(seat)` copy them): a bot only reads them
        i = seat + 0  # plain ints index lists on CPython's fast path, `IntEnum`s do not
        counts = deal._hands[i]
        keys = deal._keys[i]
        melds = deal._melds[i]
        # `keys_complete(keys, counts, len(melds))` written out, a call less each turn:
        # the suits' codes by live key, then seven pairs read off the counts
        numbers, honours, targets = self._shape
        k3, n = keys[3], len(melds)
        if numbers[keys[0]] + numbers[keys[1]] + numbers[keys[2]] + (
            honours[k3] if k3 else 0
        ) == targets[n] or (
            not n and 1 not in counts and 3 not in counts and sum(counts) == 14 and max(counts) <= 4
        ):
            if (
                rng.random() < style.self_drawn_hu
                and deal.wins(seat)
                and deal.check(SelfDrawnHu(seat)) is None
            ):
                return SelfDrawnHu(seat, t=t)
        elif rng.random() < style.false_hu and deal.check(SelfDrawnHu(seat)) is None:
            return SelfDrawnHu(seat, t=t)  # accepted, and settled as a false Hu (004 Lesson 5)
        # a kong of its own to declare: four of a tile held, or the 4th of a pung
        # (`_pung_to_add` written out, a call less on every turn with melds)
        own = 4 in counts
        if not own:
            for m in melds:
                if m.kind is _PUNG and counts[m.tile]:
                    own = True
                    break
        if own and deal.wall.tiles_left:
            kong = self._own_kong(deal, seat, counts, melds)
            if kong is not None:
                return stamp(kong, t)
        # the discard, chosen here (one call less on every turn)
        laid = deal._laid[i]
        if laid is not None:
            return new_discard(seat, laid, t)  # the face-down void tile goes first
        void = deal._void[i]
        if void is not None:
            si = 0 if void is _M else 1 if void is _P else 2
            key = keys[si]
            # void-suit tiles held (the suit's live key is not 0), discarded first unless a
            # lenient rule set's breach: one of them at random, found by the key (a seat
            # keeps its void tiles for several turns, the same key each time)
            if key and (deal._strict_void or rng.random() >= style.void_breach):
                held = _VOID_HELD[si].get(key)
                if held is None:
                    held = _void_held(si, key, counts)
                n, bits = len(held), self._bits
                if bits is None:
                    return new_discard(seat, held[rng._randbelow(n)], t)
                # `rng._randbelow(n)` written out, as below
                k = BITS[n]
                r = bits(k)
                while r >= n:
                    r = bits(k)
                return new_discard(seat, held[r], t)
        # `rng.choice(seq)` is `seq[rng._randbelow(len(seq))]` for a sequence that is not
        # empty (the same draw); written out on the discard of every turn, one call less
        if rng.random() < style.random_discard:
            held = list(compress(_INDICES, counts))
            return new_discard(seat, TILES[held[below(rng, len(held))]], t)
        lonely = loneliest_live(keys, counts) or honours_held(counts)
        n, bits = len(lonely), self._bits
        if bits is None:
            return new_discard(seat, TILES[lonely[rng._randbelow(n)]], t)
        # `rng._randbelow(n)` written out (rules.draws.below: the same draws)
        k = BITS[n]
        r = bits(k)
        while r >= n:
            r = bits(k)
        # `new_discard(seat, TILES[lonely[r]], t)` written out (rules.quick.twin), a call
        # less on most turns
        move = _DISCARD_TWIN()
        move.seat = seat
        move.tile = TILES[lonely[r]]
        move.t = t
        move.__class__ = Discard
        return move  # type: ignore[no-any-return]

    def _own_kong(
        self, deal: Deal, seat: Seat, counts: Sequence[int], melds: Sequence[Meld]
    ) -> Kong | None:
        """A kong of this turn (the hand holds four of a tile, or the 4th of a pung)."""
        if self.rng.random() >= self.style.own_kong:
            return None
        # the kongs of `deal.legal_moves(seat)`, in its order
        kongs = [Kong(seat, _CONCEALED_KONG, TILES[i]) for i in _INDICES if counts[i] == 4]
        for m in melds:
            if m.kind is _PUNG and counts[m.tile]:
                kongs.append(Kong(seat, _PROMOTED_KONG, m.tile))
                kongs.append(Kong(seat, _POSTPONED_KONG, m.tile))
        # the 4th tile freshly drawn makes a promoted kong, else a postponed one (004 Table 7)
        drawn = deal.drawn
        kongs = [
            k
            for k in kongs
            if (k.kind is not _POSTPONED_KONG or k.tile != drawn) and deal.check(k) is None
        ]
        return self.rng.choice(kongs) if kongs else None


def stamp(move: Move, t: float | None) -> Move:
    """The same move stamped with time `t` (moves from `legal_moves` carry none)."""
    if t is None:
        return move
    kind = type(move)
    quick = _STAMPED.get(kind)
    if quick is not None:  # a claim: rebuilt directly (`dataclasses.replace` costs ~2 us)
        return quick(move.seat, t)  # type: ignore[union-attr]
    if kind is Kong:  # the kongs of `_own_kong` and `_claim`, rebuilt alike
        return _new_kong(move.seat, move.kind, move.tile, t)  # type: ignore[union-attr]
    return replace(move, t=t)


# quick constructors (`rules.quick`) of the claims made in every window, (seat, t)
new_hu, new_pass, _new_pung, new_rob_kong = map(builder, (Hu, Pass, Pung, RobKong))
_STAMPED = {kind: builder(kind) for kind in (Hu, Pung, Pass, RobKong, SelfDrawnHu)}
_new_void = builder(ChooseVoid)  # `ChooseVoid(seat, suit, tile, t=t)`
_new_kong = builder(Kong)  # `Kong(seat, kind, tile, t=t)`
_DISCARD_TWIN = twin(Discard)  # `new_discard`'s plain twin


# each tile's suit, and the offset of each suit
SUIT_OF: tuple[Suit, ...] = tuple(t.suit for t in TILES)
_OFFSET: dict[Suit, int] = {s: s.offset for s in Suit}
_M, _P, _Z = Suit.M, Suit.P, Suit.Z
_INDICES = range(len(TILES))
# per number suit: live key -> the suit's held tiles (`_turn`'s void discard), filled as
# keys come up; a suit's key changes only as its tiles come and go, so few are met
_VOID_HELD: tuple[dict[int, tuple[Tile, ...]], ...] = ({}, {}, {})
_VOID_HELD_MAX = 1 << 12  # keys kept per suit before a cache starts afresh
_SUIT_TILES = (TILES[0:9], TILES[9:18], TILES[18:27])


def _void_held(si: int, key: int, counts: Sequence[int]) -> tuple[Tile, ...]:
    """A miss of `_VOID_HELD[si]`: the suit's tiles held in `counts`, whose live key for
    the suit is `key` (most void suits are met once, so a miss is made cheap)."""
    cache = _VOID_HELD[si]
    if len(cache) >= _VOID_HELD_MAX:
        cache.clear()
    o = 9 * si
    found = cache[key] = tuple(compress(_SUIT_TILES[si], counts[o : o + 9]))
    return found


_NO_HONOURS = bytes(7)
# the lowest tiles of the chows holding each tile (as rules.deal lists them)
_CHOW_STARTS: tuple[tuple[Tile, ...], ...] = tuple(
    () if t.is_honour else tuple(TILES[t - d] for d in (2, 1, 0) if 1 <= t.rank - d <= 7)
    for t in TILES
)
_CHOW_TILES: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(TILES[i] for i in range(t, t + 3)) if not t.is_honour and t.rank <= 7 else ()
    for t in TILES
)
