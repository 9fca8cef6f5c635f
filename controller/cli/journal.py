"""`mjtable journal verify|export|summary|record PATH`: referee tools over a deal journal.

Every action opens the journal read-only (`mode=ro`, `query_only`) and never modifies it.
Exit status: 0 fine; 1 the hash chain is broken (verify names the first bad record; export and
summary still write their output, with a warning); 2 not a journal, foreign or damaged, or
the output file cannot be written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from controller.journal.records import JournalError
from controller.journal.store import Journal
from controller.journal.summary import format_summary
from controller.journal.verify import Anchor, Finding, Verification
from controller.words import plural

EXIT_BROKEN = 1
EXIT_UNUSABLE = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("verify", help="check the hash chain; name the first bad record")
    p.add_argument("path", metavar="PATH", type=Path, help="journal file")
    p.add_argument(
        "--anchor",
        action="append",
        default=[],
        metavar="SEQ:HASH",
        help="a record's seq and hash kept elsewhere (a settled deal's chain head): "
        "the journal must hold it",
    )
    p.add_argument(
        "--anchors",
        type=Path,
        metavar="FILE",
        help="the chain heads the hub kept (`mjtable hub --heads FILE`), or SEQ:HASH lines",
    )
    p.add_argument("--table", help="with --anchors: this table's heads (the file names tables)")
    p = sub.add_parser("export", help="every record as one JSON object per line")
    p.add_argument("path", metavar="PATH", type=Path, help="journal file")
    p.add_argument("-o", "--output", type=Path, help="write to FILE instead of standard output")
    p = sub.add_parser(
        "summary", help="one line (or JSON object) per deal, corrections applied (marked *)"
    )
    p.add_argument("path", metavar="PATH", type=Path, help="journal file")
    p.add_argument("--json", action="store_true", help="one JSON object per deal, per line")
    p = sub.add_parser("record", help="a deal as a deal record (corrections applied)")
    p.add_argument("path", metavar="PATH", type=Path, help="journal file")
    p.add_argument("--deal", type=int, required=True, help="the deal number")
    p.add_argument("-o", "--output", type=Path, help="write to FILE instead of standard output")


def run(args: argparse.Namespace) -> int:
    try:
        with Journal.open_readonly(args.path) as journal:
            damage = journal.integrity_problem()
            if damage is not None:
                raise JournalError(f"{args.path}: damaged journal ({damage})")
            check = journal.verify()
            if args.action == "verify":
                anchors = _anchors(args)
                missing = journal.check_anchors(anchors, check.records) if check.ok else []
                return _verify(args.path, check, len(anchors), missing)
            if args.action == "export":
                _export(journal, args.path, args.output)
            elif args.action == "record":
                _record(journal, args.path, args.deal, args.output)
            else:
                _summary(journal, args.json)
    except JournalError as err:
        print(f"mjtable journal: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:
        raise  # the reader of our output has what it wanted (`| head`): a quiet exit
    except OSError as err:  # the output file (-o)
        target = getattr(args, "output", None) or err.filename or "standard output"
        print(f"mjtable journal: {target}: cannot write: {err.strerror or err}", file=sys.stderr)
        return EXIT_UNUSABLE
    if not check.ok:
        print(f"mjtable journal: warning: {args.path}: {check.finding}", file=sys.stderr)
        return EXIT_BROKEN
    return 0


def _verify(path: Path, check: Verification, anchors: int, missing: list[Finding]) -> int:
    if check.finding is not None:
        print(f"{path}: BROKEN at {check.finding}", file=sys.stderr)
        print(f"{path}: {check.records} records verified before it", file=sys.stderr)
        return EXIT_BROKEN
    if missing:
        for finding in missing:
            print(f"{path}: NOT AS ANCHORED: {finding}", file=sys.stderr)
        print(
            f"{path}: the chain of {check.records} records is intact, but "
            f"{len(missing)} of {anchors} anchors are not in it",
            file=sys.stderr,
        )
        return EXIT_BROKEN
    held = f", {anchors} anchors held" if anchors else ""
    print(
        f"{path}: ok, {check.records} records, {check.deals} deals{held}, "
        f"last hash {check.last_hash}"
    )
    return 0


def _anchors(args: argparse.Namespace) -> list[Anchor]:
    """`--anchor` values and the `--anchors` file's (JSON lines of the hub, or SEQ:HASH)."""
    try:
        anchors = [Anchor.parse(text) for text in args.anchor]
    except ValueError as err:
        raise JournalError(str(err)) from None
    if args.anchors is None:
        return anchors
    try:
        lines = args.anchors.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise JournalError(f"{args.anchors}: cannot read the anchors: {err}") from None
    tables: set[str] = set()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            if line.lstrip().startswith("{"):
                obj = json.loads(line)
                table = str(obj.get("table", ""))
                tables.add(table)
                if args.table is not None and table != args.table:
                    continue
                anchors.append(Anchor.parse(f"{obj['seq']}:{obj['hash']}"))
            else:
                anchors.append(Anchor.parse(line))
        except (ValueError, KeyError, TypeError, AttributeError) as err:
            raise JournalError(f"{args.anchors}: line {n}: not an anchor ({err})") from None
    if args.table is None and len(tables) > 1:
        raise JournalError(
            f"{args.anchors}: heads of several tables ({', '.join(sorted(tables))}): "
            "name one with --table"
        )
    if args.table is not None and args.table not in tables:
        raise JournalError(f"{args.anchors}: no heads of table {args.table!r}")
    return anchors


def _write_lines(journal: Journal, out: TextIO) -> int:
    lines = 0
    for record in journal.records():
        out.write(json.dumps(record.to_json(), ensure_ascii=False, sort_keys=True))
        out.write("\n")
        lines += 1
    return lines


def _export(journal: Journal, path: Path, output: Path | None) -> None:
    if output is None:
        _write_lines(journal, sys.stdout)
        return
    lines: list[int] = []
    _write_beside(path, output, "export", lambda out: lines.append(_write_lines(journal, out)))
    print(f"wrote {output}: {plural(lines[0], 'record')} of {path}")


def _write_beside(path: Path, output: Path, what: str, write: Callable[[TextIO], object]) -> None:
    """Write `output` beside its final name and rename it, so a failed write leaves no half
    file; never over the journal or its side files."""
    target = output.resolve()
    if target in {path.resolve(), *(Path(f"{path.resolve()}{x}") for x in ("-wal", "-shm"))}:
        raise JournalError(f"{output}: refusing to write the {what} over the journal")
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            write(out)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _summary(journal: Journal, as_json: bool) -> None:
    """Per-deal lines with each corrected deal re-judged (controller/referee/session.py)."""
    from controller.referee.session import with_corrections

    summaries = with_corrections(journal)
    if as_json:
        for s in summaries:
            print(json.dumps(s.to_json(), ensure_ascii=False, sort_keys=True))
    elif summaries:
        print(format_summary(summaries))
    else:
        print("no deals in this journal")


def _record(journal: Journal, path: Path, deal: int, output: Path | None) -> None:
    """`mjtable journal record`: the deal re-judged with corrections (controller/referee/export.py)."""
    from controller.referee.export import deal_record_text
    from controller.referee.journal_deal import read_deal
    from controller.referee.rebuild import rebuild

    rebuilt = rebuild(read_deal(journal, deal))
    text = deal_record_text(rebuilt)
    if output is None:
        sys.stdout.write(text)
        return
    _write_beside(path, output, "record", lambda out: out.write(text))
    print(f"wrote {output}: deal {deal} of {path}, {plural(len(rebuilt.entries), 'step')}")
