"""The referee at the table: actions from the referee page put the deal in progress right
(issue 13). Each is a `correction` record (who, when, what, why; docs/JOURNAL.md), and the
live judge is then the deal *rebuilt from the journal* exactly as `mjtable replay`, `report`
and a restart rebuild it (controller/referee/rebuild.py): one code path for the page, the
`mjtable correct` command and every tool that reads the journal afterwards.

Before anything is written the action is tried: the deal is rebuilt with the corrections it
would append, and an action after which the judge would refuse a move it accepted before
(or any hand-entered move the judge refuses now) is refused with the judge's reason, and
nothing is written. Every correction can be undone (`undo`: a `withdraw` correction).

The referee tools (controller/referee/) are imported where they are first needed, not with
this module: a daemon that starts with no correction to apply never loads them (start-up,
issue 17 item 6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from controller.clock import Clock
from controller.errors import Malformed, NoSuchRecord, Refused
from controller.journal.payloads import Evidence, deal_seat, judge_json, move_from_judge_json
from controller.journal.records import Correction, CorrectionAction, Record, RecordKind, Stamp
from controller.journal.store import Journal
from controller.locale import N_, Said, counted, says
from controller.outputs.scoreboard import (
    REFEREE,
    ActionKind,
    ActionResult,
    RefereeAction,
    RejectReason,
)
from controller.outputs.view import CorrectionView
from controller.words import refusal_said, seat_said, tile_code, tile_words
from rules import moves as mv
from rules.melds import MeldKind
from rules.move_json import RecordError, move_from_json
from rules.seats import Seat
from rules.tiles import NotationError, Tile
from rules.wall import Dice

if TYPE_CHECKING:
    from controller.referee.journal_deal import AppliedCorrection
    from controller.referee.rebuild import Rebuilt
    from rules.deal import Deal

# a hand-entered move's evidence, journalled as a sentence said in the reader's language
# where it is shown (the deal report, `mjtable replay`)
ENTERED = N_("entered by the referee ({who}): {reason}")
# an undone or cancelled move still lies on the table until its tiles are put back
_TAKES_BACK = frozenset({ActionKind.CANCEL})


def _reason(err: Refused) -> RejectReason:
    """The referee page's word for why an action was refused."""
    if isinstance(err, Malformed):
        return RejectReason.INVALID
    if isinstance(err, NoSuchRecord):
        return RejectReason.NO_SUCH_RECORD
    return RejectReason.NOT_NOW


def hand_move(action: RefereeAction, dealer: Seat, deal: Deal | None = None) -> mv.Move:
    """The judge move a referee entered (fixed seats on the page, deal seats for the judge).
    A kong's kind follows from the deal: melded on an open discard, else the one the judge
    takes (concealed, promoted, postponed)."""
    assert action.seat is not None
    seat = deal_seat(action.seat, dealer)
    obj: dict[str, Any] = {"move": action.move, "seat": seat.name}
    try:
        tile = Tile.parse(tile_code(action.tile)) if action.tile else None
    except (NotationError, ValueError) as err:
        raise Malformed(says("tile: {error}", error=str(err))) from None
    if tile is not None and action.move not in ("pung", "hu", "pass", "self-drawn-hu", "rob-kong"):
        obj["tile"] = str(tile)
    if action.move == "void":
        # the tile laid face down names the suit; a void chosen by the table's button
        # (nothing laid) names it alone
        if tile is None and not action.suit:
            raise Malformed(
                Said("tile or suit: the tile laid face down, or the suit chosen by button")
            )
        if tile is not None and action.suit not in ("", tile.suit.value):
            raise Malformed(says("suit: {tile} is not of it", tile=Said(tile_words(str(tile)))))
        obj["suit"] = tile.suit.value if tile is not None else action.suit
    if action.move == "kong":
        return _kong(seat, tile, deal)
    try:
        return move_from_json(obj, "move")
    except RecordError as err:
        raise Malformed(str(err)) from None


def _kong(seat: Seat, tile: Tile | None, deal: Deal | None) -> mv.Move:
    w = None if deal is None else deal.window
    if w is not None and w.kind.value == "discard":
        return mv.Kong(seat, MeldKind.KONG, w.tile)
    if tile is None:
        raise Malformed(Said("tile: the kong's tile"))
    kinds = (MeldKind.CONCEALED_KONG, MeldKind.PROMOTED_KONG, MeldKind.POSTPONED_KONG)
    moves = [mv.Kong(seat, k, tile) for k in kinds]
    return next((m for m in moves if deal is not None and deal.check(m) is None), moves[0])


class LiveDeal(Protocol):
    """What the desk asks of the deal in progress (the core, `Runtime`, answers; core
    thread only)."""

    @property
    def deal(self) -> Deal | None: ...
    @property
    def deal_no(self) -> int: ...
    @property
    def seq(self) -> int: ...  # the journal's last record as the daemon has taken it
    @property
    def dealt_by(self) -> Seat: ...
    @property
    def last_accepted_seq(self) -> int: ...
    @property
    def last_settled(self) -> int: ...  # the session's last settled deal (0: none yet)
    def answer_dice(self, dice: Dice, dealer: Seat, who: str, why: str) -> Said | None: ...
    def would_refuse(self, move: mv.Move) -> mv.Rejected | None: ...
    def offer(self, move: mv.Move, evidence: Evidence = (), t: float | None = None) -> bool: ...
    def close_claims(self) -> Record | None: ...
    def journalled(self, record: Record) -> None: ...
    def referee_answered(self, agreed: bool = False) -> None: ...
    def reread_table(self) -> None: ...
    def adopt(self, deal: Deal, taken_back: bool = False) -> None: ...
    def settled_corrected(self) -> None: ...  # a settled deal's result follows its corrections
    def session_number(self, deal: int) -> int: ...  # the journal's deal as the session counts it


class RefereeDesk:
    """Applies `RefereeAction`s to the deal in progress: writes corrections into `journal`,
    stamped by `clock`, and asks `live` to follow them (core thread only)."""

    def __init__(self, journal: Journal, clock: Clock, live: LiveDeal) -> None:
        self.journal = journal
        self.clock = clock
        self.live = live
        self._listed: tuple[int, int, tuple[CorrectionView, ...]] = (0, -1, ())
        self._settled: tuple[int, int, tuple[CorrectionView, ...]] = (0, -1, ())
        self._corrections_written = 0

    def listing(self) -> tuple[CorrectionView, ...]:
        """The deal in progress's corrections, newest first (read again only when the
        journal has grown by a correction: publishing happens after every record)."""
        live = self.live
        if live.deal is None or not live.deal_no or self._settled_no() == live.deal_no:
            return ()
        self._listed = self._views(live.deal_no, self._listed)
        return self._listed[2]

    def settled_listing(self) -> tuple[int, tuple[CorrectionView, ...]]:
        """The last settled deal of the session and its corrections, newest first: they
        stay undoable after the deal ended (issue 27 item 3); (0, ()) when there is none."""
        number = self._settled_no()
        if not number:
            return 0, ()
        self._settled = self._views(number, self._settled, settled=True)
        return number, self._settled[2]

    def _settled_no(self) -> int:
        live = self.live
        number = live.last_settled
        if number and number == live.deal_no and live.deal is not None and not live.deal.over:
            return 0  # (a deal the referee re-opened is the deal in progress)
        return number

    def _views(
        self,
        number: int,
        cached: tuple[int, int, tuple[CorrectionView, ...]],
        settled: bool = False,
    ) -> tuple[int, int, tuple[CorrectionView, ...]]:
        """`number`'s corrections as the page lists them; a `settled` deal's say what their
        Undo does now that its tiles are off the table (`SETTLED_UNDO`)."""
        if cached[0] == number and cached[1] == self._corrections_written:
            return cached
        from controller.referee.journal_deal import deal_from_records

        jd = deal_from_records(self.journal, self._deal_records(number))
        views = tuple(
            _correction_view(c, jd.dealer, self.live.session_number(number) if settled else 0)
            for c in reversed(jd.corrections)
            if c.correction.action is not CorrectionAction.WITHDRAW
        )
        return (number, self._corrections_written, views)

    def act(self, action: RefereeAction) -> ActionResult:
        try:
            return self._act(action)
        except Refused as err:
            return ActionResult(False, None, _reason(err), str(err), err.said.to_json())

    # --- the actions ----------------------------------------------------------------------

    def _act(self, a: RefereeAction) -> ActionResult:
        live = self.live
        who = a.client or REFEREE
        why = a.note or _DEFAULT_WHY[a.kind]
        if a.kind is ActionKind.NOTE:
            target = a.target_seq or live.seq
            if target < 1 or self.journal.get(target) is None:
                raise NoSuchRecord(says("no record {seq}", seq=target))
            return self._write([Correction(target, who, CorrectionAction.NOTE, why)], apply=False)
        if a.kind is ActionKind.DICE:
            assert a.seat is not None
            dice = Dice(int(a.dice[0]), int(a.dice[-1]))
            refused = live.answer_dice(dice, a.seat, who, why)
            if refused is not None:
                raise Refused(refused)
            return _answered(
                live.seq,
                says(
                    "dice {dice}, the dealer at {seat}", dice=str(dice), seat=seat_said(a.seat.name)
                ),
            )
        if a.kind is ActionKind.UNDO and a.target_seq is not None:
            settled = self._settled_no()
            undone = self.journal.get(a.target_seq)
            if settled and undone is not None and undone.deal == settled:
                return self._undo_settled(settled, a.target_seq, who, why)
        deal = live.deal
        if deal is None or deal.over or not live.deal_no:
            raise Refused(Said("no deal in progress"))
        if a.kind is ActionKind.MOVE:
            return self._enter(a, who, why)
        if a.kind is ActionKind.MOVES:
            return self._enter_all(a, who, why)
        if a.kind is ActionKind.NOBODY_CLAIMED:
            return self._nobody_claimed(who, why)
        if a.kind is ActionKind.CANCEL:
            targets = [a.target_seq] if a.target_seq else self._last_moves(a.count or 1)
            self._own_moves(targets)
            corrections = [Correction(s, who, CorrectionAction.CANCEL_MOVE, why) for s in targets]
        elif a.kind is ActionKind.FIX_TILE:
            assert a.target_seq is not None
            self._own_moves([a.target_seq])
            try:
                tile = str(Tile.parse(tile_code(a.tile)))
            except (NotationError, ValueError) as err:
                raise Malformed(says("tile: {error}", error=str(err))) from None
            details = {"tile": tile}
            corrections = [Correction(a.target_seq, who, CorrectionAction.FIX_TILE, why, details)]
        elif a.kind is ActionKind.PENALTY:
            corrections = [self._penalty(a, who, why)]
        elif a.kind is ActionKind.UNDO:
            assert a.target_seq is not None
            self._undoable(a.target_seq)
            corrections = [Correction(a.target_seq, who, CorrectionAction.WITHDRAW, why)]
        else:  # ABANDON
            corrections = [Correction(live.seq, who, CorrectionAction.FORCE_END, why)]
        return self._write(corrections, taken_back=a.kind in _TAKES_BACK)

    def _enter(self, a: RefereeAction, who: str, why: str) -> ActionResult:
        """A move the reader missed: offered to the judge like a read one, journalled with
        an `enter-move` correction on it (so it can be taken back)."""
        seq, said = self._enter_one(a, who, why)
        self.live.referee_answered(agreed=True)
        self.live.reread_table()
        return _answered(seq, says("{move} accepted", move=said))

    def _enter_all(self, a: RefereeAction, who: str, why: str) -> ActionResult:
        """Several moves the reader missed, in their order, each entered as `_enter` enters
        one (its own correction, undone on its own); the table is read again once, after
        the last. A move the judge refuses stops the run there: those before it stand and
        the answer says which was refused (the first refused: nothing is entered)."""
        entered: list[tuple[int, Said]] = []
        refused: Refused | None = None
        for move in a.moves:
            try:
                entered.append(self._enter_one(move, who, why))
            except Refused as err:
                if not entered:
                    raise
                refused = err
                break
        self.live.referee_answered(agreed=True)
        self.live.reread_table()
        seq = entered[-1][0]
        done = counted(len(entered), "{n} move accepted", "{n} moves accepted")
        if refused is None:
            return _answered(seq, done)
        return _answered(seq, says("{done}; then {refusal}", done=done, refusal=refused.said))

    def _enter_one(self, a: RefereeAction, who: str, why: str) -> tuple[int, Said]:
        """`_enter`'s move offered and journalled: its correction's record and its words."""
        from controller.referee.trial import move_said

        live = self.live
        move = hand_move(a, live.dealt_by, live.deal)
        said = move_said(move, live.dealt_by)
        refused = live.would_refuse(move)
        if refused is not None:
            raise Refused(
                says(
                    "the judge refuses {move}: {why}",
                    move=said,
                    why=refusal_said(refused.reason.value, refused.detail),
                )
            )
        evidence = (says(ENTERED, who=who, reason=Said(why)),)
        if not live.offer(move, evidence, self.clock.monotonic()):
            raise Refused(says("the judge refuses {move}", move=said))
        accepted = live.last_accepted_seq
        record = self.journal.append_correction(
            Correction(
                accepted, who, CorrectionAction.ENTER_MOVE, why, {"judge": judge_json(move)}
            ),
            at=self._stamp(),
        )
        live.journalled(record)
        self._corrections_written += 1
        return record.seq, said

    def _nobody_claimed(self, who: str, why: str) -> ActionResult:
        """The open claim window closes with no claim: its `claim.window` record ("closed
        by the referee") carries an `enter-move` correction, so it is listed and undone like
        an entered move (withdrawn, the window is open again)."""
        live = self.live
        w = live.deal.window if live.deal is not None else None
        if w is not None and any(not isinstance(c, mv.Pass) for _, c in w.declared):
            # closing would take that claim: it is the claim to cancel, not a close
            raise Refused(Said(CLAIM_DECLARED))
        closed = live.close_claims()
        if closed is None:
            raise Refused(Said("no claims are open"))
        details = {"judge": judge_json(mv.CloseClaims())}
        record = self.journal.append_correction(
            Correction(closed.seq, who, CorrectionAction.ENTER_MOVE, why, details),
            at=self._stamp(),
        )
        live.journalled(record)
        self._corrections_written += 1
        live.referee_answered(agreed=True)
        live.reread_table()
        return _answered(record.seq, Said(NOBODY_CLAIMED))

    def _undo_settled(self, number: int, target: int, who: str, why: str) -> ActionResult:
        """A correction of the last settled deal withdrawn: the deal is re-judged from the
        journal and its result published again (the session totals, the board, the seat
        displays at once; the hall and the hub with the next look for corrections)."""
        self._undoable(target, number)
        correction = Correction(target, who, CorrectionAction.WITHDRAW, why)
        from controller.referee.journal_deal import deal_from_records
        from controller.referee.rebuild import rebuild
        from controller.referee.trial import trial

        before = rebuild(deal_from_records(self.journal, self._deal_records(number))).deltas
        after = trial(self.journal, number, [correction], self._stamp())
        record = self.journal.append_correction(correction, at=self._stamp())
        self.live.journalled(record)
        self._corrections_written += 1
        self.live.settled_corrected()
        undone = self.journal.get(target)
        ended = undone is not None and _is_end(undone)
        said = SETTLED_UNDO["judged-unfinished" if ended and not after.deal.over else "judged"]
        scores = SETTLED_UNDO["scores-stand" if after.deltas == before else "scores-follow"]
        return _answered(
            record.seq,
            says(
                "{done}{scores}",
                done=says(said, deal=str(self.live.session_number(number))),
                scores=Said(scores),
            ),
        )

    def _penalty(self, a: RefereeAction, who: str, why: str) -> Correction:
        live = self.live
        assert a.seat is not None
        dealer = live.dealt_by
        to = None if a.paid_to is None else deal_seat(a.paid_to, dealer)
        move = mv.Penalty(deal_seat(a.seat, dealer), a.points, a.note or "referee", to)
        rejected = live.deal.check(move) if live.deal is not None else None
        if rejected is not None:
            raise Refused(str(rejected))
        details = {
            "seat": a.seat.name,
            "points": a.points,
            "paid_to": None if a.paid_to is None else a.paid_to.name,
            "judge": judge_json(move),
        }
        return Correction(live.seq, who, CorrectionAction.PENALTY, why, details)

    def rebuilt(self) -> Deal | None:
        """The deal in progress rebuilt with its corrections (None: it has none), for a
        restart: replaying the accepted moves alone would undo the referee's work."""
        records = self._deal_records()
        if not any(r.kind is RecordKind.CORRECTION for r in records):
            return None
        from controller.referee.journal_deal import deal_from_records
        from controller.referee.rebuild import rebuild

        return rebuild(deal_from_records(self.journal, records)).deal

    # --- targets ----------------------------------------------------------------------------

    def _deal_records(self, number: int | None = None) -> list[Record]:
        from controller.referee.journal_deal import READ_KINDS

        return list(self.journal.deal_records(number or self.live.deal_no, READ_KINDS))

    def _current(self) -> Rebuilt:
        from controller.referee.journal_deal import deal_from_records
        from controller.referee.rebuild import rebuild

        return rebuild(deal_from_records(self.journal, self._deal_records()))

    def _moves(self) -> list[int]:
        """The records of the moves that count now (corrections applied), in order."""
        return [e.at for e in self._current().entries if e.origin == "move"]

    def _last_moves(self, n: int) -> list[int]:
        """The records of the last n moves that count now."""
        moves = self._moves()
        if not moves:
            raise Refused(Said("no move of this deal to cancel"))
        return moves[-n:]

    def record_back(self, n: int) -> int | None:
        """The record of the move that counts `n` moves back (1: the last; None: the deal
        has fewer): the judge's player moves and the journal's moves that count are the
        same moves, so a call's candidate names a past move's record by its place."""
        moves = self._moves()
        return moves[-n] if 0 < n <= len(moves) else None

    def _own_moves(self, seqs: Sequence[int]) -> None:
        by_seq = {r.seq: r for r in self._deal_records()}
        for seq in seqs:
            rec = by_seq.get(seq)
            if rec is None or rec.kind is not RecordKind.MOVE_ACCEPTED:
                raise NoSuchRecord(
                    says(
                        "record {seq} is not an accepted move of deal {deal}",
                        seq=seq,
                        deal=str(self.live.session_number(self.live.deal_no)),
                    )
                )

    def _undoable(self, seq: int, number: int | None = None) -> None:
        from controller.referee.journal_deal import deal_from_records

        number = number or self.live.deal_no
        jd = deal_from_records(self.journal, self._deal_records(number))
        found = next((c for c in jd.corrections if c.record.seq == seq), None)
        if found is None:
            raise NoSuchRecord(
                says(
                    "record {seq} is not a correction of deal {deal}",
                    seq=seq,
                    deal=str(self.live.session_number(number)),
                )
            )
        if not found.active:
            raise Refused(
                says("correction {seq} is already withdrawn or is itself a withdrawal", seq=seq)
            )

    # --- try, write, apply ----------------------------------------------------------------

    def _stamp(self) -> Stamp:
        return Stamp(self.clock.monotonic(), self.clock.wall())

    def _trial(self, corrections: Sequence[Correction]) -> Rebuilt:
        from controller.referee.trial import trial

        return trial(self.journal, self.live.deal_no, corrections, self._stamp())

    def _write(
        self, corrections: Sequence[Correction], apply: bool = True, taken_back: bool = False
    ) -> ActionResult:
        live = self.live
        if apply:
            self._trial(corrections)
        seq = 0
        for c in corrections:
            record = self.journal.append_correction(c, at=self._stamp())
            live.journalled(record)
            seq = record.seq
        self._corrections_written += 1
        if apply:
            live.adopt(self._current().deal, taken_back=taken_back)
        return ActionResult(True, seq)


def _correction_view(c: AppliedCorrection, dealer: Seat, settled: int = 0) -> CorrectionView:
    """A correction as the page lists it (its deal dealt from side `dealer`); one of the
    `settled` deal's says what its Undo does now."""
    said = _describe(c.record.seq, c.correction, dealer)
    view = CorrectionView(c.record.seq, str(said), c.active, said.to_json())
    if not settled:
        return view
    means = _undo_means(c.correction, c.active, settled)
    return replace(view, undo_means=str(means), undo_words=means.to_json())


# what Undo does to a settled deal's correction: the deal is judged again; its tiles are off
# the table, so a deal whose end is undone cannot be played on (issue 27 item 3)
SETTLED_UNDO = {
    "end": N_(
        "Undo judges deal {deal} again without this end: it cannot be played on (its tiles "
        "are off the table), so it stays unfinished, with the payments made before the end."
    ),
    "end-undone": N_(
        "Undone: deal {deal} stays unfinished, with the payments made before the end."
    ),
    "other": N_("Undo judges deal {deal} again without it; the scores follow."),
    "other-undone": N_("Undone: deal {deal} was judged again without it."),
    "judged": N_("deal {deal} judged again"),
    "judged-unfinished": N_(
        "deal {deal} judged again without its end: it cannot be played on, "
        "so it stays unfinished, with the payments made before the end"
    ),
    "scores-stand": N_("; the scores do not change"),
    "scores-follow": N_("; the scores follow"),
}


def _undo_means(c: Correction, active: bool, deal: int) -> Said:
    key = "end" if c.action is CorrectionAction.FORCE_END else "other"
    return says(SETTLED_UNDO[key if active else key + "-undone"], deal=str(deal))


def _is_end(record: Record) -> bool:
    return Correction.from_payload(record.data()).action is CorrectionAction.FORCE_END


# a row of "Corrections": named by its own record (the number "Recorded as #N" says and Undo
# takes), naming the record it corrects where that is another move ("move #41 cancelled")
_CORRECTED = {
    CorrectionAction.ENTER_MOVE: N_("#{seq} {move} entered by {referee}: {why}"),
    CorrectionAction.CANCEL_MOVE: N_("#{seq} move #{target} cancelled by {referee}: {why}"),
    CorrectionAction.FIX_TILE: N_("#{seq} tile of #{target} fixed to {tile} by {referee}: {why}"),
    CorrectionAction.PENALTY: N_(
        "#{seq} penalty: {seat} pays {points} points to {payee} by {referee}: {why}"
    ),
    CorrectionAction.FORCE_END: N_("#{seq} deal ended by {referee}: {why}"),
}
CLAIM_DECLARED = N_("a claim was declared on it: closing the claims would take it")
# what the page says when the referee closed the claims
NOBODY_CLAIMED = N_("nobody claimed: the claims are closed")
_NOBODY_CLAIMED_ROW = N_("#{seq} nobody claimed, claims closed by {referee}: {why}")


def referee_said(referee: str) -> str | Said:
    """A correction's referee as the page names it: the login's name as written, the
    referee with no name ("referee") in the page's language."""
    return Said(REFEREE) if referee == REFEREE else referee


def _describe(seq: int, c: Correction, dealer: Seat) -> Said:
    """A correction (record `seq`) as the referee page lists it, said in the page's
    language: an entered move named (a referee could not tell one "move entered" row from
    another); its referee and reason as written (a reason the page offered, "it did not
    happen", is said in the page's language too: it is a catalog message)."""
    details = c.details or {}
    who: dict[str, str | Said] = {
        "seq": str(seq),
        "target": str(c.corrects),
        "referee": referee_said(c.referee),
        "why": Said(c.reason),
    }
    if c.action is CorrectionAction.PENALTY:
        to = details.get("paid_to")
        return says(
            _CORRECTED[c.action],
            seat=seat_said(details.get("seat")),
            points=str(details.get("points")),
            payee=seat_said(to) if to else Said("nobody"),
            **who,
        )
    if c.action is CorrectionAction.ENTER_MOVE and "judge" in details:
        from controller.referee.trial import move_said

        move = move_from_judge_json(details["judge"])
        if isinstance(move, mv.CloseClaims):
            return says(_NOBODY_CLAIMED_ROW, **who)
        return says(_CORRECTED[c.action], move=move_said(move, dealer), **who)
    if c.action is CorrectionAction.FIX_TILE:
        tile = str(details.get("tile"))
        return says(_CORRECTED[c.action], tile=Said(tile_words(tile)), **who)
    if c.action in _CORRECTED:
        return says(_CORRECTED[c.action], **who)
    return says("#{seq} {action} by {referee}: {why}", action=str(c.action), **who)


# the reason referee.js journals with an answer taken from a call's button: a catalog
# message, so the corrections list says it in the page's language
FROM_CALL = N_("chosen from the referee call")
# journalled as the correction's reason in English, and said in the page's language (a
# catalog message) where the correction is listed
_DEFAULT_WHY = {
    ActionKind.MOVE: N_("the reader missed it"),
    ActionKind.MOVES: N_("the reader missed them"),
    ActionKind.DICE: N_("the dice the table rolled"),
    ActionKind.CANCEL: N_("it did not happen"),
    ActionKind.NOBODY_CLAIMED: N_("nobody claimed"),
    ActionKind.FIX_TILE: N_("the tile was misread"),
    ActionKind.PENALTY: N_("referee penalty"),
    ActionKind.UNDO: N_("undone by the referee"),
    ActionKind.ABANDON: N_("abandoned by the referee"),
    ActionKind.NOTE: "",
}


def _answered(seq: int | None, said: Said) -> ActionResult:
    """An action taken: its record and what it did, as a sentence the page says."""
    return ActionResult(True, seq, None, str(said), said.to_json())
