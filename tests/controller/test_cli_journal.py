"""`mjtable journal verify|export|summary`: exit codes, the first bad record, hand-computed
summaries, exports a stranger can re-hash, and journals left byte-identical."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.journal.records import (
    GENESIS_HASH,
    Correction,
    CorrectionAction,
    DealEnd,
    DealSettled,
    DealStarted,
    LedgerLine,
    RecordKind,
    Source,
    Stamp,
)
from controller.journal.store import Journal
from rules.seats import Seat

ROOT = Path(__file__).resolve().parents[2]


def _stamp(i: int) -> Stamp:
    return Stamp(50.0 + i, f"2026-03-01T10:{i // 60:02d}:{i % 60:02d}.000+00:00")


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    """Session 1 on one table: deal 1 (dealer E, dice 6+4) where S wins on E's discard for 4
    and E's concealed kong collects 2 from each; deal 2 (dealer S, dice 2+2) still running."""
    path = tmp_path / "table3.journal"
    n = iter(range(1000))
    with Journal.open(path) as j:

        def add(source: Source, kind: RecordKind, payload: dict, deal: int | None = None) -> int:
            return j.append(source, kind, payload, deal=deal, at=_stamp(next(n))).seq

        add(Source.DAEMON, RecordKind.SESSION_STARTED, {"session": 1, "rules": "sbr-mil"})
        players = ("Ann", "Bo", "Cy", "Di")
        started = DealStarted(1, "sbr-mil", Seat.E, (6, 4), players, session=1)
        add(Source.DAEMON, RecordKind.DEAL_STARTED, started.to_payload(), 1)
        add(Source.READER, RecordKind.HW_FRAME, {"device": "reader", "hex": "0a0b"}, 1)
        for seat, move in (("E", "concealed-kong"), ("E", "discard"), ("S", "hu")):
            add(Source.JUDGE, RecordKind.MOVE_ACCEPTED, {"seat": seat, "move": move}, 1)
        add(
            Source.JUDGE,
            RecordKind.MOVE_REJECTED,
            {"seat": "W", "move": "pung", "reason": "late"},
            1,
        )
        add(Source.DAEMON, RecordKind.ALERT, {"code": "late-claim", "message": "W after 3 s"}, 1)
        ledger = (
            LedgerLine(Seat.S, Seat.E, 2, "004 Table 7: concealed kong"),
            LedgerLine(Seat.W, Seat.E, 2, "004 Table 7: concealed kong"),
            LedgerLine(Seat.N, Seat.E, 2, "004 Table 7: concealed kong"),
            LedgerLine(Seat.E, Seat.S, 4, "004 Table 6: hu on discard"),
        )
        settled = DealSettled(1, (Seat.S,), (2, 2, -2, -2), ledger, DealEnd.WALL_EXHAUSTED)
        add(Source.JUDGE, RecordKind.DEAL_SETTLED, settled.to_payload(), 1)
        started2 = DealStarted(2, "sbr-mil", Seat.S, (2, 2), players, session=1)
        add(Source.DAEMON, RecordKind.DEAL_STARTED, started2.to_payload(), 2)
        move = add(Source.JUDGE, RecordKind.MOVE_ACCEPTED, {"seat": "S", "move": "discard"}, 2)
        j.append_correction(
            Correction(move, "ref-2", CorrectionAction.FIX_TILE, "misread", {"tile": "5p"}),
            at=_stamp(next(n)),
        )
    return path


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["journal", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _snapshot(path: Path) -> dict[str, bytes]:
    return {
        p.name: p.read_bytes()
        for p in sorted(path.parent.iterdir())
        if p.name.startswith(path.name)
    }


def test_verify_ok_summary_line(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Journal.open_readonly(journal_path) as j:
        last = j.last()
    assert last is not None
    code, out, err = _cli(capsys, "verify", str(journal_path))
    assert code == 0, err
    assert out.strip() == f"{journal_path}: ok, 12 records, 2 deals, last hash {last.hash}"


@pytest.mark.parametrize(
    ("statements", "expected"),
    [
        (
            ['UPDATE record SET payload = \'{"move":"hu","seat":"N"}\' WHERE seq = 6'],
            "record 6: hash mismatch",
        ),
        (["DELETE FROM record WHERE seq = 4"], "record 5: sequence gap"),
        (["UPDATE record SET prev_hash = hash WHERE seq = 9"], "record 9: broken link"),
        (["DELETE FROM record WHERE seq = 12"], "record 11: head mismatch"),
    ],
)
def test_verify_names_the_first_bad_record(
    journal_path: Path, capsys: pytest.CaptureFixture[str], statements: list[str], expected: str
) -> None:
    raw = sqlite3.connect(journal_path)
    raw.execute("DROP TRIGGER record_append_only_update")
    raw.execute("DROP TRIGGER record_append_only_delete")
    for sql in statements:
        raw.execute(sql)
    raw.commit()
    raw.close()
    before = _snapshot(journal_path)
    code, out, err = _cli(capsys, "verify", str(journal_path))
    assert code == 1
    assert expected in err
    assert out == ""
    # export and summary still answer, with a warning and a non-zero exit
    code, out, err = _cli(capsys, "export", str(journal_path))
    assert code == 1 and expected in err and out
    assert _snapshot(journal_path) == before


def test_summary_json_per_deal(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(capsys, "summary", "--json", str(journal_path))
    assert code == 0, err
    deals = [json.loads(line) for line in out.splitlines()]
    assert [d["deal"] for d in deals] == [1, 2]
    one, two = deals
    assert {
        k: one[k] for k in ("deal", "rules", "dealer", "dice", "winners", "deltas", "moves")
    } == {
        "deal": 1,
        "rules": "sbr-mil",
        "dealer": "E",
        "dice": [6, 4],
        "winners": ["S"],
        "deltas": [2, 2, -2, -2],  # E +6 kong -4 hu; S -2 kong +4 hu; W, N -2 each
        "moves": 3,
    }
    assert (one["rejected"], one["alerts"], one["corrections"], one["end"]) == (
        1,
        1,
        0,
        "wall-exhausted",
    )
    assert (one["started_seq"], one["settled_seq"]) == (2, 9)
    assert (two["dealer"], two["dice"], two["winners"], two["deltas"]) == ("S", [2, 2], [], None)
    assert (two["moves"], two["corrections"], two["settled"]) == (1, 1, False)


def test_summary_for_people(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "summary", str(journal_path))
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[1].split() == [
        "1",
        "sbr-mil",
        "E",
        "6+4",
        "S",
        "+2",
        "+2",
        "-2",
        "-2",
        "3",
        "0",
        "wall-exhausted",
    ]
    assert lines[2].split() == ["2", "sbr-mil", "S", "2+2", "-", "not", "settled", "1", "1", "-"]


def test_export_every_field_and_rehashable(
    journal_path: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "export.jsonl"
    code, out, err = _cli(capsys, "export", str(journal_path), "-o", str(out_file))
    # the export goes to the file; the terminal says what was written (issue 16)
    assert (code, out) == (0, f"wrote {out_file}: 12 records of {journal_path}\n"), err
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert len(rows) == 12
    assert set(rows[0]) == {
        "seq",
        "mono",
        "wall",
        "source",
        "kind",
        "deal",
        "payload",
        "prev_hash",
        "hash",
    }
    assert rows[11]["payload"] == {
        "action": "fix-tile",
        "corrects": 11,
        "details": {"tile": "5p"},
        "reason": "misread",
        "referee": "ref-2",
    }
    # anyone can check the chain from the export with the formula in docs/JOURNAL.md
    prev = GENESIS_HASH
    for row in rows:
        content = {k: row[k] for k in ("deal", "kind", "mono", "payload", "seq", "source", "wall")}
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert row["prev_hash"] == prev
        prev = hashlib.sha256(f"{prev}\n{text}".encode()).hexdigest()
        assert row["hash"] == prev
    # stdout gives the same lines
    code, out, _ = _cli(capsys, "export", str(journal_path))
    assert out == out_file.read_text()


def test_export_will_not_overwrite_the_journal(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(journal_path)
    code, _, err = _cli(capsys, "export", str(journal_path), "-o", str(journal_path))
    assert code == 2 and "refusing" in err
    assert _snapshot(journal_path) == before


def _text(path: Path) -> None:
    path.write_text("seq,kind\n1,deal.started\n")


def _foreign(path: Path) -> None:
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE record (seq INTEGER PRIMARY KEY, payload TEXT)")
    raw.commit()
    raw.close()


def _damaged(path: Path) -> None:
    with Journal.open(path) as j:
        for i in range(400):
            j.append(Source.READER, RecordKind.HW_FRAME, {"device": "reader", "hex": f"{i:080x}"})
    data = bytearray(path.read_bytes())
    data[3 * 4096 : 5 * 4096] = bytes(range(256)) * 32
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (_text, "not an SQLite database"),
        (_foreign, "not an mjtable journal"),
        (_damaged, "damaged journal"),
    ],
)
@pytest.mark.parametrize("action", [["verify"], ["export"], ["summary"], ["summary", "--json"]])
def test_unusable_files_exit_2_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make, message: str, action: list[str]
) -> None:
    path = tmp_path / "bad.journal"
    make(path)
    before = _snapshot(path)
    code, out, err = _cli(capsys, *action[:1], str(path), *action[1:])
    assert code == 2
    assert message in err and str(path) in err
    assert out == ""
    assert _snapshot(path) == before


def test_good_journal_untouched_by_every_tool(
    journal_path: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    before = journal_path.read_bytes()
    for argv in (["verify"], ["summary"], ["summary", "--json"], ["export"]):
        assert _cli(capsys, argv[0], str(journal_path), *argv[1:])[0] == 0
    assert journal_path.read_bytes() == before


def test_real_command_line(journal_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "controller", "journal", "verify", str(journal_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "ok, 12 records, 2 deals" in done.stdout
    missing = subprocess.run(
        [sys.executable, "-m", "controller", "journal", "summary", str(journal_path) + ".nope"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert missing.returncode == 2 and "no such journal" in missing.stderr
