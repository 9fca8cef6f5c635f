"""A minimal blocking SSE and HTTP client for the output tests (real sockets, 127.0.0.1)."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)


def fetch(
    url: str,
    path: str,
    *,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 5.0,
) -> Reply:
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
    finally:
        conn.close()


class SseReader:
    """Reads events from one SSE stream; `next_event()` blocks up to the socket timeout."""

    def __init__(
        self, url: str, path: str, headers: dict[str, str] | None = None, timeout: float = 5.0
    ):
        host, port = url.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
        self.conn.request("GET", path, headers=headers or {})
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.raw_lines: list[str] = []

    def next_event(self) -> tuple[str, str] | None:
        """(name, data) of the next event, or None when the server ended the stream."""
        name, data = "message", []
        while True:
            raw = self.resp.fp.readline()
            if not raw:
                return None
            line = raw.decode("utf-8").rstrip("\n")
            self.raw_lines.append(line)
            if line == "":
                if data:
                    return name, "\n".join(data)
                name = "message"
                continue
            if line.startswith(":"):
                continue
            key, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if key == "event":
                name = value
            elif key == "data":
                data.append(value)

    def close(self) -> None:
        self.conn.close()
