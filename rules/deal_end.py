"""The end of a deal: what is settled when it ends, by the way it ends (004 Lesson 5 "In the
'3-Hu' final" and "In the 'wall ends' final"; 002; 000 2.3.1, 2.5.4, 2.6). Called by
`Deal._finish` once the deal is over; a deal ended by the session clock (`EndDeal`) settles
nothing more.

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

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rules import deal_wellness, settlement as pay
from rules.melds import Meld
from rules.moves import DealEnd
from rules.ruleset import KongRefund
from rules.scoring import theoretical_maximum
from rules.seats import Seat
from rules.settlement import EndHand

if TYPE_CHECKING:
    from rules.deal import Deal


def settle(deal: Deal, end: DealEnd) -> None:
    """The payments due when the deal ends by `end` (the module docstring)."""
    if end is DealEnd.WALL:
        if deal._pattern_pay:
            deal._lines += deal_wellness.wall_end(deal)
        else:
            _wall_end(deal)
    elif end is DealEnd.HU and deal.rs.payments.void_penalty_after_three_hu:
        _void_check(deal, deal.still_in, waiver=False)


def _wall_end(deal: Deal) -> None:
    rs = deal.rs
    hands = []
    hands_of, melds_of, void_of = deal._hands, deal._melds, deal._void
    for s in deal.still_in:
        counts = tuple(hands_of[s])
        melds = tuple(melds_of[s])
        void = void_of[s]
        pig = _three_suits(counts, melds)
        maximum = theoretical_maximum(counts, melds, void, rs)
        hands.append(EndHand(s, counts, melds, void, maximum, pig))
    deal._lines += pay.wall_end(rs, hands)
    if deal._kongs:  # most deals declare no kong: nothing to refund
        refund_all = rs.payments.kong_refund_on_draw is KongRefund.ALL
        not_ready = {h.seat for h in hands if not h.ready}
        for rec in deal._kongs:
            if rec.refunded:
                continue
            if refund_all:
                rec.refunded = True
                deal._lines += pay.refund(rec.lines, pay.R_REFUND_DRAW)
            elif rec.seat in not_ready:
                rec.refunded = True
                deal._lines += pay.refund(rec.lines, pay.R_REFUND_NOT_READY)
    _void_check(deal, (h.seat for h in hands), rs.payments.void_penalty_waived_if_all_discards_void)


def _void_check(deal: Deal, seats: Iterable[Seat], waiver: bool) -> None:
    """The void penalty for each of `seats` still holding a void-suit tile; with `waiver`,
    not for one whose every discard was of its void suit (004 Lesson 2 Note)."""
    for seat in seats:
        held = deal._void_held(seat)
        if held is None:
            continue
        void = deal._void[seat]
        if waiver and all(t.suit is void for t in deal._discards[seat]):
            continue
        deal._penalize_void(seat, False, held)


def _three_suits(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """All three number suits held, standing or declared (WMT flower pig, 000 2.3.1)."""
    held = [any(counts[0:9]), any(counts[9:18]), any(counts[18:27])]
    for m in melds:
        if m.tile < 27:  # not an honour
            held[m.tile // 9] = True
    return all(held)
