"""UHFReader18 / CF-RU5102 family: "get reader information" (command 0x21), the question
`mjtable probe` asks a reader to learn who it is. Frames as in uhf_reader.py.

    host -> reader   Len Adr 0x21 CRC CRC                        (04 00 21 d9 6a at address 0)
    reader -> host   Len Adr 0x21 Status(00) Data(8) CRC CRC     (Len 0x0d)

    Data  +---------+---------+------+---------+---------+---------+-------+-------+
          | Version (2 bytes) | Type | Tr_Type | dmaxfre | dminfre | Power | Scntm |
          +---------+---------+------+---------+---------+---------+-------+-------+

Version is major, minor; Type the reader model byte; Tr_Type the protocols it speaks (bit 1
ISO 18000-6C / EPC C1G2, bit 0 ISO 18000-6B); dmaxfre and dminfre carry the frequency band
in their top two bits and the highest / lowest channel in the low six; Power the output in
dBm; Scntm the longest inventory time in units of 100 ms.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.devices.uhf_reader import BROADCAST, UHFCommand, UHFResponse, UHFStatus

GET_READER_INFO = 0x21
INFO_SIZE = 8


@dataclass(frozen=True, slots=True)
class ReaderInfo:
    """One reader's answer to "get reader information"."""

    adr: int  # the address it answered from
    version: tuple[int, int]
    model: int  # the Type byte
    protocols: int  # Tr_Type bits
    max_channel: int  # dmaxfre, band bits included
    min_channel: int
    power_dbm: int
    scan_time: int  # units of 100 ms

    @property
    def epc_gen2(self) -> bool:
        return bool(self.protocols & 0x02)

    def __str__(self) -> str:
        kinds = [n for bit, n in ((0x02, "EPC C1G2"), (0x01, "18000-6B")) if self.protocols & bit]
        return (
            f"version {self.version[0]}.{self.version[1]}, type 0x{self.model:02x}, "
            f"{'/'.join(kinds) or 'no known protocol'}, {self.power_dbm} dBm, "
            f"scan time {self.scan_time / 10:g} s"
        )

    def data(self) -> bytes:
        return bytes(
            (
                *self.version,
                self.model,
                self.protocols,
                self.max_channel,
                self.min_channel,
                self.power_dbm,
                self.scan_time,
            )
        )


def reader_info_command(adr: int = BROADCAST) -> UHFCommand:
    return UHFCommand(GET_READER_INFO, b"", adr)


def reader_info_response(info: ReaderInfo) -> UHFResponse:
    """The reader side (simulator, tests)."""
    return UHFResponse(GET_READER_INFO, UHFStatus.SUCCESS, info.data(), info.adr)


def parse_reader_info(resp: UHFResponse) -> ReaderInfo | None:
    """The answer as a `ReaderInfo`; None when `resp` is not a successful 0x21 answer."""
    if resp.cmd != GET_READER_INFO or resp.status != UHFStatus.SUCCESS:
        return None
    d = resp.data
    if len(d) != INFO_SIZE:
        return None
    return ReaderInfo(resp.adr, (d[0], d[1]), d[2], d[3], d[4], d[5], d[6], d[7])
