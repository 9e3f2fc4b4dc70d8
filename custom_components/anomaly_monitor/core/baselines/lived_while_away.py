"""Who lives here while every tracker is away: a pet's sensor, or a person without a phone.

Motion while the home is known empty is a pet's where its sensor moves at all hours then (or,
with pets in the profile, where it moved on most empty days at that part of the day before
this away spell); a person's elsewhere (``movers``). A home that showed a person's motion on
``MIN_EMPTY_DAYS`` earlier empty days has somebody who stays in as the trackers go
(``lived_while_away``). Read by ``somebody_in`` and the stillness rules.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..home import HomeView
from ..outdoor_areas import watches_outside
from ..pets import has_pets
from ..phoneless_residents import people_move_at_any_hour
from .away_normal import MIN_DAYS, MOST_AWAY, PART_HOURS, PARTS, AwayNormal
from .clock import day_number, local

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

# With pets, motion counts as a person only once the home was learned empty on this
# many days (a pet's sensors are then known: they move at all hours).
MIN_EMPTY_DAYS = MIN_DAYS


def pets_sensor(
    away: AwayNormal, sensor: str, when: datetime, pets: bool, people: bool = False
) -> bool:
    """Whether motion on ``sensor`` at ``when`` may be a pet's: it moves at all hours while
    the home is empty (unless ``people``: the profile names somebody without a phone and
    no pet, ``people_move_at_any_hour``); with pets in the profile, also where it moved on
    most empty days at that part of the day before this away spell (a house-sitter's days
    are of this spell, a pet's of every one), and anywhere before the home was learned
    empty twice."""
    if not people and away.moves_at_any_hour(sensor, when) is not None:
        return True
    if not pets:
        return False
    if len({day for days in away.away_days for day in days}) < MIN_EMPTY_DAYS:
        return True
    began = away.empty_since or when
    before = day_number(began, away.zone)
    part = local(when, away.zone).hour // PART_HOURS
    moved = sum(1 for day in away.motion.get(sensor, [[]] * PARTS)[part] if day < before)
    empty = sum(1 for day in away.away_days[part] if day < before)
    return moved >= MIN_DAYS and moved >= MOST_AWAY * max(empty, moved)


def maybe_a_pet(baselines: HomeBaselines, home: HomeView, sensor: str, when: datetime) -> bool:
    """Whether motion on ``sensor`` at ``when`` may be a pet's (``pets_sensor``)."""
    return pets_sensor(baselines.away, sensor, when, has_pets(home.window.profile))


def movers(baselines: HomeBaselines, home: HomeView) -> frozenset[str]:
    """The motion sensors that moved while every tracker was away on an earlier day, a
    person's (not a pet's at any part of the day): where somebody without a phone lives."""
    away, now = baselines.away, home.end
    pets, people = has_pets(home.window.profile), people_move_at_any_hour(home.window)
    today = day_number(now, baselines.zone)
    parts = [now + timedelta(hours=PART_HOURS * k) for k in range(PARTS)]
    return frozenset(
        sensor
        for sensor in baselines.untracked.empty_days
        if baselines.untracked.moved_while_empty(sensor, today)
        and not watches_outside(home, sensor)
        and not any(pets_sensor(away, sensor, moment, pets, people) for moment in parts)
    )


def lived(baselines: HomeBaselines, home: HomeView, movers: frozenset[str]) -> bool:
    """Whether the ``movers`` moved on ``MIN_EMPTY_DAYS`` earlier days: one day of motion
    while the phones were out may be the very intrusion the home was told of, and must
    not teach that somebody lives there then."""
    today = day_number(home.end, baselines.zone)
    empty = baselines.untracked.empty_days
    days = {day for s in movers for by_hour in empty[s] for day in by_hour if day != today}
    return len(days) >= MIN_EMPTY_DAYS


def lived_while_away(baselines: HomeBaselines, home: HomeView) -> bool:
    """Whether this home has shown somebody inside while every tracker was away, on
    ``MIN_EMPTY_DAYS`` earlier days: a person's motion (``movers``) while the home was
    known empty. A home that never did (one person who lives alone, a family that goes
    out together) has nobody who stays in as the trackers go."""
    return lived(baselines, home, movers(baselines, home))
