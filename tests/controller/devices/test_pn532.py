"""PN532 HSU frames and command layer: byte-exact known frames, each fed one byte at a time."""

import pytest

from controller.devices.events import TagsRead
from controller.devices.pn532 import (
    ACK_FRAME,
    ERROR_FRAME,
    NACK_FRAME,
    TFI,
    WAKEUP,
    Ack,
    Acknowledged,
    Command,
    ErrorFrame,
    FirmwareVersion,
    FrameDecoder,
    InfoFrame,
    Nack,
    PassiveTarget,
    PassiveTargets,
    PN532ErrorKind,
    Unparsed,
    encode_info,
    firmware_version_answer,
    get_firmware_version,
    in_list_passive_target,
    in_list_passive_target_answer,
    parse_answer,
    rf_max_retries,
    sam_configuration,
)

# Well-known PN532 answer to GetFirmwareVersion: IC 0x32, firmware 1.6, supports A/B/18092.
PN532_FW_ANSWER = bytes.fromhex("00 00 ff 06 fa d5 03 32 01 06 07 e8 00")
# InListPassiveTarget answer, MIFARE Classic 1K (ATQA 00 04, SAK 08), UID de ad be ef;
# LEN 0C, LCS F4, DCS: D5+4B+01+01+00+04+08+04+DE+AD+BE+EF = 0x46A → 0x96.
ONE_CLASSIC = bytes.fromhex("00 00 ff 0c f4 d5 4b 01 01 00 04 08 04 de ad be ef 96 00")


def bytewise(decoder: FrameDecoder, data: bytes) -> list:
    return [frame for b in data for frame in decoder.feed(bytes((b,)))]


def test_get_firmware_version_byte_exact():
    assert get_firmware_version() == bytes.fromhex("00 00 ff 02 fe d4 02 2a 00")


def test_in_list_passive_target_byte_exact():
    assert in_list_passive_target() == bytes.fromhex("00 00 ff 04 fc d4 4a 01 00 e1 00")


def test_sam_configuration_byte_exact():
    # D4 14 01 14 01: LEN 05, LCS FB; D4+14+01+14+01 = 0xFE → DCS 02.
    assert sam_configuration() == bytes.fromhex("00 00 ff 05 fb d4 14 01 14 01 02 00")


def test_rf_max_retries_frame():
    # D4 32 05 FF 01 02: sum 0x20D → DCS F3.
    assert rf_max_retries() == bytes.fromhex("00 00 ff 06 fa d4 32 05 ff 01 02 f3 00")


def test_wakeup_is_long_preamble():
    assert len(WAKEUP) == 16
    assert WAKEUP.startswith(b"\x55\x55")
    assert not any(WAKEUP[2:])


@pytest.mark.parametrize(
    ("wire", "frame"),
    [
        (ACK_FRAME, Ack()),
        (NACK_FRAME, Nack()),
        (ERROR_FRAME, ErrorFrame()),
        (bytes.fromhex("00 00 ff 00 ff 00"), Ack()),
        (bytes.fromhex("00 00 ff ff 00 00"), Nack()),
        (bytes.fromhex("00 00 ff 01 ff 7f 81 00"), ErrorFrame()),
        (get_firmware_version(), InfoFrame(TFI.HOST_TO_PN53X, b"\x02")),
        (PN532_FW_ANSWER, InfoFrame(TFI.PN53X_TO_HOST, bytes.fromhex("03 32 01 06 07"))),
    ],
)
def test_known_frames_decode_byte_at_a_time(wire, frame):
    decoder = FrameDecoder()
    assert bytewise(decoder, wire) == [frame]
    assert decoder.stats().error_total == 0
    assert frame.encode() == wire


def test_firmware_version_answer():
    decoder = FrameDecoder()
    (frame,) = bytewise(decoder, PN532_FW_ANSWER)
    fw = parse_answer(frame, Command.GET_FIRMWARE_VERSION)
    assert fw == FirmwareVersion(ic=0x32, version=1, revision=6, support=0x07)
    assert str(fw) == "PN532 v1.6"
    assert firmware_version_answer(fw) == PN532_FW_ANSWER


def test_in_list_passive_target_answer_to_event():
    (frame,) = bytewise(FrameDecoder(), ONE_CLASSIC)
    targets = parse_answer(frame, Command.IN_LIST_PASSIVE_TARGET)
    assert targets == PassiveTargets(
        (PassiveTarget(1, b"\x00\x04", 0x08, bytes.fromhex("deadbeef")),)
    )
    assert targets.event(3.5) == TagsRead(3.5, 1, (bytes.fromhex("deadbeef"),))
    assert in_list_passive_target_answer(targets.targets) == ONE_CLASSIC


def test_no_target_answer():
    (frame,) = FrameDecoder().feed(bytes.fromhex("00 00 ff 03 fd d5 4b 00 e0 00"))
    assert parse_answer(frame, Command.IN_LIST_PASSIVE_TARGET) == PassiveTargets(())


def test_iso14443_4_target_carries_ats():
    target = PassiveTarget(
        1, b"\x03\x44", 0x20, bytes.fromhex("04112233445566"), bytes.fromhex("7577810280")
    )
    wire = in_list_passive_target_answer([target])
    # ATSLen counts itself: 5 ATS bytes → 06.
    assert wire[-8:-2] == bytes.fromhex("06 75 77 81 02 80")
    (frame,) = bytewise(FrameDecoder(), wire)
    assert parse_answer(frame, Command.IN_LIST_PASSIVE_TARGET) == PassiveTargets((target,))


def test_two_targets():
    targets = [
        PassiveTarget(1, b"\x00\x44", 0x00, bytes(range(7))),
        PassiveTarget(2, b"\x00\x04", 0x08, b"\x01\x02\x03\x04"),
    ]
    (frame,) = FrameDecoder().feed(in_list_passive_target_answer(targets))
    assert parse_answer(frame, Command.IN_LIST_PASSIVE_TARGET) == PassiveTargets(tuple(targets))


def test_empty_answers_acknowledged():
    (frame,) = FrameDecoder().feed(bytes.fromhex("00 00 ff 02 fe d5 15 16 00"))
    assert parse_answer(frame, Command.SAM_CONFIGURATION) == Acknowledged(Command.SAM_CONFIGURATION)


@pytest.mark.parametrize(
    ("data", "command", "fragment"),
    [
        (bytes.fromhex("4b 01 01 00 04 08 09 de ad"), Command.IN_LIST_PASSIVE_TARGET, "NFCID"),
        (bytes.fromhex("4b 02 01 00 04 08 01 de"), Command.IN_LIST_PASSIVE_TARGET, "truncated"),
        (bytes.fromhex("4b 00 77"), Command.IN_LIST_PASSIVE_TARGET, "trailing"),
        (bytes.fromhex("4b"), Command.IN_LIST_PASSIVE_TARGET, "count"),
        (bytes.fromhex("03 32 01"), Command.GET_FIRMWARE_VERSION, "firmware"),
        (bytes.fromhex("4b 00"), Command.GET_FIRMWARE_VERSION, "answer code 0x4b"),
        (bytes.fromhex("15 01"), Command.SAM_CONFIGURATION, "unexpected"),
    ],
)
def test_unparsable_answers_are_values(data, command, fragment):
    result = parse_answer(InfoFrame(TFI.PN53X_TO_HOST, data), command)
    assert isinstance(result, Unparsed)
    assert fragment in result.detail


def test_host_frame_is_not_an_answer():
    assert isinstance(
        parse_answer(InfoFrame(TFI.HOST_TO_PN53X, b"\x03"), Command.GET_FIRMWARE_VERSION), Unparsed
    )


def test_reply_sequence_ack_then_answer():
    decoder = FrameDecoder()
    frames = bytewise(decoder, ACK_FRAME + PN532_FW_ANSWER)
    assert [type(f) for f in frames] == [Ack, InfoFrame]


def test_extended_frame_round_trip():
    data = bytes(range(256)) + bytes(44)
    wire = encode_info(TFI.PN53X_TO_HOST, data)
    assert wire[:8] == bytes.fromhex("00 00 ff ff ff 01 2d d2")  # LEN 0x012D = 301, LCS D2
    assert bytewise(FrameDecoder(), wire) == [InfoFrame(TFI.PN53X_TO_HOST, data)]


def test_normal_frame_of_255_bytes():
    data = bytes(254)  # TFI + 254 = LEN 0xFF, LCS 0x01 — neither NACK nor extended
    wire = encode_info(TFI.HOST_TO_PN53X, data)
    assert wire[3:5] == b"\xff\x01"
    assert FrameDecoder().feed(wire) == [InfoFrame(TFI.HOST_TO_PN53X, data)]


def test_device_side_wakeup_is_idle():
    decoder = FrameDecoder("sim", idle=b"\x00\x55")
    frames = bytewise(decoder, WAKEUP + sam_configuration())
    assert frames == [InfoFrame(TFI.HOST_TO_PN53X, bytes.fromhex("14 01 14 01"))]
    assert decoder.stats().error_total == 0
    host = FrameDecoder()
    host.feed(WAKEUP)
    assert dict(host.stats().errors) == {PN532ErrorKind.JUNK: 1}


@pytest.mark.parametrize(
    ("bad", "kind"),
    [
        (bytes.fromhex("00 00 ff 02 fd d4 02 2a 00"), PN532ErrorKind.BAD_LCS),
        (bytes.fromhex("00 00 ff 02 fe d4 02 2b 00"), PN532ErrorKind.BAD_DCS),
        (bytes.fromhex("00 00 ff 02 fe d4 02 2a 01"), PN532ErrorKind.BAD_POSTAMBLE),
        (bytes.fromhex("00 00 ff 02 fe d3 03 2a 00"), PN532ErrorKind.BAD_TFI),
        (bytes.fromhex("00 00 ff 00 00 00"), PN532ErrorKind.BAD_LENGTH),
        (bytes.fromhex("00 00 ff 00 ff 07"), PN532ErrorKind.BAD_POSTAMBLE),
        (bytes.fromhex("13 37"), PN532ErrorKind.JUNK),
    ],
)
def test_broken_frame_counted_and_next_frame_found(bad, kind):
    decoder = FrameDecoder()
    frames = bytewise(decoder, bad + PN532_FW_ANSWER)
    assert frames == FrameDecoder().feed(PN532_FW_ANSWER)
    assert dict(decoder.stats().errors) == {kind: 1}
    assert decoder.stats().junk_bytes > 0


def test_truncated_frame_and_flush():
    decoder = FrameDecoder()
    # a cut answer claiming LEN 0x0C holds the following ACK until the line goes idle
    assert decoder.feed(ONE_CLASSIC[:8] + ACK_FRAME) == []
    assert decoder.flush() == [Ack()]
    assert dict(decoder.stats().errors) == {PN532ErrorKind.TRUNCATED: 1}


def test_command_arguments_checked():
    with pytest.raises(ValueError):
        in_list_passive_target(max_targets=3)
    with pytest.raises(ValueError):
        sam_configuration(timeout=256)
    with pytest.raises(ValueError):
        rf_max_retries(passive_activation=300)
