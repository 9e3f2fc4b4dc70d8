"""When nothing was watched: Home Assistant down (a restart, a power cut).

The stored baselines were learned until HA stopped (or until they were last saved, after
a power cut); HA starts them again later. In between nothing was watched: the recorder
was stopped too, so the history read back at the start is empty there, and looks just
like a quiet spell. The keeper knows it at the start (``recorder/baseline_keeper.py``:
``unwatched_gap`` of what was learned until and now). A spell that began
before such a gap and goes on after it is remembered across it (``durations.current``),
but what a device did meanwhile was never seen: a fridge cycled unseen, or stopped with
the power. ``cycles.py`` judges only what was watched (see there).
"""

from __future__ import annotations

from datetime import datetime, timedelta

# Shorter than this, a restart lost nothing worth a word (the baselines are saved and
# ticked at least every quarter hour while HA runs).
UNWATCHED_AFTER = timedelta(minutes=20)


def unwatched_gap(
    learned_until: datetime | None, now: datetime
) -> tuple[datetime, datetime] | None:
    """The span nothing was watched, for baselines learned until ``learned_until`` and
    started again ``now``; None for a quick restart or baselines never stored."""
    if learned_until is not None and now - learned_until > UNWATCHED_AFTER:
        return learned_until, now
    return None


def watched_since(since: datetime, gap: tuple[datetime, datetime] | None) -> datetime:
    """From when a spell that began at ``since`` was watched without a break: the end of
    the latest unwatched gap it spans, else ``since``."""
    if gap is not None and since < gap[1]:
        return max(since, gap[1])
    return since
