"""The home awake: people up and about for the last hour and a half, stiller on other nights.

The night-door rules (``went_out_at_night``, ``went_out_before_midnight``,
``entry_at_an_unused_hour``) judge a door opened at an hour this home sleeps: somebody
walking out of a sleeping house, or in from outside. A New Year's party, a bonfire
night, a birthday supper keep the house stirring until the small hours: motion every
few minutes, the door opening as guests come and go. Nobody is asleep; the door opened
is the evening's, and its guests (or a teenager leaving while her parents are up with
them) are the household's to see, not a wanderer or an intruder.

What the home shows is read, not the clock: over ``AWAKE_FOR`` before the way to the
door, no still spell longer than ``STILL_AT_MOST`` (motion seen, a door or window
opened, a light switched) and a door of the home opened in it (people about the house,
guests coming and going: one person pacing a room alone at 1 am, who may be the one to
walk out, is not read so), at an hour when this home's usual longest still spell
(``QuietSpells.typical``) is longer than that: on its ordinary nights it is stiller than
it is now (a household up together at 23:00 on ordinary nights has still spells of
twenty minutes and more; a party has none). A household asleep
shows an hour and more of stillness before somebody gets up to go out; a toilet trip,
a child getting dressed to slip out, a wanderer up a few minutes, an intruder at a
sleeping house: none keeps the whole home moving for an hour and a half. A home whose
nights always stir (a dog roaming, a night shift) has learned short still spells at
these hours and is not read here: its nights are judged as before. No word of an id or
a name is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise
from typing import TYPE_CHECKING

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..open_states import opened_at, openings_of
from ..statistics.timeline import turned
from .clock import local

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

# The home has been up this long before the way to the door (a party, not one up a while).
AWAKE_FOR = timedelta(minutes=90)
# No still spell longer than this in it: people up together, not a household asleep.
STILL_AT_MOST = timedelta(minutes=15)
# The window (two hours by default) must hold this much of it: a door opened up to an hour
# ago is judged again on later analyses, with less of the time before it in view.
SEEN_AT_LEAST = timedelta(minutes=55)
# The way to the door (``night_outings.ON_THE_WAY``: this module's callers read it).
ON_THE_WAY = timedelta(minutes=3)


def awake_until(home: HomeView, baselines: HomeBaselines, opened: datetime) -> bool:
    """The home stirred with no still spell over ``STILL_AT_MOST`` through ``AWAKE_FOR``
    before the way to the door opened at ``opened`` began, at an hour it is usually
    stiller (see the module). Only what the window holds is read: at least ``SEEN_AT_LEAST``."""
    way = opened - ON_THE_WAY
    start = max(way - AWAKE_FOR, home.window.start or way)
    if way - start < SEEN_AT_LEAST or not _usually_stiller(baselines, way):
        return False
    return home.shared(
        f"home_awake:{start.isoformat()}:{way.isoformat()}", lambda: _stirring(home, start, way)
    )


def _usually_stiller(baselines: HomeBaselines, way: datetime) -> bool:
    """This home's usual longest still spell at the hour of ``way`` (``QuietSpells``) is
    longer than ``STILL_AT_MOST``: on its ordinary nights it is stiller than it is now."""
    usual = baselines.quiet.typical(local(way, baselines.zone).hour)
    return usual is not None and usual > STILL_AT_MOST.total_seconds() / 60


def _stirring(home: HomeView, start: datetime, way: datetime) -> bool:
    """No still spell over ``STILL_AT_MOST`` from ``start`` to ``way``, and a door of the
    home opened in it (people about the house, not one pacing a room)."""
    moves: list[datetime] = [
        when
        for sensor in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
        for when in turned(home.changes(sensor.entity_id), "on")
        if start <= when <= way
    ]
    doors = [
        when
        for opening in openings_of(home)
        if opening.info.device_class != "window"
        for when in opened_at(home.changes(opening.entity_id), opening.domain)
        if start <= when <= way
    ]
    if not doors:
        return False
    moves += doors
    moves += (
        change.when
        for light in home.of("light")
        for change in home.changes(light.entity_id)
        if start <= change.when <= way
    )
    points = [start, *sorted(moves), way]
    return all(later - earlier <= STILL_AT_MOST for earlier, later in pairwise(points))
