"""Checksums used by reader and table framings: CRC-16 (reflected and MSB-first) and the
8-bit sums. The one home of checksum arithmetic: codecs and profile framings call these.

The UHFReader18 / CF-RU5102 family (HARDWARE-NOTES) uses CRC-16 with the reflected
polynomial 0x8408 (0x1021 bit-reversed), preset 0xFFFF, no final XOR — the variant known as
CRC-16/MCRF4XX. It is sent LSB first. Worked value: `04 FF 01` → 0xB41B, sent `1B B4`.
"""

from __future__ import annotations

import binascii
from functools import cache

UHF_POLY = 0x8408  # reflected CCITT polynomial
UHF_PRESET = 0xFFFF


@cache
def _table(poly: int) -> tuple[int, ...]:
    """Byte-at-a-time table for a reflected (LSB-first) CRC-16 with polynomial `poly`."""
    rows = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ poly if crc & 1 else crc >> 1
        rows.append(crc)
    return tuple(rows)


def crc16_reflected(
    data: bytes, poly: int = UHF_POLY, init: int = UHF_PRESET, xorout: int = 0
) -> int:
    """Reflected CRC-16 of `data` (defaults: the UHF reader family's CRC-16/MCRF4XX)."""
    if not (0 <= poly <= 0xFFFF and 0 <= init <= 0xFFFF and 0 <= xorout <= 0xFFFF):
        raise ValueError("CRC-16 parameters must fit in 16 bits")
    table = _table(poly)
    crc = init
    for byte in data:
        crc = (crc >> 8) ^ table[(crc ^ byte) & 0xFF]
    return crc ^ xorout


@cache
def _msb_table(poly: int) -> tuple[int, ...]:
    """Byte-at-a-time table for an MSB-first CRC-16 with polynomial `poly`."""
    rows = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ poly) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        rows.append(crc)
    return tuple(rows)


def crc16_msb(data: bytes, poly: int, init: int, xorout: int = 0) -> int:
    """MSB-first (not reflected) CRC-16 of `data`, e.g. CRC-16/CCITT-FALSE (0x1021, 0xFFFF)."""
    table = _msb_table(poly)
    crc = init
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc ^ xorout


def reflect16(value: int) -> int:
    """The 16-bit value with its bits in reverse order (0x1021 → 0x8408)."""
    return int(f"{value:016b}"[::-1], 2)


# each byte with its bits in reverse order: a reflected CRC over data is the bit-reversed
# MSB-first CRC over bit-reversed bytes, which the C library computes (binascii.crc_hqx is
# CRC-16 with polynomial 0x1021, MSB first, no final XOR)
BIT_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def crc16_uhf(data: bytes | bytearray | memoryview) -> int:
    """CRC of a UHFReader18-family frame body (Len .. last data byte)."""
    r = binascii.crc_hqx(bytes(data).translate(BIT_REVERSED), UHF_PRESET)
    return (BIT_REVERSED[r & 0xFF] << 8) | BIT_REVERSED[r >> 8]


def uhf_frame_checks(buf: bytes | bytearray, start: int, end: int) -> bool:
    """Whether buf[start:end] is a body (Len .. last data byte) followed by its two CRC bytes
    (LSB first): the decoder's test of a candidate frame, without building the CRC value."""
    r = binascii.crc_hqx(buf[start : end - 2].translate(BIT_REVERSED), UHF_PRESET)
    return r == (BIT_REVERSED[buf[end - 2]] << 8) | BIT_REVERSED[buf[end - 1]]


def crc16_uhf_bytes(data: bytes) -> bytes:
    """The two CRC bytes as they go on the wire (LSB first)."""
    return crc16_uhf(data).to_bytes(2, "little")


def sum8(data: bytes | bytearray) -> int:
    """Low 8 bits of the byte sum."""
    return sum(data) & 0xFF


def checksum8_complement(data: bytes) -> int:
    """The byte that makes the 8-bit sum of `data` plus itself zero (PN532 LCS/DCS)."""
    return (-sum(data)) & 0xFF


def xor8(data: bytes) -> int:
    """XOR of all bytes."""
    acc = 0
    for byte in data:
        acc ^= byte
    return acc
