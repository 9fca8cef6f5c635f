"""Deal records: hand-written records re-judged to hand-worked ledgers, the documented errors
for malformed records and refused moves (docs/DEAL-RECORD.md), and round trips of bot deals
through JSON text."""

import copy
import json

import pytest
from hypothesis import given, settings, strategies as st

from rules.bots import play_deal
from rules.melds import MeldKind
from rules.moves import (
    ChooseVoid,
    Chow,
    CloseClaims,
    Correction,
    Discard,
    Draw,
    EndDeal,
    Hu,
    Kong,
    Pass,
    Penalty,
    Pung,
    Reason,
    ReplacementDraw,
    RobKong,
    SelfDrawnHu,
)
from rules.record import (
    FORMAT,
    RecordError,
    check_result,
    dumps,
    from_record,
    judge,
    loads,
    move_from_json,
    move_to_json,
    next_dealer,
    record_to_json,
    to_record,
)
from rules.ruleset import load
from rules.seats import Seat
from rules.tiles import Suit, Tile, parse_tiles
from rules.wall import Dice, compose

E, S, W, N = Seat.E, Seat.S, Seat.W, Seat.N

# E is dealt seven pairs of Characters (11223344556677m): a heavenly self-drawn Hu worth
# seven-pairs 2 + full-flush 2 = 4 fan (004 Table 4). S holds no Characters (indicator card
# for void m); W lays 9m, N lays 8m face down.
HANDS = {
    E: "11223344556677m",
    S: "123456789s1234p",
    W: "5678p99m1234567s",
    N: "99p88m2345678s11s",
}


def wall(live: str = "") -> list[str]:
    rs = load("sbr-mil")
    hands = {seat: parse_tiles(text) for seat, text in HANDS.items()}
    return [str(t) for t in compose(rs, Dice(6, 4), hands, parse_tiles(live))]


VOIDS = [
    {"t": 1.0, "seat": "E", "move": "void", "suit": "p"},
    {"t": 1.5, "seat": "S", "move": "void", "suit": "m"},
    {"t": 2.0, "seat": "W", "move": "void", "suit": "m", "tile": "9m"},
    {"t": 2.5, "seat": "N", "move": "void", "suit": "m", "tile": "8m"},
]


def record(moves: list[dict], rules: str = "sbr-mil", live: str = "") -> dict:
    return {
        "format": FORMAT,
        "version": 1,
        "rules": rules,
        "players": {"E": "Ann", "S": "Bo", "W": None, "N": None},
        "dealer": "E",
        "dice": [6, 4],
        "wall": wall(live),
        "moves": copy.deepcopy(VOIDS + moves),
    }


HEAVENLY = [{"t": 4.0, "seat": "E", "move": "self-drawn-hu"}]


def pays(deal) -> list[tuple]:
    return [(x.payer, x.payee, x.points) for x in deal.ledger().lines]


# -- hand-written records -----------------------------------------------------------------


def test_heavenly_seven_pairs_under_each_cap():
    rec = from_record(record(HEAVENLY))
    assert rec.players == ("Ann", "Bo", None, None)
    deal = judge(rec)
    # 004 Table 6: self-drawn, each player still in pays A + 1; sbr-mil caps 4 fan at 3: A=8
    assert pays(deal) == [(S, E, 9), (W, E, 9), (N, E, 9)]
    assert deal.deltas() == (27, -9, -9, -9)
    assert not deal.over and deal.turn is S  # blood battle: the deal goes on without E
    # re-judged under the 4-fan cap of sbr-russia (004 Lesson 5): A=16
    russia = judge(rec, load("sbr-russia"))
    assert russia.deltas() == (51, -17, -17, -17)


def test_correction_and_penalty_are_replayed():
    moves = [
        {"t": 4.0, "seat": "E", "move": "discard", "tile": "1m"},
        {"t": 4.3, "move": "correction", "undo": 1, "note": "discard retrieved"},
        {"t": 6.0, "seat": "S", "move": "penalty", "points": 4, "reason": "yellow card"},
        {"t": 7.0, "seat": "E", "move": "self-drawn-hu"},
    ]
    deal = judge(from_record(record(moves)))
    assert pays(deal) == [(S, None, 4), (S, E, 9), (W, E, 9), (N, E, 9)]
    assert deal.deltas() == (27, -13, -9, -9)
    assert deal.ledger().to_nobody() == 4


def test_claims_passes_and_close_claims():
    # E discards 7m; S has no 7m, W and N pass or stay silent; the window closes; S draws
    # the first live tile (5p, named in the record and checked against the wall)
    moves = [
        {"t": 4.0, "seat": "E", "move": "discard", "tile": "7m"},
        {"t": 4.5, "seat": "W", "move": "pass"},
        {"t": 7.0, "move": "close-claims"},
        {"t": 8.0, "seat": "S", "move": "draw", "tile": "5p"},
    ]
    deal = judge(from_record(record(moves, live="5p")))
    assert deal.turn is S and Tile.P5 in deal.hand(S) and len(deal.hand(S)) == 14
    assert deal.river(E) == (Tile.M7,)


def test_wall_as_one_string():
    obj = record(HEAVENLY)
    obj["wall"] = "".join(obj["wall"])
    assert judge(from_record(obj)).deltas() == (27, -9, -9, -9)


# -- refused moves --------------------------------------------------------------------------


def test_move_out_of_turn_names_the_move_and_the_reason():
    bad = {"t": 3.0, "seat": "S", "move": "discard", "tile": "1s"}
    with pytest.raises(RecordError) as info:
        judge(from_record(record([bad])))
    err = info.value
    assert err.index == 4 and err.field == "moves[4]"
    assert err.reason is Reason.NOT_YOUR_TURN
    assert err.move == bad
    assert str(err) == (
        'move 5 (moves[4]) {"t": 3.0, "seat": "S", "move": "discard", "tile": "1s"} '
        "is refused: not-your-turn: it is E's turn"
    )


def test_the_laid_void_tile_must_go_first():
    moves = [
        {"seat": "E", "move": "discard", "tile": "7m"},
        {"move": "close-claims"},
        {"seat": "S", "move": "draw"},
        {"seat": "S", "move": "discard", "tile": "1p"},
        {"move": "close-claims"},
        {"seat": "W", "move": "draw"},
        {"seat": "W", "move": "discard", "tile": "5p"},
    ]
    with pytest.raises(RecordError) as info:
        judge(from_record(record(moves)))
    assert info.value.reason is Reason.VOID_TILE_FIRST
    assert info.value.index == 10
    assert "the face-down 9m is W's first discard" in str(info.value)


def test_a_draw_naming_another_tile_is_a_wall_mismatch():
    moves = [
        {"seat": "E", "move": "discard", "tile": "7m"},
        {"move": "close-claims"},
        {"seat": "S", "move": "draw", "tile": "9s"},
    ]
    with pytest.raises(RecordError) as info:
        judge(from_record(record(moves, live="5p")))
    assert info.value.reason is Reason.WALL_MISMATCH
    assert "the next wall tile is 5p, not 9s" in str(info.value)


# -- malformed records ----------------------------------------------------------------------


def _set(path: list, value):
    def change(obj):
        target = obj
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return change


_DELETE = object()

MALFORMED = [
    (_set(["format"], "mjtable-journal"), "format: not a deal record"),
    (_set(["version"], 2), "version: version 2 is not known (this is 1)"),
    (_set(["version"], "1"), 'version: expected a whole number, got "1"'),
    (_set(["dice"], [7, 2]), "dice: dice show 1-6, not 7+2"),
    (_set(["dice"], [6]), "dice: two dice, like [6, 4], not [6]"),
    (_set(["dice"], _DELETE), "dice: missing"),
    (_set(["rules"], "sbr-moon"), "rules: unknown rule set 'sbr-moon'"),
    (_set(["dealer"], "S"), "dealer: seats are those of the deal, so the dealer is E"),
    (_set(["colour"], "red"), "colour: unknown key"),
    (_set(["players", "X"], "Zed"), "players.X: unknown key (allowed: E, S, W, N)"),
    (_set(["wall", 7], "0p"), "wall.7: '0p' is not a tile (ranks are 1-9)"),
    (_set(["wall", 7], "1m"), "wall: the wall holds 5 copies of 1m, not 4"),
    (_set(["wall"], 42), "wall: a list of tiles in physical order"),
    (_set(["moves"], {}), "moves: a list of move objects"),
    (_set(["moves", 0, "suit"], "x"), "moves[0].suit: a suit is one of m, p, s"),
    (_set(["moves", 1, "seat"], "X"), 'moves[1].seat: a seat is one of E S W N, not "X"'),
    (_set(["moves", 2, "tile"], "9q"), "moves[2].tile: unexpected character 'q'"),
    (_set(["moves", 3, "t"], "soon"), 'moves[3].t: expected a time in seconds, got "soon"'),
    (_set(["moves", 3, "colour"], "red"), "moves[3].colour: unknown key"),
    (_set(["moves", 4, "move"], "chi"), 'moves[4].move: unknown move "chi"'),
    (_set(["prevalent"], "X"), 'prevalent: a seat is one of E S W N, not "X"'),
    (_set(["moves", 4, "seat"], _DELETE), "moves[4].seat: missing"),
    (_set(["moves", 4], "hu"), 'moves[4]: expected a JSON object, got "hu"'),
]


@pytest.mark.parametrize(("change", "message"), MALFORMED)
def test_malformed_record_names_the_field(change, message):
    obj = record(HEAVENLY)
    change(obj)
    with pytest.raises(RecordError) as info:
        judge(from_record(obj))
    assert str(info.value).startswith(message), str(info.value)
    assert info.value.field == message.split(":")[0]
    assert info.value.reason is None


def test_a_kong_of_an_unknown_kind():
    with pytest.raises(RecordError, match=r"moves\[0\]\.kind: a kong kind is one of kong, "):
        move_from_json({"seat": "E", "move": "kong", "kind": "pung", "tile": "5p"}, "moves[0]")


def test_not_json():
    with pytest.raises(RecordError, match="not JSON"):
        loads("{moves: []")


# -- moves and records through JSON -------------------------------------------------------

MOVES = [
    ChooseVoid(E, Suit.P, t=1.0),
    ChooseVoid(W, Suit.M, Tile.M9, t=2),
    Draw(S),
    Draw(S, Tile.P5, t=12.5),
    ReplacementDraw(N, Tile.S9, t=0.0),
    Discard(S, Tile.P5, t=12.5),
    Pung(W),
    Chow(S, Tile.M3, t=4.0),
    Kong(W, MeldKind.KONG),
    Kong(W, MeldKind.KONG, Tile.P5),
    Kong(E, MeldKind.CONCEALED_KONG, Tile.M2),
    Kong(S, MeldKind.PROMOTED_KONG, Tile.S8, t=3.0),
    Kong(S, MeldKind.POSTPONED_KONG, Tile.S8),
    Hu(N, t=1e-3),
    SelfDrawnHu(E),
    RobKong(W),
    Pass(N),
    CloseClaims(t=15.5),
    Penalty(S, 4, "yellow card"),
    Penalty(S, 8, "dispute", W, t=2.0),
    Correction(),
    Correction(2, "two moves back"),
    EndDeal(),
    EndDeal("the hall closes"),
]


@pytest.mark.parametrize("move", MOVES, ids=str)
def test_move_round_trip(move):
    obj = move_to_json(move)
    assert move_from_json(json.loads(json.dumps(obj))) == move


def test_move_json_reads_like_the_issue():
    assert move_to_json(Discard(S, Tile.P5, t=12.5)) == {
        "t": 12.5,
        "seat": "S",
        "move": "discard",
        "tile": "5p",
    }
    assert move_to_json(Kong(S, MeldKind.PROMOTED_KONG, Tile.S8)) == {
        "seat": "S",
        "move": "kong",
        "kind": "promoted-kong",
        "tile": "8s",
    }


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), rules=st.sampled_from(["sbr-mil", "wmt", "sbr-chengdu2016"]))
def test_bot_deals_round_trip_through_json(seed, rules):
    deal, rec = play_deal(load(rules), seed, players=("Ann",))
    assert rec == to_record(deal, ("Ann",))
    for text in (dumps(rec), dumps(rec, indent=False)):
        again = loads(text)
        assert again == rec
        twin = judge(again)
        assert twin.ledger() == deal.ledger()
        assert twin.winners == deal.winners
        assert check_result(again, twin) is None
    assert rec.result is not None and rec.result.next_dealer is next_dealer(deal)


def test_a_tampered_result_is_reported():
    deal, rec = play_deal(load("sbr-mil"), 11)
    obj = record_to_json(rec)
    obj["result"]["deltas"] = [d + 1 for d in obj["result"]["deltas"]]
    obj["result"]["end"] = "time"
    problem = check_result(from_record(obj), deal)
    assert problem is not None
    assert "the record says" in problem and "end" in problem


def test_a_record_of_an_unknown_format_keeps_its_moves_out():
    obj = copy.deepcopy(record(HEAVENLY))
    obj["moves"][0]["move"] = "void-suit"
    with pytest.raises(RecordError, match=r"moves\[0\].move: unknown move"):
        from_record(obj)


def test_next_dealer():
    # E won first, alone (004 / RULES.md "Next dealer")
    assert next_dealer(judge(from_record(record(HEAVENLY)))) is E
