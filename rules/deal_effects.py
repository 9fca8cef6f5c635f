"""What each accepted move does to a deal (the judge's effects): hands, melds, the wall,
claim windows and their resolution, Hu declarations and the payments they bring. Called
only after rules.deal_checks passed the move."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rules import deal_checks, deal_wellness, settlement as pay
from rules.claims import Window, WindowKind, discard_window, next_player, resolve, seats_after
from rules.deal_state import Entry, KongRecord, Phase
from rules.live_hand import SUIT_INDEX as _SUIT_INDEX, UNIT as _UNIT
from rules.melds import Meld, MeldKind, set_of
from rules.moves import (
    TURN_PASSED,
    ChooseVoid,
    Chow,
    CloseClaims,
    Correction,
    DealEnd,
    Discard,
    Draw,
    Drawn,
    EndDeal,
    Fact,
    Hu,
    Kong,
    Melded,
    Pass,
    Penalty,
    Pung,
    ReplacementDraw,
    Robbed,
    RobKong,
    SelfDrawnHu,
    VoidSetDeclared,
    Won,
)
from rules.ruleset import Payer
from rules.scoring import Score
from rules.seats import SEATS, Seat
from rules.tiles import TILES, Tile

_SUIT_OF = tuple(t.suit for t in TILES)
# the facts of a silent window, one tuple per seat the turn passes to
_PASSED_TO: tuple[tuple[Fact], ...] = tuple((TURN_PASSED[s],) for s in SEATS)
# for each seat and each set of players out (bit s: seat s is out), the others still in
OTHERS_IN: tuple[tuple[tuple[Seat, ...], ...], ...] = tuple(
    tuple(tuple(s for s in seats_after(seat) if not mask >> s & 1) for mask in range(16))
    for seat in SEATS
)

if TYPE_CHECKING:
    from rules.deal import Deal


# -- effects: called only after the check passed ----------------------------------------


def _do_void(deal: Deal, m: ChooseVoid) -> list[Fact]:
    deal._void[m.seat] = m.suit
    deal._void_chosen[m.seat] = True
    deal._laid[m.seat] = m.tile
    if all(deal._void_chosen):
        deal.phase = Phase.DISCARD
        deal.turn = Seat.E
    return []


def _took(deal: Deal, seat: Seat, replacement: bool, tile: Tile | None) -> list[Fact]:
    wall = deal.wall
    take = wall.replacement(seat, tile) if replacement else wall.draw(seat, tile)
    deal._hands[seat][take.tile] += 1
    deal._keys[seat][_SUIT_INDEX[take.tile]] += _UNIT[take.tile]
    deal._drawn = take.tile
    deal._hu_lock[seat] = 0
    lock = deal._pung_lock[seat]
    if lock:
        lock.clear()
    deal._draws[seat] += 1
    deal._entry = Entry.REPLACEMENT if replacement else Entry.DRAW
    deal.phase = Phase.DISCARD
    return [Drawn(take, replacement, not wall.tiles_left)]


def _do_draw(deal: Deal, m: Draw) -> list[Fact]:
    if deal._kong_chain:
        deal._kong_chain = []
    return _took(deal, m.seat, False, m.tile)


def _do_replacement(deal: Deal, m: ReplacementDraw) -> list[Fact]:
    return _took(deal, m.seat, True, m.tile)


def _do_discard(deal: Deal, m: Discard) -> tuple[Fact, ...]:
    seat, tile = m.seat, m.tile
    deal._hands[seat][tile] -= 1
    deal._keys[seat][_SUIT_INDEX[tile]] -= _UNIT[tile]
    laid = deal._laid[seat]
    if laid is not None and laid == tile:  # `None == tile` takes Python's slowest comparison
        deal._laid[seat] = None
    # the deal's first discard made by East, before any meld (WMT earthly hand)
    dealer_first = seat is Seat.E and not deal._melded_any and not any(deal._discards)
    deal._river[seat].append(tile)
    deal._discards[seat].append(tile)
    deal._drawn = None
    eligible = OTHERS_IN[seat][deal._out_mask]  # `deal._others_in_order(seat)`, inlined
    chain = deal._kong_chain
    deal._window = discard_window(
        tile, seat, eligible, not deal.wall.tiles_left, bool(chain), dealer_first
    )
    deal._window_kongs = chain
    deal._kong_chain = []
    deal.phase = Phase.CLAIMS
    return ()


def _do_claim(deal: Deal, m: Hu | Pung | Kong | Chow | RobKong | Pass) -> list[Fact]:
    w = deal._window
    assert w is not None
    w.declared[m.seat] = m
    return _resolve(deal) if w.complete else []


def _do_close(deal: Deal, m: CloseClaims) -> Sequence[Fact]:
    w = deal._window
    assert w is not None
    if w.kind is WindowKind.DISCARD and only_passes(w):
        return resolve_silent(deal, w)
    return _resolve(deal)


def only_passes(w: Window) -> bool:
    """Whether nobody declared anything but `Pass` in the window (most windows: nothing
    at all): then it resolves as `resolve_silent` says, every eligible player passing."""
    declared = w.declared
    if not declared:
        return True
    for claim in declared.values():  # noqa: SIM110 - a plain loop: no generator a window
        if type(claim) is not Pass:
            return False
    return True


def _lock_hu(deal: Deal, w: Window, s: Seat) -> None:
    """Lock a player who let a winning tile go (004 Lesson 4): no Hu on a discard before a
    draw unless it pays more; highest-pattern scoring (001 IV 3.2): unless the fan changes,
    one bit per fan row let go."""
    events = deal._discard_events(w, s)
    if deal._fan_lock:
        deal._hu_lock[s] |= 1 << deal._hu_score(s, w.tile, events).total_fan
    else:
        value = deal._payment(s, w.tile, events)
        deal._hu_lock[s] = max(deal._hu_lock[s], value)


def _lock_passers(deal: Deal, w: Window, passed: Iterable[Seat], hu_lock: bool = True) -> None:
    tile = w.tile
    if hu_lock and deal._skip_hu_lock:
        wins = w.wins  # `deal._wins_with` inlined: the bots asked most passers already
        for s in passed:
            known = wins[s]
            if known is None:
                known = wins[s] = deal._wins_on(s, tile)
            if known:
                _lock_hu(deal, w, s)
    if deal._skip_pung_lock and w.kind is WindowKind.DISCARD:
        for s in passed:
            if (
                not isinstance(w.declared.get(s), (Pung, Kong))
                and deal._hands[s][tile] >= 2
                and deal._void[s] is not tile.suit
            ):
                deal._pung_lock[s].add(tile)


def _pay_hu_group(deal: Deal, w: Window, hu: tuple[Seat, ...], facts: list[Fact]) -> bool:
    """Score and pay the Hu declarations on one tile; True if any was valid."""
    results = []
    sequential: dict[Seat, str] = {}
    for s in hu:
        detail = deal._hu_lock[s] and deal_checks.hu_lock(deal, s, w)
        if detail:
            # 000 2.2.4 (`play.sequential-claim = "false-win"`; else refused by the check):
            # settled as a false win
            sequential[s] = f"sequential Hu: {detail}"
            results.append((False, Won(s, None, w.discarder, True, 0, deal._hu_events + 1)))
        else:
            results.append(deal._declare(s, w.tile, w.discarder, deal._discard_events(w, s)))
    for s in hu:
        deal._out[s] = True
        deal._out_mask |= 1 << s
    remaining = [s for s in SEATS if not deal._out[s]]
    any_valid = False
    for valid, won in results:
        s = won.seat
        if valid:
            any_valid = True
            score = won.score
            assert score is not None
            if deal._pattern_pay:
                deal._lines += deal_wellness.win(deal, score, s, w.discarder, ())
            else:
                deal._lines += pay.hu_on_discard(
                    s, w.discarder, score.value, score.multiplier, _why(score, "Hu on", w.tile)
                )
        else:
            deal._false_hu(s, remaining, sequential.get(s, ""))
        deal._wins.append(won)
        facts.append(won)
    deal._hu_events += 1
    return any_valid


def _why(score: Score, what: str, tile: Tile | None) -> str:
    names = ", ".join(f"{p.name} {p.fan}" for p in score.patterns)
    return f"{what} {tile} ({names or 'no fan'}; A={score.value})"


def _resolve(deal: Deal) -> list[Fact]:
    w = deal._window
    assert w is not None
    res = resolve(w)
    facts: list[Fact] = []
    _lock_passers(deal, w, res.passed)
    deal._window = None
    if w.kind is WindowKind.ROBBING:
        return _resolve_robbing(deal, w, res.hu, facts)
    kongs = deal._window_kongs
    deal._window_kongs = []
    if res.hu:
        deal._river[w.discarder].pop()
        if _pay_hu_group(deal, w, res.hu, facts) and kongs:
            for rec in kongs:
                if not rec.refunded:
                    rec.refunded = True
                    deal._lines += pay.refund(rec.lines, pay.R_REFUND_NEXT_DISCARD)
        deal._after_hu(w.discarder, res.hu, facts)
        return facts
    if res.taker is not None:
        seat = res.taker
        deal._river[w.discarder].pop()
        if isinstance(res.meld, Chow):
            return _meld_chow(deal, w, seat, res.meld.tile, facts)
        kind = MeldKind.KONG if isinstance(res.meld, Kong) else MeldKind.PUNG
        meld = set_of(kind, w.tile)
        n = 3 if kind is MeldKind.KONG else 2
        deal._hands[seat][w.tile] -= n
        deal._keys[seat][_SUIT_INDEX[w.tile]] -= n * _UNIT[w.tile]
        deal._melds[seat].append(meld)
        deal._melded_any = True
        facts.append(Melded(seat, meld, w.discarder))
        if kind is MeldKind.PUNG and w.tile in deal._pung_lock[seat]:
            # 000 2.2.4 (`play.sequential-claim = "false-win"`; else refused by the check): the
            # pung stands and the player plays on, paying each other player still in the
            # false-win amount
            why = f"sequential pung of {w.tile} (passed since the last draw)"
            deal._lines += pay.false_hu(deal.rs, seat, deal._others_in(seat), why, pay.R_SEQUENTIAL)
        if _SUIT_OF[w.tile] is deal._void[seat]:
            if deal._laid[seat] == w.tile and not deal._hands[seat][w.tile]:
                deal._laid[seat] = None  # the face-down void tile went into the set
            facts.append(_void_set(deal, seat, meld))
        deal.turn = seat
        deal._drawn = None
        if kind is MeldKind.KONG:
            rec = KongRecord(
                seat, meld, pay.kong_payment(deal.rs, seat, meld, [w.discarder]), w.discarder
            )
            deal._lines += rec.lines
            deal._kongs.append(rec)
            deal._kong_chain = [rec]
            deal.phase = Phase.REPLACEMENT
        else:
            deal._entry = Entry.PUNG
            deal.phase = Phase.DISCARD
        return facts
    if w.last:
        deal._finish(DealEnd.WALL, facts)
        return facts
    nxt = next_player(w.discarder, (), deal._out)
    assert nxt is not None
    deal.turn = nxt
    deal.phase = Phase.DRAW
    facts.append(TURN_PASSED[nxt])
    return facts


def resolve_silent(deal: Deal, w: Window) -> Sequence[Fact]:
    """`_resolve` of a discard everybody let go (most windows; `only_passes`), without
    building a `Resolution`: every eligible player passed, and play passes on."""
    if deal._skip_hu_lock:
        wins = w.wins
        for s in w.eligible:
            known = wins[s]  # the bots asked most passers already (`deal._wins_with`)
            if known is False:
                continue
            if known is None:
                # `deal._wins_on`: never on a tile of one's void suit (the tile and the
                # suit read here only: most windows find every passer known)
                tile = w.tile
                known = wins[s] = deal._void[s] is not _SUIT_OF[tile] and deal._wins_on(s, tile)
            if known:
                _lock_hu(deal, w, s)
    if deal._skip_pung_lock:
        _lock_passers(deal, w, w.eligible, hu_lock=False)
    deal._window = None
    if deal._window_kongs:
        deal._window_kongs = []
    if w.last:
        facts: list[Fact] = []
        deal._finish(DealEnd.WALL, facts)
        return facts
    # nobody left the deal since the discard: the first player still in after the
    # discarder is the first eligible one
    nxt = w.eligible[0] if w.eligible else next_player(w.discarder, (), deal._out)
    assert nxt is not None
    deal.turn = nxt
    deal.phase = Phase.DRAW
    return _PASSED_TO[nxt]


def _void_set(deal: Deal, seat: Seat, meld: Meld) -> VoidSetDeclared:
    """004 Lesson 5: a declared set of the void suit costs the void penalty, paid to nobody,
    once a deal (`Deal._penalize_void`); the fact tells the referee."""
    before = len(deal._lines)
    deal._penalize_void(seat, True, meld.tile)
    return VoidSetDeclared(seat, meld, sum(x.points for x in deal._lines[before:]))


def _meld_chow(deal: Deal, w: Window, seat: Seat, low: Tile, facts: list[Fact]) -> list[Fact]:
    """001 IV 2.1-2.3: the chow joins the claimer's melds, then the claimer discards."""
    meld = Meld(MeldKind.CHOW, low)
    hand, keys = deal._hands[seat], deal._keys[seat]
    for t in meld.tiles:
        if t != w.tile:
            hand[t] -= 1
            keys[_SUIT_INDEX[t]] -= _UNIT[t]
    deal._melds[seat].append(meld)
    deal._melded_any = True
    facts.append(Melded(seat, meld, w.discarder))
    deal.turn = seat
    deal._drawn = None
    deal._entry = Entry.CHOW
    deal.phase = Phase.DISCARD
    return facts


def _resolve_robbing(deal: Deal, w: Window, hu: tuple[Seat, ...], facts: list[Fact]) -> list[Fact]:
    declarer = w.discarder
    assert w.kong_meld is not None
    if hu:
        # 004 Table 3: robbing the kong counts as a win on a discard; the kong stays a pung
        deal._melds[declarer][w.kong_index] = set_of(MeldKind.PUNG, w.tile)
        facts.append(Robbed(declarer, w.tile))
        _pay_hu_group(deal, w, hu, facts)
        deal._after_hu(declarer, hu, facts)
        return facts
    meld = w.kong_meld
    rec = KongRecord(
        declarer, meld, pay.kong_payment(deal.rs, declarer, meld, deal._others_in(declarer))
    )
    deal._lines += rec.lines
    deal._kongs.append(rec)
    deal._kong_chain.append(rec)
    deal.turn = declarer
    deal.phase = Phase.REPLACEMENT
    facts.append(Melded(declarer, meld, None))
    return facts


def _do_kong(deal: Deal, m: Kong) -> list[Fact]:
    if m.kind is MeldKind.KONG:
        return _do_claim(deal, m)
    seat, tile = m.seat, m.tile
    assert tile is not None
    meld = set_of(m.kind, tile)
    deal._drawn = None
    deal._melded_any = True
    void = deal._void[seat]
    if m.kind is MeldKind.CONCEALED_KONG:
        deal._hands[seat][tile] -= 4
        deal._keys[seat][_SUIT_INDEX[tile]] -= 4 * _UNIT[tile]
        if deal._laid[seat] == tile:
            deal._laid[seat] = None
        deal._melds[seat].append(meld)
        facts: list[Fact] = [Melded(seat, meld, None)]
        if void is not None and tile.suit is void:
            facts.append(_void_set(deal, seat, meld))
        rec = KongRecord(seat, meld, pay.kong_payment(deal.rs, seat, meld, deal._others_in(seat)))
        deal._lines += rec.lines
        deal._kongs.append(rec)
        deal._kong_chain.append(rec)
        deal.phase = Phase.REPLACEMENT
        return facts
    deal._hands[seat][tile] -= 1
    deal._keys[seat][_SUIT_INDEX[tile]] -= _UNIT[tile]
    if deal._laid[seat] == tile and not deal._hands[seat][tile]:
        deal._laid[seat] = None
    index = deal._melds[seat].index(set_of(MeldKind.PUNG, tile))
    deal._melds[seat][index] = meld
    deal._window = Window(
        WindowKind.ROBBING,
        tile,
        seat,
        tuple(deal._others_in(seat)),
        kong_meld=meld,
        kong_index=index,
    )
    deal.phase = Phase.ROBBING
    return []


def _do_self_drawn(deal: Deal, m: SelfDrawnHu) -> list[Fact]:
    seat = m.seat
    events: set[str] = set()
    if deal._entry is Entry.REPLACEMENT:
        events.add("win-after-kong")
    if deal.wall.exhausted:
        events.add("under-the-sea")
    if deal._entry is Entry.DEALT:
        events.add("heavenly")
    elif (
        deal._entry is Entry.DRAW
        and seat is not Seat.E
        and deal._draws[seat] == 1
        and not deal._melded_any
        and not events
    ):
        events.add("earthly")
    valid, won = deal._declare(seat, deal._drawn, None, frozenset(events))
    others = deal._others_in(seat)
    facts: list[Fact] = [won]
    if valid:
        score = won.score
        assert score is not None
        kong_discarder = None
        if score.payer is Payer.MELDED_KONG_DISCARDER and deal._kong_chain:
            kong_discarder = deal._kong_chain[-1].from_seat  # None unless a melded kong
        if deal._pattern_pay:
            deal._lines += deal_wellness.win(deal, score, seat, None, others)
        else:
            deal._lines += pay.self_drawn_hu(
                deal.rs,
                seat,
                others,
                score.value,
                score.multiplier,
                _why(score, "self-drawn Hu on", won.tile),
                kong_discarder,
            )
    else:
        deal._false_hu(seat, others)
    deal._out[seat] = True
    deal._out_mask |= 1 << seat
    deal._wins.append(won)
    deal._hu_events += 1
    deal._kong_chain = []
    deal._after_hu(seat, (seat,), facts)
    return facts


def _do_penalty(deal: Deal, m: Penalty) -> list[Fact]:
    deal._lines += pay.referee_penalty(m.seat, m.points, m.reason, m.to)
    return []


def _do_correction(deal: Deal, m: Correction) -> list[Fact]:
    kept = list(deal._moves)
    undone = 0
    for i in range(len(kept) - 1, -1, -1):
        if undone == m.undo:
            break
        if not isinstance(kept[i], Penalty | EndDeal):
            del kept[i]
            undone += 1
    history = deal.history
    fresh = type(deal).replay(deal.rs, deal.dice, deal.wall_order, kept, prevalent=deal.prevalent)
    deal.__dict__.update(fresh.__dict__)
    deal.history = history
    return []


def _do_end(deal: Deal, m: EndDeal) -> list[Fact]:
    facts: list[Fact] = []
    deal._finish(DealEnd.TIME, facts)
    return facts


EFFECTS = {
    ChooseVoid: _do_void,
    Draw: _do_draw,
    ReplacementDraw: _do_replacement,
    Discard: _do_discard,
    Pung: _do_claim,
    Kong: _do_kong,
    Chow: _do_claim,
    Hu: _do_claim,
    RobKong: _do_claim,
    SelfDrawnHu: _do_self_drawn,
    Pass: _do_claim,
    CloseClaims: _do_close,
    Penalty: _do_penalty,
    Correction: _do_correction,
    EndDeal: _do_end,
}
