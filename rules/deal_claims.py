"""Claims in a deal: the declarations made in an open claim or robbing window (Hu, Pung,
melded Kong, Chow, Pass), and the window's resolution when every eligible player has
declared or the controller's clock closes it (004 Lesson 4; 001 IV 2-4; 000 2.2.4; see
rules.claims for the flow). Players who said nothing have passed: one who let a winning tile
go is locked (rules.deal_hu), and under `skip_pung_lock` (WMT) one who could have punged
may not pung that tile before a draw."""

from __future__ import annotations

from rules import deal_end, deal_hu, deal_kongs, deal_void, settlement as pay
from rules.claims import Window, WindowKind, next_player, resolve
from rules.deal_state import Entry, Facts, Phase, Problem, State, common
from rules.melds import Meld, MeldKind, set_of
from rules.moves import (
    TURN_PASSED,
    Chow,
    CloseClaims,
    DealEnd,
    Hu,
    Kong,
    Melded,
    Pass,
    Pung,
    Reason,
    RobKong,
)
from rules.ruleset import SequentialClaim
from rules.seats import Seat
from rules.tiles import TILES, Tile

# -- checks ----------------------------------------------------------------------------------


def _in_window(st: State, seat: Seat, robbing: bool | None) -> Problem:
    """A declaration in the open window; `robbing` None: either kind of window."""
    p = common(st, seat)
    if p:
        return p
    w = st.window
    if w is None:
        return Reason.CLAIM_NOT_ADMISSIBLE, "no discard is open to claims"
    if robbing is not None and (w.kind is WindowKind.ROBBING) != robbing:
        what = "a robbing window (only Hu)" if robbing is False else "no kong to rob"
        return Reason.CLAIM_NOT_ADMISSIBLE, f"this is {what}"
    if seat is w.discarder:
        return Reason.CLAIM_NOT_ADMISSIBLE, f"{seat} cannot claim its own tile"
    if seat in w.declared:
        return Reason.ALREADY_DECLARED, f"{seat} declared {w.declared[seat]} already"
    return None


def _refuses_sequential(st: State) -> bool:
    return st.rs.play.sequential_claim is SequentialClaim.REFUSED


def check_hu(st: State, m: Hu | RobKong) -> Problem:
    p = _in_window(st, m.seat, True if isinstance(m, RobKong) else None)
    if p:
        return p
    w = st.window
    assert w is not None
    p = deal_void.claim_problem(st, m.seat, w.tile)
    if p:
        return p
    if st.hu_lock[m.seat] and _refuses_sequential(st):
        detail = deal_hu.lock_detail(st, m.seat, w)
        if detail is not None:
            return Reason.SKIPPED_HU_LOCK, detail
    return None


def check_pung(st: State, m: Pung) -> Problem:
    p = _in_window(st, m.seat, False)
    if p:
        return p
    w = st.window
    assert w is not None
    p = deal_void.set_problem(st, m.seat, w.tile)
    if p:
        return p
    if st.hands[m.seat][w.tile] < 2:
        return Reason.CLAIM_NOT_ADMISSIBLE, f"{m.seat} holds fewer than two {w.tile}"
    if w.tile in st.pung_lock[m.seat] and _refuses_sequential(st):
        return Reason.SKIPPED_PUNG_LOCK, f"{m.seat} passed {w.tile} already (000 2.2.4)"
    return None


def check_melded_kong(st: State, m: Kong) -> Problem:
    p = _in_window(st, m.seat, False)
    if p:
        return p
    w = st.window
    assert w is not None
    if m.tile is not None and m.tile != w.tile:
        return Reason.CLAIM_NOT_ADMISSIBLE, f"the open discard is {w.tile}, not {m.tile}"
    p = deal_void.set_problem(st, m.seat, w.tile)
    if p:
        return p
    if w.last:
        return Reason.AFTER_LAST_TILE, "only Hu or Pung on the last discard (004 Lesson 4)"
    if st.hands[m.seat][w.tile] < 3:
        return Reason.CLAIM_NOT_ADMISSIBLE, f"{m.seat} holds fewer than three {w.tile}"
    return None


def check_chow(st: State, m: Chow) -> Problem:
    """001 IV 2.1: a chow is claimed on a discard; only the next player after the
    discarder (IV 4.2, the "upper seat" discards just before the claimer) may claim it; with
    players out (a won player is skipped) that is the next player still in, the one who
    would draw next."""
    p = common(st, m.seat)
    if p:
        return p
    if not st.rs.play.chow_claims:
        return Reason.NO_CHOW_CLAIMS, f"no chow is claimed in {st.rs.name}"
    p = _in_window(st, m.seat, False)
    if p:
        return p
    w = st.window
    assert w is not None
    if m.seat is not w.eligible[0]:
        return (
            Reason.CHOW_NOT_FROM_LEFT,
            f"only {w.eligible[0]}, next after {w.discarder}, may chow its discard",
        )
    low, tile = m.tile, w.tile
    if low.is_honour or low.rank > 7 or tile.suit is not low.suit or not 0 <= tile - low <= 2:
        return Reason.NOT_A_CHOW, f"the discard {tile} is not in a chow starting at {low}"
    p = deal_void.claim_problem(st, m.seat, tile)
    if p:
        return p
    h = st.hands[m.seat]
    for other in (low, low + 1, low + 2):
        if other != tile and not h[other]:
            return Reason.NOT_A_CHOW, f"{m.seat} holds no {TILES[other]} for a chow of {tile}"
    return None


def check_pass(st: State, m: Pass) -> Problem:
    return _in_window(st, m.seat, None)


def check_close(st: State, m: CloseClaims) -> Problem:
    if st.window is not None:
        return None  # an open window is never one of a deal that is over
    if st.phase is Phase.OVER:
        return Reason.DEAL_OVER, "the deal is over"
    return Reason.WRONG_PHASE, "no claim window is open"


# -- effects ---------------------------------------------------------------------------------


def declare(st: State, m: Hu | Pung | Kong | Chow | RobKong | Pass, facts: Facts) -> None:
    """A declaration joins the window, which resolves once every eligible player spoke."""
    w = st.window
    assert w is not None
    w.declared[m.seat] = m
    if w.complete:
        _resolve(st, w, facts)


def close(st: State, m: CloseClaims, facts: Facts) -> None:
    """The controller's clock ran out: whoever said nothing passed."""
    w = st.window
    assert w is not None
    _resolve(st, w, facts)


def _lock_passers(st: State, w: Window, passed: tuple[Seat, ...]) -> None:
    if st.rs.play.skip_hu_lock:
        wins = w.wins  # what the window knows already (`deal_hu.wins_with`)
        for s in passed:
            known = wins[s]
            if known is None:
                known = wins[s] = deal_hu.wins_on(st, s, w.tile)
            if known:
                deal_hu.lock(st, w, s)
    if st.rs.play.skip_pung_lock and w.kind is WindowKind.DISCARD:
        for s in passed:
            if (
                not isinstance(w.declared.get(s), Pung | Kong)
                and st.hands[s][w.tile] >= 2
                and st.void[s] is not w.tile.suit
            ):
                st.pung_lock[s].add(w.tile)


def _resolve(st: State, w: Window, facts: Facts) -> None:
    res = resolve(w)  # None: everybody let the tile go
    _lock_passers(st, w, w.eligible if res is None else res.passed)
    st.window = None
    if w.kind is WindowKind.ROBBING:
        deal_kongs.resolve_robbing(st, w, () if res is None else res.hu, facts)
        return
    kongs = st.window_kongs
    st.window_kongs = []
    if res is not None and res.hu:
        st.river[w.discarder].pop()
        if deal_hu.pay_group(st, w, res.hu, facts):
            # 004 Table 7: no kong payment when Hu is declared on the declarer's next discard
            for rec in kongs:
                if not rec.refunded:
                    rec.refunded = True
                    st.lines += pay.refund(rec.lines, pay.R_REFUND_NEXT_DISCARD)
        deal_hu.after_hu(st, w.discarder, res.hu, facts)
        return
    if res is not None and res.taker is not None:
        st.river[w.discarder].pop()
        if isinstance(res.meld, Chow):
            _meld_chow(st, w, res.taker, res.meld.tile, facts)
        else:
            _meld_set(st, w, res.taker, isinstance(res.meld, Kong), facts)
        return
    # nobody takes the tile: the next player draws, or the wall is over
    if w.last:
        deal_end.finish(st, DealEnd.WALL, facts)
        return
    nxt = next_player(w.discarder, (), st.out)
    assert nxt is not None
    st.turn = nxt
    st.phase = Phase.DRAW
    if facts is not None:
        facts.append(TURN_PASSED[nxt])


def _meld_set(st: State, w: Window, seat: Seat, kong: bool, facts: Facts) -> None:
    """A pung or melded kong of the discard joins the claimer's melds."""
    meld = set_of(MeldKind.KONG if kong else MeldKind.PUNG, w.tile)
    st.add_tiles(seat, w.tile, -3 if kong else -2)
    st.melds[seat].append(meld)
    st.melded_any = True
    if facts is not None:
        facts.append(Melded(seat, meld, w.discarder))
    if not kong and w.tile in st.pung_lock[seat]:
        # 000 2.2.4 (`play.sequential-claim = "false-win"`; else refused by the check): the
        # pung stands and the player plays on, paying each other player still in the
        # false-win amount
        why = f"sequential pung of {w.tile} (passed since the last draw)"
        payees = list(st.others_in(seat))
        st.lines += pay.false_hu(st.rs, seat, payees, why, pay.R_SEQUENTIAL)
    if w.tile.suit is st.void[seat]:
        deal_void.lay_down(st, seat, w.tile)
        declared = deal_void.set_declared(st, seat, meld)
        if facts is not None:
            facts.append(declared)
    st.turn = seat
    st.drawn = None
    if kong:
        deal_kongs.record(st, seat, meld, [w.discarder], w.discarder)
    else:
        st.entry = Entry.PUNG
        st.phase = Phase.DISCARD


def _meld_chow(st: State, w: Window, seat: Seat, low: Tile, facts: Facts) -> None:
    """001 IV 2.1-2.3: the chow joins the claimer's melds, then the claimer discards."""
    meld = Meld(MeldKind.CHOW, low)
    for t in meld.tiles:
        if t != w.tile:
            st.add_tiles(seat, t, -1)
    st.melds[seat].append(meld)
    st.melded_any = True
    if facts is not None:
        facts.append(Melded(seat, meld, w.discarder))
    st.turn = seat
    st.drawn = None
    st.entry = Entry.CHOW
    st.phase = Phase.DISCARD
