"""`mjtable replay JOURNAL [--deal N] [--move K]`: rebuild any moment of a journalled deal.

Interactive on a terminal: n, space or → forward; p or ← back; g then a number and Enter
goes to that step; Home/End (or 0 / $) to the start/end; q quits. With `--move K`, or when
standard output is not a terminal, the moment after step K (default: the last) is printed
once. `--lang zh-CN` / `--lang ru`: the moment said in that language (tiles in their codes;
an unknown code is English, said in one log line). Steps are the deal's journal records a referee looks at (moves, refusals, claim
windows, alerts, corrections, the settlement), numbered from 1; step 0 is the dealt deal.

The journal is opened read-only (docs/JOURNAL.md) and never modified. Exit status: 0 fine;
1 the hash chain is broken (the moment is still shown, with a warning); 2 not a journal,
foreign, damaged, or a deal that cannot be rebuilt.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import textwrap
from pathlib import Path

from controller.journal.records import JournalError
from controller.locale import ENGLISH, Translator, language, translator
from controller.referee.journal_deal import open_checked
from controller.referee.session import SessionDeal, rebuild_all
from controller.referee.text import render

EXIT_BROKEN = 1
EXIT_UNUSABLE = 2

CLEAR = "\x1b[H\x1b[2J"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal", metavar="JOURNAL", type=Path, help="journal file")
    parser.add_argument("--deal", type=int, help="deal number (default: the last deal)")
    parser.add_argument("--move", type=int, metavar="K", help="show the deal after step K")
    parser.add_argument(
        "--as-recorded",
        action="store_true",
        help="ignore the referee's corrections (show the deal as the daemon judged it)",
    )
    parser.add_argument(
        "--lang", metavar="CODE", help="the replay's language: en, zh-CN or ru (default en)"
    )


def run(args: argparse.Namespace) -> int:
    try:
        journal, finding = open_checked(args.journal)
        with journal:
            deals = rebuild_all(journal, corrections=not args.as_recorded)
    except JournalError as err:
        print(f"mjtable replay: {err}", file=sys.stderr)
        return EXIT_UNUSABLE
    if finding is not None:
        print(
            f"mjtable replay: warning: {args.journal}: chain broken at {finding}", file=sys.stderr
        )
    if not deals:
        print(f"mjtable replay: {args.journal}: no deals in this journal", file=sys.stderr)
        return EXIT_UNUSABLE
    chosen = _choose(deals, args.deal)
    if chosen is None:
        known = ", ".join(str(d.number) for d in deals)
        print(
            f"mjtable replay: no deal {args.deal} in {args.journal} (deals: {known})",
            file=sys.stderr,
        )
        return EXIT_UNUSABLE
    tr = translator(language(args.lang))
    last = len(chosen.rebuilt.source.steps)
    if args.move is not None and not 0 <= args.move <= last:
        print(
            f"mjtable replay: deal {chosen.number} has steps 0-{last}, not {args.move}",
            file=sys.stderr,
        )
        return EXIT_UNUSABLE
    if args.move is not None or not (sys.stdout.isatty() and sys.stdin.isatty()):
        k = last if args.move is None else args.move
        screen = render(chosen.rebuilt, k, chosen.before, tr=tr)
        sys.stdout.write(wrapped(screen, _columns()) if sys.stdout.isatty() else screen)
    else:
        _interactive(chosen, tr)
    return EXIT_BROKEN if finding is not None else 0


def _columns() -> int:
    return shutil.get_terminal_size((80, 24)).columns


def wrapped(screen: str, width: int) -> str:
    """Lines longer than the terminal broken between words, never inside one (the terminal
    itself would cut at the last column); a continuation is indented under its line."""
    out = []
    for line in screen.split("\n"):
        if len(line) < width:
            out.append(line)
            continue
        indent = " " * min(len(line) - len(line.lstrip(" ")) + 4, width // 2)
        out += textwrap.wrap(
            line,
            width=width - 1,
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
            drop_whitespace=True,
        ) or [""]
    return "\n".join(out)


def go_to(typed: str, last: int) -> tuple[int | None, str]:
    """The step `g NUMBER` asks for, or None and why not (the deal's steps are 0-last)."""
    n = int(typed)
    if n > last:
        return None, f"no step {n}: this deal has steps 0-{last}"
    return n, ""


def _choose(deals: list[SessionDeal], number: int | None) -> SessionDeal | None:
    if number is None:
        return deals[-1]
    return next((d for d in deals if d.number == number), None)


def _read_key(fd: int) -> str:
    """One key press: a character, or "left"/"right"/"home"/"end" for the escape sequences
    terminals send (`ESC [ C`, `ESC O C`, `ESC [ 1 ~`, `ESC [ 4 ~`, ...)."""
    ch = os.read(fd, 1).decode(errors="replace")
    if ch != "\x1b":
        return ch
    seq = os.read(fd, 1).decode(errors="replace")
    if seq not in "[O":
        return ""
    while len(seq) < 8:
        c = os.read(fd, 1).decode(errors="replace")
        seq += c
        if c.isalpha() or c == "~":
            break
    return _KEYS.get(seq, "")


_KEYS = {
    "[C": "right",
    "OC": "right",
    "[D": "left",
    "OD": "left",
    "[H": "home",
    "OH": "home",
    "[1~": "home",
    "[7~": "home",
    "[F": "end",
    "OF": "end",
    "[4~": "end",
    "[8~": "end",
}


def _interactive(chosen: SessionDeal, tr: Translator = ENGLISH) -> None:
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    last = len(chosen.rebuilt.source.steps)
    k, typed, prompt, said = 0, "", "", ""
    try:
        tty.setcbreak(fd)
        while True:
            screen = wrapped(render(chosen.rebuilt, k, chosen.before, True, tr), _columns())
            bottom = f"go to step (0-{last}): {typed}" if prompt else said
            sys.stdout.write(CLEAR + screen + bottom)
            sys.stdout.flush()
            said = ""
            key = _read_key(fd)
            if prompt:
                if key.isdigit():
                    typed += key
                elif key in ("\r", "\n"):
                    if typed:
                        step, said = go_to(typed, last)
                        k = k if step is None else step
                    typed, prompt = "", ""
                elif key in ("\x7f", "\b"):
                    typed = typed[:-1]
                elif key in ("\x1b", "q"):
                    typed, prompt = "", ""
                continue
            if key in ("q", "\x04"):
                break
            if key in ("n", " ", "right"):
                k = min(last, k + 1)
            elif key in ("p", "left"):
                k = max(0, k - 1)
            elif key in ("0", "home"):
                k = 0
            elif key in ("$", "end"):
                k = last
            elif key == "g":
                prompt = "g"
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write("\n")
