"""The reader side of a FEIG ISO 15693 reader (controller/devices/iso15693_feig.py), for the
simulator and tests: `SimFeigReader.feed(bytes)` takes what the host wrote and returns what
the reader answers to the ISO host inventory, with its transponders listed `per_answer` at a
time (STATUS 0x94 and MORE beyond that, as the reader does with more tags than one frame)."""

from __future__ import annotations

from controller.devices.iso15693_feig import (
    ANY_READER,
    INVENTORY,
    ISO_HOST_COMMAND,
    MORE,
    FeigResponse,
    FeigStatus,
    RequestDecoder,
    Transponder,
    inventory_response,
)

ICODE_SLIX = 0x03  # TR-TYPE: 13.56 MHz, type number 3 (Annex A: NXP I-Code SLI)


class SimFeigReader:
    def __init__(self, adr: int = 0, per_answer: int = 20) -> None:
        self.adr = adr
        self.per_answer = per_answer
        self.decoder = RequestDecoder()
        self.tags: list[bytes] = []  # UIDs in the field, MSB first
        self._left: list[bytes] = []  # data sets not yet fetched with MORE
        self.requests: list = []

    def feed(self, data: bytes) -> bytes:
        out = b""
        for req in self.decoder.feed(data):
            self.requests.append(req)
            if req.adr not in (self.adr, ANY_READER):
                continue
            out += self.answer(req).encode()
        return out

    def answer(self, req) -> FeigResponse:
        if req.control != ISO_HOST_COMMAND or req.data[:1] != bytes((INVENTORY,)):
            return FeigResponse(req.control, 0x80, b"", self.adr)  # not simulated
        more = len(req.data) > 1 and req.data[1] & MORE
        if not more:
            self._left = list(self.tags)
        batch, self._left = self._left[: self.per_answer], self._left[self.per_answer :]
        status = FeigStatus.MORE_DATA if self._left else FeigStatus.OK
        tags = [Transponder(ICODE_SLIX, 0x00, uid) for uid in batch]
        return inventory_response(tags, self.adr, status)
