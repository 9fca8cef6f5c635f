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
from typing import TYPE_CHECKING, Any

from controller.alerts import AlertKind
from controller.daemon import machine as m
from controller.daemon.candidates import candidates
from controller.daemon.contracts import PHASES, tail_line
from controller.errors import Malformed, NoSuchRecord, Refused
from controller.journal.payloads import deal_seat, judge_json
from controller.journal.records import Correction, CorrectionAction, Record, RecordKind, Stamp
from controller.outputs.scoreboard import ActionKind, ActionResult, RefereeAction, RejectReason
from controller.outputs.view import CorrectionView
from controller.words import seat_name, tile_words
from rules import moves as mv
from rules.melds import MeldKind
from rules.record import RecordError, move_from_json
from rules.seats import Seat
from rules.tiles import NotationError, Tile
from rules.wall import Dice

if TYPE_CHECKING:
    from controller.daemon.runtime import Runtime
    from controller.referee.rebuild import Rebuilt
    from rules.deal import Deal

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
        tile = Tile.parse(action.tile) if action.tile else None
    except (NotationError, ValueError) as err:
        raise Malformed(f"tile: {err}") from None
    if tile is not None and action.move not in ("pung", "hu", "pass", "self-drawn-hu", "rob-kong"):
        obj["tile"] = str(tile)
    if action.move == "void":
        if tile is None:
            raise Malformed("tile: the tile laid face down (its suit is the void)")
        obj["suit"] = tile.suit.value
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
        raise Malformed("tile: the kong's tile")
    kinds = (MeldKind.CONCEALED_KONG, MeldKind.PROMOTED_KONG, MeldKind.POSTPONED_KONG)
    moves = [mv.Kong(seat, k, tile) for k in kinds]
    return next((m for m in moves if deal is not None and deal.check(m) is None), moves[0])


class RefereeDesk:
    """Applies `RefereeAction`s to the runtime's deal in progress (core thread only)."""

    def __init__(self, runtime: Runtime) -> None:
        self.rt = runtime
        self._listed: tuple[int, int, tuple[CorrectionView, ...]] = (0, -1, ())
        self._corrections_written = 0

    def listing(self) -> tuple[CorrectionView, ...]:
        """The deal in progress's corrections, newest first (read again only when the
        journal has grown by a correction: publishing happens after every record)."""
        rt = self.rt
        if rt.deal is None or not rt.deal_no:
            return ()
        deal_no, seen, views = self._listed
        if deal_no == rt.deal_no and seen == self._corrections_written:
            return views
        from controller.referee.journal_deal import deal_from_records

        jd = deal_from_records(rt.journal, self._deal_records())
        views = tuple(
            CorrectionView(c.record.seq, _describe(c.correction), c.active)
            for c in reversed(jd.corrections)
            if c.correction.action is not CorrectionAction.WITHDRAW
        )
        self._listed = (rt.deal_no, self._corrections_written, views)
        return views

    def act(self, action: RefereeAction) -> ActionResult:
        try:
            return self._act(action)
        except Refused as err:
            return ActionResult(False, None, _reason(err), str(err))

    # --- the actions ----------------------------------------------------------------------

    def _act(self, a: RefereeAction) -> ActionResult:
        rt = self.rt
        who = a.client or "referee"
        why = a.note or _DEFAULT_WHY[a.kind]
        if a.kind is ActionKind.NOTE:
            target = a.target_seq or rt.seq
            if target < 1 or rt.journal.get(target) is None:
                raise NoSuchRecord(f"no record {target}")
            return self._write([Correction(target, who, CorrectionAction.NOTE, why)], apply=False)
        if a.kind is ActionKind.DICE:
            assert a.seat is not None
            dice = Dice(int(a.dice[0]), int(a.dice[-1]))
            refused = rt.answer_dice(dice, a.seat, who, why)
            if refused is not None:
                raise Refused(refused)
            return ActionResult(True, rt.seq, None, f"dice {dice}, the dealer at {a.seat}")
        deal = rt.deal
        if deal is None or deal.over or not rt.deal_no:
            raise Refused("no deal in progress")
        if a.kind is ActionKind.MOVE:
            return self._enter(a, who, why)
        if a.kind is ActionKind.CANCEL:
            targets = [a.target_seq] if a.target_seq else self._last_moves(a.count or 1)
            self._own_moves(targets)
            corrections = [Correction(s, who, CorrectionAction.CANCEL_MOVE, why) for s in targets]
        elif a.kind is ActionKind.FIX_TILE:
            assert a.target_seq is not None
            self._own_moves([a.target_seq])
            try:
                tile = str(Tile.parse(a.tile))
            except (NotationError, ValueError) as err:
                raise Malformed(f"tile: {err}") from None
            details = {"tile": tile}
            corrections = [Correction(a.target_seq, who, CorrectionAction.FIX_TILE, why, details)]
        elif a.kind is ActionKind.PENALTY:
            corrections = [self._penalty(a, who, why)]
        elif a.kind is ActionKind.UNDO:
            assert a.target_seq is not None
            self._undoable(a.target_seq)
            corrections = [Correction(a.target_seq, who, CorrectionAction.WITHDRAW, why)]
        else:  # ABANDON
            corrections = [Correction(rt.seq, who, CorrectionAction.FORCE_END, why)]
        return self._write(corrections, taken_back=a.kind in _TAKES_BACK)

    def _enter(self, a: RefereeAction, who: str, why: str) -> ActionResult:
        """A move the reader missed: offered to the judge like a read one, journalled with
        an `enter-move` correction on it (so it can be taken back)."""
        from controller.referee.trial import say

        rt = self.rt
        move = hand_move(a, rt.dealt_by, rt.deal)
        refused = rt.would_refuse(move)
        if refused is not None:
            raise Refused(f"the judge refuses {say(move, rt.dealt_by)}: {refused.detail}")
        evidence = (f"entered by the referee ({who}): {why}",)
        if not rt.offer(move, evidence, rt.clock.monotonic()):
            raise Refused(f"the judge refuses {say(move, rt.dealt_by)}")
        accepted = rt.last_accepted_seq
        record = rt.journal.append_correction(
            Correction(
                accepted, who, CorrectionAction.ENTER_MOVE, why, {"judge": judge_json(move)}
            ),
            at=self._stamp(),
        )
        rt.journalled(record)
        self._corrections_written += 1
        rt.referee_answered(agreed=True)
        rt.reread_table()
        return ActionResult(True, record.seq, None, f"{say(move, rt.dealt_by)} accepted")

    def _penalty(self, a: RefereeAction, who: str, why: str) -> Correction:
        rt = self.rt
        assert a.seat is not None
        dealer = rt.dealt_by
        to = None if a.paid_to is None else deal_seat(a.paid_to, dealer)
        move = mv.Penalty(deal_seat(a.seat, dealer), a.points, a.note or "referee", to)
        rejected = rt.deal.check(move) if rt.deal is not None else None
        if rejected is not None:
            raise Refused(str(rejected))
        details = {
            "seat": a.seat.name,
            "points": a.points,
            "paid_to": None if a.paid_to is None else a.paid_to.name,
            "judge": judge_json(move),
        }
        return Correction(rt.seq, who, CorrectionAction.PENALTY, why, details)

    def rebuilt(self) -> Deal | None:
        """The deal in progress rebuilt with its corrections (None: it has none), for a
        restart: replaying the accepted moves alone would undo the referee's work."""
        records = self._deal_records()
        if not any(r.kind is RecordKind.CORRECTION for r in records):
            return None
        from controller.referee.journal_deal import deal_from_records
        from controller.referee.rebuild import rebuild

        return rebuild(deal_from_records(self.rt.journal, records)).deal

    # --- targets ----------------------------------------------------------------------------

    def _deal_records(self) -> list[Record]:
        from controller.referee.journal_deal import READ_KINDS

        return list(self.rt.journal.deal_records(self.rt.deal_no, READ_KINDS))

    def _current(self) -> Rebuilt:
        from controller.referee.journal_deal import deal_from_records
        from controller.referee.rebuild import rebuild

        return rebuild(deal_from_records(self.rt.journal, self._deal_records()))

    def _last_moves(self, n: int) -> list[int]:
        """The records of the last n moves that count now (corrections applied)."""
        moves = [e.at for e in self._current().entries if e.origin == "move"]
        if not moves:
            raise Refused("no move of this deal to cancel")
        return moves[-n:]

    def _own_moves(self, seqs: Sequence[int]) -> None:
        by_seq = {r.seq: r for r in self._deal_records()}
        for seq in seqs:
            rec = by_seq.get(seq)
            if rec is None or rec.kind is not RecordKind.MOVE_ACCEPTED:
                raise NoSuchRecord(
                    f"record {seq} is not an accepted move of deal {self.rt.deal_no}"
                )

    def _undoable(self, seq: int) -> None:
        from controller.referee.journal_deal import deal_from_records

        jd = deal_from_records(self.rt.journal, self._deal_records())
        found = next((c for c in jd.corrections if c.record.seq == seq), None)
        if found is None:
            raise NoSuchRecord(f"record {seq} is not a correction of deal {self.rt.deal_no}")
        if not found.active:
            raise Refused(f"correction {seq} is already withdrawn or is itself a withdrawal")

    # --- try, write, apply ----------------------------------------------------------------

    def _stamp(self) -> Stamp:
        return Stamp(self.rt.clock.monotonic(), self.rt.clock.wall())

    def _trial(self, corrections: Sequence[Correction]) -> Rebuilt:
        from controller.referee.trial import trial

        return trial(self.rt.journal, self.rt.deal_no, corrections, self._stamp())

    def _write(
        self, corrections: Sequence[Correction], apply: bool = True, taken_back: bool = False
    ) -> ActionResult:
        rt = self.rt
        if apply:
            self._trial(corrections)
        seq = 0
        for c in corrections:
            record = rt.journal.append_correction(c, at=self._stamp())
            rt.journalled(record)
            seq = record.seq
        self._corrections_written += 1
        if apply:
            rt.adopt(self._current().deal, taken_back=taken_back)
        return ActionResult(True, seq)


def _describe(c: Correction) -> str:
    what = {
        CorrectionAction.ENTER_MOVE: "move entered",
        CorrectionAction.CANCEL_MOVE: "move cancelled",
        CorrectionAction.FIX_TILE: "tile fixed",
        CorrectionAction.PENALTY: "penalty",
        CorrectionAction.FORCE_END: "deal ended",
    }.get(c.action, str(c.action))
    details = c.details or {}
    extra = ""
    if c.action is CorrectionAction.PENALTY:
        to = details.get("paid_to")
        extra = (
            f": {seat_name(details.get('seat'))} pays {details.get('points')} points to "
            f"{seat_name(to) if to else 'nobody'}"
        )
    elif c.action is CorrectionAction.FIX_TILE:
        extra = f" to {tile_words(str(details.get('tile')))}"
    return f"#{c.corrects} {what}{extra} by {c.referee}: {c.reason}"


_DEFAULT_WHY = {
    ActionKind.MOVE: "the reader missed it",
    ActionKind.DICE: "the dice the table rolled",
    ActionKind.CANCEL: "it did not happen",
    ActionKind.FIX_TILE: "the tile was misread",
    ActionKind.PENALTY: "referee penalty",
    ActionKind.UNDO: "undone by the referee",
    ActionKind.ABANDON: "abandoned by the referee",
    ActionKind.NOTE: "",
}


class RefereeSide:
    """The runtime's side of the referee desk: what the desk asks of the live deal (a part
    of `Runtime`: core thread only)."""

    def referee(self, action: RefereeAction) -> ActionResult:
        """A referee action from the web view (controller/daemon/referee_desk.py)."""
        return self.desk.act(action)

    @property
    def referee_called(self) -> str | None:
        """What the table waits for the referee about (None: no call stands)."""
        return self._referee_called

    @referee_called.setter
    def referee_called(self, words: str | None) -> None:
        self._referee_called = words
        self._call_answered = False  # a new call (or none) waits for an answer

    @property
    def dealt_by(self) -> Seat:
        """The dealer of the deal in progress (its deal seat East)."""
        return self._dealt_by

    def journalled(self, record: Record) -> None:
        """A record another part of the daemon appended (the referee desk)."""
        self.seq, self._dirty = record.seq, True
        self.tail.append(tail_line(record))
        if record.kind is RecordKind.CORRECTION and record.deal:
            self._corrections_seen[record.deal] = record.seq  # not taken again (deal_cycle)

    def would_refuse(self, move: mv.Move) -> mv.Rejected | None:
        """The judge's answer to `move` now, closing an open window first where the move
        would (as `offer` does), without changing anything."""
        deal = self.deal
        if deal is None or deal.over:
            return mv.Rejected(mv.Reason.DEAL_OVER, "no deal in progress")
        rejected = deal.check(move)
        if rejected is not None and self._closes_window(deal, move):
            return None
        return rejected

    def referee_answered(self, agreed: bool = False) -> None:
        """The call goes off: at once for a referee's decision (a correction, the dice);
        `agreed`: after an accepted move, only once the table agrees with the judge again,
        otherwise it stands with its candidates brought up to date (a referee entering the
        moves a fast table showed turned the lights off at each one, the players went on
        and the deal was shuffled away before the judge caught up: 10/10/2 seed 310 deals
        29 and 38)."""
        if self.referee_called is None:
            return
        deal = self.deal
        if agreed and deal is not None and not deal.over:
            differences = self.recogniser.differences(deal)
            if differences:
                self.referee_candidates = candidates(
                    deal, self._dealt_by, differences, self.last_accepted_seq
                )
                self._call_answered = True  # it goes off once they agree (`call_off_if_agreed`)
                self._dirty = True
                return
        self.referee_called = None
        self.referee_candidates = ()
        self._dirty = True

    def call_off_if_agreed(self) -> None:
        """A call answered by a move, standing only while the table differed from the judge,
        goes off once they agree, with no move: a tile missed by the reader when the last
        answer was taken and read again afterwards (10/10/2 seed 311 deal 58: a meld tile
        unread for 0.2 s when the referee entered the last move; the players waited for the
        call, the judge for a move, and the deal was abandoned 30 s later)."""
        deal = self.deal
        if not self._call_answered or self.referee_called is None or deal is None or deal.over:
            return
        if self._live() and not self._overtaken() and not self.recogniser.differences(deal):
            self.referee_answered()

    def reread_table(self) -> None:
        """Read the table again against the judge (after a referee's answer): moves the
        tiles show beyond the judge are offered, as after a reconnection."""
        if self.deal is None or self.deal.over or not self._live() or self._overtaken():
            return
        presence = self.debouncer.presence()
        found = self.recogniser.reconcile(presence, self.deal)
        # a re-reading that explains nothing more is not a new call: the referee is at the
        # table entering what it shows, and the stall watch calls again if it stays unexplained
        # (a 10/10/2 campaign counted one RECOVERY call per answer, 30 in one deal)
        found = [r for r in found if getattr(r, "kind", None) is not AlertKind.RECOVERY]
        self.recognised(found, self.clock.monotonic())

    def adopt(self, deal: Deal, taken_back: bool = False) -> None:
        """The judge as the referee's corrections rebuilt it: the table machine follows its
        phase, a deal that ended is settled. `taken_back`: the cancelled moves still lie on
        the table until the players put the tiles back (they are not read again)."""
        self.deal = deal
        self._seen_key = None
        self.referee_answered()
        if deal.window is None:
            self._window_open = None
        elif self._window_open is None:
            self._journal_window_opened()
        if taken_back:
            self.recogniser.on_accepted(mv.Correction(1), deal)
        target = PHASES[deal.phase]
        moved_on = self._table_moved_on()  # the machine follows the table's next deal
        if (
            self.machine.phase != target
            and self.machine.phase not in m.INTERRUPTIONS
            and not moved_on
        ):
            for trigger in self.machine.path_to(target, ()) or ():
                self._trigger(trigger)
        if deal.over:
            self._settle_deal()
        elif not taken_back:
            self.reread_table()
        self._dirty = True
