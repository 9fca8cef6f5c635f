"""The daemon's reader bus against simulated UHFReader18 readers on one line: every antenna of
an address is inventoried by one command pair, a round reports every antenna (empty ones
too), and a focus polls the wall antenna alone from the next round on."""

from controller.daemon.reader_bus import ReaderBus
from controller.devices.events import TagsRead
from controller.devices.uhf_reader import CommandDecoder, UHFCmd
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
