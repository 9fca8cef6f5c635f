"""UHFReader18 / CF-RU5102 / ZK-RFID102 family: frame codec (both directions), inventory
parsing. The host-side antenna poller that turns answers into `TagsRead` events is
`controller/devices/uhf_poller.py`.

Frames (HARDWARE-NOTES; little-endian CRC, no start byte — the length byte leads)::

    host -> reader   +-----+-----+-----+----------+---------+---------+
                     | Len | Adr | Cmd | Data ... | CRC-LSB | CRC-MSB |
                     +-----+-----+-----+----------+---------+---------+
    reader -> host   +-----+-----+-------+--------+----------+---------+---------+
                     | Len | Adr | reCmd | Status | Data ... | CRC-LSB | CRC-MSB |
                     +-----+-----+-------+--------+----------+---------+---------+

    Len  = number of bytes after Len, CRC included (so a frame is Len + 1 bytes long)
    Adr  = reader address, 0xFF = broadcast (every reader answers, with its own address)
    CRC  = CRC-16/MCRF4XX (reflected poly 0x8408, preset 0xFFFF) over Len .. last data byte

Inventory (Cmd 0x01) answer data, one frame per batch of tags, in one of four layouts
(`InventoryLayout`, the reader profile's `inventory-layout`)::

    antenna-rssi  +-----+-----+--------+-----+------+--------+-----+------+
                  | Ant | Num | EPClen | EPC | RSSI | EPClen | EPC | RSSI | ...  (Num entries)
                  +-----+-----+--------+-----+------+--------+-----+------+
    antenna       Ant Num  EPClen EPC  EPClen EPC ...            (older multi-port firmware)
    plain         Num EPClen EPC  EPClen EPC ...       (UHFReader18 manual V2.0 §8.2.1)
    plain-rssi    Num EPClen EPC RSSI  EPClen EPC RSSI ...

Ant is a bitmask (0x01 antenna 1, 0x02 antenna 2, 0x04 antenna 3, 0x08 antenna 4); EPClen
counts bytes. Real capture (antenna-rssi), byte exact:
``15 00 01 03 01 01 0c e28068940000400a9d22a9eb 5d f9 c3`` = Len 0x15, Adr 0, reCmd 1,
Status 3, Ant 1, Num 1, one 12-byte EPC, RSSI 0x5d, CRC 0xC3F9. The plain layout, as an
RRU9809 answered (tests/captures/vectors): ``13 00 01 01 01 0c 4754…0001 d6 c1`` = Status 1,
Num 1, a 12-byte EPC and nothing else.

Status (UHFReader18 manual V2.0 §5, `UHFStatus`, named in words by `status_words`): 0x01
"inventory done", 0x02 "scan time ran out", 0x04 "reader buffer full" (final, may carry
tags), 0x03 "more frames follow", 0xFB "no tag operable": the final answer of an inventory
that found nothing, with no data (``05 00 01 fb f2 3d``), 0xF8 "antenna error". A reader
that does not know a command answers reCmd 0x00, Status 0xFE (§8.1).

Antenna selection: the family's multi-antenna models (UHFReader288 class) take command 0x3F
"set antenna multiplexing" with one data byte, the bitmask of antennas the next inventories
use (bit 7: the vendor SDK's "set once" flag), and answer ``05 Adr 3f 00`` (Status 0x00,
no data; vendor SDK: apiwat59/UHFG app/src/main/java/com/rfid/trans/BaseReader.java). A
UHFReader18 (one antenna, manual V2.0 lists no 0x3F) answers it ``05 Adr 00 fe``: illegal
command. The poller selects one antenna, inventories it, and moves on.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from controller.devices.crc import crc16_uhf_bytes, uhf_frame_checks
from controller.devices.skipped import SkipRun

log = logging.getLogger(__name__)

BROADCAST = 0xFF
MAX_ANTENNAS = 8  # Ant is one byte of bits
MAX_LEN = 0xFF  # Len is one byte


class UHFCmd(IntEnum):
    INVENTORY = 0x01
    SET_ANTENNA = 0x3F  # "antenna multiplexing", multi-antenna models


class UHFStatus(IntEnum):
    """Every status the UHFReader18 manual V2.0 §5 defines (words: `status_words`)."""

    SUCCESS = 0x00
    INVENTORY_DONE = 0x01
    INVENTORY_TIMEOUT = 0x02  # scan time ran out; tags read so far are in the frame
    MORE_FRAMES = 0x03
    BUFFER_FULL = 0x04  # more tags than the reader holds; those it holds are in the frame
    ACCESS_PASSWORD_ERROR = 0x05
    KILL_ERROR = 0x09
    KILL_PASSWORD_ZERO = 0x0A
    TAG_NOT_SUPPORTED = 0x0B
    ACCESS_PASSWORD_ZERO = 0x0C
    TAG_PROTECTED = 0x0D
    TAG_UNPROTECTED = 0x0E
    BYTES_LOCKED = 0x10
    CANNOT_LOCK = 0x11
    ALREADY_LOCKED = 0x12
    SAVE_FAILED = 0x13
    CANNOT_ADJUST_POWER = 0x14
    INVENTORY_6B_DONE = 0x15
    INVENTORY_6B_TIMEOUT = 0x16
    MORE_FRAMES_6B = 0x17
    BUFFER_FULL_6B = 0x18
    NOT_SUPPORTED_OR_PASSWORD_ZERO = 0x19
    ANTENNA_ERROR = 0xF8  # antenna missing or its connection failed
    COMMAND_EXECUTE_ERROR = 0xF9
    POOR_COMMUNICATION = 0xFA  # tags there, but talking to them failed
    NO_TAG = 0xFB  # "no tag operable": the final answer of an inventory that found nothing
    TAG_ERROR_CODE = 0xFC
    COMMAND_LENGTH_WRONG = 0xFD
    ILLEGAL_COMMAND = 0xFE  # unknown command or a bad CRC; reCmd 0x00
    PARAMETER_ERROR = 0xFF


_STATUS_WORDS = {
    UHFStatus.SUCCESS: "success",
    UHFStatus.INVENTORY_DONE: "inventory done",
    UHFStatus.INVENTORY_TIMEOUT: "inventory scan time ran out",
    UHFStatus.MORE_FRAMES: "more frames follow",
    UHFStatus.BUFFER_FULL: "reader buffer full",
    UHFStatus.ACCESS_PASSWORD_ERROR: "access password wrong",
    UHFStatus.KILL_ERROR: "kill failed",
    UHFStatus.KILL_PASSWORD_ZERO: "kill password cannot be zero",
    UHFStatus.TAG_NOT_SUPPORTED: "tag does not support the command",
    UHFStatus.ACCESS_PASSWORD_ZERO: "access password cannot be zero",
    UHFStatus.TAG_PROTECTED: "tag is read-protected",
    UHFStatus.TAG_UNPROTECTED: "tag is not read-protected",
    UHFStatus.BYTES_LOCKED: "some bytes locked, write failed",
    UHFStatus.CANNOT_LOCK: "cannot lock",
    UHFStatus.ALREADY_LOCKED: "already locked",
    UHFStatus.SAVE_FAILED: "saving the parameter failed",
    UHFStatus.CANNOT_ADJUST_POWER: "power cannot be adjusted",
    UHFStatus.INVENTORY_6B_DONE: "18000-6B inventory done",
    UHFStatus.INVENTORY_6B_TIMEOUT: "18000-6B inventory scan time ran out",
    UHFStatus.MORE_FRAMES_6B: "more 18000-6B frames follow",
    UHFStatus.BUFFER_FULL_6B: "reader buffer full of 18000-6B tags",
    UHFStatus.NOT_SUPPORTED_OR_PASSWORD_ZERO: "not supported, or access password zero",
    UHFStatus.ANTENNA_ERROR: "antenna error (not connected?)",
    UHFStatus.COMMAND_EXECUTE_ERROR: "command execution error",
    UHFStatus.POOR_COMMUNICATION: "tag there, communication with it failed",
    UHFStatus.NO_TAG: "no tag operable",
    UHFStatus.TAG_ERROR_CODE: "tag returned an error code",
    UHFStatus.COMMAND_LENGTH_WRONG: "command length wrong",
    UHFStatus.ILLEGAL_COMMAND: "illegal command (unknown to this reader, or a bad CRC)",
    UHFStatus.PARAMETER_ERROR: "parameter error",
}


def status_words(status: int) -> str | None:
    """`0xfb no tag operable`: the status byte and what the manual says it means; None for
    a byte no manual defines."""
    try:
        return f"0x{status:02x} {_STATUS_WORDS[UHFStatus(status)]}"
    except ValueError:
        return None


class InventoryLayout(Enum):
    """How an inventory answer's data is laid out (module docstring; a reader profile's
    `inventory-layout`)."""

    ANTENNA_RSSI = "antenna-rssi"  # Ant Num [EPClen EPC RSSI]...
    ANTENNA = "antenna"  # Ant Num [EPClen EPC]...
    PLAIN = "plain"  # Num [EPClen EPC]...  (UHFReader18 manual V2.0 §8.2.1)
    PLAIN_RSSI = "plain-rssi"  # Num [EPClen EPC RSSI]...

    @property
    def antenna_byte(self) -> bool:
        return self in (InventoryLayout.ANTENNA_RSSI, InventoryLayout.ANTENNA)

    @property
    def rssi(self) -> bool:
        return self in (InventoryLayout.ANTENNA_RSSI, InventoryLayout.PLAIN_RSSI)


class UHFErrorKind(Enum):
    """Why bytes were skipped. Counted once per resynchronisation, not once per byte."""

    SHORT_LENGTH = "short-length"  # a Len byte too small to be a frame
    BAD_CRC = "bad-crc"
    TRUNCATED = "truncated"  # the line went idle inside a frame
    MALFORMED = "malformed"  # CRC fine, content inconsistent (inventory parsing)
    REFUSED = "refused"  # a sound answer whose status says the command failed
    UNKNOWN_STATUS = "unknown-status"  # a status byte no manual defines
    WRONG_ADDRESS = "wrong-address"  # a sound frame from another reader on a shared line


@dataclass(frozen=True, slots=True)
class UHFCodecStats:
    frames: int
    bytes_in: int
    junk_bytes: int
    errors: tuple[tuple[UHFErrorKind, int], ...]

    @property
    def error_total(self) -> int:
        return sum(n for _, n in self.errors)


@dataclass(frozen=True, slots=True)
class UHFCommand:
    """Host → reader frame."""

    cmd: int  # wire byte; UHFCmd for the known ones
    data: bytes = b""
    adr: int = BROADCAST

    def encode(self) -> bytes:
        return _encode(bytes((self.adr, self.cmd)) + self.data)


@dataclass(frozen=True, slots=True)
class UHFResponse:
    """Reader → host frame."""

    cmd: int  # reCmd: the command this answers
    status: int  # wire byte; UHFStatus for the known ones
    data: bytes = b""
    adr: int = 0

    def encode(self) -> bytes:
        return _encode(bytes((self.adr, self.cmd, self.status)) + self.data)


def _encode(body: bytes) -> bytes:
    length = len(body) + 2
    if length > MAX_LEN:
        raise ValueError(f"UHF frame body of {len(body)} bytes does not fit a one-byte Len")
    head = bytes((length,)) + body
    return head + crc16_uhf_bytes(head)


def inventory_command(adr: int = BROADCAST) -> UHFCommand:
    """The minimal inventory: `04 FF 01 1B B4` for the broadcast address."""
    return UHFCommand(UHFCmd.INVENTORY, b"", adr)


def set_antenna_command(antenna: int, adr: int = BROADCAST) -> UHFCommand:
    """Select one antenna (1-based) for the following inventories (command 0x3F)."""
    return UHFCommand(UHFCmd.SET_ANTENNA, bytes((antenna_mask(antenna),)), adr)


def group_select_command(antennas: Sequence[int], adr: int = BROADCAST) -> UHFCommand:
    """Select several antennas at once (command 0x3F with the OR of their bits)."""
    mask = 0
    for a in antennas:
        mask |= antenna_mask(a)
    return UHFCommand(UHFCmd.SET_ANTENNA, bytes((mask,)), adr)


def antenna_mask(antenna: int) -> int:
    if not 1 <= antenna <= MAX_ANTENNAS:
        raise ValueError(f"antenna {antenna} out of range 1..{MAX_ANTENNAS}")
    return 1 << (antenna - 1)


def antenna_from_mask(mask: int) -> int | None:
    """1-based antenna number of a single-bit mask, None for 0 or several bits."""
    if mask == 0 or mask & (mask - 1):
        return None
    return mask.bit_length()


class _Decoder:
    """Length-prefixed CRC frame scanner shared by both directions.

    No start byte exists, so every byte is a candidate Len: a candidate whose CRC fails is
    dropped one byte at a time until a frame checks. Bytes too small to be a Len are skipped
    in one search, and a candidate's CRC is computed in C (`crc.uhf_frame_checks`), so noise
    is skipped far faster than a serial line delivers it. What is kept between reads is at
    most one frame's worth (`MAX_LEN` + 1 bytes): input is scanned a read's worth at a time.
    A run of skipped bytes is reported as its count and a short sample, never whole. Inside
    such a run (after a damaged frame) a candidate still short of its Len does not hold back
    a whole frame that checks behind it: that frame is taken at once, as a CRC-16 match
    decides a resynchronisation anywhere else.

    `flush()` is called when the line has been idle (reply timeout): a partial frame cannot
    complete any more, so it is dropped and the bytes behind its start are scanned again.
    """

    _min_len = 4
    _slice = 4096  # bytes of input scanned at a time: the buffer stays within a frame + this

    def __init__(self, device: str = "reader") -> None:
        self.device = device
        self._buf = bytearray()
        self._errors: Counter[UHFErrorKind] = Counter()
        self.error_count = 0  # every error counted, of any kind: a cheap "anything new?"
        self._frames = 0
        self._bytes_in = 0
        self._junk_bytes = 0
        self._junk = SkipRun()  # the current run of skipped bytes: count and sample
        self._candidate = re.compile(b"[\\x%02x-\\xff]" % self._min_len)

    @property
    def buffered(self) -> int:
        """Bytes held for a frame not yet complete (at most a frame's worth)."""
        return len(self._buf)

    def feed(self, data: bytes) -> list:
        self._bytes_in += len(data)
        out: list = []
        for i in range(0, len(data), self._slice):
            self._buf += data[i : i + self._slice]
            out += self._scan()
        return out

    def flush(self) -> list:
        """The line went idle: give up on a partial frame, rescan what follows its start."""
        out: list = []
        while self._buf:
            self._skip(0, 1, UHFErrorKind.TRUNCATED)
            del self._buf[:1]
            out += self._scan()
        self._junk.end(log, self.device)
        return out

    def count_error(self, kind: UHFErrorKind) -> None:
        self._errors[kind] += 1
        self.error_count += 1

    def stats(self) -> UHFCodecStats:
        errors = tuple((k, self._errors[k]) for k in UHFErrorKind if self._errors[k])
        return UHFCodecStats(self._frames, self._bytes_in, self._junk_bytes, errors)

    def _scan(self) -> list:
        out = []
        buf = self._buf
        n = len(buf)
        p = 0
        while p < n:
            m = self._candidate.search(buf, p)
            q = n if m is None else m.start()
            if q > p:
                self._skip(p, q, UHFErrorKind.SHORT_LENGTH)
                p = q
                continue
            end = p + buf[p] + 1
            if end > n:
                # wait for the rest of the candidate, unless it lies in a run of damaged
                # bytes and a whole frame that checks follows it: the frames of an answer
                # come back to back, so the one after a damaged frame is not held until
                # the line goes quiet by a byte of the damage that reads as a long Len
                behind = self._checking_frame_after(p, n) if self._junk else None
                if behind is None:
                    break
                self._skip(p, behind, UHFErrorKind.BAD_CRC)
                p = behind
                continue
            if not uhf_frame_checks(buf, p, end):
                self._skip(p, p + 1, UHFErrorKind.BAD_CRC)
                p += 1
                continue
            self._junk.end(log, self.device)
            self._frames += 1
            out.append(self._make(bytes(buf[p + 1 : end - 2])))
            p = end
        del buf[:p]
        return out

    def _checking_frame_after(self, p: int, n: int) -> int | None:
        """Where the first whole frame that checks starts in buf[p+1:n], if one does."""
        buf = self._buf
        while (m := self._candidate.search(buf, p + 1, n)) is not None:
            p = m.start()
            end = p + buf[p] + 1
            if end <= n and uhf_frame_checks(buf, p, end):
                return p
        return None

    def _skip(self, start: int, end: int, kind: UHFErrorKind) -> None:
        """Skip buf[start:end]; a new run of skipped bytes counts one error of `kind`."""
        if not self._junk:
            self._errors[kind] += 1
            self.error_count += 1
        self._junk.add(self._buf[start:end])
        self._junk_bytes += end - start

    def _make(self, body: bytes):  # pragma: no cover - overridden
        raise NotImplementedError


class ResponseDecoder(_Decoder):
    """Host side: bytes from the reader → `UHFResponse` frames."""

    _min_len = 5  # Adr reCmd Status CRC CRC

    def feed(self, data: bytes) -> list[UHFResponse]:
        return super().feed(data)

    def flush(self) -> list[UHFResponse]:
        return super().flush()

    def _make(self, body: bytes) -> UHFResponse:
        return UHFResponse(cmd=body[1], status=body[2], data=bytes(body[3:]), adr=body[0])


class CommandDecoder(_Decoder):
    """Reader side (simulator): bytes from the host → `UHFCommand` frames."""

    _min_len = 4  # Adr Cmd CRC CRC

    def feed(self, data: bytes) -> list[UHFCommand]:
        return super().feed(data)

    def flush(self) -> list[UHFCommand]:
        return super().flush()

    def _make(self, body: bytes) -> UHFCommand:
        return UHFCommand(cmd=body[1], data=bytes(body[2:]), adr=body[0])


# --- inventory answers ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EpcRead:
    epc: bytes
    rssi: int | None = None


@dataclass(frozen=True, slots=True)
class InventoryReply:
    """One inventory answer frame, decoded."""

    status: UHFStatus
    antenna: int | None  # 1-based; None when the frame carries no (single-bit) Ant
    tags: tuple[EpcRead, ...] = ()

    @property
    def final(self) -> bool:
        return self.status is not UHFStatus.MORE_FRAMES


@dataclass(frozen=True, slots=True)
class Malformed:
    """A frame whose CRC checks but whose content does not parse."""

    detail: str


# the answers an inventory ends with; all but NO_TAG and ANTENNA_ERROR may carry tags
FINAL_INVENTORY_STATUSES = frozenset(
    {
        UHFStatus.INVENTORY_DONE,
        UHFStatus.INVENTORY_TIMEOUT,
        UHFStatus.BUFFER_FULL,
        UHFStatus.NO_TAG,
        UHFStatus.ANTENNA_ERROR,
    }
)
_INVENTORY_STATUS_BYTES = frozenset(int(s) for s in FINAL_INVENTORY_STATUSES) | {
    int(UHFStatus.MORE_FRAMES)
}


def inventory_fields(
    resp: UHFResponse, layout: InventoryLayout = InventoryLayout.ANTENNA_RSSI
) -> tuple[int, int | None, list[bytes], list[int]] | str:
    """An inventory answer's status byte, antenna (None: no single-bit Ant, or a layout
    without one), EPCs and RSSI bytes (empty without RSSI), or what is wrong with it: the
    poller's parse, building no object per tag. "No tag operable" (0xFB) is an empty final
    answer."""
    if resp.cmd != UHFCmd.INVENTORY:
        return f"reCmd 0x{resp.cmd:02x} is not an inventory answer"
    status = resp.status
    if status not in _INVENTORY_STATUS_BYTES:
        words = status_words(status)
        return f"status {words} on an inventory" if words else f"unknown status 0x{status:02x}"
    data = resp.data
    if not data or status == UHFStatus.NO_TAG:
        # an antenna error or an empty timeout may come without Ant/Num; "no tag operable"
        # carries no tags whatever follows it
        return status, None, [], []
    size = len(data)
    antenna = None
    pos = 0
    if layout.antenna_byte:
        if size < 2:
            return "no tag count"
        mask = data[0]
        antenna = mask.bit_length() if mask and not mask & (mask - 1) else None
        pos = 1
    count = data[pos]
    pos += 1
    epcs: list[bytes] = []
    rssis: list[int] = []
    extra = 1 if layout.rssi else 0
    for _ in range(count):
        if pos >= size:
            return f"{count} tags announced, {len(epcs)} present"
        n = data[pos]
        end = pos + 1 + n + extra
        if end > size:
            return f"EPC of {n} bytes overruns the frame"
        epcs.append(data[pos + 1 : pos + 1 + n])
        if extra:
            rssis.append(data[end - 1])
        pos = end
    if pos != size:
        return f"{size - pos} trailing bytes"
    return status, antenna, epcs, rssis


def parse_inventory(
    resp: UHFResponse, layout: InventoryLayout = InventoryLayout.ANTENNA_RSSI
) -> InventoryReply | Malformed:
    parsed = inventory_fields(resp, layout)
    if isinstance(parsed, str):
        return Malformed(parsed)
    status, antenna, epcs, rssis = parsed
    if not layout.rssi:
        tags = tuple(EpcRead(e, None) for e in epcs)
    else:
        tags = tuple(EpcRead(e, r) for e, r in zip(epcs, rssis, strict=True))
    return InventoryReply(UHFStatus(status), antenna, tags)


def layouts_of(resp: UHFResponse) -> frozenset[InventoryLayout]:
    """The layouts an inventory answer that carries tags parses in (`mjtable probe` tells a
    reader's layout from them); empty for an answer without tags. A reading counts only if
    every EPC it finds has a word or more: ``01 00`` (antenna 1, no tags) would otherwise
    read as the plain layout's one empty EPC."""
    found = set()
    for layout in InventoryLayout:
        parsed = inventory_fields(resp, layout)
        if not isinstance(parsed, str) and parsed[2] and all(len(e) >= 2 for e in parsed[2]):
            found.add(layout)
    return frozenset(found)


def inventory_responses(
    antenna: int,
    tags: Sequence[EpcRead],
    adr: int = 0,
    with_rssi: bool = True,
    final: UHFStatus = UHFStatus.INVENTORY_DONE,
    more: bool = False,
    antenna_byte: bool = True,
) -> list[UHFResponse]:
    """Reader side: the answer frames for `tags` seen on `antenna`, split so each fits a
    one-byte Len; every frame but the last says MORE_FRAMES (the last too when `more`, as
    when another antenna's frames follow). Without `antenna_byte`: the plain layouts."""
    mask = antenna_mask(antenna)
    room = MAX_LEN - 2 - 5  # Len budget minus Adr reCmd Status Ant Num and the CRC
    batches: list[list[EpcRead]] = [[]]
    used = 0
    for tag in tags:
        size = 1 + len(tag.epc) + (1 if with_rssi else 0)
        if size > room:
            raise ValueError(f"EPC of {len(tag.epc)} bytes cannot fit one frame")
        if used + size > room or len(batches[-1]) == 0xFF:
            batches.append([])
            used = 0
        batches[-1].append(tag)
        used += size
    frames = []
    for i, batch in enumerate(batches):
        last = i == len(batches) - 1
        status = final if last and not more else UHFStatus.MORE_FRAMES
        body = bytearray((mask, len(batch)) if antenna_byte else (len(batch),))
        for tag in batch:
            body += bytes((len(tag.epc),)) + tag.epc
            if with_rssi:
                body.append(tag.rssi if tag.rssi is not None else 0)
        frames.append(UHFResponse(UHFCmd.INVENTORY, status, bytes(body), adr))
    return frames
