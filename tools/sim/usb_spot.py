"""The simulator's PN533 USB reader: one read spot (a zone of the world) seen by a simulated
PN533 behind the pyusb backend of tools/sim/usb_backend.py.

It lives in the simulator's process (USB has no pty): a client in the same process passes
`backend` to `controller.devices.pn533_usb.PN533Reader` (the daemon would do so when told
`--reader sim-usb`). An ISO 14443-A tag has a 7-byte UID, so the simulated tile's NFC UID is
the last 7 bytes of its simulated EPC (`nfc_uid`); a tag map for it is made by enrolment.
"""

from __future__ import annotations

from controller.profiles import TileCopy, Zone
from tools.sim.usb_backend import SimPN533, SimUsbBackend
from tools.sim.world import World


def nfc_uid(epc: bytes) -> bytes:
    return epc[-7:]


class UsbSpot:
    def __init__(self, world: World, spot: Zone) -> None:
        self.world = world
        self.spot = spot
        self.device = SimPN533()
        self.backend = SimUsbBackend([self.device])
        self._present: set[TileCopy] = set()

    def sync(self) -> None:
        """Put the tiles lying on the spot into the PN533's field, and take the others out."""
        now = set(self.world.in_place(self.spot))
        for tc in self._present - now:
            self.device.remove_tag(nfc_uid(self.world.uids[tc]))
        for tc in sorted(now - self._present):
            self.device.add_tag(nfc_uid(self.world.uids[tc]))
        self._present = now
