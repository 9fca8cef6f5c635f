"""A deal as the journal holds it: its `deal.started`, the steps a referee looks at (moves,
refusals, claim windows, alerts, corrections, the settlement) and the corrections that apply.

`read_deal(journal, n)` reads one deal; `read_session(journal)` every deal in journal order.
Seats here are the table's *fixed* seats E S W N (docs/JOURNAL.md; the dealer of the deal is
`started.dealer`); the judge's own moves, in deal seats, are under each move's `judge` key
(controller/journal/payloads.py) and are what `controller.referee.rebuild` re-judges.

A payload the tools cannot read (a foreign or hand-edited journal whose chain still holds)
raises `JournalError` naming the record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from controller.journal.payloads import move_from_judge_json
from controller.journal.records import (
    Correction,
    CorrectionAction,
    DealSettled,
    DealStarted,
    JournalError,
    Record,
    RecordKind,
)
from controller.journal.store import Journal
from controller.journal.verify import Finding
from controller.locale import ENGLISH, N_, Language, Said, Translator, says
from controller.words import (
    CLAIMS,
    CLOSED_BY,
    SETTLED_ENDS,
    move_said,
    record_said,
    seat_said,
    tile_said,
)
from rules.moves import Move
from rules.ruleset import RuleSet, UnknownRuleSet, load
from rules.schema import SchemaError
from rules.seats import Seat

# the records a referee steps through (raw frames and phase changes are left out)
STEP_KINDS = frozenset(
    {
        RecordKind.MOVE_ACCEPTED,
        RecordKind.MOVE_REJECTED,
        RecordKind.CLAIM_WINDOW,
        RecordKind.ALERT,
        RecordKind.CORRECTION,
        RecordKind.DEAL_SETTLED,
    }
)


class Verdict(StrEnum):
    """What the judge (or the referee) said about a step."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"
    WINDOW = "window"
    ALERT = "alert"
    CORRECTION = "correction"
    SETTLED = "settled"


@dataclass(frozen=True, slots=True)
class Step:
    """One journal record of a deal, read for a referee. `number` counts the deal's steps
    from 1 (`mjtable replay --move K` shows the deal after step K; 0 is the dealt deal)."""

    number: int
    record: Record
    verdict: Verdict
    seat: Seat | None  # fixed seat, when the record names one
    text: str  # "discard 5p", "claim window opened on 8s (E)", ...
    evidence: tuple[str, ...]  # where the reading came from (antenna, button)
    reason: str = ""  # a refusal's reason and detail, an alert's code
    judge_move: Move | None = None  # the judge's move (deal seats) of an accepted move
    # `text` as a sentence said in the reader's language (its English: `text` itself)
    words: Said | None = None
    # `evidence` as sentences (journalled as `evidence_words`; none in an older journal)
    evidence_words: tuple[Said, ...] = ()

    def said(self, tr: Translator = ENGLISH) -> str:
        """The step's text in `tr`'s language."""
        return self.text if self.words is None else self.words.say(tr)

    def evidence_said(self, tr: Translator = ENGLISH) -> tuple[str, ...]:
        """The evidence in `tr`'s language: its sentences said; in English, and from a journal
        written before evidence was journalled as sentences, as journalled."""
        if tr.language is Language.EN or len(self.evidence_words) != len(self.evidence):
            return self.evidence
        return tuple(e.say(tr) for e in self.evidence_words)

    @property
    def seq(self) -> int:
        return self.record.seq


@dataclass(frozen=True, slots=True)
class AppliedCorrection:
    """A correction record and whether it still applies (a later `withdraw` cancels it)."""

    record: Record
    correction: Correction
    withdrawn_by: int | None = None  # seq of the withdrawing correction

    @property
    def active(self) -> bool:
        return self.withdrawn_by is None and self.correction.action is not CorrectionAction.WITHDRAW


@dataclass(frozen=True, slots=True)
class JournalDeal:
    started: DealStarted
    started_record: Record
    rules: RuleSet
    steps: tuple[Step, ...]
    corrections: tuple[AppliedCorrection, ...]
    settled: DealSettled | None  # as journalled (before the tools apply corrections)
    settled_extra: Mapping[str, Any]  # the rest of the settled payload (next_dealer, ...)

    @property
    def number(self) -> int:
        return self.started.deal

    @property
    def dealer(self) -> Seat:
        return self.started.dealer

    def step_at(self, seq: int) -> Step | None:
        return next((s for s in self.steps if s.seq == seq), None)


def rule_set(name: str, where: str) -> RuleSet:
    try:
        return load(name)
    except (UnknownRuleSet, SchemaError, OSError) as err:
        raise JournalError(f"{where}: rule set {name!r}: {err}") from None


# what a deal is rebuilt from: its start and the steps (raw frames and phases are not read)
READ_KINDS = (RecordKind.DEAL_STARTED, *STEP_KINDS)


def read_deal(journal: Journal, number: int) -> JournalDeal:
    records = list(journal.deal_records(number, READ_KINDS))
    if not records:
        known = ", ".join(str(n) for n in journal.deals()) or "none"
        raise JournalError(f"{journal.path}: no deal {number} in this journal (deals: {known})")
    return _build(journal, records)


def deal_from_records(journal: Journal, records: list[Record]) -> JournalDeal:
    """A deal from its records as `read_deal` reads them (the daemon adds the corrections
    it is about to append, to see what they would do before it writes them)."""
    return _build(journal, records)


def read_session(journal: Journal) -> list[JournalDeal]:
    return [read_deal(journal, n) for n in journal.deals()]


def _build(journal: Journal, records: list[Record]) -> JournalDeal:
    first = records[0]
    if first.kind is not RecordKind.DEAL_STARTED:
        raise JournalError(f"{journal.path}: record {first.seq}: deal {first.deal} has no start")
    try:
        started = DealStarted.from_payload(first.data())
    except (KeyError, ValueError, TypeError) as err:
        raise JournalError(f"{journal.path}: record {first.seq} (deal.started): {err}") from None
    rs = rule_set(started.rules, f"{journal.path}: record {first.seq}")
    steps: list[Step] = []
    settled, extra = None, {}
    for rec in records[1:]:
        if rec.kind not in STEP_KINDS:
            continue
        try:
            step = _step(len(steps) + 1, rec)
            if rec.kind is RecordKind.DEAL_SETTLED:
                data = rec.data()
                settled = DealSettled.from_payload(data)
                extra = {k: v for k, v in data.items() if k not in ("deltas", "ledger")}
        except (KeyError, ValueError, TypeError) as err:
            raise JournalError(f"{journal.path}: record {rec.seq} ({rec.kind}): {err}") from None
        steps.append(step)
    corrections = _corrections(steps)
    for c in corrections:
        side = c.correction.dealer_side()
        if side is not None:  # the dealt hands showed the dealer at another side
            started = replace(started, dealer=side)
    return JournalDeal(started, first, rs, tuple(steps), corrections, settled, extra)


def _corrections(steps: Iterable[Step]) -> tuple[AppliedCorrection, ...]:
    found = [
        (s.record, Correction.from_payload(s.record.data()))
        for s in steps
        if s.verdict is Verdict.CORRECTION
    ]
    withdrawn = {c.corrects: r.seq for r, c in found if c.action is CorrectionAction.WITHDRAW}
    return tuple(AppliedCorrection(r, c, withdrawn.get(r.seq)) for r, c in found)


def _seat(value: Any) -> Seat | None:
    return None if value is None else Seat.parse(value)


def _evidence(data: Mapping[str, Any]) -> tuple[str, ...]:
    ev = data.get("evidence") or ()
    if isinstance(ev, Mapping):  # docs/JOURNAL.md form {"zone": ..., "antenna": ...}
        return (", ".join(f"{k} {v}" for k, v in ev.items()),)
    if isinstance(ev, str):
        return (ev,)
    return tuple(
        str(e) if not isinstance(e, Mapping) else _evidence({"evidence": e})[0] for e in ev
    )


def _evidence_words(data: Mapping[str, Any]) -> tuple[Said, ...]:
    """The evidence's sentences, their English the evidence as journalled."""
    words, english = data.get("evidence_words"), _evidence(data)
    if not isinstance(words, list) or len(words) != len(english):
        return ()
    if not all(isinstance(w, Mapping) for w in words):
        return ()
    return tuple(replace(Said.from_json(w), english=e) for w, e in zip(words, english, strict=True))


def _move_text(data: Mapping[str, Any]) -> str:
    parts = [str(data["move"])]
    if data.get("suit") and data["move"] == "void":
        parts.append(f"suit {data['suit']}")
    if data.get("tile"):
        parts.append(str(data["tile"]))
    if data.get("from_seat"):
        parts.append(f"from {data['from_seat']}")
    if data.get("self_drawn"):
        parts.append("(self-drawn)")
    if data.get("robbing"):
        parts.append("(robbing the kong)")
    return " ".join(parts)


def _step(number: int, rec: Record) -> Step:
    step = _read_step(number, rec)
    return replace(step, words=replace(step_said(rec.kind, rec.data()), english=step.text))


def step_said(kind: RecordKind, data: Mapping[str, Any]) -> Said:
    """A step's text as a sentence: a move without its seat (a column of its own), a claim
    window, an alert, a correction, the settlement."""
    if kind in (RecordKind.MOVE_ACCEPTED, RecordKind.MOVE_REJECTED):
        return move_said({k: v for k, v in data.items() if k != "seat"})
    if kind is RecordKind.CLAIM_WINDOW:
        return _window_said(data)
    if kind is RecordKind.ALERT:
        severity = str(data.get("severity") or "alert")
        message = Said.from_json(data["words"]) if data.get("words") else None
        if message is None:  # journalled before alerts carried their sentence: read back
            from controller.recognised_words import recognised_said

            message = recognised_said(str(data.get("message", "")))
        return says(
            "{severity}: {message}",
            severity=Said(SEVERITIES.get(severity, severity)),
            message=message,
        )
    if kind is RecordKind.CORRECTION:
        return record_said(kind.value, data)
    settled = DealSettled.from_payload(data)
    return says(
        "settled ({end}): {deltas}",
        end=Said(SETTLED_ENDS.get(str(settled.end), str(settled.end))),
        deltas=" ".join(f"{d:+d}" for d in settled.deltas),
    )


SEVERITIES = {"info": N_("info"), "warning": N_("warning"), "error": N_("error")}
# a claim window's step, one sentence for each kind and state (a Russian window agrees
# with its noun: заявки открыты, окно открыто)
_WINDOWS = {
    ("discard", "open"): N_("claim window open on {tile} (discard by {seat})"),
    ("discard", "open-deadline"): N_("claim window open on {tile} (discard by {seat}), {s} s"),
    ("discard", "closed"): N_(
        "claim window closed on {tile} (discard by {seat}): {claims}; closed by {by}"
    ),
    ("robbing", "open"): N_("robbing window open on {tile} (kong by {seat})"),
    ("robbing", "open-deadline"): N_("robbing window open on {tile} (kong by {seat}), {s} s"),
    ("robbing", "closed"): N_(
        "robbing window closed on {tile} (kong by {seat}): {claims}; closed by {by}"
    ),
}


def _window_said(data: Mapping[str, Any]) -> Said:
    kind = "robbing" if data.get("kind") == "robbing" else "discard"
    tile, seat = tile_said(str(data.get("tile"))), seat_said(str(data.get("discarder")))
    if data.get("state") == "closed":
        claims = data.get("claims") or {}
        said = [
            says("{seat} {claim}", seat=seat_said(s), claim=Said(CLAIMS.get(c, c)))
            for s, c in claims.items()
        ]
        listed: Said = said[0] if said else Said("no claim")
        for more in said[1:]:
            listed = says("{first}, {second}", first=listed, second=more)
        by = str(data.get("closed_by", "?"))
        closed = Said(CLOSED_BY.get(by, by.replace("-", " ")))
        return says(_WINDOWS[kind, "closed"], tile=tile, seat=seat, claims=listed, by=closed)
    if data.get("deadline") is not None:
        return says(_WINDOWS[kind, "open-deadline"], tile=tile, seat=seat, s=str(data["deadline"]))
    return says(_WINDOWS[kind, "open"], tile=tile, seat=seat)


def _read_step(number: int, rec: Record) -> Step:
    data = rec.data()
    kind = rec.kind
    if kind is RecordKind.MOVE_ACCEPTED:
        move = move_from_judge_json(data["judge"]) if "judge" in data else None
        return Step(
            number,
            rec,
            Verdict.ACCEPTED,
            _seat(data.get("seat")),
            _move_text(data),
            _evidence(data),
            judge_move=move,
            evidence_words=_evidence_words(data),
        )
    if kind is RecordKind.MOVE_REJECTED:
        reason = str(data["reason"])
        if data.get("detail"):
            reason += f": {data['detail']}"
        return Step(
            number,
            rec,
            Verdict.REJECTED,
            _seat(data.get("seat")),
            _move_text(data),
            _evidence(data),
            reason,
            evidence_words=_evidence_words(data),
        )
    if kind is RecordKind.CLAIM_WINDOW:
        what = "robbing window" if data.get("kind") == "robbing" else "claim window"
        text = f"{what} {data['state']} on {data['tile']} (discard by {data['discarder']})"
        if data["state"] == "closed":
            claims = data.get("claims") or {}
            said = ", ".join(f"{s} {c}" for s, c in claims.items()) or "no claim"
            text += f": {said}; closed by {data.get('closed_by', '?')}"
        elif data.get("deadline") is not None:
            text += f", {data['deadline']} s"
        return Step(number, rec, Verdict.WINDOW, _seat(data["discarder"]), text, ())
    if kind is RecordKind.ALERT:
        sev = data.get("severity") or "alert"
        return Step(
            number,
            rec,
            Verdict.ALERT,
            _seat(data.get("seat")),
            f"{sev}: {data['message']}",
            _evidence(data),
            str(data["code"]),
            evidence_words=_evidence_words(data),
        )
    if kind is RecordKind.CORRECTION:
        c = Correction.from_payload(data)
        details = (
            ""
            if not c.details
            else " " + ", ".join(f"{k}={v}" for k, v in c.details.items() if k != "judge")
        )
        text = f"{c.action} of record {c.corrects} by {c.referee}: {c.reason}{details}"
        return Step(number, rec, Verdict.CORRECTION, None, text, ())
    s = DealSettled.from_payload(data)
    deltas = " ".join(f"{d:+d}" for d in s.deltas)
    return Step(number, rec, Verdict.SETTLED, None, f"settled ({s.end}): {deltas}", ())


def open_checked(path: Path) -> tuple[Journal, Finding | None]:
    """Open a journal read-only for a referee tool: a damaged or foreign file raises
    `JournalError`; a broken hash chain is returned as the finding (the tools still show
    the records, and say so)."""
    journal = Journal.open_readonly(path)
    try:
        damage = journal.integrity_problem()
        if damage is not None:
            raise JournalError(f"{path}: damaged journal ({damage})")
        check = journal.verify()
    except BaseException:
        journal.close()
        raise
    return journal, check.finding
