"""The parts of the recogniser's alerts as sentences (controller/locale `Said`): seats,
tiles, tile copies, suits, tallies, moves and what the judge waits for, each said in the
reader's language and, for an English reader, written as the recogniser always wrote it
("S", "5p", "3m#2", "S.hand 5p +1, wall 5s +1", "Draw S 5p then Discard S 5p"). Each alert
is made where it is raised (`says(msgid, ...)`, controller/recognition) from these parts: its
English, `RefereeAlert.text`, is what the journal keeps as the alert's `message`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from controller.locale import N_, Said, says
from controller.profiles import Zone
from controller.recognition.expected import Spot
from controller.recognition.readings import move_text
from controller.tag_maps import TileCopy
from controller.words import MOVE_VERBS, SEAT_NAMES, SUIT_WORDS, VERBS, tile_said, zone_said
from rules.deal import Deal
from rules.deal_state import Phase
from rules.moves import ChooseVoid, CloseClaims, Kong, Move
from rules.seats import SEATS, Seat
from rules.tiles import Suit

# the judge's phases (rules/deal_state.py Phase) as what the judge waits for
WAITS = {
    Phase.DRAW: N_("a draw"),
    Phase.REPLACEMENT: N_("a replacement draw"),
    Phase.DISCARD: N_("a discard"),
    Phase.CLAIMS: N_("claims"),
    Phase.ROBBING: N_("the kong to be robbed or not"),
    Phase.OVER: N_("nothing (the deal is over)"),
}
CLOSE_CLAIMS = N_("the claim window closes")
# how a list is joined: the sentence for each language, the separator the recogniser wrote
LISTED = (N_("{first}, {second}"), ", ")
THEN = (N_("{first}, then {second}"), " then ")
EITHER = (N_("{first} and {second}"), " and ")
STEP = (N_("{first} → {second}"), " → ")
OR = (N_("{first} | {second}"), " | ")
SPACED = (N_("{first}, {second}"), " ")  # seats one after another ("E W")


def seat_said(seat: Seat) -> Said:
    """A seat or side: "S" for an English reader, 南, Юг in another language."""
    return Said(SEAT_NAMES[str(seat)], english=str(seat))


def suit_said(suit: Suit) -> Said:
    """A suit by its letter ("p"): 筒, точки."""
    name = SUIT_WORDS.get(suit.value)
    return Said(name, english=str(suit)) if name else Said(str(suit), english=str(suit))


def copy_said(tc: TileCopy) -> Said:
    """One physical tile, "3m#2": 三万（第2张）."""
    return replace(
        says("{tile} (copy {copy})", tile=tile_said(tc.tile), copy=tc.copy), english=str(tc)
    )


def listed(items: Iterable[Said], how: tuple[str, str] = LISTED) -> Said:
    """Sentences one after another: joined by `how`'s sentence in each language, by its
    separator in English ("nothing" said for none, written as "")."""
    said = list(items)
    if not said:
        return Said(N_("nothing"), english="")
    msgid, sep = how
    out = said[0]
    for more in said[1:]:
        out = says(msgid, first=out, second=more)
    return replace(out, english=sep.join(str(s) for s in said)) if len(said) > 1 else out


def zone_of_said(zone: Zone) -> Said:
    """A zone as `Zone.__str__` writes it, "S.hand" (wall: "wall")."""
    kind = zone_said(zone.kind.value)
    if zone.seat is None:
        return kind
    return replace(says("{seat}'s {zone}", seat=seat_said(zone.seat), zone=kind), english=str(zone))


def tally_said(tally: Mapping[Spot, int]) -> Said:
    """A residue as `expected.fmt_tally` writes it: "S.hand 5p -1, S.river 5p +1"."""
    return listed(
        says(
            "{zone} {tile} {n}",
            zone=zone_of_said(s.zone),
            tile=tile_said(s.tile),
            n=format(n, "+d"),
        )
        for s, n in sorted(tally.items(), key=lambda kv: str(kv[0]))
    )


def move_said(m: Move) -> Said:
    """One move as `readings.move_text` writes it ("Discard S 5p", "Kong E concealed-kong
    3s"): "South discards 5 Dots" in another language."""
    text = move_text(m)
    verb = MOVE_VERBS.get(type(m).__name__)
    seat = getattr(m, "seat", None)
    if isinstance(m, CloseClaims):
        return Said(CLOSE_CLAIMS, english=text)
    if verb is None or seat is None:
        return Said(text, english=text)  # a move no reading makes (a penalty): as written
    if isinstance(m, Kong) and m.kind.value in VERBS:
        verb = m.kind.value
    words: list[Said] = [seat_said(seat), Said(VERBS[verb])]
    if isinstance(m, ChooseVoid):
        words[-1] = says("chooses {suit} as void suit:", suit=suit_said(m.suit))
    tile = getattr(m, "tile", None)
    if tile is not None:
        words.append(tile_said(tile))
    out = words[0]
    for more in words[1:]:
        out = says("{words} {more}", words=out, more=more)
    return replace(out, english=text)


def moves_said(moves: Iterable[Move], how: tuple[str, str] = THEN) -> Said:
    """Moves one after another: "Draw S 5p then Discard S 5p" (→ for a way the table may
    have gone)."""
    return listed((move_said(m) for m in moves), how)


def waits_said(deal: Deal) -> Said:
    """What the judge waits for: "discard (E to move)", "void choices of E W"."""
    if deal.phase is Phase.CHOOSING_VOID:
        seats = listed((seat_said(s) for s in SEATS if deal.void(s) is None), SPACED)
        return says("void choices of {seats}", seats=seats)
    said = says("{what} ({seat} to move)", what=Said(WAITS[deal.phase]), seat=seat_said(deal.turn))
    return replace(said, english=f"{deal.phase.value} ({deal.turn} to move)")
