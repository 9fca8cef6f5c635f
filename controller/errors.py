"""The controller's branches of the one error tree (the root and the drawing of the whole
tree: rules/errors.py). Errors owned by one part stay in it (`JournalError` in
controller/journal/records.py, `ConfigError` in controller/daemon/config.py); the ones here
are raised by several parts."""

from __future__ import annotations

from controller.locale import Said, said
from rules.errors import TableError as TableError


class DeviceError(TableError):
    """A device or its link failed; the library's own error is its `__cause__`."""


class Refused(TableError):
    """A referee action or correction that changes nothing; the message says why (the judge's
    reason, or the desk's). Refused for now: the deal is not where the action applies.
    `said`: the message as a sentence, which the referee page says in its language."""

    def __init__(self, message: str | Said = "") -> None:
        super().__init__(str(message))
        self.said = said(message)


class Malformed(Refused):
    """Refused because the request itself is malformed (a tile that is no tile, a move with no
    seat), whatever the deal."""


class NoSuchRecord(Refused):
    """Refused because the record the request names is not in the journal."""
