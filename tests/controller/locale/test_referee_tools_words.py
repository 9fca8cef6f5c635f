"""The referee's tools after the day in the reader's language (issue 33): the deal report's
steps, evidence and judge column (`mjtable report --lang`), `mjtable replay --lang`, and a
Wellness Hu's pattern and bonuses (`won_text`), said with the glossary's names. A journal of
one simulated deal (seed 2, the reader unplugged for a moment) gives them moves, buttons,
claim windows and alerts of the daemon's and the recogniser's."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

from controller.locale import ENGLISH, Language, translator
from controller.referee.text import won_text
from rules.melds import Meld
from rules.moves import Won
from rules.ruleset import load
from rules.scoring import score_hand
from rules.seats import Seat
from rules.tiles import Tile, parse_tiles

ROOT = Path(__file__).resolve().parents[3]
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
# what stays as its writer wrote it: a device's own error (in parentheses), a record's
# source, the tiles of the hands and walls in their codes
KEPT = re.compile(
    r"[(（]device reports.*?[)）]+|(?<![A-Za-z])(?:daemon|judge|referee|reader|table)(?![A-Za-z])|sbr-mil"
)


def mjtable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )


@pytest.fixture(scope="module")
def journal(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("tools") / "day.journal"
    done = mjtable("run", "--deals", "1", "--fast", "--http", "127.0.0.1:0", "--seed", "2",
                   "--unplug", "reader:1@3", "--journal", str(path))  # fmt: skip
    assert done.returncode == 0, done.stderr
    return path


def _moves_table(page: str) -> list[list[str]]:
    """The report's moves table: each row's cells as text (what, evidence, judge last)."""
    table = page.split("<table><tr><th>#</th>", 1)[1].split("</table>", 1)[0]
    rows = []
    for row in table.split("<tr")[2:]:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
        rows.append(
            [html.unescape(re.sub(r"<br>", " / ", re.sub(r"<(?!br)[^>]+>", "", c))) for c in cells]
        )
    return rows


@pytest.mark.parametrize("lang", ["zh-CN", "ru"])
def test_the_report_says_its_steps_evidence_and_judge_in_the_reader_s_language(
    journal, tmp_path, lang
):
    out = tmp_path / "report.html"
    done = mjtable("report", str(journal), "-o", str(out), "--lang", lang)
    assert done.returncode == 0, done.stderr
    rows = _moves_table(out.read_text(encoding="utf-8"))
    assert len(rows) > 100 and any(r[6] for r in rows)  # evidence, read by the reader
    said = [KEPT.sub("", " | ".join(r[5:8])) for r in rows]
    assert [s for s in said if ENGLISH_WORD.search(s)] == [], lang
    english = mjtable("report", str(journal), "-o", str(tmp_path / "en.html"))
    assert english.returncode == 0
    first = _moves_table((tmp_path / "en.html").read_text(encoding="utf-8"))
    assert [r[5:8] for r in first] != [r[5:8] for r in rows]


@pytest.mark.parametrize(
    ("lang", "words"),
    [("zh-CN", ("第1局", "阶段：", "牌墙：")), ("ru", ("Раздача 1", "фаза: ", "Стена: "))],
)
def test_replay_says_the_moment_in_the_reader_s_language(journal, lang, words):
    for k in (0, 40, 120):
        done = mjtable("replay", str(journal), "--move", str(k), "--lang", lang)
        assert done.returncode == 0, done.stderr
        screen = done.stdout
        assert all(w in screen for w in words), screen
        # the step, its evidence and the judge's word (the lines under the header)
        step = [line for line in screen.splitlines()[1:4] if not line.startswith("  (")]
        assert not ENGLISH_WORD.search(KEPT.sub("", " ".join(step))), screen


def test_replay_in_english_is_as_it_was(journal):
    done = mjtable("replay", str(journal), "--move", "0")
    assert done.stdout.startswith("Deal 1 (sbr-mil) — step 0/")
    assert "deal started, dice" in done.stdout


W = load("wellness")


def test_a_wellness_hu_is_said_with_the_pattern_s_and_bonuses_names_of_the_glossary():
    # zi-fu (800) with a White kong and a Green pung: kong + dragon-pung + dragon-pung
    standing = parse_tiles("666z77z234m678m", W.tiles.set)
    score = score_hand(standing, [Meld.parse("kong 5z")], Tile.parse("7z"), W)
    won = Won(Seat.E, Tile.parse("7z"), Seat.S, False, score.value, 1, score)
    english = won_text(won, W)
    assert english.startswith("on 7z, zi-fu 800 + ") and english.endswith(" = 1100")
    zh = won_text(won, W, translator(Language.ZH_CN))
    assert zh.startswith("胡7z，字和 800 + ") and "箭刻 100" in zh and zh.endswith(" = 1100"), zh
    ru = won_text(won, W, translator(Language.RU))
    assert ru.startswith("на 7z, цзы-фу 800 + ") and "панг дракона 100" in ru, ru
    assert won_text(won, W, ENGLISH) == english


def test_the_evidence_is_said_from_the_sentences_journalled_beside_it(journal):
    """Each move's evidence is journalled in English (`evidence`) and as sentences
    (`evidence_words`, made where the reader saw it); the report and replay say those, and a
    journal written before them shows its evidence as written."""
    from dataclasses import replace

    from controller.journal.store import Journal
    from controller.referee.journal_deal import read_deal

    zh = translator(Language.ZH_CN)
    with Journal.open_readonly(journal) as j:
        deal = read_deal(j, 1)
    seen = [s for s in deal.steps if s.evidence]
    assert len(seen) > 50
    for step in seen:
        assert len(step.evidence_words) == len(step.evidence), step.record.data()
        assert tuple(str(w) for w in step.evidence_words) == step.evidence
        assert step.evidence_said(zh) == tuple(w.say(zh) for w in step.evidence_words)
        assert step.evidence_said(ENGLISH) == step.evidence
    placed = next(s for s in seen if " placed at " in s.evidence[0])
    assert "放下" in placed.evidence_said(zh)[0] and "placed" not in placed.evidence_said(zh)[0]
    older = replace(placed, evidence_words=())
    assert older.evidence_said(zh) == placed.evidence
