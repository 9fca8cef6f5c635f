"""One deal of a recognition campaign, cut out as a file the recogniser's regression tests
read again (tests/controller/recognition/test_campaign_deals.py, `campaign_deals/`).

The deal's reader steps and table bytes come from the campaign's journal (its `hw.batch`
records); the steps go through a fresh `Debouncer` of the campaign's reader profile exactly
as the daemon fed it (`replay_presence`'s rounds), the table bytes through the table driver.
Each round closed is written as `[t, ["+5p#2@N.river", "-5p#2@N.hand", ...]]` and each seat
button as `[t, ["!S.PUNG"]]`, in the order the daemon handled them, the times from the deal's
first input; beside them the deal's lines of the simulator's `truth.jsonl`.

    python -m tools.campaign.deal_file RUN_FOLDER DEAL OUT.json.gz [--about TEXT]

RUN_FOLDER holds `table.journal` and `truth.jsonl` (what `mjtable bench recognition --keep`
leaves); DEAL is the journal's deal number, which is the truth's (the campaign numbers both
from 1 and a restarted daemon resumes its deal).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Any

from controller.devices.events import SeatButton, TagsRead
from controller.devices.table import TableDriver
from controller.journal.inputs import ReaderStep, TableChunk, journal_inputs, round_time
from controller.journal.store import Journal
from controller.profiles import load_reader, load_table, sim_tag_map
from controller.recognition.presence import Debouncer, TileLifted, TilePlaced
from rules.ruleset import load

Entry = list[Any]  # [t, [change, ...]]


def _change(ev: TilePlaced | TileLifted) -> str:
    side = "" if ev.zone.seat is None else str(ev.zone.seat)
    sign = "+" if isinstance(ev, TilePlaced) else "-"
    return f"{sign}{ev.tile}#{ev.copy}@{side}.{ev.zone.kind.value}"


def deal_rounds(journal: Journal, deal: int, reader: str, table: str, rules: str) -> list[Entry]:
    """The deal's rounds and buttons as the daemon handled them (the module docstring)."""
    rs = load(rules)
    debouncer = Debouncer(load_reader(reader), sim_tag_map(rs.tiles.set), _no_clock)
    driver = TableDriver(load_table(table))
    out: list[Entry] = []
    t0: float | None = None
    reads_t: float | None = None
    for _, item in journal_inputs(journal.deal_records(deal)):
        t0 = item.t if t0 is None else t0
        if isinstance(item, TableChunk):
            buttons = [ev for ev in driver.feed(item.t, item.data) if isinstance(ev, SeatButton)]
            if buttons:
                out.append([round(item.t - t0, 6), [f"!{b.seat}.{b.button.name}" for b in buttons]])
            continue
        assert isinstance(item, ReaderStep)
        for ev in item.events:
            if isinstance(ev, TagsRead):
                debouncer.observe(ev)
                reads_t = ev.t
        if item.round_done:
            t = round_time(item.t, reads_t)
            changes = debouncer.end_round(t)
            reads_t = None
            moved = [_change(c) for c in changes if isinstance(c, TilePlaced | TileLifted)]
            out.append([round(t - t0, 6), moved])
    return out


def _no_clock() -> float:
    raise AssertionError("the debouncer asked for the time while being replayed")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tools.campaign.deal_file",
        description="Cut one deal of a recognition campaign out as a regression deal file "
        "(its settled tile changes and seat buttons beside the simulator's truth).",
    )
    ap.add_argument("folder", type=Path, help="the campaign's folder (table.journal, truth.jsonl)")
    ap.add_argument("deal", type=int, help="the deal's number (journal and truth)")
    ap.add_argument("out", type=Path, help="the file to write (.json.gz)")
    ap.add_argument("--about", default="", help="one line saying where the deal comes from")
    ap.add_argument("--reader", default="sim-uhf", help="the campaign's reader profile")
    ap.add_argument("--table", default="sim-table", help="the campaign's table profile")
    ap.add_argument("--rules", default="sbr-mil", help="the campaign's rule set")
    args = ap.parse_args(argv)
    truth_file = args.folder / "truth.jsonl"
    try:
        truth = [
            line
            for line in map(json.loads, truth_file.read_text().splitlines())
            if line.get("deal") == args.deal
        ]
        with Journal.open_readonly(args.folder / "table.journal") as journal:
            rounds = deal_rounds(journal, args.deal, args.reader, args.table, args.rules)
    except (OSError, ValueError) as err:
        print(f"deal_file: {err}", file=sys.stderr)
        return 1
    if not truth or not rounds:
        print(
            f"deal_file: deal {args.deal} is not in both the truth and the journal", file=sys.stderr
        )
        return 1
    doc = {"about": args.about, "truth": truth, "rounds": rounds}
    args.out.write_bytes(gzip.compress(json.dumps(doc, separators=(",", ":")).encode()))
    print(f"{args.out}: {len(rounds)} rounds, {len(truth)} truth lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
