"""Restart = replay: the table state rebuilt from the journal (DESIGN.md "Journal").

`recover(journal, rs)` reads the journal once, in order, and returns what the daemon needs
to carry on: the open session and its totals, the next deal number and dealer, the phase of
the table, and — when a deal was in progress — its dice, its wall and the judge moves to
re-apply (`move.accepted` records' `judge` form, plus a `CloseClaims` wherever a
`claim.window` record says the daemon closed a window the judge still held open). Rejected
moves, alerts and device inputs are not replayed: the state is a function of the decisions.
The wall antenna's reads since the last shuffle (`hw.batch`, older journals' `hw.frame`) are
returned too, so a restart while the walls were being built can rebuild the wall scan. A draw journalled with `wall_check` order
`swapped` showed that two neighbours the scan could not order lay the other way round: the
judge is re-judged on that order before the draw (controller/recognition/wall_doubt.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from controller.daemon import machine as m
from controller.devices.events import TagsRead
from controller.errors import TableError
from controller.journal.inputs import ReaderStep, journal_inputs
from controller.journal.payloads import deal_seat, move_from_judge_json, to_physical
from controller.journal.records import Correction, JournalError, Record, RecordKind
from controller.journal.store import Journal
from controller.recognition.wall_doubt import swapped
from controller.referee.journal_deal import READ_KINDS
from rules import moves as mv
from rules.deal import Deal
from rules.deal_state import Phase
from rules.ruleset import RuleSet
from rules.seats import Seat
from rules.tiles import Tile
from rules.wall import Dice, dealt_order


class ReplayError(TableError, ValueError):
    """The journal's deal in progress cannot be re-judged (names the record)."""


@dataclass(frozen=True, slots=True)
class StartedDeal:
    number: int
    dealer: Seat
    dice: Dice
    wall_order: tuple[Tile | None, ...]  # physical order, as the judge takes it (None: unknown)
    uncertain: tuple[int, ...] = ()  # scan pairs (i, i + 1) of unknown order, not yet drawn
    prevalent: Seat = Seat.E  # the round wind (Wellness scores it; older journals: East)


@dataclass(slots=True)
class Recovered:
    session: int | None = None  # the open session (None: none, or it ended)
    last_session: int = 0  # the highest session number used
    next_deal: int = 1
    dealer: Seat = Seat.E  # dealer of the deal in progress, else of the next deal
    totals: tuple[int, int, int, int] = (0, 0, 0, 0)  # the open session's, fixed seats
    deal_no: int = 0  # the deal in progress (0: none)
    started: StartedDeal | None = None
    moves: list[mv.Move] = field(default_factory=list)
    phase: str = "offline"  # the phase to resume (an interruption resolved to its phase)
    last_seq: int = 0
    wall_reads: list[TagsRead] = field(default_factory=list)  # since the last shuffle
    settled_in_session: int = 0
    # the open session's settled deals and their deltas (fixed seats), corrections applied:
    # `totals` is their sum (a referee's correction of a settled deal counts after a restart)
    settled: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    # the open session's last settled deal (0: none): its result screen is shown again until
    # the next deal's play begins, as it was before the restart (views.ResultScreen)
    shown: int = 0
    # the open session's `session.started` payload: its players and where they came from
    session_started: dict[str, Any] | None = None
    session_wall: str | None = None  # the wall time of that record


def recover(
    journal: Journal, rs: RuleSet, wall_antennas: frozenset[int] = frozenset()
) -> Recovered:
    out = Recovered()
    corrected: set[int] = set()  # deals with correction records
    judge: Deal | None = None
    resume: str | None = None
    batches: list[Record] = []  # `hw.batch` records from the last key batch before the shuffle
    shuffled_at = 0  # the seq of the last shuffle
    deal_records: list[Record] = []  # the open deal's records a rebuild reads
    dealt_at = 0  # the seq of the last deal.started (the walls' reads are used no more)
    for rec in journal.records():
        out.last_seq = rec.seq
        kind = rec.kind
        if kind in READ_KINDS and rec.deal is not None and rec.deal == out.deal_no:
            deal_records.append(rec)
        if kind is RecordKind.HW_BATCH:
            if wall_antennas:
                # a key batch starts the decoding afresh, but while the walls are built the
                # batches since the shuffle before it are kept: a second restart mid-build
                # lost the wall reads the first run had journalled, and the scan never ended
                building = bool(batches) and batches[-1].seq > shuffled_at > dealt_at
                if rec.data().get("key") and not building:
                    batches = []
                batches.append(rec)
            continue
        if kind is RecordKind.HW_FRAME:
            if wall_antennas:
                _wall_read(out, rec, wall_antennas)
            continue
        if kind is RecordKind.SESSION_STARTED:
            out.session_started = dict(rec.data())
            out.session_wall = rec.wall
            out.session = int(out.session_started["session"])
            out.last_session = max(out.last_session, out.session)
            out.settled = {}
            out.settled_in_session = 0
            out.shown = 0
        elif kind is RecordKind.SESSION_ENDED:
            out.session, out.session_started, out.session_wall = None, None, None
            out.settled_in_session = 0
            out.shown = 0
            out.settled = {}  # no session is open: the next one starts from zero
            out.dealer = Seat.E  # ... with East dealing (a killed run's dealer raised a false
            # "Dealer side" alert when the next session's first hands were dealt from East)
            # a deal still open ends with its session (left unsettled, said in an alert):
            # resumed, the next shuffle called the referee to finish a deal of a session
            # that is over, and a rerun of `mjtable run` waited for that referee for ever
            out.started, out.deal_no, out.moves, judge = None, 0, [], None
        elif kind is RecordKind.TABLE_PHASE:
            data = rec.data()
            to, frm = str(data["to"]), str(data["from"])
            if to in m.INTERRUPTIONS and frm not in m.INTERRUPTIONS:
                resume = frm
            elif frm in m.INTERRUPTIONS and to not in m.INTERRUPTIONS:
                resume = None
            out.phase = to
            if data["trigger"] == "shuffle_started":
                out.wall_reads = []
                shuffled_at = rec.seq
                batches = _from_last_key(batches)
        elif kind is RecordKind.DEAL_STARTED:
            dealt_at = rec.seq
            data = rec.data()
            dice = Dice(*data["dice"])
            dealer = Seat.parse(data["dealer"])
            order = _wall_order(rs, dice, dealer, data, rec)
            uncertain = tuple(int(i) for i in data.get("wall_uncertain") or ())
            prevalent = Seat.parse(data.get("prevalent", "E"))
            out.started = StartedDeal(int(data["deal"]), dealer, dice, order, uncertain, prevalent)
            out.deal_no = out.started.number
            out.next_deal = max(out.next_deal, out.deal_no + 1)
            out.dealer = dealer
            out.moves = []
            judge = Deal.start(rs, dice, order, prevalent=prevalent)
            deal_records = [rec]
        elif kind is RecordKind.MOVE_ACCEPTED and judge is not None and rec.deal == out.deal_no:
            data = rec.data()
            if "wall_check" in data:
                judge = _wall_checked(rs, judge, out, data["wall_check"], rec)
            _replay(judge, move_from_judge_json(data["judge"]), out, rec)
        elif kind is RecordKind.CLAIM_WINDOW and judge is not None and rec.deal == out.deal_no:
            if rec.data()["state"] == "closed" and judge.window is not None:
                _replay(judge, mv.CloseClaims(), out, rec)
        elif kind is RecordKind.CORRECTION and rec.deal is not None and rec.deal != out.deal_no:
            corrected.add(rec.deal)  # of a settled deal: re-judged below
        elif kind is RecordKind.CORRECTION and judge is not None and rec.deal == out.deal_no:
            if rec.data().get("action") == "dealer" and out.started is not None:
                side = Correction.from_payload(rec.data()).dealer_side()
                if side is None:  # names no side (an old `mjtable correct dealer`)
                    continue
                out.started = replace(out.started, dealer=side)
                out.dealer = side  # the dealt hands showed the dealer there (issue 13 item 7)
                continue
            if rec.data().get("action") == "note":
                continue
            # a referee's correction of the deal in progress (a move cancelled or fixed, a
            # penalty, an entered move withdrawn...): the moves after it were judged on the
            # corrected deal, so the judge is rebuilt with it as the referee tools rebuild it
            # (a campaign restart after a cancelled false Hu could not replay the journal)
            judge = _rebuilt(journal, deal_records, rec)
            out.moves = list(judge.history)
        elif kind is RecordKind.DEAL_SETTLED:
            data = rec.data()
            d = [int(v) for v in data["deltas"]]
            if rec.deal is not None:
                out.settled[rec.deal] = (d[0], d[1], d[2], d[3])
            out.settled_in_session += 1
            out.shown = rec.deal or 0
            if "next_dealer" in data:
                out.dealer = Seat.parse(data["next_dealer"])
            if rec.deal == out.deal_no:
                out.started, out.deal_no, out.moves, judge = None, 0, [], None
    for number in corrected & set(out.settled):
        # the referee tools' re-judging, imported only for a deal with corrections (start-up)
        from controller.referee.session import corrected_deltas

        deltas = corrected_deltas(journal, number)
        if deltas is not None:
            out.settled[number] = deltas
    out.totals = session_totals(out.settled.values())
    if batches and batches[-1].seq > shuffled_at:
        out.wall_reads += _batch_wall_reads(batches, shuffled_at, wall_antennas)
    if out.phase in m.INTERRUPTIONS:
        out.phase = resume or "idle"
    in_play = out.phase in m.JUDGE_PHASES.values()
    if judge is not None and in_play and judge.phase is not Phase.CHOOSING_VOID:
        # the judge knows better than a phase record a kill may have cut off
        out.phase = m.JUDGE_PHASES[judge.phase]
    if judge is None and in_play:
        out.phase = "idle"  # a deal that could not be judged: wait for the next shuffle
    return out


def session_totals(deltas: Iterable[Sequence[int]]) -> tuple[int, int, int, int]:
    totals = [0, 0, 0, 0]
    for d in deltas:
        for i in range(4):
            totals[i] += d[i]
    return (totals[0], totals[1], totals[2], totals[3])


def _wall_order(
    rs: RuleSet, dice: Dice, dealer: Seat, data: dict[str, Any], rec: Record
) -> tuple[Tile | None, ...]:
    """The judge's wall of a `deal.started`: the scanned wall (drawing order), or — a table
    without a wall antenna — the dealt hands (fixed seats) at the positions they came from."""
    wall, hands = data.get("wall"), data.get("hands")
    if wall is not None:
        return to_physical(rs, dice, [Tile.parse(t) for t in wall])
    if not isinstance(hands, dict):
        raise ReplayError(f"record {rec.seq}: deal {rec.deal} has neither a wall nor hands")
    try:
        by_seat = {
            deal_seat(Seat.parse(side), dealer): [Tile.parse(t) for t in tiles]
            for side, tiles in hands.items()
        }
        return dealt_order(rs, dice, by_seat)
    except ValueError as err:
        raise ReplayError(f"record {rec.seq}: deal {rec.deal}: bad hands: {err}") from None


def _wall_checked(
    rs: RuleSet, judge: Deal, out: Recovered, check: dict[str, Any], rec: Record
) -> Deal:
    """A draw showed the order of an uncertain pair; `swapped`: re-judge on that order, the
    pair swapped on the wall the judge holds, as the live daemon did (`ScanDoubt.reorder`):
    a referee's fixed draw may have swapped two other tiles of the scan already (10/10/2
    seed 311 deal 24: swapped on the scan as read, the fixed draw was refused and the
    restarted daemon stopped)."""
    assert out.started is not None
    i = int(check["positions"][0])
    started = out.started
    left = tuple(j for j in started.uncertain if j != i)
    if check.get("order") != "swapped":
        out.started = replace(started, uncertain=left)
        return judge
    order = swapped(judge.wall_order, i)
    try:
        judge = Deal.replay(rs, started.dice, order, judge.history, prevalent=started.prevalent)
    except ValueError as err:
        raise ReplayError(f"record {rec.seq}: the swapped wall does not fit: {err}") from None
    out.started = replace(started, wall_order=order, uncertain=left)
    return judge


def _rebuilt(journal: Journal, records: list[Record], rec: Record) -> Deal:
    # the referee tools' rebuild, imported only for a deal in progress with corrections
    from controller.referee.journal_deal import deal_from_records
    from controller.referee.rebuild import rebuild

    try:
        return rebuild(deal_from_records(journal, records)).deal
    except (JournalError, ValueError) as err:
        raise ReplayError(
            f"record {rec.seq}: the corrected deal cannot be rebuilt: {err}"
        ) from None


def _replay(judge: Deal, move: mv.Move, out: Recovered, rec: Record) -> None:
    result = judge.apply(move)
    if isinstance(result, mv.Rejected):
        raise ReplayError(f"record {rec.seq}: the judge refuses {move} on replay: {result}")
    out.moves.append(move)


def _from_last_key(batches: list[Record]) -> list[Record]:
    """The batches from the last key batch on (where decoding may start)."""
    for i in range(len(batches) - 1, -1, -1):
        if batches[i].data().get("key"):
            return batches[i:]
    return batches


def _batch_wall_reads(
    batches: list[Record], after: int, antennas: frozenset[int]
) -> list[TagsRead]:
    """The wall antennas' reads in `batches` (from a key batch on) committed after `after`;
    only those batches are decoded, not every batch of the journal."""
    reads = []
    for rec, item in journal_inputs(batches):
        if rec.seq > after and isinstance(item, ReaderStep):
            reads += [ev for ev in item.events if isinstance(ev, TagsRead)]
    return [ev for ev in reads if ev.antenna in antennas]


def _wall_read(out: Recovered, rec: Record, antennas: frozenset[int]) -> None:
    """Wall-antenna inventories of an `hw.frame`: `decoded` lists the antennas' reads of one
    reader answer; a frame written before that holds one antenna's read (`antenna`, and
    `decoded` with `uids` and `rssi`)."""
    data: dict[str, Any] = rec.data()
    if data.get("device") != "reader":
        return
    decoded = data.get("decoded") or {}
    reads = decoded if isinstance(decoded, list) else [{**decoded, "antenna": data.get("antenna")}]
    for read in reads:
        antenna = read.get("antenna")
        if antenna not in antennas:
            continue
        uids = tuple(bytes.fromhex(u) for u in read.get("uids", ()))
        rssi = tuple(read.get("rssi", ()))
        out.wall_reads.append(TagsRead(rec.mono, int(antenna), uids, rssi))
