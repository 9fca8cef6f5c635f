"""What a journal record holds: record kinds, sources, canonical JSON, the chain hash, and the
typed payloads of the records the referee tools compute from (docs/JOURNAL.md is the spec).

Nothing here touches SQLite; `controller.journal.store` stores these.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeAlias

from rules.errors import TableError
from rules.seats import Seat
from rules.tiles import Tile

JSON: TypeAlias = Any  # a value json.dumps accepts: dict/list/str/int/float/bool/None

GENESIS_HASH = "0" * 64  # the "previous hash" of record 1


class JournalError(TableError):
    """The journal cannot be used: not a journal, foreign, damaged, or a refused append."""


class Source(StrEnum):
    """Who produced a record."""

    READER = "reader"  # the RFID tile reader's driver
    TABLE = "table"  # the table controller board's driver
    RECOGNISER = "recogniser"  # zone presence / buttons turned into moves
    JUDGE = "judge"  # the rules engine's decisions
    REFEREE = "referee"  # a person, through the CLI or the referee view
    DAEMON = "daemon"  # the daemon itself: sessions, phases, start/stop
    TOOL = "tool"  # offline tools and tests


class RecordKind(StrEnum):
    """Every kind of record; the payload of each is specified in docs/JOURNAL.md."""

    HW_FRAME = "hw.frame"
    HW_LINK = "hw.link"
    HW_ERROR = "hw.error"
    HW_BATCH = "hw.batch"  # device input, batched and coded (controller/journal/inputs.py)
    TABLE_PHASE = "table.phase"
    DAEMON_STARTED = "daemon.started"
    DAEMON_STOPPED = "daemon.stopped"
    SESSION_STARTED = "session.started"
    SESSION_ENDED = "session.ended"
    DEAL_STARTED = "deal.started"
    MOVE_ACCEPTED = "move.accepted"
    MOVE_REJECTED = "move.rejected"
    CLAIM_WINDOW = "claim.window"
    ALERT = "alert"
    DEAL_SETTLED = "deal.settled"
    CORRECTION = "correction"


# Keys every payload of a kind must carry (more keys are allowed and kept).
REQUIRED_KEYS: Mapping[RecordKind, frozenset[str]] = {
    RecordKind.HW_FRAME: frozenset({"device", "hex"}),
    RecordKind.HW_LINK: frozenset({"device", "state"}),
    RecordKind.HW_ERROR: frozenset({"device", "reason"}),
    RecordKind.HW_BATCH: frozenset({"codec", "key", "data"}),
    RecordKind.TABLE_PHASE: frozenset({"from", "to", "trigger"}),
    RecordKind.DAEMON_STARTED: frozenset({"version"}),
    RecordKind.DAEMON_STOPPED: frozenset({"reason"}),
    RecordKind.SESSION_STARTED: frozenset({"session", "rules"}),
    RecordKind.SESSION_ENDED: frozenset({"session", "reason"}),
    RecordKind.DEAL_STARTED: frozenset({"deal", "rules", "dealer", "dice", "players"}),
    RecordKind.MOVE_ACCEPTED: frozenset({"seat", "move"}),
    RecordKind.MOVE_REJECTED: frozenset({"seat", "move", "reason"}),
    RecordKind.CLAIM_WINDOW: frozenset({"state", "discarder", "tile"}),
    RecordKind.ALERT: frozenset({"code", "message"}),
    RecordKind.DEAL_SETTLED: frozenset({"deal", "winners", "deltas", "ledger", "end"}),
    RecordKind.CORRECTION: frozenset({"corrects", "referee", "action", "reason"}),
}

# Kinds that always belong to a deal: the record's `deal` must name a started deal.
DEAL_KINDS = frozenset(
    {
        RecordKind.DEAL_STARTED,
        RecordKind.MOVE_ACCEPTED,
        RecordKind.MOVE_REJECTED,
        RecordKind.CLAIM_WINDOW,
        RecordKind.DEAL_SETTLED,
    }
)


@dataclass(frozen=True, slots=True)
class Stamp:
    """When a record happened: monotonic seconds (event time) and ISO 8601 wall time."""

    mono: float
    wall: str

    def __post_init__(self) -> None:
        if isinstance(self.mono, bool) or not isinstance(self.mono, int | float):
            raise ValueError(f"monotonic time must be a number, not {self.mono!r}")
        if not math.isfinite(self.mono):
            raise ValueError(f"monotonic time must be finite, not {self.mono!r}")
        try:
            moment = datetime.fromisoformat(self.wall)
        except (TypeError, ValueError):
            raise ValueError(f"wall time must be ISO 8601, not {self.wall!r}") from None
        if moment.tzinfo is None:
            raise ValueError(f"wall time needs a UTC offset: {self.wall!r}")


def canonical_json(value: JSON) -> str:
    """Sorted keys, no spaces, UTF-8 text, no NaN/Infinity: one text per value."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def chain_hash(
    prev_hash: str,
    seq: int,
    mono: float,
    wall: str,
    source: str,
    kind: str,
    deal: int | None,
    payload: str,
) -> str:
    """SHA-256 (hex) over the previous record's hash, a newline, and this record's canonical
    content `{"deal","kind","mono","payload","seq","source","wall"}` (payload as JSON value)."""
    content = canonical_json(
        {
            "deal": deal,
            "kind": kind,
            "mono": float(mono),
            "payload": json.loads(payload),
            "seq": seq,
            "source": source,
            "wall": wall,
        }
    )
    return hashlib.sha256(f"{prev_hash}\n{content}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Record:
    """One committed journal record. `payload` is the canonical JSON text; `data()` parses it."""

    seq: int
    mono: float
    wall: str
    source: Source
    kind: RecordKind
    deal: int | None
    payload: str
    prev_hash: str
    hash: str

    def data(self) -> dict[str, JSON]:
        return json.loads(self.payload)

    def to_json(self) -> dict[str, JSON]:
        """Every field, the payload as a JSON value (one line of `mjtable journal export`)."""
        return {
            "seq": self.seq,
            "mono": self.mono,
            "wall": self.wall,
            "source": str(self.source),
            "kind": str(self.kind),
            "deal": self.deal,
            "payload": self.data(),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


def check_payload(kind: RecordKind, payload: Mapping[str, JSON]) -> str:
    """The canonical text of a payload, after checking the keys its kind requires."""
    if not isinstance(payload, Mapping):
        raise ValueError(f"{kind} payload must be a JSON object, not {type(payload).__name__}")
    missing = REQUIRED_KEYS[kind] - payload.keys()
    if missing:
        raise ValueError(f"{kind} payload lacks {', '.join(sorted(missing))}")
    try:
        return canonical_json(dict(payload))
    except (TypeError, ValueError) as err:
        raise ValueError(f"{kind} payload is not JSON: {err}") from None


# --- typed payloads -------------------------------------------------------------------------


def _seat(value: JSON, what: str) -> Seat:
    if not isinstance(value, str):
        raise ValueError(f"{what}: a seat letter E S W N, not {value!r}")
    return Seat.parse(value)


def _int(value: JSON, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what}: an integer, not {value!r}")
    return value


def _str_tuple(value: JSON, what: str, length: int | None = None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what}: a list of strings, not {value!r}")
    if length is not None and len(value) != length:
        raise ValueError(f"{what}: {length} entries, not {len(value)}")
    return tuple(value)


@dataclass(frozen=True, slots=True)
class DealStarted:
    """Payload of `deal.started`: written once the dice are known, before the first draw."""

    deal: int  # journal-wide deal number, 1, 2, ...
    rules: str  # rule-set name, e.g. "sbr-mil"
    dealer: Seat  # East of this deal (RULES.md: East = dealer)
    dice: tuple[int, int]
    players: tuple[str, str, str, str]  # names at E, S, W, N
    session: int | None = None
    wall: tuple[Tile, ...] | None = None  # tiles in drawing order, when the wall was scanned
    prevalent: Seat = Seat.E  # the round wind (Wellness scores it, 001 II 3); absent: East

    def __post_init__(self) -> None:
        if self.deal < 1:
            raise ValueError(f"deal numbers start at 1, not {self.deal}")
        if len(self.dice) != 2 or not all(1 <= d <= 6 for d in self.dice):
            raise ValueError(f"two dice of 1-6, not {self.dice}")
        if len(self.players) != 4:
            raise ValueError(f"four players (E S W N), not {len(self.players)}")

    def to_payload(self) -> dict[str, JSON]:
        return {
            "deal": self.deal,
            "rules": self.rules,
            "dealer": self.dealer.name,
            "dice": list(self.dice),
            "players": list(self.players),
            "session": self.session,
            "wall": None if self.wall is None else [str(t) for t in self.wall],
            "prevalent": self.prevalent.name,
        }

    @classmethod
    def from_payload(cls, data: Mapping[str, JSON]) -> DealStarted:
        dice = data["dice"]
        if not isinstance(dice, list) or len(dice) != 2:
            raise ValueError(f"dice: two numbers, not {dice!r}")
        wall = data.get("wall")
        session = data.get("session")
        return cls(
            deal=_int(data["deal"], "deal"),
            rules=str(data["rules"]),
            dealer=_seat(data["dealer"], "dealer"),
            dice=(_int(dice[0], "dice"), _int(dice[1], "dice")),
            players=_str_tuple(data["players"], "players", 4),  # type: ignore[arg-type]  # four, checked
            session=None if session is None else _int(session, "session"),
            wall=None if wall is None else tuple(Tile.parse(t) for t in _str_tuple(wall, "wall")),
            prevalent=_seat(data.get("prevalent", "E"), "prevalent"),
        )


class DealEnd(StrEnum):
    """Why a deal ended (RULES.md "Blood battle")."""

    THREE_WON = "three-won"
    WALL_EXHAUSTED = "wall-exhausted"
    TIME_UP = "time-up"
    REFEREE = "referee"  # force-ended by a correction


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One payment of a settlement: `payer` pays `points` to `payee`. A penalty paid to
    nobody (the 48-point void penalty) has payee None; the rule names the pattern or table."""

    payer: Seat | None
    payee: Seat | None
    points: int
    rule: str

    def __post_init__(self) -> None:
        if self.payer is None and self.payee is None:
            raise ValueError("a ledger line needs a payer or a payee")
        if self.payer is not None and self.payer == self.payee:
            raise ValueError(f"{self.payer} cannot pay itself")

    def to_payload(self) -> dict[str, JSON]:
        return {
            "payer": None if self.payer is None else self.payer.name,
            "payee": None if self.payee is None else self.payee.name,
            "points": self.points,
            "rule": self.rule,
        }

    @classmethod
    def from_payload(cls, data: Mapping[str, JSON]) -> LedgerLine:
        payer, payee = data.get("payer"), data.get("payee")
        return cls(
            payer=None if payer is None else _seat(payer, "payer"),
            payee=None if payee is None else _seat(payee, "payee"),
            points=_int(data["points"], "points"),
            rule=str(data["rule"]),
        )


def ledger_deltas(ledger: Sequence[LedgerLine]) -> tuple[int, int, int, int]:
    deltas = [0, 0, 0, 0]
    for line in ledger:
        if line.payer is not None:
            deltas[line.payer] -= line.points
        if line.payee is not None:
            deltas[line.payee] += line.points
    return (deltas[0], deltas[1], deltas[2], deltas[3])


@dataclass(frozen=True, slots=True)
class DealSettled:
    """Payload of `deal.settled`: winners in the order they declared Hu, score changes by seat
    E S W N, and the ledger those changes add up from (an empty ledger skips the check);
    `false_hu`: the winners whose Hu was false (they paid; they did not win)."""

    deal: int
    winners: tuple[Seat, ...]
    deltas: tuple[int, int, int, int]
    ledger: tuple[LedgerLine, ...]
    end: DealEnd
    false_hu: tuple[Seat, ...] = ()

    @property
    def won(self) -> tuple[Seat, ...]:
        """The winners whose Hu was true, in the order they declared it."""
        return tuple(s for s in self.winners if s not in self.false_hu)

    def __post_init__(self) -> None:
        if len(set(self.winners)) != len(self.winners) or len(self.winners) > 3:
            raise ValueError(f"winners must be at most three distinct seats: {self.winners}")
        if not set(self.false_hu) <= set(self.winners):
            raise ValueError(f"a false Hu {self.false_hu} not among the winners {self.winners}")
        if len(self.deltas) != 4:
            raise ValueError(f"deltas are four numbers E S W N, not {self.deltas}")
        if self.ledger and ledger_deltas(self.ledger) != tuple(self.deltas):
            raise ValueError(
                f"deltas {list(self.deltas)} differ from the ledger's {list(ledger_deltas(self.ledger))}"
            )

    def to_payload(self) -> dict[str, JSON]:
        return {
            "deal": self.deal,
            "winners": [s.name for s in self.winners],
            "deltas": list(self.deltas),
            "ledger": [line.to_payload() for line in self.ledger],
            "end": str(self.end),
            **({"false_hu": [s.name for s in self.false_hu]} if self.false_hu else {}),
        }

    @classmethod
    def from_payload(cls, data: Mapping[str, JSON]) -> DealSettled:
        deltas = data["deltas"]
        if not isinstance(deltas, list) or len(deltas) != 4:
            raise ValueError(f"deltas: four numbers, not {deltas!r}")
        winners = data["winners"]
        ledger = data["ledger"]
        false_hu = data.get("false_hu", [])  # absent from journals written before it
        if not isinstance(winners, list) or not isinstance(ledger, list):
            raise ValueError("winners and ledger must be lists")
        if not isinstance(false_hu, list):
            raise ValueError("false_hu must be a list")
        return cls(
            deal=_int(data["deal"], "deal"),
            winners=tuple(_seat(w, "winner") for w in winners),
            deltas=(
                _int(deltas[0], "deltas"),
                _int(deltas[1], "deltas"),
                _int(deltas[2], "deltas"),
                _int(deltas[3], "deltas"),
            ),
            ledger=tuple(LedgerLine.from_payload(line) for line in ledger),
            end=DealEnd(data["end"]),
            false_hu=tuple(_seat(w, "false Hu") for w in false_hu),
        )


class CorrectionAction(StrEnum):
    """What a referee's correction does (issue 7 item 3)."""

    CANCEL_MOVE = "cancel-move"  # the corrected move did not happen
    FIX_TILE = "fix-tile"  # a misread tile: details {"tile": "5p"} is what it really was
    PENALTY = "penalty"  # details {"seat": "S", "points": 8}
    YELLOW_CARD = "yellow-card"  # details {"seat": "S"}
    FORCE_END = "force-end"  # the deal ends here
    WITHDRAW = "withdraw"  # an earlier correction is withdrawn
    NOTE = "note"  # a remark on the record, nothing changes
    # the corrected record is a move the referee entered by hand (the reader missed it);
    # withdrawn, the move no longer counts
    ENTER_MOVE = "enter-move"
    # on a `deal.started`: the dealt hands showed the dealer at another side than the
    # daemon expected (details {"dealer": "N"}, a fixed seat); every reader takes that side
    DEALER = "dealer"


@dataclass(frozen=True, slots=True)
class Correction:
    """Payload of `correction`: which record it corrects (by seq), who and why. The original
    record stays untouched; replay, settlement and reports apply corrections."""

    corrects: int
    referee: str
    action: CorrectionAction
    reason: str
    details: Mapping[str, JSON] | None = None

    def __post_init__(self) -> None:
        if self.corrects < 1:
            raise ValueError(f"a correction names a record seq >= 1, not {self.corrects}")
        if not self.referee.strip():
            raise ValueError("a correction names the referee who made it")
        if not self.reason.strip():
            raise ValueError("a correction says why")

    def dealer_side(self) -> Seat | None:
        """The dealer side a `dealer` correction names (None for other actions, and for one
        that names no side: `mjtable correct dealer` once wrote such records, and "None"
        read as a seat is North)."""
        if self.action is not CorrectionAction.DEALER:
            return None
        side = (self.details or {}).get("dealer")
        if not isinstance(side, str) or side not in Seat.__members__:
            return None
        return Seat[side]

    def to_payload(self) -> dict[str, JSON]:
        return {
            "corrects": self.corrects,
            "referee": self.referee,
            "action": str(self.action),
            "reason": self.reason,
            "details": None if self.details is None else dict(self.details),
        }

    @classmethod
    def from_payload(cls, data: Mapping[str, JSON]) -> Correction:
        details = data.get("details")
        if details is not None and not isinstance(details, dict):
            raise ValueError(f"details: an object, not {details!r}")
        return cls(
            corrects=_int(data["corrects"], "corrects"),
            referee=str(data["referee"]),
            action=CorrectionAction(data["action"]),
            reason=str(data["reason"]),
            details=details,
        )
