"""UHFReader18-family codec and poller: byte-exact frames, fed one byte at a time, and the
poller driving the simulated reader over antennas, silence, antenna errors and noise."""

from dataclasses import replace

import pytest

from controller.devices.events import FrameError, TagsRead
from controller.devices.uhf_poller import PollerConfig, PollStep, UHFPoller
from controller.devices.uhf_reader import (
    CommandDecoder,
    EpcRead,
    InventoryLayout,
    InventoryReply,
    Malformed,
    ResponseDecoder,
    UHFCmd,
    UHFCommand,
    UHFErrorKind,
    UHFResponse,
    UHFStatus,
    antenna_from_mask,
    inventory_command,
    inventory_responses,
    layouts_of,
    parse_inventory,
    set_antenna_command,
    status_words,
)
from tools.sim.uhf_reader import SimUHFReader

CAPTURE = bytes.fromhex("15 00 01 03 01 01 0c e28068940000400a9d22a9eb 5d f9 c3")
CAPTURE_EPC = bytes.fromhex("e28068940000400a9d22a9eb")


def bytewise(decoder, data: bytes) -> list:
    return [frame for b in data for frame in decoder.feed(bytes((b,)))]


def test_minimal_inventory_command_byte_exact():
    assert inventory_command().encode() == bytes.fromhex("04 ff 01 1b b4")


def test_command_decoder_reads_minimal_inventory():
    decoder = CommandDecoder()
    assert bytewise(decoder, bytes.fromhex("04 ff 01 1b b4")) == [
        UHFCommand(UHFCmd.INVENTORY, b"", 0xFF)
    ]
    assert decoder.stats().error_total == 0


def test_set_antenna_command_layout():
    frame = set_antenna_command(3).encode()
    # Len 05 (Adr Cmd Data CRC CRC), broadcast, 0x3F, mask 0000 0100 for antenna 3.
    assert frame[:4] == bytes.fromhex("05 ff 3f 04")
    assert CommandDecoder().feed(frame) == [UHFCommand(0x3F, b"\x04", 0xFF)]


def test_real_capture_decoded_byte_exact():
    decoder = ResponseDecoder()
    frames = bytewise(decoder, CAPTURE)
    assert frames == [UHFResponse(cmd=0x01, status=0x03, data=CAPTURE[4:-2], adr=0x00)]
    reply = parse_inventory(frames[0])
    assert reply == InventoryReply(UHFStatus.MORE_FRAMES, 1, (EpcRead(CAPTURE_EPC, 0x5D),))
    assert not reply.final
    assert frames[0].encode() == CAPTURE
    assert decoder.stats().frames == 1 and decoder.stats().error_total == 0


def test_encoder_reproduces_capture():
    frames = inventory_responses(1, [EpcRead(CAPTURE_EPC, 0x5D)], adr=0, more=True)
    assert [f.encode() for f in frames] == [CAPTURE]


@pytest.mark.parametrize(
    ("mask", "antenna"),
    [(0x01, 1), (0x02, 2), (0x04, 3), (0x08, 4), (0x80, 8), (0x00, None), (0x03, None)],
)
def test_antenna_mask(mask, antenna):
    assert antenna_from_mask(mask) == antenna


def test_inventory_without_rssi():
    resp = UHFResponse(0x01, 0x01, bytes.fromhex("02 02 02 aabb 03 ccddee"))
    assert parse_inventory(resp, InventoryLayout.ANTENNA) == InventoryReply(
        UHFStatus.INVENTORY_DONE, 2, (EpcRead(b"\xaa\xbb"), EpcRead(b"\xcc\xdd\xee"))
    )


@pytest.mark.parametrize(
    ("resp", "fragment"),
    [
        (UHFResponse(0x01, 0x01, bytes.fromhex("01 02 02 aabb 50")), "2 tags announced"),
        (UHFResponse(0x01, 0x01, bytes.fromhex("01 01 09 aabb 50")), "overruns"),
        (UHFResponse(0x01, 0x01, bytes.fromhex("01 00 77")), "trailing"),
        (UHFResponse(0x01, 0x01, bytes.fromhex("01")), "no tag count"),
        (UHFResponse(0x3F, 0x00), "not an inventory"),
        (UHFResponse(0x01, 0x00), "0x00 success"),
        (UHFResponse(0x01, 0x42), "0x42"),
    ],
)
def test_malformed_inventories_are_values(resp, fragment):
    result = parse_inventory(resp)
    assert isinstance(result, Malformed)
    assert fragment in result.detail


def test_many_tags_split_over_frames():
    tags = [EpcRead(bytes((i,)) * 12, i) for i in range(40)]  # 40 × 14 bytes > one frame
    frames = inventory_responses(2, tags)
    assert len(frames) == 3
    assert [f.status for f in frames] == [
        UHFStatus.MORE_FRAMES,
        UHFStatus.MORE_FRAMES,
        UHFStatus.INVENTORY_DONE,
    ]
    wire = b"".join(f.encode() for f in frames)
    assert all(len(f.encode()) <= 256 for f in frames)
    decoded = [parse_inventory(f) for f in ResponseDecoder().feed(wire)]
    assert [t for r in decoded for t in r.tags] == tags
    assert {r.antenna for r in decoded} == {2}


def test_empty_inventory_frame():
    (frame,) = inventory_responses(4, [])
    assert frame.encode()[:6] == bytes.fromhex("07 00 01 01 08 00")
    assert parse_inventory(frame) == InventoryReply(UHFStatus.INVENTORY_DONE, 4, ())


def test_garbage_is_counted_and_skipped():
    decoder = ResponseDecoder()
    frames = bytewise(decoder, b"\x02\x01" + CAPTURE)
    assert len(frames) == 1
    stats = decoder.stats()
    assert stats.junk_bytes == 2
    assert dict(stats.errors) == {UHFErrorKind.SHORT_LENGTH: 1}  # one run, counted once


def test_truncated_frame_released_by_flush():
    # A noise byte claiming Len 0xF0 swallows the real frame until the line goes idle.
    decoder = ResponseDecoder()
    assert decoder.feed(b"\xf0" + CAPTURE) == []
    assert decoder.flush() == ResponseDecoder().feed(CAPTURE)
    assert dict(decoder.stats().errors) == {UHFErrorKind.TRUNCATED: 1}


def test_cut_frame_then_whole_frame():
    decoder = ResponseDecoder()
    assert decoder.feed(CAPTURE[:9]) == []
    assert decoder.flush() == []
    assert bytewise(decoder, CAPTURE) == ResponseDecoder().feed(CAPTURE)
    stats = decoder.stats()
    assert dict(stats.errors) == {UHFErrorKind.TRUNCATED: 1}
    assert (stats.frames, stats.junk_bytes, stats.bytes_in) == (1, 9, 9 + len(CAPTURE))


# --- poller against the simulated reader ---------------------------------------------


class Wire:
    """Poller ⇄ simulated reader, on a fake clock, with a hook to spoil the reader's bytes."""

    def __init__(self, reader: SimUHFReader, poller: UHFPoller):
        self.reader, self.poller, self.t = reader, poller, 0.0
        self.spoil = lambda data: data
        self.events: list = []
        self.pending = poller.start(self.t).send

    def run(self, exchanges: int, byte_at_a_time: bool = False) -> list:
        out: list = []
        for _ in range(exchanges):
            answer = self.spoil(self.reader.feed(self.pending))
            self.t += 0.01
            self.pending = b""
            if answer:
                chunks = (
                    [answer[i : i + 1] for i in range(len(answer))] if byte_at_a_time else [answer]
                )
                for chunk in chunks:
                    step = self.poller.feed(self.t, chunk)
                    out += step.events
                    self.pending += step.send
            if not self.pending:
                self.t += 1.0  # nothing to send: let the reply timeout pass
                step = self.poller.tick(self.t)
                out += step.events
                self.pending = step.send
        self.events += out
        return out


def reads(events) -> list[tuple[int, tuple[bytes, ...]]]:
    return [(e.antenna, e.uids) for e in events if isinstance(e, TagsRead)]


def test_poller_cycles_antennas_and_reports_tags():
    reader = SimUHFReader(antennas=4)
    a, b, c = b"\xaa" * 12, b"\xbb" * 12, b"\xcc" * 12
    reader.place(a, 1)
    reader.place(b, 3)
    reader.place(c, 3)
    wire = Wire(reader, UHFPoller())
    # each antenna takes two exchanges: select (0x3F), then inventory (0x01)
    assert reads(wire.run(8)) == [(1, (a,)), (2, ()), (3, (b, c)), (4, ())]
    assert [cmd.cmd for cmd in reader.commands[:2]] == [0x3F, 0x01]
    assert reader.commands[0].data == b"\x01"
    reader.remove(a)
    reader.place(a, 4)
    assert reads(wire.run(8)) == [(1, ()), (2, ()), (3, (b, c)), (4, (a,))]


def test_poller_reports_rssi():
    reader = SimUHFReader(antennas=1, rssi=0x41)
    reader.place(b"\x01" * 12, 1)
    events = Wire(reader, UHFPoller(PollerConfig(antennas=(1,)))).run(2)
    assert events == [TagsRead(0.02, 1, (b"\x01" * 12,), (0x41,))]


def test_poller_byte_at_a_time_without_antenna_select():
    reader = SimUHFReader(antennas=1, layout=InventoryLayout.ANTENNA)
    reader.place(b"\x05" * 8, 1)
    poller = UHFPoller(
        PollerConfig(antennas=(1,), select_antenna=False, layout=InventoryLayout.ANTENNA)
    )
    events = Wire(reader, poller).run(3, byte_at_a_time=True)
    assert reads(events) == [(1, (b"\x05" * 8,))] * 3
    assert all(cmd.cmd == UHFCmd.INVENTORY for cmd in reader.commands)


def test_multi_frame_inventory_collected_into_one_read():
    reader = SimUHFReader(antennas=2)
    tags = [bytes((i,)) * 12 for i in range(30)]
    reader.set_tags(2, tags)
    events = Wire(reader, UHFPoller(PollerConfig(antennas=(2,)))).run(2)
    assert reads(events) == [(2, tuple(tags))]


def test_silent_reader_times_out_and_moves_on():
    reader = SimUHFReader(antennas=2)
    reader.place(b"\x07" * 12, 2)
    wire = Wire(reader, UHFPoller(PollerConfig(antennas=(1, 2), reply_timeout=0.5)))
    wire.spoil = lambda data: b""  # unplugged reader: nothing comes back
    events = wire.run(2)
    assert [e.reason for e in events] == ["no reply on antenna 1", "no reply on antenna 2"]
    assert wire.poller.timeouts == 2
    wire.spoil = lambda data: data
    assert reads(wire.run(4)) == [(1, ()), (2, (b"\x07" * 12,))]


def test_broken_antenna_reports_error_and_continues():
    reader = SimUHFReader(antennas=3, broken={2})
    reader.place(b"\x03" * 12, 3)
    wire = Wire(reader, UHFPoller(PollerConfig(antennas=(1, 2, 3))))
    events = wire.run(6)
    assert reads(events) == [(1, ()), (3, (b"\x03" * 12,))]
    errors = [e for e in events if isinstance(e, FrameError)]
    assert [e.reason for e in errors] == ["antenna error on antenna 2"]
    assert wire.poller.antenna_errors == 1


def test_corrupted_answer_counted_then_recovered():
    reader = SimUHFReader(antennas=1)
    reader.place(b"\x09" * 12, 1)
    wire = Wire(reader, UHFPoller(PollerConfig(antennas=(1,))))
    spoiled = []

    def flip_first_inventory(data: bytes) -> bytes:
        if data[2] == UHFCmd.INVENTORY and not spoiled:
            spoiled.append(data)
            return data[:6] + bytes((data[6] ^ 0x10,)) + data[7:]
        return data

    wire.spoil = flip_first_inventory
    events = wire.run(5)
    kinds = [e.reason for e in events if isinstance(e, FrameError)]
    assert "bad-crc" in kinds and "an incomplete answer on antenna 1" in kinds
    assert reads(events) == [(1, (b"\x09" * 12,))]
    assert dict(wire.poller.stats().errors)[UHFErrorKind.BAD_CRC] == 1


def test_a_damaged_answer_ends_when_the_line_goes_quiet_not_at_the_reply_timeout():
    """Regression (1 % corrupt frames made a simulated deal last 50 s instead of 5): an
    answer whose final frame failed its CRC waited the whole 0.5 s reply timeout, once per
    damaged answer. The answer is over once the line is quiet for `idle_gap`."""
    poller = UHFPoller(PollerConfig(antennas=(1,), reply_timeout=0.5, idle_gap=0.03))
    poller.start(0.0)
    select_ok = UHFResponse(UHFCmd.SET_ANTENNA, UHFStatus.SUCCESS).encode()
    assert poller.feed(0.01, select_ok).send  # the inventory goes out
    damaged = bytearray(UHFResponse(UHFCmd.INVENTORY, UHFStatus.INVENTORY_DONE).encode())
    damaged[-1] ^= 0xFF
    assert poller.feed(0.02, bytes(damaged)).send == b""
    assert poller.tick(0.04) == PollStep()  # quiet for 20 ms only: still listening
    step = poller.tick(0.06)
    assert [e.reason for e in step.events if isinstance(e, FrameError)] == [
        "an incomplete answer on antenna 1"
    ]
    assert step.send  # the next command, 40 ms after the answer instead of 500


def test_a_frame_behind_a_damaged_one_is_taken_without_waiting_for_the_line_to_go_quiet():
    """Regression (bench daemon --path, noisy: a move decided 41 ms after its answer): after
    a frame that fails its CRC, a byte inside it that reads as a long Len (the EPC's 0xE2)
    held the intact final frame behind it until the line had been quiet for the idle gap."""
    damaged = bytearray(CAPTURE)
    damaged[-1] ^= 0x01
    (final,) = inventory_responses(2, [EpcRead(CAPTURE_EPC, 0x5D)])
    answer = bytes(damaged) + final.encode()
    assert ResponseDecoder().feed(answer) == [final]
    assert bytewise(ResponseDecoder(), answer) == [final]
    decoder = ResponseDecoder()
    assert decoder.feed(b"\xf0" + CAPTURE) == []  # a long Len before any damage still waits


def test_regression_a_damaged_selection_answer_was_closed_at_six_bytes_while_more_came():
    """The answer to 0x3F is one 6-byte frame, so 6 bytes led by its Len that made no frame
    were taken as the whole answer, damaged, and the next command went out at once. A byte the line added inside the frame (the recorded corrupt-resync capture, its
    golden replay) means the answer is not over at 6 bytes: the next command then went out
    while the reader was still answering, and its late bytes were read as another reader's
    answer. Only a quiet line ends a damaged answer."""
    poller = UHFPoller(PollerConfig(antennas=(1, 2), reply_timeout=0.5, idle_gap=0.03))
    poller.start(0.0)
    frame = UHFResponse(UHFCmd.SET_ANTENNA, UHFStatus.SUCCESS).encode()
    answer = frame[:3] + b"\x55" + frame[3:]  # a byte added on the line
    sent = b"".join(poller.feed(0.01, answer[i : i + 1]).send for i in range(len(answer)))
    assert sent == b""
    assert poller.tick(0.02) == PollStep()
    step = poller.tick(0.05)
    assert step.send == set_antenna_command(2).encode()


@pytest.mark.parametrize(
    "answer",
    [
        b"\x00" + UHFResponse(UHFCmd.SET_ANTENNA, UHFStatus.SUCCESS).encode(),  # noise first
        UHFResponse(UHFCmd.SET_ANTENNA, UHFStatus.SUCCESS).encode()[:5],  # cut short
    ],
    ids=["noise-ahead", "cut"],
)
def test_an_antenna_selection_answer_of_unsure_length_still_waits_for_quiet(answer):
    poller = UHFPoller(PollerConfig(antennas=(1,), reply_timeout=0.5, idle_gap=0.03))
    poller.start(0.0)
    sent = b"".join(poller.feed(0.01, answer[i : i + 1]).send for i in range(len(answer)))
    if len(answer) > 6:  # the noise skipped, the whole answer read: the inventory follows
        assert sent == inventory_command().encode()
        return
    assert sent == b""
    assert poller.tick(0.02) == PollStep()
    assert poller.tick(0.05).send


def test_silence_before_any_answer_still_waits_the_reply_timeout():
    poller = UHFPoller(PollerConfig(antennas=(1,), reply_timeout=0.5, idle_gap=0.03))
    poller.start(0.0)
    assert poller.tick(0.3) == PollStep()  # a reader scanning its field says nothing yet
    step = poller.tick(0.51)
    assert [e.reason for e in step.events] == ["no reply on antenna 1"]


def test_line_noise_before_answers_is_skipped():
    reader = SimUHFReader(antennas=1)
    reader.place(b"\x0a" * 12, 1)
    wire = Wire(reader, UHFPoller(PollerConfig(antennas=(1,))))
    wire.spoil = lambda data: b"\x00\x03\xff" + data
    assert reads(wire.run(4)) == [(1, (b"\x0a" * 12,))] * 2
    assert wire.poller.stats().junk_bytes >= 12


def test_an_answer_from_another_reader_address_is_not_taken_as_this_readers():
    """A shared line (the reader bus polls addresses 0, 1, ...): a late answer from another
    reader must not put its tags on the polled reader's antennas."""
    reader = SimUHFReader(antennas=2, adr=0x01)
    reader.place(b"\x0b" * 12, 2)
    wire = Wire(reader, UHFPoller(PollerConfig(antennas=(2,), adr=0x01)))

    def from_reader_5(data: bytes) -> bytes:
        frames = ResponseDecoder().feed(data)
        return b"".join(replace(f, adr=0x05).encode() for f in frames)

    wire.spoil = from_reader_5
    events = wire.run(3)
    assert reads(events) == []
    errors = [e.reason for e in events if isinstance(e, FrameError)]
    assert "answer from reader address 0x05, polling 0x01" in errors
    assert dict(wire.poller.stats().errors)[UHFErrorKind.WRONG_ADDRESS] >= 1
    wire.spoil = lambda data: data  # its own answers again: read as before
    assert (2, (b"\x0b" * 12,)) in reads(wire.run(4))


def test_a_broadcast_poll_takes_the_answer_of_any_address():
    reader = SimUHFReader(antennas=1, adr=0x09)
    reader.place(b"\x0c" * 12, 1)
    wire = Wire(reader, UHFPoller(PollerConfig(antennas=(1,))))  # adr 0xFF
    assert reads(wire.run(2)) == [(1, (b"\x0c" * 12,))]


def test_sim_reader_rejects_bad_antenna_mask_and_unknown_commands():
    reader = SimUHFReader(antennas=2)
    answer = ResponseDecoder().feed(reader.feed(UHFCommand(0x3F, b"\x04").encode()))
    assert answer == [UHFResponse(0x3F, UHFStatus.PARAMETER_ERROR)]
    answer = ResponseDecoder().feed(reader.feed(UHFCommand(0x66).encode()))
    assert answer == [UHFResponse(0x00, UHFStatus.ILLEGAL_COMMAND)]  # manual V2.0 §8.1
    assert reader.feed(UHFCommand(0x01, adr=0x07).encode()) == b""  # another reader's address


def test_poller_config_is_range_checked():
    with pytest.raises(ValueError):
        PollerConfig(antennas=())
    with pytest.raises(ValueError):
        PollerConfig(antennas=(9,))
    with pytest.raises(ValueError):
        PollerConfig(reply_timeout=0)


def test_poller_over_a_real_pty():
    """The poller on a pyserial port, the simulated reader on the other end of a real pty."""
    import os
    import select
    import tty

    import serial

    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    port = serial.Serial(os.ttyname(slave), 57600, timeout=0.2)
    try:
        reader = SimUHFReader(antennas=2)
        reader.place(CAPTURE_EPC, 2)
        poller = UHFPoller(PollerConfig(antennas=(1, 2)))
        t, send, events = 0.0, poller.start(0.0).send, []
        for _ in range(4):
            port.write(send)
            answer = b""
            while not answer:  # the reader side: bytes from the host until a whole command
                assert select.select([master], [], [], 2)[0], "host command never arrived"
                answer = reader.feed(os.read(master, 256))
            os.write(master, answer)
            send = b""
            while not send:
                chunk = port.read(64)
                assert chunk, "reader did not answer over the pty"
                t += 0.01
                step = poller.feed(t, chunk)
                events += step.events
                send = step.send
        assert reads(events) == [(1, ()), (2, (CAPTURE_EPC,))]
    finally:
        port.close()
        os.close(master)
        os.close(slave)


def test_sim_reader_inventories_every_enabled_antenna_after_power_up():
    reader = SimUHFReader(antennas=3)
    reader.place(b"\x01" * 12, 1)
    reader.place(b"\x03" * 12, 3)
    replies = [
        parse_inventory(f)
        for f in ResponseDecoder().feed(reader.feed(inventory_command().encode()))
    ]
    assert [(r.antenna, r.status) for r in replies] == [
        (1, UHFStatus.MORE_FRAMES),
        (2, UHFStatus.MORE_FRAMES),
        (3, UHFStatus.INVENTORY_DONE),
    ]
    assert [len(r.tags) for r in replies] == [1, 0, 1]
    # without antenna selection the poller sorts one inventory's frames by their Ant bits
    poller = UHFPoller(PollerConfig(antennas=(1,), select_antenna=False))
    poller.start(0.0)
    step = poller.feed(0.1, reader.feed(inventory_command().encode()))
    assert reads(step.events) == [(1, (b"\x01" * 12,)), (2, ()), (3, (b"\x03" * 12,))]


# --- regressions: the family as its firmware answers (issue 30) ---------------------------

NO_TAG_ANSWER = bytes.fromhex("05 00 01 fb f2 3d")  # tests/captures/vectors/iqrfid5102-…


def test_status_0xfb_refused_as_malformed_is_an_empty_antenna():
    """A quiet antenna's answer, "no tag operable", was refused as malformed (`status
    0xfb`) and the round ended in "an incomplete answer" instead of an empty antenna."""
    poller = UHFPoller(PollerConfig(antennas=(1,), select_antenna=False))
    poller.start(0.0)
    step = poller.feed(0.01, NO_TAG_ANSWER)
    assert step.events == (TagsRead(0.01, 1, ()),)
    assert step.send == inventory_command().encode()  # on to the next inventory at once
    assert poller.stats().error_total == 0 and poller.timeouts == 0


def test_manual_layout_decoded_to_nothing_now_reads_its_tag():
    """The UHFReader18 manual's layout (count, EPC length, EPC: no antenna byte, no RSSI)
    was read as if it had an antenna byte: "EPC of 73 bytes overruns the frame"."""
    frame = bytes.fromhex("13 00 01 01 01 0c 475458260720000000000001 d6 c1")  # an RRU9809
    poller = UHFPoller(
        PollerConfig(antennas=(1,), select_antenna=False, layout=InventoryLayout.PLAIN)
    )
    poller.start(0.0)
    step = poller.feed(0.01, frame)
    assert step.events == (TagsRead(0.01, 1, (bytes.fromhex("475458260720000000000001"),)),)
    (resp,) = ResponseDecoder().feed(frame)
    assert "overruns" in parse_inventory(resp).detail  # the old reading, still wrong
    assert InventoryLayout.PLAIN in layouts_of(resp)


@pytest.mark.parametrize("status", [0xFA, 0xFE, 0x42])
def test_a_failing_or_unknown_status_is_counted_logged_once_and_the_poll_goes_on(status, caplog):
    poller = UHFPoller(PollerConfig(antennas=(1,), select_antenna=False))
    poller.start(0.0)
    answer = UHFResponse(UHFCmd.INVENTORY, status).encode()
    with caplog.at_level("WARNING"):
        steps = [poller.feed(0.01 * i, answer) for i in range(1, 4)]
    assert all(s.send == inventory_command().encode() for s in steps)  # never stuck
    words = status_words(status) or f"unknown status 0x{status:02x}"
    assert all(s.events[0].reason == f"inventory of antenna 1: {words}" for s in steps)
    assert len(caplog.records) == 1 and words in caplog.text
    kind = UHFErrorKind.REFUSED if status != 0x42 else UHFErrorKind.UNKNOWN_STATUS
    assert dict(poller.stats().errors) == {kind: 3}


def test_every_status_of_the_manual_has_words():
    assert status_words(0xFB) == "0xfb no tag operable"
    assert all(status_words(s) for s in UHFStatus)
    assert status_words(0x42) is None


def test_a_reader_without_antenna_selection_is_named_not_waited_for():
    """A UHFReader18 answers 0x3F "illegal command" with reCmd 0x00 (manual V2.0 §8.1):
    the poller names it at once instead of waiting out its reply timeout."""
    reader = SimUHFReader(antennas=1, layout=InventoryLayout.PLAIN)
    poller = UHFPoller(PollerConfig(antennas=(1,), layout=InventoryLayout.PLAIN))
    step = poller.feed(0.01, reader.feed(poller.start(0.0).send))
    (error,) = step.events
    assert "refuses antenna selection" in error.reason and "select-antenna = false" in error.reason
    assert step.send == set_antenna_command(1).encode()


def test_a_plain_layout_reader_polled_without_selection_reads_and_empties():
    reader = SimUHFReader(antennas=1, layout=InventoryLayout.PLAIN)
    poller = UHFPoller(
        PollerConfig(antennas=(1,), select_antenna=False, layout=InventoryLayout.PLAIN)
    )
    reader.place(b"\x07" * 12, 1)
    events = Wire(reader, poller).run(2, byte_at_a_time=True)
    reader.remove(b"\x07" * 12, 1)
    events += Wire(reader, poller).run(1)
    assert reads(events) == [(1, (b"\x07" * 12,)), (1, (b"\x07" * 12,)), (1, ())]


def test_one_inventory_for_all_antennas_needs_answers_that_name_them():
    with pytest.raises(ValueError, match="names no antenna"):
        PollerConfig(antennas=(1, 2), together=True, layout=InventoryLayout.PLAIN)
