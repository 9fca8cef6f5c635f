"""The end of a deal: what is settled when it ends, by the way it ends (004 Lesson 5 "In the
'3-Hu' final" and "In the 'wall ends' final"; 002; 000 2.3.1, 2.5.4, 2.6). `finish` ends the
deal; a deal ended by the session clock (`EndDeal`) settles nothing more.

- Wall end (every rule set): each player still in is checked. Not-ready players pay the
  ready ones (`rules.settlement.wall_end`; Wellness: `rules.deal_wellness.wall_end`), kong
  payments are refunded (`payments.kong-refund-on-draw`), and a player still holding
  void-suit tiles pays the void penalty, unless every discard was of the void suit and the
  rule set waives it then (004 Lesson 2 Note: "after taking all the tiles from the wall, the
  penalty is not charged").
- Three Hu: 004 does not check the last player's hand ("the non-Hu player's hand is not
  shown and not checked"); with `payments.void-penalty-after-three-hu` (002: "if deals end
  (either after three wins of if wall is depleted)") a player still in who holds void-suit
  tiles pays the void penalty, with no waiver (002 states none).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules import deal_void, deal_wellness, settlement as pay
from rules.deal_state import Facts, Phase, State
from rules.melds import Meld
from rules.moves import DealEnd, DealOver
from rules.ruleset import KongRefund, ScoringMethod
from rules.scoring import theoretical_maximum
from rules.settlement import EndHand


def finish(st: State, end: DealEnd, facts: Facts) -> None:
    """End the deal by `end` and settle what that ending settles (the module docstring)."""
    st.end = end
    st.phase = Phase.OVER
    st.window = None
    if facts is not None:
        facts.append(DealOver(end))
    if end is DealEnd.WALL:
        if st.rs.scoring.method is ScoringMethod.HIGHEST_PATTERN:
            st.lines += deal_wellness.wall_end(st)
        else:
            _wall_end(st)
    elif end is DealEnd.HU and st.rs.payments.void_penalty_after_three_hu:
        deal_void.charge_held(st, st.still_in, waiver=False)


def _wall_end(st: State) -> None:
    rs = st.rs
    hands = []
    for s in st.still_in:
        counts = tuple(st.hands[s])
        melds = tuple(st.melds[s])
        void = st.void[s]
        maximum = theoretical_maximum(counts, melds, void, rs)
        hands.append(EndHand(s, counts, melds, void, maximum, _three_suits(counts, melds)))
    st.lines += pay.wall_end(rs, hands)
    refund_all = rs.payments.kong_refund_on_draw is KongRefund.ALL
    not_ready = {h.seat for h in hands if not h.ready}
    for rec in st.kongs:
        if rec.refunded:
            continue
        if refund_all:
            rec.refunded = True
            st.lines += pay.refund(rec.lines, pay.R_REFUND_DRAW)
        elif rec.seat in not_ready:
            rec.refunded = True
            st.lines += pay.refund(rec.lines, pay.R_REFUND_NOT_READY)
    deal_void.charge_held(
        st, (h.seat for h in hands), rs.payments.void_penalty_waived_if_all_discards_void
    )


def _three_suits(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """All three number suits held, standing or declared (WMT flower pig, 000 2.3.1)."""
    held = [any(counts[0:9]), any(counts[9:18]), any(counts[18:27])]
    for m in melds:
        if not m.tile.is_honour:
            held[m.tile.suit.offset // 9] = True
    return all(held)
