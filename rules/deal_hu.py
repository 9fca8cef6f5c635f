"""Hu and false Hu in a deal: whether a hand wins, the score and payment of a declaration,
the skipped-Hu lock, and blood battle's "the winner leaves, play goes on" (004 Lessons 4-5;
000 2.2.4; 001 IV 3.2). Sources are named beside each rule.

- A false Hu (no valid shape, void-suit tiles, three suits) is accepted, not rejected: 004
  Lesson 5 says all declared Hu stand until scoring. The offender **leaves the deal** (004:
  the penalty compensates the others "for not being able to score points ... from the left
  gameplay player"), pays `payments.false_hu` to each player still in after the declaration
  (simultaneous declarers on one discard are not "still in", 004's worked example), returns
  every kong payment received, and counts toward the Hu that end the deal.
- The skipped-Hu lock (`skip_hu_lock`, 004 Lesson 4) refuses a Hu on a discard unless the
  new hand pays more than the one let go; it lifts when the player takes a tile from the
  wall. Highest-pattern scoring (001 IV 3.2): unless the fan changes. With
  `play.sequential-claim = "false-win"` (WMT, 000 2.2.4) such a Hu is accepted and settled
  as a false win.
- "Hu on the declarer's very next discard" refunds every kong the discarder declared in the
  turn that discard ended (004 Table 7; only for a valid Hu).
"""

from __future__ import annotations

from rules import deal_end, deal_void, deal_wellness, settlement as pay
from rules.claims import Window, WindowKind, next_player
from rules.deal_state import SUIT_KEY, Entry, Facts, Phase, Problem, State, own_turn
from rules.live_hand import NEAR_DIGITS, keys_complete, keys_complete_with
from rules.moves import (
    TURN_PASSED,
    DealEnd,
    Hu,
    Move,
    Pung,
    Reason,
    RobKong,
    SelfDrawnHu,
    Won,
)
from rules.ruleset import Payer, ScoringMethod
from rules.score import Score
from rules.scoring import NotAWin, is_winning, score_hand
from rules.seats import Seat
from rules.tiles import Tile

# -- does the hand win? --------------------------------------------------------------------


def wins_on(st: State, seat: Seat, tile: Tile) -> bool:
    """Whether the seat's hand wins with `tile` added (a discard or a kong's added tile):
    the hand, melds and void only; whether the Hu may be declared now is the check's."""
    void = st.void[seat]
    if void is not None and tile.suit is void:
        return False  # 002: no Hu on a tile of one's void suit
    keys = st.keys[seat]
    s, low, span = NEAR_DIGITS[tile]
    if not keys[s] // low % span:
        return False  # no copy and no neighbour within two ranks: the tile stays alone
    if void is not None and keys[SUIT_KEY[void]]:
        return False  # void-suit tiles still held: no win (RULES.md), whatever the shape
    melds = st.melds[seat]
    if not keys_complete_with(keys, st.hands[seat], len(melds), tile):
        return False
    return is_winning(st.standing(seat, tile), melds, void, st.rs)


def wins_with(st: State, seat: Seat, tile: Tile) -> bool:
    """`wins_on`, kept in the open window for its tile (hands do not change while it is
    open, and the bots, the checks and the skipped-Hu lock all ask)."""
    w = st.window
    if w is None or tile is not w.tile:
        return wins_on(st, seat, tile)
    known = w.wins[seat]
    if known is None:
        known = w.wins[seat] = wins_on(st, seat, tile)
    return known


def self_drawn_wins(st: State, seat: Seat) -> bool:
    """Whether the seat's own hand of 14 wins."""
    melds = st.melds[seat]
    if not keys_complete(st.keys[seat], st.hands[seat], len(melds)):
        return False
    return is_winning(st.standing(seat), melds, st.void[seat], st.rs)


# -- score and payment ---------------------------------------------------------------------


def discard_events(w: Window) -> frozenset[str]:
    """The situations of a Hu on the window's tile (000 2.2, 003 B/C)."""
    if w.kind is WindowKind.ROBBING:
        return frozenset({"robbing-the-kong"})
    events = set()
    if w.after_kong:
        events.add("shoot-after-kong")
    if w.last:
        events.add("under-the-sea")
    if w.dealer_first and not events:
        events.add("earthly")
    return frozenset(events)


def hu_score(st: State, seat: Seat, tile: Tile, events: frozenset[str]) -> Score:
    """The score of a valid Hu on `tile` (a discard or a kong's added tile)."""
    return score_hand(
        st.standing(seat, tile),
        st.melds[seat],
        tile,
        st.rs,
        situations=events,
        void=st.void[seat],
        seat_wind=seat,
        prevalent_wind=st.prevalent,
    )


def payment(st: State, seat: Seat, tile: Tile, events: frozenset[str]) -> int:
    """What a valid Hu on `tile` would be paid by the discarder (A x multiplier)."""
    score = hu_score(st, seat, tile, events)
    return score.value * score.multiplier


def _why(score: Score, what: str, tile: Tile | None) -> str:
    names = ", ".join(f"{p.name} {p.fan}" for p in score.patterns)
    return f"{what} {tile} ({names or 'no fan'}; A={score.value})"


def pattern_pay(st: State) -> bool:
    """Highest-pattern scoring (Wellness) pays by rules.deal_wellness (001 II 2, III)."""
    return st.rs.scoring.method is ScoringMethod.HIGHEST_PATTERN


# -- the skipped-Hu lock ---------------------------------------------------------------------


def lock_detail(st: State, seat: Seat, w: Window) -> str | None:
    """Why a Hu by `seat` on the window's tile is a sequential win (the skipped-Hu lock, 004
    Lesson 4; 000 2.2.4 "unless they increase the total score"): it wins, and pays no more
    than a winning tile the seat let go since its last draw; None when it is not."""
    lock = st.hu_lock[seat]
    if not lock or not wins_with(st, seat, w.tile):
        return None
    events = discard_events(w)
    if pattern_pay(st):
        # 001 IV 3.2: no Hu on a discard again before a draw "and no change on the fan";
        # the lock holds one bit per fan row let go
        fan = hu_score(st, seat, w.tile, events).total_fan
        if lock >> fan & 1:
            return f"{seat} let a winning tile of {fan} fan go; this Hu is {fan} fan too"
        return None
    value = payment(st, seat, w.tile, events)
    if value <= lock:
        return f"{seat} let a winning tile go (worth {lock}); this Hu is worth {value}"
    return None


def sequential(st: State, move: Move) -> str | None:
    """Why a claim in the open window is a sequential Hu or pung (000 2.2.4), which a rule
    set with `play.sequential-claim = "false-win"` accepts and settles as a false win, and
    others refuse; None when it is not one."""
    w = st.window
    if w is None:
        return None
    if isinstance(move, Pung):
        if w.tile in st.pung_lock[move.seat]:
            return f"{move.seat} passed {w.tile} already (000 2.2.4)"
        return None
    if isinstance(move, Hu | RobKong) and st.hu_lock[move.seat]:
        return lock_detail(st, move.seat, w)
    return None


def lock(st: State, w: Window, seat: Seat) -> None:
    """Lock a player who let a winning tile go (004 Lesson 4): no Hu on a discard before a
    draw unless it pays more; highest-pattern scoring (001 IV 3.2): unless the fan changes,
    one bit per fan row let go."""
    events = discard_events(w)
    if pattern_pay(st):
        st.hu_lock[seat] |= 1 << hu_score(st, seat, w.tile, events).total_fan
    else:
        st.hu_lock[seat] = max(st.hu_lock[seat], payment(st, seat, w.tile, events))


# -- declarations ----------------------------------------------------------------------------


def declare(
    st: State, seat: Seat, tile: Tile | None, from_seat: Seat | None, events: frozenset[str]
) -> tuple[bool, Won]:
    """Score a Hu declaration; (valid, Won) without paying yet. A hand whose shape does not
    complete is false at once; else `score_hand` says (NotAWin: void-suit tiles, three
    suits, ...)."""
    self_drawn = from_seat is None
    melds = st.melds[seat]
    keys, counts = st.keys[seat], st.hands[seat]
    order = st.hu_events + 1
    if self_drawn:
        complete = keys_complete(keys, counts, len(melds))
    else:
        assert tile is not None  # a Hu on a discard or a robbed kong names its tile
        complete = keys_complete_with(keys, counts, len(melds), tile)
    if complete:
        standing = st.standing(seat, None if self_drawn else tile)
        win = tile if tile is not None else standing[-1]
        try:
            score = score_hand(
                standing,
                melds,
                win,
                st.rs,
                self_drawn=self_drawn,
                situations=events,
                void=st.void[seat],
                seat_wind=seat,
                prevalent_wind=st.prevalent,
            )
        except NotAWin:
            pass
        else:
            return True, Won(seat, win, from_seat, False, score.value, order, score)
    return False, Won(seat, None, from_seat, True, 0, order)


def refund_received(st: State, seat: Seat, rule: str) -> None:
    """Return every kong payment `seat` received and has not returned yet."""
    for rec in st.kongs:
        if rec.seat is seat and not rec.refunded:
            rec.refunded = True
            st.lines += pay.refund(rec.lines, rule)


def pay_false_hu(st: State, seat: Seat, payees: list[Seat], why: str = "") -> None:
    """Settle a false Hu; `why`: a sequential Hu settled as one (000 2.2.4)."""
    if pattern_pay(st):
        st.lines += deal_wellness.false_win(st, seat, payees)
        return
    if why:
        st.lines += pay.false_hu(st.rs, seat, payees, why, pay.R_SEQUENTIAL)
    else:
        st.lines += pay.false_hu(st.rs, seat, payees)
    if st.rs.payments.false_hu_returns_kong_payments:
        refund_received(st, seat, pay.R_REFUND_FALSE_HU)
    held = st.void_held(seat)
    if held is not None:
        deal_void.penalize(st, seat, False, held)


def pay_group(st: State, w: Window, hu: tuple[Seat, ...], facts: Facts) -> bool:
    """Score and pay the Hu declarations on the window's tile; True if any was valid."""
    results = []
    sequential_why: dict[Seat, str] = {}
    for s in hu:
        detail = lock_detail(st, s, w) if st.hu_lock[s] else None
        if detail:
            # 000 2.2.4 (`play.sequential-claim = "false-win"`; else refused by the check):
            # settled as a false win
            sequential_why[s] = f"sequential Hu: {detail}"
            results.append((False, Won(s, None, w.discarder, True, 0, st.hu_events + 1)))
        else:
            results.append(declare(st, s, w.tile, w.discarder, discard_events(w)))
    for s in hu:
        st.out[s] = True
    remaining = list(st.still_in)
    any_valid = False
    for valid, won in results:
        s = won.seat
        if valid:
            any_valid = True
            score = won.score
            assert score is not None
            if pattern_pay(st):
                st.lines += deal_wellness.win(st, score, s, w.discarder, ())
            else:
                why = _why(score, "Hu on", w.tile)
                st.lines += pay.hu_on_discard(s, w.discarder, score.value, score.multiplier, why)
        else:
            pay_false_hu(st, s, remaining, sequential_why.get(s, ""))
        st.wins.append(won)
        if facts is not None:
            facts.append(won)
    st.hu_events += 1
    return any_valid


def after_hu(st: State, start: Seat, declarers: tuple[Seat, ...], facts: Facts) -> None:
    """Blood battle: end the deal or pass the turn on after Hu declarations."""
    st.declared_hu += len(declarers)
    if st.declared_hu >= st.rs.play.winners_to_end or not st.still_in:
        deal_end.finish(st, DealEnd.HU, facts)
    elif st.wall.exhausted:
        deal_end.finish(st, DealEnd.WALL, facts)
    else:
        nxt = next_player(start, declarers, st.out)
        assert nxt is not None
        st.turn = nxt
        st.phase = Phase.DRAW
        if facts is not None:
            facts.append(TURN_PASSED[nxt])


# -- a self-drawn Hu -------------------------------------------------------------------------


def check_self_drawn(st: State, m: SelfDrawnHu) -> Problem:
    p = own_turn(st, m.seat, Phase.DISCARD, "a self-drawn Hu")
    if p:
        return p
    if st.entry is Entry.PUNG or st.entry is Entry.CHOW:
        return Reason.WRONG_PHASE, f"a turn entered by a {st.entry.value} ends with a discard"
    return None


def self_drawn(st: State, m: SelfDrawnHu, facts: Facts) -> None:
    seat = m.seat
    events: set[str] = set()
    if st.entry is Entry.REPLACEMENT:
        events.add("win-after-kong")
    if st.wall.exhausted:
        events.add("under-the-sea")
    if st.entry is Entry.DEALT:
        events.add("heavenly")
    elif (
        st.entry is Entry.DRAW
        and seat is not Seat.E
        and st.draws[seat] == 1
        and not st.melded_any
        and not events
    ):
        events.add("earthly")
    valid, won = declare(st, seat, st.drawn, None, frozenset(events))
    others = list(st.others_in(seat))
    if facts is not None:
        facts.append(won)
    if valid:
        score = won.score
        assert score is not None
        kong_discarder = None
        if score.payer is Payer.MELDED_KONG_DISCARDER and st.kong_chain:
            kong_discarder = st.kong_chain[-1].from_seat  # None unless a melded kong
        if pattern_pay(st):
            st.lines += deal_wellness.win(st, score, seat, None, others)
        else:
            st.lines += pay.self_drawn_hu(
                st.rs,
                seat,
                others,
                score.value,
                score.multiplier,
                _why(score, "self-drawn Hu on", won.tile),
                kong_discarder,
            )
    else:
        pay_false_hu(st, seat, others)
    st.out[seat] = True
    st.wins.append(won)
    st.hu_events += 1
    st.kong_chain = []
    after_hu(st, seat, (seat,), facts)
