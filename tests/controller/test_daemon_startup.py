"""What `mjtable run` imports before it is ready (issue 17 item 6: start-up and READY=1
under 0.5 s). A budget on something deterministic, not a timed test: the modules a real
daemon (loop:// devices, its journal on disk) has imported when its READY=1 datagram
arrives, read from its own `-X importtime` lines. Times are `mjtable bench daemon`'s."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from real_things import end_process

ROOT = Path(__file__).resolve().parents[2]

# counted at the change that deferred the referee tools and the web server's email parsing:
# 272 modules in all, 96 of this project's once merged with main at 858c982 (main there:
# 297 and 101); a new import at start-up should be a choice, made here (it caught the
# restored result screen's rebuild, whose referee tools are now imported only when there
# is a result to show again); 103 of this project's after issue 25's shared names (the error
# tree in rules/errors.py and controller/errors.py, controller/alerts.py, the journal's
# package, the desk's LiveDeal side in referee_side.py): small modules, chosen; 107 with
# the judge's one module per concern (issue 26: deal_draws, deal_claims, deal_kongs, deal_hu,
# deal_void, deal_moves), the table's players (daemon/lineup.py) and its language
# (controller/locale); 108 with the referee's call as one value (daemon/referee_call.py,
# issue 27); 109 with the recogniser's alerts made as sentences where they are raised
# (recognition/alert_said.py, issue 33), again once the judge's copy was cheap enough to
# make on a move's way (`State.copy`: the copy made while the core was idle, issue 25's push
# path, went with its module); a FEIG reader's poller is imported
# only where one is polled, the recogniser's words read back only by a report or a replay
MAX_MODULES = 280
MAX_OWN_MODULES = 109
# needed only once someone acts: a correction (the referee tools' rebuild, trial and
# session; `controller.referee.journal_deal` is read at every start, its READ_KINDS tell
# the replay which records a rebuild needs), a web request (headers, cookies); ctypes only
# for `mjtable run`'s simulator child (`controller.cli.run._libc`)
NOT_AT_START = (
    "controller.referee.rebuild", "controller.referee.trial", "controller.referee.session",
    "controller.recognised_words",
    "email", "http.cookies", "http.client", "ssl", "asyncio", "ctypes",
)  # fmt: skip


def modules_imported_by_ready(tmp_path: Path) -> list[str]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(60)
    env = {**os.environ, "NOTIFY_SOCKET": str(path)}
    cmd = [
        sys.executable, "-X", "importtime", "-m", "controller", "run",
        "--table", "loop://", "--reader", "loop://", "--journal", str(tmp_path / "j.journal"),
        "--http", "127.0.0.1:0", "--config", os.devnull,
    ]  # fmt: skip
    err = tmp_path / "stderr"
    with err.open("wb") as stderr:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            while b"READY=1" not in sock.recv(4096).split(b"\n"):
                pass
            names = [
                line.rsplit("|", 1)[1].strip()
                for line in err.read_text().splitlines()
                if line.startswith("import time:") and "|" in line
            ]
        finally:
            end_process(proc)
            sock.close()
    return [n for n in names if n != "imported package"]  # the header line's last column


def test_start_up_imports_stay_within_budget(tmp_path):
    names = modules_imported_by_ready(tmp_path)
    own = [n for n in names if n.split(".")[0] in ("controller", "rules", "tools")]
    assert "controller.daemon.app" in own and "rules.deal" in own  # the real daemon started
    early = [n for n in names if n.startswith(NOT_AT_START)]
    assert early == [], f"imported before READY=1: {early}"
    assert len(own) <= MAX_OWN_MODULES, f"{len(own)} of this project's modules: {sorted(own)}"
    assert len(names) <= MAX_MODULES, f"{len(names)} modules"
