"""NXP PN532 / PN533 frames (HSU serial, and the same frames over PN533 USB bulk endpoints):
the frame codec and the command layer (wake-up, SAMConfiguration, RFConfiguration,
GetFirmwareVersion, InListPassiveTarget) with encoders for both directions. The driver that
exchanges them with a chip is pn53x_reader.py (on pn532_uart.py or pn533_usb.py).

Normal information frame (HARDWARE-NOTES, PN532 user manual §6.2.1)::

    +----------+------------+-----+-----+-----+---------+-----+-----------+
    | preamble | start code | LEN | LCS | TFI | PD0..PDn| DCS | postamble |
    |    00    |   00  FF   |     |     |     |         |     |    00     |
    +----------+------------+-----+-----+-----+---------+-----+-----------+
    LEN = bytes in TFI + PD;  LEN + LCS = 0 (mod 256);  TFI + ΣPD + DCS = 0 (mod 256)
    TFI = D4 host → PN53x, D5 PN53x → host; PD0 = command code (answer = command + 1)

    extended:  00 | 00 FF | FF FF | LENm LENl | LCS | TFI PD.. | DCS | 00
    ACK:       00 00 FF 00 FF 00        NACK:   00 00 FF FF 00 00
    error:     00 00 FF 01 FF 7F 81 00  (application-level error, TFI 7F)

Every PN53x answer is an ACK followed by the D5 frame. Bytes 0x00 between frames are idle
(preambles, postambles); anything else outside a frame is junk, counted and skipped.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum

from controller.devices.crc import checksum8_complement, sum8
from controller.devices.events import TagsRead
from controller.devices.skipped import SkipRun

log = logging.getLogger(__name__)

START = b"\x00\xff"
ACK_FRAME = b"\x00\x00\xff\x00\xff\x00"
NACK_FRAME = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
# HSU wake-up: the PN532 sleeps after power-up; a long 0x55 preamble wakes it (notes, libnfc).
WAKEUP = b"\x55\x55" + bytes(14)
MAX_NORMAL = 0xFF  # LEN of a normal frame; longer bodies take the extended form
# The longest body (TFI + data) the decoder takes. An extended LEN may say up to 65535, but
# a PN53x's data buffer holds a few hundred bytes and the USB link reads 512 at a time
# (pn533_usb.READ_SIZE): a longer length is noise, and waiting for it would hold the line.
MAX_BODY = 512


class TFI(IntEnum):
    HOST_TO_PN53X = 0xD4
    PN53X_TO_HOST = 0xD5
    ERROR = 0x7F


class Command(IntEnum):
    GET_FIRMWARE_VERSION = 0x02
    SAM_CONFIGURATION = 0x14
    RF_CONFIGURATION = 0x32
    IN_LIST_PASSIVE_TARGET = 0x4A


class SamMode(IntEnum):
    NORMAL = 0x01  # no secure access module


class BaudRate(IntEnum):
    """BrTy of InListPassiveTarget."""

    ISO14443A_106 = 0x00


class PN532ErrorKind(Enum):
    """Why bytes were skipped. Counted once per resynchronisation."""

    JUNK = "junk"  # non-idle bytes with no start code
    BAD_LCS = "bad-lcs"
    BAD_DCS = "bad-dcs"
    BAD_POSTAMBLE = "bad-postamble"
    BAD_TFI = "bad-tfi"
    BAD_LENGTH = "bad-length"
    TRUNCATED = "truncated"  # the line went idle inside a frame
    MALFORMED = "malformed"  # frame fine, answer does not parse


@dataclass(frozen=True, slots=True)
class PN532CodecStats:
    frames: int
    bytes_in: int
    junk_bytes: int  # skipped bytes other than idle 0x00 (0x55 on the device side)
    errors: tuple[tuple[PN532ErrorKind, int], ...]

    @property
    def error_total(self) -> int:
        return sum(n for _, n in self.errors)


@dataclass(frozen=True, slots=True)
class Ack:
    def encode(self) -> bytes:
        return ACK_FRAME


@dataclass(frozen=True, slots=True)
class Nack:
    def encode(self) -> bytes:
        return NACK_FRAME


@dataclass(frozen=True, slots=True)
class ErrorFrame:
    """The PN53x rejected the frame it got (syntax error)."""

    def encode(self) -> bytes:
        return ERROR_FRAME


@dataclass(frozen=True, slots=True)
class InfoFrame:
    tfi: TFI  # HOST_TO_PN53X or PN53X_TO_HOST
    data: bytes  # PD0 (the command code) .. PDn

    @property
    def code(self) -> int:
        return self.data[0] if self.data else -1

    def encode(self) -> bytes:
        return encode_info(self.tfi, self.data)


Frame = Ack | Nack | ErrorFrame | InfoFrame


def encode_info(tfi: TFI, data: bytes) -> bytes:
    body = bytes((tfi,)) + data
    if len(body) <= MAX_NORMAL:  # LEN FF with LCS 01; LCS 00 is a NACK, LCS FF extended
        head = bytes((len(body), checksum8_complement(bytes((len(body),)))))
    elif len(body) <= MAX_BODY:
        size = len(body).to_bytes(2, "big")
        head = b"\xff\xff" + size + bytes((checksum8_complement(size),))
    else:
        raise ValueError(f"PN53x frame body of {len(body)} bytes (at most {MAX_BODY})")
    return b"\x00" + START + head + body + bytes((checksum8_complement(body),)) + b"\x00"


def command_frame(command: Command, params: bytes = b"") -> bytes:
    return encode_info(TFI.HOST_TO_PN53X, bytes((command,)) + params)


def answer_frame(command: Command, params: bytes = b"") -> bytes:
    return encode_info(TFI.PN53X_TO_HOST, bytes((command + 1,)) + params)


class FrameDecoder:
    """bytes → `Frame`s, either direction. Never raises on bad input.

    After a checksum or framing failure the decoder drops one byte past the false start code
    and scans again, so a real frame hidden behind a corrupt one is still found. `flush()` is
    for an idle line (read timeout): a partial frame is abandoned and what follows its start
    rescanned. `idle` are the bytes that may sit between frames without counting as junk
    (0x00 always; the device side adds 0x55 for the HSU wake-up). Start codes are found
    with `bytes.find`; what is kept between reads is at most the largest frame (`MAX_BODY`);
    a run of junk is logged as its count and first bytes (controller/devices/skipped.py).
    """

    _slice = 4096  # bytes of input scanned at a time: the buffer stays within a frame + this

    def __init__(self, device: str = "reader", idle: bytes = b"\x00") -> None:
        self.device = device
        self._idle = frozenset(idle)
        self._idle_bytes = bytes(sorted(self._idle))
        self._buf = bytearray()
        self._errors: Counter[PN532ErrorKind] = Counter()
        self._frames = 0
        self._bytes_in = 0
        self._junk_bytes = 0
        self._junk = SkipRun()

    @property
    def buffered(self) -> int:
        """Bytes held for a frame not yet complete (at most the largest frame's worth)."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[Frame]:
        self._bytes_in += len(data)
        out: list[Frame] = []
        for i in range(0, len(data), self._slice):
            self._buf += data[i : i + self._slice]
            out += self._scan()
        return out

    def flush(self) -> list[Frame]:
        out: list[Frame] = []
        while self._buf:
            if self._buf.startswith(START):
                self._fail(2, PN532ErrorKind.TRUNCATED)
            else:
                self._drop(1)
            out += self._scan()
        self._junk.end(log, self.device)
        return out

    def count_error(self, kind: PN532ErrorKind) -> None:
        self._errors[kind] += 1

    def stats(self) -> PN532CodecStats:
        errors = tuple((k, self._errors[k]) for k in PN532ErrorKind if self._errors[k])
        return PN532CodecStats(self._frames, self._bytes_in, self._junk_bytes, errors)

    def _scan(self) -> list[Frame]:
        out: list[Frame] = []
        buf = self._buf
        while buf:
            at = buf.find(START)
            if at < 0:
                # keep a trailing 0x00: it may be the first half of a start code
                self._drop(len(buf) - 1 if buf[-1] == 0 else len(buf))
                break
            if at:
                self._drop(at)
            result = self._frame_at()
            if result is None:
                break
            if isinstance(result, PN532ErrorKind):
                self._fail(2, result)
                continue
            frame, size = result
            self._junk.end(log, self.device)
            del buf[:size]
            self._frames += 1
            out.append(frame)
        return out

    def _frame_at(self) -> tuple[Frame, int] | PN532ErrorKind | None:
        """The frame starting at the start code at buf[0], its size; an error; or None when
        more bytes are needed."""
        buf = self._buf
        if len(buf) < 4:
            return None
        length, lcs = buf[2], buf[3]
        if (length, lcs) in ((0x00, 0xFF), (0xFF, 0x00)):  # ACK / NACK
            if len(buf) < 5:
                return None
            if buf[4] != 0:
                return PN532ErrorKind.BAD_POSTAMBLE
            return (Ack() if length == 0 else Nack()), 5
        if (length, lcs) == (0xFF, 0xFF):  # extended frame
            if len(buf) < 7:
                return None
            if sum8(buf[4:7]) != 0:
                return PN532ErrorKind.BAD_LCS
            length, at = int.from_bytes(buf[4:6], "big"), 7
            if not 0 < length <= MAX_BODY:
                return PN532ErrorKind.BAD_LENGTH
        else:
            if (length + lcs) & 0xFF:
                return PN532ErrorKind.BAD_LCS
            if length == 0:
                return PN532ErrorKind.BAD_LENGTH
            at = 4
        end = at + length
        if len(buf) < end + 2:
            return None
        body = bytes(buf[at:end])
        if sum8(body + bytes((buf[end],))) != 0:
            return PN532ErrorKind.BAD_DCS
        if buf[end + 1] != 0:
            return PN532ErrorKind.BAD_POSTAMBLE
        if body == b"\x7f":
            return ErrorFrame(), end + 2
        if body[0] not in (TFI.HOST_TO_PN53X, TFI.PN53X_TO_HOST):
            return PN532ErrorKind.BAD_TFI
        return InfoFrame(TFI(body[0]), body[1:]), end + 2

    def _drop(self, n: int) -> None:
        """Skip n bytes before a start code: idle bytes are free, others are junk."""
        chunk = self._buf[:n]
        del self._buf[:n]
        junk = len(chunk.translate(None, self._idle_bytes))
        if junk:
            if not self._junk:
                self._errors[PN532ErrorKind.JUNK] += 1
            self._junk.add(chunk)
            self._junk_bytes += junk

    def _fail(self, n: int, kind: PN532ErrorKind) -> None:
        """A false or broken frame at buf[0]: skip its start code, count once per run."""
        if not self._junk:
            self._errors[kind] += 1
        chunk = self._buf[:n]
        self._junk.add(chunk)
        self._junk_bytes += len(chunk.translate(None, self._idle_bytes))
        del self._buf[:n]


# --- command layer ---------------------------------------------------------------------


def get_firmware_version() -> bytes:
    """`00 00 FF 02 FE D4 02 2A 00`."""
    return command_frame(Command.GET_FIRMWARE_VERSION)


def sam_configuration(
    mode: SamMode = SamMode.NORMAL, timeout: int = 0x14, use_irq: bool = True
) -> bytes:
    """PN532 only (the PN533 has no SAM): D4 14 Mode Timeout(×50 ms) IRQ."""
    if not 0 <= timeout <= 0xFF:
        raise ValueError("SAM timeout is one byte (units of 50 ms)")
    return command_frame(Command.SAM_CONFIGURATION, bytes((mode, timeout, int(use_irq))))


def rf_max_retries(atr: int = 0xFF, psl: int = 0x01, passive_activation: int = 0x02) -> bytes:
    """RFConfiguration item 5 (MaxRetries). The power-up default for passive activation is
    0xFF — InListPassiveTarget then waits for a card forever — so a poller sets a few."""
    for v in (atr, psl, passive_activation):
        if not 0 <= v <= 0xFF:
            raise ValueError("retry counts are one byte")
    return command_frame(Command.RF_CONFIGURATION, bytes((0x05, atr, psl, passive_activation)))


def in_list_passive_target(max_targets: int = 1, baud: BaudRate = BaudRate.ISO14443A_106) -> bytes:
    """`00 00 FF 04 FC D4 4A 01 00 E1 00` for one ISO 14443-A target."""
    if max_targets not in (1, 2):
        raise ValueError("a PN53x lists at most 2 targets at once")
    return command_frame(Command.IN_LIST_PASSIVE_TARGET, bytes((max_targets, baud)))


@dataclass(frozen=True, slots=True)
class FirmwareVersion:
    ic: int  # 0x32 PN532, 0x33 PN533
    version: int
    revision: int
    support: int  # bit 0 ISO 14443-A, bit 1 ISO 14443-B, bit 2 ISO 18092

    def __str__(self) -> str:
        return f"PN5{self.ic:02x} v{self.version}.{self.revision}"


@dataclass(frozen=True, slots=True)
class PassiveTarget:
    """One ISO 14443-A target as InListPassiveTarget reports it."""

    tg: int
    sens_res: bytes  # ATQA, 2 bytes
    sel_res: int  # SAK
    nfcid: bytes  # the UID, 4, 7 or 10 bytes
    ats: bytes = b""  # only for ISO 14443-4 cards (SAK bit 0x20)


@dataclass(frozen=True, slots=True)
class PassiveTargets:
    targets: tuple[PassiveTarget, ...]

    def event(self, t: float, antenna: int = 1) -> TagsRead:
        """A single-spot reader's answer as the driver event (antenna 1)."""
        return TagsRead(t, antenna, tuple(x.nfcid for x in self.targets))


@dataclass(frozen=True, slots=True)
class Acknowledged:
    """An answer with no content (SAMConfiguration, RFConfiguration)."""

    command: Command


@dataclass(frozen=True, slots=True)
class Unparsed:
    """A D5 frame that does not parse as the answer expected; a value, not an exception."""

    detail: str


Answer = FirmwareVersion | PassiveTargets | Acknowledged | Unparsed

_ISO14443_4 = 0x20  # SAK bit: the card speaks ISO-DEP, an ATS follows the UID


def parse_answer(frame: InfoFrame, command: Command) -> Answer:
    if frame.tfi is not TFI.PN53X_TO_HOST:
        return Unparsed("not a PN53x → host frame")
    if frame.code != command + 1:
        return Unparsed(f"answer code 0x{frame.code & 0xFF:02x} to command 0x{command:02x}")
    pd = frame.data[1:]
    if command is Command.GET_FIRMWARE_VERSION:
        if len(pd) != 4:
            return Unparsed(f"firmware version of {len(pd)} bytes")
        return FirmwareVersion(*pd)
    if command is Command.IN_LIST_PASSIVE_TARGET:
        return _parse_targets(pd)
    if pd:
        return Unparsed(f"{len(pd)} unexpected bytes")
    return Acknowledged(command)


def _parse_targets(pd: bytes) -> PassiveTargets | Unparsed:
    if not pd:
        return Unparsed("no target count")
    count, pos, targets = pd[0], 1, []
    for _ in range(count):
        if pos + 5 > len(pd):
            return Unparsed("target data truncated")
        tg, sens_res, sel_res, n = pd[pos], pd[pos + 1 : pos + 3], pd[pos + 3], pd[pos + 4]
        pos += 5
        if n == 0 or pos + n > len(pd):
            return Unparsed(f"NFCID of {n} bytes")
        nfcid = pd[pos : pos + n]
        pos += n
        ats = b""
        if sel_res & _ISO14443_4:
            if pos >= len(pd) or pd[pos] == 0 or pos + pd[pos] > len(pd):
                return Unparsed("ATS truncated")
            ats, pos = pd[pos + 1 : pos + pd[pos]], pos + pd[pos]  # ATSLen counts itself
        targets.append(PassiveTarget(tg, bytes(sens_res), sel_res, bytes(nfcid), bytes(ats)))
    if pos != len(pd):
        return Unparsed(f"{len(pd) - pos} trailing bytes")
    return PassiveTargets(tuple(targets))


# --- device side (simulator, tests) ----------------------------------------------------


def firmware_version_answer(fw: FirmwareVersion) -> bytes:
    return answer_frame(
        Command.GET_FIRMWARE_VERSION, bytes((fw.ic, fw.version, fw.revision, fw.support))
    )


def in_list_passive_target_answer(targets: Iterable[PassiveTarget]) -> bytes:
    targets = list(targets)
    pd = bytearray((len(targets),))
    for x in targets:
        pd += bytes((x.tg,)) + x.sens_res + bytes((x.sel_res, len(x.nfcid))) + x.nfcid
        if x.sel_res & _ISO14443_4:
            pd += bytes((len(x.ats) + 1,)) + x.ats
    return answer_frame(Command.IN_LIST_PASSIVE_TARGET, bytes(pd))


def empty_answer(command: Command) -> bytes:
    return answer_frame(command)
