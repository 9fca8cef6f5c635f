"""The words and lines of the public views (controller/daemon/views.py): the last action as
the table saw it ("S pungs 4p from E"), the deal's ledger in fixed seats, each Hu's
patterns, and how a deal ended. Each says only what everyone at the table saw: a draw names
no tile, a void choice no suit, and before the deal is over a Hu's line says "Hu", not the
patterns that would tell of the tiles still face down."""

from __future__ import annotations

from controller.daemon.settlement import settled_end
from controller.journal.payloads import table_seat
from controller.locale import Said, counted, says
from controller.outputs.view import ActionView, LedgerLineView, LedgerWords, PatternView
from controller.words import MELD_WORDS, plural, seat_name, seat_said, tile_words, why_said
from rules import moves as mv, settlement as pay, wellness
from rules.deal import Deal
from rules.melds import MeldKind
from rules.score import Score
from rules.seats import Seat

# the ledger lines of a Hu, whose `why` names the hand's patterns (rules.deal_hu._why,
# rules.wellness.win_lines)
HU_RULES = frozenset(
    {
        pay.R_HU_DISCARD,
        pay.R_HU_SELF,
        pay.R_WMT_FORMULA,
        pay.R_WMT_KONG_BLOOM,
        wellness.R_WIN_DISCARD,
        wellness.R_WIN_SELF,
    }
)
_TIME_UP = mv.EndDeal().note  # the session's time (an action's words)


def pattern_views(score: Score) -> tuple[PatternView, ...]:
    return tuple(PatternView(p.name, p.fan) for p in score.patterns)


def ledger_view(deal: Deal, dealer: Seat) -> tuple[LedgerLineView, ...]:
    """The deal's ledger in fixed seats: every line; a Hu's `why` is "Hu" until the deal
    is over (its points are public: they are in the running scores)."""
    over = deal.over
    out = []
    for line in deal.ledger().lines:
        why = line.why if over or line.rule not in HU_RULES else "Hu"
        out.append(
            LedgerLineView(
                payer="" if line.payer is None else table_seat(line.payer, dealer).name,
                payee=None if line.payee is None else table_seat(line.payee, dealer).name,
                points=line.points,
                why=why,
                rule=line.rule,
                why_words=why_said(why).to_json(),
            )
        )
    return tuple(out)


def ledger_words(deal: Deal, dealer: Seat) -> tuple[LedgerWords, ...]:
    """The deal's ledger in sentences, in fixed seats, payments of one kind to one seat in
    one: "East wins on 8m: 1 point from South", "East wins self-drawn on 5p: 5 points each
    from South, West and North", "Concealed kong 4s: 2 points each from ... to East". A Hu
    names its tile (public once declared), its patterns only in the rule's place once the
    deal is over."""
    over = deal.over
    groups: dict[tuple[str, str | None, int, str, bool], list[str]] = {}  # payers by line
    for line in deal.ledger().lines:
        payer = "" if line.payer is None else seat_name(table_seat(line.payer, dealer).name)
        payee = None if line.payee is None else seat_name(table_seat(line.payee, dealer).name)
        won = line.rule in HU_RULES and line.payee is not None
        subject = _won_words(deal, line.payee, payee) if won else _why_words(line.why)
        rule = line.rule if not won or not over else f"{line.why}. {line.rule}"
        key = (subject, payee, line.points, rule, won)
        groups.setdefault(key, []).append(payer)
    out = []
    for (subject, payee, points, rule, won), payers in groups.items():
        who = _listed(payers)
        each = " each" if len(payers) > 1 else ""
        if payee is None:
            pays = "pays" if len(payers) == 1 else "each pay"
            text = f"{subject}: {who} {pays} {points} to nobody"
        elif won:
            text = f"{subject}: {plural(points, 'point')}{each} from {who}"
        else:
            text = f"{subject}: {plural(points, 'point')}{each} from {who} to {payee}"
        penalty = payee is None or rule == "referee penalty" or "false" in subject.lower()
        out.append(LedgerWords(text, rule, penalty))
    return tuple(out)


def _won_words(deal: Deal, seat: Seat | None, name: str | None) -> str:
    won = next((w for w in reversed(deal.winners) if w.seat == seat and not w.false_hu), None)
    if won is None or won.tile is None:
        return f"{name} wins"
    how = "wins self-drawn on" if won.from_seat is None else "wins on"
    return f"{name} {how} {won.tile}"


def _why_words(why: str) -> str:
    """A ledger line's reason as the start of a sentence: "promoted-kong 5p" → "Promoted
    kong 5p"."""
    text = why.replace("-kong", " kong")
    return text[:1].upper() + text[1:]


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def deal_end(deal: Deal) -> str | None:
    """How the deal ended, as `deal.settled` journals it (`referee`: force-ended)."""
    return None if deal.end is None else settled_end(deal).value


_SKIPPED = (mv.Pass, mv.CloseClaims, mv.Correction)
_KONG_WORDS = {
    MeldKind.CONCEALED_KONG: "declares a concealed kong of",
    MeldKind.PROMOTED_KONG: "adds to a pung a kong of",
    MeldKind.POSTPONED_KONG: "declares a kong of",
}


def last_action(deal: Deal, dealer: Seat) -> ActionView | None:
    """The deal's last move that changed the table, in words (passes and the closing of a
    claim window are not actions)."""
    history = deal.history
    for i in range(len(history) - 1, -1, -1):
        m = history[i]
        if not isinstance(m, _SKIPPED):
            return _words(deal, dealer, i, m)
    return None


def _words(deal: Deal, dealer: Seat, i: int, m: mv.Move) -> ActionView | None:
    def side(seat: Seat | None) -> str | None:
        return None if seat is None else table_seat(seat, dealer).name

    if isinstance(m, mv.Penalty):
        to = side(m.to) or "nobody"
        return ActionView(
            side(m.seat), "penalty", None, None, f"Penalty: {side(m.seat)} pays {m.points} to {to}"
        )
    if isinstance(m, mv.EndDeal):
        text = "Time is up" if m.note == _TIME_UP else "Deal ended by the referee"
        return ActionView(None, "end-deal", None, None, text)
    seat = getattr(m, "seat", None)
    who = side(seat)
    if isinstance(m, mv.Draw):
        return ActionView(who, "draw", None, None, f"{who} draws")
    if isinstance(m, mv.ReplacementDraw):
        return ActionView(who, "replacement", None, None, f"{who} draws a replacement tile")
    if isinstance(m, mv.ChooseVoid):
        return ActionView(who, "void", None, None, f"{who} chooses a void suit")
    if isinstance(m, mv.Discard):
        return ActionView(who, "discard", str(m.tile), None, f"{who} discards {m.tile}")
    if isinstance(m, mv.Kong) and m.kind is not MeldKind.KONG:
        tile = None if m.tile is None else str(m.tile)
        return ActionView(who, "kong", tile, None, f"{who} {_KONG_WORDS[m.kind]} {tile}")
    if isinstance(m, mv.SelfDrawnHu):
        return _hu(deal, who, seat, "self-drawn-hu", None, None)
    claimed = _claimed(deal, i, mv.Kong if isinstance(m, mv.RobKong) else mv.Discard)
    tile, frm = (None, None) if claimed is None else (claimed[0], side(claimed[1]))
    name = {mv.Pung: "pung", mv.Kong: "kong", mv.Chow: "chow"}.get(type(m))
    if name is not None:
        return ActionView(who, name, tile, frm, f"{who} {name}s {tile} from {frm}")
    if isinstance(m, mv.Hu | mv.RobKong):
        move = "hu" if isinstance(m, mv.Hu) else "rob-kong"
        return _hu(deal, who, seat, move, tile, frm)
    return None


def _claimed(deal: Deal, i: int, kind: type[mv.Kong | mv.Discard]) -> tuple[str, Seat] | None:
    """The tile and seat of the discard (or kong, for a robbing) a claim at `i` is on."""
    for m in reversed(deal.history[:i]):
        if isinstance(m, kind):
            tile = getattr(m, "tile", None)
            return None if tile is None else (str(tile), m.seat)
    return None


def _hu(
    deal: Deal, who: str | None, seat: Seat | None, move: str, tile: str | None, frm: str | None
) -> ActionView:
    won = next((w for w in reversed(deal.winners) if w.seat == seat), None)
    if won is not None and won.false_hu:
        return ActionView(who, move, None, None, f"{who} declares a false Hu")
    if won is not None and won.tile is not None:
        tile = str(won.tile)
    if move == "self-drawn-hu":
        return ActionView(who, move, tile, None, f"{who} wins self-drawn on {tile}")
    robbed = " robbing the kong" if move == "rob-kong" else ""
    return ActionView(who, move, tile, frm, f"{who} wins on {tile} from {frm}{robbed}")


def void_set_words(fact: mv.VoidSetDeclared, side: Seat) -> Said:
    """The referee's alert for a set of the void suit, `side` the fixed seat: "South's pung
    of 7 Dots is of the void suit: South pays 48 to nobody"."""
    kind = fact.meld.kind.value
    meld = Said(MELD_WORDS[kind]) if kind in MELD_WORDS else Said(kind.replace("-", " "))
    who = seat_said(side.name)
    tile = Said(tile_words(str(fact.meld.tile)))
    if fact.penalty:
        return counted(
            fact.penalty,
            "{seat}'s {meld} of {tile} is of the void suit: {seat} pays {n} point to nobody",
            "{seat}'s {meld} of {tile} is of the void suit: {seat} pays {n} points to nobody",
            seat=who,
            meld=meld,
            tile=tile,
        )
    return says(
        "{seat}'s {meld} of {tile} is of the void suit: no penalty", seat=who, meld=meld, tile=tile
    )
