"""A synthetic deal as the daemon would publish it, with distinctive hidden information.

Every tile any player holds concealed and every wall tile is a Bamboo tile (`1s`-`9s`);
nothing public (discards, melds, Hu tiles) is ever Bamboo. So any `<rank>s` token in a public
answer is a leak. The alert and journal texts carry the marker `SECRET`. Seat W's void suit is
Bamboo and stays hidden until step `REVEAL`; S's void (Dots) is never revealed.
"""

from __future__ import annotations

import re
from dataclasses import replace

from controller.outputs.view import (
    ActionView,
    AlertView,
    BroadcastView,
    HandView,
    LedgerLineView,
    PatternView,
    PublicView,
    RefereeView,
    SeatView,
)

HIDDEN_TILE = re.compile(r"(?<![0-9a-z])[1-9]s(?![a-z])")  # "7s", never inside a word
MARKERS = ("SECRET",)
WALL = ("1s", "2s", "3s", "4s", "5s", "6s", "9s", "8s", "7s", "1s", "2s")
PLAYERS = ("Li Wei", "Anna Petrova", "Kenji Sato", "Marie Dubois")
REVEAL = 4  # the step at which W's void is turned up

HANDS_BY_STEP = {
    "E": ("1s", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "9s", "9s", "5s"),
    "S": ("2s", "2s", "3s", "3s", "4s", "4s", "6s", "6s", "7s", "7s", "8s", "8s", "1s"),
    "W": ("1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "1s", "2s", "3s", "4s"),
    "N": ("5s", "5s", "6s", "6s", "7s", "8s", "9s", "9s", "1s", "2s", "3s", "4s", "6s"),
}
VOIDS = {"E": "p", "S": "p", "W": "s", "N": "m"}


def _seat(
    seat: str, i: int, discards=(), melds=(), score=0, delta=0, void=None, hu=None, hu_tile=None
):
    standing = 13 - 3 * len(melds)
    return SeatView(
        seat=seat,
        player=PLAYERS[i],
        score=score,
        deal_delta=delta,
        discards=tuple(discards),
        melds=tuple(melds),
        standing=standing if hu is None else 0,
        void=void,
        hu_order=hu,
        hu_tile=hu_tile,
    )


def public_steps() -> list[PublicView]:
    """Eight moments of one deal, in publishing order (seq 1..8)."""
    base = PublicView(
        table="T7",
        session=2,
        deal=5,
        rules="sbr-mil",
        dealer="E",
        phase="choosing_void",
        turn=None,
        tiles_left=55,
        claim_remaining_s=None,
        last_discard=None,
        seats=tuple(_seat(s, i, score=100) for i, s in enumerate("ESWN")),
        seq=1,
    )
    steps = [base]

    def step(**changes):
        nxt = replace(steps[-1], seq=steps[-1].seq + 1, **changes)
        steps.append(nxt)
        return nxt

    def seats(**per_seat):
        return tuple(per_seat.get(s.seat, s) for s in steps[-1].seats)

    step(phase="playing.awaiting_discard", turn="E", tiles_left=55)
    e = steps[-1].seats[0]
    step(
        phase="playing.claim_window",
        turn="E",
        last_discard="5m",
        discarder="E",
        last_action=ActionView("E", "discard", "5m", None, "E discards 5m"),
        claim_remaining_s=2.5,
        seats=seats(E=replace(e, discards=("5m",))),
    )
    s = steps[-1].seats[1]
    step(
        phase="playing.awaiting_discard",
        turn="S",
        claim_remaining_s=None,
        discarder=None,
        last_action=ActionView("S", "draw", None, None, "S draws"),
        tiles_left=54,
        seats=seats(S=replace(s, discards=("1p",))),
    )
    w = steps[-1].seats[2]
    # REVEAL: W turns up the face-down void tile.
    step(
        phase="playing.claim_window",
        turn="W",
        last_discard="9p",
        discarder="W",
        last_action=ActionView("W", "discard", "9p", None, "W discards 9p"),
        claim_remaining_s=3.0,
        tiles_left=53,
        seats=seats(W=replace(w, void="s", discards=("9p",))),
    )
    n = steps[-1].seats[3]
    step(
        phase="playing.awaiting_discard",
        turn="N",
        claim_remaining_s=None,
        last_discard=None,
        discarder=None,
        last_action=ActionView("N", "pung", "9p", "W", "N pungs 9p from W"),
        seats=seats(
            W=replace(steps[-1].seats[2], discards=()),
            N=replace(n, melds=("pung 9p",), standing=11),
        ),
    )
    step(
        phase="playing.awaiting_draw",
        turn="E",
        tiles_left=40,
        seats=seats(
            E=replace(steps[-1].seats[0], discards=("5m", "2m", "3p", "4m", "7m", "8p")),
            N=replace(steps[-1].seats[3], discards=("6m", "2p")),
        ),
    )
    # settled (the deal was ended by the referee after W's Hu): the changes are in the
    # totals; the hands are not revealed in these steps (every concealed tile is Bamboo:
    # `result_view` reveals them)
    step(
        phase="settled",
        turn=None,
        tiles_left=31,
        end="referee",
        last_action=ActionView(None, "end-deal", None, None, "Deal ended by the referee"),
        ledger=tuple(LedgerLineView(p, "W", 4, "Hu", "004 Table 6: self-drawn Hu") for p in "ESN"),
        seats=tuple(
            replace(sv, score=sv.score + d, deal_change=d, hu_order=h, hu_tile=t)
            for sv, d, h, t in zip(
                steps[-1].seats,
                (-4, -4, 12, -4),
                (None, None, 1, None),
                (None, None, "3p", None),
                strict=True,
            )
        ),
    )
    return steps


def result_view() -> PublicView:
    """The settled step as a result screen: every hand face up (Bamboo: this is the only
    public moment where they may show), W's Hu with its patterns."""
    last = public_steps()[-1]
    seats = []
    for sv in last.seats:
        standing = HANDS_BY_STEP[sv.seat][: sv.standing]
        extra = {}
        if sv.seat == "W":
            standing = HANDS_BY_STEP["W"][:13]
            extra = dict(hu_value=4, hu_fan=2, hu_patterns=(PatternView("qing-yi-se", 2),))
        seats.append(replace(sv, hand=standing, **extra))
    return replace(last, seats=tuple(seats), seq=last.seq + 1)


def hands() -> tuple[HandView, ...]:
    return tuple(
        HandView(seat, HANDS_BY_STEP[seat], VOIDS[seat], waits=("9s",), max_value=4)
        for seat in "ESWN"
    )


def referee_view(public: PublicView) -> RefereeView:
    return RefereeView(
        public=public,
        hands=hands(),
        wall_remaining=WALL,
        alerts=(
            AlertView(public.seq, "16:02:11", "warning", "SECRET alert: tag seen in two zones"),
            AlertView(public.seq, "16:02:12", "error", "SECRET unknown tag 04a1"),
        ),
        journal_tail=(
            f"#{public.seq} SECRET draw E 7s",
            "SECRET wall scanned 1s2s3s",
            # the daemon's form (controller/daemon/contracts.py tail_line): seq, wall, words
            f"{public.seq}\t2026-03-01T10:00:05.000+00:00\tSouth discards 5 Dots",
        ),
    )


def broadcast_view(public: PublicView, shown_at: float) -> BroadcastView:
    return BroadcastView(public=public, hands=hands(), shown_at=shown_at)


def leaks(text: str) -> list[str]:
    """The hidden things found in `text`: Bamboo tiles, markers, the wall order."""
    found = HIDDEN_TILE.findall(text)
    found += [m for m in MARKERS if m in text]
    # Voids never revealed in this deal: E and S (Dots), N (Characters).
    found += re.findall(r'"void":\s*"[pm]"', text)
    if "".join(WALL) in text.replace('","', "").replace(" ", ""):
        found.append("wall order")
    return found
