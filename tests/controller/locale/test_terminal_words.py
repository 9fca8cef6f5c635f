"""`mjtable run`'s terminal in the table's language (`[table] language`, `--lang`): the
status line, the settled-deal lines and the closing table; "stopped: REASON", read by
scripts, stays as it is."""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from pathlib import Path

from controller.cli.run_status import status_lines
from controller.locale import ENGLISH, Language, translator
from controller.outputs.view import PublicView, SeatView
from controller.words import phase_words, waiting_words

ROOT = Path(__file__).resolve().parents[3]


def view(phase: str, **kw) -> PublicView:
    seats = tuple(
        SeatView(seat, name, 0, 0, (), (), 13)
        for seat, name in zip("ESWN", ("Ann", "Bo", "Cy", "Di"), strict=True)
    )
    base = dict(table="7", session=2, deal=3, rules="sbr-mil", dealer="S", phase=phase,
                turn="W", tiles_left=41, claim_remaining_s=None, last_discard=None,
                seats=seats, seq=100, session_deal=3, session_deals=8)  # fmt: skip
    base.update(kw)
    return PublicView(**base)


def test_the_status_line_in_each_language():
    v = view("playing.awaiting_discard")
    assert status_lines(v, ENGLISH)[0].startswith(
        "Table 7 · Session 2 · Deal 3 of 8 · West to discard · 41 tiles left"
    )
    assert status_lines(v, translator(Language.ZH_CN))[0].startswith(
        "7号桌 · 第2场 · 第3局（共8局） · 西家出牌 · 余41张"
    )
    assert status_lines(v, translator(Language.RU))[0].startswith(
        "Стол 7 · Сессия 2 · Раздача 3 из 8 · сброс: Запад · осталась 41 кость"
    )


def test_phases_and_devices_in_words_of_the_language():
    ru = translator(Language.RU)
    assert phase_words("playing.claim_window", "E", ru) == "заявки на сброс: Восток"
    assert phase_words("playing.claim_window", None, ru) == "заявки открыты"
    assert phase_words("no_such_phase", None, ru) == "no such phase"  # unknown: as it is
    zh = translator(Language.ZH_CN)
    said = waiting_words(("the table controller", "the tile reader"), zh)
    assert said == "等待牌桌控制器和读牌器"


def mjtable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_run_in_russian_says_its_deal_and_results_in_russian(tmp_path):
    journal = tmp_path / "ru.journal"
    done = mjtable("run", "--deals", "1", "--fast", "--http", "127.0.0.1:0",
                   "--journal", str(journal), "--lang", "ru")  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Раздача 1 из 1: дилер E" in out, out
    assert "Раздача 1 из 1 рассчитана: " in out, out
    assert "stopped: deals" in out  # the line scripts read
    assert "Сессия 1: 1 раздача рассчитана" in out, out
    assert "итог" in out


def test_an_unknown_language_runs_in_english_with_one_log_line(tmp_path):
    config = tmp_path / "mjtable.toml"
    config.write_text('[table]\nlanguage = "tlh"\n')
    done = mjtable("run", "--config", str(config), "--deals", "1", "--fast", "--http",
                   "127.0.0.1:0", "--journal", str(tmp_path / "j.journal"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Deal 1 of 1 settled" in done.stdout
    said = [line for line in done.stderr.splitlines() if "unknown language" in line]
    assert len(said) == 1 and "'tlh'" in said[0], done.stderr


def _summary(deal: int, deltas: tuple[int, int, int, int], corrected: bool = False):
    from controller.journal.summary import DealSummary
    from rules.seats import Seat

    players = ("张伟", "Анна", "Bo", "李小龙长名字很长")
    return DealSummary(deal, "sbr-mil", Seat.E, (3, 4), players, 1, deal, "", deltas=deltas,
                       recorded_deltas=(0, 0, 0, 0) if corrected else None)  # fmt: skip


def test_the_closing_table_lines_up_chinese_names_and_words_by_terminal_columns():
    from controller.cli.run_status import session_table

    def width(text: str) -> int:  # the terminal's columns, told apart from the code's
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    deals = [_summary(1, (12, -4, -4, -4)), _summary(2, (-120, 40, 40, 40), corrected=True)]
    for tr in (ENGLISH, translator(Language.ZH_CN), translator(Language.RU)):
        head, *rows = session_table(1, deals, tr)[1:5]
        # each player's cell ends at the same terminal column in every row (a wide
        # character takes two): the head's names, each deal's and the totals' numbers
        names = [m.end() for m in re.finditer(r"[ESWN] \S+", head)]
        ends = [[width(head[:e]) for e in names]]
        ends += [[width(row[: m.end()]) for m in re.finditer(r"[+-]\d+", row)] for row in rows]
        assert all(e == ends[0] for e in ends), (tr.language, head, rows)
        label = [width(r[: len(r) - len(r.lstrip())] + r.split()[0]) for r in rows]
        assert len(set(label[:-1])) == 1, rows  # the deal numbers right-aligned
        assert label[-1] == label[0] + 1, rows  # and "total" one column into the gap, as ever
    zh = session_table(1, deals, translator(Language.ZH_CN))
    assert "N 李小龙长名" in zh[1] and "N 李小龙长名字" not in zh[1]  # 12 columns


def test_an_alert_line_says_its_title_in_the_table_s_language():
    from controller.cli.run_status import alert_line
    from controller.outputs.view import AlertView
    from controller.words import alert_words

    a = AlertView(
        7, "2026-03-01T10:00:05+00:00", "warning", alert_words("stalled", "W holds 15 tiles")
    )
    assert alert_line(a).endswith(" Stalled: West holds 15 tiles")
    assert alert_line(a, translator(Language.ZH_CN)).endswith(" 停滞：West holds 15 tiles")
    assert alert_line(a, translator(Language.RU)).startswith("! ")
    assert alert_line(a, translator(Language.RU)).endswith(" Остановка: West holds 15 tiles")


def _alerts(out: str) -> list[str]:
    """The alert lines of a run's terminal ("! 14:02:07 Stalled: …"), each without its time
    and without what is said in parentheses (a device's own error, as its driver wrote it)."""
    lines = [line.split(" ", 2)[2] for line in out.splitlines() if line.startswith(("! ", "!! "))]
    return [re.sub(r"[(（].*[)）]", "", line) for line in lines]


def test_a_run_in_chinese_and_in_russian_says_its_alerts_in_that_language(tmp_path):
    """The daemon's alerts (a link lost, dice out of place) and the recogniser's (a discard
    out of void order, seed 2) are said in the table's language, title and message."""
    english_word = re.compile(r"[A-Za-z]{3,}")
    for lang, lost in (("zh-CN", "设备断开：读牌器无响应"), ("ru", "Устройство потеряно: ")):
        done = mjtable("run", "--deals", "1", "--fast", "--http", "127.0.0.1:0", "--seed", "2",
                       "--unplug", "reader:1@3", "--journal", str(tmp_path / f"{lang}.journal"),
                       "--lang", lang)  # fmt: skip
        assert done.returncode == 0, done.stderr
        alerts = _alerts(done.stdout)
        assert len(alerts) >= 2, done.stdout
        assert any(a.startswith(lost) for a in alerts), alerts
        assert [a for a in alerts if english_word.search(a)] == [], done.stdout
