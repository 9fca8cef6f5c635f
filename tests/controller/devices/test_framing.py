"""Checksums against published check values and known frames; the profile-driven codec fed
one byte at a time, with garbage, corruption and several framings (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from controller.devices.framing import (
    BadFrame,
    ByteOrder,
    Checksum,
    Covers,
    FieldName,
    Frame,
    FrameCodec,
    FrameFault,
    Framing,
    LengthCounts,
    LengthRule,
    checksum,
)

# The CRC catalogue's "check" value: the CRC of the ASCII bytes "123456789".
CHECK = {
    Checksum.CRC16_MODBUS: 0x4B37,
    Checksum.CRC16_CCITT_FALSE: 0x29B1,
    Checksum.CRC16_X25: 0x906E,
    Checksum.CRC16_KERMIT: 0x2189,
    Checksum.CRC16_MCRF4XX: 0x6F91,
    Checksum.XOR: 0x31,  # '1'^'2'^...^'9' = 0x31
    Checksum.SUM8: 0xDD,  # 477 mod 256
    Checksum.SUM8_NEG: 0x23,  # 256 - 0xDD
    Checksum.NONE: 0,
}


@pytest.mark.parametrize("kind", list(Checksum))
def test_check_values(kind: Checksum) -> None:
    assert checksum(kind, b"123456789") == CHECK[kind]


def test_known_frames() -> None:
    # MODBUS RTU "read 10 holding registers from 0 of slave 1", CRC sent low byte first
    assert checksum(Checksum.CRC16_MODBUS, bytes.fromhex("01 03 00 00 00 0a")) == 0xCDC5
    # UHFReader18 minimal inventory 04 FF 01 | 1B B4 (HARDWARE-NOTES), LSB first
    assert checksum(Checksum.CRC16_MCRF4XX, bytes.fromhex("04 ff 01")) == 0xB41B
    # Impinj R2000 real-time inventory A0 04 01 89 01 | D1: check = -sum & 0xFF
    assert checksum(Checksum.SUM8_NEG, bytes.fromhex("a0 04 01 89 01")) == 0xD1


SIM = Framing(header=(0xAA, 0x55), checksum=Checksum.XOR)


def one_at_a_time(codec: FrameCodec, data: bytes) -> list[Frame | BadFrame]:
    out: list[Frame | BadFrame] = []
    for b in data:
        out += codec.feed(bytes([b]))
    return out


def test_sim_framing_hand_worked() -> None:
    codec = FrameCodec(SIM)
    # show-score N -12: LEN 04 = code + 3 payload bytes; XOR 04^12^04^FF^F4 = 19
    frame = codec.encode(0x12, bytes.fromhex("04 ff f4"))
    assert frame == bytes.fromhex("aa 55 04 12 04 ff f4 19")
    assert one_at_a_time(codec, frame) == [Frame(0x12, bytes.fromhex("04 ff f4"), frame)]
    assert not codec.errors


def test_resync_after_garbage_and_bad_checksum() -> None:
    codec = FrameCodec(SIM)
    good = codec.encode(0x80)
    bad = bytearray(codec.encode(0x82, b"\x06\x04"))
    bad[-1] ^= 0x01
    stream = b"\x00\xaa\x13" + bytes(bad) + b"\xaa" + good
    out = one_at_a_time(codec, stream)
    frames = [f for f in out if isinstance(f, Frame)]
    assert frames == [Frame(0x80, b"", good)]
    assert codec.errors[FrameFault.BAD_CHECKSUM] == 1
    assert codec.errors[FrameFault.GARBAGE] >= 1
    assert BadFrame(FrameFault.BAD_CHECKSUM, bytes(bad), len(bad)) in out


def test_bad_length_resyncs() -> None:
    codec = FrameCodec(Framing(header=(0xAA, 0x55), checksum=Checksum.XOR, max_payload=4))
    good = codec.encode(0x81)
    out = codec.feed(bytes.fromhex("aa 55 09 81") + good)  # LEN 9: payload 8 > max 4
    assert codec.errors[FrameFault.BAD_LENGTH] == 1
    assert [f for f in out if isinstance(f, Frame)] == [Frame(0x81, b"", good)]


FIXED = Framing(
    header=(0x7E,),
    checksum=Checksum.CRC16_MODBUS,
    covers=Covers.FROM_HEADER,
    length=LengthRule.FIXED,
    fields=(FieldName.CODE, FieldName.PAYLOAD),
    trailer=(0x0D,),
)


def test_fixed_length_with_trailer_and_unknown_code() -> None:
    codec = FrameCodec(FIXED, {0x01: 0, 0x02: 2})
    frame = codec.encode(0x02, b"\x06\x01")
    crc = checksum(Checksum.CRC16_MODBUS, b"\x7e\x02\x06\x01")
    assert frame == b"\x7e\x02\x06\x01" + crc.to_bytes(2, "little") + b"\x0d"
    stray = b"\x7e\x09\x00"  # code 9 is not in the profile
    bad_trailer = frame[:-1] + b"\x0a"
    out = one_at_a_time(codec, stray + bad_trailer + frame)
    assert [f for f in out if isinstance(f, Frame)] == [Frame(0x02, b"\x06\x01", frame)]
    assert codec.errors[FrameFault.UNKNOWN_CODE] == 1
    assert codec.errors[FrameFault.BAD_TRAILER] == 1


def test_fixed_length_needs_sizes() -> None:
    with pytest.raises(ValueError):
        FrameCodec(FIXED)


@pytest.mark.parametrize(
    ("counts", "adjust", "expected_len"),
    [
        (LengthCounts.PAYLOAD, 0, 2),
        (LengthCounts.CODE_PAYLOAD, 0, 3),
        (LengthCounts.AFTER, 0, 5),  # code 1 + payload 2 + crc 2, as the UHF reader's Len
        (LengthCounts.FRAME, 0, 8),  # header 2 + len 1 + 5
        (LengthCounts.FRAME, -2, 6),
    ],
)
def test_length_rules(counts: LengthCounts, adjust: int, expected_len: int) -> None:
    framing = Framing(
        header=(0xAA, 0x55),
        checksum=Checksum.CRC16_X25,
        length_counts=counts,
        length_adjust=adjust,
    )
    codec = FrameCodec(framing)
    frame = codec.encode(0x30, b"\x01\x02")
    assert frame[2] == expected_len and len(frame) == 8
    assert codec.feed(frame) == [Frame(0x30, b"\x01\x02", frame)]


def test_framing_validation() -> None:
    with pytest.raises(ValueError, match="sync byte"):
        Framing(header=(), checksum=Checksum.XOR)
    with pytest.raises(ValueError, match="payload must come last"):
        Framing(
            header=(1,),
            checksum=Checksum.XOR,
            fields=(FieldName.PAYLOAD, FieldName.LENGTH, FieldName.CODE),
        )
    with pytest.raises(ValueError, match="length only"):
        Framing(header=(1,), checksum=Checksum.XOR, length=LengthRule.FIXED)


# ---- property tests over generated framings


ALL_CHECKSUMS = [c for c in Checksum if c is not Checksum.NONE]
CRC16 = [c for c in Checksum if c.size == 2]


@st.composite
def framings(
    draw: st.DrawFn, checksums: list[Checksum] = ALL_CHECKSUMS, min_header: int = 1
) -> Framing:
    header = tuple(draw(st.lists(st.integers(0, 255), min_size=min_header, max_size=3)))
    fixed = draw(st.booleans())
    order = [FieldName.CODE] if fixed else draw(st.permutations([FieldName.LENGTH, FieldName.CODE]))
    return Framing(
        header=header,
        checksum=draw(st.sampled_from(checksums)),
        covers=draw(st.sampled_from(Covers)),
        checksum_order=draw(st.sampled_from(ByteOrder)),
        length=LengthRule.FIXED if fixed else LengthRule.FIELD,
        length_counts=draw(st.sampled_from(LengthCounts)),
        length_size=draw(st.integers(1, 2)),
        length_order=draw(st.sampled_from(ByteOrder)),
        code_size=draw(st.integers(1, 2)),
        fields=(*order, FieldName.PAYLOAD),
        trailer=tuple(draw(st.lists(st.integers(0, 255), max_size=2))),
        max_payload=16,
    )


SIZES = {c: (c * 7) % 9 for c in range(1, 40)}  # payload size per code, for fixed framings


@st.composite
def messages(draw: st.DrawFn, avoid: int) -> tuple[int, bytes]:
    code = draw(st.integers(1, 39))
    size = SIZES[code]
    byte = st.integers(0, 255).filter(lambda b: b != avoid)
    return code, bytes(draw(st.lists(byte, min_size=size, max_size=size)))


def not_header_start(framing: Framing) -> st.SearchStrategy[bytes]:
    first = framing.header[0]
    return st.lists(st.integers(0, 255).filter(lambda b: b != first), max_size=12).map(bytes)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_every_intact_frame_comes_through(data: st.DataObject) -> None:
    """Garbage between frames (never starting a header) and single-bit flips in the payload
    or checksum of some frames: exactly the intact frames come out, each flip counted.

    With CRC-16 and a header of two or more bytes: after a bad frame the codec rescans its
    bytes, and a weak check could (1 in 256) accept a false frame found in there."""
    framing = data.draw(framings(CRC16, min_header=2))
    codec = FrameCodec(framing, SIZES)
    msgs = data.draw(st.lists(messages(framing.header[0]), max_size=6))
    stream = b""
    expected = []
    corrupted = 0
    for code, payload in msgs:
        stream += data.draw(not_header_start(framing))
        raw = bytearray(codec.encode(code, payload))
        body_end = len(raw) - len(framing.trailer)
        first_flippable = body_end - framing.checksum.size - len(payload)
        if data.draw(st.booleans()):
            pos = data.draw(st.integers(first_flippable, body_end - 1))
            raw[pos] ^= 1 << data.draw(st.integers(0, 7))
            corrupted += 1
        else:
            expected.append(Frame(code, payload, bytes(raw)))
        stream += bytes(raw)
    stream += data.draw(not_header_start(framing))
    # a trailing partial header waits for more bytes: flush with a last clean frame, and a
    # frame's length of filler after it: a false header in a damaged frame (its trailer
    # reads as a header) holds the bytes after it until its own length has arrived, then
    # fails its check and the bytes are scanned again (a stream that goes on delivers the
    # frame late, never loses it)
    last = codec.encode(1, bytes(SIZES[1]))
    filler = bytes([(framing.header[0] + 1) % 256]) * (framing.overhead + framing.max_payload)
    out = one_at_a_time(codec, stream + last + filler)
    frames = [f for f in out if isinstance(f, Frame)]
    assert frames == [*expected, Frame(1, bytes(SIZES[1]), last)]
    assert codec.errors[FrameFault.BAD_CHECKSUM] >= corrupted


@settings(max_examples=150, deadline=None)
@given(framing=framings(), noise=st.binary(max_size=80), chunks=st.integers(1, 7))
def test_arbitrary_bytes_never_raise_and_a_clean_frame_follows(
    framing: Framing, noise: bytes, chunks: int
) -> None:
    """After any bytes at all, a filler at least one frame long that never starts a header,
    then a clean frame: the codec has resynchronised and yields that frame last."""
    codec = FrameCodec(framing, SIZES)
    filler = bytes([(framing.header[0] + 1) % 256]) * (framing.overhead + framing.max_payload)
    clean = codec.encode(2, bytes(range(SIZES[2])))
    stream = noise + filler + clean
    out: list[Frame | BadFrame] = []
    for i in range(0, len(stream), chunks):
        out += codec.feed(stream[i : i + chunks])
    assert out[-1] == Frame(2, bytes(range(SIZES[2])), clean)
