"""A megabyte of line noise through each frame decoder (issue 15): random bytes, frames cut
short or with a bit flipped, and valid frames among them, fed one byte at a time, in random
reads and all at once.

What must hold: the decoder keeps at most one frame's worth of bytes between reads, every
valid frame is decoded in order, and a skipped run is reported by its size and a sample.
Noise can forge a frame (a CRC passes once in 65536 candidates); such a frame is decoded,
and a valid frame it overlaps is lost, as on a real line. The test finds each decoded frame
that is not one of ours in the stream and excuses only the valid frames it overlaps.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from controller.devices.framing import BadFrame, Frame, FrameCodec, FrameFault
from controller.devices.pn532 import MAX_BODY, TFI, FrameDecoder, InfoFrame, encode_info
from controller.devices.skipped import SAMPLE
from controller.devices.uhf_reader import MAX_LEN, ResponseDecoder, UHFResponse
from controller.profiles import load_table

NOISE_BYTES = 1_000_000


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[], Any]
    frame: Callable[[int, random.Random], bytes]  # valid frame number n, encoded
    raw: Callable[[Any], bytes | None]  # a decoded frame's bytes; None for a reported fault
    bound: int  # the most bytes a decoder may hold between reads


TABLE = load_table("sim-table").framing
TABLE_CODEC = FrameCodec(TABLE)


def _table_frame(n: int, rng: random.Random) -> bytes:
    return TABLE_CODEC.encode(0x80 + n % 8, n.to_bytes(3, "big") + rng.randbytes(rng.randrange(9)))


def _pn532_frame(n: int, rng: random.Random) -> bytes:
    data = bytes((0x4B,)) + n.to_bytes(3, "big") + rng.randbytes(rng.randrange(300))
    return encode_info(TFI.PN53X_TO_HOST, data)


def _uhf_frame(n: int, rng: random.Random) -> bytes:
    return UHFResponse(1, 3, n.to_bytes(3, "big") + rng.randbytes(rng.randrange(200)), 0).encode()


CASES = [
    Case(
        "table",
        lambda: FrameCodec(TABLE),
        _table_frame,
        lambda x: x.raw if isinstance(x, Frame) else None,
        TABLE_CODEC.max_frame,
    ),
    Case(
        "pn532",
        FrameDecoder,
        _pn532_frame,
        lambda x: x.encode() if isinstance(x, InfoFrame) else None,
        7 + MAX_BODY + 2,  # extended head, body, DCS, postamble
    ),
    Case(
        "uhf",
        ResponseDecoder,
        _uhf_frame,
        lambda x: x.encode() if isinstance(x, UHFResponse) else None,
        MAX_LEN + 1,
    ),
]


def noisy_stream(case: Case, seed: int) -> tuple[bytes, list[tuple[int, bytes]]]:
    """About `NOISE_BYTES` of noise with valid frames among it: (stream, [(offset, frame)])."""
    rng = random.Random(seed)
    stream, valid = bytearray(), []
    while len(stream) < NOISE_BYTES:
        kind = rng.choice(("random", "cut", "flip", "valid", "valid"))
        if kind == "random":
            stream += rng.randbytes(rng.randrange(1, 4000))
            continue
        wire = bytearray(case.frame(len(valid), rng))
        if kind == "cut":
            del wire[rng.randrange(1, len(wire)) :]
        elif kind == "flip":
            wire[rng.randrange(len(wire))] ^= 1 << rng.randrange(8)
        else:
            valid.append((len(stream), bytes(wire)))
        stream += wire
    return bytes(stream), valid


def check_frames(case: Case, stream: bytes, valid: list[tuple[int, bytes]], out: list) -> None:
    """Our frames come out once each, in order; one is missing only where a forged frame
    overlaps it (a cut frame read on into the next frame's bytes, its checksum matching)."""
    order = {frame: i for i, (_, frame) in enumerate(valid)}
    decoded = [r for r in map(case.raw, out) if r is not None]
    got = [order[r] for r in decoded if r in order]
    assert got == sorted(set(got))
    forged_spans = []
    for raw in decoded:
        if raw not in order:
            at = stream.find(raw)
            while at >= 0:
                forged_spans.append((at, at + len(raw)))
                at = stream.find(raw, at + 1)
    missing = [(at, frame) for i, (at, frame) in enumerate(valid) if i not in set(got)]
    for at, frame in missing:
        assert any(a < at + len(frame) and at < b for a, b in forged_spans), at
    # a 16-bit CRC passes once in 65536 candidates; every byte of UHF noise is one
    assert len(missing) <= len(forged_spans) <= 4 * len(stream) // 65536
    assert len(valid) > 300  # the stream did carry frames among the noise


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_noise_fed_byte_by_byte(case: Case) -> None:
    stream, valid = noisy_stream(case, 15)
    decoder = case.make()
    out: list = []
    most = 0
    for i in range(len(stream)):
        out += decoder.feed(stream[i : i + 1])
        most = max(most, decoder.buffered)
    assert most < case.bound
    out += decoder.flush() if hasattr(decoder, "flush") else []
    check_frames(case, stream, valid, out)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_noise_fed_in_big_reads(case: Case) -> None:
    stream, valid = noisy_stream(case, 16)
    rng = random.Random(16)
    decoder = case.make()
    out, at = [], 0
    while at < len(stream):
        size = rng.choice((1, 7, 300, 4096, 65536, 300_000))
        out += decoder.feed(stream[at : at + size])
        at += size
        assert decoder.buffered < case.bound
    out += decoder.flush() if hasattr(decoder, "flush") else []
    check_frames(case, stream, valid, out)
    whole = case.make()  # the same stream in one read decodes the same
    assert decoder_output(case, whole, stream) == [case.raw(x) for x in out]
    assert whole.buffered < case.bound


def decoder_output(case: Case, decoder: Any, stream: bytes) -> list:
    out = decoder.feed(stream)
    out += decoder.flush() if hasattr(decoder, "flush") else []
    return [case.raw(x) for x in out]


def test_table_garbage_run_reported_by_size_and_sample() -> None:
    codec = FrameCodec(TABLE)
    noise = bytes(range(0x60)) * 20_000  # 1.9 MB with no 0xAA 0x55 header
    good = TABLE_CODEC.encode(0x81)
    out = codec.feed(noise) + codec.feed(good)
    assert out == [BadFrame(FrameFault.GARBAGE, noise[:SAMPLE], len(noise)), Frame(0x81, b"", good)]
    assert str(out[0]) == f"garbage, {len(noise)} bytes"
    assert codec.buffered == 0


@pytest.mark.parametrize("case", CASES[1:], ids=lambda c: c.name)
def test_skipped_run_logged_by_count_and_sample(case: Case, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    noise = bytes((0x13, 0x37)) * 50_000  # no start code, no frame: one run of junk
    decoder = case.make()
    good = case.frame(1, random.Random(1))
    out = decoder.feed(noise) + decoder.feed(good) + decoder.flush()  # UHF: a Len 0x37 waits
    assert [case.raw(x) for x in out] == [good]
    skipped = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    assert skipped == [f"reader: skipped 100000 bytes, first {SAMPLE}: " + "13 37 " * 7 + "13 37"]
