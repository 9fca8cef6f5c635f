"""What people see: seat displays, the web scoreboard, the broadcast view, MQTT for the hub."""
