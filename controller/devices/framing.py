"""Profile-driven framing for table controller boards: checksums and a resynchronising codec.

A table profile's `[framing]` section (a `Framing`, loaded by controller/profiles.py)
describes one frame; the codec turns a byte stream into `Frame`s and back:

    +--------+--------------------------------------+----------+---------+
    | header |  length? / code / payload (`fields`)  | checksum | trailer |
    | N bytes|  length: 1-2 bytes, code: 1-2 bytes   |  0-2 B   | 0-N B   |
    +--------+--------------------------------------+----------+---------+

e.g. the simulated table (hw_profiles/tables/sim-table.toml):

    AA 55 | LEN | CODE | PAYLOAD... | XOR        LEN counts CODE + PAYLOAD,
                                               XOR covers LEN .. last payload byte

`length = "field"`: a length field, `length-counts` says what it counts (payload,
code + payload, everything after it, the whole frame) plus `length-adjust`.
`length = "fixed"`: no length field; the payload size comes from the code (the profile's
message layouts). The codec never raises on input: garbage, bad lengths, unknown codes,
bad checksums and trailers are counted in `errors`, hex-logged at debug, reported as
`BadFrame` values in the output and skipped, resynchronising on the next header. Headers
are found with `bytes.find`; between reads the codec keeps at most one frame (`max_frame`);
a run of garbage is reported as its size and first bytes, however long it was.
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from controller.devices import crc
from controller.devices.skipped import SkipRun, debug_hex

log = logging.getLogger(__name__)


class Checksum(Enum):
    """Checksum kinds; CRC parameters as in the usual CRC catalogue (width 16)."""

    NONE = "none"
    XOR = "xor"  # XOR of the covered bytes
    SUM8 = "sum8"  # sum of the covered bytes mod 256
    SUM8_NEG = "sum8-neg"  # two's complement of the sum (covered bytes + check == 0 mod 256)
    CRC16_MODBUS = "crc16-modbus"  # poly 0x8005 reflected, init 0xFFFF
    CRC16_CCITT_FALSE = "crc16-ccitt-false"  # poly 0x1021, init 0xFFFF, not reflected
    CRC16_X25 = "crc16-x25"  # poly 0x1021 reflected, init 0xFFFF, xorout 0xFFFF
    CRC16_KERMIT = "crc16-kermit"  # poly 0x1021 reflected, init 0
    CRC16_MCRF4XX = "crc16-mcrf4xx"  # poly 0x1021 reflected, init 0xFFFF (UHFReader18 family)

    @property
    def size(self) -> int:
        if self is Checksum.NONE:
            return 0
        return 2 if self.value.startswith("crc16") else 1


# (poly, init, reflected, xorout)
_CRC16 = {
    Checksum.CRC16_MODBUS: (0x8005, 0xFFFF, True, 0x0000),
    Checksum.CRC16_CCITT_FALSE: (0x1021, 0xFFFF, False, 0x0000),
    Checksum.CRC16_X25: (0x1021, 0xFFFF, True, 0xFFFF),
    Checksum.CRC16_KERMIT: (0x1021, 0x0000, True, 0x0000),
    Checksum.CRC16_MCRF4XX: (0x1021, 0xFFFF, True, 0x0000),
}


def checksum(kind: Checksum, data: bytes) -> int:
    """The checksum of `data` as an integer (0 for `NONE`)."""
    if kind is Checksum.NONE:
        return 0
    if kind is Checksum.XOR:
        return crc.xor8(data)
    if kind is Checksum.SUM8:
        return crc.sum8(data)
    if kind is Checksum.SUM8_NEG:
        return crc.checksum8_complement(data)
    poly, init, reflected, xorout = _CRC16[kind]
    if reflected:
        return crc.crc16_reflected(data, crc.reflect16(poly), init, xorout)
    return crc.crc16_msb(data, poly, init, xorout)


class ByteOrder(Enum):
    BIG = "big"
    LITTLE = "little"


class LengthRule(Enum):
    FIELD = "field"  # a length field in the frame
    FIXED = "fixed"  # no length field: payload size known from the code


class LengthCounts(Enum):
    """What the length field counts (before `length-adjust` is added)."""

    PAYLOAD = "payload"
    CODE_PAYLOAD = "code+payload"
    AFTER = "after"  # every byte after the length field, checksum and trailer included
    FRAME = "frame"  # the whole frame, header to trailer


class Covers(Enum):
    """Which bytes the checksum covers (it always ends just before the checksum)."""

    AFTER_HEADER = "after-header"
    FROM_HEADER = "from-header"


class FieldName(Enum):
    LENGTH = "length"
    CODE = "code"
    PAYLOAD = "payload"


def _byte_list(values: tuple[int, ...]) -> None:
    for v in values:
        if not 0 <= v <= 0xFF:
            raise ValueError(f"{v} is not a byte value (0..255)")


@dataclass(frozen=True, slots=True)
class Framing:
    """A table profile's `[framing]` section."""

    header: tuple[int, ...] = field(metadata={"range": (0, 255)})
    checksum: Checksum
    covers: Covers = Covers.AFTER_HEADER
    checksum_order: ByteOrder = ByteOrder.LITTLE
    length: LengthRule = LengthRule.FIELD
    length_counts: LengthCounts = LengthCounts.CODE_PAYLOAD
    length_adjust: int = field(default=0, metadata={"range": (-16, 16)})
    length_size: int = field(default=1, metadata={"range": (1, 2)})
    length_order: ByteOrder = ByteOrder.BIG
    code_size: int = field(default=1, metadata={"range": (1, 2)})
    code_order: ByteOrder = ByteOrder.BIG
    # order of the fields between header and checksum; payload comes last
    fields: tuple[FieldName, ...] = (FieldName.LENGTH, FieldName.CODE, FieldName.PAYLOAD)
    trailer: tuple[int, ...] = field(default=(), metadata={"range": (0, 255)})
    max_payload: int = field(default=64, metadata={"range": (0, 1024)})

    def __post_init__(self) -> None:
        if not self.header:
            raise ValueError("header: at least one sync byte is needed to resynchronise")
        names = list(self.fields)
        want = {FieldName.CODE, FieldName.PAYLOAD}
        if self.length is LengthRule.FIELD:
            want.add(FieldName.LENGTH)
        if set(names) != want or len(names) != len(want):
            raise ValueError(
                f"fields: must list {sorted(f.value for f in want)} once each "
                f"(length only with length = 'field')"
            )
        if names[-1] is not FieldName.PAYLOAD:
            raise ValueError("fields: payload must come last")

    @property
    def overhead(self) -> int:
        """Bytes in a frame besides the payload."""
        n = len(self.header) + self.code_size + self.checksum.size + len(self.trailer)
        return n + (self.length_size if self.length is LengthRule.FIELD else 0)


@dataclass(frozen=True, slots=True)
class Frame:
    code: int
    payload: bytes
    raw: bytes = b""


class FrameFault(Enum):
    GARBAGE = "garbage"  # bytes outside any frame
    BAD_LENGTH = "bad-length"
    UNKNOWN_CODE = "unknown-code"
    BAD_CHECKSUM = "bad-checksum"
    BAD_TRAILER = "bad-trailer"


@dataclass(frozen=True, slots=True)
class BadFrame:
    """`size` bytes that are no frame: `data` holds all of them for a broken frame, the
    first few (`skipped.SAMPLE`) of a garbage run."""

    fault: FrameFault
    data: bytes
    size: int

    def __str__(self) -> str:
        if self.size > len(self.data):
            return f"{self.fault.value}, {self.size} bytes"
        return self.fault.value


class FrameCodec:
    """Stream decoder and encoder for one `Framing`.

    `payload_sizes` maps the codes this side receives to their payload size; with
    `length = "fixed"` it is required (an unknown code is an error), with a length field it
    is optional (sizes are checked only for listed codes by the driver, not here).
    """

    def __init__(self, framing: Framing, payload_sizes: Mapping[int, int] | None = None) -> None:
        if framing.length is LengthRule.FIXED and payload_sizes is None:
            raise ValueError("a fixed-length framing needs the payload size of every code")
        self.framing = framing
        self.payload_sizes = dict(payload_sizes or {})
        self.errors: collections.Counter[FrameFault] = collections.Counter()
        self._buf = bytearray()
        self._garbage = SkipRun()
        self._header = bytes(framing.header)
        self._trailer = bytes(framing.trailer)
        if framing.length is LengthRule.FIXED:
            largest = max(self.payload_sizes.values(), default=0)
        else:
            largest = framing.max_payload
        self.max_frame = framing.overhead + largest
        self._slice = max(4096, self.max_frame)

    @property
    def buffered(self) -> int:
        """Bytes held for a frame not yet complete (under `max_frame`)."""
        return len(self._buf)

    # -- encoding ---------------------------------------------------------------
    def encode(self, code: int, payload: bytes = b"") -> bytes:
        f = self.framing
        parts = {
            FieldName.CODE: code.to_bytes(f.code_size, f.code_order.value),
            FieldName.PAYLOAD: bytes(payload),
        }
        if f.length is LengthRule.FIELD:
            parts[FieldName.LENGTH] = self._length_value(len(payload)).to_bytes(
                f.length_size, f.length_order.value
            )
        body = b"".join(parts[name] for name in f.fields)
        covered = body if f.covers is Covers.AFTER_HEADER else self._header + body
        check = checksum(f.checksum, covered).to_bytes(f.checksum.size, f.checksum_order.value)
        return self._header + body + check + self._trailer

    def _length_value(self, payload_len: int) -> int:
        f = self.framing
        counted = {
            LengthCounts.PAYLOAD: payload_len,
            LengthCounts.CODE_PAYLOAD: f.code_size + payload_len,
            LengthCounts.AFTER: f.overhead + payload_len - self._length_end(),
            LengthCounts.FRAME: f.overhead + payload_len,
        }[f.length_counts]
        return counted + f.length_adjust

    def _length_end(self) -> int:
        """Offset just past the length field."""
        f = self.framing
        pos = len(f.header)
        for name in f.fields:
            if name is FieldName.LENGTH:
                return pos + f.length_size
            pos += f.code_size
        raise AssertionError("no length field")

    # -- decoding ---------------------------------------------------------------
    def feed(self, data: bytes) -> list[Frame | BadFrame]:
        """Frames (and bad ones, as values) completed by `data`; never raises."""
        out: list[Frame | BadFrame] = []
        for i in range(0, len(data), self._slice):
            self._buf += data[i : i + self._slice]
            self._decode(out)
        return out

    def _decode(self, out: list[Frame | BadFrame]) -> None:
        while True:
            if not self._sync(out):
                break
            result = self._try_frame()
            if result is None:
                break
            if isinstance(result, BadFrame):
                self._fault(result, out)
                del self._buf[:1]  # resynchronise from the next byte
                continue
            frame, size = result
            del self._buf[:size]
            out.append(frame)

    def _sync(self, out: list[Frame | BadFrame]) -> bool:
        """Drop bytes before the next header; True when the buffer starts with a header."""
        h = self._header
        i = self._buf.find(h)
        if i < 0:
            # keep a possible partial header at the end
            keep = 0
            for n in range(min(len(h) - 1, len(self._buf)), 0, -1):
                if self._buf.endswith(h[:n]):
                    keep = n
                    break
            cut = len(self._buf) - keep
            self._garbage.add(self._buf[:cut])
            del self._buf[:cut]
            return False
        if i:
            self._garbage.add(self._buf[:i])
            del self._buf[:i]
        if self._garbage:
            size, sample = self._garbage.end(log, "framing: garbage")
            self._fault(BadFrame(FrameFault.GARBAGE, sample, size), out)
        return True

    def _fault(self, bad: BadFrame, out: list[Frame | BadFrame]) -> None:
        self.errors[bad.fault] += 1
        if bad.fault is not FrameFault.GARBAGE:  # a garbage run was logged as it ended
            debug_hex(log, f"framing: {bad.fault.value}", bad.data)
        out.append(bad)

    def _try_frame(self) -> tuple[Frame, int] | BadFrame | None:
        f = self.framing
        buf = self._buf
        pos = len(f.header)
        code: int | None = None
        length: int | None = None
        for name in f.fields[:-1]:
            size = f.code_size if name is FieldName.CODE else f.length_size
            if len(buf) < pos + size:
                return None
            order = f.code_order if name is FieldName.CODE else f.length_order
            value = int.from_bytes(buf[pos : pos + size], order.value)
            if name is FieldName.CODE:
                code = value
            else:
                length = value
            pos += size
        assert code is not None
        if f.length is LengthRule.FIXED:
            if code not in self.payload_sizes:
                return BadFrame(FrameFault.UNKNOWN_CODE, bytes(buf[:pos]), pos)
            payload_len = self.payload_sizes[code]
        else:
            assert length is not None
            payload_len = length - self._length_value(0)
            if not 0 <= payload_len <= f.max_payload:
                return BadFrame(FrameFault.BAD_LENGTH, bytes(buf[:pos]), pos)
        total = f.overhead + payload_len
        if len(buf) < total:
            return None
        raw = bytes(buf[:total])
        end_body = pos + payload_len
        csize = f.checksum.size
        if raw[end_body + csize :] != self._trailer:
            return BadFrame(FrameFault.BAD_TRAILER, raw, total)
        start = len(f.header) if f.covers is Covers.AFTER_HEADER else 0
        got = int.from_bytes(raw[end_body : end_body + csize], f.checksum_order.value)
        if csize and got != checksum(f.checksum, raw[start:end_body]):
            return BadFrame(FrameFault.BAD_CHECKSUM, raw, total)
        return Frame(code, raw[pos:end_body], raw), total
