"""The campaign harness's account of a daemon that never finished (tools/campaign/procs.py
`journal_tail`): what its journal last says, without the device input between."""

from controller.journal.records import RecordKind, Source
from controller.journal.store import Journal
from tools.campaign.procs import journal_tail


def test_the_tail_names_the_last_records_and_leaves_out_device_input(tmp_path):
    path = tmp_path / "table.journal"
    with Journal.open(path) as j:
        for n in range(4):
            j.append(Source.DAEMON, RecordKind.ALERT, {"code": f"code-{n}", "message": "m"})
            j.append(Source.READER, RecordKind.HW_FRAME, {"device": "reader", "hex": "00ff"})
    lines = journal_tail(path, n=3).splitlines()
    assert [line.split()[:2] for line in lines] == [["3", "alert"], ["5", "alert"], ["7", "alert"]]
    assert '"code-3"' in lines[-1] and "hw.frame" not in journal_tail(path)


def test_a_journal_not_yet_written_has_an_empty_tail(tmp_path):
    assert journal_tail(tmp_path / "none.journal") == ""
