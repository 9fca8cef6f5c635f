"""Recorded vectors from elsewhere (tests/captures/vectors/, README there): byte sequences
other people recorded on real readers or wrote out in their drivers' tests, each file with
its source in the header, replayed through the real decoders whole, one byte at a time and
at random splits, and checked against what the source says the bytes mean (`expect`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.devices import iso15693_feig, pn532
from controller.devices.events import TagsRead
from controller.devices.pn532 import Command, FirmwareVersion, PassiveTargets
from controller.devices.uhf_info import parse_reader_info
from controller.devices.uhf_poller import PollerConfig, UHFPoller
from controller.devices.uhf_reader import (
    CommandDecoder,
    InventoryLayout,
    ResponseDecoder,
    layouts_of,
    parse_inventory,
)
from tools.capture_file import Chunk, read

VECTORS = Path(__file__).parents[2] / "captures" / "vectors"
FILES = sorted(VECTORS.glob("*.jsonl"))
UHF = [p for p in FILES if read(p)[0]["reader"]["model"] == "uhf-serial"]
FEIG = [p for p in FILES if read(p)[0]["reader"]["model"] == "iso15693-feig"]
PN53X = [p for p in FILES if p not in UHF and p not in FEIG]


def chunks(path: Path, direction: str | None = None) -> list[bytes]:
    return [
        r.data for r in read(path)[1] if isinstance(r, Chunk) and direction in (None, r.direction)
    ]


def splits(data: bytes, seed: int) -> list[bytes]:
    """`data` cut at random places (some pieces empty)."""
    rng = random.Random(seed)
    cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randrange(1, 8)))
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]


def feedings(data: bytes) -> list[list[bytes]]:
    """Whole, byte by byte, and five random splits."""
    return [[data], [bytes((b,)) for b in data], *(splits(data, seed) for seed in range(5))]


def decoded(make, pieces: list[bytes], describe) -> list:
    decoder = make()
    frames = [f for piece in pieces for f in decoder.feed(piece)]
    frames += decoder.flush()
    return [describe(f) for f in frames]


def uhf_row(frame) -> list:
    status = getattr(frame, "status", None)
    code = frame.cmd if hasattr(frame, "cmd") else frame.control  # UHF family, FEIG
    head = [frame.adr, code] + ([] if status is None else [status])
    return [*head, frame.data.hex()]


def pn53x_row(frame) -> list:
    if isinstance(frame, pn532.InfoFrame):
        return ["info", int(frame.tfi), frame.data.hex()]
    return [{pn532.Ack: "ack", pn532.Nack: "nack", pn532.ErrorFrame: "error"}[type(frame)]]


def test_every_vector_names_its_source_and_what_is_odd() -> None:
    assert len(FILES) >= 10
    for path in FILES:
        header = read(path)[0]
        source = header["source"]
        assert source.get("commit") or source.get("document"), path.name
        assert source.get("where"), path.name
        assert {"device", "firmware", "model"} <= set(header["reader"]), path.name
        assert "odd" in header and header["date"], path.name


@pytest.mark.parametrize("path", UHF, ids=lambda p: p.stem)
def test_uhf_vector_decodes_whole_bytewise_and_split(path: Path) -> None:
    expect = read(path)[0]["expect"]
    rx, tx = b"".join(chunks(path, "rx")), b"".join(chunks(path, "tx"))
    for pieces in feedings(rx):
        assert decoded(ResponseDecoder, pieces, uhf_row) == expect["frames"]
    for pieces in feedings(tx):
        assert decoded(CommandDecoder, pieces, uhf_row) == expect.get("commands", [])


@pytest.mark.parametrize("path", FEIG, ids=lambda p: p.stem)
def test_feig_vector_decodes_whole_bytewise_and_split(path: Path) -> None:
    expect = read(path)[0]["expect"]
    rx, tx = b"".join(chunks(path, "rx")), b"".join(chunks(path, "tx"))
    for pieces in feedings(rx):
        got = decoded(iso15693_feig.ResponseDecoder, pieces, uhf_row)
        assert [[f[0], f[1], f[2], f[3]] for f in got] == expect["frames"]
    for pieces in feedings(tx):
        decoder = iso15693_feig.RequestDecoder()
        got = [[r.adr, r.control, r.data.hex()] for p in pieces for r in decoder.feed(p)]
        assert got == expect["commands"]


@pytest.mark.parametrize("path", PN53X, ids=lambda p: p.stem)
def test_pn53x_vector_decodes_whole_bytewise_and_split(path: Path) -> None:
    expect = read(path)[0]["expect"]
    wire = b"".join(chunks(path))
    for pieces in feedings(wire):
        decoder = pn532.FrameDecoder("vector")
        frames = [f for piece in pieces for f in decoder.feed(piece)]
        assert [pn53x_row(f) for f in frames] == expect["frames"]
        assert decoder.stats().error_total == expect.get("junk", 0)


@pytest.mark.parametrize(
    "path", [p for p in UHF if "inventory" in read(p)[0]["expect"]], ids=lambda p: p.stem
)
def test_uhf_inventory_vector_through_the_poller(path: Path) -> None:
    """The answer replayed through the real antenna poller in the layout the source shows:
    the tags it names on antenna 1, or an empty antenna."""
    inv = read(path)[0]["expect"]["inventory"]
    layout = InventoryLayout(inv["layout"])
    (frame,) = ResponseDecoder().feed(b"".join(chunks(path, "rx")))
    reply = parse_inventory(frame, layout)
    assert [reply.status, reply.antenna] == [inv["status"], inv["antenna"]]
    assert [t.epc.hex() for t in reply.tags] == inv["epcs"]
    assert layout in layouts_of(frame) or not inv["epcs"]
    rx = b"".join(chunks(path, "rx"))
    for pieces in feedings(rx):
        poller = UHFPoller(PollerConfig((1,), select_antenna=False, layout=layout))
        poller.start(0.0)
        events = [e for i, p in enumerate(pieces) for e in poller.feed(0.001 * i, p).events]
        assert [e for e in events if isinstance(e, TagsRead)] == [
            TagsRead(events[-1].t, 1, tuple(bytes.fromhex(e) for e in inv["epcs"]))
        ]
        assert len(events) == 1  # nothing else: no error, no "incomplete answer"


@pytest.mark.parametrize(
    "path", [p for p in UHF if "info" in read(p)[0]["expect"]], ids=lambda p: p.stem
)
def test_uhf_reader_information_vector(path: Path) -> None:
    want = read(path)[0]["expect"]["info"]
    (frame,) = ResponseDecoder().feed(b"".join(chunks(path, "rx")))
    info = parse_reader_info(frame)
    assert info is not None
    assert [info.variant.value, info.model, info.antennas] == [
        want["variant"],
        want["model"],
        want["antennas"],
    ]


def test_pn53x_answers_parse_as_their_sources_say() -> None:
    for name in ("nfcpy-pn532-firmware", "nfcpy-pn533-firmware"):
        path = VECTORS / f"{name}.jsonl"
        frames = pn532.FrameDecoder().feed(b"".join(chunks(path)))
        answer = pn532.parse_answer(frames[-1], Command.GET_FIRMWARE_VERSION)
        assert answer == FirmwareVersion(*read(path)[0]["expect"]["firmware"])
    path = VECTORS / "nfcpy-in-list-passive-target.jsonl"
    infos = [
        f
        for f in pn532.FrameDecoder().feed(b"".join(chunks(path)))
        if isinstance(f, pn532.InfoFrame)
    ]
    got = []
    for f in infos:
        answer = pn532.parse_answer(f, Command.IN_LIST_PASSIVE_TARGET)
        got.append(
            [t.nfcid.hex() for t in answer.targets] if isinstance(answer, PassiveTargets) else None
        )
    assert got == read(path)[0]["expect"]["targets"]
