"""The reader side of the UHFReader18 / CF-RU5102 protocol, for the simulator and tests.

`SimUHFReader.feed(bytes)` takes what the host wrote and returns the bytes the reader
answers: antenna multiplexing (0x3F), inventory (0x01) over a set of tags per antenna, and
"get reader information" (0x21, controller/devices/uhf_info.py) with `info`.
Tags are placed and removed by the caller (the simulated table); noise and faults are the
caller's business too (drop or corrupt the returned bytes).
"""

from __future__ import annotations

from collections.abc import Iterable

from controller.devices.uhf_info import GET_READER_INFO, ReaderInfo, reader_info_response
from controller.devices.uhf_reader import (
    BROADCAST,
    MAX_ANTENNAS,
    CommandDecoder,
    EpcRead,
    InventoryLayout,
    UHFCmd,
    UHFCommand,
    UHFResponse,
    UHFStatus,
    inventory_responses,
)


class SimUHFReader:
    """A multi-antenna reader at address `adr` with `antennas` ports.

    After power-up every port is enabled (mask of all ports); an inventory reads each enabled
    port in turn, each port's tags in their own frames. A port listed in `broken` answers
    the antenna error status, as a reader does when no antenna is connected.
    """

    def __init__(
        self,
        antennas: int = 4,
        adr: int = 0,
        layout: InventoryLayout = InventoryLayout.ANTENNA_RSSI,
        rssi: int = 0x5D,
        broken: Iterable[int] = (),
    ) -> None:
        if not 1 <= antennas <= MAX_ANTENNAS:
            raise ValueError(f"antennas must be 1..{MAX_ANTENNAS}")
        if not 0 <= adr < BROADCAST:
            raise ValueError("reader address must be 0x00..0xFE")
        self.antennas = antennas
        self.adr = adr
        self.layout = layout
        self.rssi = rssi
        self.broken = set(broken)
        self.enabled = (1 << antennas) - 1
        # version 3.1, type 0x09, EPC C1G2 + 18000-6B, 30 dBm, inventories of at most 1 s; a
        # reader whose answers name their antenna says it as the UHFReader288 class does (12
        # bytes: its antennas, no beep, checks antennas), a plain one as the UHFReader18 (8)
        base = (adr, (3, 1), 0x09, 0x03, 0x4E, 0x00, 30, 10)
        self.info = (
            ReaderInfo(*base, self.enabled, 0, 0, 1) if layout.antenna_byte else ReaderInfo(*base)
        )
        self.decoder = CommandDecoder("sim-uhf")
        self.commands: list[UHFCommand] = []  # every command received, for tests
        self._tags: dict[int, list[bytes]] = {a: [] for a in range(1, antennas + 1)}

    # --- the world ------------------------------------------------------------------
    def place(self, epc: bytes, antenna: int) -> None:
        """A tag comes into the field of `antenna` (idempotent)."""
        tags = self._port(antenna)
        if epc not in tags:
            tags.append(epc)

    def remove(self, epc: bytes, antenna: int | None = None) -> None:
        """A tag leaves `antenna` (or every antenna)."""
        ports = [antenna] if antenna is not None else list(self._tags)
        for a in ports:
            tags = self._port(a)
            if epc in tags:
                tags.remove(epc)

    def set_tags(self, antenna: int, epcs: Iterable[bytes]) -> None:
        self._tags[self._check(antenna)] = list(dict.fromkeys(epcs))

    def tags(self, antenna: int) -> tuple[bytes, ...]:
        return tuple(self._port(antenna))

    # --- the wire ---------------------------------------------------------------------
    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        for command in self.decoder.feed(data):
            self.commands.append(command)
            if command.adr not in (self.adr, BROADCAST):
                continue  # addressed to another reader on the bus
            for resp in self.answer(command):
                out += resp.encode()
        return bytes(out)

    def answer(self, command: UHFCommand) -> list[UHFResponse]:
        if command.cmd == UHFCmd.SET_ANTENNA and self.layout.antenna_byte:
            return [self._set_antenna(command)]
        if command.cmd == UHFCmd.INVENTORY:
            return self._inventory()
        if command.cmd == GET_READER_INFO:
            return [reader_info_response(self.info)]
        # an unknown command: reCmd 0x00, status 0xFE (UHFReader18 manual V2.0 §8.1); a
        # plain-layout reader (UHFReader18, one antenna) knows no antenna selection
        return [UHFResponse(0x00, UHFStatus.ILLEGAL_COMMAND, b"", self.adr)]

    def _set_antenna(self, command: UHFCommand) -> UHFResponse:
        valid = (1 << self.antennas) - 1
        if len(command.data) != 1 or not command.data[0] or command.data[0] & ~valid:
            return UHFResponse(command.cmd, UHFStatus.PARAMETER_ERROR, b"", self.adr)
        self.enabled = command.data[0]
        return UHFResponse(command.cmd, UHFStatus.SUCCESS, b"", self.adr)

    def _inventory(self) -> list[UHFResponse]:
        ports = [a for a in range(1, self.antennas + 1) if self.enabled & (1 << (a - 1))]
        if any(a in self.broken for a in ports):
            return [UHFResponse(UHFCmd.INVENTORY, UHFStatus.ANTENNA_ERROR, b"", self.adr)]
        layout = self.layout
        if not layout.antenna_byte and not any(self._tags[a] for a in ports):
            # the manual's answer to an inventory that found nothing: "no tag operable"
            return [UHFResponse(UHFCmd.INVENTORY, UHFStatus.NO_TAG, b"", self.adr)]
        frames: list[UHFResponse] = []
        for i, antenna in enumerate(ports):
            reads = [EpcRead(epc, self.rssi) for epc in self._tags[antenna]]
            frames += inventory_responses(
                antenna,
                reads,
                self.adr,
                layout.rssi,
                more=i < len(ports) - 1,
                antenna_byte=layout.antenna_byte,
            )
        return frames

    def _port(self, antenna: int) -> list[bytes]:
        return self._tags[self._check(antenna)]

    def _check(self, antenna: int) -> int:
        if antenna not in self._tags:
            raise ValueError(f"antenna {antenna} not on this reader (1..{self.antennas})")
        return antenna
