"""Rulebook readings (issue 14): places where the judge follows one reading of its sources,
each a rule-set parameter. For each, a hand-written deal record with the deltas worked out
by hand, and the other reading reached by flipping the parameter.

The records are written as a referee would (docs/DEAL-RECORD.md): the dealt hands as read
(`hands`, the wall not scanned), so every draw names its tile.
"""

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from judge_helpers import deal_of, ok

from controller.cli import main
from rules import settlement as pay
from rules.bots import Bot, Style
from rules.deal import Deal
from rules.hand import waits
from rules.melds import Meld
from rules.moves import (
    ChooseVoid,
    CloseClaims,
    Discard,
    Hu,
    Pass,
    Pung,
    Reason,
    VoidSetDeclared,
)
from rules.record import FORMAT, RecordError, from_record, judge
from rules.ruleset import ExhaustedWait, Multipliers, SequentialClaim, VoidSet, load
from rules.scoring import score_hand, theoretical_maximum
from rules.seats import Seat
from rules.settlement import EndHand
from rules.tiles import Suit, Tile, parse_tiles, to_counts

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


def with_payments(rules: str, **changes):
    rs = load(rules)
    return replace(rs, payments=replace(rs.payments, **changes))


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


# -- 2. Chengdu 2016: void tiles are charged after three Hu too (002) --------------------

# E wins on the dealt hand, S and W on their first draws: the deal ends on the third Hu with
# N, void in Bamboo, still holding the 9s it laid face down (N never had a turn).
THREE_HU_HANDS = {
    "E": "11223344556677m",  # heavenly: seven pairs + full flush
    "S": "123456789s1234p",  # draws 4p: 123 456 789s 123p 44p
    "W": "111222333s4567p",  # draws 7p: 111 222 333s 456p 77p
    "N": "9s123456789m11p2p",  # lays 9s
}
THREE_HU_MOVES = [
    {"seat": "E", "move": "void", "suit": "p"},  # indicator cards: no tile of the suit
    {"seat": "S", "move": "void", "suit": "m"},
    {"seat": "W", "move": "void", "suit": "m"},
    {"seat": "N", "move": "void", "suit": "s", "tile": "9s"},
    {"seat": "E", "move": "self-drawn-hu"},
    {"seat": "S", "move": "draw", "tile": "4p"},
    {"seat": "S", "move": "self-drawn-hu"},
    {"seat": "W", "move": "draw", "tile": "7p"},
    {"seat": "W", "move": "self-drawn-hu"},
]


def test_chengdu_charges_void_tiles_held_when_the_third_hu_ends_the_deal():
    # By hand, 002 (self-drawn: hand value + 1 from each player still in, cap 3 fan):
    # E: seven pairs 2 + full flush 2 = 4 fan, capped at 3: A = 8; S, W, N pay 9 each.
    # S: a plain hand, A = 1; W and N pay 2 each.  W: plain, A = 1; N pays 2.
    # The third Hu ends the deal; N still holds its void 9s: 48 to nobody (002).
    # Deltas: E +27, S -9+4 = -5, W -9-2+2 = -9, N -9-2-2-48 = -61 (sum -48, to nobody).
    deal = judge(from_record(record("sbr-chengdu2016", THREE_HU_HANDS, THREE_HU_MOVES)))
    assert deal.over and len(deal.winners) == 3
    assert deal.deltas() == (27, -5, -9, -61)
    assert lines(deal)[-1] == (N, None, 48)
    assert deal.ledger().lines[-1].rule == pay.R_VOID_HELD


def test_004_does_not_check_the_last_hand_after_three_hu():
    # the same deal under sbr-mil (004 Lesson 5) or with the Chengdu parameter flipped:
    # N pays only the three self-drawn Hu, 9 + 2 + 2
    rec = from_record(record("sbr-chengdu2016", THREE_HU_HANDS, THREE_HU_MOVES))
    assert judge(rec, load("sbr-mil")).deltas() == (27, -5, -9, -13)
    flipped = with_payments("sbr-chengdu2016", void_penalty_after_three_hu=False)
    assert judge(rec, flipped).deltas() == (27, -5, -9, -13)


def test_mjtable_judge_follows_the_three_hu_void_reading(tmp_path, capsys):
    path = write(tmp_path, record("sbr-chengdu2016", THREE_HU_HANDS, THREE_HU_MOVES))
    assert judged_json(capsys, path)["deltas"] == [27, -5, -9, -61]
    flipped = custom_rules(
        tmp_path,
        "sbr-chengdu2016",
        "void-penalty-after-three-hu = true",
        "void-penalty-after-three-hu = false",
    )
    assert judged_json(capsys, "--rules", flipped, path)["deltas"] == [27, -5, -9, -13]


# -- 3. WMT: a sequential Hu or pung is a false win unless it raises the score (000 2.2.4) --

# E lays 5p and discards it first; S and W both win on 5p and let it go. S draws the second
# 5p and discards it.
SEQUENTIAL_HANDS = {
    "E": "5p1122334455667m",  # void p, lays 5p
    "S": "46p111222333s99s",  # void m: waits on 5p
    "W": "46p444555666s88s",  # void m: waits on 5p
    "N": "1123789p778899m",  # void s
}
SEQUENTIAL_START = [
    {"seat": "E", "move": "void", "suit": "p", "tile": "5p"},
    {"seat": "S", "move": "void", "suit": "m"},
    {"seat": "W", "move": "void", "suit": "m"},
    {"seat": "N", "move": "void", "suit": "s"},
    {"seat": "E", "move": "discard", "tile": "5p"},  # the dealer's first discard
    {"seat": "S", "move": "pass"},
    {"seat": "W", "move": "pass"},
    {"seat": "N", "move": "pass"},
    {"seat": "S", "move": "draw", "tile": "5p"},  # S's draw lifts S's lock, not W's
    {"seat": "S", "move": "discard", "tile": "5p"},
]
SEQUENTIAL_HU = [
    *SEQUENTIAL_START,
    {"seat": "W", "move": "hu"},
    {"seat": "N", "move": "pass"},
    {"move": "close-claims"},
    {"move": "end-deal"},
]


def test_wmt_settles_a_sequential_hu_as_a_false_win():
    # By hand (wmt): W let E's first 5p go; on the dealer's first discard that Hu was an
    # earthly hand, 3 fan = 8 points (000 2.8.3). On S's 5p the same hand is a plain win,
    # 1 point: not more, so W's Hu is a false win (000 2.2.4), the maximum, 8, to each player
    # still in after it (000 3.3): E, S and N. W leaves the deal; no kong to return.
    # Deltas: E +8, S +8, W -24, N +8.
    deal = judge(from_record(record("wmt", SEQUENTIAL_HANDS, SEQUENTIAL_HU)))
    assert lines(deal) == [(W, E, 8), (W, S, 8), (W, N, 8)]
    assert deal.deltas() == (8, 8, -24, 8)
    assert {x.rule for x in deal.ledger().lines} == {pay.R_SEQUENTIAL}
    assert "worth 8" in deal.ledger().lines[0].why
    (won,) = deal.winners
    assert won.seat is W and won.false_hu and deal.is_out(W)


def test_wmt_sequential_hu_is_not_listed_as_a_win():
    rec = from_record(record("wmt", SEQUENTIAL_HANDS, SEQUENTIAL_START))
    deal = judge(rec)
    assert Hu(W) not in deal.legal_moves(W)  # a false win, like any false Hu
    assert Hu(W) in deal.legal_moves(W, include_false_hu=True)
    assert deal.check(Hu(W)) is None


def test_the_old_reading_refuses_the_sequential_hu():
    rec = from_record(record("wmt", SEQUENTIAL_HANDS, SEQUENTIAL_HU))
    with pytest.raises(RecordError) as info:
        judge(rec, with_play("wmt", sequential_claim=SequentialClaim.REFUSED))
    assert info.value.reason is Reason.SKIPPED_HU_LOCK
    assert info.value.index == 10


# W holds 55p instead of 46p: it could win on E's 5p (all triplets, and earthly) and pung it
SEQUENTIAL_PUNG_HANDS = dict(SEQUENTIAL_HANDS, W="55p444555666s88s")
SEQUENTIAL_PUNG = [
    *SEQUENTIAL_START,
    {"seat": "W", "move": "pung"},
    {"move": "close-claims"},
    {"seat": "W", "move": "discard", "tile": "8s"},
    {"move": "close-claims"},
    {"move": "end-deal"},
]


def test_wmt_settles_a_sequential_pung_as_a_false_win():
    # By hand (wmt): W passed E's 5p and pungs S's 5p before drawing: a sequential pung,
    # a false win (000 2.2.4): 8 to each other player still in, E, S and N. The pung
    # stands and W plays on (discards 8s). Deltas: E +8, S +8, W -24, N +8.
    deal = judge(from_record(record("wmt", SEQUENTIAL_PUNG_HANDS, SEQUENTIAL_PUNG)))
    assert lines(deal) == [(W, N, 8), (W, E, 8), (W, S, 8)]  # in turn order after W
    assert deal.deltas() == (8, 8, -24, 8)
    assert "sequential pung of 5p" in deal.ledger().lines[0].why
    assert [str(m) for m in deal.melds(W)] == ["pung 5p"] and not deal.is_out(W)


def test_the_old_reading_refuses_the_sequential_pung():
    rec = from_record(record("wmt", SEQUENTIAL_PUNG_HANDS, SEQUENTIAL_PUNG))
    with pytest.raises(RecordError) as info:
        judge(rec, with_play("wmt", sequential_claim=SequentialClaim.REFUSED))
    assert info.value.reason is Reason.SKIPPED_PUNG_LOCK


def test_mjtable_judge_follows_the_sequential_reading(tmp_path, capsys):
    path = write(tmp_path, record("wmt", SEQUENTIAL_HANDS, SEQUENTIAL_HU))
    assert judged_json(capsys, path)["deltas"] == [8, 8, -24, 8]
    flipped = custom_rules(
        tmp_path, "wmt", 'sequential-claim = "false-win"', 'sequential-claim = "refused"'
    )
    assert main(["judge", "--rules", flipped, path]) == 1
    assert "is refused: skipped-hu-lock: W let a winning tile go (worth 8)" in (
        capsys.readouterr().err
    )


# -- 5. choices the sources leave open, each a parameter keeping the judge's reading -------


def with_scoring(rules: str, **changes):
    rs = load(rules)
    return replace(rs, scoring=replace(rs.scoring, **changes))


def test_wmt_flower_pig_pays_the_full_hand_instead_of_the_not_listening_maximum():
    # 000 2.3.1 (the flower pig pays each player the full hand) and 2.6 (not listening pays
    # the listening players the maximum): E is a flower pig, S listens (maximum 4), W does not
    wmt = load("wmt")
    hands = [
        EndHand(E, (), (), Suit.M, 0, True),
        EndHand(S, (), (), Suit.M, 4, False),
        EndHand(W, (), (), Suit.P, 0, False),
    ]
    owed = [(x.payer, x.payee, x.points) for x in pay.wall_end(wmt, hands)]
    assert owed == [(E, S, 8), (E, W, 8), (W, S, 4)]  # the pig's 8s replace its 4 to S
    both = with_payments("wmt", flower_pig_pays_wall_end=True)
    owed = [(x.payer, x.payee, x.points) for x in pay.wall_end(both, hands)]
    assert owed == [(E, S, 8), (E, W, 8), (E, S, 4), (W, S, 4)]


def test_wmt_discard_after_a_kong_that_is_also_the_last_discard_doubles_twice():
    # 003 B: "Discard after a Kong" A x 2 and "Last Minute Save" A x 2; a plain hand, A = 1
    standing = parse_tiles("123p456p789p11s")
    melds = [Meld.parse("pung 5s")]
    both = frozenset({"shoot-after-kong", "under-the-sea"})
    score = score_hand(standing, melds, Tile.S1, load("wmt"), situations=both)
    assert (score.value, score.multiplier) == (1, 4)
    largest = with_scoring("wmt", situation_multipliers=Multipliers.LARGEST)
    score = score_hand(standing, melds, Tile.S1, largest, situations=both)
    assert (score.value, score.multiplier) == (1, 2)


def test_a_tile_held_four_times_with_the_melds_is_no_wait():
    # pung 1p + standing 1p 456p 567s 999s: only a fifth 1p would complete it. 004 Lesson 6
    # excludes a tile "all four copies of which are in the 'standing' tiles"; the judge
    # counts the melds too (no fifth copy exists), so the hand is not ready
    counts = to_counts(parse_tiles("1p456p567s999s"))
    melds = [Meld.parse("pung 1p")]
    assert waits(counts, melds) == ()
    assert theoretical_maximum(counts, melds, Suit.M, load("sbr-mil")) == 0
    standing = with_scoring("sbr-mil", exhausted_wait=ExhaustedWait.STANDING)
    assert waits(counts, melds, melded_copies=False) == (Tile.P1,)
    # ready; the four 1p held (the pung and the standing one) are a root: 1 fan, 2 points
    assert theoretical_maximum(counts, melds, Suit.M, standing) == 2


def test_mjtable_waits_and_score_follow_the_open_choices(tmp_path, capsys):
    args = ["waits", "1p456p567s999s", "--melds", "pung 1p", "--void", "m"]
    assert main(args) == 0
    assert "waits     none (not ready)" in capsys.readouterr().out
    flipped = custom_rules(
        tmp_path, "sbr-mil", 'exhausted-wait = "held"', 'exhausted-wait = "standing"'
    )
    assert main([*args, "--rules", flipped]) == 0
    out = capsys.readouterr().out
    assert "waits     1p" in out and "maximum   2" in out
    score = ["score", "123p456p789p11s", "--melds", "pung 5s", "--win", "1s"]
    score += ["--situation", "shoot-after-kong", "--situation", "under-the-sea"]
    assert main([*score, "--rules", "wmt"]) == 0
    assert "payment   4A = 4 from the discarder" in capsys.readouterr().out
    flipped = custom_rules(
        tmp_path,
        "wmt",
        'situation-multipliers = "product"',
        'situation-multipliers = "largest"',
    )
    assert main([*score, "--rules", flipped]) == 0
    assert "payment   2A = 2 from the discarder" in capsys.readouterr().out


def test_bots_make_no_sequential_claim_and_no_void_set():
    # the claims these readings accept are penalties: a bot passes them by (it would
    # otherwise pay 8 or 48 for nothing), whatever its random draws
    seq = judge(from_record(record("wmt", SEQUENTIAL_PUNG_HANDS, SEQUENTIAL_START)))
    void = judge(from_record(record("sbr-mil", VOID_SET_HANDS, VOID_SET_MOVES[:5])))
    calm = Style(false_hu=0.0)
    for seed in range(200):
        move = Bot(random.Random(seed), calm).claim(seq, W, seq.window)
        assert move is None or isinstance(move, Pass), move
        move = Bot(random.Random(seed), calm).claim(void, S, void.window)
        assert move is None, move
