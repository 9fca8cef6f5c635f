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

from rules.bot_discards import honours_held, keep_score, loneliest_in_suit, loneliest_live
from rules.claims import ClaimWindow, WindowKind
from rules.deal import Deal, Phase
from rules.deal_hu import sequential, wins_with
from rules.deal_state import SUIT_KEY
from rules.live_hand import keys_complete
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
)
from rules.ruleset import VoidDiscard
from rules.seats import Seat
from rules.tiles import TILES, Suit, Tile


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

    __slots__ = ("rng", "style")

    def __init__(self, rng: random.Random, style: Style = DEFAULT_STYLE) -> None:
        self.rng = rng
        self.style = style

    def choose(self, deal: Deal, seat: Seat, t: float | None = None) -> Move | None:
        """The move `seat` makes now (stamped with time `t`), or None (nothing to do, or
        silent in a claim window)."""
        st = deal.state
        phase = st.phase
        if phase is Phase.OVER or st.out[seat]:
            return None
        if phase is Phase.CHOOSING_VOID:
            return None if st.void[seat] is not None else self.void_choice(deal, seat, t)
        if phase is Phase.CLAIMS or phase is Phase.ROBBING:
            w = st.window
            if w is None or seat not in w.eligible or seat in w.declared:
                return None
            return self.claim_tile(deal, seat, w.tile, w.kind is WindowKind.ROBBING, t)
        if seat is not st.turn:
            return None
        if phase is Phase.DRAW:
            return Draw(seat, st.wall.peek(), t=t)
        if phase is Phase.REPLACEMENT:
            return ReplacementDraw(seat, st.wall.peek_replacement(), t=t)
        return self.turn(deal, seat, t)

    def void_choice(self, deal: Deal, seat: Seat, t: float | None) -> ChooseVoid:
        """004 Lesson 2: usually the shortest suit; the tile laid is its loneliest tile."""
        rng = self.rng
        counts = deal.state.hands[seat]  # the judge's own counts, only read
        suits = deal.rs.tiles.set.suits
        if rng.random() < 0.1:
            suit = rng.choice(suits)
        else:
            # the held count of each suit, ties broken at random (one draw per suit, in
            # order): the first suit with the lowest (count, draw)
            suit, low = suits[0], None
            for s in suits:
                o = s.offset
                key = (sum(counts[o : o + 9]), rng.random())
                if low is None or key < low:
                    suit, low = s, key
        if suit is not Suit.Z:
            # the first of the suit's held tiles with the lowest `keep_score`, looked up
            lonely = loneliest_in_suit(counts, suit.offset)
            return ChooseVoid(seat, suit, None if lonely is None else TILES[lonely], t=t)
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
        return self.claim_tile(deal, seat, window.tile, window.kind is WindowKind.ROBBING, t)

    def claim_tile(
        self, deal: Deal, seat: Seat, tile: Tile, robbing: bool, t: float | None
    ) -> Move | None:
        """The declaration (or None, silence) of a seat eligible in the open window on
        `tile` that has not spoken yet; `robbing`: a robbing window (only Hu)."""
        st = deal.state
        void = st.void[seat]
        if void is not None and tile.suit is void:
            return None  # 002: no claim on one's void suit, not even a false Hu
        rng, style = self.rng, self.style
        r = rng.random()
        # the moves `deal.legal_moves(seat)` would list, asked for one by one; a discarded
        # tile that wins is always a wait (the hand cannot hold its four copies)
        if wins_with(st, seat, tile):
            hu = RobKong(seat) if robbing else Hu(seat)
            # a sequential Hu accepted as a false win (000 2.2.4) is not a win to take
            if deal.check(hu) is None and not sequential(st, hu):
                return stamp(hu, t) if r < style.hu else Pass(seat, t=t)
        held = st.hands[seat][tile]
        if held >= 2 and not robbing:
            kong = held == 3 and r < style.melded_kong
            if kong or r < style.pung:
                m = Kong(seat, MeldKind.KONG, tile) if kong else Pung(seat)
                if deal.check(m) is None and not sequential(st, m):
                    return stamp(m, t)
        if st.rs.play.chow_claims and not robbing and _CHOW_STARTS[tile]:
            w = st.window
            if w is not None and seat is w.eligible[0]:  # the next player (001 IV 4.2)
                hand = st.hands[seat]
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
            return RobKong(seat, t=t) if robbing else Hu(seat, t=t)
        if r < style.false_hu + style.explicit_pass:
            return Pass(seat, t=t)
        return None

    def turn(self, deal: Deal, seat: Seat, t: float | None) -> Move:
        """The move of the seat on turn holding 14: a self-drawn Hu, a kong or a discard."""
        rng, style, st = self.rng, self.style, deal.state
        # the judge's own counts, live keys and melds, only read
        counts = st.hands[seat]
        keys = st.keys[seat]
        melds = st.melds[seat]
        if keys_complete(keys, counts, len(melds)):
            if (
                rng.random() < style.self_drawn_hu
                and deal.wins(seat)
                and deal.check(SelfDrawnHu(seat)) is None
            ):
                return SelfDrawnHu(seat, t=t)
        elif rng.random() < style.false_hu and deal.check(SelfDrawnHu(seat)) is None:
            return SelfDrawnHu(seat, t=t)  # accepted, and settled as a false Hu (004 Lesson 5)
        # a kong of its own to declare: four of a tile held, or the 4th of a pung
        own = 4 in counts or (
            bool(melds) and any(counts[m.tile] and m.kind is MeldKind.PUNG for m in melds)
        )
        if own and st.wall.tiles_left:
            kong = self._own_kong(deal, seat, counts, melds)
            if kong is not None:
                return stamp(kong, t)
        laid = st.laid[seat]
        if laid is not None:
            return Discard(seat, laid, t=t)  # the face-down void tile goes first
        void = st.void[seat]
        if void is not None and keys[SUIT_KEY[void]]:
            # void-suit tiles held (the suit's live key is not 0) are discarded first, one
            # at random, unless a lenient rule set's breach
            held = [x for x in void.tiles if counts[x]]
            if st.rs.play.void_discard is VoidDiscard.STRICT or rng.random() >= style.void_breach:
                return Discard(seat, rng.choice(held), t=t)
        if rng.random() < style.random_discard:
            return Discard(seat, rng.choice([x for x in TILES if counts[x]]), t=t)
        lonely = loneliest_live(keys, counts) or honours_held(counts)
        return Discard(seat, TILES[rng.choice(lonely)], t=t)

    def _own_kong(
        self, deal: Deal, seat: Seat, counts: Sequence[int], melds: Sequence[Meld]
    ) -> Kong | None:
        """A kong of this turn (the hand holds four of a tile, or the 4th of a pung)."""
        if self.rng.random() >= self.style.own_kong:
            return None
        # the kongs of `deal.legal_moves(seat)`, in its order
        kongs = [Kong(seat, MeldKind.CONCEALED_KONG, TILES[i]) for i in _INDICES if counts[i] == 4]
        for m in melds:
            if m.kind is MeldKind.PUNG and counts[m.tile]:
                kongs.append(Kong(seat, MeldKind.PROMOTED_KONG, m.tile))
                kongs.append(Kong(seat, MeldKind.POSTPONED_KONG, m.tile))
        # the 4th tile freshly drawn makes a promoted kong, else a postponed one (004 Table 7)
        drawn = deal.drawn
        kongs = [
            k
            for k in kongs
            if (k.kind is not MeldKind.POSTPONED_KONG or k.tile != drawn) and deal.check(k) is None
        ]
        return self.rng.choice(kongs) if kongs else None


def stamp(move: Move, t: float | None) -> Move:
    """The same move stamped with time `t` (moves from `legal_moves` carry none)."""
    return move if t is None else replace(move, t=t)


_INDICES = range(len(TILES))
# the lowest tiles of the chows holding each tile (as rules.deal lists them)
_CHOW_STARTS: tuple[tuple[Tile, ...], ...] = tuple(
    () if t.is_honour else tuple(TILES[t - d] for d in (2, 1, 0) if 1 <= t.rank - d <= 7)
    for t in TILES
)
_CHOW_TILES: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(TILES[i] for i in range(t, t + 3)) if not t.is_honour and t.rank <= 7 else ()
    for t in TILES
)
