"""The rules engine's look-up tables stay small and are held once (issue 15 item 3, issue 17
item 3: the daemon's resident memory ≤ 50 MB, of which these tables were 17-22 MB).

Budgets on deterministic figures, not on time: the bytes of the objects the tables keep
(`sys.getsizeof` of the dict, its keys and values, and the live tables), and what
tracemalloc sees kept and at the peak while they are built."""

from __future__ import annotations

import sys
import threading
import tracemalloc

from rules import hand, live_hand, suit_tables

MB = 2**20


def _kept_bytes(t: suit_tables.SuitTables) -> int:
    values = {id(v): v for v in t.info.values()}
    return (
        sys.getsizeof(t.info)
        + sum(sys.getsizeof(k) for k in t.info)
        + sum(sys.getsizeof(v) for v in values.values())
        + sum(sys.getsizeof(x) for x in t.live)
    )


def _big_dicts(*functions: object) -> list[dict]:
    """The large dicts the closures of `functions` hold."""
    return [
        cell.cell_contents
        for f in functions
        for cell in getattr(f, "__closure__", None) or ()
        if isinstance(cell.cell_contents, dict) and len(cell.cell_contents) > 1000
    ]


def test_regression_the_tables_are_held_once() -> None:
    """rules.hand used to copy `complete` and `info` into dicts of its own (~5 MB more) and
    suit_tables kept a `complete` dict beside `info` (~4 MB): one `info`, shared."""
    assert hand.is_complete(list(b"\3\1\1\1\2\1\1\1\3") + [0] * 25)
    assert hand.waits(list(b"\3\1\1\1\1\1\1\1\3") + [0] * 25)
    live_hand.keys_complete([0, 0, 0, 0], [0] * 34)
    t = suit_tables.tables()
    assert suit_tables.tables() is t
    held = _big_dicts(hand.is_complete, hand.waits, hand.wait_reading)
    assert held and all(d is t.info for d in held)
    assert not any(isinstance(v, dict) and len(v) > 1000 for v in vars(hand).values())
    assert not hasattr(t, "complete")


def test_regression_the_tables_are_built_once_whichever_thread_asks() -> None:
    """The tables were once filled in place while being built, so a second thread asking
    meanwhile could read a half-filled dict (and each built its own): `tables()` builds
    once, under a lock, and every thread gets the finished tables."""
    before = list(suit_tables._BUILT)
    suit_tables._BUILT.clear()  # as at import: the threads below build them
    try:
        seen: list[suit_tables.SuitTables] = []
        threads = [
            threading.Thread(target=lambda: seen.append(suit_tables.tables())) for _ in range(4)
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert len(seen) == 4 and all(t is seen[0] for t in seen)
        assert len(seen[0].info) == 84_609
    finally:
        suit_tables._BUILT[:] = before  # the tables rules.hand already holds, if any


def test_the_tables_keep_under_ten_megabytes() -> None:
    t = suit_tables.tables()
    assert len(t.info) == 84_609  # every suit vector complete or one tile short of it
    kept = _kept_bytes(t)
    assert kept < 9 * MB, f"{kept / MB:.2f} MB"  # 8.7 MB: 2.6 dict, 4.1 keys, 2.0 live


def test_building_the_tables_peaks_little_above_what_they_keep() -> None:
    """The build used to hold a dict of every waiting vector (and its ints) beside the
    tables: 16.8 MB at its peak for 11.5 MB kept."""
    tracemalloc.start()
    try:
        t = suit_tables.build()
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(t.info) == 84_609
    assert kept < 9 * MB, f"{kept / MB:.2f} MB kept"
    assert peak < kept + 1.5 * MB, f"{peak / MB:.2f} MB at the peak, {kept / MB:.2f} kept"
