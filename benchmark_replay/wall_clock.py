"""Real elapsed seconds, even while freezegun freezes the clocks Home Assistant reads."""

from __future__ import annotations

import time


class _Wall:
    # freezegun patches every module-level reference to time.perf_counter when it
    # starts; one held by a class escapes it.
    perf_counter = staticmethod(time.perf_counter)


def wall_clock() -> float:
    """Seconds from an arbitrary real origin."""
    return _Wall.perf_counter()
