"""Rulebook readings (issue 14): places where the judge follows one reading of its sources,
each a rule-set parameter. For each, a hand-written deal record with the deltas worked out
by hand, and the other reading reached by flipping the parameter.

The records are written as a referee would (docs/DEAL-RECORD.md): the dealt hands as read
(`hands`, the wall not scanned), so every draw names its tile.
"""

import json
from dataclasses import replace
from pathlib import Path

import pytest
from judge_helpers import deal_of, ok

from controller.cli import main
from rules.deal import Deal
from rules.moves import ChooseVoid, CloseClaims, Discard, Pung, Reason, VoidSetDeclared
from rules.record import FORMAT, RecordError, from_record, judge
from rules.ruleset import VoidSet, load
from rules.seats import Seat
from rules.tiles import Suit, Tile, parse_tiles

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N
ROOT = Path(__file__).resolve().parents[2]


def record(rules: str, hands: dict[str, str], moves: list[dict]) -> dict:
    return {
        "format": FORMAT,
        "version": 1,
        "rules": rules,
        "dice": [6, 4],
        "hands": hands,
        "moves": moves,
    }


def with_play(rules: str, **changes):
    rs = load(rules)
    return replace(rs, play=replace(rs.play, **changes))


def write(tmp_path: Path, obj: dict) -> str:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    return str(path)


def custom_rules(tmp_path: Path, rules: str, old: str, new: str) -> str:
    """A rule-set file: a shipped one with the line `old` replaced by `new`."""
    text = (ROOT / "rules" / "rulesets" / f"{rules}.toml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / f"{rules}-flipped.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


def judged_json(capsys, *args: str) -> dict:
    assert main(["judge", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def lines(deal) -> list[tuple]:
    return [(x.payer, x.payee, x.points) for x in deal.ledger().lines]


# -- 1. a declared set of the void suit is penalised, not refused (004 Lesson 5) -----------

# Every player is void in Characters. S holds 55m and 77m besides its laid 1m, and pungs
# both E's laid 5m and W's laid 7m.
VOID_SET_HANDS = {
    "E": "5m123456789p1234s",  # lays 5m
    "S": "1m55m77m2345p6789s",  # lays 1m
    "W": "7m112233s445566p",  # lays 7m
    "N": "9m123p556677889s",  # lays 9m
}
VOID_SET_MOVES = [
    {"seat": "E", "move": "void", "suit": "m", "tile": "5m"},
    {"seat": "S", "move": "void", "suit": "m", "tile": "1m"},
    {"seat": "W", "move": "void", "suit": "m", "tile": "7m"},
    {"seat": "N", "move": "void", "suit": "m", "tile": "9m"},
    {"seat": "E", "move": "discard", "tile": "5m"},
    {"seat": "S", "move": "pung"},  # a set of S's void suit: accepted, 48 to nobody
    {"move": "close-claims"},
    {"seat": "S", "move": "discard", "tile": "1m"},  # the laid tile goes first
    {"move": "close-claims"},
    {"seat": "W", "move": "draw", "tile": "9p"},
    {"seat": "W", "move": "discard", "tile": "7m"},
    {"seat": "S", "move": "pung"},  # again: the void penalty is charged once a deal
    {"move": "close-claims"},
    {"seat": "S", "move": "discard", "tile": "2p"},
    {"move": "close-claims"},
    {"seat": "W", "move": "draw", "tile": "9p"},
    {"seat": "W", "move": "discard", "tile": "9p"},
    {"move": "close-claims"},
    {"move": "end-deal", "note": "session time is over"},
]


def test_a_pung_of_the_void_suit_is_accepted_and_penalised_once():
    # 004 Lesson 5: "When a set of forbidden suit tiles is declared, the player always
    # receives a penalty of 48 points". By hand: S pays 48 to nobody at its first pung of
    # Characters and nothing more at the second (once a deal, as the void penalty); nobody
    # else pays or receives anything (the deal ends on time: no wall-end check).
    # Deltas E 0, S -48, W 0, N 0; 48 paid to nobody.
    rec = from_record(record("sbr-mil", VOID_SET_HANDS, VOID_SET_MOVES))
    deal = judge(rec)
    assert lines(deal) == [(S, None, 48)]
    assert deal.deltas() == (0, -48, 0, 0)
    assert deal.ledger().to_nobody() == 48
    assert [str(m) for m in deal.melds(S)] == ["pung 5m", "pung 7m"]
    assert "004 Lesson 5" in deal.ledger().lines[0].rule


def test_the_void_set_is_reported_to_the_referee():
    rec = from_record(record("sbr-mil", VOID_SET_HANDS, VOID_SET_MOVES))
    hands = {Seat[k]: parse_tiles(v) for k, v in VOID_SET_HANDS.items()}
    deal = Deal.start_dealt(load("sbr-mil"), rec.dice, hands)
    reported = []
    for move in rec.moves:
        result = deal.apply(move)
        assert result, result
        reported += [f for f in result.facts if isinstance(f, VoidSetDeclared)]
    assert [(f.seat, str(f.meld), f.penalty) for f in reported] == [
        (S, "pung 5m", 48),
        (S, "pung 7m", 0),
    ]


@pytest.mark.parametrize("rules", ["sbr-mil", "sbr-russia", "sbr-chengdu2016", "wmt"])
def test_every_sichuan_set_accepts_a_void_set(rules):
    assert load(rules).play.void_suit_set is VoidSet.PENALIZED


def test_the_old_reading_refuses_the_void_pung():
    rec = from_record(record("sbr-mil", VOID_SET_HANDS, VOID_SET_MOVES))
    with pytest.raises(RecordError) as info:
        judge(rec, with_play("sbr-mil", void_suit_set=VoidSet.REFUSED))
    assert info.value.reason is Reason.VOID_SUIT_CLAIM
    assert info.value.index == 5  # S's pung of 5m


def test_mjtable_judge_follows_the_void_set_reading(tmp_path, capsys):
    path = write(tmp_path, record("sbr-mil", VOID_SET_HANDS, VOID_SET_MOVES))
    assert judged_json(capsys, path)["deltas"] == [0, -48, 0, 0]
    flipped = custom_rules(
        tmp_path, "sbr-mil", 'void-suit-set = "penalized"', 'void-suit-set = "refused"'
    )
    assert main(["judge", "--rules", flipped, path]) == 1
    assert "is refused: void-suit-claim: 5m is of S's void suit m" in capsys.readouterr().err


def test_a_void_pung_may_take_the_laid_face_down_tile():
    # S lays 5m face down and holds one more: the pung of E's 5m takes both, so nothing is
    # left to be S's mandatory first discard (as for a concealed kong of the void suit)
    hands = dict(VOID_SET_HANDS, S="55m2345p6789s123s")
    d = deal_of("sbr-mil", hands)
    ok(d, ChooseVoid(E, Suit.M, Tile.M5), ChooseVoid(S, Suit.M, Tile.M5))
    ok(d, ChooseVoid(W, Suit.M, Tile.M7), ChooseVoid(N, Suit.M, Tile.M9))
    ok(d, Discard(E, Tile.M5), Pung(S), CloseClaims())
    assert d.laid_tile(S) is None
    ok(d, Discard(S, Tile.P2))
    assert lines(d) == [(S, None, 48)]
