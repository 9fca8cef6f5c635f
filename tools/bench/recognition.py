"""`mjtable bench recognition`: the recognition campaign (tools/campaign/run.py). N deals
against the simulator with the given noise, K SIGKILLs and restarts of the daemon at moments
spread over every phase, each journalled deal compared with the simulator's truth.

Prints deals matched / played, lost, wrong, stalls, referee calls and kills; exits 1 when a
deal is lost or wrong. The figures and the command are in docs/RECOGNITION.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from controller.cli.args import rules_help
from controller.profiles import load_reader, sim_tags_name
from rules.ruleset import load as load_rules
from tools.campaign.run import REFEREE_CALLS, Campaign, CampaignConfig


def _percent(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 100.0:
        raise argparse.ArgumentTypeError(f"{text} is not a percentage from 0 to 100")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=_count, default=10, help="deals to play (default 10)")
    parser.add_argument(
        "--kills", type=_count, default=2, help="SIGKILL + restarts of the daemon (default 2)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the simulator's seed (default 1)")
    parser.add_argument("--missed", type=_percent, default=5.0, help="%% reads missed (5)")
    parser.add_argument("--crosstalk", type=_percent, default=5.0, help="%% crosstalk reads (5)")
    parser.add_argument("--corrupt", type=_percent, default=1.0, help="%% frames damaged (1)")
    parser.add_argument("--repeated", type=_percent, default=0.0, help="%% reads repeated (0)")
    parser.add_argument("--rules", default="sbr-mil", help=rules_help())
    parser.add_argument(
        "--reader-profile",
        default="sim-uhf",
        help="reader profile (sim-uhf; sim-feig: FEIG ISO 15693 readers and ICODE-tagged tiles)",
    )
    parser.add_argument(
        "--declarations",
        choices=("buttons", "cards", "tiles"),
        default="buttons",
        help="how the players declare: seat buttons, Win and void cards, the tiles alone",
    )
    parser.add_argument(
        "--no-referee",
        action="store_true",
        help="nobody answers the table's referee calls (the simulated players wait for the referee, up to 10 min a step)",
    )
    parser.add_argument(
        "--dir", type=Path, help="keep the journal, truth and logs here (default: a temp folder, "
        "removed when every deal matched)"
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    try:  # the simulated tiles carry the reader's kind of tags (sim-108, sim-108-icode)
        tags = sim_tags_name(
            load_rules(args.rules).tiles.set, load_reader(args.reader_profile).reader.model.tags
        )
    except (ValueError, LookupError, OSError) as err:
        print(f"mjtable bench recognition: {err}", file=sys.stderr)
        return 2
    config = CampaignConfig(
        deals=max(1, args.deals),
        kills=args.kills,
        seed=args.seed,
        missed=args.missed,
        crosstalk=args.crosstalk,
        corrupt=args.corrupt,
        repeated=args.repeated,
        rules=args.rules,
        reader_profile=args.reader_profile,
        tags=tags,
        folder=args.dir,
        referee=not args.no_referee,
        declarations=args.declarations,
    )
    quiet = args.json

    def progress(line: str) -> None:
        if not quiet:
            print(f"  {line}", file=sys.stderr, flush=True)

    report = Campaign(config, progress).run()
    s = report.summary()
    if args.json:
        print(json.dumps({**s, "folder": report.folder}))
    else:
        print(
            f"recognition campaign: {s['matched']}/{s['played']} deals matched the truth "
            f"({config.missed:g}% missed, {config.crosstalk:g}% crosstalk, "
            f"{config.corrupt:g}% corrupt, {config.repeated:g}% repeated; seed {config.seed}; "
            f"declarations by {config.declarations})"
        )
        print(
            f"  lost {s['lost']}, wrong {s['wrong']}, stalls {s['stalls']}, referee calls "
            f"{s['referee_calls']}, kills {s['kills']} (+{s['kills_missed']} not reached), "
            f"{s['seconds']} s; the referee answered {s['referee_answers']} call(s)"
        )
        if s["daemon_failed"]:
            print(f"  the daemon stopped on its own, the run was cut short: {s['daemon_failed']}")
        print(f"  the referee was called in {s['deals_with_calls']} of {s['played']} deals")
        page = s["referee_page"]
        if page:
            print(
                f"  on the referee page: {page['calls']} call(s), {page['by_table']} gone by "
                f"themselves, {page['by_first_candidate']} put right by the first candidate "
                f"({page['first_candidate_percent']} % of those answered), taps per call mean "
                f"{page['mean_taps']} max {page['max_taps']} ({page['over_3_taps']} over 3), "
                f"seconds from call to answer mean "
                f"{page['mean_seconds']} max {page['max_seconds']}, deals ended by the referee "
                f"{page['abandoned']}"
            )
        for d in report.deals:
            for call in d.calls[:1]:  # the first call of a deal names its cause
                more = f" (+{len(d.calls) - 1} more)" if len(d.calls) > 1 else ""
                print(f"  call: deal {d.number}: {call[:200]}{more}")
        for line in report.answers:
            print(f"  referee: {line}")
        for d in report.deals:
            if d.status != "matched" or set(d.alerts) & REFEREE_CALLS:
                calls = ", ".join(d.alerts) or "no alerts"
                print(f"  deal {d.number}: {d.status} {d.detail} [{calls}]")
        if not report.ok:
            print(f"  journal, truth and logs kept in {report.folder}")
    return 0 if report.ok else 1
