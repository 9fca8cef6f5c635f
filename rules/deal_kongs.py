"""Kongs in a deal: the kongs declared on one's own turn (concealed, promoted, postponed),
the record of every kong and its payments, and the robbing window a promoted or postponed
kong opens (004 Tables 3 and 7; 000 2.5.4). A melded kong is a claim (rules.deal_claims),
recorded here once it is taken."""

from __future__ import annotations

from rules import deal_hu, deal_void, settlement as pay
from rules.claims import Window, WindowKind
from rules.deal_state import (
    OWN_TURN_KONGS,
    Entry,
    Facts,
    KongRecord,
    Phase,
    Problem,
    State,
    own_turn,
)
from rules.melds import Meld, MeldKind, set_of
from rules.moves import Kong, Melded, Reason, Robbed
from rules.seats import Seat


def record(st: State, seat: Seat, meld: Meld, payers: list[Seat], from_seat: Seat | None) -> None:
    """A declared kong: its payments (004 Table 7), kept for refunds, and counted in the
    turn's kongs (a Hu on the declarer's next discard refunds them)."""
    rec = KongRecord(seat, meld, pay.kong_payment(st.rs, seat, meld, payers), from_seat)
    st.lines += rec.lines
    st.kongs.append(rec)
    st.kong_chain.append(rec)
    st.turn = seat
    st.phase = Phase.REPLACEMENT


def check_own(st: State, m: Kong) -> Problem:
    p = own_turn(st, m.seat, Phase.DISCARD, "a kong")
    if p:
        return p
    if m.kind not in OWN_TURN_KONGS or m.tile is None:
        return Reason.NOT_A_KONG, f"{m.kind} {m.tile} is not a kong declared on one's own turn"
    if st.entry is Entry.PUNG:
        return Reason.KONG_AFTER_PUNG, "no kong on a turn entered by a pung"
    if st.entry is Entry.CHOW:
        # 001 IV 2.3: the claimed set is laid out, then a tile discarded; as after a pung
        return Reason.KONG_AFTER_CHOW, "no kong on a turn entered by a chow"
    if st.wall.exhausted:
        return Reason.NO_REPLACEMENT_TILE, "no replacement tile is left"
    h = st.hands[m.seat]
    if m.kind is MeldKind.CONCEALED_KONG:
        if h[m.tile] != 4:
            return Reason.NOT_A_KONG, f"{m.seat} holds {h[m.tile]} {m.tile}, not four"
        return None
    if set_of(MeldKind.PUNG, m.tile) not in st.melds[m.seat]:
        return Reason.NOT_A_KONG, f"{m.seat} has no pung of {m.tile}"
    if not h[m.tile]:
        return Reason.TILE_NOT_IN_HAND, f"{m.seat} holds no {m.tile}"
    # 004 Table 3: the 4th tile freshly drawn makes a promoted kong, one kept in the hand a
    # postponed kong; the two pay differently (Table 7), so the kind must fit the tile.
    if (m.kind is MeldKind.PROMOTED_KONG) != (st.drawn == m.tile):
        if m.kind is MeldKind.PROMOTED_KONG:
            return Reason.NOT_A_KONG, f"{m.tile} was not freshly drawn: a postponed kong"
        return Reason.NOT_A_KONG, f"{m.tile} was freshly drawn: a promoted kong"
    return None


def own(st: State, m: Kong, facts: Facts) -> None:
    """A concealed kong is paid at once and a replacement tile follows; a promoted or
    postponed kong first opens a robbing window on its added tile (004 Table 3)."""
    seat, tile = m.seat, m.tile
    assert tile is not None
    meld = set_of(m.kind, tile)
    st.drawn = None
    st.melded_any = True
    if m.kind is MeldKind.CONCEALED_KONG:
        st.add_tiles(seat, tile, -4)
        deal_void.lay_down(st, seat, tile)
        st.melds[seat].append(meld)
        if facts is not None:
            facts.append(Melded(seat, meld, None))
        if st.void[seat] is tile.suit:
            declared = deal_void.set_declared(st, seat, meld)
            if facts is not None:
                facts.append(declared)
        record(st, seat, meld, list(st.others_in(seat)), None)
        return
    st.add_tiles(seat, tile, -1)
    deal_void.lay_down(st, seat, tile)
    index = st.melds[seat].index(set_of(MeldKind.PUNG, tile))
    st.melds[seat][index] = meld
    st.window = Window(
        WindowKind.ROBBING, tile, seat, st.others_in(seat), kong_meld=meld, kong_index=index
    )
    st.phase = Phase.ROBBING


def resolve_robbing(st: State, w: Window, hu: tuple[Seat, ...], facts: Facts) -> None:
    """The robbing window closed: robbed (004 Table 3: as a win on a discard; the kong stays
    a pung), or the kong stands, is paid, and its declarer takes a replacement tile."""
    declarer = w.discarder
    meld = w.kong_meld
    assert meld is not None
    if hu:
        st.melds[declarer][w.kong_index] = set_of(MeldKind.PUNG, w.tile)
        if facts is not None:
            facts.append(Robbed(declarer, w.tile))
        deal_hu.pay_group(st, w, hu, facts)
        deal_hu.after_hu(st, declarer, hu, facts)
        return
    record(st, declarer, meld, list(st.others_in(declarer)), None)
    if facts is not None:
        facts.append(Melded(declarer, meld, None))
