"""FEIG ISO 15693 readers: "Get Software Version" ([0x65]), the harmless question `mjtable
probe` asks to learn which reader answers. Frames as in iso15693_feig.py (System-Manual ID
ISC.MR/PR/PRH101 H60301-3e-ID-B, §5.4)::

    host -> reader   05 COM-ADR 65 CRC CRC
    reader -> host   0d COM-ADR 65 STATUS SW-REV(2) D-REV HW-TYPE SW-TYPE TR-TYPE(2) CRC CRC

SW-REV is the firmware revision (major, minor), D-REV the development revision (0 in
customised firmware), HW-TYPE the hardware options, SW-TYPE the reader model (the manual's
Annex K "Codes of Reader Types", the same numbers FEIG's SDK header names), TR-TYPE the
transponders the firmware reads (bit 3 ISO 15693, bit 7 I-Code UID, bit 6 I-Code EPC, bit 0
I-Code 1; MSB first like every multi-byte FEIG field). The reader answers at COM-ADR 255
with its configured address, and only at its baud rate and parity (§5.1: nothing otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.devices.iso15693_feig import ANY_READER, FeigRequest, FeigResponse, FeigStatus

GET_SOFTWARE_VERSION = 0x65
INFO_SIZE = 7  # SW-REV(2) D-REV HW-TYPE SW-TYPE TR-TYPE(2)
TR_ISO15693 = 1 << 3

# Annex K: the reader models, by SW-TYPE (HF ones; a UHF FEIG reader speaks the same frames)
MODELS = {
    31: "ID ISC.M02",
    33: "ID ISC.M02.M8",
    45: "ID ISC.LR1002",
    50: "ID ISC.MU02 (UHF)",
    54: "ID ISC.MRU102 (UHF)",
    60: "ID ISC.PRH101",
    61: "ID ISC.PRH101-U",
    71: "ID ISC.PRH100-U",
    72: "ID ISC.PRH100",
    73: "ID ISC.MR100-U",
    74: "ID ISC.MR100 / PR100",
    75: "ID ISC.MR200",
    76: "ID ISC.MR101",
    77: "ID ISC.MR102",
    78: "ID ISC.MR101-U",
    91: "ID ISC.LRU1002 (UHF)",
}
# the models the System-Manual ID ISC.MR/PR/PRH101 describes, whose frames the codec draws
MR101_FAMILY = frozenset({60, 61, 76, 78})


def software_version_request(adr: int = ANY_READER) -> FeigRequest:
    """`05 ff 65 CRC`: who is there, at any address."""
    return FeigRequest(GET_SOFTWARE_VERSION, b"", adr)


@dataclass(frozen=True, slots=True)
class FeigInfo:
    adr: int
    firmware: tuple[int, int]  # SW-REV: major, minor
    dev_rev: int
    hw_type: int
    sw_type: int
    tr_type: int

    @property
    def model(self) -> str:
        return MODELS.get(self.sw_type, f"FEIG reader type {self.sw_type}")

    @property
    def reads_iso15693(self) -> bool:
        return bool(self.tr_type & TR_ISO15693)

    @property
    def profiled(self) -> bool:
        """A model of the family the shipped FEIG profiles were written for."""
        return self.sw_type in MR101_FAMILY

    def __str__(self) -> str:
        tags = "ISO 15693" if self.reads_iso15693 else "no ISO 15693"
        return (
            f"{self.model}, firmware {self.firmware[0]}.{self.firmware[1]:02d}, "
            f"TR-TYPE 0x{self.tr_type:04x} ({tags})"
        )


def software_version_response(info: FeigInfo) -> FeigResponse:
    """Reader side (simulator, tests)."""
    data = bytes((*info.firmware, info.dev_rev, info.hw_type, info.sw_type))
    data += info.tr_type.to_bytes(2, "big")
    return FeigResponse(GET_SOFTWARE_VERSION, FeigStatus.OK, data, info.adr)


def parse_software_version(resp: FeigResponse) -> FeigInfo | None:
    """The reader's identity, or None for another answer (another command, a failing status,
    a length the manual does not give)."""
    d = resp.data
    if resp.control != GET_SOFTWARE_VERSION or resp.status != FeigStatus.OK:
        return None
    if len(d) != INFO_SIZE:
        return None
    return FeigInfo(resp.adr, (d[0], d[1]), d[2], d[3], d[4], int.from_bytes(d[5:7], "big"))
