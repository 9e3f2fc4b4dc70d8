"""Whether a door is never entered from outside at this hour here: its learned night entries.

A door's area may live at night (a dog in the kitchen, somebody up for water, the
household's own trips out to the yard) and still nobody comes *in* by that door at that
hour: the household's night use comes from inside (``outside_entries``). On the
``MIN_DAYS`` or more nights learned, no opening of this door within ``SPREAD`` hours of
this time of night came first, with nobody moving inside before it and no phone coming
home or leaving with it: an opening so now, with somebody seen inside within ``CAME_IN``
after it (the one who came in, or the dog woken by it), is somebody this home does not
know coming in; with nobody seen after it, somebody went out (the last guest home).
A door the household uses at these hours on ``USED_NIGHTS`` nights or more (from inside:
toilet trips to a gallery, a nightly smoke) is this home's at that hour. Somebody seen
inside just before it (a sensor on within ``SEEN_BEFORE``: the guests of a party leaving,
the sensor held on all evening) is no such entry either; a bed or chair held on
(``held_on.lain_on``) is somebody asleep there, not somebody up by the door. A door opened
within ``RETURN`` before, or an outing tonight nobody came back from yet
(``OutsideEntries.out_at``), makes it the one who went out coming back: no such entry.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..open_states import opened_at, openings_of
from .area_unused import MIN_DAYS, SPREAD, hours_near
from .clock import local
from .held_on import lain_on
from .home_baselines import HomeBaselines
from .outside_entries import nights_at

# Somebody who went out by a door this soon before is the one coming back in.
RETURN = timedelta(hours=1)
# Used at these hours (any way) on this many nights: an hour the household uses the door
# (one night is a one-off: a son's outing, an incident).
USED_NIGHTS = 2
# Somebody seen inside this soon after the door opened came in by it.
CAME_IN = timedelta(minutes=1)
# A motion or occupancy sensor reading somebody this soon before the door: somebody inside
# (as ``night_outings.ON_THE_WAY``), a guest leaving after a sensor held on all evening.
SEEN_BEFORE = timedelta(minutes=3)


def came_in(home: HomeView, opened: datetime) -> bool:
    """A motion or occupancy sensor began to see somebody within ``CAME_IN`` after
    ``opened``: somebody came in (or the dog woke to it); guests leaving show nothing."""
    return any(
        opened < change.when <= opened + CAME_IN and change.state == "on"
        for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
        for change in home.changes(sensor.entity_id)
    )


def seen_inside(home: HomeView, baselines: HomeBaselines, opened: datetime) -> bool:
    """A motion or occupancy sensor read ``on`` within ``SEEN_BEFORE`` before ``opened``
    (turned on, held on, or turned off in that span). A bed or chair sensor held on
    through it (``held_on.lain_on``) is somebody lying there, asleep: nobody up by the door
    (the grandfather asleep in his ground-floor room as the shutter is forced)."""
    since = opened - SEEN_BEFORE
    for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES):
        changes = home.changes(sensor.entity_id)
        before = [c for c in changes if c.when < opened]
        if any(since <= c.when for c in before):
            return True  # it changed in that span: on, or somebody seen until then
        if before:
            state = before[-1].state
        elif changes:  # its first change came after: "off" means it read on until then
            state = "on" if changes[0].state.lower() == "off" else "off"
        else:
            state = sensor.state
        if state == "on" and not lain_on(baselines, sensor.entity_id):
            return True
    return False


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
    if nights < MIN_DAYS or went_out_before(home, opened) or seen_inside(home, baselines, opened):
        return 0
    if not came_in(home, opened):
        return 0  # nobody seen inside after it (yet): somebody going out, the wind
    if baselines.lonely.entries.out_at(opened):
        return 0  # somebody went out by a door tonight: this is them coming back
    if baselines.lonely.entries.nights_entered(door, opened, hours):
        return 0  # somebody of this home's comes in by it at these hours
    if nights_at(baselines.lonely.uses.get(door, ()), opened, hours, baselines.zone) >= USED_NIGHTS:
        return 0  # the household uses it at these hours (from inside): its own hour
    return nights
