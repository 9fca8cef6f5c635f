"""The simulator's PN532 module on a UART: the PN53x firmware of usb_backend.py (`SimPN533`
with PN532 firmware, through its HSU side `serial_feed`) at the far end of a real
pseudo-terminal (devices.py's `PtyEndpoint`, a symlink the client opens as it would
/dev/serial0), served by a `DeviceLoop` thread.

The chip sleeps until the HSU wake-up preamble, answers every command with an ACK and its
D5 frame, and sends its last answer again on a NACK; `chip.damage(...)` sends the next
answers with a bad LCS or DCS. `unplug()` pulls the cable (the pty closes, the symlink
goes, the chip loses power); `replug()` makes a new pty behind the same symlink, the chip
asleep again and the tags still in its field.
"""

from __future__ import annotations

from pathlib import Path

from controller.devices.pn532 import FirmwareVersion
from tools.sim.devices import DeviceLoop, open_endpoint
from tools.sim.usb_backend import PN532_FIRMWARE, SimPN533


class UartPN532:
    def __init__(
        self, folder: Path, name: str = "serial0", firmware: FirmwareVersion = PN532_FIRMWARE
    ) -> None:
        self.chip = SimPN533(firmware=firmware)
        self.endpoint = open_endpoint(folder, name)

    @property
    def path(self) -> Path:
        """What the client opens (the symlink, stable across a replug)."""
        return self.endpoint.link

    def attach(self, loop: DeviceLoop) -> None:
        loop.add(self.endpoint, self.on_bytes)

    def on_bytes(self, data: bytes) -> None:
        self.endpoint.write(self.chip.serial_feed(data))

    def unplug(self) -> None:
        self.endpoint.unplug()
        self.chip.unplug()

    def replug(self) -> None:
        self.chip.replug()
        self.endpoint.plug()

    def close(self) -> None:
        self.endpoint.close()
