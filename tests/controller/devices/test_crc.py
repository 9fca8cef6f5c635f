"""CRC-16/MCRF4XX of the UHF reader family and the 8-bit checksums, against worked values."""

from hypothesis import given, strategies as st

from controller.devices.crc import (
    checksum8_complement,
    crc16_reflected,
    crc16_uhf,
    crc16_uhf_bytes,
    sum8,
    xor8,
)


def bitwise_crc(data: bytes) -> int:
    """The definition, one bit at a time: shift right, XOR 0x8408 when a 1 falls out."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def test_minimal_inventory_crc():
    # HARDWARE-NOTES: the minimal inventory command is 04 FF 01 1B B4 (CRC sent LSB first).
    assert crc16_uhf(bytes.fromhex("04 ff 01")) == 0xB41B
    assert crc16_uhf_bytes(bytes.fromhex("04 ff 01")) == bytes.fromhex("1b b4")


def test_real_capture_crc():
    # HARDWARE-NOTES: captured inventory answer, CRC f9 c3.
    body = bytes.fromhex("15 00 01 03 01 01 0c e28068940000400a9d22a9eb 5d")
    assert crc16_uhf_bytes(body) == bytes.fromhex("f9 c3")


def test_catalogue_check_value():
    # CRC-16/MCRF4XX check value over ASCII "123456789".
    assert crc16_uhf(b"123456789") == 0x6F91


def test_other_reflected_variant():
    # CRC-16/KERMIT: same polynomial, preset 0 — check value 0x2189.
    assert crc16_reflected(b"123456789", 0x8408, 0x0000) == 0x2189
    # CRC-16/X-25: preset 0xFFFF, final XOR 0xFFFF — check value 0x906E.
    assert crc16_reflected(b"123456789", 0x8408, 0xFFFF, 0xFFFF) == 0x906E


@given(st.binary(max_size=300))
def test_table_matches_bitwise_definition(data):
    assert crc16_uhf(data) == bitwise_crc(data)


@given(st.binary(max_size=300))
def test_residue_of_frame_with_its_crc_is_zero(data):
    # With no final XOR, running the CRC over data + its own CRC (LSB first) leaves zero.
    assert crc16_uhf(data + crc16_uhf_bytes(data)) == 0


@given(st.binary(min_size=1, max_size=100), st.integers(0, 7), st.data())
def test_single_bit_flip_always_detected(data, bit, pick):
    i = pick.draw(st.integers(0, len(data) - 1))
    flipped = bytearray(data)
    flipped[i] ^= 1 << bit
    assert crc16_uhf(bytes(flipped)) != crc16_uhf(data)


def test_eight_bit_checksums():
    # PN532 GetFirmwareVersion: LEN 02 → LCS FE; D4 02 → DCS 2A.
    assert checksum8_complement(b"\x02") == 0xFE
    assert checksum8_complement(b"\xd4\x02") == 0x2A
    assert sum8(b"\xd4\x02\x2a") == 0
    assert xor8(b"\x01\x02\x04\x08") == 0x0F
    assert xor8(b"") == 0
