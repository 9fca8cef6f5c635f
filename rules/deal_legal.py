"""The moves a seat may make now, for bots, the recogniser and the referee's page: every
candidate of the phase that the judge's own check accepts (`rules.deal.Deal.legal_moves`,
`Deal.admissible_claims`, which call these)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from rules.claims import WindowKind
from rules.deal_hu import self_drawn_wins, sequential, wins_with
from rules.deal_moves import JUDGES
from rules.deal_state import Phase, State
from rules.melds import MeldKind
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
from rules.seats import Seat
from rules.tiles import TILES, Tile

# the lowest tiles of the chows that hold each tile, lowest first (none for honours)
_CHOW_STARTS: tuple[tuple[Tile, ...], ...] = tuple(
    () if t.is_honour else tuple(TILES[t - d] for d in (2, 1, 0) if 1 <= t.rank - d <= 7)
    for t in TILES
)


def legal_moves(st: State, seat: Seat, include_false_hu: bool = False) -> tuple[Move, ...]:
    """`Deal.legal_moves`: every move `seat` may make now that `apply` would accept."""
    candidates: list[Move] = []
    phase = st.phase
    h = st.hands[seat]
    if phase is Phase.OVER or st.out[seat]:
        return ()
    if phase is Phase.CHOOSING_VOID:
        for suit in st.rs.tiles.set.suits:
            held = [t for t in suit.tiles if h[t]]
            candidates += [ChooseVoid(seat, suit, t) for t in held] or [ChooseVoid(seat, suit)]
    elif seat is not st.turn and phase in (Phase.DRAW, Phase.REPLACEMENT, Phase.DISCARD):
        return ()
    elif phase is Phase.DRAW:
        candidates += _draws_from(st, Draw, seat, st.wall.next_index())
    elif phase is Phase.REPLACEMENT:
        index = st.wall.next_replacement_index()
        candidates += _draws_from(st, ReplacementDraw, seat, index)
    elif phase is Phase.DISCARD:
        candidates += [Discard(seat, TILES[i]) for i in range(34) if h[i]]
        if include_false_hu or self_drawn_wins(st, seat):
            candidates.append(SelfDrawnHu(seat))
        for i in range(34):
            if h[i] == 4:
                candidates.append(Kong(seat, MeldKind.CONCEALED_KONG, TILES[i]))
        for m in st.melds[seat]:
            if m.kind is MeldKind.PUNG and h[m.tile]:
                candidates.append(Kong(seat, MeldKind.PROMOTED_KONG, m.tile))
                candidates.append(Kong(seat, MeldKind.POSTPONED_KONG, m.tile))
    else:
        w = st.window
        assert w is not None
        candidates.append(Pass(seat))
        hu = RobKong(seat) if w.kind is WindowKind.ROBBING else Hu(seat)
        if include_false_hu or (wins_with(st, seat, w.tile) and not sequential(st, hu)):
            candidates.append(hu)
        if w.kind is WindowKind.DISCARD:
            candidates += [Pung(seat), Kong(seat, MeldKind.KONG, w.tile)]
            if st.rs.play.chow_claims:
                candidates += [Chow(seat, low) for low in _CHOW_STARTS[w.tile]]
    return tuple(m for m in candidates if JUDGES[type(m)][0](st, m) is None)


def admissible_claims(st: State) -> Mapping[Seat, tuple[Move, ...]]:
    """`Deal.admissible_claims`: in a claim or robbing window, the claims (not Pass) of
    each seat that has not yet declared."""
    w = st.window
    if w is None:
        return MappingProxyType({})
    out = {}
    for s in w.eligible:
        if s not in w.declared:
            out[s] = tuple(m for m in legal_moves(st, s) if not isinstance(m, Pass))
    return MappingProxyType(out)


def _draws_from(
    st: State, kind: type[Draw] | type[ReplacementDraw], seat: Seat, index: int | None
) -> list[Draw | ReplacementDraw]:
    """A draw from a known position; from an unknown one, one draw per possible tile."""
    wall = st.wall
    if index is None or wall.order[index] is not None:
        return [kind(seat)]
    return [kind(seat, t) for t in wall.tileset.kinds if wall.possible(t)]
