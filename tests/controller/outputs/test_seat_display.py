"""Seat displays: scores after every settlement, the claim countdown when the profile has it."""

from __future__ import annotations

from dataclasses import replace

from outputs_views import public_steps

from controller.outputs.seat_display import (
    BUZZ_MS,
    CallShown,
    CountdownShown,
    ScoreShown,
    SeatDisplays,
)
from rules.seats import SEATS, Seat


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[Seat, int]] = []

    def __call__(self, seat: Seat, value: int) -> None:
        self.calls.append((seat, value))


def test_scores_are_sent_to_every_seat_once_per_settlement():
    scores = Recorder()
    displays = SeatDisplays(scores)
    steps = public_steps()
    displays.update(steps[0])  # the first view: every display shows where its seat stands
    assert scores.calls == [(Seat.E, 100), (Seat.S, 100), (Seat.W, 100), (Seat.N, 100)]
    for view in steps[1:-1]:
        displays.update(view)
    assert len(scores.calls) == 4  # no payment during this deal: nothing more
    settled = steps[-1]
    displays.update(settled)
    # public_steps: everyone starts at 100; the deal moves E -4, S -4, W +12, N -4.
    assert scores.calls[4:] == [(Seat.E, 96), (Seat.S, 96), (Seat.W, 112), (Seat.N, 96)]
    displays.update(replace(settled, seq=settled.seq + 1))  # republished, same deal
    assert len(scores.calls) == 8
    next_deal = replace(settled, deal=settled.deal + 1, seq=settled.seq + 9)
    shown = displays.update(next_deal)
    assert shown == tuple(ScoreShown(s, v) for s, v in scores.calls[4:8])
    assert len(scores.calls) == 12


def test_regression_the_running_score_is_shown_after_every_payment_during_the_deal():
    """Issue 16 item 8: the displays got only the session total after each deal."""
    scores = Recorder()
    displays = SeatDisplays(scores)
    steps = public_steps()
    playing = steps[1]
    displays.update(playing)
    del scores.calls[:]

    def paid(view, deltas):
        seats = tuple(replace(s, deal_delta=d) for s, d in zip(view.seats, deltas, strict=True))
        return replace(view, seats=seats, seq=view.seq + 1)

    # E's concealed kong: 2 from each player still in
    shown = displays.update(paid(playing, (6, -2, -2, -2)))
    assert shown == (
        ScoreShown(Seat.E, 106),
        ScoreShown(Seat.S, 98),
        ScoreShown(Seat.W, 98),
        ScoreShown(Seat.N, 98),
    )
    # S wins on W's discard for 4: only S and W change
    shown = displays.update(paid(steps[3], (6, 2, -6, -2)))
    assert shown == (ScoreShown(Seat.S, 102), ScoreShown(Seat.W, 94))
    assert displays.update(paid(steps[4], (6, 2, -6, -2))) == ()  # nothing paid: nothing sent
    # settled: the totals hold the deal's changes (the deal's delta may stay on for the
    # result screen; it is not counted twice)
    settled = replace(
        paid(steps[-1], (6, 2, -6, -2)),
        seats=tuple(
            replace(s, score=100 + d, deal_delta=d)
            for s, d in zip(steps[-1].seats, (6, 2, -6, -2), strict=True)
        ),
    )
    assert [v for _, v in (astuple(s) for s in displays.update(settled))] == [106, 102, 94, 98]


def astuple(shown: ScoreShown) -> tuple[Seat, int]:
    return shown.seat, shown.score


def test_without_a_countdown_command_nothing_counts_down():
    scores = Recorder()
    displays = SeatDisplays(scores)
    assert not displays.has_countdown
    shown = [s for view in public_steps()[:-1] for s in displays.update(view)]
    assert not any(isinstance(s, CountdownShown) for s in shown)


def test_countdown_whole_seconds_to_possible_claimants_then_blank():
    scores, countdown = Recorder(), Recorder()
    displays = SeatDisplays(scores, countdown)
    claim = public_steps()[2]  # E discarded 5m, claim window open, 2.5 s left
    assert claim.turn == "E" and claim.claim_remaining_s == 2.5
    displays.update(claim)
    assert len(scores.calls) == 4  # the first view: every seat's score
    assert countdown.calls == [(Seat.S, 3), (Seat.W, 3), (Seat.N, 3)]  # 2.5 s shows as 3
    displays.update(replace(claim, claim_remaining_s=2.1))
    assert len(countdown.calls) == 3  # the figure did not change: nothing sent
    displays.update(replace(claim, claim_remaining_s=2.0))
    assert countdown.calls[3:] == [(Seat.S, 2), (Seat.W, 2), (Seat.N, 2)]
    displays.update(replace(claim, claim_remaining_s=0.0))
    assert countdown.calls[6:] == [(Seat.S, 0), (Seat.W, 0), (Seat.N, 0)]
    closed = displays.update(public_steps()[3])  # window closed
    assert closed == tuple(CountdownShown(s, 0) for s in (Seat.S, Seat.W, Seat.N))
    assert displays.update(public_steps()[3]) == ()
    assert len(scores.calls) == 4  # nobody paid during the countdown


def test_a_winner_leaves_the_countdown():
    countdown = Recorder()
    displays = SeatDisplays(Recorder(), countdown)
    claim = public_steps()[2]
    displays.update(claim)
    won = tuple(replace(s, hu_order=1) if s.seat == "W" else s for s in claim.seats)
    shown = displays.update(replace(claim, seats=won))
    assert CountdownShown(Seat.W, 0) in shown
    assert countdown.calls[-2:] == [(Seat.S, 3), (Seat.N, 3)]


def test_a_failing_display_does_not_stop_the_others():
    sent: list[Seat] = []

    def flaky(seat: Seat, score: int) -> None:
        if seat is Seat.S:
            raise OSError("display cable unplugged")
        sent.append(seat)

    displays = SeatDisplays(flaky)
    shown = displays.update(public_steps()[-1])
    assert sent == [Seat.E, Seat.W, Seat.N]
    assert [s.seat for s in shown] == [Seat.E, Seat.W, Seat.N]
    assert displays.failures == 1


def _calls(shown: tuple) -> list:
    return [x for x in shown if isinstance(x, CallShown)]


def test_a_referee_call_lights_every_seat_and_sounds_the_buzzer_once():
    """Issue 13 item 1: the table shows the call (seat lights, buzzer where the profile has
    them) while the deal waits for the referee; the lights go out when it is answered."""
    lights, buzz = Recorder(), []
    displays = SeatDisplays(Recorder(), light=lights, buzzer=buzz.append)
    steps = public_steps()
    assert _calls(displays.update(steps[3])) == [CallShown(False)]  # a start says: no call
    assert lights.calls == [(s, False) for s in SEATS] and buzz == []
    called = replace(steps[3], referee_called=True)
    assert _calls(displays.update(called)) == [CallShown(True)]
    assert lights.calls[4:] == [(s, True) for s in SEATS] and buzz == [BUZZ_MS]
    assert _calls(displays.update(replace(called, seq=called.seq + 1))) == []  # still called
    assert _calls(displays.update(steps[4])) == [CallShown(False)]
    assert lights.calls[8:] == [(s, False) for s in SEATS] and buzz == [BUZZ_MS]


def test_a_table_without_lights_or_buzzer_shows_no_call():
    displays = SeatDisplays(Recorder())
    assert _calls(displays.update(replace(public_steps()[3], referee_called=True))) == []


def test_regression_a_lights_off_sent_while_the_table_cable_was_out_left_the_call_on():
    """An e2e run with the table's cable pulled: the call was answered while the cable was
    out, the lights-off went nowhere, and the simulated players waited for a referee nobody
    had called. After `table_back` the next view sends the lights' state and the scores."""
    lights = Recorder()
    scores = Recorder()
    displays = SeatDisplays(scores, light=lights)
    steps = public_steps()
    displays.update(replace(steps[3], referee_called=True))
    displays.update(steps[4])  # answered: lights off, lost on the wire
    sent = len(lights.calls)
    assert _calls(displays.update(replace(steps[4], seq=steps[4].seq + 1))) == []
    displays.table_back()
    assert _calls(displays.update(replace(steps[4], seq=steps[4].seq + 2))) == [CallShown(False)]
    assert lights.calls[sent:] == [(s, False) for s in SEATS]
