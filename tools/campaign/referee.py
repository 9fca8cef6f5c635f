"""The campaign's referee: answers the table's referee calls as a referee beside it would,
through the referee page's API (`POST /referee/api/action`, the real daemon's HTTP server),
looking at what really happened on the table (the simulator's truth). It gives one answer at
a time, as a person tapping a tablet does, then looks at the table and the page again
(`SETTLE_S`: the reader catches up with the table meanwhile): the first move the journal is
missing is entered, a draw the wall scan misread is fixed, a discard taken as another tile
is fixed when what followed it agrees with the table, a move the journal holds that the
table never saw is cancelled; when the judge refuses what the table shows (a Hu read after
its claim window closed), the move before it is taken back, to be entered again with what
followed it. The call's first button is tapped when it sends that answer, when it enters
a run of moves that are the table's next ones (one tap for all), and when it closes claims
nobody made (the table's next move a draw); else "Something else…" and the form. Each
answer is a journalled correction, as a person's would be. A call it
cannot answer is ended as a referee would end it after a while: the deal is
abandoned (and counts as lost), since the simulated players, like real ones, wait for the
referee as long as the call stands.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.journal.payloads import table_seat, to_physical
from controller.journal.store import Journal
from controller.referee.journal_deal import read_deal
from controller.referee.rebuild import effective_moves, rebuild
from rules import moves as mv
from rules.move_json import move_to_json
from rules.ruleset import RuleSet, load
from rules.tiles import Tile
from rules.wall import Dice
from tools.campaign.truth import DealTruth, Simultaneous, comparable, read_truth

TOKEN = "campaign-referee"
# taps a manual answer takes on the referee page: "Something else…", the form's fields
# (counted as one), its button; ending the deal adds the confirmation
MANUAL_TAPS = {"abandon": 4}
MANUAL_TAP = 3
TAPS_TARGET = 3  # a call should need no more (issue 27 item 5): those that did are counted
SETTLE_S = 2.0  # after an answer taken, the referee looks at the table this long before the next
GIVE_UP_S = 30.0  # a call standing this long with no answer that helps: the deal is abandoned
WALL_MATCH = 100  # of the wall's 108 places, as scanned, the truth's deal holds at least these


def config_text(token: str = TOKEN) -> str:
    """The daemon's config: a known referee token."""
    return f'[http]\nreferee-token = "{token}"\n'


@dataclass
class CallTally:
    """The referee's work on the page's calls (issue 27 item 5): how many, how many were
    put right by their first candidate alone, the taps each took, the seconds from the call
    being shown to its first answer taken, the deals ended for want of another way."""

    calls: int = 0
    by_first: int = 0
    by_table: int = 0  # gone with no answer: the reader caught up by itself
    taps: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    abandoned: int = 0
    # each call as the referee met it: its deal, headline, and each answer ("first: ..." by
    # its first candidate's button, "form: ..." by "Something else…"), for reading a run
    log: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        answered = self.calls - self.by_table
        return {
            "calls": self.calls,
            "by_first_candidate": self.by_first,
            "by_table": self.by_table,
            "first_candidate_percent": round(100 * self.by_first / answered, 1)
            if answered
            else None,
            "max_taps": max(self.taps, default=0),
            "over_3_taps": sum(n > TAPS_TARGET for n in self.taps),
            "mean_taps": round(sum(self.taps) / len(self.taps), 2) if self.taps else None,
            "mean_seconds": round(sum(self.seconds) / len(self.seconds), 2)
            if self.seconds
            else None,
            "max_seconds": round(max(self.seconds), 2) if self.seconds else None,
            "abandoned": self.abandoned,
        }


@dataclass
class _Shown:
    """The call the page shows now, and what the referee did about it."""

    key: str
    offered: dict[str, Any] | None  # what its first candidate's button sends
    name: str
    since: float
    headline: str = ""
    deal: Any = None
    taps: int = 0
    first_only: bool = True
    answered_at: float | None = None
    answers: list[str] = field(default_factory=list)


@dataclass
class TruthReferee:
    journal: Path
    truth: Path
    rules: str
    url: str = ""  # the daemon's web server, set at each (re)start
    answered: list[str] = field(default_factory=list)  # what it did, for the report
    _last: tuple[Any, Any] = (None, None)
    _truth: list[DealTruth] = field(default_factory=list)
    _truth_size: int = -1
    _tapped_at: float = float("-inf")  # when the last answer was taken
    _refused: tuple[Any, Any] | None = None  # the journal's state when an answer was refused
    was_refused: bool = False  # the last answer sent was refused (not lost on the way)
    _called_since: tuple[Any, float] | None = None  # (deal, since): a call standing
    # the most moves of each deal the journal has held as the table played them: an answer
    # that brings the journal no further is no progress (seed 311 deal 30 entered a discard
    # and took it back 60 times, each taken, and the give-up clock never ran out)
    _best: dict[int, int] = field(default_factory=dict)
    _progressed: bool = False
    # the table's next moves beyond the journal, as the page enters them, when the journal
    # holds what the table did so far (a call's run of moves on one button is right when
    # it begins them)
    _next: list[dict[str, Any]] = field(default_factory=list)
    tally: CallTally = field(default_factory=CallTally)
    _shown: _Shown | None = None

    def poll(self) -> None:
        """Answer the table while its referee page says "Referee called": one answer per
        look, and after an answer taken the next look only `SETTLE_S` later (the reader
        catches up with the table meanwhile, and the page with it); an answer the daemon is
        still taking in is not given twice (once per state of the journal)."""
        if not self.url:
            return
        view = self._get("/referee/api/view")
        if view is None:
            return  # the daemon restarting
        public = view.get("public") or {}
        deal = public.get("deal")
        self.follow(view.get("call"), deal)
        if not view.get("call") or not deal:
            self._called_since = None
            return
        now = time.monotonic()
        # a call standing this long in the same deal with no answer taken had none that helps
        if self._called_since is None or self._called_since[0] != deal:
            self._called_since = (deal, now)
        elif now - self._called_since[1] >= GIVE_UP_S:
            self._called_since = (deal, now)
            note = "the table cannot be put right move by move: replayed"
            if self._post({"kind": "abandon", "confirmed": True, "note": note}):
                self.answered.append(f"deal {deal}: abandoned (no answer fitted)")
            return
        if now - self._tapped_at < SETTLE_S:
            return  # looking at the table after the last answer
        state = (deal, public.get("seq"))
        if state == self._last:
            if self._refused != state:
                return
            # the judge refused what the table shows (a Hu read after its claim window
            # closed: 10/10/2 seed 313 deal 44 was ended for it): the move before it is
            # taken back, to be entered again with what followed it
            self._refused = None
            action: dict[str, Any] | None = {
                "kind": "cancel",
                "count": 1,
                "note": "the judge refused what the table showed: entered again",
            }
        else:
            self._last = state
            action = self._intent(int(deal))
        if action is None:
            return
        if self._post(action):
            self.answered.append(f"deal {deal}: {_said(action)}")
            if self._progressed:
                # the call may stand while the judge catches up with the table (it goes
                # off once they agree)
                self._called_since = (deal, time.monotonic())
        elif self.was_refused and action["kind"] != "cancel":
            self._refused = state

    @property
    def _rules(self) -> RuleSet:
        return load(self.rules)

    def follow(self, call: dict[str, Any] | None, deal: Any = None) -> None:
        """Count the page's calls (`deal`: the deal the page shows): a new one starts its
        tally, one gone ends it."""
        key = None if call is None else str(call.get("id", "")).split(".")[0]
        shown = self._shown
        if shown is not None and key == shown.key:
            assert call is not None
            shown.name, shown.offered = str(call["id"]), _offered(call)
            return
        if shown is not None:
            t = self.tally
            t.calls += 1
            t.log.append(
                {
                    "deal": shown.deal,
                    "call": shown.key,
                    "headline": shown.headline,
                    "taps": shown.taps,
                    "answers": shown.answers,
                }
            )
            if not shown.taps:
                t.by_table += 1
            else:
                t.taps.append(shown.taps)
                t.by_first += shown.first_only
                if shown.answered_at is not None:
                    t.seconds.append(shown.answered_at - shown.since)
        self._shown = None
        if call is not None and key:
            self._shown = _Shown(
                key,
                _offered(call),
                str(call["id"]),
                time.monotonic(),
                str(call.get("headline")),
                deal,
            )

    def finish(self) -> CallTally:
        """The tally with the call standing now counted."""
        self.follow(None)
        return self.tally

    def _get(self, path: str) -> dict[str, Any] | None:
        request = urllib.request.Request(
            self.url + path, headers={"Authorization": f"Bearer {TOKEN}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as reply:
                return json.loads(reply.read())
        except (urllib.error.URLError, OSError, ValueError):
            return None  # the daemon restarting

    def _deal_truth(self, started: dict[str, Any]) -> DealTruth | None:
        """The truth's deal whose wall is the one the daemon scanned for this deal (a scan
        may hold a pair of tiles in the wrong order: most places, not all, agree)."""
        size = self.truth.stat().st_size if self.truth.exists() else 0
        if size != self._truth_size:
            self._truth_size = size
            try:
                self._truth = read_truth(self.truth, self.rules)
            except (ValueError, AssertionError, KeyError):
                return None  # a line being written: next poll
        scanned = started.get("wall")
        if not scanned:
            return None
        drawing = [Tile.parse(t) for t in scanned]
        dice = Dice(*started["dice"])
        wall = to_physical(self._rules, dice, drawing)

        def agree(d: DealTruth) -> int:
            return sum(a == b for a, b in zip(d.wall, wall, strict=False)) if d.dice == dice else 0

        best = max(self._truth, key=agree, default=None)
        return best if best is not None and agree(best) >= WALL_MATCH else None

    def _intent(self, deal: int) -> dict[str, Any] | None:
        """What the referee does next about `deal`, looking at the table (the truth) beside
        the judge (the journal): one answer, or None (nothing the journal lacks)."""
        with Journal.open_readonly(self.journal) as j:
            jd = read_deal(j, deal)
            entries, _notes = effective_moves(jd)
        if jd.settled is not None:
            return None
        truth = self._deal_truth(jd.started_record.data())
        if truth is None or truth.dealer is not jd.dealer:
            return None
        self._next = []
        kept = [e for e in entries if e.origin == "move"]
        have = comparable([e.move for e in kept])
        real = comparable(truth.moves)
        i = 0
        while i < len(have) and i < len(real) and have[i] == real[i]:
            i += 1
        self._progressed = i > self._best.get(deal, -1)
        self._best[deal] = max(i, self._best.get(deal, -1))
        if i < len(have):
            h, r = have[i], real[i] if i < len(real) else None
            if isinstance(h, Simultaneous) and isinstance(r, Simultaneous) and h.what == r.what:
                missing = [m for m in r.moves if m not in h.moves]
                if all(m in r.moves for m in h.moves):
                    return _action(missing[0], jd.dealer) if missing else None
                # a claim or void read wrong inside a block: taken back with what followed
                # it, then entered as the table shows it (seed 200 deals 71 and 87 were
                # left "to a person" and ended after 30 s)
            if _misread_draw(h, r):
                # the wall scan misread the drawn tile: the draw is fixed, not taken back
                at = _entry_of(kept, i)
                return {"kind": "fix-tile", "target_seq": at, "tile": str(r.tile)}
            if _misread_discard(h, r) and have[i + 1 :] == real[i + 1 : len(have)]:
                # the judge took the discard as another tile and followed the table since
                # (seed 311 deal 24): the discard is fixed, what followed it stands
                at = _entry_of(kept, i)
                return {"kind": "fix-tile", "target_seq": at, "tile": str(r.tile)}
            # a move the table never showed: take it (and what followed it) back
            n = min(8, sum(len(b.moves) if isinstance(b, Simultaneous) else 1 for b in have[i:]))
            return {"kind": "cancel", "count": n, "note": "not what the table showed"}
        if i < len(real):
            ahead = [
                m for b in real[i:] for m in (b.moves if isinstance(b, Simultaneous) else (b,))
            ]
            self._next = [
                a
                for a in (_action(m, jd.dealer) for m in ahead if not isinstance(m, mv.Pass))
                if a is not None
            ]
            block = real[i]
            action = _action(
                block.moves[0] if isinstance(block, Simultaneous) else block, jd.dealer
            )
            if action is not None and _misread_wall(jd, action):
                # the scan misread the tile the wall gives: the judge refuses the table's
                # tile (seed 311 deal 30: entered, refused, the discard before it taken back
                # and entered again, 60 times); the draw is entered as the wall says (the
                # call's button) and fixed at the next look (`_misread_draw`)
                del action["tile"]
                action["note"] = "as the wall says: its tile is fixed next"
            return action
        return None

    def _post(self, action: dict[str, Any]) -> bool:
        shown = self._shown
        if shown is not None:
            # the first candidate's button when it sends what the referee means to do,
            # else "Something else…" and the form
            tapped = _first_button(action, shown.offered, self._next)
            if shown.offered is not None and tapped is not None:
                # the button (and, for an end or a penalty, the page's question: one more)
                shown.taps += 1 + bool(action.get("confirmed"))
                shown.answers.append(f"first: {tapped}")
                said = {"note": action.get("note", ""), "call": shown.name}
                if action.get("confirmed"):
                    said["confirmed"] = True
                action = {**shown.offered, **said}
            else:
                shown.taps += MANUAL_TAPS.get(action["kind"], MANUAL_TAP)
                shown.first_only = False
                offered = "nothing" if shown.offered is None else _said(shown.offered)
                shown.answers.append(f"form: {_said(action)} (first button: {offered})")
        if action["kind"] == "abandon":
            self.tally.abandoned += 1
        accepted = self._send(action)
        if accepted:
            self._tapped_at = time.monotonic()
        if accepted and shown is not None:
            if shown.answered_at is None:
                shown.answered_at = time.monotonic()
            # the page after the answer: its call's next first candidate (or no call)
            view = self._get("/referee/api/view")
            if view is not None:
                self.follow(view.get("call"), (view.get("public") or {}).get("deal"))
        return accepted

    def _send(self, action: dict[str, Any]) -> bool:
        request = urllib.request.Request(
            self.url + "/referee/api/action",
            data=json.dumps(action).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"},
            method="POST",
        )
        self.was_refused = False
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return bool(json.loads(reply.read()).get("accepted"))
        except urllib.error.HTTPError as err:
            self.was_refused = err.code == 409  # the judge's (or the desk's) no
            return False
        except (urllib.error.URLError, OSError, ValueError):
            return False  # the daemon restarting: the call comes again


def _offered(call: dict[str, Any]) -> dict[str, Any] | None:
    """What the call's first candidate's button sends (None: it only says what to look at),
    as the page makes it (controller/web/referee.js `answerOf`)."""
    first = (call.get("candidates") or [None])[0]
    if not first:
        return None
    if first.get("move"):
        return {"kind": "move", **first["move"]}
    return first.get("action") or None


def _first_button(
    action: dict[str, Any], offered: dict[str, Any] | None, table: list[dict[str, Any]]
) -> str | None:
    """What the referee's answer `action` is, said as the call's first button (`offered`)
    gives it, when that button does what the referee means (None: it does not). `table`:
    the table's next moves. The button sends the answer itself; or it enters a run of moves
    that begins with the answer and goes on as the table did (one tap for all); or it closes
    claims nobody made, the answer being the draw after them (10/10/2 seed 313 deal 21:
    "Nobody claimed South's 9p" was right, and the referee entered West's draw by hand)."""
    if offered is None:
        return None
    run = _run(offered, table)
    if run and _same(action, {"kind": "move", **run[0]}):
        return f"entered {len(run)} moves ({_said(action)} first)"
    if _nobody_claimed(offered, table) and action["kind"] == "move":
        return f"nobody claimed (then {_said(action)})"
    return _said(action) if _same(action, offered) else None


def _run(offered: dict[str, Any] | None, table: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves of a button that enters several (`moves`), when they are the table's next
    ones (`table`, as `_action` makes them) in their order; else none."""
    if offered is None or offered.get("kind") != "moves":
        return []
    run = list(offered.get("moves") or [])
    if len(run) > len(table):
        return []
    pairs = zip(table[: len(run)], run, strict=True)
    same = all(_same({**t, "kind": "move"}, {"kind": "move", **m}) for t, m in pairs)
    return run if same else []


def _nobody_claimed(offered: dict[str, Any] | None, table: list[dict[str, Any]]) -> bool:
    """The button closes the open claims, and the table's next move is a draw: nobody
    claimed (a claim or a Hu on the discard would come before it)."""
    if offered is None or offered.get("kind") != "nobody-claimed" or not table:
        return False
    return table[0]["move"] in ("draw", "replacement")


def _same(action: dict[str, Any], offered: dict[str, Any]) -> bool:
    """The button sends what the referee means: the same action, and what the referee says
    of it (a draw's tile is the wall's next: the button names it, the referee need not)."""
    keys = set(action) - {"note", "confirmed"}
    return all(str(action[k]) == str(offered.get(k, "")) for k in keys)


def _said(action: dict[str, Any]) -> str:
    """An answer in the report's words: "entered S draw", "cancelled 2 move(s)"."""
    if action["kind"] == "move":
        return f"entered {action['seat']} {action['move']}"
    if action["kind"] == "cancel":
        return f"cancelled {action['count']} move(s)"
    if action["kind"] == "fix-tile":
        return f"fixed record {action['target_seq']} to {action['tile']}"
    return str(action["kind"])


def _misread_wall(jd: Any, action: dict[str, Any]) -> bool:
    """`action` enters a draw whose tile is not the one the judge's wall gives next."""
    if action["kind"] != "move" or action["move"] not in ("draw", "replacement"):
        return False
    if "tile" not in action:
        return False
    wall = rebuild(jd).deal.wall
    given = wall.peek() if action["move"] == "draw" else wall.peek_replacement()
    return given is not None and str(given) != action["tile"]


def _misread_draw(have: Any, real: Any) -> bool:
    """The journal's draw is the table's, with another tile: the wall scan misread it."""
    draws = (mv.Draw, mv.ReplacementDraw)
    return (
        isinstance(have, draws)
        and type(real) is type(have)
        and real.seat is have.seat
        and real.tile is not None
        and real.tile != have.tile
    )


def _misread_discard(have: Any, real: Any) -> bool:
    """The journal's discard is the table's, with another tile."""
    return (
        isinstance(have, mv.Discard)
        and isinstance(real, mv.Discard)
        and real.seat is have.seat
        and real.tile != have.tile
    )


def _entry_of(kept: list[Any], block: int) -> int:
    """The journal record of the move that starts comparable block `block` of `kept`."""
    for n in range(1, len(kept) + 1):
        if len(comparable([e.move for e in kept[:n]])) > block:
            return int(kept[n - 1].at)
    raise ValueError(f"no block {block}")


def _bare(m: mv.Move) -> mv.Move:
    import dataclasses

    return dataclasses.replace(m, t=None)


def _action(move: mv.Move, dealer: Any) -> dict[str, Any] | None:
    data = move_to_json(_bare(move))
    seat = data.get("seat")
    if seat is None:
        return None
    from rules.seats import Seat

    action: dict[str, Any] = {
        "kind": "move",
        "move": data["move"],
        "seat": table_seat(Seat.parse(seat), dealer).name,
        "note": "as the table showed it",
    }
    if data.get("tile"):
        action["tile"] = data["tile"]
    elif data["move"] == "void":
        action["suit"] = data["suit"]  # chosen by the table's button: no tile laid
    return action
