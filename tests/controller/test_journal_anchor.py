"""Evidence of truncation outside the journal's disk (issue 15 item 5). One flipped byte in
the `-wal` file makes SQLite drop every later frame; the chain that is left verifies, so
`mjtable journal verify` said ok with records missing. The chain head of each settled deal,
kept elsewhere (the hub, the referee page, the printed report), is an anchor: `verify
--anchor SEQ:HASH` / `--anchors FILE` names the records that are gone."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.journal.records import RecordKind, Source
from controller.journal.store import Journal
from controller.journal.verify import Anchor

ROOT = Path(__file__).resolve().parents[2]


def verify(*args: str) -> tuple[int, str, str]:
    out = subprocess.run(
        [sys.executable, "-m", "controller", "journal", "verify", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    return out.returncode, out.stdout, out.stderr


def _deal(journal: Journal, n: int) -> tuple[int, str]:
    """A deal started, 40 alerts in it, settled; the settlement's (seq, hash)."""
    started = {
        "deal": n,
        "rules": "sbr-mil",
        "dealer": "E",
        "dice": [3, 4],
        "players": list("ESWN"),
    }
    journal.append(Source.DAEMON, RecordKind.DEAL_STARTED, started, deal=n)
    for i in range(40):
        payload = {"code": "note", "message": f"deal {n} step {i} " + "x" * 200}
        journal.append(Source.DAEMON, RecordKind.ALERT, payload, deal=n)
    settled = {"deal": n, "winners": [], "deltas": [0, 0, 0, 0], "ledger": [], "end": "referee"}
    rec = journal.append(Source.JUDGE, RecordKind.DEAL_SETTLED, settled, deal=n)
    return rec.seq, rec.hash


@pytest.fixture
def crashed(tmp_path: Path) -> tuple[Path, list[tuple[int, str]]]:
    """A journal as a power cut leaves it (every record still in its `-wal`), with the
    settled deals' chain heads as the daemon published them."""
    live = tmp_path / "live" / "t.journal"
    live.parent.mkdir()
    image = tmp_path / "t.journal"
    with Journal.open(live) as journal:
        journal.set_autocheckpoint(0)  # nothing copied into the database file
        heads = [_deal(journal, n) for n in (1, 2, 3)]
        for suffix in ("", "-wal"):  # the files as they are on the disk at the cut
            shutil.copyfile(f"{live}{suffix}", f"{image}{suffix}")
    return image, heads


def test_regression_a_damaged_wal_loses_records_that_only_an_anchor_shows(crashed):
    image, heads = crashed
    code, out, _ = verify(str(image))
    assert code == 0 and f"{heads[-1][0]} records" in out  # intact: every record there
    wal = Path(f"{image}-wal")
    data = bytearray(wal.read_bytes())
    data[len(data) // 2] ^= 0x40  # one flipped byte, halfway through the WAL
    wal.write_bytes(bytes(data))

    code, out, err = verify(str(image))
    assert code == 0, err  # what verify said before: ok, with records silently gone
    held = int(out.split(", ")[1].split()[0])
    assert 0 < held < heads[-1][0]

    last = f"{heads[-1][0]}:{heads[-1][1]}"
    code, out, err = verify(str(image), "--anchor", last)
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in err
    assert f"record {heads[-1][0]}: records missing" in lines[0]
    assert f"the journal ends at record {held}" in lines[0]
    assert f"{heads[-1][0] - held} records are gone" in lines[0]
    assert "1 of 1 anchors are not in it" in lines[1]

    first = f"{heads[0][0]}:{heads[0][1]}"  # a head from before the damage still holds
    code, out, _ = verify(str(image), "--anchor", first)
    assert code == 0 and "1 anchors held" in out


def test_the_heads_the_hub_kept_check_one_table(crashed, tmp_path):
    image, heads = crashed
    kept = tmp_path / "heads.jsonl"
    lines = [
        {"hall": "h", "table": "t1", "session": 1, "deal": n, "seq": seq, "hash": digest}
        for n, (seq, digest) in enumerate(heads, 1)
    ]
    lines.append(
        {"hall": "h", "table": "t2", "session": 1, "deal": 1, "seq": 9999, "hash": "0" * 64}
    )
    kept.write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, out, err = verify(str(image), "--anchors", str(kept), "--table", "t1")
    assert code == 0 and "3 anchors held" in out, err
    code, _, err = verify(str(image), "--anchors", str(kept), "--table", "t2")
    assert code == 1 and "record 9999: records missing" in err
    code, _, err = verify(str(image), "--anchors", str(kept))
    assert code == 2 and err.strip() == (
        f"mjtable journal: {kept}: heads of several tables (t1, t2): name one with --table"
    )


def test_an_anchor_with_another_hash_is_named(crashed):
    image, heads = crashed
    seq, digest = heads[1]
    other = ("0" if digest[0] != "0" else "1") + digest[1:]
    code, _, err = verify(str(image), "--anchor", f"{seq}:{other}")
    assert code == 1
    assert f"record {seq}: anchor mismatch: the journal's record {seq} has hash {digest}" in err


@pytest.mark.parametrize("text", ["12", "x:ab", "0:" + "a" * 64, "5:" + "g" * 64, "5:abc"])
def test_a_bad_anchor_is_one_line(crashed, text):
    code, _, err = verify(str(crashed[0]), "--anchor", text)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert repr(text) in err
    with pytest.raises(ValueError):
        Anchor.parse(text)
