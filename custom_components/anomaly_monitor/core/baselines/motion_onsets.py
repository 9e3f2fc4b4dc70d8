"""When motion began in the window: the onsets the away and lonely checks read.

For a safety check's window (states only, no history), the away spell's own record of signs
is read instead (``spell_record``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from ..home import HomeView
from .somebody_in import is_motion
from .spell_record import spell_signs, states_only

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines


def motion_onsets(
    home: HomeView,
    keep: Callable[[str, datetime], bool],
    baselines: HomeBaselines | None = None,
) -> list[datetime]:
    """When any motion sensor started moving in the window (those ``keep`` keeps), sorted;
    for a safety check's window, in the away spell's record."""
    if baselines is not None and states_only(home):
        return [when for when, sensor in spell_signs(baselines) if keep(sensor, when)]
    return sorted(
        c.when
        for e in home.history
        if is_motion(home, e)
        for c in home.changes(e)
        if c.state.lower() == "on" and keep(e, c.when)
    )


def motion_starts(home: HomeView, baselines: HomeBaselines) -> list[tuple[datetime, str]]:
    """(when, sensor) of every motion onset in the window (a safety check's: the spell's)."""
    if states_only(home):
        return list(spell_signs(baselines))
    return [
        (c.when, e)
        for e in home.history
        if is_motion(home, e)
        for c in home.changes(e)
        if c.state.lower() == "on"
    ]


def moved_between(moving: list[datetime], start: datetime, end: datetime) -> bool:
    """Whether any of the (sorted) motion onsets falls strictly between the two."""
    index = bisect_right(moving, start)
    return index < len(moving) and moving[index] < end
