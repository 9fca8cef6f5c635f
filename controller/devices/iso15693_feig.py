"""FEIG OBID i-scan ISO 15693 readers (ID ISC.MR101 / PR101 / PRH101 class, RS-232/RS-485 or
USB serial): the frame codec (both directions), the ISO host inventory, and a sans-I/O poller
that turns inventories into `TagsRead`. For tiles that carry HF ISO 15693 tags (NXP ICODE),
which no PN53x reads.

Why this part: its host protocol is published (FEIG "System-Manual ID ISC.MR/PR/PRH101",
H60301-3e-ID-B), it runs over a serial line as the UHF family does (so the simulator can
answer on a pty through the same `SerialLink` the daemon uses), the reader does the ISO 15693
anticollision itself and lists every tag in its field (a zone holds many tiles), and each
reader has a bus address (COM-ADR), so several share one RS-485 line. A PN5180 on the Pi's
SPI would need the host to run the anticollision and has no line the simulator can stand on.

Standard protocol frame (System-Manual §3.2; LSB of the CRC first)::

    host -> reader   +--------+---------+--------------+----------+---------+---------+
                     | LENGTH | COM-ADR | CONTROL-BYTE | DATA ... | CRC-LSB | CRC-MSB |
                     +--------+---------+--------------+----------+---------+---------+
    reader -> host   +--------+---------+--------------+--------+----------+---------+---------+
                     | LENGTH | COM-ADR | CONTROL-BYTE | STATUS | DATA ... | CRC-LSB | CRC-MSB |
                     +--------+---------+--------------+--------+----------+---------+---------+

    LENGTH   = every byte of the frame, LENGTH and CRC included (6..255; longer answers come
               in the advanced frame, STX 0x02 and a 2-byte length, which a host that asks
               in the standard frame gets only past 255 bytes: not used here)
    COM-ADR  = the reader's bus address 0..254; 255 reaches any reader
    CRC16    = polynomial 0x8408 (x^16 + x^12 + x^5 + 1, backward), start 0xFFFF, over bytes
               1..n-2: the UHF family's CRC-16/MCRF4XX (controller/devices/crc.py)

ISO host command [0xB0], Inventory (System-Manual §6.1.1)::

    request data    0x01 MODE                MODE bit 7 MORE: b0 a new inventory, b1 the data
                                             sets left over after STATUS 0x94
    response data   DATA-SETS { TR-TYPE DSFID UID(8) } x DATA-SETS      (UID MSB first)

STATUS (Annex D): 0x00 OK, 0x01 no transponder (nothing in the field: an empty antenna),
0x02 data false (CRC error on the tag's answer), 0x03 write error, 0x04 address error, 0x05
wrong transponder type, 0x94 more data sets to fetch (MORE), 0x95 ISO 15693 error. Other
bytes are counted as unknown, logged once.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass
from enum import Enum, IntEnum

from controller.devices.crc import crc16_uhf_bytes, uhf_frame_checks
from controller.devices.events import FrameError, TagsRead
from controller.devices.skipped import SkipRun, debug_hex

log = logging.getLogger(__name__)

ANY_READER = 0xFF
ISO_HOST_COMMAND = 0xB0
INVENTORY = 0x01
MORE = 0x80  # MODE bit 7
UID_SIZE = 8
MIN_LENGTH = 6  # LENGTH COM-ADR CONTROL STATUS CRC CRC (a request: 5, with no data)
MAX_LENGTH = 0xFF


class FeigStatus(IntEnum):
    OK = 0x00
    NO_TRANSPONDER = 0x01
    DATA_FALSE = 0x02
    WRITE_ERROR = 0x03
    ADDRESS_ERROR = 0x04
    WRONG_TRANSPONDER_TYPE = 0x05
    MORE_DATA = 0x94
    ISO_ERROR = 0x95


_WORDS = {
    FeigStatus.OK: "ok",
    FeigStatus.NO_TRANSPONDER: "no transponder",
    FeigStatus.DATA_FALSE: "data false (CRC error on the tag's answer)",
    FeigStatus.WRITE_ERROR: "write error",
    FeigStatus.ADDRESS_ERROR: "address error",
    FeigStatus.WRONG_TRANSPONDER_TYPE: "wrong transponder type",
    FeigStatus.MORE_DATA: "more data sets",
    FeigStatus.ISO_ERROR: "ISO 15693 error",
}


def status_words(status: int) -> str | None:
    """`0x01 no transponder`; None for a byte the manual does not define."""
    try:
        return f"0x{status:02x} {_WORDS[FeigStatus(status)]}"
    except ValueError:
        return None


class FeigErrorKind(Enum):
    SHORT_LENGTH = "short-length"
    BAD_CRC = "bad-crc"
    TRUNCATED = "truncated"
    MALFORMED = "malformed"
    REFUSED = "refused"
    UNKNOWN_STATUS = "unknown-status"


@dataclass(frozen=True, slots=True)
class FeigRequest:
    """Host → reader frame."""

    control: int
    data: bytes = b""
    adr: int = ANY_READER

    def encode(self) -> bytes:
        return _encode(bytes((self.adr, self.control)) + self.data)


@dataclass(frozen=True, slots=True)
class FeigResponse:
    """Reader → host frame."""

    control: int
    status: int
    data: bytes = b""
    adr: int = 0

    def encode(self) -> bytes:
        return _encode(bytes((self.adr, self.control, self.status)) + self.data)


def _encode(body: bytes) -> bytes:
    length = len(body) + 3  # LENGTH itself and the CRC
    if length > MAX_LENGTH:
        raise ValueError(f"a standard FEIG frame holds 255 bytes, not {length}")
    head = bytes((length,)) + body
    return head + crc16_uhf_bytes(head)


def inventory_request(adr: int = ANY_READER, more: bool = False) -> FeigRequest:
    """[0xB0] 0x01 MODE: `07 ff b0 01 00 CRC` for a new inventory at any reader."""
    return FeigRequest(ISO_HOST_COMMAND, bytes((INVENTORY, MORE if more else 0x00)), adr)


@dataclass(frozen=True, slots=True)
class Transponder:
    tr_type: int  # bits 7-6 RF technology (b00 13.56 MHz), bits 3-0 the type number (Annex A)
    dsfid: int
    uid: bytes  # 8 bytes, MSB first: an NXP ICODE UID reads e0 04 ...


def inventory_response(
    tags: list[Transponder], adr: int = 0, status: int = FeigStatus.OK
) -> FeigResponse:
    """Reader side (simulator, tests): one answer listing `tags`."""
    if not tags and status == FeigStatus.OK:
        return FeigResponse(ISO_HOST_COMMAND, FeigStatus.NO_TRANSPONDER, b"", adr)
    body = bytearray((len(tags),))
    for t in tags:
        if len(t.uid) != UID_SIZE:
            raise ValueError(f"an ISO 15693 UID has {UID_SIZE} bytes, not {len(t.uid)}")
        body += bytes((t.tr_type, t.dsfid)) + t.uid
    return FeigResponse(ISO_HOST_COMMAND, status, bytes(body), adr)


def parse_inventory(resp: FeigResponse) -> list[Transponder] | str:
    """The data sets of an OK or MORE_DATA inventory answer, or what is wrong with them."""
    d = resp.data
    if not d:
        return "no DATA-SETS byte"
    count, pos = d[0], 1
    out: list[Transponder] = []
    for _ in range(count):
        end = pos + 2 + UID_SIZE
        if end > len(d):
            return f"{count} data sets announced, {len(out)} present"
        out.append(Transponder(d[pos], d[pos + 1], bytes(d[pos + 2 : end])))
        pos = end
    if pos != len(d):
        return f"{len(d) - pos} trailing bytes"
    return out


class _Scanner:
    """LENGTH-prefixed CRC frames with no start byte: every byte is a candidate LENGTH; a
    candidate whose CRC fails is dropped one byte at a time. `flush()` after the line went
    idle gives up a partial frame and rescans what follows its start."""

    def __init__(self, device: str, min_length: int) -> None:
        self.device = device
        self._buf = bytearray()
        self._junk = SkipRun()
        self.errors: Counter[FeigErrorKind] = Counter()
        self.skips = 0  # runs of skipped bytes (a resynchronisation each)
        self.frames = 0
        self._min = min_length
        self._candidate = re.compile(b"[\\x%02x-\\xff]" % min_length)

    def feed(self, data: bytes) -> list[bytes]:
        self._buf += data
        return self._scan()

    def flush(self) -> list[bytes]:
        out: list[bytes] = []
        while self._buf:
            self._skip(1, FeigErrorKind.TRUNCATED)
            out += self._scan()
        self._junk.end(log, self.device)
        return out

    def _scan(self) -> list[bytes]:
        out = []
        buf = self._buf
        while buf:
            m = self._candidate.search(buf)
            if m is None or m.start():
                self._skip(len(buf) if m is None else m.start(), FeigErrorKind.SHORT_LENGTH)
                continue
            end = buf[0]
            if end > len(buf):
                break  # the rest of the candidate is still on its way
            if not uhf_frame_checks(buf, 0, end):
                self._skip(1, FeigErrorKind.BAD_CRC)
                continue
            self._junk.end(log, self.device)
            self.frames += 1
            out.append(bytes(buf[1 : end - 2]))
            del buf[:end]
        return out

    def _skip(self, n: int, kind: FeigErrorKind) -> None:
        if not self._junk:
            self.errors[kind] += 1
            self.skips += 1
        self._junk.add(self._buf[:n])
        del self._buf[:n]


class ResponseDecoder:
    """Host side: bytes from the reader → `FeigResponse`."""

    def __init__(self, device: str = "reader") -> None:
        self.scanner = _Scanner(device, MIN_LENGTH)

    def feed(self, data: bytes) -> list[FeigResponse]:
        return [self._make(b) for b in self.scanner.feed(data)]

    def flush(self) -> list[FeigResponse]:
        return [self._make(b) for b in self.scanner.flush()]

    @staticmethod
    def _make(body: bytes) -> FeigResponse:
        return FeigResponse(body[1], body[2], body[3:], body[0])


class RequestDecoder:
    """Reader side (simulator): bytes from the host → `FeigRequest`."""

    def __init__(self, device: str = "sim-feig") -> None:
        self.scanner = _Scanner(device, MIN_LENGTH - 1)

    def feed(self, data: bytes) -> list[FeigRequest]:
        return [FeigRequest(b[1], b[2:], b[0]) for b in self.scanner.feed(data)]


@dataclass(frozen=True, slots=True)
class FeigStep:
    events: tuple[TagsRead | FrameError, ...] = ()
    send: bytes = b""


class FeigPoller:
    """Sans-I/O: one inventory at a time at reader `adr`, data sets fetched with MORE while
    the reader says 0x94, then one `TagsRead` for its antenna (`antenna`). "No transponder"
    is an empty antenna; a failing or unknown status is counted, logged once and the next
    inventory asked; silence for `reply_timeout` is reported and the next one asked."""

    def __init__(
        self,
        adr: int = ANY_READER,
        antenna: int = 1,
        reply_timeout: float = 0.5,
        device: str = "reader",
        idle_gap: float = 0.03,
    ) -> None:
        if not 0 <= adr <= ANY_READER:
            raise ValueError("COM-ADR is 0..255")
        self.adr = adr
        self.antenna = antenna
        self.reply_timeout = reply_timeout
        # seconds of silence after an answer's last byte that end it: a frame still held
        # back by a damaged LENGTH is let go (flush) instead of waiting for the timeout
        self.idle_gap = idle_gap
        self.device = device
        self._heard: float | None = None
        self.decoder = ResponseDecoder(device)
        self.timeouts = 0
        self._found: list[bytes] = []
        self._deadline = 0.0
        self._logged: set[int] = set()

    def start(self, t: float) -> FeigStep:
        self.decoder.flush()
        return FeigStep(send=self._ask(t))

    def feed(self, t: float, data: bytes) -> FeigStep:
        if data:
            self._heard = t
        return self._handle(t, lambda: self.decoder.feed(data))

    def tick(self, t: float) -> FeigStep:
        if self._heard is not None and t - self._heard >= self.idle_gap:
            self._heard = None
            step = self._handle(t, self.decoder.flush)
            if step.send:
                return step
        if t < self._deadline:
            return FeigStep()
        self.decoder.flush()
        self.timeouts += 1
        error = FrameError(t, self.device, f"no answer from reader 0x{self.adr:02x}")
        return FeigStep((error,), self._ask(t))

    def _handle(self, t: float, frames) -> FeigStep:
        before = self.decoder.scanner.skips
        events: list[TagsRead | FrameError] = []
        send = b""
        for resp in frames():
            step_events, step_send = self._on_frame(t, resp)
            events += step_events
            send += step_send
        damaged = self.decoder.scanner.skips - before
        events[:0] = [FrameError(t, self.device, "damaged frame skipped")] * damaged
        return FeigStep(tuple(events), send)

    def _ask(self, t: float, more: bool = False) -> bytes:
        if not more:
            self._found = []
        self._deadline = t + self.reply_timeout
        return inventory_request(self.adr, more).encode()

    def _on_frame(self, t: float, resp: FeigResponse) -> tuple[list, bytes]:
        if resp.control != ISO_HOST_COMMAND or (self.adr != ANY_READER and resp.adr != self.adr):
            self.decoder.scanner.errors[FeigErrorKind.MALFORMED] += 1
            detail = f"unexpected answer 0x{resp.control:02x} from 0x{resp.adr:02x}"
            return [FrameError(t, self.device, detail, resp.encode())], b""
        if resp.status == FeigStatus.NO_TRANSPONDER:
            return self._done(t)
        if resp.status in (FeigStatus.OK, FeigStatus.MORE_DATA):
            parsed = parse_inventory(resp)
            if isinstance(parsed, str):
                self.decoder.scanner.errors[FeigErrorKind.MALFORMED] += 1
                debug_hex(log, f"{self.device}: malformed inventory {parsed}", resp.encode())
                return [FrameError(t, self.device, parsed, resp.encode())], self._ask(t)
            self._found += [x.uid for x in parsed]
            if resp.status == FeigStatus.MORE_DATA:
                return [], self._ask(t, more=True)
            return self._done(t)
        words = status_words(resp.status)
        kind = FeigErrorKind.REFUSED if words else FeigErrorKind.UNKNOWN_STATUS
        self.decoder.scanner.errors[kind] += 1
        reason = f"inventory: {words or f'unknown status 0x{resp.status:02x}'}"
        if resp.status not in self._logged:
            self._logged.add(resp.status)
            log.warning("%s: %s (further such answers are counted)", self.device, reason)
        return [FrameError(t, self.device, reason, resp.encode())], self._ask(t)

    def _done(self, t: float) -> tuple[list, bytes]:
        read = TagsRead(t, self.antenna, tuple(self._found))
        return [read], self._ask(t)
