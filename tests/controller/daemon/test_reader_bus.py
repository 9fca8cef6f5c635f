"""The daemon's reader bus against simulated UHFReader18 readers on one line: every antenna of
an address is inventoried by one command pair, a round reports every antenna (empty ones
too), and a focus polls the wall antenna alone from the next round on."""

import itertools

from controller.daemon.reader_bus import ReaderBus
from controller.devices.events import TagsRead
from controller.devices.uhf_reader import (
    CommandDecoder,
    InventoryLayout,
    UHFCmd,
    group_select_command,
)
from controller.profiles import load_reader
from tools.sim.uhf_reader import SimUHFReader

PROFILE = load_reader("sim-uhf")  # 17 antennas: addresses 0 and 1 full, address 2 one port
WALL = 17


class Line:
    """The serial line: the bus's commands reach the reader at their address."""

    def __init__(self) -> None:
        self.readers = {a: SimUHFReader(antennas=8, adr=a) for a in (0, 1)}
        self.readers[2] = SimUHFReader(antennas=1, adr=2)
        self.readers[0].place(b"\x01" * 12, 1)  # a tag over antenna 1 (East's hand)
        self.readers[2].place(b"\x02" * 12, 1)  # and one over the wall antenna
        self.decoder = CommandDecoder("line")
        self.commands: list = []

    def answer(self, data: bytes) -> bytes:
        out = b""
        for command in self.decoder.feed(data):
            self.commands.append(command)
            out += self.readers[command.adr].feed(command.encode())
        return out


def run_rounds(bus: ReaderBus, line: Line, rounds: int) -> list[list[TagsRead]]:
    """Drive the bus for `rounds` rounds; the reads of each round."""
    t = 0.0
    out: list[list[TagsRead]] = [[]]
    send = bus.start(t).send
    while len(out) <= rounds:
        t += 0.001
        step = bus.feed(t, line.answer(send))
        out[-1] += [e for e in step.events if isinstance(e, TagsRead)]
        send = step.send
        if step.round_done:
            out.append([])
    return out[:rounds]


def test_a_round_is_one_command_pair_per_address_and_reports_every_antenna():
    bus, line = ReaderBus(PROFILE), Line()
    (first,) = run_rounds(bus, line, 1)
    assert sorted(r.antenna for r in first) == list(range(1, 18))
    assert [c.cmd for c in line.commands[:6]] == [UHFCmd.SET_ANTENNA, UHFCmd.INVENTORY] * 3
    assert [c.data for c in line.commands[:6:2]] == [b"\xff", b"\xff", b"\x01"]
    reads = {r.antenna: r.uids for r in first}
    assert reads[1] == (b"\x01" * 12,) and reads[WALL] == (b"\x02" * 12,)
    assert all(not reads[a] for a in range(2, 17))
    assert bus.rounds == 1


def test_focus_polls_the_wall_antenna_alone_from_the_next_round():
    bus, line = ReaderBus(PROFILE), Line()
    send = bus.start(0.0).send
    step = bus.feed(0.001, line.answer(send))  # round 1 under way (address 0 selected)
    bus.focus({WALL})
    seen: list[int] = []
    rounds_before = bus.rounds
    t = 0.002
    while bus.rounds < rounds_before + 4:
        step = bus.feed(t, line.answer(step.send))
        seen += [e.antenna for e in step.events if isinstance(e, TagsRead)]
        t += 0.001
    # the round in progress finished with every antenna, then three wall-only rounds
    assert sorted(seen[:17]) == list(range(1, 18))
    assert seen[17:] == [WALL, WALL, WALL]
    bus.focus(None)
    rounds = run_rounds(bus, line, 2)
    assert sorted(r.antenna for r in rounds[1]) == list(range(1, 18))


def test_focus_on_an_antenna_the_profile_lacks_polls_everything():
    bus = ReaderBus(PROFILE)
    bus.focus({40})
    bus.start(0.0)
    assert bus.focused is None and len(bus.pollers) == 3


def test_rounds_start_no_faster_than_the_profile_allows():
    """A line that answers at once is polled at the profile's `rounds-per-second`: the round
    after a quick one starts at a tick once its interval has passed."""
    interval = PROFILE.round_interval
    bus, line = ReaderBus(PROFILE, interval=interval), Line()
    t = 0.0
    step = bus.start(t)
    starts = [t]
    while bus.rounds < 4:
        t += 0.001
        step = bus.feed(t, line.answer(step.send))
        if step.round_done:
            assert step.send == b""  # the next round waits
            assert bus.tick(starts[-1] + interval - 0.001).send == b""
            t = starts[-1] + interval
            step = bus.tick(t)
            assert step.send  # the first address's select, on time
            starts.append(t)
    assert [round(b - a, 6) for a, b in itertools.pairwise(starts)] == [interval] * 4


def test_a_slow_round_is_followed_at_once_and_fast_polling_is_unbounded():
    bus, line = ReaderBus(PROFILE, interval=0.05), Line()
    step = bus.start(0.0)
    t = 0.0
    while not step.round_done:
        t += 0.03  # a slow line: the round takes 0.18 s
        step = bus.feed(t, line.answer(step.send))
    assert step.send  # no wait: the interval has long passed
    fast = ReaderBus(PROFILE)  # interval 0 (--fast)
    assert len(run_rounds(fast, Line(), 5)) == 5 and fast.rounds == 5


def test_a_reply_timeout_covers_the_inventory_time_of_the_address_antennas():
    bus = ReaderBus(PROFILE, reply_timeout=0.5)
    timeouts = [p.config.reply_timeout for p in bus.pollers]
    # sim-uhf: 10 ms an antenna; addresses 0 and 1 have 8 antennas, address 2 the wall
    assert [round(x, 3) for x in timeouts] == [0.58, 0.58, 0.51]


def test_a_late_answer_between_rounds_sends_nothing_before_the_next_round():
    """Bytes that come while the bus waits for its next round (a reader's late answer) are
    decoded, but no command goes out until the round's time has come."""
    bus, line = ReaderBus(PROFILE, interval=1.0), Line()
    step = bus.start(0.0)
    t = 0.0
    while not step.round_done:
        t += 0.001
        step = bus.feed(t, line.answer(step.send))
    late = line.readers[0].feed(group_select_command(range(1, 9), 0).encode())  # a select's OK
    assert bus.feed(t + 0.1, late).send == b""
    assert bus.tick(t + 0.2).send == b""
    assert bus.tick(1.0).send == group_select_command(range(1, 9), 0).encode()


def test_a_plain_layout_reader_without_selection_is_inventoried_alone_each_round():
    """A one-antenna UHFReader18-class reader (uhfreader18-spot: the manual's plain layout,
    no 0x3F): one inventory a round, its tag read, then "no tag operable" an empty spot."""
    line = Line()
    line.readers = {0: SimUHFReader(antennas=1, adr=0, layout=InventoryLayout.PLAIN)}
    line.readers[0].place(b"\x03" * 12, 1)
    bus = ReaderBus(load_reader("uhfreader18-spot"))
    rounds = run_rounds(bus, line, 2)
    assert rounds == [[TagsRead(r[0].t, 1, (b"\x03" * 12,))] for r in rounds]
    line.readers[0].remove(b"\x03" * 12, 1)
    (empty,) = run_rounds(bus, line, 1)
    assert [(r.antenna, r.uids) for r in empty] == [(1, ())]
    assert {c.cmd for c in line.commands} == {UHFCmd.INVENTORY}
