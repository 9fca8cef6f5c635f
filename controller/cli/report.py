"""`mjtable report JOURNAL [--deal N] -o FILE.html`: a printable deal sheet (or, without
`--deal`, the whole journal: each session's score progression, a table of deals, then every
deal sheet). One HTML file with inline SVG and a print style sheet, no external assets
(controller/referee/report.py). Corrections are applied, and listed with who made them and when.
`--lang zh-CN` / `--lang ru`: the sheet's headings, labels and the ledger's rules in that
language (an unknown code is English, said in one log line).

The journal is opened read-only and never modified; the report is written beside the target
and renamed into place. Exit status: 0 fine; 1 the hash chain is broken (the report is still
written and says so in red); 2 not a journal, foreign, damaged, or no such deal.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from controller.journal.records import JournalError
from controller.locale import language, translator
from controller.referee.journal_deal import open_checked
from controller.referee.report import deal_report, session_report
from controller.referee.session import rebuild_all

EXIT_BROKEN = 1
EXIT_UNUSABLE = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal", metavar="JOURNAL", type=Path, help="journal file")
    parser.add_argument("--deal", type=int, help="one deal (default: every deal, by session)")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the HTML file")
    parser.add_argument(
        "--as-recorded", action="store_true", help="ignore the referee's corrections"
    )
    parser.add_argument(
        "--lang",
        metavar="CODE",
        help="the report's language: en, zh-CN or ru (default en)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        _refuse_journal_paths(args.journal, args.output)
        journal, finding = open_checked(args.journal)
        with journal:
            last = journal.last()
            deals = rebuild_all(journal, corrections=not args.as_recorded)
        last_hash = "" if last is None else last.hash
        tr = translator(language(args.lang))
        if args.deal is None:
            html = session_report(deals, str(args.journal), finding, last_hash, tr)
        else:
            chosen = next((d for d in deals if d.number == args.deal), None)
            if chosen is None:
                known = ", ".join(str(d.number) for d in deals) or "none"
                raise JournalError(f"{args.journal}: no deal {args.deal} (deals: {known})")
            html = deal_report(chosen, str(args.journal), finding, last_hash, tr)
        _write(args.output, html)
        what = (
            f"deal {args.deal}"
            if args.deal is not None
            else f"{len(deals)} deal{'s' if len(deals) != 1 else ''}"
        )
        corrected = "as recorded" if args.as_recorded else "corrections applied"
        print(f"wrote {args.output}: {what}, {corrected}")
    except JournalError as err:
        print(f"mjtable report: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    except OSError as err:
        print(f"mjtable report: {args.output}: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    if finding is not None:
        print(
            f"mjtable report: warning: {args.journal}: chain broken at {finding}", file=sys.stderr
        )
        return EXIT_BROKEN
    return 0


def _refuse_journal_paths(journal: Path, output: Path) -> None:
    target = output.resolve()
    j = journal.resolve()
    if target in {j, Path(f"{j}-wal"), Path(f"{j}-shm")}:
        raise JournalError(f"{output}: refusing to write the report over the journal")
    if target.is_dir():
        raise JournalError(f"{output} is a folder: name the HTML file (-o {output}/report.html)")
    if not target.parent.is_dir():
        raise JournalError(f"{output}: there is no folder {target.parent}")


def _write(output: Path, text: str) -> None:
    target = output.resolve()
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # an ordinary file, not mkstemp's private 0600
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
