"""The host side of the UHFReader18 / CF-RU5102 family (frames and inventories:
`controller/devices/uhf_reader.py`): a sans-I/O poller that cycles through a reader's
antennas — select (0x3F), inventory (0x01), collect frames until a final status — and turns
the answers into one `TagsRead` per antenna, or `FrameError`s."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from enum import Enum

from controller.devices.events import FrameError, TagsRead
from controller.devices.skipped import debug_hex
from controller.devices.uhf_reader import (
    BROADCAST,
    FINAL_INVENTORY_STATUSES,
    InventoryLayout,
    ResponseDecoder,
    UHFCmd,
    UHFCodecStats,
    UHFErrorKind,
    UHFResponse,
    UHFStatus,
    antenna_mask,
    group_select_command,
    inventory_command,
    inventory_fields,
    set_antenna_command,
    status_words,
)

log = logging.getLogger(__name__)

ReaderEvent = TagsRead | FrameError


@dataclass(frozen=True, slots=True)
class PollerConfig:
    antennas: tuple[int, ...] = (1, 2, 3, 4)
    adr: int = BROADCAST
    reply_timeout: float = 0.5  # seconds without an answer before moving on
    # seconds of silence after the answer's last byte that end it: an answer comes as one
    # burst, so a frame still incomplete (a damaged Len) or an answer without its final
    # frame (a damaged CRC) is over once the line has been quiet this long (a USB serial
    # adapter adds up to 16 ms between chunks) instead of at `reply_timeout`
    idle_gap: float = 0.03
    layout: InventoryLayout = InventoryLayout.ANTENNA_RSSI  # of the inventory answers
    select_antenna: bool = True  # False for single-antenna readers: no 0x3F command
    # True: one 0x3F with the mask of every antenna, then one inventory reads them all (each
    # antenna's tags in frames of their own Ant bit); every selected antenna is reported,
    # empty when no frame named it. One command pair per cycle instead of one per antenna.
    together: bool = False
    base: int = 0  # added to a port's number in the `TagsRead` (a reader bus's address · 8)

    def __post_init__(self) -> None:
        if not self.antennas:
            raise ValueError("at least one antenna to poll")
        for a in self.antennas:
            antenna_mask(a)
        if not 0 < self.reply_timeout <= 10:
            raise ValueError("reply_timeout must be in (0, 10] seconds")
        if not 0 < self.idle_gap <= self.reply_timeout:
            raise ValueError("idle_gap must be in (0, reply_timeout] seconds")
        if self.together and not self.layout.antenna_byte:
            raise ValueError(
                f"the {self.layout.value} layout names no antenna: one inventory per antenna"
            )


@dataclass(frozen=True, slots=True)
class PollStep:
    """What the poller wants done: events to publish and bytes to write (maybe none)."""

    events: tuple[ReaderEvent, ...] = ()
    send: bytes = b""


class _Phase(Enum):
    IDLE = "idle"
    SELECTING = "selecting"
    INVENTORY = "inventory"


@dataclass(slots=True)
class _Pending:
    antenna: int
    # antenna → (EPCs, RSSIs) read so far in this answer
    found: dict[int, tuple[list[bytes], list[int]]] = field(default_factory=dict)


_IDLE = PollStep()
_INVENTORY_STATUSES = frozenset(int(s) for s in FINAL_INVENTORY_STATUSES) | {
    int(UHFStatus.MORE_FRAMES)
}


class UHFPoller:
    """Sans-I/O driver: cycles through the antennas — select (0x3F), inventory (0x01),
    collect frames until a final status — and reports one `TagsRead` per antenna.

    The caller writes `PollStep.send`, feeds what it reads into `feed()`, and calls
    `tick()` now and then so a silent reader is noticed. All times come from the caller.
    """

    def __init__(self, config: PollerConfig | None = None, device: str = "reader") -> None:
        self.config = config or PollerConfig()
        self.device = device
        self.decoder = ResponseDecoder(device)
        self.timeouts = 0
        self.antenna_errors = 0
        self.refusals = 0  # answers whose status says the command failed
        self._logged: set[tuple[int, int]] = set()  # (reCmd, status) already logged
        self._phase = _Phase.IDLE
        self._index = 0
        self._deadline = 0.0
        self._heard: float | None = None  # when the current answer's last bytes came
        self._pending = _Pending(self.config.antennas[0])

    def start(self, t: float) -> PollStep:
        """Begin (or restart, after a reconnect) the antenna cycle."""
        self._index = 0
        self.decoder.flush()
        return PollStep(send=self._begin(t))

    def feed(self, t: float, data: bytes) -> PollStep:
        if data:
            self._heard = t
        decoder = self.decoder
        count = decoder.error_count
        before = decoder.stats().errors if count else ()
        frames = decoder.feed(data)
        events: list[ReaderEvent] = (
            self._codec_errors(t, before) if decoder.error_count != count else []
        )
        send = b""
        for resp in frames:
            step_events, step_send = self._on_frame(t, resp)
            if step_events:
                events += step_events
            send += step_send
        if not events and not send:
            return _IDLE
        return PollStep(tuple(events), send)

    def tick(self, t: float) -> PollStep:
        if self._phase is _Phase.IDLE:
            return _IDLE
        quiet = self._heard is not None and t - self._heard >= self.config.idle_gap
        if t < self._deadline and not quiet:
            return _IDLE
        before = self.decoder.stats().errors
        frames = self.decoder.flush()  # a bogus Len may have been holding an answer back
        events = self._codec_errors(t, before)
        if frames:
            send = b""
            for resp in frames:
                step_events, step_send = self._on_frame(t, resp)
                events += step_events
                send += step_send
            if send or not quiet:
                return PollStep(tuple(events), send)
        self.timeouts += 1
        what = "an incomplete answer" if quiet else "no reply"
        events.append(FrameError(t, self.device, f"{what} on antenna {self._pending.antenna}"))
        self._advance()
        return PollStep(tuple(events), self._begin(t))

    def stats(self) -> UHFCodecStats:
        return self.decoder.stats()

    def cycle_start(self) -> bytes:
        """The command that starts a cycle of the antennas (a bus of pollers watches for it
        to tell that this poller has gone round)."""
        config = self.config
        if config.together:
            return group_select_command(config.antennas, config.adr).encode()
        if config.select_antenna:
            return set_antenna_command(config.antennas[0], config.adr).encode()
        return inventory_command(config.adr).encode()

    def _begin(self, t: float) -> bytes:
        antenna = self.config.antennas[self._index]
        self._pending = _Pending(antenna)
        self._heard = None
        self._deadline = t + self.config.reply_timeout
        if self.config.together:
            self._phase = _Phase.SELECTING
            return group_select_command(self.config.antennas, self.config.adr).encode()
        if self.config.select_antenna:
            self._phase = _Phase.SELECTING
            return set_antenna_command(antenna, self.config.adr).encode()
        self._phase = _Phase.INVENTORY
        return inventory_command(self.config.adr).encode()

    def _advance(self) -> None:
        if self.config.together:
            return  # one step per cycle
        self._index = (self._index + 1) % len(self.config.antennas)

    def _on_frame(self, t: float, resp: UHFResponse) -> tuple[list[ReaderEvent], bytes]:
        adr = self.config.adr
        if adr != BROADCAST and resp.adr != adr:
            # polled by address, another address answering is another reader on the same
            # line (a late answer to its own poll): its tags are not this reader's antennas'
            self.decoder.count_error(UHFErrorKind.WRONG_ADDRESS)
            detail = f"answer from reader address 0x{resp.adr:02x}, polling 0x{adr:02x}"
            return [FrameError(t, self.device, detail, resp.encode())], b""
        if resp.cmd == 0x00 and resp.status == UHFStatus.ILLEGAL_COMMAND:
            # the reader does not know the command it was sent (manual V2.0 §8.1: reCmd 0)
            asked = "antenna selection (0x3f)" if self._phase is _Phase.SELECTING else "0x01"
            hint = (
                ": a single-antenna reader? its profile wants select-antenna = false"
                if self._phase is _Phase.SELECTING
                else ""
            )
            return self._refused(t, resp, f"reader refuses {asked}: {status_words(0xFE)}{hint}")
        if self._phase is _Phase.SELECTING and resp.cmd == UHFCmd.SET_ANTENNA:
            if resp.status != UHFStatus.SUCCESS:
                self.antenna_errors += 1
                words = status_words(resp.status) or f"unknown status 0x{resp.status:02x}"
                reason = f"antenna {self._pending.antenna} not selectable ({words})"
                return self._refused(t, resp, reason)
            self._phase = _Phase.INVENTORY
            self._deadline = t + self.config.reply_timeout
            self._heard = None
            return [], inventory_command(self.config.adr).encode()
        if self._phase is _Phase.INVENTORY and resp.cmd == UHFCmd.INVENTORY:
            return self._on_inventory(t, resp)
        self.decoder.count_error(UHFErrorKind.MALFORMED)
        detail = f"unexpected answer to 0x{resp.cmd:02x} in {self._phase.value}"
        return [FrameError(t, self.device, detail, resp.encode())], b""

    def _refused(self, t: float, resp: UHFResponse, reason: str) -> tuple[list[ReaderEvent], bytes]:
        """A final answer that says the command failed: counted, logged once per reCmd and
        status (an unknown status counted as such), reported, and the next antenna asked."""
        known = status_words(resp.status) is not None
        self.decoder.count_error(UHFErrorKind.REFUSED if known else UHFErrorKind.UNKNOWN_STATUS)
        self.refusals += 1
        key = (resp.cmd, resp.status)
        if key not in self._logged:
            self._logged.add(key)
            log.warning(
                "%s: %s (further such answers are counted, not logged)", self.device, reason
            )
        self._advance()
        return [FrameError(t, self.device, reason, resp.encode())], self._begin(t)

    def _on_inventory(self, t: float, resp: UHFResponse) -> tuple[list[ReaderEvent], bytes]:
        pending = self._pending
        layout = self.config.layout
        if resp.status not in _INVENTORY_STATUSES:
            words = status_words(resp.status) or f"unknown status 0x{resp.status:02x}"
            return self._refused(t, resp, f"inventory of antenna {pending.antenna}: {words}")
        parsed = inventory_fields(resp, layout)
        if isinstance(parsed, str):
            self.decoder.count_error(UHFErrorKind.MALFORMED)
            debug_hex(log, f"{self.device}: malformed inventory {parsed}", resp.encode())
            return [FrameError(t, self.device, parsed, resp.encode())], b""
        status, antenna, epcs, rssis = parsed
        if status == UHFStatus.ANTENNA_ERROR:
            self.antenna_errors += 1
            self._advance()
            reason = f"antenna error on antenna {pending.antenna}"
            return [FrameError(t, self.device, reason, resp.encode())], self._begin(t)
        # The Ant bits name the antenna that read the tags; trust them over our selection.
        antenna = antenna or pending.antenna
        found = pending.found.get(antenna)
        if found is None:
            pending.found[antenna] = found = ([], [])
        found[0].extend(epcs)
        found[1].extend(rssis)
        self._deadline = t + self.config.reply_timeout
        if status == UHFStatus.MORE_FRAMES:
            return [], b""
        # a final answer, "no tag operable" (0xFB) among them: an antenna nothing named is empty
        for selected in self.config.antennas if self.config.together else (pending.antenna,):
            if selected not in pending.found:
                pending.found[selected] = ([], [])
        base = self.config.base
        events: list[ReaderEvent] = [
            TagsRead(t, a + base, tuple(e), tuple(r) if layout.rssi else ())
            for a, (e, r) in sorted(pending.found.items())
        ]
        self._advance()
        return events, self._begin(t)

    def _codec_errors(
        self, t: float, before: tuple[tuple[UHFErrorKind, int], ...]
    ) -> list[ReaderEvent]:
        old = dict(before)
        return [
            FrameError(t, self.device, kind.value)
            for kind, n in self.decoder.stats().errors
            for _ in range(n - old.get(kind, 0))
        ]
