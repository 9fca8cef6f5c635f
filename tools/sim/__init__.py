"""Simulator: a virtual automatic table and RFID readers speaking the real byte protocols."""
