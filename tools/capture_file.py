"""The capture file: its records, reader and writer (the format is described in
`tools/capture.py`, the tool that replays captures; the simulator writes them too)."""

from __future__ import annotations

import gzip
import io
import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from controller.devices.events import LinkState
from controller.errors import TableError

VERSION = 1


class CaptureError(TableError, ValueError):
    """A capture file that cannot be read: names the file and line."""


@dataclass(frozen=True, slots=True)
class Chunk:
    t: float
    device: str
    direction: str  # "tx" host → device, "rx" device → host
    data: bytes


@dataclass(frozen=True, slots=True)
class Link:
    t: float
    device: str
    state: LinkState


Record = Chunk | Link


def _open_text(path: Path, mode: str) -> IO[str]:
    if path.name.endswith(".gz"):
        # mtime=0: a regenerated capture is byte-identical
        raw = gzip.GzipFile(path, mode[0] + "b", mtime=0)
        return io.TextIOWrapper(raw, encoding="utf-8")  # type: ignore[arg-type]  # a GzipFile is a binary buffer
    return open(path, mode, encoding="utf-8")


class CaptureWriter:
    """Appends records as they happen (thread-safe); times relative to the writer's start."""

    def __init__(self, path: Path, header: dict[str, Any], clock=time.monotonic) -> None:
        self.path = Path(path)
        self.clock = clock
        self.t0 = clock()
        self._lock = threading.Lock()
        self._f = _open_text(self.path, "w")
        head = {"class": "capture", "version": VERSION, **header}
        self._f.write(json.dumps(head, sort_keys=True) + "\n")

    def chunk(self, device: str, direction: str, data: bytes) -> None:
        rec = {"t": round(self.clock() - self.t0, 4), "dev": device, "dir": direction}
        rec["hex"] = data.hex()
        self._write(rec)

    def link(self, device: str, state: LinkState) -> None:
        self._write({"t": round(self.clock() - self.t0, 4), "dev": device, "link": state.value})

    def _write(self, rec: dict[str, Any]) -> None:
        with self._lock:
            if not self._f.closed:
                self._f.write(json.dumps(rec) + "\n")

    def close(self) -> None:
        with self._lock:
            self._f.close()


def read(path: Path) -> tuple[dict[str, Any], list[Record]]:
    """The header and the records of a capture."""
    path = Path(path)
    with _open_text(path, "r") as f:
        lines = f.read().splitlines()
    if not lines:
        raise CaptureError(f"{path}: empty")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as err:
        raise CaptureError(f"{path}:1: not JSON: {err}") from None
    if header.get("class") != "capture" or header.get("version") != VERSION:
        raise CaptureError(f"{path}:1: not a version {VERSION} capture header")
    records: list[Record] = []
    for n, line in enumerate(lines[1:], start=2):
        try:
            rec = json.loads(line)
            t, dev = float(rec["t"]), str(rec["dev"])
            if "link" in rec:
                records.append(Link(t, dev, LinkState(rec["link"])))
            elif rec["dir"] in ("tx", "rx"):
                records.append(Chunk(t, dev, rec["dir"], bytes.fromhex(rec["hex"])))
            else:
                raise ValueError(f"direction {rec['dir']!r}")
        except (json.JSONDecodeError, KeyError, ValueError) as err:
            raise CaptureError(f"{path}:{n}: {err}") from None
    return header, records


# --------------------------------------------------------------------------- replay
