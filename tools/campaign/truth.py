"""Ground truth of a simulated session and what the daemon journalled of it, side by side.

The simulator's `--truth` file holds each deal's dice, dealer side and wall (tile copies in
physical order) and every move as the simulated players made it. The truth moves are turned
back into judge moves and re-judged here, independently of the daemon, to get the deal's
deltas; a journalled deal is right when it holds the same moves (as the table shows them:
`comparable`), the same dealer and the same deltas.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

from controller.journal.payloads import fixed_order, move_from_judge_json
from controller.journal.records import Correction, CorrectionAction, RecordKind
from controller.journal.store import Journal
from controller.profiles import TileCopy
from controller.referee.journal_deal import read_deal
from controller.referee.rebuild import effective_moves
from rules import moves as mv
from rules.deal import Deal
from rules.melds import MeldKind
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import Suit, Tile
from rules.wall import Dice


@dataclass
class DealTruth:
    number: int
    dealer: Seat
    dice: Dice
    wall: tuple  # tiles, physical order
    moves: list  # judge moves (deal seats), CloseClaims included
    prevalent: Seat = Seat.E  # the round wind (Wellness scores it)
    complete: bool = False  # the simulator wrote its deal-end
    corrected: bool = False  # a referee took moves back: not something the table shows
    copies: tuple[str, ...] = ()  # the wall as tile copies ("5p#4"), physical order


# --- truth -----------------------------------------------------------------------------------


def read_truth(path: Path, rules: str = "sbr-mil") -> list[DealTruth]:
    rs = load(rules)
    deals: dict[int, DealTruth] = {}
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        if rec["class"] == "deal":
            wall = tuple(TileCopy.parse(t).tile for t in rec["wall"])
            deals[rec["deal"]] = DealTruth(
                rec["deal"],
                Seat.parse(rec["dealer"]),
                Dice(*rec["dice"]),
                wall,
                [],
                Seat.parse(rec.get("prevalent", "E")),
                copies=tuple(rec["wall"]),
            )
        elif rec["class"] == "move":
            deals[rec["deal"]].moves.append(rec)
        elif rec["class"] == "deal-end":
            deals[rec["deal"]].complete = True
    out = []
    for d in deals.values():
        d.moves = _judge_moves(rs, d)
        out.append(d)
    return out


def _judge_moves(rs, d: DealTruth) -> list:
    deal = Deal.start(rs, d.dice, d.wall, prevalent=d.prevalent)
    moves = []
    for rec in d.moves:
        if rec["move"] == "penalty":
            continue  # a referee's penalty: nothing on the table (its points are not known)
        if rec["move"] == "correction":
            d.corrected = True
            move = mv.Correction(int(rec.get("undo", 1)))
            assert deal.apply(move)
            moves.append(move)
            continue
        move = _move(rec, deal)
        if isinstance(move, mv.CloseClaims) and deal.window is None:
            continue  # the judge closed it when the last eligible player answered
        result = deal.apply(move)
        assert result, f"truth move {rec} refused: {result}"
        moves.append(move)
    return moves


def _move(rec: dict, deal: Deal) -> mv.Move:
    name = rec["move"]
    seat = Seat.parse(rec["seat"]) if "seat" in rec else None
    tiles = [TileCopy.parse(t).tile for t in rec.get("tiles", [])]
    if name == "close-claims":
        return mv.CloseClaims()
    if name == "void":
        return mv.ChooseVoid(seat, Suit(rec["suit"]), tiles[0] if tiles else None)
    if name == "draw":
        return mv.Draw(seat, tiles[0])
    if name == "replacement":
        return mv.ReplacementDraw(seat, tiles[0])
    if name == "discard":
        return mv.Discard(seat, tiles[0])
    if name == "chow":  # the tiles are the two laid from the hand; `tile` the chow's lowest
        return mv.Chow(seat, Tile.parse(rec["tile"]))
    if name == "kong":
        if not tiles:
            return mv.Kong(seat, MeldKind.KONG)
        for kind in (MeldKind.CONCEALED_KONG, MeldKind.PROMOTED_KONG, MeldKind.POSTPONED_KONG):
            move = mv.Kong(seat, kind, tiles[0])
            if deal.check(move) is None:
                return move
        raise AssertionError(f"no kong fits {rec}")
    return {
        "pung": mv.Pung,
        "hu": mv.Hu,
        "self-drawn-hu": mv.SelfDrawnHu,
        "rob-kong": mv.RobKong,
        "pass": mv.Pass,
    }[name](seat)


def truth_deltas(rules: str, d: DealTruth) -> list[int]:
    deal = Deal.replay(load(rules), d.dice, d.wall, d.moves, prevalent=d.prevalent)
    return list(fixed_order(deal.deltas(), d.dealer))


@dataclass(frozen=True)
class Simultaneous:
    """Moves the players make at the same time, whose order the reader's polling (or the
    table's serial line) decides and the game does not: kept as a sorted tuple, so two
    blocks compare as multisets."""

    what: str
    moves: tuple


def _simultaneous(m: mv.Move) -> str | None:
    """Which kind of simultaneous block `m` belongs to, if any.

    - void choices: 004 Lesson 2, each player lays a tile face down, hidden and independent;
      the judge takes all four before the first discard.
    - the claims of one window (passes and the window's close are dropped already): several
      players may declare on one discard (004 Lesson 4) and `rules.claims.resolve` orders them
      by seat from the discarder, never by arrival. A run of claims is one window: a discard,
      a kong or a draw always comes between two windows. A declared (own-turn) kong is not a
      claim and ends the run."""
    if isinstance(m, mv.ChooseVoid):
        return "void choices"
    if isinstance(m, mv.Hu | mv.RobKong | mv.Pung | mv.Chow):  # chow: 001 IV 2.1
        return "claims"
    if isinstance(m, mv.Kong) and m.kind is MeldKind.KONG:
        return "claims"
    return None


def comparable(moves) -> list:
    """Moves as the table shows them: no window closes (the daemon's clock decides when),
    no passes (a silent player and a Pass button are the same claim outcome), no times, and
    each run of simultaneous moves (`_simultaneous`) as one `Simultaneous` block; every
    other move keeps its place."""
    out: list = []
    for m in moves:
        if isinstance(m, mv.CloseClaims | mv.Pass):
            continue
        if isinstance(m, mv.Kong) and m.kind is MeldKind.KONG:
            m = replace(m, tile=None)  # a melded kong's tile is the discard either way
        m = replace(m, t=None)
        what = _simultaneous(m)
        if what is None:
            out.append(m)
        elif out and isinstance(out[-1], Simultaneous) and out[-1].what == what:
            out[-1] = Simultaneous(what, tuple(sorted((*out[-1].moves, m), key=repr)))
        else:
            out.append(Simultaneous(what, (m,)))
    return out


# --- the journal -----------------------------------------------------------------------------


@dataclass
class DealJournal:
    number: int
    dealer: Seat
    moves: list
    deltas: list[int] | None
    wall: tuple[str, ...] = ()  # the scanned wall, tile copies in physical order
    alerts: list[str] = field(default_factory=list)  # the alert codes raised in this deal
    abandoned: bool = False  # a new shuffle started before the deal was settled
    calls: list[str] = field(default_factory=list)  # the referee calls: "code: message"


def read_journal(path: Path) -> list[DealJournal]:
    """Every deal the journal started, in order, with its accepted moves and its result; a
    deal the referee corrected has the moves the corrections leave (as the referee tools
    rebuild it), a `dealer` correction names the dealer the dealt hands showed."""
    out: dict[int, DealJournal] = {}
    corrected: set[int] = set()
    with Journal.open_readonly(path) as j:
        assert j.verify().ok
        for r in j.records():
            if r.kind is RecordKind.DEAL_STARTED:
                data = r.data()
                wall = tuple(data.get("wall_copies") or ())
                out[r.deal] = DealJournal(r.deal, Seat.parse(data["dealer"]), [], None, wall)
            elif r.deal not in out:
                continue
            elif r.kind is RecordKind.MOVE_ACCEPTED:
                out[r.deal].moves.append(move_from_judge_json(r.data()["judge"]))
            elif r.kind is RecordKind.DEAL_SETTLED:
                out[r.deal].deltas = r.data()["deltas"]
            elif r.kind is RecordKind.ALERT:
                code = r.data().get("code", "")
                out[r.deal].alerts.append(code)
                if r.data().get("referee_called"):
                    out[r.deal].calls.append(f"{code}: {r.data().get('message', '')}")
                out[r.deal].abandoned |= code == "deal-abandoned"
            elif r.kind is RecordKind.CORRECTION:
                c = Correction.from_payload(r.data())
                side = c.dealer_side()
                if side is not None:
                    out[r.deal].dealer = side
                elif c.action is not CorrectionAction.NOTE:
                    corrected.add(r.deal)
        for n in corrected:
            entries, _notes = effective_moves(read_deal(j, n))
            out[n].moves = [e.move for e in entries if e.origin == "move"]
    return list(out.values())
