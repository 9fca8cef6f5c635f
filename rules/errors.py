"""The root of every error mjtable raises on purpose, `TableError`, and the rules' branch of it.

It lives here, at the bottom of the project, because `rules/` imports nothing else of it and
every other package imports `rules/`; `controller/errors.py` names it again with the
controller's branches. An error a library raises (sqlite3, pyserial, pyusb, OSError) is
wrapped once, where the project meets the library, in the branch of the part that met it.

Most classes beneath also derive from the built-in error of their kind (`ValueError`,
`LookupError`): an argparse `type=` turns a `ValueError` into a usage message, and a caller
that only knows the built-in catches them too.

    TableError
    ├── RulesError          a value the rules cannot take (notation, rule set, wall, record, hand)
    ├── JournalError        controller/journal/: not a journal, damaged, a refused append
    ├── ReplayError         a restart: the deal in progress cannot be re-judged
    ├── DeviceError         controller/devices/: a device lost, no answer, a message unsupported
    ├── ConfigError         the daemon's settings file
    ├── WireError           the hall's MQTT messages
    ├── Refused             a referee action or correction that changes nothing
    └── (tools/: capture, calibration, enrolment, simulated world; the command line's input)
"""

from __future__ import annotations


class TableError(Exception):
    """An error mjtable raises on purpose; its message says what is wrong in words."""


class RulesError(TableError):
    """A value the rules cannot take: notation, a rule set, a wall, a record, a hand."""
