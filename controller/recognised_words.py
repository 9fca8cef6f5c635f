"""The recogniser's alert messages in a journal written before alerts carried their sentence
(an `alert` record with a `message` and no `words`), read back as sentences said in the
reader's language. The recogniser wrote each as English text of a few fixed forms ("S (E)
hand holds +1 tiles: S.hand 5p +1", "N discarded 1s while holding void-suit p tiles
(lenient)"); each form is read back here into its msgid and what fills it, seats, tiles and
moves said as sentences of their own. Words of no form known here (a declaration's note
among them) are said as written, their seats and tiles in words (`in_words`). Alerts and
evidence are journalled as sentences now (`words`, `evidence_words`: controller/recognition);
the deal report and `mjtable replay` read an older journal's alerts back here."""

from __future__ import annotations

import re
from collections.abc import Callable

from controller.locale import N_, Said, says
from controller.words import (
    MOVE_VERBS,
    SUIT_WORDS,
    VERBS,
    in_words,
    seat_said,
    tile_words,
    zone_said,
)

_S = r"[ESWN]"
_T = r"[1-9][mpsz]"

# each form: the recogniser's words as a pattern, and the sentence they say; a group's name
# is the placeholder it fills, said by `_PARTS` (a name not there: as written)
FORMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), msgid)
    for pattern, msgid in (
        (
            r"no move read for (?P<age>[\d.]+) s while the table differs from the judge, which "
            r"waits for (?P<waits>.+?): (?P<tally>.*)",
            N_(
                "no move read for {age} s while the table differs from the judge, which waits "
                "for {waits}: {tally}"
            ),
        ),
        (
            r"(?P<n>\d+) different move sequences fit the table: (?P<ways>.*)",
            N_("{n} different move sequences fit the table: {ways}"),
        ),
        (
            r"(?P<n>\d+) different outcomes fit the table: (?P<ways>.*)",
            N_("{n} different outcomes fit the table: {ways}"),
        ),
        (
            rf"(?P<seat>{_S}) \((?P<side>{_S})\): declared, but the tiles did not follow "
            r"\((?P<tally>.*)\)",
            N_("{seat} ({side}): declared, but the tiles did not follow ({tally})"),
        ),
        (
            rf"(?P<seat>{_S}) \((?P<side>{_S})\): tiles moved into the melds undeclared "
            r"\((?P<tally>.*)\)",
            N_("{seat} ({side}): tiles moved into the melds undeclared ({tally})"),
        ),
        (
            rf"(?P<seat>{_S}) \((?P<side>{_S})\) hand holds (?P<n>[+-]\d+) tiles: (?P<tally>.*)",
            N_("{seat} ({side}) hand holds {n} tiles: {tally}"),
        ),
        (
            r"the table differs from the judge: (?P<tally>.*)",
            N_("the table differs from the judge: {tally}"),
        ),
        (
            r"no legal sequence of up to (?P<n>\d+) moves explains the table: (?P<tally>.*)",
            N_("no legal sequence of up to {n} moves explains the table: {tally}"),
        ),
        (
            rf"(?P<seat>{_S}) discarded (?P<tile>{_T}) while holding void-suit "
            r"(?:Suit\.)?(?P<suit>[mpsMPS]) tiles \(lenient\)",
            N_("{seat} discarded {tile} while holding void-suit {suit} tiles (lenient)"),
        ),
        (
            rf"(?P<seat>{_S}) declared Hu without a winning hand \(accepted as a false Hu\)",
            N_("{seat} declared Hu without a winning hand (accepted as a false Hu)"),
        ),
        (
            rf"(?P<seat>{_S}) declared a kong; no tiles followed within (?P<s>[\d.]+) s",
            N_("{seat} declared a kong; no tiles followed within {s} s"),
        ),
        (
            rf"(?P<seat>{_S}) pressed CHOW on (?P<tile>{_T}); no chow was laid in the melds "
            r"within (?P<s>[\d.]+) s",
            N_("{seat} pressed CHOW on {tile}; no chow was laid in the melds within {s} s"),
        ),
        (
            rf"(?P<seat>{_S}) pressed CHOW, no chow is possible \((?P<why>.*)\); nothing offered",
            N_("{seat} pressed CHOW, no chow is possible ({why}); nothing offered"),
        ),
        (r"(?P<note>.+): no deal", N_("{note}: no deal")),
        (r"(?P<moves>.+?): refused, (?P<problem>.*)", N_("{moves}: refused, {problem}")),
        (r"fits (?P<moves>.+)", N_("fits {moves}")),
        (
            r"unknown tag (?P<uid>[0-9a-f]+) at (?P<t>[\d.]+)",
            N_("unknown tag {uid} at {t}"),
        ),
        (
            rf"(?P<tile>{_T})#(?P<copy>\d+) under two tags \((?P<uids>[^)]*)\) at (?P<t>[\d.]+)",
            N_("{tile} (copy {copy}) under two tags ({uids}) at {t}"),
        ),
        (
            r"wall antenna (?P<antenna>\d+): unknown tag (?P<uid>[0-9a-f]+)",
            N_("wall antenna {antenna}: unknown tag {uid}"),
        ),
        (
            rf"wall antenna (?P<antenna>\d+): (?P<tile>{_T})#(?P<copy>\d+) seen under a second "
            r"tag (?P<uid>[0-9a-f]+)",
            N_("wall antenna {antenna}: {tile} (copy {copy}) seen under a second tag {uid}"),
        ),
        (
            r"the judge's wall is not the scanned wall: draws are not checked by it",
            N_("the judge's wall is not the scanned wall: draws are not checked by it"),
        ),
        (
            rf"the dealt hands show the dealer at side (?P<side>{_S}), not (?P<was>{_S}): "
            r"seats follow the table",
            N_("the dealt hands show the dealer at side {side}, not {was}: seats follow the table"),
        ),
    )
)

# the judge's phases (rules/deal_state.py Phase) as what the judge waits for
WAITS = {
    "draw": N_("a draw"),
    "replacement": N_("a replacement draw"),
    "discard": N_("a discard"),
    "claims": N_("claims"),
    "robbing": N_("the kong to be robbed or not"),
    "over": N_("nothing (the deal is over)"),
}
# how a list of moves or readings is joined
THEN, EITHER, STEP, OR = (
    N_("{first}, then {second}"),
    N_("{first} and {second}"),
    N_("{first} → {second}"),
    N_("{first} | {second}"),
)
_TALLY = re.compile(rf"^(?:(?P<seat>{_S})\.)?(?P<zone>[\w-]+) (?P<tile>{_T}) (?P<n>[+-]\d+)$")
_WAITS = re.compile(rf"^(?P<phase>[\w-]+) \((?P<seat>{_S}) to move\)$")
_CHOW_WHY = re.compile(rf"^(?P<seat>{_S})'s (?P<tile>{_T}): (?P<why>.*)$")


def recognised_said(text: str) -> Said:
    """A recogniser's alert message as a sentence (its English: the message in words)."""
    return _read(text, FORMS)


def _read(text: str, forms: tuple[tuple[re.Pattern[str], str], ...]) -> Said:
    for form, msgid in forms:
        m = form.fullmatch(text)
        if m:
            return says(msgid, **{k: _PARTS.get(k, _as_is)(v) for k, v in m.groupdict().items()})
    return Said(in_words(text), english=in_words(text))


def _as_is(text: str) -> str:
    return text


def _tile(text: str) -> Said:
    return Said(tile_words(text))


def _suit(text: str) -> Said:
    suit = text.lower()
    return Said(SUIT_WORDS[suit]) if suit in SUIT_WORDS else Said(text, english=text)


def _listed(items: list[Said | str], msgid: str) -> Said | str:
    out = items[0]
    for more in items[1:]:
        out = says(msgid, first=out, second=more)
    return out


def tally_said(text: str) -> Said | str:
    """ "S.hand 5p -1, S.river 5p +1" (controller/recognition/expected.py `fmt_tally`)."""
    said: list[Said | str] = []
    for item in text.split(", "):
        m = _TALLY.match(item)
        if m is None:
            said.append(in_words(item))
            continue
        tile, n = _tile(m["tile"]), m["n"]
        if m["seat"]:
            zone = says("{seat}'s {zone}", seat=seat_said(m["seat"]), zone=zone_said(m["zone"]))
        else:
            zone = zone_said(m["zone"])
        said.append(says("{zone} {tile} {n}", zone=zone, tile=tile, n=n))
    return _listed(said, "{first}, {second}") if said else text


def move_text_said(text: str) -> Said | str:
    """One move as `move_text` writes it ("Discard S 5p", "Kong E concealed-kong 3s"); a
    declaration's note in its place ("S (deal E) button HU at 12.345": a button refused) is
    said as written, its seats and tiles in words."""
    parts = text.split(" ")
    move = MOVE_VERBS.get(parts[0])
    if move is None or len(parts) < 2 or not re.fullmatch(_S, parts[1]):
        return in_words(text)
    data: dict[str, str] = {"seat": parts[1]}
    for part in parts[2:]:
        if re.fullmatch(_T, part):
            data["tile"] = part
        elif move == "kong" and part.removeprefix("MeldKind.").lower().replace("_", "-") in VERBS:
            move = part.removeprefix("MeldKind.").lower().replace("_", "-")
    words: list[Said] = [seat_said(data["seat"]), Said(VERBS[move])]
    if "tile" in data:
        words.append(_tile(data["tile"]))
    out = words[0]
    for more in words[1:]:
        out = says("{words} {more}", words=out, more=more)
    return out


def _moves(text: str) -> Said | str:
    """Moves one after another ("Draw S then Discard S 5p"), or readings of which the table
    fits each ("… and …")."""
    readings = [
        _listed([move_text_said(m) for m in reading.split(" then ")], THEN)
        for reading in text.split(" and ")
    ]
    return _listed(readings, EITHER)


def _ways(text: str) -> Said | str:
    """Sequences of moves, each a way the table may have gone ("a → b | c")."""
    ways = [
        _listed([move_text_said(m) for m in way.split(" → ")], STEP) for way in text.split(" | ")
    ]
    return _listed(ways, OR)


def _waits(text: str) -> Said | str:
    if text.startswith("void choices of "):
        seats = [seat_said(s) for s in text.removeprefix("void choices of ").split(" ")]
        return says("void choices of {seats}", seats=_listed(list(seats), "{first}, {second}"))
    m = _WAITS.match(text)
    if m is None or m["phase"] not in WAITS:
        return in_words(text)
    return says("{what} ({seat} to move)", what=Said(WAITS[m["phase"]]), seat=seat_said(m["seat"]))


def _chow_why(text: str) -> Said | str:
    if text == "no discard is open to claims":
        return Said(N_("no discard is open to claims"))
    m = _CHOW_WHY.match(text)
    if m is None:
        return in_words(text)
    why = m["why"]
    return says(
        "{seat}'s {tile}: {why}",
        seat=seat_said(m["seat"]),
        tile=_tile(m["tile"]),
        why=Said(N_("no chow fits")) if why == "no chow fits" else why,
    )


_PARTS: dict[str, Callable[[str], Said | str]] = {
    "note": in_words,
    "seat": seat_said,
    "side": seat_said,
    "was": seat_said,
    "tile": _tile,
    "suit": _suit,
    "tally": tally_said,
    "moves": _moves,
    "ways": _ways,
    "waits": _waits,
    "why": _chow_why,
}
