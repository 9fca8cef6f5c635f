"""Recognition: RFID reads → tile presence per zone (presence.py) → tile moves."""
