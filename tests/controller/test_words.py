"""controller/words.py: what the referee page, the terminal and the hall page say instead of
raw names (issue 16 items 5, 7, 9)."""

from __future__ import annotations

import json

import pytest

from controller.daemon.contracts import tail_line
from controller.journal.records import RecordKind, Source
from controller.journal.store import Journal
from controller.words import alert_words, in_words, move_words, phase_words, plural, record_words


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"seat": "S", "move": "discard", "tile": "5p"}, "South discards 5 Dots"),
        (
            {"seat": "W", "move": "pung", "tile": "5p", "from_seat": "S"},
            "West pungs 5 Dots from South",
        ),
        ({"seat": "E", "move": "draw"}, "East draws (tile not read)"),
        (
            {"seat": "N", "move": "hu", "tile": "3s", "self_drawn": True},
            "North declares a self-drawn Hu on 3 Bamboo",
        ),
        (
            {"seat": "E", "move": "concealed-kong", "tile": "7z"},
            "East declares a concealed kong of Red dragon",
        ),
        (
            {"seat": "S", "move": "void", "suit": "m", "tile": "2m"},
            "South chooses Characters as void suit: 2 Characters",
        ),
    ],
)
def test_moves_in_words(data, said) -> None:
    assert move_words(data) == said


def test_alerts_name_seats_and_tiles_in_words() -> None:
    assert (
        alert_words(
            "void-discard-order", "S discarded 8m while holding void-suit p tiles (lenient)"
        )
        == "Void discard order: South discarded 8 Characters while holding void-suit Dots tiles (lenient)"
    )
    # Hu is a name: "False Hu", never "False hu" (issue 16, `mjtable run`'s alert lines)
    assert alert_words("false-hu", "E declared Hu without a winning hand") == (
        "False Hu: East declared Hu without a winning hand"
    )
    # a seat is a lone capital; words that start with one stay as they are
    assert (
        in_words("E drew 3p — not read; Every NE move")
        == "East drew 3 Dots — not read; Every NE move"
    )


def test_records_in_words() -> None:
    assert (
        record_words(
            "claim.window",
            {
                "state": "closed",
                "tile": "8s",
                "discarder": "E",
                "claims": {"S": "pung"},
                "closed_by": "all-answered",
            },
        )
        == "claims closed on 8 Bamboo from East: South pung (all answered)"
    )
    assert (
        record_words(
            "correction",
            {
                "action": "penalty",
                "corrects": 40,
                "referee": "Li",
                "reason": "false Hu",
                "details": {"seat": "N", "points": 8, "paid_to": None},
            },
        )
        == "referee Li: penalty of #40: North pays 8 points to nobody — false Hu"
    )
    assert record_words(
        "deal.settled", {"deal": 3, "deltas": [9, -3, -3, -3], "end": "three-won"}
    ) == ("deal 3 settled (three won): E +9 S -3 W -3 N -3")
    assert record_words("table.phase", {"to": "playing.claim_window"}) == "table: claims open"


def test_the_journal_panel_line_is_seq_time_words(tmp_path) -> None:
    with Journal.open(tmp_path / "t.journal") as j:
        j.append(Source.DAEMON, RecordKind.SESSION_STARTED, {"session": 1, "rules": "sbr-mil"})
        rec = j.append(
            Source.DAEMON, RecordKind.ALERT, {"code": "stalled", "message": "W holds 15 tiles"}
        )
    seq, wall, words, said = tail_line(rec).split("\t")
    assert (int(seq), wall, words) == (rec.seq, rec.wall, "Stalled: West holds 15 tiles")
    assert "{" not in words and json.loads(rec.payload)["code"] == "stalled"
    # the same words as a sentence for a page in another language (controller/locale Said)
    assert json.loads(said) == {
        "msgid": "{title}: {message}",
        "args": {"title": {"msgid": "Stalled"}, "message": "West holds 15 tiles"},
    }


def test_phases_and_plurals() -> None:
    assert phase_words("playing.awaiting_discard", "E") == "East to discard"
    assert phase_words("playing.awaiting_draw") == "waiting for a draw"
    assert phase_words("settled") == "deal settled" and phase_words(None) == "not known"
    assert (plural(1, "tile"), plural(2, "tile"), plural(1, "stack")) == (
        "1 tile",
        "2 tiles",
        "1 stack",
    )


def test_regression_a_russian_window_line_agrees_with_its_noun():
    """The journal panel said «окно грабежа конга закрыты» (one sentence for claims and a
    kong's robbing window, the verb in the plural of «заявки»): each kind has its own."""
    from controller.locale import Language, translator
    from controller.words import record_said

    ru = translator(Language.RU)
    robbing = {"kind": "robbing", "tile": "5p", "discarder": "E", "state": "closed",
               "claims": {"S": "hu"}, "closed_by": "all-answered"}  # fmt: skip
    claims = {**robbing, "kind": "discard", "state": "open"}
    said = record_said("claim.window", robbing)
    assert str(said) == "robbing window closed on 5 Dots from East: South Hu (all answered)"
    assert said.say(ru) == (
        "окно грабежа конга на 5 точек (конг: Восток) закрыто: Юг: Ху (ответили все)"
    )
    assert record_said("claim.window", claims).say(ru) == (
        "заявки на 5 точек (сбросил Восток) открыты"
    )
