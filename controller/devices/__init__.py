"""Device layer: transports (serial, USB), codecs (bytes → frames) and drivers (frames →
typed events). Knows nothing of mahjong."""
