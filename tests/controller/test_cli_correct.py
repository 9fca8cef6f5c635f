"""`mjtable correct`: every action journalled with who and why, refusals leave the journal
byte for byte, and the tools apply what was appended; the dispute over the cap settled by
`mjtable journal record` + `mjtable judge --rules sbr-russia`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.journal.records import Correction, CorrectionAction
from controller.journal.store import Journal
from tests.tools.test_referee import capped_journal, seq_of

REF = ["--referee", "Li Wei", "--why", "seen on the video"]


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return capped_journal(tmp_path / "t.journal")


def corrections(path: Path):
    with Journal.open_readonly(path) as j:
        return j.corrections(1)


def test_each_action_is_journalled(journal: Path, capsys) -> None:
    hu = seq_of(journal, "hu")
    discardless = seq_of(journal, "void suit p 4p")
    cases = [
        (["cancel-move", "--record", str(hu)], None),
        (
            ["penalty", "--deal", "1", "--seat", "N", "--points", "8", "--to", "w"],
            {"seat": "N", "points": 8, "paid_to": "W"},
        ),
        (["yellow-card", "--record", str(hu), "--seat", "E"], {"seat": "E"}),
        (["force-end", "--record", str(hu)], None),
        (["note", "--record", str(hu)], None),
    ]
    for argv, details in cases:
        assert main(["correct", str(journal), *argv, *REF]) == 0
        out = capsys.readouterr().out
        rec, c = corrections(journal)[-1]
        assert out.startswith(f"record {rec.seq}: {argv[0]} of record ")
        assert (c.action, c.referee, c.reason) == (
            CorrectionAction(argv[0]),
            "Li Wei",
            "seen on the video",
        )
        assert c.details == details
        assert rec.source == "referee" and rec.deal == 1
    # the void tile laid was really 3p: then the judge would refuse the later discard of
    # the 4p it laid, so the correction is refused, as on the referee page, and not written
    before = len(corrections(journal))
    argv = ["fix-tile", "--record", str(discardless), "--tile", "3p"]
    assert main(["correct", str(journal), *argv, *REF]) == 3
    assert "the judge would refuse" in capsys.readouterr().err
    assert len(corrections(journal)) == before
    # withdraw the penalty
    penalty = next(r.seq for r, c in corrections(journal) if c.action is CorrectionAction.PENALTY)
    assert main(["correct", str(journal), "withdraw", "--record", str(penalty), *REF]) == 0
    with Journal.open_readonly(journal) as j:
        assert j.verify().ok


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["cancel-move", "--record", "1"], "corrects an accepted move; record 1 is deal.started"),
        (["fix-tile", "--record", "2"], "fix-tile needs --tile"),
        (["fix-tile", "--record", "3", "--tile", "0p"], "0p"),
        (["fix-tile", "--record", "3", "--tile", "4p"], "already 4p"),
        (["penalty", "--record", "2", "--points", "8"], "penalty needs --seat"),
        (["penalty", "--record", "2", "--seat", "E"], "penalty needs --points 1-1000"),
        (
            ["penalty", "--record", "2", "--seat", "E", "--points", "8", "--to", "E"],
            "cannot pay itself",
        ),
        (["yellow-card", "--record", "2", "--seat", "X"], "a seat is one of E S W N"),
        (["withdraw", "--record", "2"], "withdraw names a correction"),
        (["note", "--record", "99"], "no record 99"),
        (["note", "--deal", "7"], "no deal 7"),
    ],
)
def test_refusals_leave_the_journal_alone(journal: Path, capsys, argv, message) -> None:
    before = journal.read_bytes()
    side = sorted(p.name for p in journal.parent.iterdir())
    assert main(["correct", str(journal), *argv, *REF]) == 3
    assert message in capsys.readouterr().err
    assert journal.read_bytes() == before
    assert sorted(p.name for p in journal.parent.iterdir()) == side


def test_a_reason_is_required(journal: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["correct", str(journal), "note", "--record", "2", "--referee", "Li"])
    assert (
        main(["correct", str(journal), "note", "--record", "2", "--referee", " ", "--why", "x"])
        == 3
    )
    assert "names the referee" in capsys.readouterr().err


def test_withdrawn_twice_is_refused(journal: Path, capsys) -> None:
    assert main(["correct", str(journal), "note", "--record", "2", *REF]) == 0
    note = corrections(journal)[-1][0].seq
    assert main(["correct", str(journal), "withdraw", "--record", str(note), *REF]) == 0
    assert main(["correct", str(journal), "withdraw", "--record", str(note), *REF]) == 3
    assert "already withdrawn" in capsys.readouterr().err


def test_replay_and_record_apply_a_cancel(journal: Path, tmp_path: Path, capsys) -> None:
    hu = seq_of(journal, "hu")
    assert main(["correct", str(journal), "cancel-move", "--record", str(hu), *REF]) == 0
    capsys.readouterr()
    assert main(["replay", str(journal), "--deal", "1", "--move", "5"]) == 0
    screen = capsys.readouterr().out
    assert re.search(r"CORRECTED by Li Wei at \d\d:\d\d:\d\d\.\d{3} \(record 9\)", screen)
    assert "cancel-move: seen on the video" in screen
    assert "deal +0" in screen and "WON" not in screen
    assert main(["replay", str(journal), "--move", "5", "--as-recorded"]) == 0
    assert "WON on 7m, value 8" in capsys.readouterr().out
    out = tmp_path / "deal.json"
    assert main(["journal", "record", str(journal), "--deal", "1", "-o", str(out)]) == 0
    record = json.loads(out.read_text())
    assert "corrections applied: cancel-move of record" in record["note"]
    assert record["result"]["deltas"] == [0, 0, 0, 0]
    assert all(m["move"] != "self-drawn-hu" for m in record["moves"])


def test_dispute_over_the_cap(journal: Path, tmp_path: Path, capsys) -> None:
    """Issue 7 item 4: the same deal settled under the 3-fan and the 4-fan cap."""
    out = tmp_path / "deal.json"
    assert main(["journal", "record", str(journal), "--deal", "1", "-o", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out}: deal 1 of {journal}, ")
    assert main(["judge", "--json", str(out)]) == 0
    mil = json.loads(capsys.readouterr().out)
    assert main(["judge", "--json", "--rules", "sbr-russia", str(out)]) == 0
    russia = json.loads(capsys.readouterr().out)
    # deal seats (the dealer is E): 8 + 1 from each of three, then 16 + 1
    assert mil["deltas"] == [27, -9, -9, -9]
    assert russia["deltas"] == [51, -17, -17, -17]
    assert [w["value"] for w in russia["winners"]] == [16]


def test_journal_summary_prints_the_corrected_result_after_cancel_move(
    journal: Path, tmp_path: Path, capsys
) -> None:
    """Issue 16 item 6: after `correct cancel-move` the summary printed the old result."""
    assert main(["journal", "summary", str(journal)]) == 0
    before = capsys.readouterr().out.splitlines()
    assert before[1].split()[4:9] == ["S", "-9", "+27", "-9", "-9"] and len(before) == 2
    penalty = ["penalty", "--deal", "1", "--seat", "N", "--points", "8", "--to", "W"]
    assert main(["correct", str(journal), *penalty, *REF]) == 0
    capsys.readouterr()
    assert main(["journal", "summary", str(journal)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[4:10] == ["S", "-9", "+27", "-1", "-17", "*"]
    assert lines[2] == "* deal 1: corrected; journalled before the corrections: -9 +27 -9 -9"
    hu = seq_of(journal, "hu")
    assert main(["correct", str(journal), "cancel-move", "--record", str(hu), *REF]) == 0
    capsys.readouterr()
    assert main(["journal", "summary", "--json", str(journal)]) == 0
    (deal,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (deal["winners"], deal["deltas"], deal["recorded_deltas"]) == (
        [],
        [0, 0, 8, -8],
        [-9, 27, -9, -9],
    )
    # withdrawn, the penalty no longer counts; the cancel still does
    pen = next(r.seq for r, c in corrections(journal) if c.action is CorrectionAction.PENALTY)
    assert main(["correct", str(journal), "withdraw", "--record", str(pen), *REF]) == 0
    capsys.readouterr()
    assert main(["journal", "summary", str(journal)]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[4:10] == [
        "-",
        "+0",
        "+0",
        "+0",
        "+0",
        "*",
    ]


def test_report_strikes_the_superseded_result_and_shows_the_corrected_one(
    journal: Path, tmp_path: Path, capsys
) -> None:
    """Issue 16 item 6: the report showed the old bold 'settled' row beside new deltas."""
    out = tmp_path / "deal.html"
    assert main(["report", str(journal), "--deal", "1", "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}: deal 1, corrections applied\n"
    assert "settled superseded" not in out.read_text()
    hu = seq_of(journal, "hu")
    assert main(["correct", str(journal), "cancel-move", "--record", str(hu), *REF]) == 0
    assert main(["report", str(journal), "--deal", "1", "-o", str(out)]) == 0
    html = out.read_text()
    row = re.search(r'<tr class="settled superseded">.*?</tr>', html)
    assert row is not None
    assert '<span class="struck">settled (time-up): -9 +27 -9 -9</span>' in row.group(0)
    assert "superseded by the corrections: <b>time-up: E +0 S +0 W +0 N +0</b>" in row.group(0)
    assert '<span class="struck">E -9 S +27 W -9 N -9</span>' in html


def test_help_has_examples_and_every_action(capsys) -> None:
    """Issue 16 item 10: `correct --help` had no examples."""
    with pytest.raises(SystemExit):
        main(["correct", "--help"])
    out = capsys.readouterr().out
    assert "examples" in out and out.count("mjtable correct table3.journal") >= 4
    actions = [a.value for a in CorrectionAction if a is not CorrectionAction.ENTER_MOVE]
    assert "dealer" in actions
    for action in actions:  # every action the command takes (`dealer` was left out)
        assert f"\n  {action} " in out, action


@pytest.mark.parametrize(
    "command", ["run", "score", "waits", "judge", "sim", "bench judge", "bench recognition"]
)
def test_rules_help_lists_the_rule_sets(command, capsys) -> None:
    """Issue 16 item 10: `--rules` help did not list the rule sets (the benches' neither)."""
    from rules.ruleset import available

    with pytest.raises(SystemExit):
        main([*command.split(), "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert len(available()) == 5
    for name in available():
        assert name in out.replace("- ", "-"), (command, name)


def test_regression_a_dealer_correction_without_a_seat_read_none_as_north(
    journal: Path, capsys
) -> None:
    """Issue 16: `correct dealer` took no seat, journalled no details, and the tools read the
    missing seat ("None") as North, re-judging the deal with North as the dealer."""
    before = journal.read_bytes()
    assert main(["correct", str(journal), "dealer", "--deal", "1", *REF]) == 3
    assert "dealer needs --seat" in capsys.readouterr().err
    assert journal.read_bytes() == before
    assert main(["correct", str(journal), "dealer", "--deal", "1", "--seat", "W", *REF]) == 0
    out = capsys.readouterr().out
    with Journal.open_readonly(journal) as j:
        started = next(iter(j.deal_records(1)))
        ((_record, correction),) = j.corrections(1)
    assert correction.corrects == started.seq and correction.details == {"dealer": "W"}
    assert f"dealer of record {started.seq} (deal 1)" in out
    assert re.search(r" at \d\d:\d\d:\d\d$", out.strip())  # the local clock, not ISO UTC
    assert main(["journal", "summary", str(journal), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["dealer"] == "W"


def test_regression_a_dealer_correction_that_names_no_side_changes_nothing(
    journal: Path, capsys
) -> None:
    """A `dealer` correction without details (what the CLI wrote before it asked for --seat)
    moved the dealer to North in every tool: its missing side read as "None"."""
    assert main(["journal", "summary", str(journal), "--json"]) == 0
    before = json.loads(capsys.readouterr().out.splitlines()[0])
    with Journal.open(journal) as j:
        started = next(iter(j.deal_records(1)))
        j.append_correction(Correction(started.seq, "Li", CorrectionAction.DEALER, "old CLI"))
    assert main(["journal", "summary", str(journal), "--json"]) == 0
    after = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (after["dealer"], after["deltas"]) == (before["dealer"], before["deltas"])
    assert before["dealer"] != "N"


def _correct(*argv: str) -> subprocess.CompletedProcess[str]:
    """`mjtable correct` run as a referee runs it: its own process."""
    return subprocess.run(
        [sys.executable, "-m", "controller", "correct", *argv],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
        check=False,
    )


def test_correct_answers_in_the_language_asked(journal: Path) -> None:
    """`--lang` as `mjtable replay` and `report` have it: the answer and each refusal said in
    zh-CN or ru, the journal written the same whatever the language."""
    hu = seq_of(journal, "hu")
    done = _correct(str(journal), "cancel-move", "--record", str(hu), "--lang", "zh-CN", *REF)
    assert done.returncode == 0, done.stderr
    rec, c = corrections(journal)[-1]
    assert c.action is CorrectionAction.CANCEL_MOVE and c.reason == "seen on the video"
    assert done.stdout.startswith(f"记录{rec.seq}：Li Wei于") and "取消动作" in done.stdout
    assert "record" not in done.stdout
    before = journal.read_bytes()
    refused = _correct(
        str(journal), "penalty", "--record", "2", "--seat", "E", "--lang", "ru", *REF
    )
    assert refused.returncode == 3
    assert refused.stderr.strip() == "mjtable correct: штрафу нужен --points 1-1000"
    refused = _correct(str(journal), "yellow-card", "--record", "2", "--lang", "zh-CN", *REF)
    assert (refused.returncode, refused.stderr.strip()) == (3, "mjtable correct: 黄牌需要 --seat")
    # the judge's refusal after the correction, in Russian too
    fix = ["fix-tile", "--record", str(seq_of(journal, "void suit p 4p")), "--tile", "3p"]
    refused = _correct(str(journal), *fix, "--lang", "ru", *REF)
    assert refused.returncode == 3 and "судья" in refused.stderr, refused.stderr
    assert journal.read_bytes() == before
    # English stays as it was, and is the default
    done = _correct(str(journal), "note", "--record", str(hu), *REF)
    assert re.fullmatch(
        rf"record \d+: note of record {hu} \(deal 1\) by Li Wei at \S+\n", done.stdout
    )
