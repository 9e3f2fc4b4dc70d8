"""Weather unlike any day learned: what a load's hours learned on those days cannot say.

A load known from a few runs (``off_hours_runs``: three alike) has shown its hours only in
the weather of those days. A block heater on its 04:00 timer, plugged in at 20:00 on a
night colder than every one learned (set 27: -45 °F, the truck must start), or an air
conditioner on at noon in a heat wave, is the household answering the weather, not a load
left on. The outdoor temperature (the weather entity's, learned hour by hour like a room
sensor) beyond every day learned at this hour by ``OUTDOOR_SHIFT`` says so. No word of an
id or a name is read.
"""

from __future__ import annotations

from datetime import datetime

from ..home import HomeView
from .clock import hour_start
from .home_baselines import HomeBaselines
from .hour_profiles import OUTDOOR
from .profile_departure import OUTDOOR_SHIFT

# Days learned at the hour before the outdoor temperature says what "every day" is.
MIN_DAYS = 2


def weather_unlike_learned_days(home: HomeView, baselines: HomeBaselines, when: datetime) -> bool:
    """The outdoor temperature now is ``OUTDOOR_SHIFT`` colder or hotter than at ``when``'s
    hour on every day learned (``MIN_DAYS`` at least); False when nothing is known."""
    outdoor = home.env.outdoor_temperature
    if outdoor is None:
        return False
    _, others = baselines.profiles.same_hour(OUTDOOR, hour_start(when))
    if len(others) < MIN_DAYS:
        return False
    return outdoor < min(others) - OUTDOOR_SHIFT or outdoor > max(others) + OUTDOOR_SHIFT
