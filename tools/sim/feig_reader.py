"""The reader side of a FEIG ISO 15693 reader (controller/devices/iso15693_feig.py), for the
simulator and tests: `SimFeigReader.feed(bytes)` takes what the host wrote and returns what
the reader answers: the ISO host inventory, with its transponders listed `per_answer` at a
time (STATUS 0x94 and MORE beyond that, as the reader does with more tags than one frame),
and Get Software Version ([0x65], controller/devices/feig_info.py) with `info`.

`FeigLine` is the simulator's table of them (tools/sim/devices.py `ReaderBus`): one reader per
antenna of a `feig-iso15693` profile on one serial line, antenna n at COM-ADR n - 1, each
answering from the world's tags through the noise. COM-ADR 255 ("any reader") is answered
by the first reader alone, so a one-reader client sees an ordinary reader (on a real shared
RS-485 line every reader would answer it at once).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from controller.devices.feig_info import (
    GET_SOFTWARE_VERSION,
    FeigInfo,
    software_version_response,
)
from controller.devices.iso15693_feig import (
    ANY_READER,
    INVENTORY,
    ISO_HOST_COMMAND,
    MORE,
    FeigRequest,
    FeigResponse,
    FeigStatus,
    RequestDecoder,
    Transponder,
    inventory_response,
)
from tools.sim.noise import Noise
from tools.sim.world import World

ISO15693 = 0x03  # TR-TYPE: 13.56 MHz, ISO 15693 (an NXP ICODE SLI(X) reads as such)
UNKNOWN_COMMAND = 0x80  # a command this simulation does not answer
SIM_INFO = FeigInfo(0, (1, 1), 0, 0x00, 76, 0x0089)  # an MR101: ISO 15693, I-Code 1 and UID


class SimFeigReader:
    def __init__(self, adr: int = 0, per_answer: int = 20, info: FeigInfo = SIM_INFO) -> None:
        self.adr = adr
        self.per_answer = per_answer
        self.info = dataclasses.replace(info, adr=adr)  # it answers with its own address
        self.decoder = RequestDecoder()
        self.tags: list[bytes] = []  # UIDs in the field, MSB first
        self._left: list[bytes] = []  # data sets not yet fetched with MORE
        self.requests: list[FeigRequest] = []

    def feed(self, data: bytes) -> bytes:
        out = b""
        for req in self.decoder.feed(data):
            self.requests.append(req)
            if req.adr not in (self.adr, ANY_READER):
                continue
            out += self.answer(req).encode()
        return out

    def answer(self, req: FeigRequest) -> FeigResponse:
        if req.control == GET_SOFTWARE_VERSION:
            return software_version_response(self.info)
        if req.control != ISO_HOST_COMMAND or req.data[:1] != bytes((INVENTORY,)):
            return FeigResponse(req.control, UNKNOWN_COMMAND, b"", self.adr)
        more = len(req.data) > 1 and req.data[1] & MORE
        if not more:
            self._left = list(self.in_field())
        batch, self._left = self._left[: self.per_answer], self._left[self.per_answer :]
        status = FeigStatus.MORE_DATA if self._left else FeigStatus.OK
        tags = [Transponder(ISO15693, 0x00, uid) for uid in batch]
        return inventory_response(tags, self.adr, status)

    def in_field(self) -> list[bytes]:
        """The UIDs a new inventory finds."""
        return self.tags


class _WorldReader(SimFeigReader):
    """One reader of the line: its antenna's tags come from the world, through the noise."""

    def __init__(self, line: FeigLine, antenna: int) -> None:
        super().__init__(adr=antenna - 1)
        self.line = line
        self.antenna = antenna

    def in_field(self) -> list[bytes]:
        reads = self.line.noise.reads(self.antenna, self.line.world.tags_by_antenna())
        self.line.polled.append(self.antenna)
        return list(dict.fromkeys(r.epc for r in reads))  # anticollision names a tag once


class FeigLine:
    """The FEIG readers of a profile on one serial line (see the module docstring)."""

    def __init__(self, world: World, noise: Noise) -> None:
        self.world = world
        self.noise = noise
        self.decoder = RequestDecoder("sim-feig-line")
        self.readers = {n - 1: _WorldReader(self, n) for n in sorted(world.reader.antennas)}
        self.polled: list[int] = []  # antennas inventoried by the answers being made

    def answer(self, data: bytes, count: Callable[[], None]) -> tuple[bytes, list[int]]:
        """What the line carries back for the host's bytes `data` (each frame through the
        noise), and the antennas those answers inventoried; `count()` once per command."""
        out = bytearray()
        for req in self.decoder.feed(data):
            count()
            adr = min(self.readers) if req.adr == ANY_READER else req.adr
            reader = self.readers.get(adr)
            if reader is None:
                continue  # nobody at that address: the host times out
            reader.requests.append(req)
            out += self.noise.frame(reader.answer(req).encode())
        polled, self.polled = self.polled, []
        return bytes(out), polled
