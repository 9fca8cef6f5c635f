"""What the devices said, stored compactly: the `hw.batch` record (docs/JOURNAL.md).

The daemon acts on two streams of device input: the reader bus's steps (one answer of a
reader address, a timeout, a round ending: `ReaderStep`) and the table board's bytes
(`TableChunk`). Both are kept, in the order the daemon handled them, as batches: every
record a decision writes is preceded by a batch holding every input handled before it
(`controller/daemon/input_log.py` decides when). One record per reader answer cost about
5 MB a noisy deal (issue 15 item 2); a batch holds every answer, repeats included, in a
few bytes each, so the debouncer's input — every read, its time, every round's end — can be
fed again exactly (`ReaderStep.round_time`, `replay_presence`).

The payload is JSON: `codec` ("mjin1"), `key` (true: the batch is coded on its own),
`steps`/`reads`/`errors`/`table` (counts, for people; the record's `mono` is its last
input's time) and `data`, the items below compressed with raw DEFLATE and written in
base85. A batch that is not a key is coded against the batches before it back to the last
key: a read is stored as "the same as this antenna's previous read", as the changes to it
(tags gone by position, tags new with their position), or in full; a tag's UID is written
once per key and then referred to by number. Times are the exact float64 the daemon saw.
"""

from __future__ import annotations

import base64
import struct
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from controller.devices.events import FrameError, TagsRead
from controller.journal.records import JournalError, Record, RecordKind

CODEC = "mjin1"

_READER_STEP, _TABLE_CHUNK = 1, 2
_TAGS, _ERROR = 0, 1
_SAME, _DELTA, _FULL = 0, 1, 2
_ROUND_DONE, _OWN_TIMES = 1, 2
_F64 = struct.Struct("<d")
_U64 = struct.Struct("<Q")
_RSSI_KEPT, _RSSI_ALL = 0, 1


@dataclass(frozen=True, slots=True)
class ReaderStep:
    """One step of the reader bus as the daemon handled it: the events of an answer (or of a
    timeout), and whether it ended a debouncer round. `t`: when the daemon handled it."""

    t: float
    events: tuple[TagsRead | FrameError, ...] = ()
    round_done: bool = False


@dataclass(frozen=True, slots=True)
class TableChunk:
    """Bytes from the table board as received (the table driver decodes them again)."""

    t: float
    data: bytes


InputItem = ReaderStep | TableChunk


def round_time(step_t: float, reads_t: float | None) -> float:
    """The time a debouncer round is closed with: its last read's, else the step's (a round
    of timeouts only). The daemon and every replay take it from here."""
    return step_t if reads_t is None else reads_t


# --- writing --------------------------------------------------------------------------------


class InputEncoder:
    """Codes items into `hw.batch` payloads; each batch continues the previous one's state
    unless `reset` was called (the next batch is then a key)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._uids: dict[bytes, int] = {}
        self._prev: dict[int, tuple[tuple[bytes, ...], tuple[int, ...]]] = {}
        self._key = True

    def encode(self, items: Iterable[InputItem]) -> dict[str, Any]:
        out = bytearray()
        counts = {"steps": 0, "reads": 0, "errors": 0, "table": 0}
        self._t = 0
        for item in items:
            if isinstance(item, TableChunk):
                counts["table"] += 1
                out.append(_TABLE_CHUNK)
                self._time(item.t, out)
                _bytes(item.data, out)
                continue
            counts["steps"] += 1
            own = any(ev.t != item.t for ev in item.events)
            out.append(_READER_STEP)
            self._time(item.t, out)
            out.append((_ROUND_DONE if item.round_done else 0) | (_OWN_TIMES if own else 0))
            _varint(len(item.events), out)
            for ev in item.events:
                if isinstance(ev, TagsRead):
                    counts["reads"] += 1
                    self._read(ev, out)
                else:
                    counts["errors"] += 1
                    out.append(_ERROR)
                    _text(ev.device, out)
                    _text(ev.reason, out)
                    _bytes(ev.data, out)
                if own:
                    self._time(ev.t, out)
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        data = packer.compress(bytes(out)) + packer.flush()
        payload: dict[str, Any] = {
            "codec": CODEC,
            "key": self._key,
            **counts,
            "data": base64.b85encode(data).decode("ascii"),
        }
        self._key = False
        return payload

    def _read(self, ev: TagsRead, out: bytearray) -> None:
        out.append(_TAGS)
        _varint(ev.antenna, out)
        new = (tuple(ev.uids), tuple(ev.rssi))
        prev = self._prev.get(ev.antenna)
        self._prev[ev.antenna] = new
        if prev == new:
            out.append(_SAME)
            return
        if prev is None or (edit := _edit(prev[0], new[0])) is None:
            out.append(_FULL)
            _varint(len(new[0]), out)
            for uid in new[0]:
                self._uid(uid, out)
        else:
            removed, inserted = edit
            out.append(_DELTA)
            _varint(len(removed), out)
            for i in removed:
                _varint(i, out)
            _varint(len(inserted), out)
            for i, uid in inserted:
                _varint(i, out)
                self._uid(uid, out)
            if _kept_rssi(prev, new, removed, inserted):
                out.append(_RSSI_KEPT)
                for i, _ in inserted:
                    _varint(_zigzag(new[1][i]), out)
                return
        out.append(_RSSI_ALL)
        _varint(len(new[1]), out)
        for r in new[1]:
            _varint(_zigzag(r), out)

    def _time(self, t: float, out: bytearray) -> None:
        bits = _U64.unpack(_F64.pack(t))[0]
        _varint(bits ^ self._t, out)  # the bits that changed since the batch's last time
        self._t = bits

    def _uid(self, uid: bytes, out: bytearray) -> None:
        n = self._uids.get(uid)
        if n is not None:
            _varint(n + 1, out)
            return
        self._uids[uid] = len(self._uids)
        out.append(0)
        _bytes(uid, out)


def _kept_rssi(
    prev: tuple[tuple[bytes, ...], tuple[int, ...]],
    new: tuple[tuple[bytes, ...], tuple[int, ...]],
    removed: list[int],
    inserted: list[tuple[int, bytes]],
) -> bool:
    """Whether the tags both reads hold kept their RSSI (then only the new tags' are stored)."""
    if len(prev[1]) != len(prev[0]) or len(new[1]) != len(new[0]):
        return False
    gone, fresh = set(removed), {i for i, _ in inserted}
    old = [r for i, r in enumerate(prev[1]) if i not in gone]
    return old == [r for i, r in enumerate(new[1]) if i not in fresh]


def _edit(
    old: tuple[bytes, ...], new: tuple[bytes, ...]
) -> tuple[list[int], list[tuple[int, bytes]]] | None:
    """`new` as `old` with tags removed (positions in `old`) and tags inserted (positions in
    `new`), when the tags both hold keep their order and appear once; else None."""
    if len(set(old)) != len(old) or len(set(new)) != len(new):
        return None
    kept_new = set(new)
    kept_old = set(old)
    if [u for u in old if u in kept_new] != [u for u in new if u in kept_old]:
        return None
    removed = [i for i, u in enumerate(old) if u not in kept_new]
    inserted = [(i, u) for i, u in enumerate(new) if u not in kept_old]
    return removed, inserted


# --- reading --------------------------------------------------------------------------------


class InputDecoder:
    """Reads `hw.batch` payloads in journal order (a key batch starts afresh)."""

    def __init__(self) -> None:
        self._uids: list[bytes] = []
        self._prev: dict[int, tuple[tuple[bytes, ...], tuple[int, ...]]] = {}
        self._ready = False

    def decode(self, payload: Mapping[str, Any], where: str = "hw.batch") -> list[InputItem]:
        if payload.get("codec") != CODEC:
            raise JournalError(f"{where}: unknown input codec {payload.get('codec')!r}")
        if payload.get("key"):
            self._uids, self._prev, self._ready = [], {}, True
        elif not self._ready:
            raise JournalError(f"{where}: coded against earlier batches (no key batch read)")
        try:
            raw = zlib.decompress(base64.b85decode(str(payload["data"])), -15)
            return list(self._items(_Reader(raw)))
        except (ValueError, KeyError, zlib.error, IndexError, struct.error) as err:
            self._ready = False
            raise JournalError(f"{where}: damaged input batch ({err})") from None

    def _items(self, src: _Reader) -> Iterator[InputItem]:
        while not src.done():
            tag = src.byte()
            t = src.time()
            if tag == _TABLE_CHUNK:
                yield TableChunk(t, src.bytes())
                continue
            if tag != _READER_STEP:
                raise ValueError(f"item type {tag}")
            flags = src.byte()
            events: list[TagsRead | FrameError] = []
            for _ in range(src.varint()):
                kind = src.byte()
                if kind == _TAGS:
                    antenna, uids, rssi = self._read(src)
                    own = src.time() if flags & _OWN_TIMES else t
                    events.append(TagsRead(own, antenna, uids, rssi))
                elif kind == _ERROR:
                    device, reason, data = src.text(), src.text(), src.bytes()
                    own = src.time() if flags & _OWN_TIMES else t
                    events.append(FrameError(own, device, reason, data))
                else:
                    raise ValueError(f"event type {kind}")
            yield ReaderStep(t, tuple(events), bool(flags & _ROUND_DONE))

    def _read(self, src: _Reader) -> tuple[int, tuple[bytes, ...], tuple[int, ...]]:
        antenna = src.varint()
        op = src.byte()
        if op == _SAME:
            uids, rssi = self._prev[antenna]
            return antenna, uids, rssi
        inserted: list[tuple[int, bytes]] = []
        if op == _FULL:
            uids = tuple(self._uid(src) for _ in range(src.varint()))
        elif op == _DELTA:
            old_uids, old_rssi = self._prev[antenna]
            gone = {src.varint() for _ in range(src.varint())}
            kept = [u for i, u in enumerate(old_uids) if i not in gone]
            inserted = [(src.varint(), self._uid(src)) for _ in range(src.varint())]
            for i, uid in inserted:
                kept.insert(i, uid)
            uids = tuple(kept)
        else:
            raise ValueError(f"read op {op}")
        if src.byte() == _RSSI_KEPT:
            levels = [r for i, r in enumerate(old_rssi) if i not in gone]
            for i, _ in inserted:
                levels.insert(i, _unzigzag(src.varint()))
            rssi = tuple(levels)
        else:
            rssi = tuple(_unzigzag(src.varint()) for _ in range(src.varint()))
        self._prev[antenna] = (uids, rssi)
        return antenna, uids, rssi

    def _uid(self, src: _Reader) -> bytes:
        n = src.varint()
        if n:
            return self._uids[n - 1]
        uid = src.bytes()
        self._uids.append(uid)
        return uid


def journal_inputs(records: Iterable[Record]) -> Iterator[tuple[Record, InputItem]]:
    """The device inputs of `records` (journal order; other kinds are skipped), each with
    the batch that holds it. Start at a key batch: a deal's first batch is one."""
    decoder = InputDecoder()
    for rec in records:
        if rec.kind is RecordKind.HW_BATCH:
            for item in decoder.decode(rec.data(), f"record {rec.seq}"):
                yield rec, item


# --- bytes ----------------------------------------------------------------------------------


def _varint(n: int, out: bytearray) -> None:
    if n < 0:
        raise ValueError(f"a count cannot be negative: {n}")
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _zigzag(n: int) -> int:
    return n * 2 if n >= 0 else -n * 2 - 1


def _unzigzag(n: int) -> int:
    return n // 2 if n % 2 == 0 else -(n + 1) // 2


def _bytes(data: bytes, out: bytearray) -> None:
    _varint(len(data), out)
    out += data


def _text(text: str, out: bytearray) -> None:
    _bytes(text.encode(), out)


class _Reader:
    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.at = 0
        self.t = 0  # the bits of the last time read

    def done(self) -> bool:
        return self.at >= len(self.raw)

    def byte(self) -> int:
        self.at += 1
        return self.raw[self.at - 1]

    def time(self) -> float:
        self.t ^= self.varint()
        return _F64.unpack(_U64.pack(self.t))[0]

    def varint(self) -> int:
        n = shift = 0
        while True:
            b = self.byte()
            n |= (b & 0x7F) << shift
            if b < 0x80:
                return n
            shift += 7

    def bytes(self) -> bytes:
        n = self.varint()
        if self.at + n > len(self.raw):
            raise ValueError("cut short")
        self.at += n
        return self.raw[self.at - n : self.at]

    def text(self) -> str:
        return self.bytes().decode()
