"""The daemon put together: journal, recovery, drivers on serial links, the recogniser, the
runtime's core loop, the web scoreboard, seat displays, MQTT and systemd notification.

    daemon = Daemon(settings, table_url, reader_url)
    daemon.start()          # journal opened, state recovered, links and web server started
    daemon.run()            # the core loop, until stop() (signal) or the deal limit
    daemon.close()          # idempotent: links, web server, MQTT, journal

The reader is a serial port (a UHF reader bus, or a PN532 with a `pn532-uart` reader
profile), or `usb` / `usb:VID:PID` with a `pn533-usb` reader profile.
One shutdown path (`close`), safe to call twice and from `finally`. Signals only queue a
`Stop` for the core thread, which journals `daemon.stopped` before the journal is closed.
"""

from __future__ import annotations

import logging
import secrets
import signal
import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.clock import Clock, SystemClock
from controller.daemon.boardless import inferred
from controller.daemon.checkpoint import Checkpointer
from controller.daemon.config import ConfigError, Settings, parse_listen
from controller.daemon.contracts import SeatingReceived
from controller.daemon.notify import Notifier
from controller.daemon.replay import Recovered, recover
from controller.daemon.runtime import Runtime, RuntimeConfig, Stop
from controller.daemon.settlement import Settlement
from controller.devices.serial_link import LinkConfig, SerialLink
from controller.devices.table import Buzzer, Light, ShowCountdown, ShowScore, TableDriver
from controller.journal.records import Record, RecordKind, Source
from controller.journal.store import Journal
from controller.outputs.http import ServerLimits, WebServer
from controller.outputs.scoreboard import ActionResult, RefereeAction, RejectReason, Scoreboard
from controller.outputs.seat_display import SeatDisplays, running_score
from controller.outputs.view import PublicView
from controller.profiles import (
    EventKind,
    ReaderModel,
    ReaderProfile,
    TableProfile,
    TagMap,
    ZoneKind,
    load_reader,
    load_table,
    load_tags,
    with_declarations,
)
from controller.recognition.presence import Debouncer
from controller.recognition.recogniser import Recogniser
from controller.words import plural
from rules import suit_tables
from rules.ruleset import RuleSet, load as load_rules
from rules.seats import Seat

if TYPE_CHECKING:  # paho is imported only where the hall is used
    from controller.hub.wire import SeatingNotice

log = logging.getLogger(__name__)

# how long a stopping daemon waits for the broker to take what is queued (docs/MQTT.md)
MQTT_STOP_DRAIN_S = 10.0


@dataclass(frozen=True, slots=True)
class Endpoints:
    """Where people look (printed at start-up)."""

    scoreboard: str
    referee: str
    token: str
    journal: Path
    # what the start found that the operator should know (an earlier run's deal left
    # unsettled), in words
    notes: tuple[str, ...] = ()


class AppOutputs:
    """The runtime's outputs: scoreboard, seat displays, MQTT, and the systemd watchdog."""

    def __init__(
        self,
        board: Scoreboard,
        displays: SeatDisplays | None,
        mqtt: Any,
        notifier: Notifier,
        table: str,
    ) -> None:
        self.board = board
        self.displays = displays
        self.mqtt = mqtt
        self.notifier = notifier
        self.table = table
        self.runtime: Runtime | None = None
        self._status: tuple | None = None
        self.hall: Any = None  # HallResults, with MQTT (controller/outputs/hall_results.py)
        # `mjtable run`'s terminal (controller/cli/run_status.py): `view(public, alerts)` on
        # every view, `tick()` with the core's tick
        self.watch: Any = None

    def publish(self, public: PublicView, referee: Any, broadcast: Any) -> None:
        self.board.publish(public, referee=referee, broadcast=broadcast)
        # `public` may hold a settled deal on screen (views.ResultScreen) while the next is
        # dealt; the terminal, the seat displays and the table's status follow the table as
        # it is now
        live = (
            referee.public if isinstance(getattr(referee, "public", None), PublicView) else public
        )
        if self.watch is not None and self.runtime is not None:
            try:
                self.watch.view(live, referee.alerts)
            except Exception:
                log.exception("the terminal status failed")
        if self.displays is not None:
            self.displays.update(live)
        scores = tuple(running_score(live, s) for s in live.seats)
        status = (live.session, live.deal, live.phase, live.turn, scores, live.referee_called)
        if status != self._status:
            if status[:3] != (self._status or (None,) * 3)[:3]:
                self.notifier.status(f"{self.table}: {live.phase}, deal {live.deal}")
            self._status = status
            if self.mqtt is not None and self.runtime is not None:
                self.mqtt.publish_status(
                    live.session or None,
                    live.deal or None,
                    live.phase,
                    session_deal=live.session_deal or None,
                    session_deals=live.session_deals or None,
                    session_started=self._session_started(live.session),
                    turn=live.turn,
                    players=tuple(s.player for s in live.seats),
                    scores=scores,
                    referee_called=live.referee_called,
                )
        if self.mqtt is not None:
            self.mqtt.publish_view(public)

    def _session_started(self, session: int) -> str | None:
        """The wall time of the session's `session.started` (as the core journalled it)."""
        rt = self.runtime
        if not session or rt is None or rt.session != session:
            return None
        return rt.session_wall

    def move_accepted(self, payload: Mapping[str, Any], record: Record) -> None:
        if self.mqtt is None or self.runtime is None:
            return
        from controller.outputs.mqtt import public_event

        rt = self.runtime
        event = public_event(payload, record.seq, rt.session or 1, rt.deal_no)
        if event is not None:
            self.mqtt.publish_event(event)

    def start_hall(self, journal: Journal) -> None:
        """Every settled deal of the journal to the hall again, corrections applied."""
        if self.mqtt is None:
            return
        from controller.outputs.hall_results import HallResults

        self.hall = HallResults(journal, self.mqtt.publish_deal)
        count = self.hall.start()
        if count:
            log.info("%d settled deal(s) from the journal published to the hall", count)

    def deal_settled(self, settled: Settlement, record: Record) -> None:
        if self.mqtt is None:
            return
        from controller.journal.records import DealSettled
        from controller.outputs.hall_results import hall_deal

        result = DealSettled.from_payload(settled.payload())  # the ledger as journalled
        publish = self.hall.settled if self.hall is not None else self.mqtt.publish_deal
        publish(
            hall_deal(
                seq=record.seq,
                head=record.hash,  # the chain head when the deal settled (issue 15 item 5)
                session=settled.session or 1,
                deal=settled.deal,
                rules=settled.rules,
                dealer=settled.dealer,
                dice=settled.dice,
                players=settled.players,
                winners=result.won,
                deltas=settled.deltas,
                ledger=result.ledger,
            )
        )

    def table_back(self) -> None:
        if self.displays is not None:
            self.displays.table_back()

    def tick(self) -> None:
        self.board.tick()
        self.notifier.watchdog()
        if self.hall is not None and self.runtime is not None:
            self.hall.poll(self.runtime.clock.monotonic())
        if self.watch is not None:
            self.watch.tick()


class Daemon:
    def __init__(
        self,
        settings: Settings,
        table_url: str,
        reader_url: str,
        clock: Clock | None = None,
        notifier: Notifier | None = None,
        usb_backend: Any = None,
        watch: Any = None,
    ) -> None:
        self.settings = settings
        self.watch = watch  # views, on the core thread (AppOutputs.watch)
        self.usb_backend = usb_backend  # pyusb's backend (None: libusb; tests: the simulator's)
        self.table_url = table_url
        self.reader_url = reader_url
        self.clock = clock or SystemClock()
        self.notifier = notifier or Notifier.from_environment()
        self.journal: Journal | None = None
        self.checkpointer: Checkpointer | None = None
        self.runtime: Runtime | None = None
        self.server: WebServer | None = None
        self.links: list[Any] = []  # SerialLink, PolledReaderLink
        self.mqtt: Any = None
        self.endpoints: Endpoints | None = None
        self._closed = False
        self._lock = threading.Lock()
        # the hall's seating, when it came before the runtime was made (the retained notice
        # arrives right after the broker connects): handed to the runtime once it exists
        self._early_seating: SeatingNotice | None = None
        self.warming: threading.Thread | None = None  # building the rules engine's tables

    # --- start ------------------------------------------------------------------------------

    def start(self) -> Endpoints:
        s = self.settings
        rs, table_profile, reader_profile, tags = load_parts(s)
        table_key = _table_key(s)  # read before anything is opened: a bad key changes nothing
        usb_devices = self._usb_devices(reader_profile)  # before anything is opened
        broker = self._broker()  # a bad broker address left a new journal behind (issue 28)
        host, port = parse_listen(s.http.listen)
        limits = ServerLimits(
            connections=s.http.max_connections,
            header_timeout=s.http.header_timeout,
            idle_timeout=s.http.idle_timeout,
        )
        # the port is bound before the journal is opened: a busy port left a new, empty
        # journal behind (issue 15 item 7); the board's pages are mounted further down
        self.server = WebServer(host=host, port=port, limits=limits)
        self.server.start()
        journal_path = Path(s.table.journal)  # its folder is not created: a typo is an error
        self.journal = Journal.open(journal_path, clock=self.clock)
        self.checkpointer = Checkpointer(self.journal)
        self.checkpointer.start()
        wall = frozenset(
            a.number for a in reader_profile.antennas.values() if a.zone.kind is ZoneKind.WALL
        )
        recovered = recover(self.journal, rs, wall)
        notes: list[str] = []
        if s.simulated and recovered.session is not None:
            # the built-in simulator always starts a fresh session at deal 1: the open one
            # ends here, so the two are never mixed (issue 13 item 8)
            notes.append(end_simulated_session(self.journal, recovered))
            recovered = recover(self.journal, rs, wall)
        token = s.http.referee_token or secrets.token_urlsafe(12)
        board = Scoreboard(
            referee_token=token,
            broadcast_delay_s=s.http.broadcast_delay,
            clock=self.clock.monotonic,
            on_action=self._referee_action,
        )
        board.mount(self.server)
        driver = None if table_profile is None else TableDriver(table_profile)
        self.mqtt = self._mqtt(broker, table_key)
        if self.mqtt is not None:  # the hall's delayed feed: what /broadcast shows, when it does
            board.on_release(self.mqtt.publish_broadcast)
        outputs = AppOutputs(board, None, self.mqtt, self.notifier, s.table.name)
        outputs.watch = self.watch
        runtime = Runtime(
            rs,
            self.journal,
            self.clock,
            Recogniser(rs, reader_profile, tags),
            reader_profile,
            Debouncer(reader_profile, tags, self.clock.monotonic),
            driver,
            self._send,
            RuntimeConfig(
                table=s.table.name,
                players=tuple(s.table.players),  # type: ignore[arg-type]  # four names, checked at load
                deals=s.table.deals,
                prevalent=Seat.parse(s.table.prevalent),
                config_echo=s.echo(),
                fast_polling=s.sim.fast,
                players_by_operator=s.table.fixed_players,
            ),
            outputs=outputs,
            recovered=recovered,
        )
        outputs.runtime = runtime
        outputs.start_hall(self.journal)
        if driver is not None:  # no board, no seat displays: the scores are on the web pages
            outputs.displays = _displays(runtime, driver)
        with self._lock:
            self.runtime = runtime
            early, self._early_seating = self._early_seating, None
        if early is not None:
            runtime.put(SeatingReceived(early))
        baud = s.devices.baudrate or reader_profile.reader.baud
        # a pulled USB adapter is retried every 0.5 s at most: a cable plugged back is found
        # within half a second, and opening a missing path costs nothing
        fast = LinkConfig("", read_timeout=0.02, backoff_initial=0.1, backoff_max=0.5)
        self.links = [self._reader_link(reader_profile, usb_devices, runtime, baud, fast)]
        if table_profile is not None:
            config = replace(fast, url=self.table_url, baudrate=table_profile.table.baud)
            self.links.insert(0, SerialLink("table", config, runtime.put))
        for link in self.links:
            link.start()
        self.endpoints = Endpoints(
            scoreboard=f"{self.server.url}/",
            referee=f"{self.server.url}/referee",
            token=token,
            journal=journal_path.resolve(),
            notes=tuple(notes),
        )
        return self.endpoints

    def _usb_devices(self, profile: ReaderProfile) -> tuple[Any, ...] | None:
        """The USB devices to look for when the reader is a PN533 on USB (`usb` or
        `usb:VID:PID` with a `pn533-usb` profile), None for a serial reader; a reader
        address that does not fit its profile's model is an error naming both."""
        usb = self.reader_url == "usb" or self.reader_url.startswith("usb:")
        name = self.settings.devices.reader_profile
        if profile.reader.model is not ReaderModel.PN533_USB:
            if usb:
                raise ValueError(
                    f"[devices] reader {self.reader_url!r}: reader profile {name!r} is a "
                    f"{profile.reader.model.value} reader, not pn533-usb"
                )
            return None
        if not usb:
            raise ValueError(
                f"[devices] reader {self.reader_url!r}: reader profile {name!r} is a PN533 on "
                "USB: name the reader 'usb' or 'usb:VID:PID'"
            )
        from controller.devices.pn533_usb import parse_usb_address

        return parse_usb_address(self.reader_url)

    def _reader_link(
        self,
        profile: ReaderProfile,
        usb_devices: tuple[Any, ...] | None,
        runtime: Runtime,
        baud: int,
        fast: LinkConfig,
    ) -> Any:
        """A serial link at the profile's baud rate and parity (the reader bus: UHF or FEIG
        readers), or a PN53x polled by its driver on a thread of its own (controller/devices/
        polled_link.py): a PN533 through pyusb, a PN532 on the serial port."""
        if usb_devices is None and profile.reader.model is not ReaderModel.PN532_UART:
            parity = profile.reader.parity.pyserial
            config = replace(fast, url=self.reader_url, baudrate=baud, parity=parity)
            return SerialLink("reader", config, runtime.put)
        from controller.devices.pn53x_reader import Backoff
        from controller.devices.polled_link import PolledReaderLink

        backoff = Backoff(0.1, 0.5)  # as the serial links: a replugged reader found at once
        if usb_devices is not None:
            from controller.devices.pn533_usb import PN533Reader

            reader: Any = PN533Reader(
                backend=self.usb_backend, backoff=backoff, devices=usb_devices
            )
        else:
            from controller.devices.pn532_uart import PN532UartReader

            reader = PN532UartReader(self.reader_url, baudrate=baud, backoff=backoff)
        return PolledReaderLink(reader, runtime.put)

    def _broker(self) -> Any:
        """The hall broker's address and options, checked (ValueError); None: no hall."""
        m = self.settings.mqtt
        if not m.broker:
            return None
        from controller.hub.wire import BrokerOptions

        return BrokerOptions.parse_address(
            m.broker,
            username=m.username or None,
            password=m.password or None,
            tls_ca=Path(m.tls_ca) if m.tls_ca else None,
        )

    def _mqtt(self, options: Any, key: Any) -> Any:
        if options is None:
            return None
        from controller.outputs.mqtt import MqttPublisher

        hall, table = self.settings.mqtt.hall, self.settings.table.name
        publisher = MqttPublisher(options, hall, table, key=key, on_seating=self._seating)
        publisher.start()
        return publisher

    def _seating(self, notice: SeatingNotice) -> None:
        """The hub's seating of this table's next session (MQTT thread): to the core's queue."""
        with self._lock:
            runtime = self.runtime
            if runtime is None:
                self._early_seating = notice
                return
        runtime.put(SeatingReceived(notice))

    def _send(self, device: str, data: bytes) -> bool:
        for link in self.links:
            if link.device == device:
                return link.write(data)
        return False

    def _referee_action(self, action: RefereeAction) -> ActionResult:
        """Journal a referee action (called on a web server thread; runs on the core)."""
        runtime = self.runtime
        if runtime is None:
            return ActionResult(False, None, RejectReason.UNAVAILABLE, "starting")
        try:
            result = runtime.ask(action)
        except TimeoutError:
            return ActionResult(False, None, RejectReason.UNAVAILABLE, "the daemon is busy")
        if result is None:  # the core failed on it: journalled as an `internal-error` alert
            return ActionResult(
                False, None, RejectReason.UNAVAILABLE, "the daemon failed on this action"
            )
        return result

    # --- running ----------------------------------------------------------------------------

    def install_signals(self) -> None:
        """SIGTERM and SIGINT stop cleanly (main thread only)."""

        def on_signal(signum: int, frame: object) -> None:
            self.stop(signal.Signals(signum).name.lower())

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)

    def stop(self, reason: str) -> None:
        if self.runtime is not None:
            self.runtime.put(Stop(reason))

    def run(self) -> str:
        assert self.runtime is not None, "start() first"
        self.notifier.ready(f"{self.settings.table.name}: {self.runtime.machine.phase}")
        # the rules engine's look-up tables (0.1-0.6 s of CPU) are built beside the core now,
        # not by the core at the first hand's waits: there they held the core up once per
        # start, in the middle of a deal after a restart
        self.warming = threading.Thread(target=suit_tables.tables, name="suit-tables", daemon=True)
        self.warming.start()
        reason = self.runtime.run()
        self.notifier.stopping()
        return reason

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for link in self.links:
            link.stop()
        if self.server is not None:
            self.server.close()
        if self.mqtt is not None:
            # a table stopped while the hall broker restarts: paho's next try may be seconds
            # away (backoff 0.5, 1, 2, 4 s ...), so wait that long for the deals queued
            self.mqtt.stop(drain_timeout_s=MQTT_STOP_DRAIN_S)
        if self.checkpointer is not None:
            # a journal that refused a record (a full disk) would refuse the checkpoint too
            broken = self.runtime is not None and self.runtime.stopped == "journal-error"
            self.checkpointer.stop(final=not broken)
        if self.journal is not None:
            self.journal.close()
        self.notifier.close()


def load_parts(s: Settings) -> tuple[RuleSet, TableProfile | None, ReaderProfile, TagMap]:
    """The rule set, profiles and tag map the settings name, checked against each other;
    `mjtable run` loads them before it starts the simulator, so a typo is the daemon's
    one line, not the child's (issue 15 item 7). No table profile for a table with no
    serial link (`--table none`)."""
    rs = load_rules(s.table.rules)
    table_profile = None if s.boardless else load_table(s.devices.table_profile)
    reader_profile = load_reader(s.devices.reader_profile)
    if s.devices.declarations:  # checked when the settings were read (config.py)
        reader_profile = with_declarations(reader_profile, s.devices.declarations)
    tags = load_tags(s.tags, complete=True)
    if tags.header.tileset is not rs.tiles.set:
        raise ConfigError(
            f"tag map {s.tags} is a {tags.header.tileset.value}-tile set; rule set "
            f"{rs.name} plays {rs.tiles.set.value} tiles"
        )
    walls = any(a.zone.kind is ZoneKind.WALL for a in reader_profile.antennas.values())
    if inferred(table_profile) & {EventKind.WALLS_UP, EventKind.DICE} and not walls:
        what = (
            "a table with no serial link"
            if table_profile is None
            else f"table profile {s.devices.table_profile} (no walls-up or dice event)"
        )
        raise ConfigError(
            f"{what} needs a reader with a wall antenna, which reads the walls and the dice; "
            f"reader profile {s.devices.reader_profile} has none"
        )
    return rs, table_profile, reader_profile, tags


def _table_key(s: Settings) -> Any:
    """The table's signing key ([mqtt] key), or None: deals are then published unsigned."""
    if not (s.mqtt.broker and s.mqtt.key):
        return None
    from controller.hub.signing import TableKey, TableKeyError

    try:
        return TableKey.read(Path(s.mqtt.key))
    except TableKeyError as err:
        raise ConfigError(f"[mqtt] key: {err}") from None


def _displays(runtime: Runtime, driver: TableDriver) -> SeatDisplays:
    """The seat displays, lights and buzzer the table's board has."""
    return SeatDisplays(
        send=lambda seat, score: runtime.command(ShowScore(seat, score)),
        countdown=(lambda seat, n: runtime.command(ShowCountdown(seat, n)))
        if driver.supports(ShowCountdown)
        else None,
        light=(lambda seat, on: runtime.command(Light(seat, on)))
        if driver.supports(Light)
        else None,
        buzzer=(lambda ms: runtime.command(Buzzer(ms))) if driver.supports(Buzzer) else None,
    )


def end_simulated_session(journal: Journal, recovered: Recovered) -> str:
    """Close the session a previous run against the built-in simulator left open: its open
    deal (if any) stays unsettled, said in an alert; a new simulator plays a new session.
    Returns what happened, in words for the operator."""
    session = recovered.session
    if recovered.started is not None:
        payload = {
            "code": "deal-abandoned",
            "message": f"the built-in simulator restarted: deal {recovered.deal_no} of session "
            f"{session} stays unsettled",
            "severity": "error",
        }
        journal.append(Source.DAEMON, RecordKind.ALERT, payload, deal=recovered.deal_no)
    ending = {"session": session, "reason": "simulator-restarted"}
    journal.append(Source.DAEMON, RecordKind.SESSION_ENDED, ending)
    settled = plural(recovered.settled_in_session, "deal")
    ended = f"session {session} ends here with {settled} settled"
    if recovered.started is None:
        return f"the last run stopped between deals: {ended}; a new session starts"
    n = recovered.settled_in_session + 1
    return (
        f"the last run stopped in the middle of deal {n} of session {session} (journal deal "
        f"{recovered.deal_no}), which stays unsettled: {ended}; a new session starts"
    )
