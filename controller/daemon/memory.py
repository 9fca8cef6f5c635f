"""Free heap memory given back to the system (glibc's `malloc_trim`), for a daemon that runs a
whole tournament day on a Raspberry Pi (issue 17: ≤ 50 MB resident in real-time play).

CPython takes every object above 512 bytes from malloc. What it frees in the middle of the
heap stays resident until malloc gives it back, and glibc does that only at the top of the
heap. The rules engine's per-suit tables are built at the first deal (their temporaries
peak at about 16 MB): `malloc_trim(0)` afterwards returns about 3 MB of them. The daemon's
checkpoint thread calls it once a minute (`Checkpointer(housekeeping=...)`): it walks a
heap of this size in well under a millisecond.

Not glibc (musl, macOS): `trimmer()` is None and nothing is trimmed.
"""

from __future__ import annotations

from collections.abc import Callable


def trimmer() -> Callable[[], int] | None:
    """A function that trims the heap (returns 1 when memory was given back), or None."""
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: int(trim(0))
