"""What a referee is offered when the table calls them (issue 13): the judge's next step in
words, and, where the judge alone knows the tile (a draw from a scanned wall), the move
itself, ready to be entered with one tap on the referee page ("E drew 3p — not read").
What the reader shows beside the judge (the recogniser's `differences`) adds two more: a
discard taken back into the hand ("W discarded 5s and took it back": cancel it), and a
tile of a hand read as another kind ("the tile read as 3m in S's hand is 3p": where it is
the tile just drawn, the wall scan misread it and the draw is fixed; else its tag reads
wrong, and a person looks at it), claims left open while nobody claims ("nobody
claimed": one tap closes them), and a pung or kong of a discard the judge took whose tiles
the reader still shows in the hand and the river (cancel it, before anything else), and a
past discard whose tile the reader shows still in the hand, another in the river (fix its
tile, as early). A Hu
or a kong the players declared (a button the judge refused, kept by `Unanswered`) or laid
in the melds is offered when the judge would take it now; a deal the next shuffle
overtook offers its end first."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.journal.payloads import table_seat
from controller.locale import N_, Said, counted, said, says
from controller.outputs.scoreboard import MAX_MOVES, MOVE_NAMES
from controller.words import SUIT_WORDS, move_said, seat_said, tile_said, zone_said
from rules import moves as mv
from rules.claims import WindowKind, next_player
from rules.deal import Deal
from rules.deal_state import Phase
from rules.melds import MeldKind
from rules.move_json import move_to_json
from rules.seats import SEATS, Seat


@dataclass(frozen=True, slots=True)
class Candidate:
    """One explanation of a call: `text` is its button, `headline` the problem it answers
    in plain words (the call's headline when it is the best candidate; "" to keep the
    alert's own words). Each is a sentence said in the reader's language where it is shown
    (a plain string is said as it is): `to_json` in English, `words_json` as sentences."""

    text: str | Said
    move: dict[str, Any] | None = None  # a referee `move` action (fixed seats), when known
    action: dict[str, Any] | None = None  # another referee action (cancel, fix-tile)
    headline: str | Said = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "text": str(self.text),
            "move": self.move,
            "headline": str(self.headline),
        }
        if self.action is not None:
            out["action"] = self.action
        return out

    def words_json(self) -> dict[str, Any]:
        """Its text and headline as the page says them in its language (`MJ.say`)."""
        return {"text": said(self.text).to_json(), "headline": said(self.headline).to_json()}


Differences = Mapping[tuple[Seat, str, Any], int]  # (deal seat, zone kind, tile) → count
Arrivals = Mapping[tuple[Seat, str, Any], float]  # the same keys → when the tiles came there
RecordBack = Callable[[int], int | None]  # n → the record of the move n back (1: the last)


def candidates(
    deal: Deal | None,
    dealer: Seat,
    differences: Differences | None = None,
    last_seq: int | None = None,
    fits: Sequence[mv.Move] = (),
    shown: Sequence[mv.Move] = (),
    declared: Sequence[mv.PlayerMove] = (),
    arrived: Arrivals | None = None,
    record_back: RecordBack | None = None,
) -> tuple[Candidate, ...]:
    """The explanations the judge can offer for a table it cannot follow; with what the
    reader shows beside it (`differences`) and the journal record of the last accepted move
    (`last_seq`), those the table itself suggests come first; before them, the moves a
    reading fits when it fits several (`fits`, an ambiguous reading): one is right. First
    of all, the first of the moves the tiles show beyond the judge as far as they decide
    (`shown`, `Recogniser.ahead`): a fast table far ahead of the judge holds several
    discards of a seat, and the one the river shows is not always the first (10/10/2 seed
    311 deal 17: N's 3m gone into S's pung came before the 7p in N's river). Before even
    that, a Hu or a kong the players declared (`declared`: a button the judge refused,
    `Unanswered`) that the judge would take now, and a pung or kong of the open discard
    whose tiles lie in the melds (it comes before any later move the search finds: 10/10/2
    seed 311 deal 24, East's pung of the open 3p laid in the melds, the call offered
    North's draw after it); after the first shown, a Hu or an own-turn kong laid open in
    the melds. Ahead of everything, a pung or kong the judge took that the tiles show was
    not made (cancel it), and a discard the judge took as another tile (fix it).
    `arrived`: when the tiles beyond the judge came where they lie (`Recogniser.arrivals`),
    which orders a seat's discards. `record_back(n)`: the journal record of the move `n`
    moves back among those that count (`RefereeDesk.record_back`), which a fix of a past
    move names; asked only when such a fix is offered."""
    if deal is None or deal.over:
        return ()
    diffs = differences or {}
    out = (
        _fitting(deal, dealer, fits)
        + _from_the_table(deal, dealer, diffs, last_seq)
        + _next_step(deal, dealer, diffs, arrived or {})
    )
    first = _first_shown(deal, dealer, diffs, shown)
    chain = _chain(deal, dealer, shown, first)
    claims, laid = _laid_open(deal, dealer, diffs)
    lead = (
        *_claim_undone(deal, dealer, diffs),
        *_discard_misread(deal, dealer, diffs, arrived or {}, record_back),
        *_declared(deal, dealer, diffs, declared),
        *claims,
        *(() if chain is None else (chain,)),
        *(() if first is None else (first,)),
        *laid,
    )
    # each move once, where it first comes (an ambiguous reading's fit is often the river
    # tile the judge's next step offers too: "West discarded 1p" came twice)
    offered: list[Candidate] = []
    for c in (*lead, *out):
        if c.move is None or c.move not in [o.move for o in offered]:
            offered.append(c)
    return tuple(offered)


def overtaken_candidates(deal: Deal | None, dealer: Seat) -> tuple[Candidate, ...]:
    """A deal the table's next shuffle overtook (its tiles are off the table, so nothing of
    it can be read any more): ending it here comes first, then the judge's own next step
    (a draw it knows from the scanned wall). Ending is undoable like any correction."""
    if deal is None or deal.over:
        return ()
    problem = Said(N_("The table moved on to the next deal before this one ended"))
    end = Candidate(
        Said(N_("End this deal here (the payments so far stand)")),
        action={"kind": "abandon"},
        headline=problem,
    )
    return (end, *_next_step(deal, dealer, {}, {}))


class Unanswered:
    """The declarations (a Hu, a kong) the judge refused in this deal, for the referee's
    candidates: a player's HU pressed while the judge held a discard that did not happen
    (10/10/2, the truth a self-drawn Hu) is the answer once that discard is cancelled.
    A seat's declaration is forgotten when the judge takes a move of that seat (it played
    on, so it did not win or kong there), and all at each deal's start (core thread only).
    Another seat's move does not forget it: a judge behind the table takes the moves before
    the declaration's (10/10/2 seed 311 deal 5: East's HU, pressed on a discard not read
    yet, was forgotten when the judge took the draws before it, and the call offered only
    "Enter the claim by hand")."""

    _KINDS = (mv.Hu, mv.SelfDrawnHu, mv.RobKong, mv.Kong)

    def __init__(self) -> None:
        self._moves: dict[Seat, mv.PlayerMove] = {}

    @property
    def moves(self) -> tuple[mv.PlayerMove, ...]:
        return tuple(self._moves.values())

    def refused(self, move: mv.Move) -> None:
        if isinstance(move, self._KINDS):
            self._moves[move.seat] = move

    def accepted(self, move: mv.Move) -> None:
        if isinstance(move, mv.PlayerMove):
            self._moves.pop(move.seat, None)

    def new_deal(self) -> None:
        self._moves.clear()


# the discard a claim the judge took is in another seat's melds: that seat claimed it
_TAKEN_BY = N_(
    "The judge took {who}'s claim of {tile}; the reader shows {who}'s tiles still in the hand and {tile} in {other}'s melds"
)
_UNDONE = {
    "pung": (
        N_("{who} has no pung of {tile} on the table: cancel the pung"),
        N_(
            "The judge took {who}'s pung of {tile}; the reader shows its tiles still in the hand and the river"
        ),
    ),
    "kong": (
        N_("{who} has no kong of {tile} on the table: cancel the kong"),
        N_(
            "The judge took {who}'s kong of {tile}; the reader shows its tiles still in the hand and the river"
        ),
    ),
}


def _claim_undone(deal: Deal, dealer: Seat, differences: Differences) -> tuple[Candidate, ...]:
    """The judge's last move a claim of a discard (a pung, a kong) that the reader shows
    was not made: the claimed tiles are still in the claimer's hand, nothing of them in its
    melds, and the discard still in its river or in another seat's melds (that seat claimed
    it). Cancelling it comes first: every move after it is built on it (10/10/2 seed 311
    deal 15: North's PUNG, pressed for a later discard, was taken on the open 5m; the call
    offered North's discard after it, and the referee took the pung back through the form;
    deal 70 of a later run: East's PUNG taken on West's 2p, which North punged)."""
    played = [m for m in deal.history if not isinstance(m, mv.CloseClaims | mv.Pass)]
    if len(played) < 2:
        return ()
    claim, discard = played[-1], played[-2]
    if not isinstance(discard, mv.Discard):
        return ()
    if isinstance(claim, mv.Pung):
        laid, name = 3, "pung"
    elif isinstance(claim, mv.Kong) and claim.kind is MeldKind.KONG:
        laid, name = 4, "kong"
    else:
        return ()
    tile = discard.tile
    made = {(claim.seat, "hand", tile): 1 - laid, (claim.seat, "melds", tile): laid}
    if any(differences.get(spot, 0) != -n for spot, n in made.items()):
        return ()
    text, problem = _UNDONE[name]
    who, tile_words = _who(table_seat(claim.seat, dealer)), tile_said(tile)
    if differences.get((discard.seat, "river", tile), 0) == 1:
        headline = says(problem, who=who, tile=tile_words)
    else:
        other = [
            s
            for s in SEATS
            if s not in (claim.seat, discard.seat) and differences.get((s, "melds", tile), 0) > 0
        ]
        if len(other) != 1:
            return ()
        headline = says(
            _TAKEN_BY,
            who=who,
            tile=tile_words,
            other=_who(table_seat(other[0], dealer)),
        )
    return (
        Candidate(
            says(text, who=who, tile=tile_words),
            action={"kind": "cancel", "count": 1},
            headline=headline,
        ),
    )


def _discard_misread(
    deal: Deal,
    dealer: Seat,
    differences: Differences,
    arrived: Arrivals,
    record_back: RecordBack | None,
) -> tuple[Candidate, ...]:
    """A discard the judge took as the wrong tile: the reader shows its tile still in the
    seat's hand and, in its river, another tile the hand no longer holds, which the seat
    held then (not drawn since). Fixing that discard's tile comes before everything after
    it, which is built on it (10/10/2 seed 311 deal 24: West's 7m, just drawn, went to the
    river, the judge reconciled "West discarded 1m" and followed the table six moves on;
    the referee cancelled the six through the form and entered them again). The river
    tiles are tried in the order they came there (`arrived`). The fix names the discard's
    record, found by its place back among the player moves (`record_back`)."""
    out: list[Candidate] = []
    if record_back is None:
        return ()
    played = 0
    for index in range(len(deal.history) - 1, -1, -1):
        move = deal.history[index]
        if not isinstance(move, mv.PlayerMove):
            continue
        played += 1
        if not isinstance(move, mv.Discard):
            continue
        seat, judged = move.seat, move.tile
        if differences.get((seat, "river", judged), 0) >= 0:
            continue
        if any(n > 0 and z == "melds" and t == judged for (_, z, t), n in differences.items()):
            continue  # gone from the river into a meld: claimed, not misread (seed 311 deal 41)
        if differences.get((seat, "hand", judged), 0) <= 0:
            continue
        later = deal.history[index + 1 :]
        drawn = {
            m.tile for m in later if isinstance(m, mv.Draw | mv.ReplacementDraw) and m.seat is seat
        }
        shown = [
            tile
            for (s, zone, tile), n in differences.items()
            if s is seat
            and zone == "river"
            and n > 0
            and tile != judged
            and tile not in drawn
            and differences.get((seat, "hand", tile), 0) < 0
        ]
        shown.sort(key=lambda tile: arrived.get((seat, "river", tile), math.inf))
        record = record_back(played) if shown else None
        if record is None:
            continue
        who = _who(table_seat(seat, dealer))
        for tile in shown:
            words = {"who": who, "tile": tile_said(tile), "judged": tile_said(judged)}
            out.append(
                Candidate(
                    says("{who} discarded {tile}, not {judged}: fix the discard", **words),
                    action={"kind": "fix-tile", "target_seq": record, "tile": str(tile)},
                    headline=says(
                        "{who} discarded {tile}, not {judged}: the reader sees {judged} "
                        "still in the hand and {tile} in the river",
                        **words,
                    ),
                )
            )
        if out:
            break  # one discard at a time, the latest: an earlier one shows again after
    return tuple(out)


def _declared(
    deal: Deal, dealer: Seat, differences: Differences, declared: Sequence[mv.PlayerMove]
) -> tuple[Candidate, ...]:
    """A Hu or a kong the judge would take now that the players declared and the judge
    refused earlier (`declared`)."""
    out: list[Candidate] = []
    for move in declared:
        now = _hu_now(deal, move.seat) if not isinstance(move, mv.Kong) else None
        kongs = _kongs_now(deal, move.seat, move.tile) if isinstance(move, mv.Kong) else ()
        for m in (now,) if now is not None else kongs:
            side = table_seat(m.seat, dealer)
            problem = says(
                "{who} declared {what}; the judge has not taken it",
                who=_who(side),
                what=Said(_DECLARED["kong" if isinstance(m, mv.Kong) else "hu"]),
            )
            made = _move_candidate(deal, dealer, differences, m, problem)
            if made is not None:
                out.append(made)
    return tuple(out)


def _laid_open(
    deal: Deal, dealer: Seat, differences: Differences
) -> tuple[tuple[Candidate, ...], tuple[Candidate, ...]]:
    """A Hu, a kong or a pung the judge would take now that the tiles show: a kong's or a
    pung's tiles come into the melds, a hand laid open there (a Hu shown by its tiles).
    Two lists: the claims of the open discard (a pung, a kong of it) that took it from its
    river, which come before any later move, and the others (a Hu, an own-turn kong, a
    claim whose discard still lies in the river), which come after the first move the
    search finds (a table far ahead shows ten tiles in a seat's melds without a hand laid
    open)."""
    claims: list[Candidate] = []
    others: list[Candidate] = []
    # a claim of the open discard comes first only when the reader shows that discard gone
    # from its river: still there, the melds hold a claim of a later discard of the same
    # kind (10/10/2 seed 311 deal 51: West's pung of a later 2m came before East's draw)
    w = deal.window
    gone = w is not None and differences.get((w.discarder, "river", w.tile), 0) < 0
    laid: dict[Seat, dict[Any, int]] = {}
    for (seat, zone, tile), n in differences.items():
        if zone == "melds" and n > 0:
            laid.setdefault(seat, {})[tile] = n
    for seat, tiles in laid.items():
        side = table_seat(seat, dealer)
        shown: list[mv.Move] = []
        hu = _hu_now(deal, seat)
        if sum(tiles.values()) >= _HAND_LAID and hu is not None:
            shown.append(hu)
        for tile in tiles:
            shown += _kongs_now(deal, seat, tile)
        pung = _pung_now(deal, seat, tiles)
        if pung is not None and not any(isinstance(m, mv.Kong) for m in shown):
            shown.append(pung)
        for m in shown:
            what = "hu" if isinstance(m, _HU) else "kong" if isinstance(m, mv.Kong) else "pung"
            problem = says(
                "{who}'s melds show {what} the judge does not know",
                who=_who(side),
                what=Said(_DECLARED[what]),
            )
            made = _move_candidate(deal, dealer, differences, m, problem)
            if made is not None:
                (claims if _of_the_discard(m) and gone else others).append(made)
    return tuple(claims), tuple(others)


_DECLARED = {"hu": N_("a Hu"), "kong": N_("a kong"), "pung": N_("a pung")}
_HU = (mv.Hu, mv.SelfDrawnHu, mv.RobKong)


def _of_the_discard(move: mv.Move) -> bool:
    """`move` claims the open discard for a meld: a pung, a kong of it."""
    return isinstance(move, mv.Pung) or (isinstance(move, mv.Kong) and move.kind is MeldKind.KONG)


def _pung_now(deal: Deal, seat: Seat, laid: Mapping[Any, int]) -> mv.PlayerMove | None:
    """The pung of the open discard `seat` can claim now, when its melds show the three
    tiles of it (`laid`: the tiles come into its melds beyond the judge)."""
    w = deal.window
    if w is None or w.kind is not WindowKind.DISCARD or laid.get(w.tile, 0) < 3:
        return None
    pung = mv.Pung(seat)
    return pung if deal.check(pung) is None else None


_HAND_LAID = 10  # tiles come into a player's melds at once: a hand laid open (a Hu shown)


def _hu_now(deal: Deal, seat: Seat) -> mv.PlayerMove | None:
    """The Hu `seat` can declare now, as the judge would take it (None: none)."""
    w = deal.window
    if deal.phase is Phase.DISCARD and deal.turn is seat:
        hu: mv.PlayerMove = mv.SelfDrawnHu(seat)
    elif w is not None and w.kind is WindowKind.ROBBING:
        hu = mv.RobKong(seat)
    elif w is not None:
        hu = mv.Hu(seat)
    else:
        return None
    return hu if deal.check(hu) is None else None


def _kongs_now(deal: Deal, seat: Seat, tile: Any) -> tuple[mv.PlayerMove, ...]:
    """The kong of `tile` (any, None: the open discard's) `seat` can declare now."""
    w = deal.window
    if w is not None and w.kind is WindowKind.DISCARD and tile in (None, w.tile):
        melded = mv.Kong(seat, MeldKind.KONG, w.tile)
        return (melded,) if deal.check(melded) is None else ()
    if tile is None:
        return ()
    kinds = (MeldKind.CONCEALED_KONG, MeldKind.PROMOTED_KONG, MeldKind.POSTPONED_KONG)
    return tuple(m for k in kinds if deal.check(m := mv.Kong(seat, k, tile)) is None)[:1]


def _first_shown(
    deal: Deal, dealer: Seat, differences: Differences, shown: Sequence[mv.Move]
) -> Candidate | None:
    """The first player move of `shown` as a button: "South drew 4p: enter it"."""
    move = next((m for m in shown if not isinstance(m, mv.CloseClaims)), None)
    if move is None:
        return None
    return _move_candidate(deal, dealer, differences, move)


def _move_candidate(
    deal: Deal,
    dealer: Seat,
    differences: Differences,
    move: mv.Move,
    problem: Said | None = None,
) -> Candidate | None:
    """`move` as a button the referee taps to enter it ("South drew 4p: enter it"), its
    headline the problem it answers (`problem`, else said from the move)."""
    data = move_to_json(move)
    action = _entry(data, dealer)
    if action is None:
        return None
    judged = Seat.parse(data["seat"])
    side = table_seat(judged, dealer)
    who = _who(side)
    tile = data.get("tile")
    name = data["move"]
    if name in ("draw", "replacement") and tile:
        problem = says(
            N_("{who}'s draw was not read")
            if name == "draw"
            else N_("{who}'s kong replacement was not read"),
            who=who,
        )
        seen = _seen(differences, judged, "hand", tile, side)
        text = says("{who} drew {tile}: enter it", who=who, tile=tile_said(tile))
        return Candidate(text, action, headline=_problem(problem, seen))
    if name == "discard":
        problem = says("{who}'s discard was not read", who=who)
        seen = _seen(differences, judged, "river", tile, side)
        text = says(_ENTER["discard"], who=who, tile=tile_said(tile))
        return Candidate(text, action, headline=_problem(problem, seen))
    if name == "void" and tile:
        text = says("{who} laid {tile} for the void: enter it", who=who, tile=tile_said(tile))
        laid = says(
            "{who}'s void tile was not read: the reader sees {tile}",
            who=who,
            tile=tile_said(tile),
        )
        return Candidate(text, action, headline=laid)
    words = {**data, "seat": side.name}
    w = deal.window
    if name in ("hu", "pung") and w is not None:
        words["tile"] = str(w.tile)  # "East declares Hu on 5p", "East pungs 5p"
    if name == "self-drawn-hu":
        drawn = _last_drawn(deal, judged)
        if drawn is not None:
            words["tile"] = str(drawn)  # "East declares a self-drawn Hu on 5p"
    headline: Said | str = problem or ""
    if problem is None and w is not None:
        headline = says(
            "Claims on {seat}'s {tile} are open: a claim was not read?",
            seat=_who(table_seat(w.discarder, dealer)),
            tile=tile_said(w.tile),
        )
    return Candidate(says("{move}: enter it", move=move_said(words)), action, headline=headline)


def _entry(data: Mapping[str, Any], dealer: Seat) -> dict[str, Any] | None:
    """A move (`move_to_json`'s `data`) as the referee page enters it: a `move` action's
    fields, at the table's fixed seats (None: a move no player makes, as closing the claims)."""
    seat = data.get("seat")
    if seat is None:
        return None
    action: dict[str, Any] = {"seat": table_seat(Seat.parse(seat), dealer).name}
    action["move"] = data["move"]
    if data.get("tile"):
        action["tile"] = str(data["tile"])
    elif data["move"] == "void" and data.get("suit"):
        action["suit"] = str(data["suit"])  # chosen by the table's button: no tile laid
    return action


def _chain(
    deal: Deal, dealer: Seat, shown: Sequence[mv.Move], first: Candidate | None
) -> Candidate | None:
    """The player moves of `shown` (the tiles' moves beyond the judge, as far as they
    decide) as one button when there are several: "Enter the 3 moves the tiles show: North
    draws 3p, North discards 7m, East pungs 7m". A fast table far ahead of the judge took a
    tap a move, each the first button (10/10/2 seed 311 deal 51: one call, 7 answers); the
    desk enters them in order and stops at one the judge refuses. The headline is the first
    move's problem, as its own button (`first`, which follows it) says it."""
    played = [m for m in shown if not isinstance(m, mv.CloseClaims)][:MAX_MOVES]
    entries: list[dict[str, Any]] = []
    words: list[Said] = []
    discarded = None if deal.window is None else deal.window.tile
    for move in played:
        entry = _entry(move_to_json(move), dealer)
        if entry is None or entry["move"] not in MOVE_NAMES:
            break  # the run stops where a move cannot be entered by hand
        named = dict(entry)
        if entry["move"] in ("hu", "pung") and "tile" not in entry and discarded is not None:
            named["tile"] = str(discarded)  # "East pungs 7m"
        if isinstance(move, mv.Discard):
            discarded = move.tile
        entries.append(entry)
        words.append(move_said(named))
    if len(entries) < 2:
        return None
    listed = words[0]
    for more in words[1:]:
        listed = says("{first}, {second}", first=listed, second=more)
    return Candidate(
        counted(
            len(entries),
            "Enter the {n} move the tiles show: {moves}",
            "Enter the {n} moves the tiles show: {moves}",
            moves=listed,
        ),
        action={"kind": "moves", "moves": entries},
        headline="" if first is None else first.headline,
    )


def _void_buttons(deal: Deal, seat: Seat, side: Seat) -> tuple[Candidate, ...]:
    """A void chosen and not read (`seat` in the deal, `side` at the table) with nothing
    laid: a seat holding no tile of its void suit chooses it with the indicator card or the
    table's button (004 Lesson 2), which nothing read may show once the daemon missed it. A
    button for each suit the judge would take so, that is each suit the hand lacks (never
    the honours: the judge refuses them as a void)."""
    who = _who(side)
    headline = says("{who}'s void suit was not read: ask {who} which", who=who)
    return tuple(
        Candidate(
            says("{who} chose {suit} by button: enter it", who=who, suit=Said(SUIT_WORDS[s.value])),
            {"seat": side.name, "move": "void", "suit": s.value},
            headline=headline,
        )
        for s in deal.rs.tiles.set.suits
        if deal.check(mv.ChooseVoid(seat, s)) is None
    )


# the moves an ambiguous reading may fit, each said as a button ("South discarded 4p")
_ENTER = {
    "discard": N_("{who} discarded {tile}: enter it"),
    "draw": N_("{who} drew {tile}: enter it"),
    "void": N_("{who} laid for the void {tile}: enter it"),
}
_ENTER_UNREAD = {
    "discard": N_("{who} discarded: enter it"),
    "draw": N_("{who} drew: enter it"),
    "void": N_("{who} laid for the void: enter it"),
}
_MOVE_WORDS = {"discard": N_("discard"), "draw": N_("draw"), "void": N_("void")}


def _fitting(deal: Deal, dealer: Seat, fits: Sequence[mv.Move]) -> tuple[Candidate, ...]:
    """Each move an ambiguous reading fits that the judge would take, as a button."""
    possible = []
    for move in fits:
        data = move_to_json(move)
        seat = data.get("seat")
        if seat is None or data["move"] not in _ENTER or deal.check(move) is not None:
            continue
        side = table_seat(Seat.parse(seat), dealer)
        action = {"seat": side.name, "move": data["move"]}
        if data.get("tile"):
            action["tile"] = str(data["tile"])
        possible.append((side, action))
    if len(possible) < 2:
        return ()
    ways = [_move_said(a) for _, a in possible]
    either = ways[0]
    for way in ways[1:]:
        either = says("{first} or {second}", first=either, second=way)
    return tuple(
        Candidate(
            _enter_said(side, a),
            a,
            headline=says(
                "{who}'s move reads two ways ({moves}): which was it?", who=_who(side), moves=either
            ),
        )
        for side, a in possible
    )


def _move_said(action: dict[str, Any]) -> Said:
    """ "discard 4p": a move and its tile."""
    move = Said(_MOVE_WORDS[action["move"]])
    if not action.get("tile"):
        return move
    return says("{move} {tile}", move=move, tile=tile_said(action["tile"]))


def _enter_said(side: Seat, action: dict[str, Any]) -> Said:
    """ "South discarded 4p: enter it"."""
    if not action.get("tile"):
        return says(_ENTER_UNREAD[action["move"]], who=_who(side))
    return says(_ENTER[action["move"]], who=_who(side), tile=tile_said(action["tile"]))


def _who(seat: Seat) -> Said:
    return seat_said(seat.name)


def _seen(differences: Differences, seat: Seat, zone: str, tile: Any, side: Seat) -> Said | None:
    """ "the reader sees 1m in South's hand" when it does, else None."""
    if differences.get((seat, zone, tile), 0) > 0:
        return says(
            "the reader sees {tile} in {who}'s {zone}",
            tile=tile_said(tile),
            who=_who(side),
            zone=zone_said(zone),
        )
    return None


def _problem(problem: Said, seen: Said | None) -> Said:
    """The problem, and what the reader sees when it sees the answer."""
    return problem if seen is None else says("{problem}: {seen}", problem=problem, seen=seen)


def _from_the_table(
    deal: Deal, dealer: Seat, differences: Differences, last_seq: int | None
) -> tuple[Candidate, ...]:
    mine: dict[Seat, dict[tuple[str, Any], int]] = {}
    for (seat, zone, tile), n in differences.items():
        mine.setdefault(seat, {})[(zone, tile)] = n
    last = deal.history[-1] if deal.history else None
    out: list[Candidate] = []
    for seat, diff in mine.items():
        side = table_seat(seat, dealer)
        who = _who(side)
        if (
            isinstance(last, mv.Discard)
            and last.seat is seat
            and diff == {("hand", last.tile): 1, ("river", last.tile): -1}
        ):
            out.append(
                Candidate(
                    says(
                        "{who} took {tile} back: cancel the discard",
                        who=who,
                        tile=tile_said(last.tile),
                    ),
                    action={"kind": "cancel", "count": 1},
                    headline=says(
                        "{who} discarded {tile} and took it back into the hand",
                        who=who,
                        tile=tile_said(last.tile),
                    ),
                )
            )
            continue
        hand = {t: n for (zone, t), n in diff.items() if zone == "hand"}
        if len(diff) != 2 or len(hand) != 2 or sorted(hand.values()) != [-1, 1]:
            continue
        read = next(t for t, n in hand.items() if n > 0)
        real = next(t for t, n in hand.items() if n < 0)
        drawn = last if isinstance(last, mv.Draw | mv.ReplacementDraw) else None
        if drawn is not None and drawn.seat is seat and drawn.tile == real and last_seq:
            out.append(
                Candidate(
                    says("{who} drew {tile}: fix the draw", who=who, tile=tile_said(read)),
                    action={"kind": "fix-tile", "target_seq": last_seq, "tile": str(read)},
                    headline=says(
                        "{who} drew {tile}, not {judged}: the wall scan misread it",
                        who=who,
                        tile=tile_said(read),
                        judged=tile_said(real),
                    ),
                )
            )
        else:
            out.append(
                Candidate(
                    says(
                        "Look at the tile read as {tile} in {who}'s hand (and the tag map)",
                        tile=tile_said(read),
                        who=who,
                    ),
                    headline=says(
                        "A tile in {who}'s hand reads {tile}, the judge says {judged}: "
                        "its tag reads wrong",
                        who=who,
                        tile=tile_said(read),
                        judged=tile_said(real),
                    ),
                )
            )
    return tuple(out)


def _next_step(
    deal: Deal, dealer: Seat, differences: Differences, arrived: Arrivals
) -> tuple[Candidate, ...]:
    turn = table_seat(deal.turn, dealer)
    who = _who(turn)
    if deal.phase in (Phase.DRAW, Phase.REPLACEMENT):
        w = deal.wall
        index = w.next_index() if deal.phase is Phase.DRAW else w.next_replacement_index()
        tile = None if index is None else w.order[index]
        name = "draw" if deal.phase is Phase.DRAW else "replacement"
        drawn = name == "draw"
        problem = says(
            N_("{who}'s draw was not read")
            if drawn
            else N_("{who}'s kong replacement was not read"),
            who=who,
        )
        if tile is None:
            enter = (
                N_("Enter {who}'s draw by hand")
                if drawn
                else N_("Enter {who}'s kong replacement by hand")
            )
            return (Candidate(says(enter, who=who), headline=problem),)
        move = {"seat": turn.name, "move": name, "tile": str(tile)}
        seen = _seen(differences, deal.turn, "hand", tile, turn)
        return (
            Candidate(
                says("{who} drew {tile}: enter it", who=who, tile=tile_said(tile)),
                move,
                headline=_problem(problem, seen),
            ),
        )
    if deal.phase is Phase.DISCARD:
        problem = says("{who}'s discard was not read", who=who)
        held = deal.hand(deal.turn)
        came = {
            t: arrived.get((deal.turn, "river", t), math.inf)
            for (s, zone, t), n in differences.items()
            if s is deal.turn and zone == "river" and n > 0 and held.count(t)
        }
        # a discard another seat claimed: gone from the hand, in that seat's melds (10/10/2
        # seed 311 deal 24: East's 6m in West's pung came before the 7p in East's river)
        for (s, zone, t), n in differences.items():
            left = differences.get((deal.turn, "hand", t), 0) < 0
            if zone == "melds" and n >= 3 and s is not deal.turn and held.count(t) and left:
                at = arrived.get((s, zone, t), math.inf)
                came[t] = min(at, came.get(t, math.inf))
        # a table ahead of the judge shows several of the seat's discards: the first is the
        # one that left the hand first (10/10/2 seed 311 deal 5: "Enter West's discard by
        # hand" alone, three times in one call, each through the form)
        river = sorted(came, key=came.__getitem__)
        if not river:
            # its tile not read in the river: the one tile the hand shows gone, if one
            missing = [
                t
                for (s, zone, t), n in differences.items()
                if s is deal.turn and zone == "hand" and n == -1
            ]
            river = missing if len(missing) == 1 else []
        offered = []
        for tile in river:
            move = {"seat": turn.name, "move": "discard", "tile": str(tile)}
            seen = _seen(differences, deal.turn, "river", tile, turn)
            offered.append(
                Candidate(
                    says("{who} discarded {tile}: enter it", who=who, tile=tile_said(tile)),
                    move,
                    headline=_problem(problem, seen),
                )
            )
        by_hand = Candidate(says("Enter {who}'s discard by hand", who=who), headline=problem)
        return (*offered, by_hand) if len(offered) != 1 else tuple(offered)
    if deal.phase is Phase.CHOOSING_VOID:
        waiting = [_who(table_seat(s, dealer)) for s in SEATS if deal.void(s) is None]
        laid = [
            (s, t)
            for (s, zone, t), n in differences.items()
            if zone == "void" and n > 0 and deal.void(s) is None
        ]
        listed = waiting[0] if waiting else Said("nobody")
        for more in waiting[1:]:
            listed = says("{first}, {second}", first=listed, second=more)
        problem = says("The void tile of {seats} was not read", seats=listed)
        if len(laid) == 1:
            (seat, tile) = laid[0]
            side = table_seat(seat, dealer)
            move = {"seat": side.name, "move": "void", "tile": str(tile)}
            return (
                Candidate(
                    says(
                        "{who} laid {tile} for the void: enter it",
                        who=_who(side),
                        tile=tile_said(tile),
                    ),
                    move,
                    headline=says(
                        "{who}'s void tile was not read: the reader sees {tile}",
                        who=_who(side),
                        tile=tile_said(tile),
                    ),
                ),
            )
        by_hand = Candidate(Said("Enter the laid void tiles by hand"), headline=problem)
        if not laid and waiting:
            # nothing laid that the judge lacks: perhaps the table's button, pressed while
            # the daemon was not listening (seed 200 deal 111)
            unread = next(s for s in SEATS if deal.void(s) is None)
            return (*_void_buttons(deal, unread, table_seat(unread, dealer)), by_hand)
        return (by_hand,)
    window = deal.window
    if window is not None:
        by = _who(table_seat(window.discarder, dealer))
        problem = says(
            "Claims on {seat}'s {tile} are open: a claim was not read?",
            seat=by,
            tile=tile_said(window.tile),
        )
        claim = Candidate(Said("Enter the claim (or the passes) by hand"), headline=problem)
        nobody = _nobody_claimed(deal, dealer, differences)
        return (*_drawn_after(deal, dealer, differences, window.discarder), *nobody, claim)
    return ()


def _nobody_claimed(deal: Deal, dealer: Seat, differences: Differences) -> tuple[Candidate, ...]:
    """Claims open on a discard (or a kong) while the reader shows nobody claiming it —
    no tile come into anybody's melds, the discard still in its river: one tap closes the
    claims (a referee entered three passes, nine taps, for it)."""
    w = deal.window
    if w is None or any(not isinstance(c, mv.Pass) for _, c in w.declared):
        return ()  # (a claim declared: closing the window takes it)
    for (seat, zone, tile), n in differences.items():
        if zone == "melds" and n > 0:
            return ()  # tiles laid open: a claim the reader shows
        if seat is w.discarder and zone == "river" and tile == w.tile and n < 0:
            return ()  # the discard taken from its river: somebody claimed it
    by = _who(table_seat(w.discarder, dealer))
    return (
        Candidate(
            says(
                "Nobody claimed {seat}'s {tile}: close the claims", seat=by, tile=tile_said(w.tile)
            ),
            action={"kind": "nobody-claimed"},
            headline=says(
                "Claims on {seat}'s {tile} are open and the reader shows nobody claiming",
                seat=by,
                tile=tile_said(w.tile),
            ),
        ),
    )


def _drawn_after(
    deal: Deal, dealer: Seat, differences: Differences, discarder: Seat
) -> tuple[Candidate, ...]:
    """The next player's draw while claims on a discard are open, when the reader sees the
    wall's next tile in that hand: nobody claimed and the table went on (the draw closes
    the window; 25/25/4 seed 312: "Enter the claim (or the passes)" alone, the draw not
    offered, 4 calls of 25)."""
    index = deal.wall.next_index()
    tile = None if index is None else deal.wall.order[index]
    seat = next_player(discarder, (), [deal.is_out(s) for s in SEATS])
    if tile is None or seat is None or differences.get((seat, "hand", tile), 0) <= 0:
        return ()
    side = table_seat(seat, dealer)
    who = _who(side)
    move = {"seat": side.name, "move": "draw", "tile": str(tile)}
    problem = says("{who}'s draw was not read", who=who)
    seen = _seen(differences, seat, "hand", tile, side)
    return (
        Candidate(
            says("{who} drew {tile}: enter it", who=who, tile=tile_said(tile)),
            move,
            headline=_problem(problem, seen),
        ),
    )


def _last_drawn(deal: Deal, seat: Seat) -> Any:
    """The tile `seat` drew last (None: it has drawn none)."""
    for m in reversed(deal.history):
        if isinstance(m, mv.Draw | mv.ReplacementDraw) and m.seat is seat:
            return m.tile
    return None
