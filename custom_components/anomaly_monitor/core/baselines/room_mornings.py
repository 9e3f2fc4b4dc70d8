"""Not up in her own room: a room somebody sleeps by, still past the hour it moves on most
mornings, while the rest of the home is up.

``getting_up`` judges the household's rest as a whole: a grandmother without a tracker who
does not get up is lost in a home where her daughter is up at five baking. Her room says
more (``UntrackedLife``: per motion sensor and hour, the days it moved): on most days
(``MOST``) it first moves after the night by a learned hour (a walk to church at dawn);
it moves in the evening and the small hours on some of them (somebody sleeps by it).
Today it has not moved since the small hours ended (``SMALL_HOURS_END``), ``MARGIN`` past
the end of that hour (or as long as that hour is past its median first hour, when longer:
mornings that spread wait longer), while another room has: the home is up, she is not.

Judged only for a sensor learned ``MIN_DAYS`` days that moved in the small hours on
``NIGHT_DAYS`` of them, whose usual first hour on days of today's kind (weekdays or
weekends, ``MIN_KIND_DAYS`` of them: a family's Sunday starts later) is in the morning
(by ``LATEST_HOUR``), and
that moved since the evening before (``EVENING_HOUR``) or in today's small hours: she came
home and slept here (a night away leaves her room still, and says nothing). Only a room
with a door contact of its own (a bedroom, a granny flat: a hall or a living room, whose
first movement is whoever of the household passes, seldom has one; the front door's, by
a lock or the one the tracked household comes and goes by, is the entrance hall's); the
room is up when any of its sensors moved (a granny flat's bathroom sensor in the same
area). A sensor unavailable now says nothing either.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, time, timedelta
from typing import NamedTuple

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView, is_unavailable
from ..models import HOME_SUBJECT, EntityState, Finding
from ..statistics.night import SMALL_HOURS_END
from .clock import day_number, local
from .daily_rhythm import is_weekend
from .home_baselines import HomeBaselines
from .somebody_in import way_out
from .still_in_room import STILL_IN_ROOM

MIN_DAYS = 7
# Days of today's kind (weekdays, weekends) among them.
MIN_KIND_DAYS = 3
NIGHT_DAYS = 2
# Share of the learned days the room had moved by its usual first hour.
MOST = 0.85
LATEST_HOUR = 10
MARGIN = timedelta(hours=1)
EVENING_HOUR = 18
# A room of one's own has a door of its own (HA's ``door`` or ``opening`` contact), no
# way in and out of the home (the entrance hall has the front door).
ROOM_DOOR_CLASSES = ("door", "opening")


class RoomNotUp(NamedTuple):
    """A room still past its usual first hour: its sensor, area, days learned, when it had
    moved by on most days, when it is told."""

    sensor: str
    area: str
    days: int
    usual: datetime  # the end of the hour it had moved by on most days
    due: datetime


def _first_hour(hours: list[list[float]], day: int) -> int | None:
    return next(
        (h for h in range(SMALL_HOURS_END, LATEST_HOUR + 1) if day in hours[h]),
        None,
    )


def _usual_first_hour(hours: list[list[float]], today: int) -> tuple[int, int, int] | None:
    """(the hour by whose end the room had moved on ``MOST`` of its days, days learned,
    hours from the median first hour to it) for a room somebody sleeps by, or None."""
    every = {day for days in hours for day in days if day != today}
    if len(every) < MIN_DAYS:
        return None
    every = {day for day in every if is_weekend(int(day)) == is_weekend(today)}
    if len(every) < MIN_KIND_DAYS:
        return None  # a Sunday's mornings are not a weekday's
    nights = {day for h in range(SMALL_HOURS_END) for day in hours[h] if day != today}
    if len(nights) < NIGHT_DAYS:
        return None
    firsts = sorted(f for day in every if (f := _first_hour(hours, int(day))) is not None)
    for hour in range(SMALL_HOURS_END, LATEST_HOUR + 1):
        if sum(1 for f in firsts if f <= hour) >= MOST * len(every):
            return hour, len(every), hour - firsts[len(firsts) // 2]
    return None


def rooms_not_up(home: HomeView, baselines: HomeBaselines) -> list[RoomNotUp]:
    """Rooms still past their usual first hour this morning, the home up (the module)."""
    now = home.end
    moment = local(now, baselines.zone)
    if not SMALL_HOURS_END <= moment.hour <= LATEST_HOUR + 2:
        return []
    today = day_number(now, baselines.zone)
    learned = baselines.untracked.days
    midnight = datetime.combine(moment.date(), time(), tzinfo=moment.tzinfo)
    morning = range(SMALL_HOURS_END, moment.hour + 1)
    found: list[RoomNotUp] = []
    sensors = home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
    doors = {d.info.area for d in _room_doors(home, baselines)}
    for sensor in sensors:
        hours = learned.get(sensor.entity_id)
        area = sensor.info.area
        if (
            hours is None
            or not area
            or area not in doors
            or is_unavailable(sensor)
            or sensor.state == "on"
        ):
            continue  # a room of one's own has a door (a hall or a living room seldom)
        if any(
            today in learned.get(other.entity_id, [[]] * 24)[h]
            for other in sensors
            if other.info.area == area
            for h in morning
        ):
            continue  # up: any sensor of the room moved
        evening = any(today - 1 in hours[h] for h in range(EVENING_HOUR, 24))
        if not evening and not any(today in hours[h] for h in range(SMALL_HOURS_END)):
            continue  # not slept here, as far as it shows
        usual = _usual_first_hour(hours, today)
        if usual is None:
            continue
        # As late again as mornings here spread (a teenager's weekend lie-in): the margin.
        due = midnight + timedelta(hours=usual[0] + 1) + max(MARGIN, timedelta(hours=usual[2]))
        if now < due or not _home_up(home, learned, area, today, morning):
            continue
        found.append(
            RoomNotUp(
                sensor.entity_id, area, usual[1], midnight + timedelta(hours=usual[0] + 1), due
            )
        )
    return found


def _room_doors(home: HomeView, baselines: HomeBaselines) -> list[EntityState]:
    """Door contacts that are no way in and out of the home (not beside a lock, not the
    one the tracked household comes and goes by): a room's own."""
    return [
        door
        for door in home.of("binary_sensor", *ROOM_DOOR_CLASSES)
        if not way_out(home, door.entity_id)
        and not baselines.inside.came_and_went_by(door.entity_id)
    ]


def _home_up(
    home: HomeView, learned: dict[str, list[list[float]]], area: str, today: int, morning: range
) -> bool:
    """Another room's sensor moved this morning: somebody else is up."""
    return any(
        today in learned.get(other.entity_id, [[]] * 24)[h]
        for other in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
        if other.info.area != area
        for h in morning
    )


def _kind(moment: datetime) -> str:
    return "weekend days" if moment.weekday() >= 5 else "weekdays"


def room_not_up(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A room somebody sleeps by, still past the hour it moves on most mornings."""
    zone = baselines.zone
    for room in rooms_not_up(home, baselines):
        doors = [d.entity_id for d in _room_doors(home, baselines) if d.info.area == room.area]
        usual = local(room.usual, zone)
        yield STILL_IN_ROOM.finding(
            evidence=tuple(sorted({room.sensor, *doors})),
            reasoning=f"Nothing has moved in {room.area} this morning; on most of the "
            f"{room.days} {_kind(usual)} learned it moved by {usual:%H:%M}, after a night slept "
            "there, and the rest of the home is up.",
            recommendation="Check on whoever sleeps there: they may be unwell or have fallen.",
            magnitude=round((home.end - room.due).total_seconds() / 60, 1),
            subject=HOME_SUBJECT,
        )
