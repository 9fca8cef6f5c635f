"""The referee page's actions through the real daemon (issue 13): `mjtable run` against its
simulator, the referee API on its real web server, the journal read back. A move the judge
refuses changes nothing and says why; a confirmed penalty is journalled as a correction and
undone; the deal goes on and settles."""

import json
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from harness import ENV, ROOT, kill, wait_for

from controller.journal.records import RecordKind
from controller.journal.store import Journal
from tools.campaign.referee import TOKEN, config_text
from tools.campaign.run import free_port

pytestmark = pytest.mark.slow


def post(url: str, action: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        url + "/referee/api/action",
        data=json.dumps(action).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_referee_actions_on_a_running_daemon(tmp_path):
    journal = tmp_path / "t.journal"
    config = tmp_path / "mjtable.toml"
    config.write_text(config_text())
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, "-m", "controller", "run", "--fast", "--seed", "3", "--deals", "1",
        "--journal", str(journal), "--http", f"127.0.0.1:{port}", "--config", str(config),
    ]  # fmt: skip
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT
    )
    try:
        drew = wait_for(
            journal,
            lambda r: r.kind is RecordKind.MOVE_ACCEPTED and r.data()["move"] == "draw",
            timeout=120,
        )
        assert drew, "no draw accepted"
        # a draw out of turn or of a tile the wall does not hold next: the judge's reason
        status, result = post(url, {"kind": "move", "seat": "S", "move": "draw", "tile": "1m"})
        assert status == 409 and not result["accepted"]
        assert result["detail"].startswith("the judge refuses S draw 1m")
        status, result = post(url, {"kind": "penalty", "seat": "N", "points": 8})
        assert status == 400 and "confirmed" in result["detail"]
        yes = {"kind": "penalty", "seat": "N", "points": 8, "confirmed": True, "note": "test"}
        status, result = post(url, yes)
        assert status == 200 and result["accepted"], result
        penalty = result["seq"]
        status, result = post(url, {"kind": "undo", "target_seq": penalty, "note": "my error"})
        assert status == 200 and result["accepted"], result
        assert proc.wait(240) == 0, proc.stderr.read()[-2000:]
    finally:
        kill(proc)
    with Journal.open_readonly(journal) as j:
        assert j.verify().ok
        corrections = [r.data() for r in j.records() if r.kind is RecordKind.CORRECTION]
        settled = [r.data() for r in j.records() if r.kind is RecordKind.DEAL_SETTLED]
    # (a Bearer token gives no name: "referee", never the address)
    assert [(c["action"], c["referee"]) for c in corrections] == [
        ("penalty", "referee"),
        ("withdraw", "referee"),
    ]
    assert len(settled) == 1
    assert not any("penalty" in line["rule"].lower() for line in settled[0]["ledger"])
