"""How long each door, gate or lock stands open (unlocked) around each hour, day by day
and week by week.

``entry_left_open`` and ``state_longer_than_usual`` ask a door's stays per quarter of the
day, from the days it was used (an upper quantile) or its longest (an outlier teaching
slowly). Two habits slip through both: a door kept open two hours on half the weekday
mornings for the breeze (most days of use it is opened for a minute, so "at most 0 min"
judges), and a lock left unlocked from Friday's candle lighting to Saturday night every
week (one day in seven: an outlier, learned a minute and a half at a time). Both are
how this home lives at that hour, and each was seen before.

Per opening (a contact or an entrance cover) and lock: every stay open (unlocked) of
``MIN_STAY`` or more, its start (day and minute, local) and length, the newest ``KEPT``.
A stay begun near (``NEAR``) the time of day of one judged now, on ``DAILY_DAYS`` other
days, or on the same weekday of an earlier week, is a habit: ``usual`` says how long
(the shorter of the two longest days' stays, or the longest of the same weekday's), and
the checks judge against that length (times their own factor), not less. Stays that
ended only: the one under way never makes itself normal. Known by domain and device
class; no word of an id is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any, NamedTuple

from .clock import day_number, local
from .packed import pack, unpack
from .stamped_uses import stamp
from .stored_values import stored_entity_id, stored_items

STAY_HABITS_VERSION = 1
MAX_ENTITIES = 200
# Long stays kept per entity (a month of a daily habit, a few of a weekly one).
KEPT = 30
# A stay this short is a passage, not a door kept open.
MIN_STAY = timedelta(minutes=10)
# Begun within this of the judged stay's time of day: "at this hour".
NEAR = timedelta(minutes=90)
# Open this long around this hour on this many other days: a daily habit.
DAILY_DAYS = 2
_DAY_MINUTES = 1440
_WEEK = 7


class StayHabit(NamedTuple):
    """A learned habit of long stays around a time of day."""

    minutes: float  # how long it stays at this hour, by habit
    days: int  # the other days it stood so around this hour
    weekly: bool  # seen on the same weekday of an earlier week (else on several days)


def _near(minute: int, other: int) -> bool:
    apart = abs(minute - other) % _DAY_MINUTES
    return min(apart, _DAY_MINUTES - apart) <= NEAR.total_seconds() / 60


def habit_text(habit: StayHabit) -> str:
    """ " Around this hour it stood open up to 2 h 50 min on 3 other days." (or "on this
    weekday before"): the habit a finding was judged by."""
    minutes = int(habit.minutes)
    hours, minutes = divmod(minutes, 60)
    length = f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
    when = "on this weekday in an earlier week" if habit.weekly else f"on {habit.days} other days"
    return f" Around this hour it stayed so up to {length} {when}."


class StayHabits:
    """Per door, gate or lock: its long stays (start stamp, minutes), newest first."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.stays: dict[str, list[tuple[float, float]]] = {}
        self._began: dict[str, datetime] = {}  # not stored: the stay under way

    def state(self, entity_id: str, active: bool, when: datetime) -> None:
        """``entity_id`` is open/unlocked (``active``) or shut/locked from ``when`` on."""
        if active:  # (opened again with no shutting seen: a drop hid it, begun anew)
            self._began[entity_id] = when
            return
        began = self._began.pop(entity_id, None)
        if began is None or not MIN_STAY <= when - began <= timedelta(days=_WEEK):
            return
        if entity_id not in self.stays and len(self.stays) >= MAX_ENTITIES:
            return
        kept = self.stays.setdefault(entity_id, [])
        kept.insert(0, (stamp(began, self.zone), (when - began).total_seconds() / 60))
        del kept[KEPT:]

    def usual(self, entity_id: str, since: datetime) -> StayHabit | None:
        """The habit of stays begun near ``since``'s time of day on other days (see the
        module); None when there is none."""
        moment = local(since, self.zone)
        minute = moment.hour * 60 + moment.minute
        today = day_number(since, self.zone)
        per_day: dict[int, float] = {}
        weekly = 0.0
        for start, minutes in self.stays.get(entity_id, ()):
            day, begun = divmod(int(start), _DAY_MINUTES)
            if day >= today or not _near(minute, begun):
                continue
            per_day[day] = max(per_day.get(day, 0.0), minutes)
            if (today - day) % _WEEK == 0:
                weekly = max(weekly, minutes)
        longest = sorted(per_day.values(), reverse=True)
        daily = longest[DAILY_DAYS - 1] if len(longest) >= DAILY_DAYS else 0.0
        if weekly <= 0 and daily <= 0:
            return None
        return StayHabit(max(daily, weekly), len(per_day), weekly > daily)

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable, versioned form."""
        return {
            "version": STAY_HABITS_VERSION,
            "stays": {e: pack([n for s in kept for n in s], 0) for e, kept in self.stays.items()},
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> StayHabits:
        """Rebuild from stored data: another version gives a fresh one, a damaged part is
        dropped."""
        habits = cls(zone)
        if not isinstance(data, Mapping) or data.get("version") != STAY_HABITS_VERSION:
            return habits
        for entity_id, text in stored_items(data.get("stays"), MAX_ENTITIES):
            if not stored_entity_id(entity_id) or not isinstance(text, str):
                continue
            count = len(text.split(","))
            if count % 2 or count > 2 * KEPT or (numbers := unpack(text, count, 0.0, 1e10)) is None:
                continue
            habits.stays[entity_id] = [
                (numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)
            ]
        return habits
