"""Whether a door is never entered from outside at this hour here: its learned night entries.

A door's area may live at night (a dog in the kitchen, somebody up for water, the
household's own trips out to the yard) and still nobody comes *in* by that door at that
hour: the household's night use comes from inside (``outside_entries``). On the
``MIN_DAYS`` or more nights learned, no opening of this door within ``SPREAD`` hours of
this time of night came first, with nobody moving inside before it and no phone coming
home or leaving with it: an opening so now is somebody this home does not know coming in.
A door opened within ``RETURN`` before, or an outing tonight nobody came back from yet
(``OutsideEntries.out_at``), makes it the one who went out coming back: no such entry.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from ..open_states import opened_at, openings_of
from .area_unused import MIN_DAYS, SPREAD, hours_near
from .clock import local
from .home_baselines import HomeBaselines

# Somebody who went out by a door this soon before is the one coming back in.
RETURN = timedelta(hours=1)


def went_out_before(home: HomeView, opened: datetime) -> bool:
    """A door or opening (not a window) was opened within ``RETURN`` before ``opened``."""
    return any(
        opened - RETURN <= when < opened
        for door in openings_of(home)
        if door.info.device_class != "window"
        for when in opened_at(home.changes(door.entity_id), door.domain)
    )


def nights_unentered(
    home: HomeView, baselines: HomeBaselines, door: str, area: str, opened: datetime
) -> int:
    """The nights learned on which ``door`` was never entered from outside around the time
    of ``opened``, when there are ``MIN_DAYS`` or more of them and none was; else 0."""
    hours = hours_near(opened, baselines)
    hour = local(opened, baselines.zone).hour
    _, watched = baselines.activity.rate_of_day(area, hour, SPREAD)
    nights = int(watched // len(hours))
    if nights < MIN_DAYS or went_out_before(home, opened):
        return 0
    if baselines.lonely.entries.out_at(opened):
        return 0  # somebody went out by a door tonight: this is them coming back
    if baselines.lonely.entries.nights_entered(door, opened, hours):
        return 0  # somebody of this home's comes in by it at these hours
    return nights
