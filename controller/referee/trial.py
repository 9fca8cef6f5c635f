"""What corrections would do, before they are written: the deal rebuilt from its journal
records plus the corrections about to be appended. The referee page (the daemon's referee
desk) and `mjtable correct` both refuse a correction after which the judge would refuse a
move it accepted before, naming that move and the judge's reason: nothing is written then.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from controller.errors import Refused
from controller.journal.payloads import table_seat
from controller.journal.records import Correction, Record, RecordKind, Source, Stamp
from controller.journal.store import Journal
from controller.referee.journal_deal import READ_KINDS, deal_from_records
from controller.referee.rebuild import Rebuilt, rebuild
from rules import moves as mv
from rules.seats import Seat


def trial(journal: Journal, deal: int, corrections: Sequence[Correction], stamp: Stamp) -> Rebuilt:
    """Deal `deal` rebuilt as if `corrections` were appended now (they are not)."""
    records = list(journal.deal_records(deal, READ_KINDS))
    if not records:
        raise Refused(f"no deal {deal} in this journal")
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
            f"after that the judge would refuse {say(r.move, after.source.dealer)} "
            f"(record {r.at}): {r.rejected.detail}"
        )
    notes = [n for n in after.notes if n not in before.notes]
    if notes:
        raise Refused(notes[0])
    return after


def say(move: mv.Move, dealer: Seat) -> str:
    """A judge move in a referee's words, fixed seats: "E draw 3p", "S pung"."""
    seat = getattr(move, "seat", None)
    tile = getattr(move, "tile", None)
    words = [str(table_seat(seat, dealer)) if isinstance(seat, Seat) else ""]
    words.append(type(move).__name__.lower())
    if tile is not None:
        words.append(str(tile))
    return " ".join(w for w in words if w)
