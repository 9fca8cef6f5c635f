"""Seats at the table: E S W N, East is the dealer's seat of a deal, play passes E→S→W→N."""

from __future__ import annotations

from enum import IntEnum


class Seat(IntEnum):
    E = 0
    S = 1
    W = 2
    N = 3

    @property
    def next(self) -> Seat:
        """The player who plays after this one (counter-clockwise seen from above)."""
        return SEATS[(self + 1) % 4]

    def after(self, steps: int) -> Seat:
        return SEATS[(self + steps) % 4]

    @classmethod
    def parse(cls, text: str | int) -> Seat:
        if isinstance(text, int) and not isinstance(text, bool):
            if 0 <= text <= 3:
                return SEATS[text]
            raise ValueError(f"a seat number is 0-3, not {text}")
        key = str(text).strip().upper()[:1]
        if key in cls.__members__:
            return cls[key]
        if key.isdigit() and int(key) <= 3:
            return SEATS[int(key)]
        raise ValueError(f"a seat is one of E S W N (or 0-3), not {text!r}")

    def __str__(self) -> str:
        return self.name


SEATS: tuple[Seat, ...] = tuple(Seat)
