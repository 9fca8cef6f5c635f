"""UHFReader18 / CF-RU5102 family: "get reader information" (command 0x21), the question
`mjtable probe` asks a reader to learn who it is. Frames as in uhf_reader.py.

    host -> reader   Len Adr 0x21 CRC CRC                        (04 00 21 d9 6a at address 0)
    reader -> host   Len Adr 0x21 Status(00) Data(8) CRC CRC     (Len 0x0d, UHFReader18)
                     Len Adr 0x21 Status(00) Data(12) CRC CRC    (Len 0x11, UHFReader288 class)

    Data  +---------+---------+------+---------+---------+---------+-------+-------+
          | Version (2 bytes) | Type | Tr_Type | dmaxfre | dminfre | Power | Scntm |
          +---------+---------+------+---------+---------+---------+-------+-------+
          then, UHFReader288 class:  | Ant | BeepEn | OutputRep | CheckAnt |

Version is major, minor; Type the reader model byte; Tr_Type the protocols it speaks (bit 1
ISO 18000-6C / EPC C1G2, bit 0 ISO 18000-6B); dmaxfre and dminfre carry the frequency band
in their top two bits and the highest / lowest channel in the low six; Power the output in
dBm; Scntm the longest inventory time in units of 100 ms (UHFReader18 manual V2.0 §8.4.1). The
UHFReader288 class appends Ant (the antennas its inventories use), BeepEn, OutputRep and
CheckAnt (whether it checks that an antenna is connected): the vendor SDK reads data bytes 8
to 11 as these (apiwat59/UHFG app/src/main/java/com/rfid/trans/BaseReader.java,
GetReaderInformation). The length of the answer tells the class (`ReaderInfo.variant`), and
with it the inventory layout its firmware answers in (`ReaderVariant.layout`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from controller.devices.uhf_reader import (
    BROADCAST,
    InventoryLayout,
    UHFCommand,
    UHFResponse,
    UHFStatus,
)

GET_READER_INFO = 0x21
INFO_SIZE = 8  # UHFReader18 manual V2.0 §8.4.1
INFO_SIZE_288 = 12  # the UHFReader288 class: Ant, BeepEn, OutputRep, CheckAnt follow


class ReaderVariant(Enum):
    """Which class of the family a reader is, told by its reader-information answer."""

    UHFREADER18 = "UHFReader18 class"  # 8 bytes of information
    UHFREADER288 = "UHFReader288 class"  # 12 bytes
    UNKNOWN = "unknown class"  # another length: the first 8 bytes read as the manual's

    @property
    def layout(self) -> InventoryLayout | None:
        """The inventory layout its documents give (None: no document says)."""
        if self is ReaderVariant.UHFREADER18:
            return InventoryLayout.PLAIN  # manual V2.0 §8.2.1
        if self is ReaderVariant.UHFREADER288:
            return InventoryLayout.ANTENNA_RSSI  # vendor SDK, UR-series manual v1.14 §8.2
        return None

    @property
    def selects_antennas(self) -> bool:
        """Whether it takes antenna selection (0x3F): the UHFReader18 manual lists none."""
        return self is not ReaderVariant.UHFREADER18


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
    # the UHFReader288 class's four more bytes; None for an 8-byte answer
    antennas: int | None = None  # Ant: bits of the antennas its inventories use
    beep: int | None = None
    output_rep: int | None = None
    check_antenna: int | None = None
    extra: bytes = b""  # bytes beyond those no document names

    @property
    def variant(self) -> ReaderVariant:
        if self.extra or (self.antennas is None) != (self.check_antenna is None):
            return ReaderVariant.UNKNOWN
        return ReaderVariant.UHFREADER18 if self.antennas is None else ReaderVariant.UHFREADER288

    @property
    def epc_gen2(self) -> bool:
        return bool(self.protocols & 0x02)

    def __str__(self) -> str:
        kinds = [n for bit, n in ((0x02, "EPC C1G2"), (0x01, "18000-6B")) if self.protocols & bit]
        text = (
            f"{self.variant.value}, version {self.version[0]}.{self.version[1]}, "
            f"type 0x{self.model:02x}, {'/'.join(kinds) or 'no known protocol'}, "
            f"{self.power_dbm} dBm, scan time {self.scan_time / 10:g} s"
        )
        if self.antennas is not None:
            text += f", antennas 0x{self.antennas:02x}"
        if self.extra:
            text += f", {len(self.extra)} more bytes no document names ({self.extra.hex()})"
        return text

    def data(self) -> bytes:
        return (
            bytes(
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
            + bytes(
                b
                for b in (self.antennas, self.beep, self.output_rep, self.check_antenna)
                if b is not None
            )
            + self.extra
        )


def reader_info_command(adr: int = BROADCAST) -> UHFCommand:
    return UHFCommand(GET_READER_INFO, b"", adr)


def reader_info_response(info: ReaderInfo) -> UHFResponse:
    """The reader side (simulator, tests)."""
    return UHFResponse(GET_READER_INFO, UHFStatus.SUCCESS, info.data(), info.adr)


def parse_reader_info(resp: UHFResponse) -> ReaderInfo | None:
    """The answer as a `ReaderInfo`, of any length from the manual's 8 data bytes on (the
    UHFReader288 class's 12, or more: kept as `extra`); None when `resp` is not a successful
    0x21 answer or is shorter."""
    if resp.cmd != GET_READER_INFO or resp.status != UHFStatus.SUCCESS:
        return None
    d = resp.data
    if len(d) < INFO_SIZE:
        return None
    base = (resp.adr, (d[0], d[1]), d[2], d[3], d[4], d[5], d[6], d[7])
    if len(d) < INFO_SIZE_288:
        return ReaderInfo(*base, extra=bytes(d[INFO_SIZE:]))
    return ReaderInfo(*base, d[8], d[9], d[10], d[11], bytes(d[INFO_SIZE_288:]))
