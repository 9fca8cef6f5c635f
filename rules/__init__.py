"""The pure rules engine: tiles, wall geometry, hands, waits, fans, the deal judge,
settlement and rule sets. No I/O beyond reading its own data files, no clock, no logging
setup, and nothing imported from `controller`."""
