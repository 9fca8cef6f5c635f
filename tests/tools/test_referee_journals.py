"""Every referee tool on damaged, foreign and tampered journals: a clear error, the right
exit status, and the files untouched (bytes identical, no side file created)."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from controller.cli import main
from controller.journal.records import RecordKind, Source
from controller.journal.store import Journal
from tests.tools.test_referee import FakeClock, capped_journal


def snapshot(directory: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.iterdir())
        if p.is_file() and not p.name.endswith((".html", ".json"))
    }


def tools(path: Path, out: Path) -> list[list[str]]:
    return [
        ["replay", str(path), "--deal", "1", "--move", "2"],
        ["report", str(path), "--deal", "1", "-o", str(out / "deal.html")],
        ["report", str(path), "-o", str(out / "session.html")],
        ["journal", "record", str(path), "--deal", "1", "-o", str(out / "deal.json")],
        ["correct", str(path), "note", "--record", "1", "--referee", "Li", "--why", "test"],
    ]


@pytest.fixture
def journal_dir(tmp_path: Path) -> Path:
    d = tmp_path / "j"
    d.mkdir()
    return d


def run_all(path: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[int, str]]:
    results = []
    for argv in tools(path, out):
        code = main(argv)
        results.append((code, capsys.readouterr().err))
    return results


def test_not_sqlite(journal_dir: Path, tmp_path: Path, capsys) -> None:
    path = journal_dir / "t.journal"
    path.write_text("deal 1: E won\n")
    before = snapshot(journal_dir)
    for code, err in run_all(path, tmp_path, capsys):
        assert code == 2 and "not a journal (not an SQLite database)" in err
    assert snapshot(journal_dir) == before


def test_foreign_sqlite(journal_dir: Path, tmp_path: Path, capsys) -> None:
    path = journal_dir / "t.journal"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE scores (player TEXT, points INT)")
    conn.commit()
    conn.close()
    before = snapshot(journal_dir)
    for code, err in run_all(path, tmp_path, capsys):
        assert code == 2 and "not an mjtable journal" in err
    assert snapshot(journal_dir) == before


def test_damaged_pages(journal_dir: Path, tmp_path: Path, capsys) -> None:
    path = capped_journal(journal_dir / "t.journal")
    with Journal.open(path, clock=FakeClock()) as journal:
        for i in range(400):
            frame = {"device": "reader", "hex": f"{i:080x}"}
            journal.append(Source.READER, RecordKind.HW_FRAME, frame)
    data = bytearray(path.read_bytes())
    data[3 * 4096 : 5 * 4096] = bytes(range(256)) * 32  # scribble over two pages
    path.write_bytes(bytes(data))
    before = snapshot(journal_dir)
    for code, err in run_all(path, tmp_path, capsys):
        assert code == 2 and ("damaged" in err or "malformed" in err), err
    assert snapshot(journal_dir) == before


def test_missing_file(tmp_path: Path, capsys) -> None:
    for code, err in run_all(tmp_path / "nothing.journal", tmp_path, capsys):
        assert code == 2 and "no such journal file" in err


def tamper(path: Path) -> None:
    """Edit record 3's payload behind the triggers' back (as a forger would)."""
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER record_append_only_update")
    conn.execute("UPDATE record SET payload = replace(payload, '\"4p\"', '\"3p\"') WHERE seq = 3")
    conn.commit()
    conn.close()


def test_broken_chain_shown_but_never_corrected(journal_dir: Path, tmp_path: Path, capsys) -> None:
    path = capped_journal(journal_dir / "t.journal")
    tamper(path)
    before = snapshot(journal_dir)
    results = run_all(path, tmp_path, capsys)
    for code, err in results:
        assert code == 1 and "record 3: hash mismatch" in err, err
    assert "nothing appended" in results[-1][1]
    assert snapshot(journal_dir) == before
    assert "CHAIN BROKEN at record 3: hash mismatch" in (tmp_path / "deal.html").read_text()


def test_unreadable_payload_in_an_intact_chain(journal_dir: Path, tmp_path: Path, capsys) -> None:
    path = journal_dir / "t.journal"
    capped_journal(path)
    with Journal.open(path, clock=FakeClock()) as journal:
        payload = {
            "deal": 2,
            "rules": "sbr-mil",
            "dealer": "E",
            "dice": [6, 4],
            "players": ["a", "b", "c", "d"],
            "wall": None,
        }
        journal.append(Source.DAEMON, RecordKind.DEAL_STARTED, payload, deal=2)
        journal.append(
            Source.JUDGE,
            RecordKind.MOVE_ACCEPTED,
            {"seat": "E", "move": "fly", "judge": {"move": "fly", "seat": "E"}},
            deal=2,
        )
    shutil.copy(path, tmp_path / "copy.journal")
    before = snapshot(journal_dir)
    for argv in (["replay", str(path)], ["report", str(path), "-o", str(tmp_path / "s.html")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "record 10 (move.accepted)" in err and 'judge.move: unknown move "fly"' in err, err
    assert main(["journal", "record", str(path), "--deal", "1"]) == 0  # deal 1 is fine
    capsys.readouterr()
    assert snapshot(journal_dir) == before


def test_unscanned_wall_is_a_clear_error(journal_dir: Path, tmp_path: Path, capsys) -> None:
    path = journal_dir / "t.journal"
    with Journal.open(path, clock=FakeClock()) as journal:
        payload = {
            "deal": 1,
            "rules": "sbr-mil",
            "dealer": "E",
            "dice": [6, 4],
            "players": ["a", "b", "c", "d"],
            "wall": None,
        }
        journal.append(Source.DAEMON, RecordKind.DEAL_STARTED, payload, deal=1)
    assert main(["replay", str(path), "--deal", "1"]) == 2
    assert "the wall was not scanned" in capsys.readouterr().err


def test_live_writer_journal_read_through_the_wal(
    journal_dir: Path, tmp_path: Path, capsys
) -> None:
    """The daemon holds the journal open (a -wal beside it): the tools read every committed
    record and change neither the journal nor its WAL."""
    path = capped_journal(journal_dir / "t.journal")
    with Journal.open(path, clock=FakeClock()) as writer:
        writer.append(Source.DAEMON, RecordKind.DAEMON_STOPPED, {"reason": "test"})
        assert Path(f"{path}-wal").exists()
        main_before = path.read_bytes()
        wal_before = Path(f"{path}-wal").read_bytes()
        assert main(["replay", str(path), "--deal", "1", "--move", "5"]) == 0
        assert "hu (self-drawn)" in capsys.readouterr().out
        assert main(["report", str(path), "-o", str(tmp_path / "s.html")]) == 0
        assert path.read_bytes() == main_before
        assert Path(f"{path}-wal").read_bytes() == wal_before
