"""The parts of the recogniser's alerts as sentences (controller/locale `Said`): seats,
tiles, tile copies, suits, tallies, moves and what the judge waits for, each said in the
reader's language and, for an English reader, written as the recogniser always wrote it
("S", "5p", "3m#2", "S.hand 5p +1, wall 5s +1", "Draw S 5p then Discard S 5p"). A player is
named by the table side it sits at (`side_said`: the board's and the referee page's name
for it), never by its deal seat: a move's seat is said as its side too. Each alert is made
where it is raised (`says(msgid, ...)`, controller/recognition) from these parts: its
English, `RefereeAlert.text`, is what the journal keeps as the alert's `message`.

The evidence too, what the reader saw (`MoveSeen.evidence`, `RefereeAlert.evidence`): a tile
placed in a zone or lifted from it, a declaration pressed or laid, a void read from the
tiles, several moves read at once, the table reconciled, a wall pair read the other way
round, each made where the recogniser sees it, its players by side. Its English is the
evidence as the journal has always kept it, the deal seat beside the side ("S.river (deal
W): 5p#2 placed at 12.345", "S (deal E) button HU at 12.345"); the journal keeps the
sentence (without its English) beside it
(controller/journal/payloads.py `evidence_payload`), which the deal report and `mjtable
replay` say in their reader's language."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from controller.devices.events import Button
from controller.locale import N_, Said, says
from controller.profiles import Zone
from controller.recognition.expected import Layout, Spot
from controller.recognition.readings import move_text
from controller.tag_maps import Card, CardKind, TileCopy
from controller.words import MOVE_VERBS, SEAT_NAMES, SUIT_WORDS, VERBS, tile_said, zone_said
from rules.deal import Deal
from rules.deal_state import Phase
from rules.moves import ChooseVoid, CloseClaims, Kong, Move, Penalty, PlayerMove
from rules.seats import SEATS, Seat
from rules.tiles import Suit, Tile

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


def side_said(seat: Seat, layout: Layout) -> Said:
    """A deal seat named by the side it sits at in this deal ("W" for the dealer at West)."""
    return seat_said(layout.side(seat))


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


def move_said(m: Move, layout: Layout) -> Said:
    """One move as `readings.move_text` writes it, its player named by side ("Discard S 5p",
    "Kong E concealed-kong 3s"): "South discards 5 Dots" in another language."""
    seat = m.seat if isinstance(m, PlayerMove | Penalty) else None
    sided = replace(m, seat=layout.side(m.seat)) if isinstance(m, PlayerMove | Penalty) else m
    text = move_text(sided)
    verb = MOVE_VERBS.get(type(m).__name__)
    if isinstance(m, CloseClaims):
        return Said(CLOSE_CLAIMS, english=text)
    if verb is None or seat is None:
        return Said(text, english=text)  # a move no reading makes (a penalty): as written
    if isinstance(m, Kong) and m.kind.value in VERBS:
        verb = m.kind.value
    words: list[Said] = [side_said(seat, layout), Said(VERBS[verb])]
    if isinstance(m, ChooseVoid):
        words[-1] = says("chooses {suit} as void suit:", suit=suit_said(m.suit))
    tile = getattr(m, "tile", None)
    if tile is not None:
        words.append(tile_said(tile))
    out = words[0]
    for more in words[1:]:
        out = says("{words} {more}", words=out, more=more)
    return replace(out, english=text)


def moves_said(moves: Iterable[Move], layout: Layout, how: tuple[str, str] = THEN) -> Said:
    """Moves one after another: "Draw S 5p then Discard S 5p" (→ for a way the table may
    have gone)."""
    return listed((move_said(m, layout) for m in moves), how)


def waits_said(deal: Deal, layout: Layout) -> Said:
    """What the judge waits for, its players by side: "discard (E to move)", "void choices
    of E W"."""
    if deal.phase is Phase.CHOOSING_VOID:
        sides = sorted(layout.side(s) for s in SEATS if deal.void(s) is None)
        return says("void choices of {seats}", seats=listed(map(seat_said, sides), SPACED))
    side = layout.side(deal.turn)
    said = says("{what} ({seat} to move)", what=Said(WAITS[deal.phase]), seat=seat_said(side))
    return replace(said, english=f"{deal.phase.value} ({side} to move)")


# --- the evidence: what the reader saw ------------------------------------------------------

HOW = {True: N_("placed"), False: N_("lifted")}
# a tile placed or lifted in a side's zone, said by side as every sentence names a player
# (the English keeps the deal seat beside it, as journalled); one sentence, its side and
# zone in it: a noisy deal journals a few hundred of these
CHANGED = {
    True: N_("{seat}'s {zone}: {tile} (copy {copy}) placed at {t}"),
    False: N_("{seat}'s {zone}: {tile} (copy {copy}) lifted at {t}"),
}
CLAIMS = {
    Button.HU: N_("Hu"),
    Button.PUNG: N_("pung"),
    Button.KONG: N_("kong"),
    Button.PASS: N_("pass"),
    Button.CHOW: N_("chow"),
}
NOTED = (N_("{first}; {second}"), "; ")  # notes one after another (`alert_said.listed`)
RECONCILED = N_("reconciled from the tiles on the table")
SEVERAL = N_("several moves read at once (a read missed in between)")
EARLY = " (before the discard)"  # a held claim's note, until it is offered after its discard
SWAP_WHY = {True: N_("read in the same rounds"), False: N_("not marked as in doubt")}


def written(said: Said, english: str) -> Said:
    """`said`, written in English as the journal has always had it."""
    return replace(said, english=english)


def tile_changed(layout: Layout, zone: Zone, tc: TileCopy, placed: bool, t: float) -> Said:
    """A tile settled in a watched zone or left it: "S.river (deal W): 5p#2 placed at
    12.345" ("wall: 5p#2 lifted at 3.000")."""
    how = "placed" if placed else "lifted"
    english = f"{layout.describe(zone)}: {tc} {how} at {t:.3f}"
    at = format(t, ".3f")
    tile = tile_said(tc.tile)
    if zone.seat is None:
        said = says(
            "{zone}: {tile} (copy {copy}) {how} at {t}",
            zone=zone_of_said(zone),
            tile=tile,
            copy=tc.copy,
            how=Said(HOW[placed]),
            t=at,
        )
    else:
        said = says(
            CHANGED[placed],
            seat=seat_said(zone.seat),
            zone=zone_said(zone.kind.value),
            tile=tile,
            copy=tc.copy,
            t=at,
        )
    return written(said, english)


def button_said(button: Button) -> Said:
    """A seat button by its name: "button HU", 按钮 和."""
    if button in CLAIMS:
        name = Said(CLAIMS[button])
    else:
        suit = Suit(button.name[-1].lower())  # VOID_M, VOID_P, VOID_S
        name = says("void {suit}", suit=Said(SUIT_WORDS[suit.value]))
    return written(says("button {button}", button=name), f"button {button.name}")


def card_laid(card: Card, zone: Zone, side: Seat) -> Said:
    """A card that declares where it was laid: "card:hu#W laid at W.hand", noting a Win card
    laid at another side than its own."""
    english = f"{card} laid at {zone}"
    if card.kind is not CardKind.HU or card.mark == side.name:
        said = says("{card} laid at {zone}", card=str(card), zone=zone_of_said(zone))
        return written(said, english)
    english += f" (the Win card of side {card.mark})"
    said = says(
        "{card} laid at {zone} (the Win card of side {mark})",
        card=str(card),
        zone=zone_of_said(zone),
        mark=seat_said(Seat.parse(card.mark)),
    )
    return written(said, english)


def declared(side: Seat, layout: Layout, what: Said, t: float) -> Said:
    """A declaration (`what`: a button, a card laid) read at side `side`: "S (deal E) button
    HU at 12.345"."""
    said = says("{seat}: {what} at {t}", seat=seat_said(side), what=what, t=format(t, ".3f"))
    return written(said, f"{side} (deal {layout.seat(side)}) {what} at {t:.3f}")


def card_found(side: Seat, layout: Layout, card: Card, zone: Zone) -> Said:
    """A card found lying on the table after the reader was back."""
    said = says(
        "{seat}: {card} found at {zone} after the reader was back",
        seat=seat_said(side),
        card=str(card),
        zone=zone_of_said(zone),
    )
    seat = layout.seat(side)
    return written(said, f"{side} (deal {seat}) {card} found at {zone} after the reader was back")


def early(note: Said) -> Said:
    """A held claim's note until it is offered after its discard."""
    return written(says("{note} (before the discard)", note=note), f"{note}{EARLY}")


def void_shown(seat: Seat, layout: Layout, suit: Suit) -> Said:
    """Tiles only: a seat that laid no void tile holds no tile of `suit`."""
    side = layout.side(seat)
    said = says(
        "{seat} holds no {suit} tile: its void (tiles only, nothing to lay)",
        seat=seat_said(side),
        suit=suit_said(suit),
    )
    return written(said, f"{side} holds no {suit} tile: its void (tiles only, nothing to lay)")


def several() -> Said:
    return Said(SEVERAL)


def reconciled() -> Said:
    return Said(RECONCILED)


def swapped_draw(i: int, a: Tile | None, b: Tile | None, in_doubt: bool) -> Said:
    """A draw the wall accepts with scan positions `i` and `i + 1` the other way round."""
    why = Said(SWAP_WHY[in_doubt])
    english = (
        f"the wall scan read positions {i} ({a}) and {i + 1} ({b}) ({why}): "
        "this draw shows them the other way round"
    )
    said = says(
        "the wall scan read positions {i} ({a}) and {j} ({b}) ({why}): this draw shows them "
        "the other way round",
        i=i,
        a=tile_said(a),
        j=i + 1,
        b=tile_said(b),
        why=why,
    )
    return written(said, english)
