"""The FEIG ISO 15693 reader codec and poller (controller/devices/iso15693_feig.py): frames
byte-exact from the System-Manual's layout, fed one byte at a time and at random splits,
the inventory fetched with MORE, "no transponder" an empty antenna, failing and unknown
statuses counted and logged once, noise skipped, silence noticed."""

import random

import pytest

from controller.devices.crc import crc16_uhf_bytes
from controller.devices.events import FrameError, TagsRead
from controller.devices.iso15693_feig import (
    FeigErrorKind,
    FeigPoller,
    FeigResponse,
    FeigStatus,
    ResponseDecoder,
    Transponder,
    inventory_request,
    inventory_response,
    parse_inventory,
    status_words,
)
from tools.sim.feig_reader import SimFeigReader

ICODE = [bytes.fromhex(f"e004010000{i:06x}") for i in range(1, 46)]  # NXP ICODE UIDs, MSB first


def test_the_inventory_request_is_length_adr_b0_01_mode_crc():
    wire = inventory_request().encode()
    assert wire[:5] == bytes.fromhex("07 ff b0 01 00") and wire[0] == len(wire)
    assert wire[5:] == crc16_uhf_bytes(wire[:5])
    assert inventory_request(3, more=True).encode()[:5] == bytes.fromhex("07 03 b0 01 80")


def test_an_answer_decodes_whole_bytewise_and_at_random_splits():
    tags = [Transponder(0x03, 0x00, ICODE[0]), Transponder(0x03, 0x2A, ICODE[1])]
    wire = inventory_response(tags, adr=2).encode()
    assert wire[0] == len(wire) == 6 + 1 + 2 * 10  # LENGTH counts the whole frame
    rng = random.Random(7)
    for _ in range(20):
        cuts = sorted(rng.randrange(len(wire) + 1) for _ in range(rng.randrange(1, 6)))
        pieces = [wire[a:b] for a, b in zip([0, *cuts], [*cuts, len(wire)], strict=True)]
        decoder = ResponseDecoder()
        (resp,) = [r for p in pieces for r in decoder.feed(p)]
        assert resp == FeigResponse(0xB0, FeigStatus.OK, resp.data, 2)
        assert parse_inventory(resp) == tags
    decoder = ResponseDecoder()
    assert [r for b in wire for r in decoder.feed(bytes((b,)))] == [resp]


def test_noise_and_a_damaged_frame_are_skipped_and_the_next_frame_found():
    good = inventory_response([Transponder(3, 0, ICODE[2])]).encode()
    damaged = bytearray(good)
    damaged[-3] ^= 0x40
    decoder = ResponseDecoder()
    frames = decoder.feed(b"\x00\x01\x02" + bytes(damaged) + good)
    frames += decoder.flush()
    assert [parse_inventory(f) for f in frames] == [[Transponder(3, 0, ICODE[2])]]
    # the junk and the damaged frame are one run of skipped bytes: one resynchronisation
    assert decoder.scanner.skips == 1 and decoder.scanner.errors[FeigErrorKind.SHORT_LENGTH] == 1


def test_a_frame_held_back_by_a_damaged_length_is_let_go_when_the_line_is_quiet():
    reader = SimFeigReader(adr=0)
    reader.tags = ICODE[:2]
    poller = FeigPoller(adr=0)
    answer = reader.feed(poller.start(0.0).send)
    step = poller.feed(0.01, bytes.fromhex("b0") + answer)  # a LENGTH of 176 in front
    assert not any(isinstance(e, TagsRead) for e in step.events) and step.send == b""
    step = poller.tick(0.05)
    assert step.events[-1] == TagsRead(0.05, 1, tuple(ICODE[:2]))
    assert step.events[0].reason == "damaged frame skipped"


def run(poller: FeigPoller, reader: SimFeigReader, answers: int) -> list:
    events, t = [], 0.0
    send = poller.start(t).send
    for _ in range(answers):
        t += 0.01
        step = poller.feed(t, reader.feed(send))
        events += step.events
        send = step.send
    return events


def test_forty_five_tiles_come_in_three_answers_and_one_read():
    reader = SimFeigReader(adr=1, per_answer=20)
    reader.tags = list(ICODE)
    events = run(FeigPoller(adr=1, antenna=9), reader, 3)
    assert events == [TagsRead(0.03, 9, tuple(ICODE))]
    assert [r.data for r in reader.requests] == [b"\x01\x00", b"\x01\x80", b"\x01\x80"]


def test_no_transponder_is_an_empty_antenna():
    events = run(FeigPoller(adr=0), SimFeigReader(adr=0), 2)
    assert events == [TagsRead(0.01, 1, ()), TagsRead(0.02, 1, ())]


@pytest.mark.parametrize("status", [0x02, 0x95, 0x42])
def test_a_failing_or_unknown_status_is_counted_logged_once_and_polling_goes_on(status, caplog):
    poller = FeigPoller(adr=0)
    poller.start(0.0)
    answer = FeigResponse(0xB0, status, b"", 0).encode()
    with caplog.at_level("WARNING"):
        steps = [poller.feed(0.01 * i, answer) for i in range(1, 4)]
    words = status_words(status) or f"unknown status 0x{status:02x}"
    assert all(
        s.events == (FrameError(s.events[0].t, "reader", f"inventory: {words}", answer),)
        for s in steps
    )
    assert all(s.send == inventory_request(0).encode() for s in steps)
    assert len(caplog.records) == 1
    kind = FeigErrorKind.UNKNOWN_STATUS if status == 0x42 else FeigErrorKind.REFUSED
    assert poller.decoder.scanner.errors[kind] == 3


def test_silence_is_reported_and_the_inventory_asked_again():
    poller = FeigPoller(adr=0, reply_timeout=0.5)
    first = poller.start(0.0).send
    assert poller.tick(0.4).events == ()
    step = poller.tick(0.5)
    assert step.send == first and poller.timeouts == 1
    assert "no answer from reader 0x00" in step.events[0].reason
