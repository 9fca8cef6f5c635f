"""Bad input to the command line gives one line on stderr naming the file, port or value,
a non-zero exit and no traceback (issue 15); a journal that is refused is left as it was.

Each case runs the real command in a child process: what an operator sees is what is tested.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from controller.journal.records import RecordKind, Source, Stamp
from controller.journal.store import Journal

ROOT = Path(__file__).resolve().parents[2]
# hardware named (loop://), so no simulator is started: the errors come before any device
RUN = ["run", "--table", "loop://", "--reader", "loop://", "--http", "127.0.0.1:0"]
RUN += ["--config", os.devnull]


def mjtable(*args: str, prefix: tuple[str, ...] = ()) -> tuple[int, str]:
    proc = subprocess.run(
        [*prefix, sys.executable, "-m", "controller", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode, proc.stderr


def one_line(code: int, err: str, *needles: str) -> str:
    """The error is one line, names what it is about, and the exit is a failure."""
    assert code != 0, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    for needle in needles:
        assert needle in err, err
    return err.strip()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    """A closed journal of 300 frames: a dozen SQLite pages, no -wal beside it."""
    path = tmp_path / "table.journal"
    with Journal.open(path) as j:
        j.append_many(
            [
                (
                    Source.READER,
                    RecordKind.HW_FRAME,
                    {"device": "reader", "hex": f"{i:040x}"},
                    None,
                    j_stamp(i),
                )
                for i in range(300)
            ]
        )
    assert not Path(f"{path}-wal").exists()
    return path


def j_stamp(i: int) -> Stamp:
    return Stamp(float(i), f"2026-03-01T10:00:{i % 60:02d}.000+00:00")


# --- run --journal ----------------------------------------------------------------------


def test_run_journal_is_a_folder(tmp_path: Path) -> None:
    one_line(*mjtable(*RUN, "--journal", str(tmp_path)), str(tmp_path), "folder")


def test_run_journal_is_a_text_file(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("tournament notes\n")
    one_line(*mjtable(*RUN, "--journal", str(text)), str(text), "not a journal")
    assert text.read_text() == "tournament notes\n"


def test_run_journal_is_a_foreign_sqlite_file(tmp_path: Path) -> None:
    foreign = tmp_path / "other.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE scores (name TEXT, points INTEGER)")
    conn.commit()
    conn.close()
    before = digest(foreign)
    one_line(*mjtable(*RUN, "--journal", str(foreign)), str(foreign), "not an mjtable journal")
    assert digest(foreign) == before


def test_run_journal_cut_short(journal: Path) -> None:
    with journal.open("r+b") as f:
        f.truncate(journal.stat().st_size // 2)
    before = digest(journal)
    err = one_line(*mjtable(*RUN, "--journal", str(journal)), str(journal), "cut short")
    assert "damaged journal" in err
    assert digest(journal) == before
    code, verify = mjtable("journal", "verify", str(journal))
    assert code == 2 and "cut short" in one_line(code, verify)


def test_run_journal_empty_file_is_refused_not_made_a_journal(tmp_path: Path) -> None:
    empty = tmp_path / "table.journal"
    empty.touch()
    err = one_line(*mjtable(*RUN, "--journal", str(empty)), str(empty), "empty file (0 bytes)")
    assert empty.stat().st_size == 0
    code, verify = mjtable("journal", "verify", str(empty))
    assert code == 2
    assert one_line(code, verify).removeprefix("mjtable journal: ") == err.removeprefix(
        "mjtable run: "
    )


def test_run_journal_in_a_missing_folder_creates_no_folder(tmp_path: Path) -> None:
    target = tmp_path / "no-such-dir" / "table.journal"
    one_line(*mjtable(*RUN, "--journal", str(target)), str(target), "no such folder")
    assert not target.parent.exists()


def _read_only_prefix(folder: Path) -> tuple[str, ...]:
    """Make `folder` a read-only location for the child: a read-only bind mount in a mount
    namespace of its own when run as root (root writes through any mode bits), else the
    mode bits. Skips only where neither is possible."""
    if os.geteuid() != 0:
        for p in (folder, *folder.iterdir()):
            p.chmod(0o555 if p.is_dir() else 0o444)
        return ()
    unshare = shutil.which("unshare")
    probe = subprocess.run([unshare or "unshare", "-m", "true"], capture_output=True)
    if unshare is None or probe.returncode != 0:
        pytest.skip("root without mount namespaces: no read-only location to test with")
    d = str(folder)
    script = f'mount --bind "{d}" "{d}" && mount -o remount,ro,bind "{d}" "{d}" && exec "$0" "$@"'
    return (unshare, "-m", "sh", "-c", script)


def test_run_journal_on_a_read_only_location(journal: Path) -> None:
    before = digest(journal)
    prefix = _read_only_prefix(journal.parent)
    try:
        code, err = mjtable(*RUN, "--journal", str(journal), prefix=prefix)
    finally:
        journal.parent.chmod(0o755)
        journal.chmod(0o644)
    one_line(code, err, str(journal), "read-only")
    assert digest(journal) == before
    assert sorted(p.name for p in journal.parent.iterdir()) == [journal.name]


# --- run: settings, tags, the web port -----------------------------------------------------


def test_run_config_that_is_binary(tmp_path: Path) -> None:
    config = tmp_path / "mjtable.toml"
    config.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    run = [a for a in RUN if a not in ("--config", os.devnull)]
    one_line(*mjtable(*run, "--config", str(config)), str(config), "not UTF-8")


def test_run_tag_map_one_tag_short(tmp_path: Path) -> None:
    full = (ROOT / "hw_profiles" / "tags" / "sim-108.toml").read_text()
    tags = tmp_path / "club.toml"
    tags.write_text("".join(line for line in full.splitlines(True) if '"9s#4"' not in line))
    journal = tmp_path / "t.journal"
    err = one_line(*mjtable(*RUN, "--journal", str(journal), "--tags", str(tags)), str(tags))
    assert "107 tags for the 108-tile set: no tag for 9s#4" in err
    assert not journal.exists()


def test_run_http_port_taken(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = [a for a in RUN if a not in ("--http", "127.0.0.1:0")]
        code, err = mjtable(*run, "--http", f"127.0.0.1:{port}", "--journal", str(tmp_path / "j"))
    one_line(code, err, f"127.0.0.1:{port}", "cannot listen")


def test_regression_a_busy_port_leaves_no_journal_behind(tmp_path: Path) -> None:
    """The journal was opened (created) before the port was bound: a busy port left a new,
    empty journal behind. The port is bound first now."""
    journal = tmp_path / "new.journal"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = [a for a in RUN if a not in ("--http", "127.0.0.1:0")]
        code, err = mjtable(*run, "--http", f"127.0.0.1:{port}", "--journal", str(journal))
    one_line(code, err, f"127.0.0.1:{port}")
    assert list(tmp_path.iterdir()) == []


def test_run_rules_typo_is_reported_by_run_not_the_simulator(tmp_path: Path) -> None:
    """`--rules` with a typo was reported by the child simulator ("the simulator exited
    (2) before its devices"); run checks the names itself before starting it."""
    journal = tmp_path / "t.journal"
    args = ["run", "--rules", "sbr-mli", "--journal", str(journal), "--config", os.devnull]
    err = one_line(*mjtable(*args, "--http", "127.0.0.1:0"), "'sbr-mli'", "unknown rule set")
    assert err.startswith("mjtable run: ")
    assert not journal.exists()


def test_run_journal_on_a_full_disk(tmp_path: Path) -> None:
    """A journal on a file system that fills up during play: the daemon stops with one line
    naming the journal (the "internal-error" alert it tried to write failed too, with a
    traceback), and every record committed before verifies."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and mount namespaces for a small tmpfs")
    disk = tmp_path / "disk"
    disk.mkdir()
    journal = disk / "t.journal"
    run = [sys.executable, "-m", "controller", "run", "--fast", "--deals", "3", "--journal",
           str(journal), "--http", "127.0.0.1:0", "--config", os.devnull]  # fmt: skip
    verify = [sys.executable, "-m", "controller", "journal", "verify", str(journal)]
    script = (
        f'mount -t tmpfs -o size=400k tmpfs "{disk}" || exit 99; '
        f'"$@" 2>"{tmp_path}/err" >/dev/null; echo "run $?"; '
        f'{" ".join(verify)} >"{tmp_path}/verify" 2>&1; echo "verify $?"'
    )
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("no mount namespaces here")
    out = subprocess.run(
        ["unshare", "-m", "sh", "-c", script, "sh", *run],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.stdout.split() == ["run", "1", "verify", "0"], (out.stdout, out.stderr)
    err = (tmp_path / "err").read_text()
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == f"mjtable run: {journal}: database or disk is full"
    assert (tmp_path / "verify").read_text().startswith(f"{journal}: ok, ")


def test_bench_recognition_with_a_reader_profile_typo_is_one_line() -> None:
    """The campaign picks the simulated tiles' tag map from the reader profile's model (an
    ISO 15693 reader's tiles carry ICODE UIDs): a profile that does not exist is one line,
    before any simulator or daemon starts."""
    code, err = mjtable("bench", "recognition", "--reader-profile", "sim-fieg", "--deals", "1")
    assert code == 2 and "Traceback" not in err
    assert err.strip() == (
        "mjtable bench recognition: hw_profiles/readers/sim-fieg.toml: top level: no such profile"
    )


# --- sim: values refused by argparse --------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--speed", "0", "must be more than 0"),
        ("--glimpse", "0", "must be at least 1"),
        ("--max-moves", "-1", "must be 0 or more"),
    ],
)
def test_sim_refuses_values(option: str, value: str, message: str) -> None:
    code, err = mjtable("sim", option, value)
    assert code == 2
    assert "Traceback" not in err
    assert (
        err.strip().splitlines()[-1]
        == f"mjtable sim: error: argument {option}: {message}, not {value}"
    )


# --- judge, journal verify / export --------------------------------------------------------


def test_judge_deeply_nested_json(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    one_line(*mjtable("judge", str(deep)), str(deep), "nested too deeply")


def test_judge_record_with_null_dealer(tmp_path: Path) -> None:
    code, _ = mjtable("judge", "--random", "1", "--save-records", str(tmp_path))
    assert code == 0
    (saved,) = tmp_path.glob("*.json")
    record = json.loads(saved.read_text())
    record["dealer"] = None
    saved.write_text(json.dumps(record))
    err = one_line(*mjtable("judge", str(saved)), str(saved))
    assert err.endswith('dealer: null: the dealer is "E" (seats are those of the deal)')


def test_journal_export_to_a_missing_folder(journal: Path) -> None:
    code, err = mjtable("journal", "export", "-o", "/nonexistent/x", str(journal))
    assert code == 2
    assert (
        one_line(code, err)
        == "mjtable journal: /nonexistent/x: cannot write: No such file or directory"
    )


def test_verify_hash_mismatch_prints_full_hashes(journal: Path) -> None:
    raw = sqlite3.connect(journal)
    raw.execute("DROP TRIGGER record_append_only_update")
    raw.execute('UPDATE record SET payload = \'{"device":"reader","hex":"00"}\' WHERE seq = 7')
    raw.commit()
    stored = raw.execute("SELECT hash FROM record WHERE seq = 7").fetchone()[0]
    raw.close()
    code, err = mjtable("journal", "verify", str(journal))
    assert code == 1
    line = err.splitlines()[0]
    assert "record 7: hash mismatch: content hashes to " in line
    computed = line.split("content hashes to ")[1].split(",")[0]
    assert len(computed) == 64 and line.endswith(f"stored {stored}")


def test_a_table_error_no_sub_command_caught_is_one_line_and_exit_2(monkeypatch, capsys):
    """Issue 25 item 6: the command line is the edge of the error tree: any `TableError` a
    sub-command leaves is said in one line, never a traceback."""
    import controller.cli.waits as waits
    from controller.cli import main
    from rules.wall import WallError

    def fails(args) -> int:
        raise WallError("the wall holds 3 copies of 5p, not 4")

    monkeypatch.setattr(waits, "run", fails)
    assert main(["waits", "123m"]) == 2
    err = capsys.readouterr().err
    assert err == "mjtable waits: the wall holds 3 copies of 5p, not 4\n"


# --- issue 28 item 12: what a newcomer met --------------------------------------------------


def test_regression_hub_on_a_busy_port_printed_a_traceback(tmp_path: Path) -> None:
    """`mjtable hub --http 127.0.0.1:PORT` on a taken port ended in a traceback (OSError 98);
    the heads file it was asked for is not created either."""
    heads = tmp_path / "heads.jsonl"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, err = mjtable(
            "hub", "--broker", "127.0.0.1:1", "--http", f"127.0.0.1:{port}", "--heads", str(heads)
        )
    one_line(code, err, f"127.0.0.1:{port}", "cannot listen")
    assert not heads.exists()


def test_regression_journal_export_into_a_closed_pipe_complained(journal: Path) -> None:
    """`mjtable journal export J | head -3` said "mjtable journal: None: cannot write: Broken
    pipe": the reader has what it wanted, a quiet exit."""
    proc = subprocess.run(
        f"{sys.executable} -m controller journal export {journal} | head -3",
        shell=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert len(proc.stdout.splitlines()) == 3
    assert proc.stderr == ""


def test_regression_report_into_a_folder_named_a_temporary_file(journal: Path) -> None:
    """`mjtable report J -o somedir` said "[Errno 21] Is a directory: '/…/.somedir.hzwu4dx4'
    -> …": the folder is named, with what to write instead, and nothing is left in it."""
    folder = journal.parent / "somedir"
    folder.mkdir()
    code, err = mjtable("report", str(journal), "-o", str(folder))
    line = one_line(code, err, str(folder), "is a folder")
    assert ".somedir." not in line
    assert list(folder.iterdir()) == []
    assert sorted(p.name for p in journal.parent.iterdir()) == ["somedir", "table.journal"]


def test_regression_a_bad_broker_address_left_a_new_journal_behind(tmp_path: Path) -> None:
    """`mjtable run --mqtt 127.0.0.1:99999 --journal m.journal` was refused after it had
    created m.journal: everything is checked before anything is created."""
    journal = tmp_path / "m.journal"
    code, err = mjtable(*RUN, "--mqtt", "127.0.0.1:99999", "--journal", str(journal))
    one_line(code, err, "127.0.0.1:99999")
    assert list(tmp_path.iterdir()) == []
