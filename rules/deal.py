"""The deal judge: one deal from the dealt wall to the settled ledger, as pure rules, under a
Sichuan rule set or a highest-pattern one with chows, winds and dragons (Wellness, 001).

    deal = Deal.start(rs, Dice(6, 4), wall_order)       # wall order: see rules.wall
    result = deal.apply(ChooseVoid(Seat.E, Suit.M, Tile.M5))   # Accepted | Rejected
    deal.legal_moves(Seat.S)     # every move a seat may make now (bots, the recogniser)
    deal.admissible_claims()     # in a claim window: which claims each seat may make
    deal.ledger()                # the itemised settlement (final once deal.over)

A table without a wall antenna starts from the dealt hands as read, and names each drawn
tile as the reader sees it land in the hand (rules.wall "Unknown positions"):

    deal = Deal.start_dealt(rs, Dice(6, 4), {Seat.E: east_14, Seat.S: south_13, ...})
    deal.apply(Draw(Seat.S, Tile.P3))    # Draw(Seat.S) alone: Rejected(TILE_UNKNOWN)

Seats are those of the deal (East = dealer). `apply` checks a move completely before it
changes anything, so a `Rejected` move leaves the deal exactly as it was (`snapshot()`).

Flow (004 Lessons 2-4, RULES.md "Play"): `CHOOSING_VOID` (each seat lays a tile of its void
suit face down, or the indicator card; that tile is its mandatory first discard; skipped
without `play.void_suit`) → East's first turn in `DISCARD` (heavenly Hu, concealed kong or
discard) → after each discard a claim window `CLAIMS` (see rules.claims; a `Chow` too with
`play.chow_claims`) → the next player `DRAW`s, or the claimer melds → after a kong
`REPLACEMENT` (promoted/postponed kongs first open a `ROBBING` window) → ... → `OVER`.

Highest-pattern rule sets (`scoring.method`, Wellness) score with the winds: the seat wind is
the deal seat (East = dealer), the prevalent wind `Deal.start(..., prevalent=)`; their
payments are rules.deal_wellness's (001 II 2, III 2.1, III 3.1-3.2); the skipped-Hu lock
lifts when the fan changes (001 IV 3.2) rather than when the hand pays more.

Blood battle: a player who declares Hu leaves the deal and is skipped; the deal ends on the
`rs.play.winners_to_end`-th Hu (three), or when the wall is exhausted and the active player
has finished (the last discard's window closed), or on a referee `EndDeal`.

The state is a `rules.deal_state.State` (`Deal.state`); each move is judged by its check
and its effect, functions of the state grouped by concern (rules.deal_moves names them:
draws and discards, claims, kongs, Hu and false Hu, the void, the wall end). Where the
documents are silent or differ, the decision is in the docstring of the concern's module.
A false Hu does not count for the next dealer (rules.session).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from rules import deal_legal
from rules.claims import ClaimWindow
from rules.deal_hu import self_drawn_wins, wins_with
from rules.deal_moves import JUDGES, kept_moves, not_a_move
from rules.deal_state import DealState, Phase, State, new_state
from rules.melds import Meld
from rules.moves import Accepted, DealEnd, Fact, Move, Rejected, Result, Won
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat
from rules.settlement import Ledger
from rules.tiles import Suit, Tile
from rules.wall import Dice, Take, Wall, dealt_order

__all__ = ["Deal", "DealState", "Phase"]


class Deal:
    """One deal under a rule set; see the module docstring."""

    def __init__(self, state: State, history: Iterable[Move] = ()) -> None:
        self.state = state
        self.history: list[Move] = list(history)  # every accepted move, corrections included

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        rs: RuleSet,
        dice: Dice,
        wall_order: Sequence[Tile | None],
        *,
        prevalent: Seat = Seat.E,
    ) -> Deal:
        """Break and deal the wall; East (the dealer) holds 14 tiles. `None` marks a wall
        position whose tile is not known (the dealt positions must be known). `prevalent`
        is the prevalent (round) wind, scored by rule sets that count winds (001 II 3)."""
        return cls(new_state(rs, Wall(rs, dice, wall_order), prevalent))

    @classmethod
    def start_shuffled(cls, rs: RuleSet, rng: random.Random) -> Deal:
        """A deal on a wall shuffled here from `rng` (`rules.wall.Wall.shuffled`: the full
        set shuffled, then East's roll of the dice), prevalent wind East."""
        return cls(new_state(rs, Wall.shuffled(rs, rng), Seat.E))

    @classmethod
    def start_dealt(
        cls,
        rs: RuleSet,
        dice: Dice,
        hands: Mapping[Seat, Sequence[Tile]] | Sequence[Sequence[Tile]],
        *,
        prevalent: Seat = Seat.E,
    ) -> Deal:
        """A deal on a table whose wall is not scanned: the dealt hands as read (East 14,
        the others 13, no tile more than four times; see `rules.wall.dealt_order`), every
        other wall position unknown. Raises `WallError` (a ValueError) on a bad hand."""
        return cls.start(rs, dice, dealt_order(rs, dice, hands), prevalent=prevalent)

    @classmethod
    def replay(
        cls,
        rs: RuleSet,
        dice: Dice,
        wall_order: Sequence[Tile | None],
        moves: Iterable[Move],
        *,
        prevalent: Seat = Seat.E,
    ) -> Deal:
        """A deal re-judged from its moves; raises ValueError naming the first bad move."""
        deal = cls.start(rs, dice, wall_order, prevalent=prevalent)
        for i, move in enumerate(moves):
            refused = deal.play(move)
            if refused is not None:
                raise ValueError(f"move {i + 1} ({move}) rejected: {refused}")
        return deal

    def copy(self) -> Deal:
        """An independent copy to try moves on (a trial): `State.copy`, and the history."""
        return Deal(self.state.copy(), self.history)

    # -- observation ----------------------------------------------------------------------

    @property
    def rs(self) -> RuleSet:
        return self.state.rs

    @property
    def wall(self) -> Wall:
        return self.state.wall

    @property
    def dice(self) -> Dice:
        return self.state.wall.dice

    @property
    def wall_order(self) -> tuple[Tile | None, ...]:
        return self.state.wall.order

    @property
    def prevalent(self) -> Seat:
        return self.state.prevalent

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def turn(self) -> Seat:
        return self.state.turn

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    @property
    def end(self) -> DealEnd | None:
        return self.state.end

    @property
    def deal_takes(self) -> tuple[Take, ...]:
        """The 53 takes of the deal in the order they happened (004 Lesson 2)."""
        return self.state.wall.dealt_takes()

    @property
    def tiles_left(self) -> int:
        return self.state.wall.tiles_left

    def hand(self, seat: Seat) -> tuple[Tile, ...]:
        """Standing tiles (the face-down void tile included until it is discarded)."""
        return tuple(self.state.standing(seat))

    def counts(self, seat: Seat) -> tuple[int, ...]:
        return tuple(self.state.hands[seat])

    def held(self, seat: Seat, tile: Tile) -> int:
        """How many `tile` the seat holds standing."""
        return self.state.hands[seat][tile]

    def melds(self, seat: Seat) -> tuple[Meld, ...]:
        return tuple(self.state.melds[seat])

    def river(self, seat: Seat) -> tuple[Tile, ...]:
        """Discards still lying in front of the seat (claimed tiles have left)."""
        return tuple(self.state.river[seat])

    def discards(self, seat: Seat) -> tuple[Tile, ...]:
        """Every tile the seat discarded, claimed or not."""
        return tuple(self.state.discards[seat])

    @property
    def drawn(self) -> Tile | None:
        """The tile the player on turn took from the wall this turn (East's 14th dealt
        tile on the first turn); None after a pung, a kong or a discard."""
        return self.state.drawn

    def void(self, seat: Seat) -> Suit | None:
        return self.state.void[seat]

    def laid_tile(self, seat: Seat) -> Tile | None:
        """The face-down void tile not yet discarded."""
        return self.state.laid[seat]

    def is_out(self, seat: Seat) -> bool:
        return self.state.out[seat]

    @property
    def still_in(self) -> tuple[Seat, ...]:
        return self.state.still_in

    @property
    def winners(self) -> tuple[Won, ...]:
        """Every Hu declaration in order (false ones included, marked)."""
        return tuple(self.state.wins)

    @property
    def window(self) -> ClaimWindow | None:
        return self.state.window_view()

    def wins(self, seat: Seat, tile: Tile | None = None) -> bool:
        """Whether a Hu by `seat` would be a valid win now: on `tile` (a discard or a kong's
        added tile), or without it on its own hand (self-drawn). The hand, melds and void
        only: whether the Hu may be declared now is `check`."""
        if tile is None:
            return self_drawn_wins(self.state, seat)
        return wins_with(self.state, seat, tile)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The effective moves: those accepted, less the ones corrections took back."""
        return tuple(self.state.moves)

    def ledger(self) -> Ledger:
        return Ledger(tuple(self.state.lines))

    def deltas(self) -> tuple[int, ...]:
        return self.ledger().deltas()

    def snapshot(self) -> DealState:
        st = self.state
        return DealState(
            st.phase,
            st.turn,
            tuple(self.hand(s) for s in SEATS),
            tuple(self.melds(s) for s in SEATS),
            tuple(self.river(s) for s in SEATS),
            tuple(st.void),
            tuple(st.out),
            st.wall.tiles_left,
            self.window,
            self.winners,
            tuple(st.lines),
            (*st.hu_lock, *(len(p) for p in st.pung_lock)),
            st.end,
        )

    # -- judging --------------------------------------------------------------------------

    def apply(self, move: Move) -> Result:
        """Judge one move: `Accepted(move, facts)` or `Rejected(reason, detail, move)`. A
        rejected move changes nothing."""
        facts: list[Fact] = []
        refused = self.play(move, facts)
        return Accepted(move, tuple(facts)) if refused is None else refused

    def play(self, move: Move, facts: list[Fact] | None = None) -> Rejected | None:
        """Judge one move: the move's check, then, when it passes, its effect. None when
        the move is accepted, its facts appended to `facts` if given (`apply`; a driver
        that reads none, as the bots and replays, gives none and none are made); else the
        `Rejected` value, and nothing changed."""
        judges = JUDGES.get(type(move))
        if judges is None:
            reason, detail = not_a_move(move)
            return Rejected(reason, detail, move)
        check, effect = judges
        st = self.state
        problem = check(st, move)
        if problem is not None:
            return Rejected(problem[0], problem[1], move)
        self.history.append(move)
        if effect is None:  # a Correction: the deal replayed without the moves taken back
            kept = kept_moves(st, move)  # type: ignore[arg-type]  # the effect None is a Correction's
            again = Deal.replay(st.rs, st.wall.dice, st.wall.order, kept, prevalent=st.prevalent)
            self.state = again.state
            return None
        st.moves.append(move)
        effect(st, move, facts)
        return None

    def check(self, move: Move) -> Rejected | None:
        """What `apply(move)` would answer, without applying it: None if it would be
        accepted, else the `Rejected` value."""
        judges = JUDGES.get(type(move))
        problem = not_a_move(move) if judges is None else judges[0](self.state, move)
        return None if problem is None else Rejected(problem[0], problem[1], move)

    def legal_moves(self, seat: Seat, *, include_false_hu: bool = False) -> tuple[Move, ...]:
        """Every move `seat` may make now that `apply` would accept. A Hu that would be false
        is left out unless `include_false_hu` (it is accepted, and costly), and so is a
        sequential Hu settled as a false win (000 2.2.4, `play.sequential-claim`)."""
        return deal_legal.legal_moves(self.state, seat, include_false_hu)

    def admissible_claims(self) -> Mapping[Seat, tuple[Move, ...]]:
        """In a claim or robbing window: the claims (not Pass) each seat that has not yet
        declared may make. Empty outside a window. Each possible chow is listed on its own
        (`Chow(seat, lowest_tile)`, lowest first)."""
        return deal_legal.admissible_claims(self.state)
