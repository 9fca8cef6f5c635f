"""Tag maps: which RFID tag is which tile copy, or which declaration card (`hw_profiles/tags/
*.toml`, schema: docs/PROFILES.md), and the simulated tag sets (`sim_tag_uid`,
`sim_card_uid`), so that the simulator and the profiles agree. Re-exported by
`controller.profiles`.

Byte order: a UID is written as its reader reports it. An ISO 15693 UID (HF tiles, NXP
ICODE) is 8 bytes written MSB first, `e0 04 …` (E0 the ISO 15693 mark, 04 NXP's manufacturer
code), as a FEIG reader reports it and NXP prints it; on the air and in a log of the air
interface it goes LSB first and ends `04 e0`. A map that holds an 8-byte UID ending `04e0`
is refused with that UID written the right way round.

Cards (issue 18): each seat's Win card (WMT 000, live matches: declarations are verbal, with
the physical action and a Win card placed on the table) is `card:hu#E` (the card kept at side
E); the void indicator cards (004 Lesson 2) are `card:void-p#1` (suit p, copy 1..4)."""

from __future__ import annotations

import hashlib
import types
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from controller.profile_files import read_profile
from rules.schema import SchemaError, build
from rules.seats import SEATS
from rules.tiles import NotationError, Suit, Tile, TileSet

COPIES = 4
ISO15693_UID_SIZE = 8


class TagFamily(Enum):
    """Which tags a simulated set carries: the simulator's world and its tag maps agree."""

    EPC = "epc"  # UHF EPC C1G2, 96 bits: sim-108, sim-136
    ISO15693 = "iso15693"  # HF ISO 15693, NXP ICODE UIDs: sim-108-icode, sim-136-icode

    @property
    def suffix(self) -> str:
        return "" if self is TagFamily.EPC else "-icode"


@dataclass(frozen=True, slots=True, order=True)
class TileCopy:
    """One physical tile: its kind and copy number 1..4, written `5p#2`."""

    tile: Tile
    copy: int

    @classmethod
    def parse(cls, text: str) -> TileCopy:
        kind, sep, copy = text.partition("#")
        if not sep or not copy.isdigit():
            raise ValueError(f"{text!r} is not tile#copy (e.g. 5p#2)")
        try:
            tile = Tile.parse(kind)
        except NotationError as err:
            raise ValueError(err.message) from None
        if not 1 <= int(copy) <= COPIES:
            raise ValueError(f"copy {copy} of {tile}: copies are 1..{COPIES}")
        return cls(tile, int(copy))

    def __str__(self) -> str:
        return f"{self.tile}#{self.copy}"


class CardKind(Enum):
    """What a tagged card declares where it is laid (docs/RECOGNITION.md "Declarations")."""

    HU = "hu"  # the Win card: Hu (self-drawn, on the open discard, robbing the kong)
    VOID_M = "void-m"  # the void indicator cards: the void suit
    VOID_P = "void-p"
    VOID_S = "void-s"

    @property
    def suit(self) -> Suit | None:
        return VOID_SUITS.get(self)


VOID_SUITS = {CardKind.VOID_M: Suit.M, CardKind.VOID_P: Suit.P, CardKind.VOID_S: Suit.S}
CARD_PREFIX = "card:"


@dataclass(frozen=True, slots=True)
class Card:
    """One tagged card: `card:hu#E` (the Win card kept at side E) or `card:void-p#1` (a void
    indicator card of suit p, copy 1..4). Who declares is the side whose zone it lies in."""

    kind: CardKind
    mark: str  # the side a Win card belongs to (E S W N), a void card's copy (1..4)

    @classmethod
    def parse(cls, text: str) -> Card:
        body = text.removeprefix(CARD_PREFIX)
        name, sep, mark = body.partition("#")
        if not text.startswith(CARD_PREFIX) or not sep:
            raise ValueError(f"{text!r} is not card:KIND#MARK (e.g. card:hu#E, card:void-p#1)")
        try:
            kind = CardKind(name)
        except ValueError:
            kinds = ", ".join(k.value for k in CardKind)
            raise ValueError(f"card kind {name!r}: one of {kinds}") from None
        if kind is CardKind.HU and mark not in {s.name for s in SEATS}:
            raise ValueError(f"a Win card names its side (E S W N), not {mark!r}")
        if kind is not CardKind.HU and mark not in {"1", "2", "3", "4"}:
            raise ValueError(f"a void card's copy is 1..4, not {mark!r}")
        return cls(kind, mark)

    def __str__(self) -> str:
        return f"{CARD_PREFIX}{self.kind.value}#{self.mark}"


def every_card() -> tuple[Card, ...]:
    """A table's set: a Win card per side and four void cards per suit."""
    hu = tuple(Card(CardKind.HU, s.name) for s in SEATS)
    voids = tuple(Card(k, str(c)) for k in VOID_SUITS for c in range(1, 5))
    return hu + voids


@dataclass(frozen=True, slots=True)
class TagsHeader:
    name: str
    tileset: TileSet
    written_by: str = ""
    date: str = ""
    notes: str = ""


@dataclass(frozen=True, slots=True)
class _TagsToml:
    tags: TagsHeader
    uids: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TagMap:
    """Tag UID → tile copy. `duplicates` holds the extra UIDs of a tile copy that two tags
    claim (only in a map loaded with `strict=False`, e.g. an enrolment in progress)."""

    header: TagsHeader
    by_uid: Mapping[bytes, TileCopy]
    duplicates: frozenset[bytes] = frozenset()
    cards: Mapping[bytes, Card] = field(default_factory=dict)  # (issue 18) declaration cards

    def lookup(self, uid: bytes) -> TileCopy | None:
        return self.by_uid.get(uid)

    def item(self, uid: bytes) -> TileCopy | Card | None:
        """The tile copy or the card a tag is on, None for a tag the map does not know."""
        tc = self.by_uid.get(uid)
        return tc if tc is not None else self.cards.get(uid)

    def missing(self) -> tuple[TileCopy, ...]:
        """Tile copies of the set that no tag maps to."""
        have = set(self.by_uid.values())
        every = (TileCopy(t, c) for t in self.header.tileset.kinds for c in range(1, COPIES + 1))
        return tuple(tc for tc in every if tc not in have)


def parse_tags(data: dict[str, Any], source: str, strict: bool = True) -> TagMap:
    raw = build(_TagsToml, data, source)
    by_uid: dict[bytes, TileCopy] = {}
    cards: dict[bytes, Card] = {}
    owner: dict[TileCopy | Card, str] = {}
    duplicates: set[bytes] = set()
    for key, value in raw.uids.items():
        try:
            uid = bytes.fromhex(key)
        except ValueError:
            raise SchemaError(source, "uids", key, "a UID is hex digits") from None
        if not 4 <= len(uid) <= 32:
            raise SchemaError(source, "uids", key, "a UID is 4..32 bytes")
        if len(uid) == ISO15693_UID_SIZE and uid[-2:] == b"\x04\xe0":
            raise SchemaError(
                source,
                "uids",
                key,
                "an ISO 15693 UID in air order (LSB first): write it MSB first, as the "
                f"reader reports it: {uid[::-1].hex()}",
            )
        if uid in by_uid or uid in cards:
            raise SchemaError(source, "uids", key, "UID listed twice")
        if value.startswith(CARD_PREFIX):
            try:
                card = Card.parse(value)
            except ValueError as err:
                raise SchemaError(source, "uids", key, str(err)) from None
            if card in owner:
                raise SchemaError(source, "uids", key, f"{card} is already tag {owner[card]}")
            owner[card] = key
            cards[uid] = card
            continue
        try:
            tc = TileCopy.parse(value)
        except ValueError as err:
            raise SchemaError(source, "uids", key, str(err)) from None
        if not raw.tags.tileset.contains(tc.tile):
            raise SchemaError(
                source, "uids", key, f"{tc.tile} is not in the {raw.tags.tileset.value}-tile set"
            )
        if tc in owner:
            if strict:
                raise SchemaError(source, "uids", key, f"{tc} is already tag {owner[tc]}")
            duplicates.add(uid)
        owner.setdefault(tc, key)
        by_uid[uid] = tc
    return TagMap(
        raw.tags,
        types.MappingProxyType(by_uid),
        frozenset(duplicates),
        types.MappingProxyType(cards),
    )


def load_tags(name: str, strict: bool = True, complete: bool = False) -> TagMap:
    """The tag map `name`; `complete`: every tile copy of its set must have its tag (a
    table plays with the whole set; an enrolment in progress loads a partial map)."""
    data, source = read_profile("tags", name)
    tags = parse_tags(data, source, strict)
    missing = tags.missing()
    if complete and missing:
        size = tags.header.tileset.value
        raise SchemaError(
            source,
            "uids",
            None,
            f"{len(tags.by_uid)} tags for the {size}-tile set: no tag for "
            + ", ".join(str(tc) for tc in missing[:8])
            + (f" and {len(missing) - 8} more" if len(missing) > 8 else ""),
        )
    return tags


def _digest(name: str, size: int) -> bytes:
    return hashlib.sha256(f"mjtable-sim:{name}".encode()).digest()[:size]


def sim_tag_uid(tc: TileCopy, family: TagFamily = TagFamily.EPC) -> bytes:
    """The simulated tile's tag. EPC: 96 bits, an Impinj-style E2 80 68 94 prefix and 8
    bytes of SHA-256 of "mjtable-sim:5p#2" (the same UID in the 108- and the 136-tile set).
    ISO 15693: an NXP ICODE UID, MSB first: E0, manufacturer 04 (NXP), IC type 01 (the
    ICODE SLI family) and 5 bytes of the same digest."""
    if family is TagFamily.ISO15693:
        return bytes.fromhex("e00401") + _digest(str(tc), 5)
    return bytes.fromhex("e2806894") + _digest(str(tc), 8)


def sim_card_uid(card: Card, family: TagFamily = TagFamily.EPC) -> bytes:
    """The simulated card's tag: the tiles' prefix and the digest of "mjtable-sim:card:hu#E"."""
    if family is TagFamily.ISO15693:
        return bytes.fromhex("e00401") + _digest(str(card), 5)
    return bytes.fromhex("e2806894") + _digest(str(card), 8)


def sim_tags_name(tileset: TileSet, family: TagFamily = TagFamily.EPC) -> str:
    """The shipped tag map of a simulated set: `sim-108`, `sim-136-icode`."""
    return f"sim-{tileset.value}{family.suffix}"


def sim_tag_map(tileset: TileSet, family: TagFamily = TagFamily.EPC) -> TagMap:
    """The simulated set: every tile copy and the cards (`every_card`)."""
    copies = [TileCopy(t, c) for t in tileset.kinds for c in range(1, COPIES + 1)]
    header = TagsHeader(sim_tags_name(tileset, family), tileset, "controller.profiles.sim_tag_map")
    return TagMap(
        header,
        types.MappingProxyType({sim_tag_uid(tc, family): tc for tc in copies}),
        frozenset(),
        types.MappingProxyType({sim_card_uid(c, family): c for c in every_card()}),
    )


def format_tags(tags: TagMap, comment: Iterable[str] = ()) -> str:
    """TOML text of a tag map (what `load_tags` reads back)."""
    h = tags.header
    lines = [f"# {c}" for c in comment]
    lines += [
        "[tags]",
        f'name = "{h.name}"',
        f"tileset = {h.tileset.value}",
        f'written-by = "{h.written_by}"',
        f'date = "{h.date}"',
    ]
    if h.notes:
        lines.append(f'notes = "{h.notes}"')
    lines += ["", "[uids]"]
    for uid, tc in sorted(tags.by_uid.items(), key=lambda kv: (kv[1], kv[0])):
        lines.append(f'"{uid.hex()}" = "{tc}"')
    for uid, card in sorted(tags.cards.items(), key=lambda kv: (str(kv[1]), kv[0])):
        lines.append(f'"{uid.hex()}" = "{card}"')
    return "\n".join(lines) + "\n"


def write_sim_tags(folder: Path) -> tuple[Path, ...]:
    """(Re)write the reference tag sets into `folder`: `sim-108.toml`, `sim-136.toml` (EPCs)
    and `sim-108-icode.toml`, `sim-136-icode.toml` (ISO 15693 UIDs)."""
    written = []
    for family in TagFamily:
        for tileset in TileSet:
            path = folder / f"{sim_tags_name(tileset, family)}.toml"
            note = "Generated by controller.profiles.write_sim_tags; do not edit by hand."
            path.write_text(format_tags(sim_tag_map(tileset, family), [note]), encoding="utf-8")
            written.append(path)
    return tuple(written)
