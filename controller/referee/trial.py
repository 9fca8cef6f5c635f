"""What corrections would do, before they are written: the deal rebuilt from its journal
records plus the corrections about to be appended. The referee page (the daemon's referee
desk) and `mjtable correct` both refuse a correction after which the judge would refuse a
move it accepted before, naming that move and the judge's reason: nothing is written then.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from controller.errors import Refused
from controller.journal.payloads import judge_json, table_seat
from controller.journal.records import Correction, Record, RecordKind, Source, Stamp
from controller.journal.store import Journal
from controller.locale import Said, says
from controller.referee.journal_deal import READ_KINDS, deal_from_records
from controller.referee.rebuild import Rebuilt, rebuild
from controller.words import move_said as words_move_said, refusal_said
from rules import moves as mv
from rules.seats import Seat


def trial(journal: Journal, deal: int, corrections: Sequence[Correction], stamp: Stamp) -> Rebuilt:
    """Deal `deal` rebuilt as if `corrections` were appended now (they are not)."""
    records = list(journal.deal_records(deal, READ_KINDS))
    if not records:
        raise Refused(says("no deal {deal} in this journal", deal=deal))
    before = rebuild(deal_from_records(journal, records))
    last = max(r.seq for r in records)
    for i, c in enumerate(corrections, start=1):
        payload = json.dumps(c.to_payload(), sort_keys=True, separators=(",", ":"))
        records.append(
            Record(
                last + i,
                stamp.mono,
                stamp.wall,
                Source.REFEREE,
                RecordKind.CORRECTION,
                deal,
                payload,
                "",
                "",
            )
        )
    after = rebuild(deal_from_records(journal, records))
    new = [r for r in after.refused if r not in before.refused]
    if new:
        r = new[0]
        raise Refused(
            says(
                "after that the judge would refuse {move} (record {seq}): {why}",
                move=move_said(r.move, after.source.dealer),
                seq=r.at,
                why=refusal_said(r.rejected.reason.value, r.rejected.detail),
            )
        )
    notes = [n for n in after.notes if n not in before.notes]
    if notes:
        raise Refused(Said(notes[0]))
    return after


def move_said(move: mv.Move, dealer: Seat) -> Said:
    """A judge move as a sentence: its English as `say` writes it ("E draw 3p"), in another
    language as a referee says it (东 摸 三筒)."""
    data = judge_json(move)
    seat = getattr(move, "seat", None)
    if isinstance(seat, Seat):
        data["seat"] = table_seat(seat, dealer).name
    return replace(words_move_said(data), english=say(move, dealer))


def say(move: mv.Move, dealer: Seat) -> str:
    """A judge move in a referee's words, fixed seats: "E draw 3p", "S pung"."""
    seat = getattr(move, "seat", None)
    tile = getattr(move, "tile", None)
    words = [str(table_seat(seat, dealer)) if isinstance(seat, Seat) else ""]
    words.append(type(move).__name__.lower())
    if tile is not None:
        words.append(str(tile))
    return " ".join(w for w in words if w)
