"""`mjtable correct JOURNAL ACTION --record SEQ --referee NAME --why TEXT`: a referee's
correction, appended to the journal as a `correction` record (docs/JOURNAL.md). The corrected
record stays as it was; `mjtable replay`, `mjtable report` and `mjtable journal record` apply
corrections (controller/referee/rebuild.py says how each action changes the deal).

Actions and what they need:
  cancel-move   --record (an accepted move): the move did not happen
  fix-tile      --record (an accepted move) --tile 5p: the tile really was 5p
  penalty       --seat S --points 8 [--to N]: S pays 8 to N (to nobody without --to)
  yellow-card   --seat S: a yellow card (000 3.6), no points
  force-end     the deal ends at the corrected record
  withdraw      --record (a correction): that correction no longer applies
  note          a remark, nothing changes
  dealer        --deal N --seat S: the dealt hands showed the dealer at S (its
                deal.started record is the one corrected)
`--deal N` instead of `--record` names the deal's last record. `--lang zh-CN` / `--lang ru`:
the answer and the refusals said in that language (an unknown code is English, said in one
log line).

The journal is checked first (foreign, damaged or a broken chain: refused, exit 2 or 1, the
file untouched). A correction made while the daemon runs is journalled beside its records;
the daemon does not re-judge its deal in progress (the referee page does that), but takes a
correction of a settled deal within seconds (its totals, seat displays and the hall).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.errors import Refused
from controller.journal.records import (
    JSON,
    Correction,
    CorrectionAction,
    JournalError,
    Record,
    RecordKind,
    Stamp,
)
from controller.journal.store import Journal
from controller.locale import N_, Said, language, says, translator
from controller.referee.journal_deal import open_checked
from controller.referee.text import CORRECTION_ACTIONS
from controller.referee.trial import trial
from controller.words import local_time
from rules.seats import Seat
from rules.tiles import NotationError, Tile

EXIT_BROKEN = 1
EXIT_UNUSABLE = 2
EXIT_REFUSED = 3

MAX_POINTS = 1000


EXAMPLES = """\
actions:
  cancel-move   --record SEQ (an accepted move): the move did not happen
  fix-tile      --record SEQ --tile 5p: the tile really was 5p
  penalty       --seat S --points 8 [--to N]: S pays 8 to N (to nobody without --to)
  yellow-card   --seat S: a yellow card, no points
  force-end     the deal ends at the corrected record (--deal N: its last record)
  withdraw      --record SEQ (a correction): that correction no longer applies
  note          a remark, nothing changes
  dealer        --deal N --seat S: the dealt hands showed the dealer at S (its
                deal.started record is the one corrected)

examples (find record numbers with `mjtable replay JOURNAL --deal N`):
  mjtable correct table3.journal cancel-move --record 812 \\
      --referee "Li Wei" --why "the reader saw a discard nobody made"
  mjtable correct table3.journal fix-tile --record 640 --tile 5p \\
      --referee "Li Wei" --why "the tile shown to the camera was 5p"
  mjtable correct table3.journal penalty --deal 4 --seat S --points 8 --to N \\
      --referee "Li Wei" --why "false Hu"
  mjtable correct table3.journal withdraw --record 901 \\
      --referee "Li Wei" --why "penalty given to the wrong seat"

Each correction is appended (the corrected record stays); `mjtable journal summary`,
`replay` and `report` then show the corrected result. Exit status: 0 appended; 1 the hash
chain is broken; 2 not a journal; 3 refused (the reason is printed, nothing appended).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EXAMPLES
    parser.add_argument("journal", metavar="JOURNAL", type=Path, help="journal file")
    parser.add_argument(
        "action",
        # a move entered by hand goes through the daemon's judge (the referee page)
        choices=[a.value for a in CorrectionAction if a is not CorrectionAction.ENTER_MOVE],
        help="what the correction does",
    )
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--record", type=int, metavar="SEQ", help="the record corrected")
    target.add_argument("--deal", type=int, metavar="N", help="the last record of deal N")
    parser.add_argument("--referee", required=True, help="who makes the correction")
    parser.add_argument("--why", required=True, help="the reason, in words")
    parser.add_argument("--tile", help="fix-tile: the tile that was really there")
    parser.add_argument("--seat", help="penalty, yellow-card, dealer: the seat (E S W N)")
    parser.add_argument("--points", type=int, help="penalty: points paid")
    parser.add_argument("--to", help="penalty: the seat paid (default: nobody)")
    parser.add_argument(
        "--lang",
        metavar="CODE",
        help="the answer's language: en, zh-CN or ru (default en)",
    )


def run(args: argparse.Namespace) -> int:
    tr = translator(language(args.lang))
    try:
        journal, finding = open_checked(args.journal)
        with journal:
            if finding is not None:
                broken = says(
                    "{journal}: chain broken at {finding}; nothing appended",
                    journal=str(args.journal),
                    finding=str(finding),
                )
                print(f"mjtable correct: {broken.say(tr)}", file=sys.stderr)
                return EXIT_BROKEN
            correction = _correction(journal, args)
            _try(journal, correction)
        with Journal.open(args.journal) as writer:
            record = writer.append_correction(correction)
    except JournalError as err:
        print(f"mjtable correct: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    except Refused as err:
        print(f"mjtable correct: {err.said.say(tr)}", file=sys.stderr)
        return EXIT_REFUSED
    action = str(correction.action)
    done = says(
        "record {seq}: {action} of record {corrected} (deal {deal}) by {referee} at {time}",
        seq=record.seq,
        action=Said(CORRECTION_ACTIONS.get(action, action)),
        corrected=correction.corrects,
        deal=str(record.deal),
        referee=correction.referee,
        time=local_time(record.wall),
    )
    print(done.say(tr))
    return 0


def _try(journal: Journal, correction: Correction) -> None:
    """The check the referee page makes (controller/referee/trial.py): a correction after
    which the judge would refuse a move it accepted before is refused, nothing appended."""
    target = journal.get(correction.corrects)
    if target is None or target.deal is None or correction.action is CorrectionAction.NOTE:
        return
    last = journal.last()
    stamp = Stamp(last.mono if last is not None else 0.0, last.wall if last is not None else "")
    trial(journal, target.deal, [correction], stamp)


def _dealer(journal: Journal, args: argparse.Namespace, target: Record) -> Correction:
    """`dealer`: the side the dealer really sat at, on the deal's `deal.started` record (a
    `dealer` correction without a seat once read "None" as North, issue 16)."""
    side = _seat(args.seat, "dealer")
    if target.deal is None:
        raise Refused(
            says("record {seq} ({kind}) belongs to no deal", seq=target.seq, kind=str(target.kind))
        )
    started = next(iter(journal.deal_records(target.deal)))
    if started.kind is not RecordKind.DEAL_STARTED:
        raise Refused(says("deal {deal} has no deal.started record", deal=target.deal))
    try:
        return Correction(started.seq, args.referee, CorrectionAction.DEALER, args.why,
                          {"dealer": side.name})  # fmt: skip
    except ValueError as err:
        raise Refused(str(err)) from None


def _target(journal: Journal, args: argparse.Namespace) -> Record:
    if args.deal is not None:
        records = list(journal.deal_records(args.deal))
        if not records:
            raise Refused(
                says("no deal {deal} in {journal}", deal=args.deal, journal=str(args.journal))
            )
        return records[-1]
    record = journal.get(args.record)
    if record is None:
        raise Refused(
            says("no record {seq} in {journal}", seq=args.record, journal=str(args.journal))
        )
    return record


def _seat(text: str | None, what: str) -> Seat:
    if text is None:
        raise Refused(says("{what} needs --seat", what=Said(CORRECTION_ACTIONS.get(what, what))))
    try:
        return Seat.parse(text)
    except ValueError as err:
        raise Refused(str(err)) from None


def _correction(journal: Journal, args: argparse.Namespace) -> Correction:
    action = CorrectionAction(args.action)
    target = _target(journal, args)
    if action is CorrectionAction.DEALER:
        return _dealer(journal, args, target)
    if target.deal is None and action is not CorrectionAction.NOTE:
        raise Refused(
            says("record {seq} ({kind}) belongs to no deal", seq=target.seq, kind=str(target.kind))
        )
    details: dict[str, JSON] | None = None
    moves = (CorrectionAction.CANCEL_MOVE, CorrectionAction.FIX_TILE)
    if action in moves and target.kind is not RecordKind.MOVE_ACCEPTED:
        raise Refused(
            says(
                "{action} corrects an accepted move; record {seq} is {kind}",
                action=str(action),
                seq=target.seq,
                kind=str(target.kind),
            )
        )
    if action is CorrectionAction.FIX_TILE:
        if args.tile is None:
            raise Refused(Said(N_("fix-tile needs --tile (the tile that was really there)")))
        try:
            details = {"tile": str(Tile.parse(args.tile))}
        except NotationError as err:
            raise Refused(str(err)) from None
        if target.data().get("tile") in (None, details["tile"]):
            raise Refused(
                says(
                    "record {seq} names no tile, or already {tile}",
                    seq=target.seq,
                    tile=str(details["tile"]),
                )
            )
    elif action is CorrectionAction.PENALTY:
        seat = _seat(args.seat, "penalty")
        if args.points is None or not 1 <= args.points <= MAX_POINTS:
            raise Refused(says("penalty needs --points 1-{most}", most=MAX_POINTS))
        to = None if args.to is None else _seat(args.to, "--to")
        if to == seat:
            raise Refused(says("{seat} cannot pay itself", seat=str(seat)))
        details = {
            "seat": seat.name,
            "points": args.points,
            "paid_to": None if to is None else to.name,
        }
    elif action is CorrectionAction.YELLOW_CARD:
        details = {"seat": _seat(args.seat, "yellow-card").name}
    elif action is CorrectionAction.WITHDRAW:
        if target.kind is not RecordKind.CORRECTION:
            raise Refused(
                says(
                    "withdraw names a correction; record {seq} is {kind}",
                    seq=target.seq,
                    kind=str(target.kind),
                )
            )
        done = [
            r.seq
            for r, c in journal.corrections(target.deal or 0)
            if c.action is CorrectionAction.WITHDRAW and c.corrects == target.seq
        ]
        if done:
            raise Refused(
                says(
                    "correction {seq} was already withdrawn by record {by}",
                    seq=target.seq,
                    by=done[0],
                )
            )
    try:
        return Correction(target.seq, args.referee, action, args.why, details)
    except ValueError as err:
        raise Refused(str(err)) from None
