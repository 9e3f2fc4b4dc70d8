"""Somebody never out at night slipped out before midnight, by a way the household does
not come and go by.

``went_out_at_night`` reads who went out against their own nights from midnight on
(``night_presence.never_out_at_night``). Before midnight a father down to the corner
pharmacy at 23:30 and a 15-year-old out of the back slider at 23:40 to a friend's car look
the same to those nights: neither was out between 23:00 and 05:00 on any night learned,
and both take their phone. What tells them apart is the way they took. The father went
out by the house door, one the household comes and goes by (many of its openings come
near a tracked arrival or departure); the teenager by a door the household seldom comes
or goes by (``UsedFromInside.seldom_a_way``: the back slider the dog is let out of, the
kitchen door to the yard the compost goes out of), and not near most of the household's
comings and goings either (``came_and_went_by``: a house door opened more often by the
children, the nanny and the cleaner, who carry no tracker, is still the way the tracked
household comes and goes). A garage door the family drives off by is a way of theirs as
the house door is, whichever of the two most leave by.

So from ``PERSON_NIGHT_FROM`` (23:00) to midnight: an exterior door opened from inside
that the household seldom comes or goes by, and within ``PRESENCE_NEAR`` after it the
phone of a person watched ``PERSON_NIGHTS`` nights or more and out at night on none of
them left home: told at once, as the walk-out after midnight is (whoever still moves
inside, the door shut behind). A door used on fewer than ``used_from_inside.MIN_DAYS``
days is not judged: which ways are theirs is not known. After midnight
``went_out_at_night`` judges.

Who the profile says is a child of the household (``night_presence.children_of``: "Maddie
(15)") is no father off to the pharmacy: a child never out at night on their own who
leaves from 23:00 is told by whichever door they took (the back door the dog and the
family use all day, out of which a 15-year-old slips to a party at 23:50).

The door's ways are read without the opening judged (``seldom_a_way``'s ``skip``): the
teenager's phone leaving a few minutes after the back door opened would otherwise count
that very opening as one the household comes and goes by.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from ..home import HomeView
from ..models import Finding
from ..occupancy import Occupancy
from ..open_states import opened_at, openings_of
from .busy_room import busy_until
from .clock import local
from .door_to_an_alarm import to_an_alarm
from .home_awake import awake_until
from .home_baselines import HomeBaselines
from .night_outings import (
    TOLD_FOR,
    WENT_OUT_AT_NIGHT,
    is_exterior,
    locks_by_area,
)
from .night_presence import children_of, never_out, presence_changed_near, went_out
from .night_uses import PERSON_NIGHT_FROM


def went_out_before_midnight(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A person never out at night left between 23:00 and midnight by a door that is not
    the household's way in and out.

    Magnitude: minutes since the door opened.
    """
    if home.occupancy is not Occupancy.OCCUPIED:
        return
    now, zone = home.end, baselines.zone
    by_area = locks_by_area(home)
    children = children_of(home)
    for door in openings_of(home):
        openings = [
            when
            for when in opened_at(home.changes(door.entity_id), door.domain)
            if now - TOLD_FOR <= when <= now and local(when, zone).hour >= PERSON_NIGHT_FROM
        ]
        locks = sorted(by_area.get(door.info.area or "", []))
        if not openings or not is_exterior(home, door, locks):
            continue
        # The home up and stirring: her parents are up to see her go (home_awake).
        openings = [when for when in openings if not awake_until(home, baselines, when)]
        if not openings:
            continue
        opened = openings[0]
        if baselines.usual.taught_value(door.entity_id, "night") is not None:
            continue  # the homeowner said night use is normal here
        never_out_yet = never_out(baselines, went_out(home, opened), opened, children)
        if not never_out_yet or presence_changed_near(home, opened, now):
            continue
        if not _not_their_way(baselines, door.entity_id, opened) and not (
            set(never_out_yet) & children
        ):
            continue  # the house door: an errand, a walk (or its ways not learned yet)
        if to_an_alarm(home, door, opened) or busy_until(home, baselines, opened):
            continue  # going to an alarm; or the evening's company leaving
        nights = baselines.usual.nights_watched(never_out_yet[0], opened)
        yield WENT_OUT_AT_NIGHT.finding(
            evidence=(door.entity_id, *locks, *never_out_yet),
            reasoning=f"{door.entity_id} was opened from inside at {local(opened, zone):%H:%M}, "
            "with the household at home, and it is not the way the household comes and goes. "
            f"{', '.join(never_out_yet)} left home since, and was out alone between "
            f"{PERSON_NIGHT_FROM}:00 and 5 am on none of the {nights} nights learned.",
            recommendation="Check that everybody is in, and the door is shut and locked.",
            magnitude=round((now - opened).total_seconds() / 60, 1),
        )


def _not_their_way(baselines: HomeBaselines, door: str, opened: datetime) -> bool:
    """``door``, used on some days already, was seldom opened near a tracked arrival or
    departure (``opened`` left out), nor near most of them: the household does not come
    and go by it."""
    inside = baselines.inside
    return inside.seldom_a_way(door, skip=opened) and not inside.came_and_went_by(door)
