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
from controller.locale import N_, Said, said, says
from controller.words import alert_text_said, seat_said, tile_said, zone_said
from rules.moves import Move
from rules.seats import Seat

HEADLINE_MAX = 120  # characters: read at a glance
# an answer's `detail` the page says in its reader's language (it is a catalog message)
CALL_GONE = N_("That call was already answered; nothing was changed. The page shows the table now.")

CALL_WORDS = {
    "waiting": N_("The table waits for you."),
    "answered": N_("Answered: the call goes off once the table shows what the judge knows."),
    "more": N_("{count} {tile} more"),
    "fewer": N_("{count} {tile} fewer"),
    "than": N_("{seat}'s {zone}: {differences} than the judge knows"),
}
COUNT_WORDS = (N_("no"), N_("one"), N_("two"), N_("three"), N_("four"))


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
    details: tuple[Said, ...] = ()
    alert_seq: int = 0
    answered: bool = False
    answers: int = 0
    said_cause: Said | None = None  # `cause` as a sentence (else read from its words)
    # the moves an ambiguous reading fitted (kept while the call stands: a reading of the
    # same tiles refused meanwhile must not take its buttons away)
    fits: tuple[Move, ...] = ()
    # its candidates are the judge's and the reader's explanations, brought up to date as
    # the tiles and the judge change (not the dice asked, nor a deal overtaken)
    follows: bool = False

    @property
    def cause_said(self) -> Said:
        return self.said_cause or alert_text_said(self.cause)

    @property
    def name(self) -> str:
        return f"{self.alert_seq}.{self.answers}"

    @property
    def headline(self) -> str:
        return shorten(str(self.headline_said))

    @property
    def headline_said(self) -> Said:
        """The headline as a sentence said in the page's language (the page shortens it)."""
        for c in self.candidates:
            if str(c.headline):
                return said(c.headline)
        return self.cause_said

    @property
    def status(self) -> Said:
        return Said(CALL_WORDS["answered" if self.answered else "waiting"])

    def updated(
        self, offered: tuple[Candidate, ...], details: tuple[Said, ...], answered: bool
    ) -> RefereeCall:
        """The same call with its candidates and details brought up to date (its headline
        follows them); `answered`: after an answer taken (the call's name changes with it)."""
        return replace(
            self,
            candidates=offered,
            details=details,
            answered=self.answered or answered,
            answers=self.answers + int(answered),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.name,
            "kind": self.kind,
            "headline": self.headline,
            "status": str(self.status),
            "answered": self.answered,
            "candidates": [c.to_json() for c in self.candidates],
            "details": [str(d) for d in self.details],
            "cause": self.cause,
            # the same in the words of the page's language (controller/web/board.js MJ.say)
            "words": {
                "headline": self.headline_said.to_json(),
                "status": self.status.to_json(),
                "candidates": [c.words_json() for c in self.candidates],
                "details": [d.to_json() for d in self.details],
                "cause": self.cause_said.to_json(),
            },
        }


def shorten(text: str, limit: int = HEADLINE_MAX) -> str:
    """`text` cut at a word to at most `limit` characters (an ellipsis shows the cut)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:—- ")
    return cut + "…"


def details(differences: Differences | None, dealer: Seat) -> tuple[Said, ...]:
    """The reader's differences from the judge in words, one line per seat and zone, in
    table seat order: "South's hand: one 3m more, one 5p fewer than the judge knows"."""
    groups: dict[tuple[Seat, str], list[tuple[str, int]]] = {}
    for (seat, zone, tile), n in (differences or {}).items():
        if n:
            groups.setdefault((table_seat(seat, dealer), zone), []).append((str(tile), n))
    out = []
    for seat, zone in sorted(groups):
        parts = [
            says(
                CALL_WORDS["more" if n > 0 else "fewer"], count=_count(abs(n)), tile=tile_said(tile)
            )
            for tile, n in sorted(groups[(seat, zone)], key=lambda p: (-p[1], p[0]))
        ]
        listed = parts[0]
        for part in parts[1:]:
            listed = says("{first}, {second}", first=listed, second=part)
        out.append(
            says(
                CALL_WORDS["than"],
                seat=seat_said(seat.name),
                zone=zone_said(zone),
                differences=listed,
            )
        )
    return tuple(out)


def _count(n: int) -> Said | str:
    return Said(COUNT_WORDS[n]) if n < len(COUNT_WORDS) else str(n)
