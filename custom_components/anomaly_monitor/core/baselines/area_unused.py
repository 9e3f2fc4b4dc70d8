"""Whether a part of the house is never lived in at this hour here: its learned activity.

A door's area (motion, an opening, a light, a lock: ``ActivityProfile``) with no activity
within ``SPREAD`` hours either side of this time of day on any of the ``MIN_DAYS`` or more
days learned is a part of the home nobody uses at that hour: a shop door below the flat at
23:35, a seventh-floor balcony at 03:15. The activity the profile already counted from the
window being judged is taken off (today's must not teach itself). No word of a name is read.
"""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..statistics.timeline import turned
from .clock import local
from .home_baselines import HomeBaselines

# Days the hours around the moment must have been watched, unused, before it is news.
MIN_DAYS = 5
# Hours either side of the moment's hour pooled (``ActivityProfile.rate_of_day``).
SPREAD = 1
_LOCK_STATES = frozenset({"locked", "unlocked"})


def hours_near(when: datetime, baselines: HomeBaselines) -> set[int]:
    hour = local(when, baselines.zone).hour
    return {(hour + offset) % 24 for offset in range(-SPREAD, SPREAD + 1)}


def _today_in_area(home: HomeView, area: str, hours: set[int], baselines: HomeBaselines) -> int:
    """The activities the profile already counted from this window in ``area`` at ``hours``
    (the profile learns each change as it comes: today's must not teach itself)."""
    count = 0
    for state in home.in_area(area):
        domain, device_class = state.domain, state.info.device_class
        changes = home.changes(state.entity_id)
        if domain == "binary_sensor" and device_class in (
            *OCCUPANCY_DEVICE_CLASSES,
            *OPENING_DEVICE_CLASSES,
        ):
            times = turned(changes, "on")
        elif domain == "light":
            times = [c.when for c in changes[1:]]
        elif domain == "lock":
            times = [
                c.when
                for before, c in pairwise(changes)
                if c.state in _LOCK_STATES and before.state in _LOCK_STATES
            ]
        else:
            continue
        count += sum(1 for when in times if local(when, baselines.zone).hour in hours)
    return count


def days_unused(home: HomeView, baselines: HomeBaselines, area: str, when: datetime) -> int:
    """The days learned on which ``area`` had no activity around the time of day of
    ``when``, when there are ``MIN_DAYS`` or more of them and none had any; else 0."""
    hours = hours_near(when, baselines)
    hour = local(when, baselines.zone).hour
    activities, watched = baselines.activity.rate_of_day(area, hour, SPREAD)
    days = int(watched // len(hours))
    if days < MIN_DAYS:
        return 0
    if activities - _today_in_area(home, area, hours, baselines) > 0.5:
        return 0  # the area lives at these hours on other days
    return days
