"""`mjtable bench codecs`: how fast each frame decoder skips line noise, against its line.

Each decoder (the table board's profile codec on the simulated table's framing, the PN532
host-side decoder, the UHF reader's answer decoder) is fed, in 4096-byte reads as a serial
link hands them over:

- `random`: seeded random bytes (a wrong baud rate, a floating line);
- `zeros`: 0x00 bytes (a line held low, a break);
- `mutated`: the codec's own frames, each cut short or with one bit flipped, back to back.

The figure is bytes skipped per second against what the line carries at its baud rate
(10 bits a byte): UHF and table 57600 baud (the profiles' and links' default), PN532 HSU
115200. Issue 15's target is at least 10× the line rate. After each stream one valid frame
is fed and must come out: the decoder has resynchronised, or the figure is refused.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TARGET_RATIO = 10.0
READ = 4096


@dataclass(frozen=True)
class _Codec:
    name: str
    baud: int
    make: Callable[[], Any]  # a fresh decoder with feed(bytes) -> list
    frames: Callable[[random.Random], bytes]  # one random valid frame, encoded
    is_frame: Callable[[Any], bool]  # a decoded item that is a frame (not a reported fault)


def _table() -> _Codec:
    from controller.devices.framing import Frame, FrameCodec
    from controller.profiles import load_table

    framing = load_table("sim-table").framing
    encoder = FrameCodec(framing)

    def frame(rng: random.Random) -> bytes:
        return encoder.encode(0x80 + rng.randrange(8), rng.randbytes(rng.randrange(8)))

    return _Codec("table", 57600, lambda: FrameCodec(framing), frame, lambda x: type(x) is Frame)


def _pn532() -> _Codec:
    from controller.devices.pn532 import TFI, FrameDecoder, InfoFrame, encode_info

    def frame(rng: random.Random) -> bytes:
        return encode_info(TFI.PN53X_TO_HOST, bytes((0x4B,)) + rng.randbytes(rng.randrange(40)))

    return _Codec("pn532", 115200, FrameDecoder, frame, lambda x: isinstance(x, InfoFrame))


def _uhf() -> _Codec:
    from controller.devices.uhf_reader import ResponseDecoder, UHFResponse

    def frame(rng: random.Random) -> bytes:
        return UHFResponse(1, 3, rng.randbytes(rng.randrange(60)), 0).encode()

    return _Codec("uhf", 57600, ResponseDecoder, frame, lambda x: isinstance(x, UHFResponse))


CODECS = {"table": _table, "pn532": _pn532, "uhf": _uhf}


def mutated(codec: _Codec, rng: random.Random, size: int) -> bytes:
    """Frames each cut short or with one bit flipped, back to back, `size` bytes."""
    out = bytearray()
    while len(out) < size:
        wire = bytearray(codec.frames(rng))
        if rng.random() < 0.5:
            del wire[rng.randrange(1, len(wire)) :]
        else:
            wire[rng.randrange(len(wire))] ^= 1 << rng.randrange(8)
        out += wire
    return bytes(out[:size])


def streams(codec: _Codec, size: int, seed: int) -> dict[str, bytes]:
    rng = random.Random(seed)
    return {
        "random": rng.randbytes(size),
        "zeros": bytes(size),
        "mutated": mutated(codec, rng, size),
    }


def skip_rate(codec: _Codec, noise: bytes, seed: int) -> float:
    """Bytes of `noise` skipped per second, fed in serial-sized reads; then a valid frame
    (behind a line that went quiet for long enough to end any frame the noise began) must
    be decoded."""
    decoder = codec.make()
    start = time.perf_counter()
    for i in range(0, len(noise), READ):
        decoder.feed(noise[i : i + READ])
    elapsed = time.perf_counter() - start
    if hasattr(decoder, "flush"):
        decoder.flush()
    else:  # the table codec has no idle flush: bytes that start no header end any frame
        decoder.feed(b"\x01" * 2048)
    good = codec.frames(random.Random(seed))
    if not any(codec.is_frame(x) for x in decoder.feed(good)):
        raise RuntimeError(f"{codec.name}: no frame decoded after the noise")
    return len(noise) / elapsed


def measure(size: int, seed: int) -> dict[str, dict[str, float]]:
    figures: dict[str, dict[str, float]] = {}
    for name, build in CODECS.items():
        codec = build()
        line = codec.baud / 10
        row: dict[str, float] = {"line_bytes_per_s": line}
        for kind, noise in streams(codec, size, seed).items():
            rate = skip_rate(codec, noise, seed)
            row[f"{kind}_bytes_per_s"] = rate
            row[f"{kind}_ratio"] = rate / line
        figures[name] = row
    return figures


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bytes", type=int, default=1_000_000, help="noise per stream (1 MB)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the noise (default 1)")


def run(args: argparse.Namespace) -> int:
    figures = measure(args.bytes, args.seed)
    if args.json:
        rounded = {c: {k: round(v, 1) for k, v in row.items()} for c, row in figures.items()}
        print(json.dumps(rounded))
        return 0
    print(f"garbage skipped, {args.bytes} bytes per stream, seed {args.seed}; target ≥ 10×")
    for name, row in figures.items():
        cells = "  ".join(
            f"{kind} {row[f'{kind}_bytes_per_s'] / 1e3:8.0f} kB/s ({row[f'{kind}_ratio']:5.0f}×)"
            for kind in ("random", "zeros", "mutated")
        )
        print(f"{name:6} line {row['line_bytes_per_s'] / 1e3:5.2f} kB/s  {cells}")
    return 0
