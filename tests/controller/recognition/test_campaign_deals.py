"""Deals of recognition campaigns read again: the simulator's truth of a deal and the
settled tile changes the daemon's debouncer made of its journalled reads (one list per
reader round, `campaign_deals/*.json.gz`), fed to the real recogniser with the judge driven
as the daemon drives it: tiles read against the deal as if the open claim window had closed
now (`claim_clock._as_seen`), a move that needs the window closed closes it, and the claim
clock closes it after `claim-seconds`. The deal must read back as the truth: the same moves
(`tools.campaign.truth.comparable`), the same deltas, no move refused, no referee called.

A file is made from a campaign's journal: the deal's `hw.batch` steps
(`input_log.reader_steps(journal.deal_records(n))`) through a fresh `Debouncer` of the
campaign's reader profile, each round's `TilePlaced`/`TileLifted` written as
`±copy@side.zone`, and each seat button the table board sent (`hw.batch` table bytes through
the `TableDriver`) as `!side.BUTTON`, beside the deal's lines of the simulator's `truth.jsonl`.

With `referee`, a call is answered as the campaign's referee answers it when its first
candidate is right: the truth's next move entered, then the table read again against the
judge (`Recogniser.reconcile`, as the daemon's `reread_table` does)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from recog_rig import Runtime, reader

from controller.alerts import AlertKind
from controller.daemon.candidates import candidates
from controller.devices.events import Button, SeatButton
from controller.journal.payloads import table_seat
from controller.profiles import TileCopy, Zone, ZoneKind, sim_tag_map, with_declarations
from controller.recognition.presence import TileLifted, TilePlaced
from controller.recognition.recogniser import Recogniser, RefereeAlert
from rules.deal import Deal
from rules.move_json import move_to_json
from rules.moves import CloseClaims, Move, Pass, Reason
from rules.ruleset import load
from rules.seats import Seat
from tools.campaign import deal_file
from tools.campaign.run import Campaign, CampaignConfig
from tools.campaign.truth import comparable, read_truth

HERE = Path(__file__).parent / "campaign_deals"
# what the referee is not called for (docs/RECOGNITION.md "Referee calls")
NOT_CALLS = {AlertKind.VOID_DISCARD_ORDER, AlertKind.FALSE_HU}


def change(t: float, text: str) -> TilePlaced | TileLifted:
    copy_, place = text[1:].split("@")
    side, kind = place.split(".")
    tc = TileCopy.parse(copy_)
    zone = Zone(ZoneKind(kind), Seat.parse(side) if side else None)
    made = TilePlaced if text[0] == "+" else TileLifted
    return made(t, tc.tile, tc.copy, zone)


def read_again(
    name: str | Path,
    declarations: str,
    tmp_path: Path,
    referee: list[RefereeAlert] | None = None,
    first: list[bool] | None = None,
) -> tuple[Deal, Runtime, Deal]:
    """The deal read again; returns the daemon's judge, the runtime and the truth's deal.
    `referee`: the calls answered are appended to it (see the module docstring); `first`:
    for each answer, whether the call's first candidate (controller/daemon/candidates.py,
    as the daemon makes it) was the move entered."""
    doc = json.loads(gzip.decompress((HERE / name).read_bytes()))  # (a Path stays itself)
    truth_file = tmp_path / "truth.jsonl"
    truth_file.write_text("".join(json.dumps(line) + "\n" for line in doc["truth"]))
    (truth,) = read_truth(truth_file)
    rs = load("sbr-mil")
    rec = Recogniser(rs, with_declarations(reader(), declarations), sim_tag_map(rs.tiles.set))
    rec.new_deal(truth.dealer)
    deal = Deal.start(rs, truth.dice, truth.wall)
    rt = Runtime(rs, rec, deal=deal)

    views: dict[int, Deal] = {}

    def seen() -> Deal:
        if deal.window is None:
            return deal
        key = len(deal.history)
        if key not in views:  # as the runtime does, once per move
            trial = deal.copy()
            views[key] = trial if trial.apply(CloseClaims()) and not trial.over else deal
        return views[key]

    def answer() -> None:
        """The calls raised so far answered by the truth's next move, then the table read
        again (the daemon leaves out a RECOVERY alert of that re-reading)."""
        calls = [a for a in rt.alerts[answered:] if a.kind not in NOT_CALLS]
        if referee is None or not calls or deal.over:
            return
        referee.extend(calls)
        mine = comparable(deal.moves)
        done = next(
            (k for k in range(len(truth.moves) + 1) if comparable(truth.moves[:k]) == mine), None
        )
        assert done is not None, f"the judge left the truth before the call: {calls}"
        played = [m for m in truth.moves[done:] if not isinstance(m, CloseClaims | Pass)]
        entered = played[:1]
        if first is not None:
            fits = tuple(m for a in calls for m in a.fits)
            offered = candidates(
                deal,
                truth.dealer,
                rec.differences(deal),
                None,
                fits,
                rec.ahead(deal),
                arrived=rec.arrivals(deal),
            )
            wanted = [as_button(m, truth.dealer) for m in played]
            top = offered[0] if offered else None
            if top is not None and top.action is not None and top.action["kind"] == "moves":
                # several moves on one button: right when they are the table's next ones,
                # and then entered together, as the desk enters them
                chain = top.action["moves"]
                first.append(chain == wanted[: len(chain)])
                entered = played[: len(chain)] if first[-1] else entered
            else:
                first.append(top is not None and top.move == wanted[0])
        for m in entered:
            assert rt.offer(m), rt.rejected
        again = rec.reconcile(dict(rec.table.where), deal)
        rt.feed([r for r in again if getattr(r, "kind", None) is not AlertKind.RECOVERY])

    rt.feed(rec.start_deal(deal))
    opened: float | None = None
    answered = 0
    for t, changes in doc["rounds"]:
        for text in changes:
            if text.startswith("!"):
                side, button = text[1:].split(".")
                rt.feed(rec.on_button(SeatButton(t, Seat.parse(side), Button[button]), deal))
            else:
                rt.feed(rec.on_presence(change(t, text), seen()))
        rt.feed(rec.tick(t, seen()))
        answer()
        answered = len(rt.alerts)
        if deal.over:
            break
        if deal.window is None:
            opened = None
        elif opened is None:
            opened = t
        elif t - opened >= rs.play.claim_seconds:
            rt.apply(CloseClaims())  # the claim clock
            opened = None
    if not deal.over and deal.window is not None:
        rt.apply(CloseClaims())  # the claim clock, after the deal's last reader round
    expected = Deal.replay(rs, truth.dice, truth.wall, truth.moves)
    assert comparable(deal.history) == comparable(truth.moves)
    return deal, rt, expected


def as_button(move: Move, dealer: Seat) -> dict[str, str]:
    """`move` as a candidate's button enters it: the table's seat, the move, its tile."""
    data = move_to_json(move)
    data["seat"] = table_seat(move.seat, dealer).name
    return {k: str(data[k]) for k in ("seat", "move", "tile") if k in data}


def answered_as_played(name: str, tmp_path: Path) -> tuple[Runtime, list[RefereeAlert], list[bool]]:
    """A buttons deal read again with its calls answered (`read_again`'s `referee`), which
    must settle as the table played it; the runtime, the calls and whether each answer was
    the call's first candidate."""
    calls: list[RefereeAlert] = []
    first: list[bool] = []
    deal, rt, expected = read_again(name, "buttons", tmp_path, calls, first)
    assert deal.over and deal.deltas() == expected.deltas()
    return rt, calls, first


def test_regression_tiles_502_deal_73_a_hu_on_a_discard_never_read_in_the_river(
    tmp_path: Path,
) -> None:
    """E drew 7m#2 and discarded it; S won on it and laid its hand open. The 7m was read in
    E's river in three rounds out of seven and went on into S's melds: the debouncer moved
    it from E's hand to S's melds. Nothing read the open hand, E's next discard (3s) was
    taken for this one, and the referee was called four times. Now: E's discard of 7m and
    S's Hu on it, and the rest of the deal as the table played it."""
    deal, rt, expected = read_again("tiles-502-deal-73.json.gz", "tiles", tmp_path)
    assert deal.over and deal.deltas() == expected.deltas()
    assert rt.rejected == []
    assert {a.kind for a in rt.alerts} <= NOT_CALLS, rt.alerts


def test_regression_tiles_503_deal_14_a_draw_laid_onto_its_pung_before_it_was_read(
    tmp_path: Path,
) -> None:
    """S drew 3m#2 and added it to its 3m pung (a promoted kong); the 3m was read in S's
    hand twice in 0.1 s, then on the pung: the draw was never read, nor the replacement,
    the discards and the draws after it, and S's Hu on W's 4s was taken for a false
    self-drawn Hu with that 3m (the referee called, the deal settled wrong). Now: S's draw
    and promoted kong, and the rest of the deal as the table played it."""
    deal, rt, expected = read_again("tiles-503-deal-14.json.gz", "tiles", tmp_path)
    assert deal.over and deal.deltas() == expected.deltas()
    assert rt.rejected == []
    assert {a.kind for a in rt.alerts} <= NOT_CALLS, rt.alerts


def test_regression_fast_table_far_ahead_after_a_missed_draw_needs_one_answer(
    tmp_path: Path,
) -> None:
    """10/10/2 seed 313 deal 43: a draw was not read, and by the call the fast table was
    dozens of moves ahead. The referee entered the draw (the call's first candidate), but the
    table read again was explained only within 8 moves: each move beyond needed an answer
    of its own (42 taps). Now the re-reading follows the table a step at a time as far as
    the tiles decide, each seat's discards in the order they left its hand: one answer, and
    the deal reads as the table played it. Now a drawn tile read first beside the hand
    (crosstalk) is still a new tile when it reaches it, and one gone straight to the river
    is read as the draw and its discard: no call, read right."""
    rt, calls, first = answered_as_played("buttons-313-deal-43.json.gz", tmp_path)
    assert calls == [] and first == []
    # only the claim buttons pressed while the judge was behind (the daemon refused them too)
    assert {r.reason for r in rt.rejected} <= {Reason.CLAIM_NOT_ADMISSIBLE}, rt.rejected


def test_regression_fast_table_far_ahead_a_discard_won_by_a_hu_is_followed_in_its_order(
    tmp_path: Path,
) -> None:
    """10/10/2 seed 313 deal 79: a replacement draw was not read and the table ran ahead; a
    discard won by a Hu lay in the winner's hand, a later copy of that tile in the river.
    Entered move by move (20 answers) the deal went wrong; followed by the discards' order
    taken from the river alone, another discard was taken first. Now the tile taken into
    the winner's hand counts from when it left the discarder, and a seat's concealed kong
    is ordered with its discards by when its tiles reached the melds (a discard of a tile
    the hand held before was tried first beside it, and the table was not followed past it:
    a second call, whose first candidate was that discard): one answer, read right. Now the
    replacement tile, gone from the wall straight to the river, is read as the replacement
    draw and its discard (`Reader._straight_reading`): no call, read right."""
    rt, calls, first = answered_as_played("buttons-313-deal-79.json.gz", tmp_path)
    assert calls == [] and first == []
    assert {r.reason for r in rt.rejected} <= {Reason.CLAIM_NOT_ADMISSIBLE}, rt.rejected


def test_regression_a_hu_pressed_before_its_own_draw_was_read_is_not_a_hu_on_the_discard(
    tmp_path: Path,
) -> None:
    """10/10/2 seed 313 deal 25: N discarded 5p, E drew 4p and pressed HU (a false Hu: the
    hand waits on nothing); the HU came 18 ms before the draw was read. It was taken at once
    as a false Hu on N's 5p: the judge's wall stayed a tile behind the table, the reader
    later saw 4p where the judge had 5p, and the deal was lost. Now the HU of the next
    drawer that this window would take only as false waits for the draw: E's draw and its
    false self-drawn Hu, and the rest of the deal as the table played it, no call."""
    deal, rt, expected = read_again("buttons-313-deal-25.json.gz", "buttons", tmp_path)
    assert deal.over and deal.deltas() == expected.deltas()
    assert {a.kind for a in rt.alerts} <= NOT_CALLS, rt.alerts


def test_regression_the_first_candidate_is_the_first_move_the_tiles_show_not_the_river_s(
    tmp_path: Path,
) -> None:
    """10/10/2 seed 311 deal 17: N's discard was not read and the table ran on; by the call
    N had discarded 3m (punged by S) and later 7p. The call's first candidate was "North
    discarded 7p", the one tile of N's river the judge did not know, and the referee had to
    enter N's 3m by hand. Now the first candidate is the first move of the table followed
    as far as the tiles decide (`Recogniser.ahead`): N's 3m."""
    rt, calls, first = answered_as_played("buttons-311-deal-17.json.gz", tmp_path)
    assert len(calls) == 1, calls
    assert first == [True]
    assert {r.reason for r in rt.rejected} <= {Reason.CLAIM_NOT_ADMISSIBLE}, rt.rejected


def test_regression_a_move_read_late_does_not_make_the_moves_after_it_look_older(
    tmp_path: Path,
) -> None:
    """10/10/2 seed 311 deal 98: E's promoted kong (its 3p laid at 7.67 s) was read at 8.70 s;
    meanwhile E's replacement draw (6s) was not read and E discarded it at 7.78 s. The
    tiles' times counted only from when the kong was read, so the 6s in E's river was no
    evidence and, once the referee entered the replacement, the table was not followed
    past it: the next call's first candidate was E's later discard of 5p. Further on, W's
    pung of N's 5s (its button pressed while the judge was behind) and E's Hu on S's 8p
    were each tried beside the window closing with no claim, and the table was not
    followed past them (two more calls, "Enter the claim (or the passes) by hand"). Now a
    move's tiles count from when they arrived, and a claim whose tiles came before any
    other is taken first: one answer, and the deal reads as the table played it. Now the
    6s, gone from the wall straight to E's river, is read as the replacement draw and its
    discard (`Reader._straight_reading`): no call, and the deal reads as the table played
    it."""
    rt, calls, first = answered_as_played("buttons-311-deal-98.json.gz", tmp_path)
    assert calls == [] and first == []
    assert {r.reason for r in rt.rejected} <= {Reason.CLAIM_NOT_ADMISSIBLE}, rt.rejected


def test_regression_a_promoted_kong_read_late_is_not_also_tried_as_a_discard(
    tmp_path: Path,
) -> None:
    """10/10/2 seed 311 deal 24 (run again at catchup2): S's draw was not read; once the
    referee entered it the table was followed to N's turn, where N had added its drawn 3p
    to its 3p pung. That 3p, gone from the hand, was also tried as a discard; both ways
    went on for the steps looked ahead and the table was not followed: a second call,
    "Enter East's discard by hand". Now a hand's tile gone into its own melds with none
    from another seat (one onto a pung, or all four) is its own kong, not a discard: one
    answer, and the deal reads as the table played it. (Since E's false HU, held before S's
    pung of the same discard, is offered before that pung, seed 200 deal 132, the judge is
    no longer left behind there: no call at all.)"""
    rt, calls, first = answered_as_played("buttons-311-deal-24.json.gz", tmp_path)
    assert not calls and not first, calls
    # the buttons pressed while the judge was behind (the daemon refused them too)
    late = {Reason.CLAIM_NOT_ADMISSIBLE, Reason.ALREADY_DECLARED}
    assert {r.reason for r in rt.rejected} <= late, rt.rejected


def test_regression_a_discard_whose_tile_was_drawn_again_is_followed_in_its_order(
    tmp_path: Path,
) -> None:
    """10/10/2 seed 311 deal 66: E's draw of 9m was not read, and by the call the table was
    a dozen moves ahead. E had made a concealed kong, drawn 8s, discarded 4p#4, and four
    moves on drawn 4p#1 and discarded the 8s. Following the table after the answer, E's
    hand held as many 4p as the judge knew, so only the 8s was tried as E's discard: taken
    first, and the deal settled wrong. Now a river's unknown tile whose copy the hand took
    in again since is a discard to try, and the river's order puts the 4p first."""
    rt, calls, first = answered_as_played("buttons-311-deal-66.json.gz", tmp_path)
    assert first and all(first), (first, calls)
    late = {Reason.CLAIM_NOT_ADMISSIBLE, Reason.ALREADY_DECLARED}
    assert {r.reason for r in rt.rejected} <= late, rt.rejected


@pytest.mark.slow
def test_a_deal_cut_from_a_campaign_reads_again_as_the_table_played_it(tmp_path: Path) -> None:
    """`tools/campaign/deal_file.py` cuts a deal out of a real campaign's journal (a noisy
    table, the daemon killed once): read again, the file's rounds and buttons give the
    truth's deal, as the daemon's journal did."""
    config = CampaignConfig(deals=1, kills=1, seed=8, folder=tmp_path / "run")
    report = Campaign(config).run()
    assert report.ok, [(d.number, d.status, d.detail) for d in report.deals]
    out = tmp_path / "deal-1.json.gz"
    assert deal_file.main([str(tmp_path / "run"), "1", str(out), "--about", "seed 8"]) == 0
    doc = json.loads(gzip.decompress(out.read_bytes()))
    assert doc["about"] == "seed 8" and {line["deal"] for line in doc["truth"]} == {1}
    assert any(c.startswith("!") for _, changes in doc["rounds"] for c in changes)  # buttons
    deal, _rt, expected = read_again(out, "buttons", tmp_path, [])
    assert deal.over and deal.deltas() == expected.deltas()
    assert deal_file.main([str(tmp_path / "run"), "9", str(tmp_path / "none.json.gz")]) == 1


def test_regression_seed_200_deal_132_a_hu_pressed_before_a_pung_went_to_the_next_discard(
    tmp_path: Path,
) -> None:
    """5/5/1 seed 200 deal 132 (the 200-deal campaign at edb1c45, the one deal of 200
    lost): S discarded 6m; W pressed HU 11 ms after it (a false Hu: W's hand waits on
    another tile), N pressed PUNG 52 ms later. The HU was held as perhaps for a later
    discard, N's PUNG was taken on the 6m and the window closed when N played on; the held
    HU was then offered on N's next discard (5s), and the deal ended at a call no answer
    could settle. The table gave the 6m to W's Hu, N's pung yielding. A HU held that was
    pressed before a pung of the open discard is for that discard: offered before it."""
    deal, rt, expected = read_again("buttons-200-deal-132.json.gz", "buttons", tmp_path)
    assert deal.over and deal.deltas() == expected.deltas()
    assert {a.kind for a in rt.alerts} <= NOT_CALLS, rt.alerts
