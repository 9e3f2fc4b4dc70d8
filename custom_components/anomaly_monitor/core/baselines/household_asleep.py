"""Whether the household is asleep now: in the small hours, after an hour of its rest.

"Asleep" is this home's own rest (``DailyRhythm``: nobody moved for ``REST_GAP``), read
only in the small hours, and only after ``SETTLED`` of it: a quiet moment on the sofa at
22:00 is not sleep. The night rules (a lock unlocked, a door open while the household
sleeps) judge from it; the day rules leave to them what only the night tells.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..home import HomeView
from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from .clock import local

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

# The household has rested this long: asleep, not a quiet moment on the sofa.
SETTLED = timedelta(hours=1)


def asleep_since(home: HomeView, baselines: HomeBaselines) -> datetime | None:
    """When the household's rest began, in the small hours after ``SETTLED`` of it; else
    None (awake, or a quiet moment on the sofa)."""
    now = home.end
    if not SMALL_HOURS_START <= local(now, baselines.zone).hour < SMALL_HOURS_END:
        return None
    rest = baselines.rhythm.resting_since(now)
    return None if rest is None or now - rest < SETTLED else rest
