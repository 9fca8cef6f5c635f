"""The hall tests use the hub tests' real Mosquitto fixtures."""

from real_things import hub_helpers

_helpers = hub_helpers()
mosquitto_exe = _helpers.mosquitto_exe
broker = _helpers.broker
