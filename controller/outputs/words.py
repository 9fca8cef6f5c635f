"""The table's state in words for people (the terminal of `mjtable run`, the hall page):
the table machine's phases (controller/daemon/machine.py) and seats, never raw names."""

from __future__ import annotations

SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}

# `{turn}`: the seat whose turn it is, in words
PHASE_WORDS = {
    "offline": "waiting for the table",
    "idle": "waiting for the shuffle",
    "shuffling": "shuffling",
    "walls_up": "walls built",
    "dice_rolled": "dice rolled",
    "dealing": "dealing",
    "choosing_void": "choosing void suits",
    "playing": "playing",
    "playing.awaiting_draw": "{turn} to draw",
    "playing.awaiting_discard": "{turn} to discard",
    "playing.claim_window": "claims open",
    "playing.robbing_window": "the kong may be robbed",
    "deal_over": "deal over",
    "settled": "deal settled",
    "degraded": "a device is down",
    "paused": "paused",
}


def seat_name(seat: str | None) -> str:
    return SEAT_NAMES.get(seat or "", seat or "?")


def phase_words(phase: str | None, turn: str | None = None) -> str:
    """ "East to discard", "claims open", ...; an unknown phase is shown as it is."""
    if not phase:
        return "not known"
    text = PHASE_WORDS.get(phase, phase.replace("_", " ").replace("playing.", ""))
    if "{turn}" in text:
        return (
            text.format(turn=seat_name(turn)) if turn else text.replace("{turn} ", "").capitalize()
        )
    return text


def plural(n: int, one: str, many: str | None = None) -> str:
    """ "1 tile", "2 tiles"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
