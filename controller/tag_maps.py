"""Tag maps: which RFID tag is which tile copy (`hw_profiles/tags/*.toml`, schema:
docs/PROFILES.md), and the simulated tag sets (`sim_tag_uid`), so that the simulator and
the profiles agree. Re-exported by `controller.profiles`."""

from __future__ import annotations

import hashlib
import types
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.profile_files import read_profile
from rules.schema import SchemaError, build
from rules.tiles import NotationError, Tile, TileSet

COPIES = 4


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

    def lookup(self, uid: bytes) -> TileCopy | None:
        return self.by_uid.get(uid)

    def missing(self) -> tuple[TileCopy, ...]:
        """Tile copies of the set that no tag maps to."""
        have = set(self.by_uid.values())
        every = (TileCopy(t, c) for t in self.header.tileset.kinds for c in range(1, COPIES + 1))
        return tuple(tc for tc in every if tc not in have)


def parse_tags(data: dict[str, Any], source: str, strict: bool = True) -> TagMap:
    raw = build(_TagsToml, data, source)
    by_uid: dict[bytes, TileCopy] = {}
    owner: dict[TileCopy, str] = {}
    duplicates: set[bytes] = set()
    for key, value in raw.uids.items():
        try:
            uid = bytes.fromhex(key)
        except ValueError:
            raise SchemaError(source, "uids", key, "a UID is hex digits") from None
        if not 4 <= len(uid) <= 32:
            raise SchemaError(source, "uids", key, "a UID is 4..32 bytes")
        if uid in by_uid:
            raise SchemaError(source, "uids", key, "UID listed twice")
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
    return TagMap(raw.tags, types.MappingProxyType(by_uid), frozenset(duplicates))


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


def sim_tag_uid(tc: TileCopy) -> bytes:
    """The simulated tile's 96-bit EPC: an Impinj-style E2 80 68 94 prefix and 8 bytes of
    SHA-256 of "mjtable-sim:5p#2" (the same UID in the 108- and the 136-tile set)."""
    return bytes.fromhex("e2806894") + hashlib.sha256(f"mjtable-sim:{tc}".encode()).digest()[:8]


def sim_tag_map(tileset: TileSet) -> TagMap:
    copies = [TileCopy(t, c) for t in tileset.kinds for c in range(1, COPIES + 1)]
    header = TagsHeader(f"sim-{tileset.value}", tileset, "controller.profiles.sim_tag_map")
    return TagMap(header, types.MappingProxyType({sim_tag_uid(tc): tc for tc in copies}))


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
    return "\n".join(lines) + "\n"


def write_sim_tags(folder: Path) -> tuple[Path, ...]:
    """(Re)write the reference tag sets `sim-108.toml` and `sim-136.toml` into `folder`."""
    written = []
    for tileset in TileSet:
        path = folder / f"sim-{tileset.value}.toml"
        note = "Generated by controller.profiles.write_sim_tags; do not edit by hand."
        path.write_text(format_tags(sim_tag_map(tileset), [note]), encoding="utf-8")
        written.append(path)
    return tuple(written)
