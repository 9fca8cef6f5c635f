"""mjtable controller: devices, recognition, the table state machine, journal, outputs, CLI."""

__version__ = "0.1.0"
