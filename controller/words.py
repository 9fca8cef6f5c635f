"""The table in words for people (the terminal of `mjtable run`, the referee page, the hall
page): the table machine's phases (controller/daemon/machine.py), seats, tiles, moves and
journal records (docs/JOURNAL.md), never raw names. Pure functions of plain values; those
that take a `Translator` (controller/locale) say their words in its language, English when
none is given."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from controller.locale import ENGLISH, N_, Language, Said, Translator

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


def tile_said(tile: Any) -> Said:
    """A tile as a sentence said in the reader's language: its code for an English reader
    (3m, as the referee page has always shown it), the players' name in another (三万)."""
    return Said(tile_words(str(tile)), english=str(tile))


# the recogniser's zones of a seat (controller/profiles.py ZoneKind), as the referee reads them
ZONE_WORDS = {"hand": N_("hand"), "river": N_("river"), "melds": N_("melds"), "void": N_("void")}


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


def alert_words(code: str, message: str) -> str:
    """An alert's code as a title, then its message in words ("Stalled: West holds 15 tiles")."""
    title = ALERT_TITLES.get(code)
    if title is None:
        words = code.replace("-", " ").capitalize().split(" ")
        title = " ".join("Hu" if w.lower() == "hu" else w for w in words)  # "False Hu"
    return f"{title}: {in_words(message)}"


VERBS = {
    "draw": "draws",
    "replacement-draw": "draws a replacement",
    "replacement": "draws a replacement",
    "discard": "discards",
    "void": "lays the void tile",
    "pung": "pungs",
    "chow": "chows",
    "kong": "kongs",
    "concealed-kong": "declares a concealed kong of",
    "promoted-kong": "adds to a pung:",
    "postponed-kong": "adds to a pung:",
    "hu": "declares Hu on",
    "self-drawn-hu": "declares a self-drawn Hu on",
    "rob-kong": "robs the kong:",
    "pass": "passes",
    "penalty": "is penalised",
    "end-deal": "the deal ends",
}


def move_words(data: Mapping[str, Any]) -> str:
    """A `move.accepted` / `move.rejected` payload (docs/JOURNAL.md) as a referee says it:
    "South discards 5 Dots", "West pungs 5 Dots from South", "East declares a self-drawn Hu
    on 3 Bamboo"."""
    move = str(data.get("move", "?"))
    if data.get("self_drawn"):
        move = "self-drawn-hu"
    words = [seat_name(data["seat"])] if data.get("seat") else []
    words.append(VERBS.get(move, move.replace("-", " ")))
    if move == "void" and data.get("suit"):
        words[-1] = f"chooses {SUIT_WORDS.get(str(data['suit']), data['suit'])} as void suit:"
    if data.get("tile"):
        words.append(tile_words(str(data["tile"])))
    elif move in ("draw", "replacement-draw", "replacement"):
        words.append("(tile not read)")
    if data.get("from_seat"):
        words.append(f"from {seat_name(str(data['from_seat']))}")
    if data.get("robbing"):
        words.append("(robbing the kong)")
    return " ".join(words)


def record_words(kind: str, data: Mapping[str, Any]) -> str:
    """One journal record as a line of the referee page's journal panel."""
    if kind == "move.accepted":
        return move_words(data)
    if kind == "move.rejected":
        why = str(data.get("reason", "")).replace("-", " ")
        detail = f" ({in_words(str(data['detail']))})" if data.get("detail") else ""
        return f"refused: {move_words(data)}: {why}{detail}"
    if kind == "claim.window":
        what = "robbing window" if data.get("kind") == "robbing" else "claims"
        on = f"{tile_words(str(data.get('tile')))} from {seat_name(str(data.get('discarder')))}"
        if data.get("state") == "closed":
            claims = data.get("claims") or {}
            said = ", ".join(f"{seat_name(s)} {c}" for s, c in claims.items()) or "no claim"
            by = str(data.get("closed_by", "")).replace("-", " ")
            return f"{what} closed on {on}: {said}" + (f" ({by})" if by else "")
        return f"{what} open on {on}"
    if kind == "alert":
        return alert_words(str(data.get("code", "alert")), str(data.get("message", "")))
    if kind == "correction":
        action = str(data.get("action", "")).replace("-", " ")
        details = data.get("details") or {}
        extra = ""
        if data.get("action") == "penalty":
            to = details.get("paid_to")
            extra = (
                f": {seat_name(details.get('seat'))} pays {details.get('points')} points to "
                f"{seat_name(to) if to else 'nobody'}"
            )
        elif details.get("tile"):
            extra = f" to {tile_words(str(details['tile']))}"
        reason = f" — {data['reason']}" if data.get("reason") else ""
        return (
            f"referee {data.get('referee', '')}: {action} of #{data.get('corrects')}{extra}{reason}"
        )
    if kind == "deal.started":
        dice = data.get("dice") or ("?", "?")
        return f"deal {data.get('deal')} dealt: dealer {seat_name(data.get('dealer'))}, dice {dice[0]}+{dice[1]}"
    if kind == "deal.settled":
        deltas = data.get("deltas") or ()
        scores = " ".join(f"{s} {int(d):+d}" for s, d in zip("ESWN", deltas, strict=False))
        return f"deal {data.get('deal')} settled ({str(data.get('end', '')).replace('-', ' ')}): {scores}"
    if kind == "table.phase":
        return f"table: {phase_words(str(data.get('to')))}"
    if kind.startswith("session."):
        return f"session {data.get('session')} {kind.split('.')[1]}"
    return kind.replace(".", " ")
