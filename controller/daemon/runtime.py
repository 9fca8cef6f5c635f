"""The daemon's core: one thread takes one queue of device events and referee actions and
turns them into journalled decisions, in the order they came (DESIGN.md "Data flow",
docs/DAEMON.md).

    SerialLink/PolledReaderLink → queue → Runtime.handle → ReaderBus → Debouncer
      → Recogniser → Runtime.offer → Deal.apply, TableMachine (decided)
      → journal (hw.batch, move.accepted, phases, window, settlement: one commit)
      → recogniser, referee call, Outputs, publication.views

Every raw hardware input and every decision is appended to the journal (monotonic and wall
time) **before** anything acts on it: a reader's answer is committed (in the next `hw.batch`)
before a record that follows from it, and a move is committed before anything reads it.
A move is decided first (`_play`): checked (`Deal.check`), played on a trial of the judge
(the one it was read against when it closes a claim window early, else a copy: `Deal.copy`,
tens of microseconds) with the table machine's phases, the windows and the
settlement it makes written out as records (`Decided`); those records, with the inputs before them, are committed in one transaction
(one fsync for one reader answer); only then does the trial become the judge and are the
recogniser (`on_accepted`), the referee call, the outputs and the views told. Link threads only `put` into
the queue; `handle(item)` and `tick()` run on the core thread (tests call them directly on
a fake clock, no thread). Three places see each item's way through: `handle` takes it off
the queue, `_commit` returns once its records are committed (fsync'd), `publish` pushes the
views to the outputs.

`Runtime` keeps the deal in progress, the table machine and the sequence that joins them;
what has state of its own is a part it owns and asks, in the module of its concern:
`ClaimClock` (claim_clock.py: when a claim window is due to close, its records),
`BoardStandIn` (boardless.py: the shuffle, walls and dice read off
the reader when the table's board does not report them, yielded as the board's events),
`Resume` and `HoldBack` (recovery.py: when the core judges again after a restart or a lost device, and
what came meanwhile), `DealStart` (deal_start.py: the walls' scan and the dice a deal waits
for), `ScanDoubt` (scan_doubt.py: the scan's doubtful pairs), `SessionScores` (settlement.py: the session's settled deals and totals, corrections
applied), `RefereeDesk` (referee_desk.py: the referee's corrections), `InputLog`
(input_log.py: device inputs batched into the journal), `Lineup` (lineup.py: who plays) and
the reader's rounds (reader_bus.py: one `BusStep` whatever the reader). A settled deal is a
`Settlement` (settlement.py), built once and handed to the journal and every output; the
views are functions of the table's facts (publication.py). No part holds the runtime (the
referee desk sees it only as the `LiveDeal` protocol).

The claim window opens when the discard is accepted; it closes on time (`CloseClaims` offered
to the judge), early when the next player's draw (or any move of the player whose turn the
window leads to) is seen, or by the judge itself when every eligible player answered. A claim
after it is refused with the judge's reason and how late it came. While a device is lost the
table is `degraded`: nothing from the recogniser is applied, timers are frozen, what the
table says is held back; when every link is back and the reader has settled again,
`recogniser.reconcile` recovers what happened meanwhile.
"""

from __future__ import annotations

import logging
import os
import queue
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from controller import __version__
from controller.alerts import AlertKind
from controller.clock import Clock
from controller.daemon import machine as m
from controller.daemon.boardless import (
    BoardAlert,
    BoardNews,
    BoardStandIn,
    DiceAsked,
    DiceInferred,
    inferred,
)
from controller.daemon.candidates import (
    Candidate,
    Differences,
    Unanswered,
    candidates,
    overtaken_candidates,
)
from controller.daemon.claim_clock import ClaimClock, OverTime
from controller.daemon.contracts import (
    DEVICES,
    RECONCILE_TRIES,
    REFEREE_CALLS,
    Item,
    NoOutputs,
    Outputs,
    RecogniserLike,
    RefereeAsked,
    RuntimeConfig,
    SeatingReceived,
    Stop,
    tail_line,
)
from controller.daemon.deal_start import DealStart, Rolled, dealt_hands
from controller.daemon.input_log import InputLog
from controller.daemon.lineup import Lineup
from controller.daemon.machine import TableMachine, Timer, TimerFired
from controller.daemon.publication import (
    DeskFacts,
    Publisher,
    SessionCount,
    restored_result,
)
from controller.daemon.reader_bus import BusStep, reader_rounds
from controller.daemon.recovery import (
    NEXT_DEAL,
    HoldBack,
    Resume,
    TableHeld,
    restarted_words,
    unexplained,
)
from controller.daemon.referee_call import CALL_GONE, RefereeCall, details
from controller.daemon.referee_desk import RefereeDesk
from controller.daemon.replay import Recovered
from controller.daemon.scan_doubt import ScanDoubt
from controller.daemon.settlement import SessionScores, Settlement, settle
from controller.daemon.view_words import void_set_words
from controller.daemon.views import TableFacts
from controller.devices.events import (
    CommandAcked,
    DataReceived,
    DiceRolled,
    FrameError,
    LidChanged,
    LinkChanged,
    LinkState,
    ReaderPolled,
    SeatButton,
    ShuffleDone,
    TableEvent,
    TableFault,
    TagsRead,
    WallsUp,
)
from controller.devices.table import Command, ShowScore, TableDriver
from controller.journal.inputs import ReaderStep, TableChunk, round_time
from controller.journal.payloads import (
    Evidence,
    evidence_payload,
    move_payload,
    rejected_payload,
    table_seat,
    to_drawing,
)
from controller.journal.records import (
    Correction,
    CorrectionAction,
    JournalError,
    Record,
    RecordKind,
    Source,
    Stamp,
)
from controller.journal.store import Journal
from controller.locale import Said, says
from controller.outputs.scoreboard import ActionResult, RefereeAction, RejectReason
from controller.outputs.view import AlertView, PublicView
from controller.profiles import ReaderProfile, ZoneKind
from controller.recognition.presence import (
    CardLifted,
    CardPlaced,
    Debouncer,
    DuplicateTile,
    UnknownTag as UnknownTagSeen,
)
from controller.recognition.recogniser import (
    DealerMoved,
    HandsDealt,
    MoveSeen,
    RefereeAlert,
    WallScanned,
    WallSwapped,
)
from controller.words import (
    alert_said,
    alert_words,
    device_said,
    phase_said,
    seat_said,
)
from rules import moves as mv
from rules.claims import ClaimWindow, is_claim
from rules.deal import Deal
from rules.ruleset import RuleSet
from rules.seats import SEATS, Seat
from rules.wall import Dice

log = logging.getLogger(__name__)

# a record for the journal: its source, kind, payload, deal and time (None: its commit's)
Entry = tuple[Source, RecordKind, Mapping[str, Any], int | None, float | None]


@dataclass(frozen=True, slots=True)
class AlertMade:
    """An alert's record, and what the referee's list shows of it once it is committed."""

    entry: Entry
    kind: AlertKind
    severity: str
    words: Said
    text: str  # as logged


@dataclass(slots=True)
class Decided:
    """What one move (with the window it closed first) decided: its records in the order
    they are journalled, in one transaction, and where among them are the ones the core
    acts on once they are committed (`Runtime._act`)."""

    entries: list[Entry] = field(default_factory=list)
    played: list[mv.Move] = field(default_factory=list)  # the judge's moves, in order
    accepted: tuple[int, dict[str, Any]] | None = None  # `move.accepted`: index, payload
    alerts: list[tuple[int, AlertMade]] = field(default_factory=list)
    settled: tuple[int, Settlement] | None = None

    def add(self, entry: Entry) -> None:
        self.entries.append(entry)

    def accept(self, payload: dict[str, Any], entry: Entry) -> None:
        self.accepted = len(self.entries), payload
        self.entries.append(entry)

    def alert(self, made: AlertMade) -> None:
        self.alerts.append((len(self.entries), made))
        self.entries.append(made.entry)

    def settle(self, settled: Settlement, entry: Entry) -> None:
        self.settled = len(self.entries), settled
        self.entries.append(entry)


__all__ = [
    "DEVICES",
    "RECONCILE_TRIES",
    "REFEREE_CALLS",
    "Item",
    "NoOutputs",
    "Outputs",
    "RecogniserLike",
    "RefereeAsked",
    "Runtime",
    "RuntimeConfig",
    "Stop",
]


class Runtime:
    def __init__(
        self,
        rs: RuleSet,
        journal: Journal,
        clock: Clock,
        recogniser: RecogniserLike,
        reader: ReaderProfile,
        debouncer: Debouncer,
        driver: TableDriver | None,  # None: a table with no serial link (boardless.py)
        send: Callable[[str, bytes], bool],
        config: RuntimeConfig | None = None,
        outputs: Outputs | None = None,
        recovered: Recovered | None = None,
    ) -> None:
        self.rs = rs
        self.journal = journal
        self.clock = clock
        self.recogniser = recogniser
        self.reader = reader
        self.debouncer = debouncer
        self.driver = driver
        self.config = config = config or RuntimeConfig()
        # the reader's rounds: a bus the core polls, or a reader its own driver polls (a PN53x)
        self.bus = reader_rounds(reader, 0.0 if config.fast_polling else reader.round_interval)
        self.rounds = 0  # debouncer rounds ended
        self.send = send
        self.outputs: Outputs = outputs or NoOutputs()
        self.inbox: queue.Queue[Item] = queue.Queue()
        self.links = {d: LinkState.DOWN for d in DEVICES if driver is not None or d != "table"}
        self.alerts: deque[AlertView] = deque(maxlen=50)
        self.tail: deque[str] = deque(maxlen=30)
        self.heads: deque[dict[str, Any]] = deque(maxlen=12)  # settled deals' chain heads
        self.unanswered = Unanswered()  # a Hu or kong declared that the judge refused
        self.stopped: str | None = None
        self.journal_error = ""  # why the journal refused a record ("journal-error" stop)
        self._wall_antennas = {
            a.number for a in reader.antennas.values() if a.zone.kind is ZoneKind.WALL
        }
        # the device inputs, committed as `hw.batch` ahead of the next record (input_log.py)
        self.inputs = InputLog(journal, clock.wall)
        self._round_reads_t: float | None = None  # the open round's last read
        self._wall_read: dict[int, tuple[bytes, ...]] = {}  # each wall antenna's last read
        self.claims = ClaimClock(
            rs.play.claim_seconds, rs.play.move_seconds, recogniser.holds_window
        )
        self._dirty = True
        # the walls' scan and the dice a deal waits for, and the scan's doubtful pairs
        self.deal_start = DealStart(bool(self._wall_antennas))
        self.doubt = ScanDoubt()
        self._alerted: set[tuple[int, AlertKind, str]] = set()
        # table events (and, after a held shuffle, the wall antenna's reads) that came while
        # the daemon was degraded or recovering: judged in order once it is ready (`_release`)
        self.held = HoldBack()
        self.call: RefereeCall | None = None  # what the table waits for the referee about
        self._call_look: tuple[int, frozenset[Any]] | None = None  # what it was made from
        self._call_made_at = float("-inf")  # when its candidates were last made in full
        self.last_accepted_seq = 0
        self._started_seq = 0  # the open deal's deal.started record
        self.desk = RefereeDesk(self.journal, self.clock, self)
        self.publisher = Publisher()  # the views; a settled deal stays on the public feed a while
        rec = recovered or Recovered()
        self._dealt_by = rec.started.dealer if rec.started is not None else rec.dealer
        self.session = rec.session
        self.session_wall = rec.session_wall  # when the open session started (wall time)
        self.next_deal = rec.next_deal
        self.dealer = rec.dealer
        # the open session's settled deals (fixed-seat deltas, corrections applied)
        self.scores = SessionScores(rec.settled, rec.totals, rec.settled_in_session, rec.last_seq)
        self.deal_no = rec.deal_no
        self.deal: Deal | None = None
        self.seq = rec.last_seq
        self._last_session = rec.last_session
        self.lineup = Lineup(
            config.players,
            operator=config.players_by_operator,
            now=Lineup.recorded(rec.session_started, config.players)
            if rec.session_started is not None
            else None,
        )
        initial = rec.phase if rec.phase not in ("offline", "idle") else "offline"
        self.machine = TableMachine(
            clock, rs.play.claim_seconds, rs.play.move_seconds, self._on_timer, initial
        )
        # the shuffle, walls and dice the table's board does not report, read off the reader
        self.board = BoardStandIn(
            rs, inferred(None if driver is None else driver.profile), debouncer, self.machine
        )
        # a restart with a phase to resume: held until the table is reconciled
        settle = config.settle_rounds or reader.debounce.window + 1
        self.resume = Resume(settle, recovering=initial != "offline")
        self._log(
            Source.DAEMON,
            RecordKind.DAEMON_STARTED,
            {
                "version": __version__,
                "pid": os.getpid(),
                "recovered": self.resume.recovering,
                "config": dict(config.config_echo or {}),
            },
        )
        if rec.shown:  # a deal replayed below, over or in play, replaces it
            limit = config.deals or rs.session.deals
            shown = restored_result(
                journal, rec.shown, self.facts(), SessionCount(rec.settled_in_session, limit)
            )
            if shown is not None:
                self.publisher.screen.hold(shown)
        if self.resume.recovering:
            self._resume_recovered(rec)

    # --- the loop: one queue, one thread --------------------------------------------------

    def put(self, item: Item) -> None:
        """Thread-safe: the links' sink."""
        self.inbox.put(item)

    def run(self, interval: float = 0.02) -> str:
        """Consume the queue until a `Stop`; ticks at least every `interval` seconds."""
        while self.stopped is None:
            try:
                item = self.inbox.get(timeout=interval)
            except queue.Empty:
                item = None
            try:
                if item is not None:
                    self.handle(item)
                    while self.stopped is None:  # drain what is waiting before ticking
                        try:
                            self.handle(self.inbox.get_nowait())
                        except queue.Empty:
                            break
                self.tick()
            except JournalError as err:
                # the journal takes no more records (a full disk, a damaged file): nothing may
                # be decided without it, so the daemon stops; what is committed stays, and the
                # alert it cannot write is not tried (it failed with a traceback, issue 15)
                log.debug("the journal failed on %r", item, exc_info=True)
                self.journal_error = str(err)
                self.stopped = "journal-error"
            except Exception as err:
                # a bug must not end a tournament day: logged with the traceback, journalled
                log.exception("the core loop failed on %r", item)
                self._alert(
                    AlertKind.INTERNAL_ERROR,
                    # a bug: its exception's name and words, as Python wrote them
                    says("{name}: {error}", name=type(err).__name__, error=str(err)),
                    severity="error",
                )
        return self.stopped

    def ask(self, action: RefereeAction, timeout: float = 5.0) -> ActionResult | None:
        """Thread-safe: a referee action queued for the core, and the core's answer (None:
        the core failed on it, journalled as an `internal-error` alert). TimeoutError when
        the core does not answer within `timeout` seconds."""
        asked = RefereeAsked(action)
        self.put(asked)
        if not asked.done.wait(timeout):
            raise TimeoutError("the daemon's core did not answer")
        return asked.result

    def handle(self, item: Item) -> None:
        match item:
            case LinkChanged():
                self._on_link(item)
            case DataReceived(device="table"):
                self._on_table_bytes(item)
            case DataReceived(device="reader"):
                if self.links["reader"] is LinkState.UP:
                    self._on_bus(self.bus.feed(item.t, item.data), item.t)
            case ReaderPolled():
                if self.links["reader"] is LinkState.UP:
                    self._on_bus(self.bus.polled(item), item.t)
            case Stop(reason):
                self.stop(reason)
            case RefereeAsked():
                try:
                    item.result = self.referee(item.action)
                finally:
                    item.done.set()
            case SeatingReceived(notice):
                offered = self.lineup.offer(notice, self._last_session)
                if offered.message:
                    self._alert(
                        AlertKind.SEATING,
                        offered.message,
                        severity="info" if offered.taken else "warning",
                    )
        self._publish_if_dirty()

    def tick(self) -> None:
        now = self.clock.monotonic()
        if self.links["reader"] is LinkState.UP and self.stopped is None:
            self._on_bus(self.bus.tick(now), now)
        self.machine.hold(self.call is not None)
        self.machine.tick()
        match self.deal_start.overdue(now):
            case AlertKind.NO_WALL_SCAN:
                text = Said("the wall order was not scanned: this deal cannot be judged")
                self._alert(AlertKind.NO_WALL_SCAN, text, severity="error")
            case AlertKind.NO_DEALT_HANDS:  # no wall antenna: still waiting for the hands
                self._alert(AlertKind.NO_DEALT_HANDS, Said("the dealt hands are not read yet"))
        if self._live():
            self.recognised(self.recogniser.tick(now, self._as_seen()), now)
            if self.claims.due(self.deal) is not None:  # a CHOW's tiles held it: read now
                self._close_window("timer", now)
            self.call_off_if_agreed()
            self._refresh_call(now)
        if self.claims.countdown(self.machine.remaining(Timer.CLAIM)):
            self._dirty = True
        self.recheck_settled(now)
        self.outputs.tick()
        self._publish_if_dirty()

    def stop(self, reason: str) -> None:
        """Journal the clean stop (once); the caller closes links and the journal."""
        if self.stopped is not None:
            return
        if self.session is not None and reason == "deals":
            self._log(
                Source.DAEMON, RecordKind.SESSION_ENDED, {"session": self.session, "reason": reason}
            )
        self._log(Source.DAEMON, RecordKind.DAEMON_STOPPED, {"reason": reason})
        self.stopped = reason

    @property
    def totals(self) -> list[int]:
        """The open session's totals (fixed seats)."""
        return self.scores.totals

    @property
    def deals_done(self) -> int:
        """The deals settled in the open session."""
        return self.scores.deals_done

    # --- devices: links, the table's frames, the reader's rounds --------------------------

    def _on_link(self, ev: LinkChanged) -> None:
        self._log(
            Source.TABLE if ev.device == "table" else Source.READER,
            RecordKind.HW_LINK,
            {"device": ev.device, "state": ev.state.value, "detail": ev.detail},
            deal=self._open_deal(),
            t=ev.t,
        )
        self.links[ev.device] = ev.state
        if ev.state is LinkState.DOWN:
            self._alert(
                AlertKind.DEVICE_LOST,
                says(
                    "{device} is not answering ({detail}): waiting for it",
                    device=device_said(ev.device),
                    detail=ev.detail,
                ),
                severity="error",
            )
            if self.machine.can("device_lost"):
                self._trigger("device_lost")
            self.resume.link_lost(ev.device)
            return
        if ev.device == "table":
            self.outputs.table_back()  # what the displays show may have been missed
            self._dirty = True
        if ev.device == "reader":
            self._wall_read.clear()
            self._write("reader", self.bus.start(ev.t).send)
        if not all(s is LinkState.UP for s in self.links.values()):
            return
        if self.machine.phase == "offline":
            self._trigger("devices_ready")
        elif self.machine.phase == "degraded" or self.resume.recovering:
            # re-inventory: let the debouncer see the table again before reconciling
            self.resume.links_back(self.rounds)

    def _write(self, device: str, data: bytes) -> None:
        if data:
            self.send(device, data)

    def command(self, command: Command) -> bool:
        if self.driver is None:
            return False  # a table with no serial link: nothing to tell it
        try:
            return self.send("table", self.driver.encode(command))
        except ValueError as err:
            log.debug("table command %s not sent: %s", command, err)
            return False

    def _on_table_bytes(self, item: DataReceived) -> None:
        # the bytes as received go into the next `hw.batch` (the driver decodes them again)
        self.inputs.add(TableChunk(item.t, item.data), self._open_deal())
        assert self.driver is not None  # no bytes come from a table with no serial link
        for ev in self.driver.feed(item.t, item.data):
            if self.stopped is not None:
                return  # the deal limit was reached by an earlier event of this chunk
            if isinstance(ev, FrameError):
                self._frame_error(ev)
                continue
            self._on_table_event(ev)

    def _frame_error(self, ev: FrameError) -> None:
        self._log(
            Source.TABLE if ev.device == "table" else Source.READER,
            RecordKind.HW_ERROR,
            {"device": ev.device, "reason": ev.reason, "hex": ev.data.hex()},
            deal=self._open_deal(),
            t=ev.t,
        )

    def _on_bus(self, step: BusStep, t: float) -> None:
        # Every step is kept for the next `hw.batch` (controller/daemon/input_log.py), which
        # is committed ahead of any record that follows from it: an answer of a bus address
        # carries up to eight antennas' inventories, repeats included.
        reads = [ev for ev in step.events if isinstance(ev, TagsRead)]
        done = step.round_done
        if step.events or done:
            self.inputs.add(ReaderStep(t, step.events, done), self._open_deal())
        if reads:
            self._round_reads_t = reads[-1].t
        if self._wall_changed(reads):
            # a tile passes the wall spot once: a wall read that changed is committed before
            # it is used, so a restart mid-scan finds it (batched, a kill lost up to a second
            # of the scan and the deal with it: test_campaign)
            self.inputs.flush()
        for ev in reads:
            if ev.antenna in self._wall_antennas:
                # tiles crossing it between deals: the walls are being built (boardless.py)
                shuffled = self.board.wall_read(ev, self._reader_settled())
                if shuffled is not None:
                    self._on_table_event(shuffled)
                if self.held.shuffled:  # the new walls' scan, after the shuffle
                    self.held.hold_wall_read(ev)
                else:
                    self.recognised(self.recogniser.on_wall_read(ev), ev.t)
            self.debouncer.observe(ev)
        self._write("reader", step.send)
        if done:
            self._end_round(round_time(t, self._round_reads_t))
            self._round_reads_t = None

    def _wall_changed(self, reads: list[TagsRead]) -> bool:
        changed = False
        for ev in reads:
            if ev.antenna in self._wall_antennas and self._wall_read.get(ev.antenna) != ev.uids:
                self._wall_read[ev.antenna] = ev.uids
                changed = True
        return changed

    def _end_round(self, t: float) -> None:
        self.rounds += 1
        changes = self.debouncer.end_round(t)
        # with no board to say "shuffle", the tiles leaving for the machine are not read as
        # moves (boardless.py): `_as_seen` is None meanwhile
        self.board.round_changes(changes)
        for change in changes:
            if isinstance(change, UnknownTagSeen | DuplicateTile):
                self.recognised(self.recogniser.on_tag_alert(change), change.t)
            elif self._live():
                # tiles are read as if an open claim window had closed now; a card is a
                # declaration, read against the real deal as a button is (issue 18)
                card = isinstance(change, CardPlaced | CardLifted)
                real = None if self._overtaken() else self.deal  # (shuffled on: recovery.py)
                deal = real if card else self._as_seen()
                self.recognised(self.recogniser.on_presence(change, deal), change.t)
        if self._reader_settled():  # the shuffle, walls and dice no board reports (boardless.py)
            scan = self.deal_start.scan
            news = self.board.round_ended(t, scan, self._playing(), self.dealer)
            self._board_news(news)
        if self.deal_start.waiting is not None and not self.deal_start.wall_antenna:
            self._start_from_hands()
        if self.resume.due(self.rounds):
            self._reconcile()

    # --- the table's events: its board's, or the reader standing in (boardless.py) --------

    def _on_table_event(self, ev: TableEvent | DiceInferred) -> None:
        if self._holding() and isinstance(ev, TableHeld):
            # a restart or a lost cable: what the table says now is judged once the daemon
            # has caught up with the tiles (never dropped: issue 13 items 1 and 4)
            self.held.hold(ev)
            return
        match ev:
            case ShuffleDone(t):
                self._shuffle(t)
            case WallsUp():
                if self.machine.can("walls_raised"):
                    self._trigger("walls_raised")
            case DiceRolled(t, a, b):
                self._dice(t, Dice(a, b))
            case DiceInferred(t, dice, dealer, note):
                self.dealer = dealer
                self._dice(t, dice, note)
            case SeatButton():
                if self._live():  # (not for a deal the next shuffle overtook)
                    deal = None if self._overtaken() else self.deal
                    self.recognised(self.recogniser.on_button(ev, deal), ev.t)
            case TableFault(t, code):
                self._alert(
                    AlertKind.TABLE_FAULT,
                    says("the table reports fault {code}", code=code),
                    severity="error",
                )
            case LidChanged(t, is_open):
                self._alert(
                    AlertKind.LID,
                    Said("the table's lid opened") if is_open else Said("lid closed"),
                    severity="info",
                )
            case CommandAcked():
                pass

    def _reader_settled(self) -> bool:
        """The reader stands in for the board: the core judges and the reader has settled."""
        settled = self.rounds > self.resume.settle
        return not self._holding() and self.stopped is None and settled

    def _playing(self) -> bool:
        """A deal is still being played at the table (no dice are read for the next)."""
        return self.deal is not None and not self.deal.over and not self._overtaken()

    def _board_news(self, news: Iterable[BoardNews]) -> None:
        """What the reader read for the board, taken as the board's events are."""
        for item in news:
            match item:
                case BoardAlert(kind, text, severity, readings):
                    if readings:
                        shown = [r.to_json() for r in readings]
                        self._alert(kind, text, severity=severity, readings=shown)
                    else:
                        self._alert(kind, text, severity=severity)
                case DiceAsked(kind, text, offered, readings):
                    self.call_referee(
                        kind,
                        text,
                        offered,
                        severity="error",
                        readings=[r.to_json() for r in readings],
                    )
                case _:
                    self._on_table_event(item)

    def answer_dice(self, dice: Dice, dealer: Seat, who: str, why: str) -> Said | None:
        """The referee's dice (`BoardStandIn.answer_dice`): None when taken, else why not."""
        now = self.clock.monotonic()
        answer = self.board.answer_dice(now, dice, dealer, who, why, self._playing())
        if isinstance(answer, Said):
            return answer
        self.referee_answered()
        self._on_table_event(answer)
        return None

    # --- the recogniser's results and the judge's decisions -------------------------------

    def _live(self) -> bool:
        """Recognition is applied: not degraded, paused, recovering or stopped."""
        return (
            self.machine.phase not in m.INTERRUPTIONS
            and not self.resume.recovering
            and self.stopped is None
        )

    def recognised(self, results: Sequence[Any], t: float) -> None:
        for r in results:
            if isinstance(r, MoveSeen):
                self.offer(r.move, r.evidence, t, getattr(r, "read_at", None))
            elif isinstance(r, RefereeAlert):
                key = (self.deal_no, r.kind, r.text)
                if key in self._alerted:
                    continue  # the same reading alerted again: once is enough for the referee
                self._alerted.add(key)
                said = r.said  # journalled as its English, `text`
                seen = evidence_payload(r.evidence)
                if r.kind in REFEREE_CALLS and self.deal is not None and not self.deal.over:
                    self.call_referee(
                        r.kind,
                        said,
                        seat=r.seat,
                        fits=tuple(getattr(r, "fits", ())),
                        journalled=r.text,
                        **seen,
                    )
                    continue
                self._alert(r.kind, said, r.seat, journalled=r.text, **seen)
            elif isinstance(r, WallScanned):
                waiting = self.deal_start.scanned(tuple(r.order))
                self.doubt.scanned(getattr(r, "uncertain", ()))
                self.bus.focus(None)
                if waiting is not None:
                    self._start_deal(waiting)
            elif isinstance(r, HandsDealt) and self.machine.can("deal_complete"):
                self._trigger("deal_complete")
            elif isinstance(r, DealerMoved):
                self._dealer_moved(r.side)
            elif isinstance(r, WallSwapped) and self.deal is not None and not self.deal.over:
                rejudged = self.doubt.swap_dealt(self.deal, r.index, r.why)
                if rejudged is not None:
                    self.deal = rejudged
                    self.claims.forget()

    def offer(
        self,
        move: mv.Move,
        evidence: Evidence = (),
        t: float | None = None,
        read_at: float | None = None,
    ) -> bool:
        """Offer a move to the judge; journal the decision, then act on it."""
        deal = self.deal
        if deal is None or deal.over:
            text = says("{move} seen with no deal in progress", move=type(move).__name__)
            self._alert(AlertKind.NO_DEAL, text)
            return False
        rejected = deal.check(move)
        rejudged = None
        if rejected is not None and isinstance(move, mv.Draw | mv.ReplacementDraw):
            # judged with the window closed, on the trial the draw was read against
            judged = deal if deal.window is None else self.claims.trial(deal)
            rejudged = self.doubt.reorder(deal, move, judged)
        if rejudged is not None:
            self.deal = deal = rejudged
            self.claims.forget()
            rejected = deal.check(move)
        closes = None
        if rejected is not None and self.claims.closes_early(deal, move):
            # accepted once the window is closed: both played on the trial it was read against
            closes, rejected = "draw" if isinstance(move, mv.Draw) else "play", None
        if rejected is not None:
            self.unanswered.refused(move)
            detail = rejected.detail
            read = read_at if read_at is not None else (t or self.clock.monotonic())
            late = self.claims.late(read)
            if is_claim(move) and deal.window is None and late is not None:
                if late >= 0:
                    detail = f"read {late:.1f} s after the claim window closed ({rejected.detail})"
                else:  # read in time, but for a discard the judge had not been shown
                    detail = (
                        f"read {-late:.1f} s before the last claim window closed, for a discard "
                        f"not read yet ({rejected.detail})"
                    )
            self._log(
                Source.JUDGE,
                RecordKind.MOVE_REJECTED,
                rejected_payload(rejected, move, self.dealer, evidence, detail),
                deal=self.deal_no,
                t=t,
            )
            return False
        self._play(move, evidence, t, closes)
        return True

    def _play(
        self, move: mv.Move, evidence: Evidence, t: float | None, closes: str | None = None
    ) -> list[Record]:
        """A move the judge accepts (checked already), in three steps: decided (the judge
        plays it, the table machine and the claim clock follow, and every record it makes is
        written out, `Decided`), committed (one transaction: one fsync), then acted on (the
        judge kept, the recogniser and the referee call told, the outputs and the views).
        The judge plays on a trial (a copy), which becomes the live judge once committed:
        the claim clock's, its window closed already, when `closes` says why the open claim
        window closes first (the move is that close: "timer", "shuffle"; or the move,
        read against that trial, closes it early: "draw", "play"), else a copy made now.
        Before the commit only the parts whose state the records write out move (the table
        machine, the claim clock, the scan's doubtful pairs)."""
        deal = self.deal
        assert deal is not None
        made = Decided()
        if closes is not None:
            assert deal.window is not None
            made.add(self._window_closed(closes, t, deal.window))
            trial = self.claims.take(deal)
            judge = trial.deal
            made.played.append(mv.CloseClaims())
            self._facts(trial.result, made)
            self._follow(judge, mv.CloseClaims(), trial.result, made)
            if not isinstance(move, mv.CloseClaims):
                self._decide(judge, move, evidence, t, made)
        else:
            judge = deal.copy()
            self._decide(judge, move, evidence, t, made)
        records = self._commit(made.entries)
        self._act(judge, made, records)
        return records

    def _decide(
        self, judge: Deal, move: mv.Move, evidence: Evidence, t: float | None, made: Decided
    ) -> None:
        """The judge plays `move`; its records go into `made`, in the order they are
        journalled: the move, the alerts its facts raise, the window it closed, the table's
        phases and the window it opened, the settlement."""
        before = judge.window
        if not isinstance(move, mv.CloseClaims):
            from_seat = None
            if isinstance(move, mv.Pung | mv.Chow | mv.Hu | mv.RobKong) or (
                isinstance(move, mv.Kong) and move.kind.value == "kong"
            ):
                from_seat = before.discarder if before is not None else None
            payload = move_payload(move, self.dealer, evidence, from_seat)
            check = self.doubt.confirm(judge, move)
            if check is not None:
                payload["wall_check"] = check
            made.accept(payload, (Source.JUDGE, RecordKind.MOVE_ACCEPTED, payload, self.deal_no, t))
        result = judge.apply(move)
        assert isinstance(result, mv.Accepted), result  # checked above
        made.played.append(move)
        self._facts(result, made)
        if before is not None and judge.window is None and self.claims.journalled_open:
            # the judge closed it (every eligible player answered), or the recogniser read
            # its resolution from the tiles (reconciliation): replay needs the close either way
            closed_by = "recognised" if isinstance(move, mv.CloseClaims) else "all-answered"
            made.add(self._window_closed(closed_by, t, before))
        self._follow(judge, move, result, made)

    def _facts(self, result: mv.Accepted, made: Decided) -> None:
        """The alerts the judge's facts raise, into `made`."""
        for fact in result.facts:
            if isinstance(fact, mv.VoidSetDeclared):  # accepted, and penalised (004 Lesson 5)
                side = table_seat(fact.seat, self.dealer)
                words = void_set_words(fact, side)
                made.alert(self._alert_made(AlertKind.VOID_SUIT_SET, words, side))

    def _act(self, judge: Deal, made: Decided, records: Sequence[Record]) -> None:
        """What `made` decided, acted on once its records are committed (`records`): the
        trial `judge` is the live judge from now."""
        if judge is not self.deal:
            self.deal = judge
            self.claims.forget()
        for move in made.played:
            self.unanswered.accepted(move)
            self.recogniser.on_accepted(move, judge)
        accepted = made.accepted
        if accepted is not None:
            self.last_accepted_seq = records[accepted[0]].seq
        if accepted is not None or judge.over:
            # (a deal ended by its last window's close takes its call with it: a call left
            # standing kept the lights on and the players waiting for good)
            self.referee_answered(agreed=True)
        for index, alert in made.alerts:
            self._alert_shown(alert, records[index])
        if accepted is not None:
            self.outputs.move_accepted(accepted[1], records[accepted[0]])
        if made.settled is not None:
            index, settled = made.settled
            self._settled(settled, records[index])

    def _follow(self, judge: Deal, move: mv.Move, result: mv.Accepted, made: Decided) -> None:
        """Move the table machine to the judge's phase, by the transition the judge's facts
        stand for (`machine.follow`); its records, the window the move opened and the
        settlement of a deal it ended go into `made`."""
        target = m.JUDGE_PHASES[judge.phase]
        if self._table_moved_on():  # a deal finished while the table shuffles the next
            if judge.over:
                self._settlement(judge, made)
            return
        if self.machine.phase == target and not _restarts_clock(move):
            return
        if self.machine.phase == target:
            self.machine.rearm()  # a new move on the same phase: the move clock restarts
        elif isinstance(move, mv.Correction):
            made.entries += self._resynced("corrected", judge)  # no table event leads back
        else:
            steps = m.follow(self.machine.phase, result, judge.phase)
            if steps is None:
                text = says(
                    "no way from {phase} to {target}",
                    phase=phase_said(self.machine.phase),
                    target=phase_said(target),
                )
                made.alert(self._alert_made(AlertKind.MACHINE, text))
                return
            made.entries += [self._stepped(trigger) for trigger in steps]
        self.claims.new_move()
        if target == m.CLAIM_WINDOW or target == m.ROBBING_WINDOW:
            made.add(self._window_opened(judge))
        if judge.over:
            self._settlement(judge, made)

    def _trigger(self, trigger: str) -> None:
        self._commit([self._stepped(trigger)])

    def _stepped(self, trigger: str) -> Entry:
        """The table machine moved by `trigger`, and its `table.phase` record to append."""
        before = self.machine.phase
        getattr(self.machine, trigger)()
        payload = {"from": before, "to": self.machine.phase, "trigger": trigger}
        return Source.DAEMON, RecordKind.TABLE_PHASE, payload, self._open_deal(), None

    def _resync(self, why: str) -> None:
        """The table machine put at the judge's phase with no table event to follow (`why`:
        "restarted", the replayed moves; "corrected", the referee's corrections): the
        deal's end is its transition, any other phase is set (`TableMachine.resync`)."""
        assert self.deal is not None
        self._commit(self._resynced(why, self.deal))

    def _resynced(self, why: str, judge: Deal) -> list[Entry]:
        """`_resync` to `judge`'s phase, and its record (none: the machine is there)."""
        target = m.JUDGE_PHASES[judge.phase]
        if self.machine.phase == target or self.machine.phase in m.INTERRUPTIONS:
            return []
        if judge.over:
            return [self._stepped("deal_ended")] if self.machine.can("deal_ended") else []
        before = self.machine.phase
        self.machine.resync(target)
        payload = {"from": before, "to": target, "trigger": why}
        return [(Source.DAEMON, RecordKind.TABLE_PHASE, payload, self._open_deal(), None)]

    # --- the claim clock (claim_clock.py) -------------------------------------------------

    def _as_seen(self) -> Deal | None:
        """The deal tile movements are read against (`ClaimClock.as_seen`): none while the
        table is cleared for a shuffle no board reports (boardless.py), or shuffled for the
        next deal while the referee ends this one (`_overtaken`)."""
        clearing = self.board.clearing or self._overtaken()
        return self.claims.as_seen(None if clearing else self.deal)

    def _on_timer(self, fired: TimerFired) -> None:
        match self.claims.on_timer(fired, self.deal):
            case mv.CloseClaims():
                self._close_window("timer", fired.t)
            case OverTime(seat=turn):
                seat = table_seat(turn, self.dealer)
                self._alert(
                    AlertKind.OVER_TIME,
                    says(
                        "{seat} has taken more than {seconds} s for this move",
                        seat=seat_said(seat.name),
                        seconds=format(self.claims.move_seconds, "g"),
                    ),
                    seat,
                )

    def _close_window(self, closed_by: str, t: float | None) -> Record:
        """The open window closed (`closed_by`), and its `claim.window` record."""
        return self._play(mv.CloseClaims(), (), t, closed_by)[0]

    def _window_closed(self, closed_by: str, t: float | None, window: ClaimWindow) -> Entry:
        """The `claim.window` record that closes `window` (read at `t`)."""
        at = self.clock.monotonic() if t is None else t
        payload = self.claims.closed(window, self.dealer, closed_by, at)
        return Source.DAEMON, RecordKind.CLAIM_WINDOW, payload, self.deal_no, t

    def _window_opened(self, judge: Deal) -> Entry:
        """The `claim.window` record that opens `judge`'s window."""
        assert judge.window is not None
        payload = self.claims.opened(judge.window, self.dealer)
        return Source.DAEMON, RecordKind.CLAIM_WINDOW, payload, self.deal_no, None

    # --- a deal's life: shuffle, scan, dice, start, settlement ----------------------------

    def _shuffle(self, t: float) -> None:
        if self.machine.phase in m.INTERRUPTIONS:
            return
        self.board.shuffle_heard = True  # (boardless.py: a board's shuffle missed while down)
        if self.deal is not None and self.deal.window is not None:
            self._close_window("shuffle", t)  # the table moved on: the window's time is up
            if self.stopped is not None:
                return  # that closed the session's last deal: the daemon has stopped
        # a deal not ended stays for the referee: its missing moves or its end settle it
        # while the table plays the next (`_overtaken`); the next deal's start
        # abandons it if nobody did (tiles campaign seed 501 deal 6: abandoned here, the
        # restart resumed it and the referee's end of it raised a MachineError)
        overtaken = self.deal is not None and not self.deal.over and not self._overtaken()
        if not self.machine.can("shuffle_started"):
            self._trigger("deal_ended")
        self.deal_start.shuffled()
        self.doubt.scanned(())
        if self.session is None:
            number, players = self.lineup.start(self._last_session)
            self.session = self._last_session = number
            self.scores.new_session()
            started = self._log(
                Source.DAEMON,
                RecordKind.SESSION_STARTED,
                {
                    "session": self.session,
                    "rules": self.rs.name,
                    "players": list(players.names),
                    "table": self.config.table,
                    **players.payload(),
                },
            )
            self.session_wall = started.wall
        self.recogniser.new_deal(self.dealer)
        self._trigger("shuffle_started")
        self.bus.focus(self._wall_antennas)  # the walls are built: read the wall antenna
        if overtaken:
            self._call_overtaken()

    def _dice(self, t: float, dice: Dice, note: Mapping[str, object] | None = None) -> None:
        if not self.machine.can("dice_rolled"):
            text = says(
                "dice {dice} in phase {phase}: ignored",
                dice=str(dice),
                phase=phase_said(self.machine.phase),
            )
            self._alert(AlertKind.DICE, text)
            return
        self._trigger("dice_rolled")
        self.bus.focus(None)  # the deal is dealt next: every antenna
        # with no scan yet the wall antenna's last (empty) read may still be on its way: the
        # dice wait for it
        ready = self.deal_start.rolled(Rolled(t, dice, note or {}), self.clock.monotonic())
        if ready is not None:
            self._start_deal(ready)

    def _start_deal(self, rolled: Rolled) -> None:
        """The scanned wall is known: the judge deals it."""
        self.deal_start.taken()
        t, dice, scan = rolled.t, rolled.dice, self.deal_start.scan
        assert scan is not None
        physical = tuple(tc.tile for tc in scan)
        try:
            deal = Deal.start(self.rs, dice, physical, prevalent=self.config.prevalent)
        except ValueError as err:
            self._alert(
                AlertKind.BAD_WALL_SCAN,
                says("the scanned wall cannot be dealt: {error}", error=str(err)),
                severity="error",
            )
            return
        self._begin_deal(
            t,
            dice,
            deal,
            {
                "wall": [str(x) for x in to_drawing(self.rs, dice, physical)],
                "wall_copies": [str(tc) for tc in scan],
                **({"wall_uncertain": list(self.doubt.uncertain)} if self.doubt.uncertain else {}),
                **rolled.note,  # dice read off the dealt hands (boardless.py)
            },
        )

    def _start_from_hands(self) -> None:
        """No wall antenna: the judge starts from the dealt hands as the reader sees them
        (`Deal.start_dealt`, every other wall position unknown), once every hand holds its
        13 or 14 tiles and no other zone holds any. `deal.started` is journalled then, after
        the dealing, with `wall: null` and the `hands` (fixed seats), which replay needs."""
        rolled = self.deal_start.waiting
        assert rolled is not None
        t, dice = rolled.t, rolled.dice
        hands = dealt_hands(self.debouncer.presence(), self.dealer)
        if hands is None:
            return
        try:
            deal = Deal.start_dealt(self.rs, dice, hands, prevalent=self.config.prevalent)
        except ValueError as err:
            self._alert(
                AlertKind.BAD_HANDS,
                says("the dealt hands cannot be dealt: {error}", error=str(err)),
                severity="error",
            )
            self.deal_start.taken()
            return
        self.deal_start.taken()
        fixed = {table_seat(s, self.dealer).name: [str(x) for x in hands[s]] for s in SEATS}
        self._begin_deal(t, dice, deal, {"wall": None, "hands": fixed})

    def _begin_deal(self, t: float, dice: Dice, deal: Deal, wall: Mapping[str, Any]) -> None:
        if self._overtaken():  # the referee did not end it while the table shuffled
            self._alert(
                AlertKind.DEAL_ABANDONED,
                says(
                    "the next deal starts: deal {n} stays unsettled",
                    n=self.session_number(self.deal_no),
                ),
                severity="error",
            )
            self.referee_answered()
        number = self.next_deal
        self._log(
            Source.DAEMON,
            RecordKind.DEAL_STARTED,
            {
                "deal": number,
                "rules": self.rs.name,
                "dealer": self.dealer.name,
                "dice": [dice.a, dice.b],
                "prevalent": deal.prevalent.name,
                "players": list(self.lineup.now.names),
                "session": self.session,
                **wall,
            },
            deal=number,
            t=t,
        )
        self._started_seq = self.seq
        self.deal, self.deal_no, self.next_deal = deal, number, number + 1
        self._dealt_by = self.dealer
        self.claims.new_move()
        self.unanswered.new_deal()
        self._trigger("dealing_started")
        self.recognised(self.recogniser.start_deal(deal), t)

    def _dealer_moved(self, side: Seat) -> None:
        """The dealt hands show the dealer at `side`: after a deal the daemon lost (a kill,
        an abandoned deal) its idea of the next dealer can be wrong, and the table is right.
        Journalled as a `dealer` correction of `deal.started` (every reader of the journal
        takes it), and seats are mapped from that side from here on (issue 13 item 7)."""
        if self.deal is None or self.deal.history or side is self._dealt_by:
            return
        was = self._dealt_by
        correction = Correction(
            self._started_seq,
            "daemon",
            CorrectionAction.DEALER,
            f"the dealt hands show the dealer at side {side}, not {was}",
            {"dealer": side.name},
        )
        stamp = Stamp(self.clock.monotonic(), self.clock.wall())
        record = self.journal.append_correction(correction, source=Source.DAEMON, at=stamp)
        self.journalled(record)
        self.dealer = self._dealt_by = side

    def _settle_deal(self) -> None:
        """The judge ended the deal: its settlement is built once (settlement.py), journalled,
        added to the session's scores and handed to the outputs."""
        deal = self.deal
        assert deal is not None
        made = Decided()
        self._settlement(deal, made)
        self._act(deal, made, self._commit(made.entries))

    def _settlement(self, judge: Deal, made: Decided) -> None:
        """The deal `judge` ended, settled: its `deal.settled` record and the table's phase
        after it go into `made` (`_settled` acts on it once committed)."""
        assert judge.end is not None
        players = self.lineup.now.names
        settled = settle(judge, self.deal_no, self.dealer, self.session or 0, players)
        made.settle(
            settled, (Source.JUDGE, RecordKind.DEAL_SETTLED, settled.payload(), self.deal_no, None)
        )
        if self.machine.can("settlement_done"):
            made.add(self._stepped("settlement_done"))
        else:  # the table shuffled before the deal was ended (`_table_moved_on`)
            log.info("deal %d settled in phase %s", self.deal_no, self.machine.phase)

    def _settled(self, settled: Settlement, record: Record) -> None:
        """A settlement committed: the session's scores, the next dealer, the outputs."""
        self.scores.settle(settled, record.seq)
        self.dealer = settled.next_dealer
        self.publish()
        self.outputs.deal_settled(settled, record)
        if self.config.deals and self.scores.deals_done >= self.config.deals:
            self.stop("deals")

    def session_deal(self) -> int:
        """The deal's number in its session (1, 2, ...; 0 before the first): the journal
        numbers deals across sessions, people count them in theirs."""
        n = self.scores.deals_done
        if self.deal is not None:
            # a finished deal stays the view's deal (its result) until the next one is dealt,
            # through the shuffle: counted once settled (deals_done), not twice
            return n if self.deal.over and self.deal_no in self.scores.settled else n + 1
        return n + 1 if self.machine.phase in BEFORE_PLAY else n

    def session_number(self, deal: int) -> int:
        """Deal `deal` (the journal numbers deals across sessions) as the session counts
        it: what the board, the referee page and their sentences call it."""
        settled = self.scores.number_in_session(deal)
        if settled:
            return settled
        if deal > self.deal_no:  # being dealt now (its record comes before the judge has it)
            return self.scores.deals_done + 1
        return self.session_deal() if deal == self.deal_no else deal

    def recheck_settled(self, now: float, at_once: bool = False) -> None:
        """Every RECHECK_S (`at_once`: now): a settled deal of the open session corrected
        since (`mjtable correct` beside the running daemon, the referee page) is re-judged,
        and the session totals, the views and the seat displays follow the corrected result;
        so is the deal in progress (`_recheck_live`)."""
        if not self.scores.due(now, at_once):
            return
        self._recheck_live()
        if self.scores.recheck(self.journal):
            self._dirty = True
            self.show_scores()

    def _recheck_live(self) -> None:
        """A correction of the deal in progress appended beside the daemon (`mjtable correct`
        on the Pi, which checked it with the same trial as the referee page): the live judge
        is rebuilt with it, as after the page's actions (the daemon's own corrections are
        marked seen when written, `Runtime.journalled`)."""
        deal, number = self.deal, self.deal_no
        if deal is None or deal.over or not number:
            return
        found = self.journal.corrections(number)
        seen = self.scores.seen(number)
        fresh = [r for r, _ in found if r.seq > seen]
        if not fresh:
            return
        self.scores.saw(number, fresh[-1].seq)
        for record in fresh:
            self.tail.append(tail_line(record))
        rebuilt = self.desk.rebuilt()
        if rebuilt is not None:
            log.info("deal %d corrected beside the daemon (record %d)", number, fresh[-1].seq)
            self.adopt(rebuilt)

    # --- restart, reconnection, what was held back (recovery.py) --------------------------

    def _holding(self) -> bool:
        """Not ready to judge: a device is lost, or the restart has not reconciled yet."""
        return self.stopped is None and (self.resume.recovering or self.machine.phase == "degraded")

    def _table_moved_on(self) -> bool:
        """The table is shuffling (or building, or dealing from) the next deal's walls while
        the judge still holds the last one: a deal the referee finishes after the shuffle
        overtook it (restarted after it, campaign seed 501 deal 6). The table machine then
        follows the table, not that deal's judge."""
        phase = self.machine.phase
        if phase in m.INTERRUPTIONS:
            phase = self.machine.interrupted_phase or phase
        return self.deal is not None and phase in NEXT_DEAL

    def _overtaken(self) -> bool:
        """A deal not ended when the table moved on (`_table_moved_on`): its moves and its
        end come from the referee; the tiles on the table are the next deal's."""
        return self._table_moved_on() and self.deal is not None and not self.deal.over

    def _release(self) -> None:
        """What came while not ready, in the order it came, judged at the times it was read
        (each event keeps its own `t`)."""
        while not self._holding() and (ev := self.held.take()) is not None:
            if isinstance(ev, TagsRead):
                self.recognised(self.recogniser.on_wall_read(ev), ev.t)
            else:
                self._on_table_event(ev)

    def _resume_recovered(self, rec: Recovered) -> None:
        """A deal (or a phase) was in progress when the daemon stopped: replay it into the
        recogniser, then wait for the links as in degraded mode."""
        started = rec.started
        if started is not None:
            deal = Deal.start(  # swaps included
                self.rs, started.dice, started.wall_order, prevalent=started.prevalent
            )
            self.doubt.scanned(started.uncertain)
            self.recogniser.new_deal(started.dealer)
            self.recogniser.start_deal(deal)
            doubt = getattr(self.recogniser, "on_wall_doubt", None)
            if doubt is not None and started.uncertain:
                doubt(started.uncertain)  # a draw from such a pair is retried after a restart
            for move in rec.moves:
                deal.apply(move)
                self.recogniser.on_accepted(move, deal)
            self._started_seq = next(iter(self.journal.deal_records(rec.deal_no))).seq
            corrected = self.desk.rebuilt()  # the referee's corrections, as the tools apply them
            if corrected is not None:
                deal = corrected
                self.recogniser.start_deal(deal)
                self.recogniser.on_accepted(mv.Correction(1), deal)
            self.deal = deal
            self.claims.resumed(deal.window is not None)  # journalled open before the restart
            if not deal.over and not self._table_moved_on():
                self._resync("restarted")  # the phase records a kill cut off
        if rec.phase in NEXT_DEAL:
            self._scan_next_walls(rec)
        number = self.session_number(rec.deal_no) if rec.deal_no else 0
        self._alert(AlertKind.RESTARTED, restarted_words(rec, number), severity="info")
        if self._overtaken():
            self._call_overtaken()
        if self.deal is not None and self.deal.over:
            self._settle_deal()  # killed between the last move and the settlement
            self.resume.done()
            return
        self._trigger("device_lost")

    def _scan_next_walls(self, rec: Recovered) -> None:
        """The table was shuffling or building the next walls when the daemon stopped: the
        recogniser scans them again (the wall antenna's reads journalled since)."""
        if rec.phase != "dice_rolled":
            self.bus.focus(self._wall_antennas)
        self.recogniser.new_deal(self.dealer)
        for read in rec.wall_reads:  # the walls were being built: scan them again
            self.recognised(self.recogniser.on_wall_read(read), read.t)

    def _call_overtaken(self) -> None:
        """The table shuffled before the deal ended (heard now, or journalled before a
        restart): the referee enters its missing moves or ends it; the next deal's start
        abandons it if neither was done."""
        text = says(
            "the table shuffled before deal {n} ended: enter its missing moves or end it",
            n=self.session_number(self.deal_no),
        )
        # its end first: nothing of it can be read any more
        offered = overtaken_candidates(self.deal, self._dealt_by)
        self.call_referee(AlertKind.DEAL_OVERTAKEN, text, offered, severity="error")

    def _reconcile(self) -> None:
        results: list[Any] = []
        overtaken = self.held.shuffled or self._overtaken()
        if self.deal is not None and not self.deal.over and not overtaken:
            # (after a held shuffle the tiles show the new walls, not this deal)
            presence = self.debouncer.presence()
            found = getattr(self.recogniser, "cards_on_table", None)
            if found is not None:  # cards laid while not read declare too (issue 18)
                found(self.debouncer.cards())
            results = self.recogniser.reconcile(presence, self.deal)
            if unexplained(results) and self.resume.again(self.rounds):
                # a tile the reader has not re-read since the restart looks missing: read
                # the table a little longer before calling the referee (campaign seed 31
                # deal 18: "E.void 2s -1" was a tile not seen yet at 10 % missed reads)
                return
        restarted = self.resume.recovering
        unheard = self.resume.buttons_unheard
        self.resume.done()
        if self.machine.phase == "degraded":
            self._trigger("device_back")
            if restarted:
                self.machine.rearm()
        if results:
            self.recognised(results, self.clock.monotonic())
        if unheard and self.deal is not None and not self.deal.over and not overtaken:
            # a claim pressed meanwhile on the window left open never reached the daemon:
            # its tiles, laid after this reconciliation, are all there is of it
            self.recogniser.buttons_unheard(self.deal)
        self._release()

    # --- the referee: the desk's side of the live deal (LiveDeal), and the call -----------

    def referee(self, action: RefereeAction) -> ActionResult:
        """A referee action from the web view (controller/daemon/referee_desk.py). One that
        answers a call no longer standing (another referee answered it first, the table
        did, or the page is from before a restart) changes nothing."""
        if action.call and (self.call is None or self.call.name != action.call):
            return ActionResult(False, None, RejectReason.NOT_NOW, CALL_GONE)
        return self.desk.act(action)

    @property
    def referee_called(self) -> str | None:
        """The standing call's headline (None: no call stands)."""
        return None if self.call is None else self.call.headline

    @property
    def referee_candidates(self) -> tuple[Candidate, ...]:
        return () if self.call is None else self.call.candidates

    @property
    def dealt_by(self) -> Seat:
        """The dealer of the deal in progress (its deal seat East)."""
        return self._dealt_by

    @property
    def last_settled(self) -> int:
        """The session's last settled deal (0: none yet)."""
        return self.scores.last_settled

    def call_referee(
        self,
        kind: AlertKind,
        message: str | Said,
        offered: tuple[Candidate, ...] | None = None,
        seat: Seat | None = None,
        fits: tuple[mv.Move, ...] = (),
        journalled: str | None = None,
        **extra: object,
    ) -> None:
        """The table waits for the referee: the call (its candidates the judge's and the
        reader's explanations unless `offered`) and its `alert` record, which names it."""
        before = self.call
        diffs = None
        follows = offered is None
        if offered is None:
            standing_fits = before.fits if before is not None and not before.answered else ()
            if standing_fits and (not fits or set(fits) == set(standing_fits)):
                # a reading of the same tiles refused while an ambiguous one's call stands
                # keeps its buttons (10/10/2 seed 311 deal 24: "West's discard was not read",
                # "Enter it by hand" first, where the call had offered 5s or 1m), and the
                # same reading raised again keeps their order: a tile read elsewhere for a
                # moment (crosstalk) and back seems to reach the river later ("7p or 4p",
                # right, then "4p or 7p" three records on)
                fits = standing_fits
            offered, diffs = self._call_candidates(fits)
        # a call raised again before any answer is the same call to the referee: its name
        # stays, so an answer tapped meanwhile still counts
        standing = 0 if before is None or before.answered else before.alert_seq
        call = RefereeCall(
            kind.value,
            alert_words(kind, message),
            offered,
            details(diffs, self._dealt_by),
            said_cause=alert_said(kind, message),
            fits=fits,
            follows=follows,
        )
        record = self._alert(
            kind,
            message,
            seat,
            severity=str(extra.pop("severity", "warning")),
            journalled=journalled,
            referee_called=True,
            headline=call.headline,
            candidates=[c.to_json() for c in offered],
            **extra,
        )
        self.call = replace(call, alert_seq=standing or record.seq)
        if self.deal is not None and not self.deal.over:
            self._call_look = self._look(self.deal)

    def referee_answered(self, agreed: bool = False) -> None:
        """The call goes off: at once for a referee's decision (a correction, the dice);
        `agreed`: after an accepted move, only once the table agrees with the judge again,
        otherwise it stands with its candidates brought up to date (a referee entering the
        moves a fast table showed turned the lights off at each one, the players went on
        and the deal was shuffled away before the judge caught up: 10/10/2 seed 310 deals
        29 and 38)."""
        if self.call is None:
            return
        deal = self.deal
        if agreed and deal is not None and not deal.over and self.recogniser.differences(deal):
            # the headline is made again from the new candidates (one value: the page's
            # call and its buttons cannot disagree); the moves the tiles show beyond the
            # judge come with the next look (`_refresh_call`): the search is too costly to
            # make at each move the judge follows
            offered, differences = self._call_candidates(self.call.fits, ahead=False)
            self.call = self.call.updated(
                offered,
                details(differences, self._dealt_by),
                answered=True,  # it goes off once they agree (`call_off_if_agreed`)
            )
            self._call_look = None
            self._dirty = True
            return
        self.call = None
        self._dirty = True

    def _call_candidates(
        self, fits: tuple[mv.Move, ...] = (), ahead: bool = True
    ) -> tuple[tuple[Candidate, ...], Differences | None]:
        """The explanations of a call now, best first, and the reader's differences from the
        judge they were made from: with `ahead`, the moves the tiles show beyond the judge
        first (a search: 50-200 ms when the judge is far behind), then the judge's and the
        reader's (`candidates`)."""
        deal = self.deal
        if deal is None or deal.over:
            return (), None
        diffs = self.recogniser.differences(deal)
        search = ahead and self._live() and not self._overtaken()
        if search:
            self._call_made_at = self.clock.monotonic()
        shown = self.recogniser.ahead(deal) if search else ()
        offered = candidates(
            deal,
            self._dealt_by,
            diffs,
            self.last_accepted_seq,
            fits,
            shown,
            self.unanswered.moves,
            self.recogniser.arrivals(deal),
            self.desk.record_back,
        )
        return offered, diffs

    def _look(self, deal: Deal) -> tuple[int, frozenset[Any]]:
        """What a call's candidates are made from: the judge's moves and the reader's
        differences from it."""
        return (len(deal.history), frozenset(self.recogniser.differences(deal).items()))

    def _refresh_call(self, now: float) -> None:
        """A standing call's candidates follow the table: tiles read since it was raised or
        last answered (a kong laid after the answer, the judge following the table meanwhile)
        change its buttons, not its name (10/10/2 seed 311 deal 92: the kong of North's 2m
        was laid after the answer, the page still offered the draw before it, and the
        referee entered the kong by hand). Made again at most every `CALL_LOOK_S`, a
        referee's glance: made at every reader round, the search for the moves beyond the
        judge held the core up and the table ran further ahead (a 10/10/2 campaign: 15
        calls where there had been 5)."""
        call, deal = self.call, self.deal
        if call is None or not call.follows or deal is None or deal.over:
            return
        if not self._live() or self._overtaken() or now - self._call_made_at < CALL_LOOK_S:
            return
        look = self._look(deal)
        if look == self._call_look:
            return
        self._call_look = look
        offered, differences = self._call_candidates(call.fits)
        shown = details(differences, self._dealt_by)
        if offered != call.candidates or shown != call.details:
            self.call = call.updated(offered, shown, answered=False)
            self._dirty = True

    def call_off_if_agreed(self) -> None:
        """A call answered by a move, standing only while the table differed from the judge,
        goes off once they agree, with no move: a tile missed by the reader when the last
        answer was taken and read again afterwards (10/10/2 seed 311 deal 58: a meld tile
        unread for 0.2 s when the referee entered the last move; the players waited for the
        call, the judge for a move, and the deal was abandoned 30 s later)."""
        deal = self.deal
        call = self.call
        if call is None or not call.answered or deal is None or deal.over:
            return
        if self._live() and not self._overtaken() and not self.recogniser.differences(deal):
            self.referee_answered()

    def journalled(self, record: Record) -> None:
        """A record another part of the daemon appended (the referee desk)."""
        self.seq, self._dirty = record.seq, True
        self.tail.append(tail_line(record))
        live = self.deal is not None and not self.deal.over
        if record.kind is RecordKind.CORRECTION and live and record.deal == self.deal_no:
            # not taken again (`_recheck_live`); a settled deal's is: `settled_corrected`
            self.scores.saw(record.deal, record.seq)

    def settled_corrected(self) -> None:
        """A correction of a settled deal was journalled: its result is judged again now
        (the totals, the views, the seat displays), not at the next periodic look."""
        self.recheck_settled(self.clock.monotonic(), at_once=True)

    def would_refuse(self, move: mv.Move) -> mv.Rejected | None:
        """The judge's answer to `move` now, closing an open window first where the move
        would (as `offer` does), without changing anything."""
        deal = self.deal
        if deal is None or deal.over:
            return mv.Rejected(mv.Reason.DEAL_OVER, "no deal in progress")
        rejected = deal.check(move)
        if rejected is not None and self.claims.closes_early(deal, move):
            return None
        return rejected

    def close_claims(self) -> Record | None:
        """The referee says nobody claimed: the open window closes now (`closed_by`
        "referee"); its `claim.window` record, which the desk's correction names (None: no
        window is open)."""
        deal = self.deal
        if deal is None or deal.over or deal.window is None:
            return None
        return self._close_window("referee", None)

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
        before = self.deal
        self.deal = deal
        self.claims.forget()
        # a correction answers a call as an entered move does: it stands while the table
        # differs from the judge (an undo turned it off and the players played on, ten
        # moves in 4 s, while the judge was behind)
        self.referee_answered(agreed=True)
        if deal.window is None:
            self.claims.resumed(False)
        elif not self.claims.journalled_open:
            self._commit([self._window_opened(deal)])
        if taken_back:
            self.recogniser.on_accepted(mv.Correction(1), deal)
            if before is not None:  # the same moves are not read again from those tiles
                self.recogniser.taken_back(cancelled(before.history, deal.history), deal)
        if not self._table_moved_on():  # else the machine follows the table's next deal
            self._resync("corrected")
        if deal.over:
            self._settle_deal()
        elif not taken_back:
            self.reread_table()
        self._dirty = True

    # --- publication (publication.py) -----------------------------------------------------

    def facts(self) -> TableFacts:
        return TableFacts(
            table=self.config.table,
            session=self.session or 0,
            deal_no=self.deal_no,
            rules=self.rs.name,
            # after a settlement self.dealer already names the next deal's dealer
            dealer=self._dealt_by if self.deal is not None else self.dealer,
            players=self.lineup.now.names,
            totals=(self.totals[0], self.totals[1], self.totals[2], self.totals[3]),
            phase=self.machine.phase,
            claim_remaining_s=self.machine.remaining(Timer.CLAIM),
            seq=self.seq,
            referee_called=self.referee_called is not None,
            devices_down=tuple(d for d, s in self.links.items() if s is not LinkState.UP),
        )

    def _count(self) -> SessionCount:
        return SessionCount(self.session_deal(), self.config.deals or self.rs.session.deals)

    def public(self) -> PublicView:
        """The hall's view now (a settled deal may stay on it a while)."""
        return self.publisher.public(self.facts(), self.deal, self._count())

    def _publish_if_dirty(self) -> None:
        if self._dirty:
            self.publish()

    def publish(self) -> None:
        """Every audience's view, made for the table as it is now (what did not change since
        the last is taken again, `Publisher`) and pushed to the outputs."""
        self._dirty = False
        desk = DeskFacts(
            tuple(self.alerts),
            tuple(self.tail),
            self.call,
            self.desk.listing(),
            tuple(self.heads),
            self.desk.settled_listing(),
        )
        number = desk.settled[0]
        desk = replace(desk, settled_number=self.session_number(number) if number else 0)
        made = self.publisher.views(
            self.facts(), self.deal, self._count(), desk, self.clock.monotonic()
        )
        try:
            self.outputs.publish(made.public, made.referee, made.broadcast)
        except Exception:
            log.exception("publishing the views failed")

    def show_scores(self) -> None:
        """The session totals on the seat displays."""
        for s in SEATS:
            self.command(ShowScore(s, self.totals[s]))

    # --- the journal: every record and alert goes through here ----------------------------

    def _log(
        self,
        source: Source,
        kind: RecordKind,
        payload: Mapping[str, Any],
        *,
        deal: int | None = None,
        t: float | None = None,
    ) -> Record:
        (record,) = self._commit([(source, kind, payload, deal, t)])
        return record

    def _commit(self, entries: Sequence[Entry]) -> list[Record]:
        """Append `entries` in one transaction (one fsync) and return their records, each
        stamped with its time (None: now)."""
        if not entries:
            return []
        now, wall = self.clock.monotonic(), self.clock.wall()
        made = [(s, k, p, d, Stamp(now if t is None else t, wall)) for s, k, p, d, t in entries]
        records = self.journal.append_many(made)
        for record in records:
            self._logged(record)
        return records

    def _logged(self, record: Record) -> None:
        self.seq = record.seq
        if record.kind is RecordKind.DEAL_SETTLED:
            number = self.session_number(record.deal or 0)
            head = {"deal": record.deal, "session_deal": number, "seq": record.seq}
            self.heads.append({**head, "hash": record.hash})
        if record.kind not in (RecordKind.HW_FRAME, RecordKind.HW_ERROR):
            self._dirty = True  # raw frames change nothing a view shows
            self.tail.append(tail_line(record, self.session_number(record.deal or 0)))

    def _alert(
        self,
        kind: AlertKind,
        message: str | Said,
        seat: Seat | None = None,
        severity: str = "warning",
        journalled: str | None = None,
        **extra,
    ) -> Record:
        """An `alert` record; a message made as a sentence is journalled as its English (or
        as `journalled`, the recogniser's own text) and as the sentence (`words`), which
        every page and the terminal say in their language."""
        made = self._alert_made(kind, message, seat, severity, journalled, **extra)
        (record,) = self._commit([made.entry])
        self._alert_shown(made, record)
        return record

    def _alert_made(
        self,
        kind: AlertKind,
        message: str | Said,
        seat: Seat | None = None,
        severity: str = "warning",
        journalled: str | None = None,
        **extra,
    ) -> AlertMade:
        """An alert's record to commit (`_alert`), and what is shown of it once committed."""
        text = str(message) if journalled is None else journalled
        payload = {"code": kind.value, "message": text, "severity": severity, **extra}
        if isinstance(message, Said):
            payload["words"] = message.to_json()
        if seat is not None:
            payload["seat"] = seat.name
        entry = (Source.DAEMON, RecordKind.ALERT, payload, self._open_deal(), None)
        return AlertMade(entry, kind, severity, alert_said(kind, message), str(message))

    def _alert_shown(self, made: AlertMade, record: Record) -> None:
        words = made.words
        self.alerts.append(
            AlertView(record.seq, record.wall, made.severity, str(words), words.to_json())
        )
        log.warning("alert %s: %s", made.kind.value, made.text)

    def _open_deal(self) -> int | None:
        return self.deal_no if self.deal is not None and self.deal_no else None


def _restarts_clock(move: mv.Move) -> bool:
    return not is_claim(move) and not isinstance(move, mv.ChooseVoid)


# the phases of the next deal before its play: it is counted already
CALL_LOOK_S = 1.0  # a standing call's candidates are made again at most this often
BEFORE_PLAY = ("shuffling", "walls_up", "dice_rolled", "dealing", "choosing_void")


def cancelled(before: Sequence[mv.Move], after: Sequence[mv.Move]) -> tuple[mv.Move, ...]:
    """The moves of `before` that `after` no longer holds (a referee's cancel), in their
    order, without their times."""
    rest = [replace(x, t=None) for x in after]
    out: list[mv.Move] = []
    for move in (replace(x, t=None) for x in before):
        if rest and rest[0] == move:
            rest.pop(0)
        else:
            out.append(move)
    return tuple(out)
