"""The table in words for people (the terminal of `mjtable run`, the referee page, the hall
page): the table machine's phases (controller/daemon/machine.py), seats, tiles, moves and
journal records (docs/JOURNAL.md), never raw names. Pure functions of plain values; those
that take a `Translator` (controller/locale) say their words in its language, English when
none is given."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from controller.locale import ENGLISH, N_, Language, Said, Translator, says, translator

SEAT_NAMES = {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")}

# `{turn}`: the seat whose turn it is, in words
PHASE_WORDS = {
    "offline": N_("waiting for the table"),
    "idle": N_("waiting for the shuffle"),
    "shuffling": N_("shuffling"),
    "walls_up": N_("walls built"),
    "dice_rolled": N_("dice rolled"),
    "dealing": N_("dealing"),
    "choosing_void": N_("choosing void suits"),
    "playing": N_("playing"),
    "playing.awaiting_draw": N_("{turn} to draw"),
    "playing.awaiting_discard": N_("{turn} to discard"),
    "playing.claim_window": N_("claims on {turn}'s discard"),
    "playing.robbing_window": N_("{turn}'s kong may be robbed"),
    "deal_over": N_("deal over"),
    "settled": N_("deal settled"),
    "degraded": N_("a device is down"),
    "paused": N_("paused"),
}


DEVICE_NAMES = {"table": N_("the table controller"), "reader": N_("the tile reader")}


def device_name(device: str, tr: Translator = ENGLISH) -> str:
    """A device of the daemon's in words: "reader" is "the tile reader"."""
    if device in DEVICE_NAMES:
        return tr.gettext(DEVICE_NAMES[device])
    return tr.gettext("the {device}").format(device=device)


def device_said(device: str) -> Said:
    """`device_name` as a sentence said in the reader's language."""
    if device in DEVICE_NAMES:
        return Said(DEVICE_NAMES[device])
    return says("the {device}", device=device)


def waiting_words(devices: tuple[str, ...] | list[str], tr: Translator = ENGLISH) -> str:
    """What the table waits for: "waiting for the table controller and the tile reader".
    `devices` are `device_name`'s English words (a view's `waiting_for`), said in `tr`."""
    if not devices:
        return ""
    said = [tr.gettext(d) for d in devices]
    listed = said[0]
    for d in said[1:]:
        listed = tr.gettext("{first} and {second}").format(first=listed, second=d)
    return tr.gettext("waiting for {devices}").format(devices=listed)


def seat_name(seat: Any, tr: Translator = ENGLISH) -> str:
    name = SEAT_NAMES.get(str(seat or ""))
    return tr.gettext(name) if name else str(seat or "?")


def seat_said(seat: Any) -> Said:
    """A seat as a sentence said in the reader's language ("South", 南, Юг)."""
    name = SEAT_NAMES.get(str(seat or ""))
    return Said(name) if name else Said(str(seat or "?"), english=str(seat or "?"))


def phase_words(phase: str | None, turn: str | None = None, tr: Translator = ENGLISH) -> str:
    """The phase in words ("East to discard", "claims on East's discard"); an unknown one
    as it is. The one source of these words: the terminal, the board (`PublicView.phase_text`)
    and the hall page all say the phase with it."""
    if not phase:
        return tr.gettext("not known")
    if phase not in PHASE_WORDS:
        return phase.replace("_", " ").replace("playing.", "")
    text = tr.gettext(PHASE_WORDS[phase])
    if "{turn}" in text:
        return (
            text.format(turn=seat_name(turn, tr)) if turn else tr.gettext(WHOSE_TURN_UNKNOWN[phase])
        )
    return text


WHOSE_TURN_UNKNOWN = {
    "playing.awaiting_draw": N_("waiting for a draw"),
    "playing.awaiting_discard": N_("waiting for a discard"),
    "playing.claim_window": N_("claims open"),
    "playing.robbing_window": N_("the kong may be robbed"),
}


def table_name(name: str, tr: Translator = ENGLISH) -> str:
    """The table's name as a title: "7" and "table 7" are both "Table 7"."""
    if name.lower().startswith("table"):
        if tr.language is Language.EN:
            return name[:1].upper() + name[1:]
        name = name[5:].strip() or name  # "table 7": the catalog's word for a table, then 7
    return tr.gettext("Table {name}").format(name=name)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def local_time(wall: str) -> str:
    """A journalled wall time (ISO, UTC) as this machine's clock shows it: `18:00:05`."""
    try:
        return datetime.fromisoformat(wall).astimezone().strftime("%H:%M:%S")
    except ValueError:
        return wall


def plural(n: int, one: str, many: str | None = None) -> str:
    """A count and its noun: 1 tile, 2 tiles."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


# --- tiles, moves and journal records ---------------------------------------------------

SUIT_WORDS = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
HONOUR_WORDS = {
    "1z": "East wind",
    "2z": "South wind",
    "3z": "West wind",
    "4z": "North wind",
    "5z": "White dragon",
    "6z": "Green dragon",
    "7z": "Red dragon",
}
_TILE = re.compile(r"\b([1-9])([mpsz])\b")
_SUIT = re.compile(r"\b(suit) ([mps])\b")  # "void-suit p tiles", "void suit s"
_SEAT = re.compile(r"(?<![\w-])([ESWN])(?![\w-])")


def tile_words(tile: str) -> str:
    """A tile in words (5p is 5 Dots, 7z the Red dragon); anything else as it is."""
    if tile in HONOUR_WORDS:
        return HONOUR_WORDS[tile]
    m = _TILE.fullmatch(tile)
    return f"{m.group(1)} {SUIT_WORDS[m.group(2)]}" if m and m.group(2) in SUIT_WORDS else tile


@functools.cache
def _tiles_by_name() -> dict[str, str]:
    """Every tile's name in every language ("三万", "3 символа", "3 Characters"), folded
    (lower case, no spaces), to its code."""
    names: dict[str, str] = {}
    for lang in Language:
        tr = translator(lang)
        for code in (*(f"{r}{s}" for s in "mps" for r in range(1, 10)), *HONOUR_WORDS):
            names[_fold(tile_said(code).say(tr))] = code
            names[_fold(tile_words(code))] = code
    return names


def _fold(text: str) -> str:
    return "".join(text.split()).casefold()


def tile_code(text: str) -> str:
    """A tile a referee typed as its code ("6s") or its name in any of the table's
    languages ("六条", "6 бамбуков", "6 Bamboo"): its code, else the text as typed (the
    judge's parser says what is wrong with it)."""
    return _tiles_by_name().get(_fold(text), text.strip())


def tile_said(tile: Any) -> Said:
    """A tile as a sentence said in the reader's language: its code for an English reader
    (3m, as the referee page has always shown it), the players' name in another (三万)."""
    return Said(tile_words(str(tile)), english=str(tile))


# the recogniser's zones of a seat (controller/profiles.py ZoneKind), as the referee reads them
ZONE_WORDS = {
    "hand": N_("hand"),
    "river": N_("river"),
    "melds": N_("melds"),
    "void": N_("void"),
    "wall": N_("wall"),
}


def zone_said(zone: str) -> Said:
    return Said(ZONE_WORDS[zone]) if zone in ZONE_WORDS else Said(zone, english=zone)


def in_words(text: str) -> str:
    """A daemon message with its seats and tiles in words: "S discarded 8m" → "South
    discarded 8 Characters". A seat is a lone capital E S W N; a tile is rank + suit."""
    text = _TILE.sub(lambda m: tile_words(m.group(0)), text)
    text = _SUIT.sub(lambda m: f"{m.group(1)} {SUIT_WORDS[m.group(2)]}", text)
    return _SEAT.sub(lambda m: SEAT_NAMES[m.group(1)], text)


# an alert's title by its code (controller/alerts.py AlertKind): the words before its message,
# which a page in another language says from its catalog (the message stays as written)
ALERT_TITLES = {
    "unrecognised": N_("Unrecognised"),
    "ambiguous": N_("Ambiguous"),
    "wall-mismatch": N_("Wall mismatch"),
    "declaration-without-tiles": N_("Declaration without tiles"),
    "tiles-without-declaration": N_("Tiles without declaration"),
    "long-hand": N_("Long hand"),
    "short-hand": N_("Short hand"),
    "unknown-tag": N_("Unknown tag"),
    "duplicate-tile": N_("Duplicate tile"),
    "void-discard-order": N_("Void discard order"),
    "false-hu": N_("False Hu"),
    "recovery": N_("Recovery"),
    "dealer-side": N_("Dealer side"),
    "stalled": N_("Stalled"),
    "over-time": N_("Over time"),
    "device-lost": N_("Device lost"),
    "table-fault": N_("Table fault"),
    "lid": N_("Lid"),
    "dice": N_("Dice"),
    "dice-misfit": N_("Dice misfit"),
    "dice-readings": N_("Dice readings"),
    "dice-ambiguous": N_("Dice ambiguous"),
    "dice-unread": N_("Dice unread"),
    "no-wall-scan": N_("No wall scan"),
    "bad-wall-scan": N_("Bad wall scan"),
    "no-dealt-hands": N_("No dealt hands"),
    "bad-hands": N_("Bad hands"),
    "no-deal": N_("No deal"),
    "void-suit-set": N_("Void suit set"),
    "deal-abandoned": N_("Deal abandoned"),
    "deal-overtaken": N_("Deal overtaken"),
    "restarted": N_("Restarted"),
    "machine": N_("Machine"),
    "internal-error": N_("Internal error"),
    "seating": N_("Seating"),
}


def alert_words(code: str, message: str | Said) -> str:
    """An alert's code as a title, then its message in words ("Stalled: West holds 15 tiles")."""
    return str(alert_said(code, message))


def alert_said(code: str, message: str | Said) -> Said:
    """`alert_words` as a sentence: its title and message said in the reader's language. A
    message made as a sentence (the daemon's alerts) is said as one; a message journalled as
    text only (an older journal's) is said as written, its seats and tiles in words."""
    title = ALERT_TITLES.get(code)
    if title is None:
        words = code.replace("-", " ").capitalize().split(" ")
        title = " ".join("Hu" if w.lower() == "hu" else w for w in words)  # "False Hu"
    text = message if isinstance(message, Said) else in_words(message)
    return says("{title}: {message}", title=Said(title), message=text)


def alert_record_said(data: Mapping[str, Any]) -> Said:
    """An `alert` record's payload as a sentence: its `words` (the message as the daemon made
    it, docs/JOURNAL.md) when journalled, else its `message` as written."""
    words = data.get("words")
    message: str | Said = (
        Said.from_json(words) if isinstance(words, Mapping) else str(data.get("message", ""))
    )
    return alert_said(str(data.get("code", "alert")), message)


def alert_text(text: str, tr: Translator = ENGLISH) -> str:
    """An alert as `alert_words` wrote it ("Stalled: West holds 15 tiles"), its title said in
    `tr`'s language, its message as written (the terminal and the referee page say it so)."""
    return alert_text_said(text).say(tr)


def alert_text_said(text: str) -> Said:
    """`alert_text` as a sentence (a referee call's cause, made from the alert's words)."""
    title, sep, message = text.partition(": ")
    if not sep:
        return Said(text)
    return says("{title}: {message}", title=Said(title), message=message)


# the judge's moves by their class name, as `VERBS` keys them (a kong by its kind)
MOVE_VERBS = {
    "Draw": "draw",
    "ReplacementDraw": "replacement-draw",
    "Discard": "discard",
    "ChooseVoid": "void",
    "Pung": "pung",
    "Chow": "chow",
    "Kong": "kong",
    "Hu": "hu",
    "SelfDrawnHu": "self-drawn-hu",
    "RobKong": "rob-kong",
    "Pass": "pass",
}

VERBS = {
    "draw": N_("draws"),
    "replacement-draw": N_("draws a replacement"),
    "replacement": N_("draws a replacement"),
    "discard": N_("discards"),
    "void": N_("lays the void tile"),
    "pung": N_("pungs"),
    "chow": N_("chows"),
    "kong": N_("kongs"),
    "concealed-kong": N_("declares a concealed kong of"),
    "promoted-kong": N_("adds to a pung:"),
    "postponed-kong": N_("adds to a pung:"),
    "hu": N_("declares Hu on"),
    "self-drawn-hu": N_("declares a self-drawn Hu on"),
    "rob-kong": N_("robs the kong:"),
    "pass": N_("passes"),
    "penalty": N_("is penalised"),
    "end-deal": N_("the deal ends"),
}


# why the judge refused a move (rules/moves.py Reason), in words; its detail, made in rules/,
# stays as the judge wrote it
REASONS = {
    "wrong-phase": N_("wrong phase"),
    "not-your-turn": N_("not your turn"),
    "player-out": N_("player out"),
    "deal-over": N_("deal over"),
    "tile-not-in-hand": N_("tile not in hand"),
    "wall-mismatch": N_("wall mismatch"),
    "tile-unknown": N_("tile unknown"),
    "tile-impossible": N_("tile impossible"),
    "void-already-chosen": N_("void already chosen"),
    "void-tile-required": N_("void tile required"),
    "void-tile-wrong-suit": N_("void tile wrong suit"),
    "void-tile-first": N_("void tile first"),
    "void-discard-order": N_("void discard order"),
    "void-suit-claim": N_("void suit claim"),
    "claim-not-admissible": N_("claim not admissible"),
    "already-declared": N_("already declared"),
    "skipped-hu-lock": N_("skipped hu lock"),
    "skipped-pung-lock": N_("skipped pung lock"),
    "after-last-tile": N_("after last tile"),
    "not-a-kong": N_("not a kong"),
    "no-replacement-tile": N_("no replacement tile"),
    "kong-after-pung": N_("kong after pung"),
    "kong-after-chow": N_("kong after chow"),
    "no-chow-claims": N_("no chow claims"),
    "chow-not-from-left": N_("chow not from left"),
    "not-a-chow": N_("not a chow"),
    "nothing-to-undo": N_("nothing to undo"),
    "bad-penalty": N_("bad penalty"),
}


def reason_said(code: str) -> Said:
    """A refusal's reason code ("not-your-turn") in words ("not your turn", 不是该家行动)."""
    return Said(REASONS.get(code, code.replace("-", " ")))


def refusal_said(code: str, detail: str) -> Said:
    """The judge's refusal as a sentence: its reason in the reader's words and its detail as
    the judge wrote it; its English the detail alone, as the judge has always said it."""
    if not detail:
        return reason_said(code)
    said = says("{reason} ({detail})", reason=reason_said(code), detail=detail)
    return Said(said.msgid, said.args, english=detail)


def _joined(parts: list[Said]) -> Said:
    """Words said one after another, as a journal line lists them ("South" "discards" "5 Dots")."""
    out = parts[0]
    for part in parts[1:]:
        out = says("{words} {more}", words=out, more=part)
    return out


def _said_as_is(text: str) -> Said:
    """Words of the daemon's own (a reason's code, a phase it does not name): said as they are
    unless a catalog has them."""
    return Said(text)


def move_words(data: Mapping[str, Any]) -> str:
    """A `move.accepted` / `move.rejected` payload (docs/JOURNAL.md) as a referee says it:
    "South discards 5 Dots", "West pungs 5 Dots from South", "East declares a self-drawn Hu
    on 3 Bamboo"."""
    return str(move_said(data))


def move_said(data: Mapping[str, Any]) -> Said:
    """`move_words` as a sentence said in the reader's language."""
    move = str(data.get("move", "?"))
    if data.get("self_drawn"):
        move = "self-drawn-hu"
    words = [seat_said(data["seat"])] if data.get("seat") else []
    words.append(Said(VERBS[move]) if move in VERBS else _said_as_is(move.replace("-", " ")))
    if move == "void" and data.get("suit"):
        suit = str(data["suit"])
        words[-1] = says("chooses {suit} as void suit:", suit=Said(SUIT_WORDS.get(suit, suit)))
    if data.get("tile"):
        words.append(Said(tile_words(str(data["tile"]))))
    elif move in ("draw", "replacement-draw", "replacement"):
        words.append(Said("(tile not read)"))
    if data.get("from_seat"):
        words.append(says("from {seat}", seat=seat_said(str(data["from_seat"]))))
    if data.get("robbing"):
        words.append(Said("(robbing the kong)"))
    return _joined(words)


# a claim window's journal line, one sentence for each kind (claims, a kong's robbing
# window) and state: a language whose words agree with the noun (Russian: заявки закрыты,
# окно закрыто) says each as it must
WINDOW_LINES = {
    (False, "open"): N_("claims open on {tile} from {seat}"),
    (False, "closed"): N_("claims closed on {tile} from {seat}: {claims}"),
    (False, "closed-by"): N_("claims closed on {tile} from {seat}: {claims} ({by})"),
    (True, "open"): N_("robbing window open on {tile} from {seat}"),
    (True, "closed"): N_("robbing window closed on {tile} from {seat}: {claims}"),
    (True, "closed-by"): N_("robbing window closed on {tile} from {seat}: {claims} ({by})"),
}
CLAIMS = {"pung": N_("pung"), "kong": N_("kong"), "hu": N_("Hu"), "pass": N_("pass")}
# what closed a claim window (the `claim.window` record's `closed_by`)
CLOSED_BY = {
    "play": N_("play"),
    "draw": N_("draw"),
    "timer": N_("timer"),
    "shuffle": N_("shuffle"),
    "all-answered": N_("all answered"),
    "recognised": N_("recognised"),
    "referee": N_("the referee: nobody claimed"),
}
SETTLED_ENDS = {
    "three-won": N_("three won"),
    "wall-exhausted": N_("wall exhausted"),
    "time-up": N_("time up"),
    "referee": N_("referee"),
}


def record_words(kind: str, data: Mapping[str, Any]) -> str:
    """One journal record as a line of the referee page's journal panel."""
    return str(record_said(kind, data))


def record_said(kind: str, data: Mapping[str, Any]) -> Said:
    """`record_words` as a sentence the referee page says in its language (the tail line
    carries it, controller/daemon/contracts.py)."""
    if kind == "move.accepted":
        return move_said(data)
    if kind == "move.rejected":
        why = reason_said(str(data.get("reason", "")))
        if data.get("detail"):
            return says(
                "refused: {move}: {why} ({detail})",
                move=move_said(data),
                why=why,
                detail=in_words(str(data["detail"])),
            )
        return says("refused: {move}: {why}", move=move_said(data), why=why)
    if kind == "claim.window":
        robbing = data.get("kind") == "robbing"
        tile = Said(tile_words(str(data.get("tile"))))
        seat = seat_said(str(data.get("discarder")))
        if data.get("state") == "closed":
            claims = data.get("claims") or {}
            said = [
                says("{seat} {claim}", seat=seat_said(s), claim=Said(CLAIMS.get(c, c)))
                for s, c in claims.items()
            ]
            listed = said[0] if said else Said("no claim")
            for more in said[1:]:
                listed = says("{first}, {second}", first=listed, second=more)
            by = str(data.get("closed_by", ""))
            if by:
                return says(
                    WINDOW_LINES[robbing, "closed-by"],
                    tile=tile,
                    seat=seat,
                    claims=listed,
                    by=Said(CLOSED_BY.get(by, by.replace("-", " "))),
                )
            return says(WINDOW_LINES[robbing, "closed"], tile=tile, seat=seat, claims=listed)
        return says(WINDOW_LINES[robbing, "open"], tile=tile, seat=seat)
    if kind == "alert":
        return alert_record_said(data)
    if kind == "correction":
        return _correction_said(data)
    if kind == "deal.started":
        dice = data.get("dice") or ("?", "?")
        return says(
            "deal {n} dealt: dealer {seat}, dice {a}+{b}",
            n=str(data.get("deal")),
            seat=seat_said(data.get("dealer")),
            a=str(dice[0]),
            b=str(dice[1]),
        )
    if kind == "deal.settled":
        deltas = data.get("deltas") or ()
        scores = " ".join(f"{s} {int(d):+d}" for s, d in zip("ESWN", deltas, strict=False))
        end = str(data.get("end", ""))
        return says(
            "deal {n} settled ({end}): {scores}",
            n=str(data.get("deal")),
            end=Said(SETTLED_ENDS[end]) if end in SETTLED_ENDS else _said_as_is(end),
            scores=scores,
        )
    if kind == "table.phase":
        return says("table: {phase}", phase=phase_said(str(data.get("to"))))
    if kind.startswith("session."):
        return says(
            "session {n} {what}", n=str(data.get("session")), what=_said_as_is(kind.split(".")[1])
        )
    return _said_as_is(kind.replace(".", " "))


def _correction_said(data: Mapping[str, Any]) -> Said:
    action = str(data.get("action", "")).replace("-", " ")
    details = data.get("details") or {}
    said = says(
        "referee {referee}: {action} of #{seq}",
        referee=str(data.get("referee", "")),
        action=_said_as_is(action),
        seq=str(data.get("corrects")),
    )
    if data.get("action") == "penalty":
        to = details.get("paid_to")
        said = says(
            "{words}: {seat} pays {points} points to {payee}",
            words=said,
            seat=seat_said(details.get("seat")),
            points=str(details.get("points")),
            payee=seat_said(to) if to else Said("nobody"),
        )
    elif details.get("tile"):
        said = says("{words} to {tile}", words=said, tile=Said(tile_words(str(details["tile"]))))
    if data.get("reason"):
        said = says("{words} — {why}", words=said, why=Said(str(data["reason"])))
    return said


def phase_said(phase: str) -> Said:
    """A phase with no seat named, as `phase_words(phase)` says it."""
    if phase in WHOSE_TURN_UNKNOWN:
        return Said(WHOSE_TURN_UNKNOWN[phase])
    if phase in PHASE_WORDS:
        return Said(PHASE_WORDS[phase])
    return _said_as_is(phase_words(phase))


# --- a ledger line's `why` (made in rules/: settlement.py, deal_hu.py, deal_claims.py) ------

MELD_WORDS = {
    "pung": N_("pung"),
    "kong": N_("kong"),
    "concealed-kong": N_("concealed-kong"),
    "promoted-kong": N_("promoted-kong"),
    "postponed-kong": N_("postponed-kong"),
}
WHY_WORDS = (N_("false Hu"), N_("flower pig"), N_("not ready at wall end"), N_("Hu"))
_HU_WHY = re.compile(r"^(self-drawn Hu|Hu) on (\S+) \((.*); A=(-?\d+)\)$")
_MELD_WHY = re.compile(r"^(" + "|".join(MELD_WORDS) + r") ([1-9][mpsz])$")
_TILE_WHY = {
    re.compile(r"^void suit meld ([1-9][mpsz])$"): N_("void suit meld {tile}"),
    re.compile(r"^void-suit tile ([1-9][mpsz]) held at the end$"): N_(
        "void-suit tile {tile} held at the end"
    ),
    re.compile(r"^sequential pung of ([1-9][mpsz]) \(passed since the last draw\)$"): N_(
        "sequential pung of {tile} (passed since the last draw)"
    ),
}
_READY_WHY = re.compile(r"^not ready at wall end \(([ESWN]) ready, maximum (\d+)\)$")


def why_said(why: str) -> Said:
    """A ledger line's `why`, as rules/ writes it ("Hu on 8m (all-pungs 1, root 1; A=4)",
    "concealed-kong 4s", "flower pig"), as a sentence said in the reader's language; its
    English is the `why` itself. A `why` of another form (a referee's reason) is said as it
    is."""
    if why.startswith("refund: "):
        return says("refund: {why}", why=why_said(why.removeprefix("refund: ")))
    if m := _HU_WHY.match(why):
        what, tile, names, value = m.groups()
        msgid = (
            N_("self-drawn Hu on {tile} ({patterns}; A={value})")
            if what == "self-drawn Hu"
            else N_("Hu on {tile} ({patterns}; A={value})")
        )
        return says(msgid, tile=tile_said(tile), patterns=_patterns_said(names), value=value)
    if m := _MELD_WHY.match(why):
        kind, tile = m.groups()
        return says("{meld} {tile}", meld=Said(MELD_WORDS[kind]), tile=tile_said(tile))
    for form, msgid in _TILE_WHY.items():
        if m := form.match(why):
            return says(msgid, tile=tile_said(m.group(1)))
    if m := _READY_WHY.match(why):
        seat, most = m.groups()
        return says(
            "not ready at wall end ({seat} ready, maximum {points})",
            seat=Said(SEAT_NAMES[seat], english=seat),
            points=most,
        )
    return Said(why)


def _patterns_said(names: str) -> Said:
    """ "all-pungs 1, root 2" (a pattern and its fan, each), or "no fan"."""
    if names == "no fan":
        return Said(N_("no fan"))
    said = []
    for item in names.split(", "):
        name, _, fan = item.rpartition(" ")
        said.append(says("{pattern} {fan}", pattern=Said(name), fan=fan))
    listed = said[0]
    for more in said[1:]:
        listed = says("{first}, {second}", first=listed, second=more)
    return listed
