"""A journalled deal as a deal record (docs/DEAL-RECORD.md), for re-scoring under another
rule set: `mjtable journal record J --deal N -o deal.json && mjtable judge --rules R deal.json`.

The record holds the moves the tools re-judged (corrections applied, refused moves left
out, a `close-claims` where the daemon's claim clock closed a window), the wall in physical
order, and the re-judged result. Its seats are deal seats (East = the dealer); the note says
which table seat each one is and which corrections were applied.
"""

from __future__ import annotations

from controller.referee.rebuild import Rebuilt
from rules.record import DealRecord, dumps, to_record
from rules.seats import SEATS


def deal_record(rb: Rebuilt) -> DealRecord:
    jd = rb.source
    names = tuple(jd.started.players[rb.fixed(s)] for s in SEATS)
    seats = ", ".join(f"{s}={rb.fixed(s)}" for s in SEATS)
    applied = [
        f"{c.correction.action} of record {c.correction.corrects} (record {c.record.seq}, "
        f"{c.correction.referee})"
        for c in jd.corrections
        if c.active and rb.corrected
    ]
    note = f"journal deal {jd.number}, session {jd.started.session}; deal seats {seats}"
    if applied:
        note += "; corrections applied: " + "; ".join(applied)
    if rb.refused:
        note += f"; {len(rb.refused)} journalled moves no longer fit and are left out"
    return to_record(rb.deal, names, note)


def deal_record_text(rb: Rebuilt) -> str:
    return dumps(deal_record(rb))
