"""One person's own fixed point: a room's first movement of the day, kept every morning.

A grandmother who prays at dawn, takes her tablets or walks the dog at the same hour every
day moves her room within the same half hour each morning, whatever time the rest of the
household gets up. ``getting_up`` judges the household (two hours past its latest usual
waking, and only while nobody has got up), so one morning her room stays still while
her son is up at six and nothing is told. ``first_use_missed`` learns contacts' first use
of the day; here the same learner reads a **room's motion sensor** the same way, with
what a sensor that sees everybody in the room needs on top:

- the room is nobody's way in or out: no lock in it, and no contact of it the tracked
  household comes and goes by (a hall moves first whenever anybody leaves);
- the band is narrow (``ROOM_SPREAD`` quarters: a half hour across quarter bounds) and the
  room's first movement of the morning: quiet from the morning's start (04:00) or the hour
  before it (``QUIET_BEFORE``), whichever is longer, on nearly every morning kept. A
  bedroom whose sensor sees its sleeper turn over has none, nor has her room at eleven
  after her church at five; a night trip at half past two does not matter;
- somebody else in the home is up (something outside the room moved or opened, or a light
  was switched on, since the band began): a household all asleep is ``getting_up``'s,
  and a room several people use would have moved when the first of them got up. It is
  news about the person of the room because the others are about and she is not. With no
  tracker home nothing is told: the household's morning has changed (a day out, church on
  the first Sunday), and the room's person may be with them (the baker of a kitchen at
  six, Monday to Saturday).

Kept on **every** day the room was used (a contact's may miss one in ten: a habit skipped
now and then, a walk to the temple on nine mornings of ten, is a choice, and a sensor
that sees a lane or a kitchen sees it first), and on fewer days than a contact's
(``MIN_ROOM_DAYS``): a half-hour band kept on every one of six mornings is a firmer habit
than a two-hour one on seven. The night before and a night
away are judged as for a contact (``first_use_night``).
"""

from __future__ import annotations

from datetime import datetime

from ..home import OPENING_DEVICE_CLASSES, HomeView
from ..keyed_doors import keeps_a_lock, locks_of
from .daily_routines import QUARTER, quarter_of
from .day_masks import DAYS_KEPT
from .home_baselines import HomeBaselines

# A room's band: quarters at most (30 minutes straddles three quarters), days at least,
# quiet quarters before it.
ROOM_SPREAD = 3
MIN_ROOM_DAYS = 6
QUIET_BEFORE = 4


def private_room(home: HomeView, baselines: HomeBaselines, area: str | None) -> bool:
    """Whether ``area`` is a room, not a way in or out: no lock in it, no contact of it the
    tracked household comes and goes by or that is a lock's door."""
    if area is None:
        return False
    for state in home.in_area(area):
        if state.domain == "lock":
            return False
        if state.domain != "binary_sensor":
            continue
        if state.info.device_class not in OPENING_DEVICE_CLASSES:
            continue
        if locks_of(home, state.entity_id) or keeps_a_lock(home, state):
            return False
        if baselines.inside.came_and_went_by(state.entity_id):
            return False
    return True


def others_up(home: HomeView, baselines: HomeBaselines, area: str | None, since: datetime) -> bool:
    """Something kept outside ``area`` (a motion sensor, a contact) moved or opened, or a
    light outside it was switched on, since ``since``: somebody else in the home is up."""
    for entity_id in baselines.routines.slots:
        if home.area(entity_id) == area:
            continue
        # A change, not a state held: a door left open all night is nobody up.
        if any(
            change.when >= since and change.state in ("on", "off")
            for change in home.changes(entity_id)
        ):
            return True
    # A light switched on in another room: somebody up where no sensor sees.
    return any(
        change.when >= since and change.state == "on"
        for light in home.of("light")
        if light.info.area != area
        for change in home.changes(light.entity_id)
    )


def left_empty(baselines: HomeBaselines, since: datetime, now: datetime) -> bool:
    """Every tracker away through a whole quarter from ``since`` to ``now``: the household
    went out (church, a day out), and its morning, hers with it perhaps, is not the usual."""
    routines = baselines.routines
    moment = since
    while moment + QUARTER <= now:
        slot, day = quarter_of(moment, routines.zone)
        back = routines.day - day
        watched = 0 <= back < DAYS_KEPT and routines.watched[slot] >> back & 1
        if watched and not routines.home[slot] >> back & 1:
            return True
        moment += QUARTER
    return False
