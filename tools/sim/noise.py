"""Fault injection for the simulated reader: missed reads, repeated reads, crosstalk between
neighbouring antennas, corrupted frames, and unplugged cables.

All randomness comes from one seeded `random.Random`, so a run is repeatable given the
same seed and the same sequence of host commands. The rates are percentages:

- `missed`: each tag in an antenna's field is left out of an inventory answer;
- `repeated`: a tag read is reported twice in one answer (the family does this when a tag
  answers in two inventory slots);
- `crosstalk`: a tag is also read by each neighbouring antenna of its own (reader profile
  `neighbours`), with a weaker RSSI, as a real antenna's field spills under the next one;
- `corrupt`: an answer frame gets one bit flipped, or is cut short (half each).
An unplug (`Unplug`) closes a device's pty for some seconds (tools/sim/devices.py).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from controller.devices.uhf_reader import EpcRead
from controller.profiles import ReaderProfile

OWN_RSSI = 0x5D  # the RSSI byte of the real capture in controller/devices/uhf_reader.py
CROSSTALK_RSSI = 0x38  # weaker: the tag lies under the neighbouring antenna


@dataclass(frozen=True, slots=True)
class Unplug:
    """`device` ("reader" or "table") loses its cable `at` seconds into the session, for
    `seconds`. Written `reader:3@20` on the command line."""

    device: str
    seconds: float
    at: float

    @classmethod
    def parse(cls, text: str) -> Unplug:
        m = re.fullmatch(r"(reader|table):(\d+(?:\.\d+)?)@(\d+(?:\.\d+)?)", text.strip())
        if m is None:
            raise ValueError(f"{text!r} is not DEVICE:SECONDS@AT (e.g. reader:3@20)")
        return cls(m.group(1), float(m.group(2)), float(m.group(3)))


def _percent(value: float, name: str) -> None:
    if not 0 <= value <= 100:
        raise ValueError(f"{name} is a percentage 0..100, not {value}")


@dataclass(frozen=True, slots=True)
class NoiseConfig:
    missed: float = 0.0
    repeated: float = 0.0
    crosstalk: float = 0.0
    corrupt: float = 0.0
    unplugs: tuple[Unplug, ...] = field(default=())

    def __post_init__(self) -> None:
        for name in ("missed", "repeated", "crosstalk", "corrupt"):
            _percent(getattr(self, name), name)

    @property
    def quiet(self) -> bool:
        return not (self.missed or self.repeated or self.crosstalk or self.corrupt)


class Noise:
    def __init__(self, config: NoiseConfig, reader: ReaderProfile, seed: int | None) -> None:
        self.config = config
        self.reader = reader
        self.rng = random.Random(seed)
        self.counts = {"missed": 0, "repeated": 0, "crosstalk": 0, "corrupt": 0}

    def _hit(self, percent: float) -> bool:
        return percent > 0 and self.rng.random() * 100 < percent

    def reads(self, antenna: int, fields: Mapping[int, Sequence[bytes]]) -> list[EpcRead]:
        """What `antenna` reports in one inventory, given the tags lying over each antenna."""
        out: list[EpcRead] = []
        for epc in fields.get(antenna, ()):
            if self._hit(self.config.missed):
                self.counts["missed"] += 1
                continue
            out.append(EpcRead(epc, OWN_RSSI))
            if self._hit(self.config.repeated):
                self.counts["repeated"] += 1
                out.append(EpcRead(epc, OWN_RSSI))
        ant = self.reader.antennas.get(antenna)
        if ant is not None and self.config.crosstalk:
            for other in sorted(ant.neighbours):
                for epc in fields.get(other, ()):
                    if self._hit(self.config.crosstalk):
                        self.counts["crosstalk"] += 1
                        out.append(EpcRead(epc, CROSSTALK_RSSI))
        return out

    def frame(self, data: bytes) -> bytes:
        """One answer frame on its way to the host, maybe damaged."""
        if not data or not self._hit(self.config.corrupt):
            return data
        self.counts["corrupt"] += 1
        if self.rng.random() < 0.5:
            bit = self.rng.randrange(8 * len(data))
            damaged = bytearray(data)
            damaged[bit // 8] ^= 1 << (bit % 8)
            return bytes(damaged)
        return data[: self.rng.randrange(len(data))]
