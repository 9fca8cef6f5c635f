"""Fuzzing the reader codecs with hypothesis: garbage before, between and after frames,
truncated frames, flipped bits, bad checksums, arbitrary chunking of the byte stream.

The property: the codec never raises, counts the damage, resynchronises, and yields every
intact frame, in order. The one thing no codec can do is tell a frame forged by noise from
a real one, so each example is checked against an independent reading of the framing rules
(`*_valid_at` below, written from the spec, not from the codec) and examples where the
noise itself happens to form a valid frame are set aside with `assume`.
"""

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from controller.devices.pn532 import TFI, Ack, ErrorFrame, FrameDecoder, InfoFrame, Nack
from controller.devices.uhf_reader import CommandDecoder, ResponseDecoder, UHFCommand, UHFResponse

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def crc_mcrf4xx(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


# --- oracles: "does a complete valid frame start at position p?" -------------------------


def uhf_valid_at(s: bytes, p: int, min_len: int) -> bool:
    length = s[p]
    if length < min_len or p + length + 1 > len(s):
        return False
    return crc_mcrf4xx(s[p : p + length - 1]) == int.from_bytes(
        s[p + length - 1 : p + length + 1], "little"
    )


def pn532_valid_at(s: bytes, p: int) -> bool:
    """A start code 00 FF at p opening an ACK, NACK, error or D4/D5 frame, checksums right."""
    if s[p : p + 2] != b"\x00\xff" or p + 4 > len(s):
        return False
    length, lcs = s[p + 2], s[p + 3]
    if (length, lcs) in ((0, 0xFF), (0xFF, 0)):
        return s[p + 4 : p + 5] == b"\x00"
    if (length, lcs) == (0xFF, 0xFF):
        if p + 7 > len(s) or sum(s[p + 4 : p + 7]) % 256:
            return False
        length, body_at = int.from_bytes(s[p + 4 : p + 6], "big"), p + 7
    else:
        if (length + lcs) % 256:
            return False
        body_at = p + 4
    end = body_at + length
    if length == 0 or end + 2 > len(s):
        return False
    body = s[body_at:end]
    if (sum(body) + s[end]) % 256 or s[end + 1] != 0:
        return False
    return body == b"\x7f" or body[0] in (0xD4, 0xD5)


# --- strategies ----------------------------------------------------------------------------

pn532_frames = st.one_of(
    st.just(Ack()),
    st.just(Nack()),
    st.just(ErrorFrame()),
    st.builds(
        InfoFrame, st.sampled_from([TFI.HOST_TO_PN53X, TFI.PN53X_TO_HOST]), st.binary(max_size=300)
    ),
)
uhf_responses = st.builds(
    UHFResponse,
    cmd=st.integers(0, 255),
    status=st.integers(0, 255),
    data=st.binary(max_size=120),
    adr=st.integers(0, 255),
)
uhf_commands = st.builds(
    UHFCommand, cmd=st.integers(0, 255), data=st.binary(max_size=120), adr=st.integers(0, 255)
)


@st.composite
def noise(draw, frames, skip_first: int) -> bytes:
    """Line noise: random bytes, a cut frame, a frame with one bit flipped, or nothing."""
    kind = draw(st.sampled_from(["none", "bytes", "cut", "flip", "bytes"]))
    if kind == "none":
        return b""
    if kind == "bytes":
        return draw(st.binary(min_size=1, max_size=24))
    wire = draw(frames).encode()
    if kind == "cut":
        return wire[: draw(st.integers(1, len(wire) - 1))]
    i = draw(st.integers(skip_first, len(wire) - 1))
    bit = draw(st.integers(0, 7))
    return wire[:i] + bytes((wire[i] ^ (1 << bit),)) + wire[i + 1 :]


@st.composite
def streams(draw, frames, skip_first: int = 0):
    """(stream bytes, the intact frames in it, the garbage positions, the garbage itself)."""
    real = draw(st.lists(frames, max_size=6))
    stream, garbage_at, garbage = bytearray(), [], bytearray()
    for frame in [*real, None]:
        junk = draw(noise(frames, skip_first))
        garbage_at += range(len(stream), len(stream) + len(junk))
        garbage += junk
        stream += junk
        if frame is not None:
            stream += frame.encode()
    return bytes(stream), real, garbage_at, bytes(garbage)


def feed_in_chunks(decoder, stream: bytes, sizes: list[int]) -> list:
    out, pos, i = [], 0, 0
    while pos < len(stream):
        size = sizes[i % len(sizes)] if sizes else 1
        out += decoder.feed(stream[pos : pos + size])
        pos, i = pos + size, i + 1
    return out + decoder.flush()


chunk_sizes = st.lists(st.integers(1, 40), max_size=8)

# --- PN532 --------------------------------------------------------------------------------


@FUZZ
@given(streams(pn532_frames, skip_first=1), chunk_sizes)
def test_pn532_yields_every_intact_frame(sample, sizes):
    stream, real, garbage_at, garbage = sample
    assume(not any(pn532_valid_at(stream, p) for p in garbage_at))
    decoder = FrameDecoder()
    assert feed_in_chunks(decoder, stream, sizes) == real
    stats = decoder.stats()
    assert stats.frames == len(real)
    if any(garbage):  # non-idle noise is always counted, once per run at least
        assert stats.error_total >= 1 and stats.junk_bytes >= 1
    else:
        assert stats.error_total == 0 and stats.junk_bytes == 0


@FUZZ
@given(st.binary(max_size=400), chunk_sizes)
def test_pn532_never_raises_on_anything(stream, sizes):
    decoder = FrameDecoder()
    frames = feed_in_chunks(decoder, stream, sizes)
    stats = decoder.stats()
    assert stats.frames == len(frames)
    assert stats.bytes_in == len(stream)
    assert stats.junk_bytes <= len(stream)
    assert decoder.flush() == []


@FUZZ
@given(streams(pn532_frames, skip_first=1))
def test_pn532_chunking_does_not_matter(sample):
    stream = sample[0]
    whole = FrameDecoder()
    one_by_one = FrameDecoder()
    assert feed_in_chunks(whole, stream, [len(stream) or 1]) == feed_in_chunks(
        one_by_one, stream, [1]
    )
    assert whole.stats() == one_by_one.stats()


# --- UHF ----------------------------------------------------------------------------------


@FUZZ
@given(streams(uhf_responses), chunk_sizes)
def test_uhf_responses_yield_every_intact_frame(sample, sizes):
    stream, real, garbage_at, garbage = sample
    assume(not any(uhf_valid_at(stream, p, 5) for p in garbage_at))
    decoder = ResponseDecoder()
    assert feed_in_chunks(decoder, stream, sizes) == real
    stats = decoder.stats()
    assert stats.frames == len(real)
    assert (stats.error_total >= 1) == bool(garbage)
    assert stats.junk_bytes == len(garbage)


@FUZZ
@given(streams(uhf_commands), chunk_sizes)
def test_uhf_commands_yield_every_intact_frame(sample, sizes):
    stream, real, garbage_at, garbage = sample
    assume(not any(uhf_valid_at(stream, p, 4) for p in garbage_at))
    decoder = CommandDecoder()
    assert feed_in_chunks(decoder, stream, sizes) == real
    assert decoder.stats().junk_bytes == len(garbage)


@FUZZ
@given(st.binary(max_size=400), chunk_sizes)
def test_uhf_never_raises_on_anything(stream, sizes):
    for decoder in (ResponseDecoder(), CommandDecoder()):
        frames = feed_in_chunks(decoder, stream, sizes)
        stats = decoder.stats()
        assert stats.frames == len(frames)
        assert stats.junk_bytes + sum(len(f.encode()) for f in frames) == len(stream)
        assert decoder.flush() == []


@FUZZ
@given(streams(uhf_responses))
def test_uhf_chunking_does_not_matter(sample):
    stream = sample[0]
    whole, one_by_one = ResponseDecoder(), ResponseDecoder()
    assert feed_in_chunks(whole, stream, [len(stream) or 1]) == feed_in_chunks(
        one_by_one, stream, [1]
    )
    assert whole.stats() == one_by_one.stats()
