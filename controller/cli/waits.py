"""`mjtable waits`: the waits of a 13-tile hand, what each would score, and the theoretical
maximum paid at wall end (RULES.md Payments; 004 Lesson 6).

Exit status: 0 listed (ready or not), 2 bad input.
"""

from __future__ import annotations

import argparse
import sys

from controller.cli.args import rules_help
from controller.cli.score import (
    Case,
    InputError,
    describe_hand,
    maximum_note,
    parse_case,
    waits_and_maximum,
)
from rules.ruleset import DEFAULT
from rules.scoring import NotAWin, score_hand


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", help="standing tiles of a waiting hand, e.g. 123m456p789p1s")
    parser.add_argument(
        "--melds",
        action="append",
        default=[],
        metavar="MELD",
        help="declared melds, e.g. 'pung 5s' (repeat, or separate with commas)",
    )
    parser.add_argument("--void", help="the player's void suit (m, p or s)")
    parser.add_argument("--rules", default=DEFAULT, help=rules_help(DEFAULT))


def render(case: Case) -> str:
    need = 13 - 3 * len(case.melds)
    if len(case.standing) != need:
        raise InputError(
            f"a waiting hand has {need} standing tiles with {len(case.melds)} melds, "
            f"not {len(case.standing)}"
        )
    found, best = waits_and_maximum(case.standing, case)
    lines = [
        f"hand      {describe_hand(case.standing, case)}"
        + (f", void {case.void}" if case.void else "")
        + f", rules {case.rules.name}",
    ]
    if not found:
        lines.append("waits     none (not ready)")
    else:
        lines.append(f"waits     {' '.join(str(t) for t in found)}")
        for tile in found:
            try:
                score = score_hand(
                    (*case.standing, tile), case.melds, tile, case.rules, void=case.void
                )
            except NotAWin as err:  # cannot happen for a wait; said plainly if it does
                lines.append(f"  {tile}  {err.reason}")
                continue
            names = ", ".join(p.name for p in score.patterns) or "plain"
            lines.append(f"  {tile}  {score.value:>3}  {names}")
    lines.append(f"maximum   {best} (theoretical maximum at wall end{maximum_note(case)})")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        case = parse_case(args.rules, args.hand, args.melds, None, void=args.void)
        print(render(case))
    except InputError as err:
        err.report(sys.stderr)
        return 2
    return 0
