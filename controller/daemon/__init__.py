"""The table daemon: the table state machine, recognition wiring, journal and outputs."""
