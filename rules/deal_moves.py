"""Which function judges which move (`JUDGES`): for each kind of move its check (None when
legal, else `(Reason, detail)`, never changing the state) and its effect (called only after
the check passed; changes the state and reports the facts to the `Facts` it is given). `rules.deal.Deal` judges every
move through this table, and `rules.deal_legal` asks the same checks. A new kind of move is
a check and an effect in its concern's module, named here.

The referee's moves are judged here too: a `Penalty` (000 3.6, 001 III 3.4) is a ledger
line, `EndDeal` ends the deal where it stands (the session clock), and a `Correction`
(000 3.6.A) is checked here and made by `rules.deal.Deal`, which replays the deal without
the moves it takes back (`kept_moves`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules import (
    deal_claims,
    deal_draws,
    deal_end,
    deal_hu,
    deal_kongs,
    deal_void,
    settlement as pay,
)
from rules.deal_state import Facts, Phase, Problem, State
from rules.melds import MeldKind
from rules.moves import (
    ChooseVoid,
    Chow,
    CloseClaims,
    Correction,
    DealEnd,
    Discard,
    Draw,
    EndDeal,
    Hu,
    Kong,
    Move,
    Pass,
    Penalty,
    Pung,
    Reason,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
)


def check_kong(st: State, m: Kong) -> Problem:
    if m.kind is MeldKind.KONG:
        return deal_claims.check_melded_kong(st, m)
    return deal_kongs.check_own(st, m)


def kong(st: State, m: Kong, facts: Facts) -> None:
    if m.kind is MeldKind.KONG:
        deal_claims.declare(st, m, facts)
    else:
        deal_kongs.own(st, m, facts)


def check_penalty(st: State, m: Penalty) -> Problem:
    if m.points <= 0 or m.to is m.seat:
        return Reason.BAD_PENALTY, "a penalty is a positive amount paid to another seat or nobody"
    return None


def penalty(st: State, m: Penalty, facts: Facts) -> None:
    st.lines += pay.referee_penalty(m.seat, m.points, m.reason, m.to)


def check_correction(st: State, m: Correction) -> Problem:
    undoable = sum(1 for x in st.moves if not isinstance(x, Penalty | EndDeal))
    if m.undo < 1 or m.undo > undoable:
        return Reason.NOTHING_TO_UNDO, f"{undoable} moves can be taken back, not {m.undo}"
    return None


def kept_moves(st: State, m: Correction) -> list[Move]:
    """The effective moves without the `m.undo` last ones that can be taken back
    (penalties and the end of the deal stay)."""
    kept = list(st.moves)
    undone = 0
    for i in range(len(kept) - 1, -1, -1):
        if undone == m.undo:
            break
        if not isinstance(kept[i], Penalty | EndDeal):
            del kept[i]
            undone += 1
    return kept


def check_end(st: State, m: EndDeal) -> Problem:
    if st.phase is Phase.OVER:
        return Reason.DEAL_OVER, "the deal is over"
    return None


def end(st: State, m: EndDeal, facts: Facts) -> None:
    deal_end.finish(st, DealEnd.TIME, facts)


Check = Callable[[State, Any], Problem]
Effect = Callable[[State, Any, Facts], None]

# each kind of move: its check and its effect (a Correction's effect is a replay: rules.deal)
JUDGES: dict[type, tuple[Check, Effect | None]] = {
    ChooseVoid: (deal_void.check_choose, deal_void.choose),
    Draw: (deal_draws.check_draw, deal_draws.draw),
    ReplacementDraw: (deal_draws.check_replacement, deal_draws.replacement),
    Discard: (deal_draws.check_discard, deal_draws.discard),
    Pung: (deal_claims.check_pung, deal_claims.declare),
    Kong: (check_kong, kong),
    Chow: (deal_claims.check_chow, deal_claims.declare),
    Hu: (deal_claims.check_hu, deal_claims.declare),
    RobKong: (deal_claims.check_hu, deal_claims.declare),
    Pass: (deal_claims.check_pass, deal_claims.declare),
    CloseClaims: (deal_claims.check_close, deal_claims.close),
    SelfDrawnHu: (deal_hu.check_self_drawn, deal_hu.self_drawn),
    Penalty: (check_penalty, penalty),
    EndDeal: (check_end, end),
    Correction: (check_correction, None),
}


def not_a_move(move: object) -> tuple[Reason, str]:
    return Reason.WRONG_PHASE, f"not a move: {move!r}"
