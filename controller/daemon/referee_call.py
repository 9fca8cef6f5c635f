"""The referee's call as one value (issue 27 item 1): what the table waits for the referee
about. The page's headline, its buttons (the candidates, best first), its status line and
the folded details all come from this value, so they cannot disagree: when an answer
brings the candidates up to date, the headline is made again from them.

The headline is the best candidate's problem in plain words ("South's draw was not read:
the reader sees 1m in South's hand"), else the alert's own words, shortened. The details
are the reader's differences from the judge grouped by seat and zone ("South's hand: one
3m more than the judge knows"). Every phrase the page shows of a call is written here or in
controller/daemon/candidates.py (one place to translate)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from controller.daemon.candidates import Candidate, Differences
from controller.journal.payloads import table_seat
from controller.words import seat_name
from rules.seats import Seat

HEADLINE_MAX = 120  # characters: read at a glance
CALL_GONE = "That call was already answered; nothing was changed. The page shows the table now."

CALL_WORDS = {
    "waiting": "The table waits for you.",
    "answered": "Answered: the call goes off once the table shows what the judge knows.",
    "more": "more",
    "fewer": "fewer",
    "than": "than the judge knows",
}
COUNT_WORDS = ("no", "one", "two", "three", "four")


@dataclass(frozen=True, slots=True)
class RefereeCall:
    """A standing referee call. `cause`: the alert in words, as journalled; `alert_seq`:
    the journal record of the alert that raised it; `answers`: the answers taken while it
    stood (with `alert_seq`, the call's name on the page: an answer naming another call, or
    this one before an answer another referee gave, is refused); `answered`: a move was
    entered and the call stands only until the table agrees with the judge."""

    kind: str
    cause: str
    candidates: tuple[Candidate, ...] = ()
    details: tuple[str, ...] = ()
    alert_seq: int = 0
    answered: bool = False
    answers: int = 0

    @property
    def name(self) -> str:
        return f"{self.alert_seq}.{self.answers}"

    @property
    def headline(self) -> str:
        for c in self.candidates:
            if c.headline:
                return shorten(c.headline)
        return shorten(self.cause)

    @property
    def status(self) -> str:
        return CALL_WORDS["answered" if self.answered else "waiting"]

    def updated(
        self, offered: tuple[Candidate, ...], details: tuple[str, ...], answered: bool
    ) -> RefereeCall:
        """The same call with its candidates and details brought up to date (its headline
        follows them)."""
        return replace(
            self,
            candidates=offered,
            details=details,
            answered=answered,
            answers=self.answers + int(answered),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.name,
            "kind": self.kind,
            "headline": self.headline,
            "status": self.status,
            "answered": self.answered,
            "candidates": [c.to_json() for c in self.candidates],
            "details": list(self.details),
            "cause": self.cause,
        }


def shorten(text: str, limit: int = HEADLINE_MAX) -> str:
    """`text` cut at a word to at most `limit` characters (an ellipsis shows the cut)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:—- ")
    return cut + "…"


def details(differences: Differences | None, dealer: Seat) -> tuple[str, ...]:
    """The reader's differences from the judge in words, one line per seat and zone, in
    table seat order: "South's hand: one 3m more, one 5p fewer than the judge knows"."""
    groups: dict[tuple[Seat, str], list[tuple[str, int]]] = {}
    for (seat, zone, tile), n in (differences or {}).items():
        if n:
            groups.setdefault((table_seat(seat, dealer), zone), []).append((str(tile), n))
    out = []
    for seat, zone in sorted(groups):
        parts = [
            f"{_count(abs(n))} {tile} {CALL_WORDS['more' if n > 0 else 'fewer']}"
            for tile, n in sorted(groups[(seat, zone)], key=lambda p: (-p[1], p[0]))
        ]
        out.append(f"{seat_name(seat.name)}'s {zone}: {', '.join(parts)} {CALL_WORDS['than']}")
    return tuple(out)


def _count(n: int) -> str:
    return COUNT_WORDS[n] if n < len(COUNT_WORDS) else str(n)
