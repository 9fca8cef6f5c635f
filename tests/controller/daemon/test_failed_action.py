"""Campaign tiles seed 501: the core loop failed on a referee action (a settlement the
machine refused), and the page's handler then failed too ("'NoneType' object has no
attribute 'reason'", a traceback and no answer). The action is answered as unavailable,
the failure journalled as an `internal-error` alert."""

from __future__ import annotations

import threading
from types import SimpleNamespace

from rig import Rig

from controller.daemon.app import Daemon
from controller.daemon.runtime import Stop
from controller.journal.records import RecordKind
from controller.outputs.scoreboard import ActionKind, RefereeAction, RejectReason


def test_regression_a_referee_action_the_core_fails_on_is_answered_not_raised(rig: Rig):
    def fails(action):
        raise RuntimeError("a fault on the core")

    rig.rt.desk.act = fails  # the fault injected: the real core loop runs it
    core = threading.Thread(target=rig.rt.run, daemon=True)
    core.start()
    try:
        action = RefereeAction(ActionKind.ABANDON, confirmed=True, note="t")
        result = Daemon._referee_action(SimpleNamespace(runtime=rig.rt), action)
    finally:
        rig.rt.put(Stop("test"))
        core.join(5)
    assert not result.accepted and result.reason is RejectReason.UNAVAILABLE
    assert "failed" in result.detail
    codes = [r.data()["code"] for r in rig.records(RecordKind.ALERT)]
    assert "internal-error" in codes
