"""What the recogniser reads late: the clock's deadlines (held claims, KONG buttons without
tiles, the multi-move search, alerts after `grace`, STALLED) and the reconciliation after a
restart or a reconnection."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from controller.alerts import AlertKind
from controller.profiles import DeclarationSource, TileCopy, Zone, ZoneKind
from controller.recognition.expected import (
    Tally,
    fmt_tally,
    observed,
)
from controller.recognition.readings import move_text, shown
from controller.recognition.reconcile import explain, fork
from controller.recognition.results import DEALT, MoveSeen, Recognised, RefereeAlert
from rules.deal import Deal
from rules.deal_state import Phase
from rules.seats import SEATS

log = logging.getLogger(__name__)

DEALING_GRACE = 4  # graces with no tile landing in a hand before a short dealing stalls


class CatchUp:
    """A part of `Recogniser` (the module's docstring says what it owns)."""

    def tick(self, now: float, deal: Deal | None) -> list[Recognised]:
        if deal is None or deal.over:
            return []
        out = self._tick(now, deal)
        if not any(isinstance(r, MoveSeen) for r in out):
            out += self._stalled(now, deal)  # the safety net, when nothing else was said
        return out

    def _tick(self, now: float, deal: Deal) -> list[Recognised]:
        out: list[Recognised] = []
        since = self._residue_since
        old = since is not None and now - since >= self.grace
        if old and self._residue_key and self._logged != self._residue_key:
            self._logged = self._residue_key
            log.debug("residue since %.1f: %s", since, fmt_tally(dict(self._res)))
        out += self.declarations.expire(now, deal, self.layout)
        # a residue first noticed now dates from the last event (the judge's change)
        out += self._evaluate(deal, None, now)
        self._clock = now
        if self._offered == (self._key(deal), self._residue_key) or not self._residue_key:
            return out
        if self._residue_since is None:
            self._residue_since = now
        age = now - self._residue_since
        probe = (self._key(deal), self._residue_key)
        if age >= self.settle and self._searched != probe and self._undone is None:
            found = self._search(deal)
            if any(isinstance(r, MoveSeen) for r in found):
                return out + found
            out += found
        if age >= self.grace:
            out += self._classify(deal, self._residue(deal))
        return out

    def _stalled(self, now: float, deal: Deal) -> list[Recognised]:
        """The safety net (controller.recognition.watchdog): the residue has stayed
        unexplained for `grace` seconds, however often it changed, and nothing was accepted."""
        if deal.over:
            return []
        res = self._residue(deal)
        hands = sum(n for s, n in self._seen.items() if s.zone.kind is ZoneKind.HAND)
        progress = self._dealing
        if progress is None or progress[0] != hands:
            self._dealing = progress = (hands, now)
        # a dealing that stopped short arms it too: no tile has landed in a hand for a while
        # and the hands still differ from the judge (20 % missed reads: a deal whose hands
        # never matched the judge went by with no alert at all)
        slow = now - progress[1] >= DEALING_GRACE * self.grace
        armed = self._dealt or bool(deal.history) or hands >= DEALT or slow
        age = self._watch.check(now, bool(res) and self._undone is None, armed)
        if age is None:
            return []
        if deal.phase is Phase.CHOOSING_VOID:
            waits = "void choices of " + " ".join(str(s) for s in SEATS if deal.void(s) is None)
        else:
            waits = f"{deal.phase.value} ({deal.turn} to move)"
        text = (
            f"no move read for {age:.1f} s while the table differs from the judge, which "
            f"waits for {waits}: {fmt_tally(res)}"
        )
        return [RefereeAlert(AlertKind.STALLED, None, text, self._evidence(frozenset(res)))]

    def _search(self, deal: Deal) -> list[Recognised]:
        """Several moves read at once (a read missed in between): the bounded search, once
        per judge state and residue; only moves the table showed are offered."""
        self._searched = (self._key(deal), self._residue_key)
        found = explain(deal, self._where, self.layout, max_steps=4)
        if found.outcomes > 1:
            text = f"{found.outcomes} different move sequences fit the table: " + " | ".join(
                " → ".join(move_text(m) for m in e.moves) for e in found.explanations
            )
            return self._alert(AlertKind.AMBIGUOUS, None, text, (), self._residue_key)
        declared = self.declarations.declared(self.layout)
        claims = DeclarationSource.TILES in self.layout.sources
        if found.outcomes == 1 and shown(found.explanations[0].moves, declared, claims):
            best = min(found.explanations, key=lambda e: len(e.moves))
            evidence = self._evidence(frozenset(self._residue(deal)), consume=True)
            evidence = ("several moves read at once (a read missed in between)", *evidence)
            self._mark_offered(deal)
            out: list[Recognised] = [MoveSeen(m, evidence) for m in best.moves]
            out += self.declarations.release(deal, best.moves, self._clock, self.layout)
            return out
        return []

    def _classify(self, deal: Deal, res: Tally) -> list[Recognised]:
        out: list[Recognised] = []
        key = frozenset(res.items())
        left = dict(res)
        in_rivers = {s.tile for s, n in res.items() if s.zone.kind is ZoneKind.RIVER and n > 0}
        for seat in SEATS:
            side = self.layout.side(seat)
            mine = {s: n for s, n in res.items() if s.zone.seat == side}
            melds = {s: n for s, n in mine.items() if s.zone.kind is ZoneKind.MELDS}
            hands = {s: n for s, n in mine.items() if s.zone.kind is ZoneKind.HAND}
            hand = sum(hands.values())
            claimed = {s.tile for s, n in (*melds.items(), *hands.items()) if n < 0} & in_rivers
            ev = self._evidence(frozenset(mine))
            if any(n < 0 for n in melds.values()) or (claimed and hand < 0):
                text = (
                    f"{seat} ({side}): declared, but the tiles did not follow ({fmt_tally(mine)})"
                )
                out += self._alert(AlertKind.DECLARATION_WITHOUT_TILES, seat, text, ev, key)
            elif any(n > 0 for n in melds.values()):
                text = (
                    f"{seat} ({side}): tiles moved into the melds undeclared ({fmt_tally(melds)})"
                )
                out += self._alert(AlertKind.TILES_WITHOUT_DECLARATION, seat, text, ev, key)
            elif hand:
                kind = AlertKind.LONG_HAND if hand > 0 else AlertKind.SHORT_HAND
                text = f"{seat} ({side}) hand holds {hand:+d} tiles: {fmt_tally(hands)}"
                out += self._alert(kind, seat, text, ev, key)
            else:
                continue
            for s in (*melds, *hands):
                left.pop(s, None)
            for s in list(left):
                if s.zone.kind is ZoneKind.RIVER and s.tile in claimed:
                    left.pop(s)  # the claimed tile still lying in the discarder's river
        if left:
            text = f"the table differs from the judge: {fmt_tally(left)}"
            out += self._alert(
                AlertKind.UNRECOGNISED, None, text, self._evidence(frozenset(left)), key
            )
        return out

    def reconcile(self, presence: Mapping[TileCopy, Zone], deal: Deal) -> list[Recognised]:
        self._where = dict(presence)
        self._seen = observed(self._where, self.layout)
        self._res_for = None
        self._dealt = self._dealt or bool(deal.moves)
        if deal.over:
            return []
        judge = deal
        cards: list[Recognised] = []
        if self.cards.any_found:  # the cards laid meanwhile declare first (card_declarations.py)
            carded = fork(deal)
            cards = self._cards_found(carded, self._clock or 0.0)
            if any(isinstance(r, MoveSeen) for r in cards):
                deal = carded
        if not self._dealt and all(n < 0 for n in self._residue(deal).values()):
            # restarted while the walls were being dealt: tiles are only still missing from
            # the hands, none is anywhere else; the dealing goes on and is read as it lands
            # (no RECOVERY alert for a half-dealt table, issue 13 item 3)
            return [*cards, *self._evaluate(deal, None)]
        found = explain(deal, self._where, self.layout, max_steps=self.max_steps)
        note = ("reconciled from the tiles on the table",)
        if found.outcomes == 1:
            best = min(found.explanations, key=lambda e: len(e.moves))
            if best.moves or cards:
                self._mark_offered(judge)
            return [*cards, *(MoveSeen(m, note) for m in best.moves)]
        sure = found.common_prefix()
        out: list[Recognised] = [*cards, *(MoveSeen(m, note) for m in sure)]
        if sure or cards:
            self._mark_offered(judge)
        if not found.explanations:
            res = self._residue(deal)
            text = f"no legal sequence of up to {self.max_steps} moves explains the table: {fmt_tally(res)}"
        else:
            alts = [
                " → ".join(move_text(m) for m in e.moves[len(sure) :]) for e in found.explanations
            ]
            text = f"{found.outcomes} different outcomes fit the table: " + " | ".join(alts)
        out.append(RefereeAlert(AlertKind.RECOVERY, None, text, note))
        return out
