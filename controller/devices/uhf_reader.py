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

Inventory (Cmd 0x01) answer data, one frame per batch of tags::

    +-----+-----+--------+-----+------+--------+-----+------+
    | Ant | Num | EPClen | EPC | RSSI | EPClen | EPC | RSSI | ...   (Num entries)
    +-----+-----+--------+-----+------+--------+-----+------+

Ant is a bitmask (0x01 antenna 1, 0x02 antenna 2, 0x04 antenna 3, 0x08 antenna 4). Status
0x03 means "more frames follow", 0x01 "inventory done", 0x02 "inventory time ran out" (both
final, both may carry tags), 0xF8 "antenna error". Real capture, byte exact:
``15 00 01 03 01 01 0c e28068940000400a9d22a9eb 5d f9 c3`` = Len 0x15, Adr 0, reCmd 1,
Status 3, Ant 1, Num 1, one 12-byte EPC, RSSI 0x5d, CRC 0xC3F9. Older firmware sends no
RSSI byte (`with_rssi=False`).

Antenna selection: the family's multi-antenna models take command 0x3F "set antenna
multiplexing" with one data byte, the bitmask of antennas the next inventories use; the
reader answers Status 0x00. The poller selects one antenna, inventories it, and moves on.
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
    SUCCESS = 0x00
    INVENTORY_DONE = 0x01
    INVENTORY_TIMEOUT = 0x02  # scan time ran out; tags read so far are in the frame
    MORE_FRAMES = 0x03
    ANTENNA_ERROR = 0xF8  # antenna missing or its connection failed
    ILLEGAL_COMMAND = 0xFE
    PARAMETER_ERROR = 0xFF


class UHFErrorKind(Enum):
    """Why bytes were skipped. Counted once per resynchronisation, not once per byte."""

    SHORT_LENGTH = "short-length"  # a Len byte too small to be a frame
    BAD_CRC = "bad-crc"
    TRUNCATED = "truncated"  # the line went idle inside a frame
    MALFORMED = "malformed"  # CRC fine, content inconsistent (inventory parsing)
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
    A run of skipped bytes is reported as its count and a short sample, never whole.

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
                break  # wait for the rest of the candidate
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


_INVENTORY_STATUSES = {
    UHFStatus.INVENTORY_DONE,
    UHFStatus.INVENTORY_TIMEOUT,
    UHFStatus.MORE_FRAMES,
    UHFStatus.ANTENNA_ERROR,
}


_INVENTORY_STATUS_BYTES = frozenset(int(s) for s in _INVENTORY_STATUSES)


def inventory_fields(
    resp: UHFResponse, with_rssi: bool = True
) -> tuple[int, int | None, list[bytes], list[int]] | str:
    """An inventory answer's status byte, antenna (None: no single-bit Ant), EPCs and RSSI
    bytes (empty without RSSI), or what is wrong with it: the poller's parse, building no
    object per tag."""
    if resp.cmd != UHFCmd.INVENTORY:
        return f"reCmd 0x{resp.cmd:02x} is not an inventory answer"
    status = resp.status
    if status not in _INVENTORY_STATUS_BYTES:
        try:
            return f"status {UHFStatus(status).name} on an inventory"
        except ValueError:
            return f"status 0x{status:02x}"
    data = resp.data
    if not data:  # an antenna error or an empty timeout may come without Ant/Num
        return status, None, [], []
    size = len(data)
    if size < 2:
        return "no tag count"
    mask, count = data[0], data[1]
    antenna = mask.bit_length() if mask and not mask & (mask - 1) else None
    epcs: list[bytes] = []
    rssis: list[int] = []
    extra = 1 if with_rssi else 0
    pos = 2
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


def parse_inventory(resp: UHFResponse, with_rssi: bool = True) -> InventoryReply | Malformed:
    parsed = inventory_fields(resp, with_rssi)
    if isinstance(parsed, str):
        return Malformed(parsed)
    status, antenna, epcs, rssis = parsed
    if not with_rssi:
        tags = tuple(EpcRead(e, None) for e in epcs)
    else:
        tags = tuple(EpcRead(e, r) for e, r in zip(epcs, rssis, strict=True))
    return InventoryReply(UHFStatus(status), antenna, tags)


def inventory_responses(
    antenna: int,
    tags: Sequence[EpcRead],
    adr: int = 0,
    with_rssi: bool = True,
    final: UHFStatus = UHFStatus.INVENTORY_DONE,
    more: bool = False,
) -> list[UHFResponse]:
    """Reader side: the answer frames for `tags` seen on `antenna`, split so each fits a
    one-byte Len; every frame but the last says MORE_FRAMES (the last too when `more`, as
    when another antenna's frames follow)."""
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
        body = bytearray((mask, len(batch)))
        for tag in batch:
            body += bytes((len(tag.epc),)) + tag.epc
            if with_rssi:
                body.append(tag.rssi if tag.rssi is not None else 0)
        frames.append(UHFResponse(UHFCmd.INVENTORY, status, bytes(body), adr))
    return frames
