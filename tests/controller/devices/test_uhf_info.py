"""The UHF family's "get reader information" (0x21): the command on the wire, the answer
decoded byte by byte through the real decoder, and what is not an answer."""

from __future__ import annotations

from controller.devices.crc import crc16_uhf_bytes
from controller.devices.uhf_info import (
    ReaderInfo,
    ReaderVariant,
    parse_reader_info,
    reader_info_command,
    reader_info_response,
)
from controller.devices.uhf_reader import (
    InventoryLayout,
    ResponseDecoder,
    UHFResponse,
    UHFStatus,
)
from tools.sim.uhf_reader import SimUHFReader


def test_the_command_is_len_adr_cmd_crc() -> None:
    frame = reader_info_command(0x03).encode()
    assert frame[:3] == bytes((0x04, 0x03, 0x21))
    assert frame[3:] == crc16_uhf_bytes(frame[:3])


def test_an_answer_fed_byte_by_byte_decodes_to_its_fields() -> None:
    info = ReaderInfo(5, (3, 1), 0x09, 0x02, 0x4E, 0x00, 26, 10)
    wire = reader_info_response(info).encode()
    assert wire[0] == 0x0D and wire[1:4] == bytes((5, 0x21, 0x00))  # Len 13, Adr, reCmd, ok
    decoder = ResponseDecoder()
    frames = [f for b in wire for f in decoder.feed(bytes((b,)))]
    assert [parse_reader_info(f) for f in frames] == [info]
    assert str(info) == (
        "UHFReader18 class, version 3.1, type 0x09, EPC C1G2, 26 dBm, scan time 1 s"
    )


def test_what_is_not_an_answer_gives_none() -> None:
    good = reader_info_response(ReaderInfo(0, (1, 0), 1, 2, 3, 4, 5, 6))
    assert parse_reader_info(UHFResponse(0x21, UHFStatus.ILLEGAL_COMMAND)) is None
    assert parse_reader_info(UHFResponse(0x21, 0, good.data[:-1])) is None
    assert parse_reader_info(UHFResponse(0x01, 0, good.data)) is None


def test_the_simulated_reader_answers_at_its_address_and_broadcast_only() -> None:
    reader = SimUHFReader(adr=2)
    for adr, answers in ((2, 1), (0xFF, 1), (1, 0)):
        frames = ResponseDecoder().feed(reader.feed(reader_info_command(adr).encode()))
        assert [parse_reader_info(f).adr for f in frames] == [2] * answers


def test_long_reader_info_unrecognised_is_now_named() -> None:
    """A UHFReader288-class reader appends Ant, BeepEn, OutputRep, CheckAnt (12 data bytes,
    Len 0x11): the answer was refused for its length, so `mjtable probe` named nothing."""
    data = bytes.fromhex("0201 26 03 48 00 1e 0a 0f 01 00 01")
    wire = UHFResponse(0x21, UHFStatus.SUCCESS, data, 0).encode()
    assert wire[0] == 0x11
    (frame,) = ResponseDecoder().feed(wire)
    info = parse_reader_info(frame)
    assert info == ReaderInfo(0, (2, 1), 0x26, 0x03, 0x48, 0x00, 30, 10, 0x0F, 1, 0, 1)
    assert info.variant is ReaderVariant.UHFREADER288
    assert info.variant.layout is InventoryLayout.ANTENNA_RSSI and info.variant.selects_antennas
    assert str(info).startswith("UHFReader288 class, version 2.1, type 0x26")
    assert reader_info_response(info).encode() == wire  # the simulator says it back


def test_reader_info_of_an_undocumented_length_keeps_what_it_cannot_name() -> None:
    data = bytes.fromhex("0224 09 03 4e 00 1e 0a 77")
    info = parse_reader_info(UHFResponse(0x21, UHFStatus.SUCCESS, data, 3))
    assert info.variant is ReaderVariant.UNKNOWN and info.variant.layout is None
    assert info.extra == b"\x77" and "1 more bytes no document names (77)" in str(info)
    manual = parse_reader_info(UHFResponse(0x21, UHFStatus.SUCCESS, data[:8], 3))
    assert manual.variant is ReaderVariant.UHFREADER18
    assert manual.variant.layout is InventoryLayout.PLAIN and not manual.variant.selects_antennas
