"""A PN532 single-spot reader on a serial line (HSU, e.g. a Raspberry Pi's `/dev/serial0`)
through pyserial: the transport under the command exchange and polling driver of
pn53x_reader.py, the driver the daemon's polled link steps (controller/devices/polled_link.py)
as it does a PN533 on USB.

At every open (the first and each reconnection) the chip is woken and configured: the HSU
wake-up preamble (0x55 0x55 and fourteen 0x00: a PN532 sleeps after power-up and hears
nothing before it), then SAMConfiguration in normal mode (D4 14 01 14 01), as
HARDWARE-NOTES says; then GetFirmwareVersion, RFConfiguration (finite retries), and
InListPassiveTarget at every poll.

A serial line that fails (pyserial `SerialException`, `OSError` EIO, `termios.error`: a
pulled adapter, HARDWARE-NOTES) is a lost device: `LinkChanged(DOWN)` with one line
naming the port, then the same path is opened again with backoff, so a re-plugged adapter
(or a /dev/serial/by-id link made again) is found and woken.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import serial

from controller.devices import pn532
from controller.devices.pn53x_reader import (
    Backoff,
    DeviceLost,
    FrameExchange,
    NoAnswer,
    PN53xReader,
)
from controller.devices.pn532 import Acknowledged, Command
from controller.devices.serial_link import IO_ERRORS

HSU_BAUD = 115200  # the PN532's HSU speed (user manual §6.2.3)


def _one_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


class PN532UartLink(FrameExchange):
    """One opened serial port with a PN532 on it."""

    def __init__(self, port: serial.SerialBase, url: str) -> None:
        super().__init__("pn532")
        self.port = port
        self.url = url
        self.name = f"PN532 on {url}"

    @classmethod
    def open(cls, url: str, baudrate: int = HSU_BAUD, timeout: float = 0.25) -> PN532UartLink:
        """Open `url` (a path, a /dev/serial/by-id link, a pyserial URL); DeviceLost when it
        cannot be opened."""
        try:
            port = serial.serial_for_url(
                url, baudrate=baudrate, timeout=timeout, exclusive=True, do_not_open=True
            )
            port.open()
        except (*IO_ERRORS, ValueError) as err:  # ValueError: a URL or speed pyserial refuses
            raise DeviceLost(f"cannot open {url}: {_one_line(err)}") from err
        return cls(port, url)

    def wake(self) -> None:
        """The HSU wake-up preamble, then SAMConfiguration (normal mode)."""
        self.write(pn532.WAKEUP)
        answer = self.exchange(pn532.sam_configuration(), Command.SAM_CONFIGURATION)
        if not isinstance(pn532.parse_answer(answer, Command.SAM_CONFIGURATION), Acknowledged):
            raise NoAnswer(f"SAMConfiguration answered {answer.data.hex()}")

    def write(self, data: bytes) -> None:
        try:
            self.port.write(data)
        except IO_ERRORS as err:
            raise DeviceLost(f"{self.url} lost: {_one_line(err)}") from err

    def read(self) -> bytes | None:
        try:
            data = self.port.read(max(1, self.port.in_waiting))
        except IO_ERRORS as err:
            raise DeviceLost(f"{self.url} lost: {_one_line(err)}") from err
        return data or None

    def discard(self) -> None:
        try:
            self.port.reset_input_buffer()
        except IO_ERRORS as err:
            raise DeviceLost(f"{self.url} lost: {_one_line(err)}") from err

    def close(self) -> None:
        with contextlib.suppress(*IO_ERRORS):  # a vanished adapter may refuse even this
            self.port.close()


class PN532UartReader(PN53xReader):
    """The polling driver of pn53x_reader.py on a PN532 at `url`."""

    def __init__(
        self,
        url: str,
        baudrate: int = HSU_BAUD,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff | None = None,
        device: str = "reader",
        max_targets: int = 1,
        timeout: float = 0.25,
    ) -> None:
        super().__init__(clock, backoff, device, max_targets)
        self.url = url
        self.baudrate = baudrate
        self.timeout = timeout  # seconds a read waits for the ACK, then for the answer

    def _open(self) -> PN532UartLink:
        return PN532UartLink.open(self.url, self.baudrate, self.timeout)

    def _configure(self, link: FrameExchange) -> None:
        assert isinstance(link, PN532UartLink)
        link.wake()
