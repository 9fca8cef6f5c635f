"""What was hidden at each moment of a real deal, from the daemon's own journal, and a scanner
that checks a public answer against it.

The journal holds everything: `deal.started` the scanned wall (drawing order) and the dice,
`move.accepted` every judge move (deal seats), `claim.window` the closes the daemon decided.
Re-judged with `rules.deal.Deal`, each record gives a `Moment`: the concealed hands, each
void and whether it is public yet, the wall still to draw, and the public facts (rivers,
melds, Hu tiles, tiles left, the discard on the table) a public view of that moment must show.

A void is public once its seat has discarded (the face-down void tile is the mandatory first
discard, RULES.md "Play"; 004 Lesson 2), or when the deal is over. Concealed hands and the
wall are never public (a winner's hand is turned face down: blood battle).
"""

from __future__ import annotations

import bisect
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.journal.payloads import move_from_judge_json, table_seat, to_physical
from controller.journal.records import RecordKind
from controller.journal.store import Journal
from rules import moves as mv
from rules.deal import Deal
from rules.ruleset import load
from rules.seats import SEATS, Seat
from rules.tiles import Tile
from rules.wall import Dice

# A tile in the notation of RULES.md, standing alone ("5p", "pung 5s"): the only way a tile
# can be written in a view. Compact groups ("123m") are never used by a view.
TILE_TOKEN = re.compile(r"(?<![0-9A-Za-z])[1-9][mpsz](?![0-9A-Za-z])")
COMPACT_GROUP = re.compile(r"(?<![0-9A-Za-z])[1-9]{2,}[mpsz](?![0-9A-Za-z])")

# The fields a public view may have (controller/outputs/view.py, docs/SCOREBOARD.md). Written
# out here on purpose: a new field must be looked at before this test lets it through.
PUBLIC_KEYS = frozenset(
    (
        *("table", "session", "deal", "rules", "dealer", "phase", "turn", "tiles_left"),
        *("claim_remaining_s", "last_discard", "seats", "seq", "kind", "version"),
        "prevalent",  # the round wind (Wellness): public, it is announced
        "referee_called",  # a flag, no text: the call's words name tiles in hands
        *("session_deal", "session_deals"),  # two counts: "Deal 3 of 10" (issue 16 item 10)
        "discarder",  # whose discard the open window is on
        "last_action",  # the last move in words: its tile only when it is public
        "ledger",  # the payments: a Hu's patterns only once the deal is over
        "end",  # how a finished deal ended (the result screen)
        # words (issue 28): the table's name as a title, the phase, the devices waited for
        *("table_title", "phase_text", "waiting_for"),
        "ledger_words",  # the ledger in sentences: tiles only as the ledger names them
    )
)
SEAT_KEYS = frozenset(
    (
        *("seat", "player", "score", "deal_delta", "discards", "melds", "standing", "void"),
        *("hu_order", "hu_tile"),
        # Wellness: the pattern, value and bonuses of a Hu, once the deal is over (no tile)
        *("hu_pattern", "hu_value", "hu_bonuses"),
        # the result screen, once the deal is over: the standing tiles face up, each Hu's
        # fan and patterns, the deal's change
        *("hand", "hu_fan", "hu_patterns", "deal_change"),
    )
)


@dataclass(frozen=True, slots=True)
class SeatTruth:
    hand: tuple[str, ...]  # concealed standing tiles, sorted (the laid void tile included)
    void: str | None  # the chosen suit letter
    void_public: bool
    river: tuple[str, ...]
    melds: tuple[str, ...]
    hu_tile: str | None


@dataclass(frozen=True, slots=True)
class Moment:
    seq: int  # the journal record from which this state holds
    mono: float  # that record's monotonic time (the daemon's CLOCK_MONOTONIC)
    deal: int
    seats: tuple[SeatTruth, ...]  # fixed table seats E S W N
    wall: tuple[str, ...]  # still to draw, in drawing order
    tiles_left: int
    last_discard: str | None  # the tile of an open claim window
    over: bool


class Timeline:
    """The moments of every deal in a journal, looked up by journal sequence number."""

    def __init__(self, moments: Sequence[Moment], monos: Mapping[int, float]) -> None:
        self.moments = list(moments)
        self._seqs = [m.seq for m in self.moments]
        self.monos = dict(monos)

    def at(self, seq: int) -> Moment | None:
        i = bisect.bisect_right(self._seqs, seq) - 1
        return self.moments[i] if i >= 0 else None

    def final(self, deal: int, seq: int) -> Moment | None:
        """The last moment of `deal` at or before `seq` (a finished deal's result screen
        stays on the public feed while the next deal is dealt)."""
        found = [m for m in self.moments if m.deal == deal and m.seq <= seq]
        return found[-1] if found else None

    @classmethod
    def read(cls, path: Path, rules: str = "sbr-mil") -> Timeline:
        rs = load(rules)
        moments: list[Moment] = []
        monos: dict[int, float] = {}
        deal: Deal | None = None
        dealer, number = Seat.E, 0
        discarded: set[Seat] = set()
        with Journal.open_readonly(path) as journal:
            assert journal.verify().ok, "the journal's hash chain is broken"
            for rec in journal.records():
                monos[rec.seq] = rec.mono
                changed = False
                if rec.kind is RecordKind.DEAL_STARTED:
                    data = rec.data()
                    dice = Dice(*data["dice"])
                    wall = to_physical(rs, dice, [Tile.parse(t) for t in data["wall"]])
                    deal, dealer, number = (
                        Deal.start(rs, dice, wall),
                        Seat.parse(data["dealer"]),
                        rec.deal,
                    )
                    discarded, changed = set(), True
                elif deal is not None and rec.deal == number:
                    if rec.kind is RecordKind.MOVE_ACCEPTED:
                        move = move_from_judge_json(rec.data()["judge"])
                        assert deal.apply(move), f"record {rec.seq}: the judge refuses {move}"
                        if isinstance(move, mv.Discard):
                            discarded.add(move.seat)
                        changed = True
                    elif rec.kind is RecordKind.CLAIM_WINDOW:
                        if rec.data()["state"] == "closed" and deal.window is not None:
                            assert deal.apply(mv.CloseClaims())
                            changed = True
                    elif rec.kind is RecordKind.DEAL_SETTLED:
                        changed = True
                if changed and deal is not None:
                    moments.append(_moment(rec.seq, rec.mono, number, deal, dealer, discarded))
        return cls(moments, monos)


def _moment(seq: int, mono: float, number: int, deal: Deal, dealer: Seat, discarded) -> Moment:
    by_table: dict[Seat, SeatTruth] = {}
    wins = {w.seat: w for w in deal.winners if not w.false_hu}
    for s in SEATS:  # deal seats
        void = deal.void(s)
        win = wins.get(s)
        by_table[table_seat(s, dealer)] = SeatTruth(
            hand=tuple(sorted(str(t) for t in deal.hand(s))),
            void=None if void is None else void.value,
            void_public=s in discarded or deal.over,
            river=tuple(str(t) for t in deal.river(s)),
            melds=tuple(str(m) for m in deal.melds(s)),
            hu_tile=None if win is None or win.tile is None else str(win.tile),
        )
    window = deal.window
    return Moment(
        seq=seq,
        mono=mono,
        deal=number,
        seats=tuple(by_table[s] for s in SEATS),
        wall=tuple(str(deal.wall.order[i]) for i in deal.wall.remaining()),
        tiles_left=deal.tiles_left,
        last_discard=None if window is None or deal.over else str(window.tile),
        over=deal.over,
    )


# --- the scanner ------------------------------------------------------------------------------


def tokens(text: str) -> Counter[str]:
    return Counter(TILE_TOKEN.findall(text))


def scan_public(view: Mapping[str, Any], raw: str, timeline: Timeline) -> list[str]:
    """Problems with one public view (parsed and as received): [] when it shows only what
    was public at the journal moment it names (`seq`)."""
    problems: list[str] = []
    seq = view.get("seq")
    where = f"public view seq {seq}"
    if set(view) != PUBLIC_KEYS:
        problems.append(f"{where}: fields {sorted(set(view) ^ PUBLIC_KEYS)} differ")
    for s in view.get("seats", ()):
        if set(s) != SEAT_KEYS:
            problems.append(f"{where}: seat fields {sorted(set(s) ^ SEAT_KEYS)} differ")
    if COMPACT_GROUP.search(raw):
        problems.append(f"{where}: a tile group {COMPACT_GROUP.search(raw).group()!r}")
    # Tiles may appear only in the public tile fields, and each of those must be what the
    # journal says was on the table: nothing else can carry a concealed or wall tile.
    shown: list[str] = []
    for s in view.get("seats", ()):
        shown += [*s.get("discards", ()), *s.get("melds", ()), s.get("hu_tile") or ""]
        shown += s.get("hand") or ()
    shown.append(view.get("last_discard") or "")
    # the words (the ledger's reasons, the last action) may name only tiles shown elsewhere
    worded = ("ledger", "ledger_words", "last_action")
    said = {k: v for k, v in view.items() if k not in worded}
    words = json.dumps([view.get(k) for k in worded])
    unseen = set(tokens(words)) - set(tokens(" ".join(shown)))
    if unseen:
        problems.append(f"{where}: the ledger or last action names {sorted(unseen)}")
    extra = tokens(json.dumps(said)) - tokens(" ".join(shown))
    if extra:
        problems.append(f"{where}: tiles outside the public fields: {sorted(extra.elements())}")
    m = timeline.at(int(seq)) if isinstance(seq, int) else None
    if m is not None and view.get("deal") != m.deal and view.get("end") is not None:
        # a finished deal held on screen while the next one is dealt: its last moment
        m = timeline.final(int(view.get("deal") or 0), int(seq))
        if m is not None and not m.over:
            problems.append(f"{where}: a result shown for deal {m.deal}, which is not over")
    if m is None or view.get("deal") != m.deal:
        if any(shown):
            problems.append(f"{where}: tiles shown with no deal of that number in the journal")
        return problems
    problems += _against_moment(view, raw, m, where)
    return problems


def _against_moment(view: Mapping[str, Any], raw: str, m: Moment, where: str) -> list[str]:
    problems = []
    if view.get("tiles_left") != m.tiles_left:
        problems.append(f"{where}: tiles_left {view.get('tiles_left')} != {m.tiles_left}")
    if view.get("last_discard") != m.last_discard:
        problems.append(f"{where}: last_discard {view.get('last_discard')} != {m.last_discard}")
    for s, truth in zip(view.get("seats", ()), m.seats, strict=False):
        name = s.get("seat")
        if tuple(s.get("discards", ())) != truth.river:
            problems.append(f"{where}: {name} river {s.get('discards')} != {list(truth.river)}")
        if tuple(s.get("melds", ())) != truth.melds:
            problems.append(f"{where}: {name} melds {s.get('melds')} != {list(truth.melds)}")
        if s.get("standing") != len(truth.hand):
            problems.append(f"{where}: {name} standing {s.get('standing')} != {len(truth.hand)}")
        if s.get("void") is not None and not truth.void_public:
            problems.append(f"{where}: {name}'s void {s.get('void')} shown before it is revealed")
        if s.get("void") not in (None, truth.void):
            problems.append(f"{where}: {name}'s void {s.get('void')} != {truth.void}")
        if s.get("hu_tile") != truth.hu_tile:
            problems.append(f"{where}: {name} hu_tile {s.get('hu_tile')} != {truth.hu_tile}")
        hand = s.get("hand")
        if hand is not None and not m.over:
            problems.append(f"{where}: {name}'s hand shown before the deal is over")
        if hand is not None and tuple(sorted(hand)) != truth.hand:
            problems.append(f"{where}: {name} hand {hand} != {list(truth.hand)}")
        if not m.over and (s.get("hu_patterns") or s.get("hu_fan") is not None):
            problems.append(f"{where}: {name}'s Hu patterns shown before the deal is over")
    # The wall order in any spelling: the next tiles to draw, in order, with any separators.
    if len(m.wall) >= 5:
        pattern = r"\W*".join(re.escape(t) for t in m.wall[:5])
        if re.search(pattern, raw):
            problems.append(f"{where}: the wall order {m.wall[:5]} appears")
    return problems


def scan_broadcast(
    view: Mapping[str, Any], received: float, delay_s: float, timeline: Timeline
) -> list[str]:
    """A released broadcast view: never before `delay_s` after the moment it shows, and
    the hands it shows are the hands of that moment."""
    public = view["public"]
    where = f"broadcast view seq {public['seq']}"
    problems = scan_public(public, json.dumps(public), timeline)
    moment_at = timeline.monos.get(public["seq"])
    if moment_at is None:
        return [*problems, f"{where}: no journal record {public['seq']}"]
    early = moment_at + delay_s - received
    if early > 1e-3:
        problems.append(f"{where}: received {early:.3f} s before the delay had passed")
    if view["shown_at"] < moment_at - 1e-3:
        problems.append(f"{where}: shown_at {view['shown_at']} before its record {moment_at}")
    m = timeline.at(public["seq"])
    if m is not None and public["deal"] == m.deal:
        if len(view["hands"]) != len(m.seats):
            problems.append(f"{where}: {len(view['hands'])} hands")
        for hand, truth in zip(view["hands"], m.seats, strict=False):
            if tuple(sorted(hand["standing"])) != truth.hand:
                problems.append(f"{where}: {hand['seat']} hand {hand['standing']} != {truth.hand}")
    return problems
