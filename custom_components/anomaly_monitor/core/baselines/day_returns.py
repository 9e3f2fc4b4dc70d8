"""When each person comes home from an outing that began at about this time of day.

Part of ``NightUses``, which is told every time a person leaves or comes home (a phone
going ``unknown`` is neither). Each outing back within ``MAX_OUTING`` is kept as the day it
began (its ordinal), the minute it began and the minute it ended, both counted from that
day's midnight (back at 01:08 is minute 1508): a girl off to school at 07:35 and home at
14:05, a boy out to the football ground at 16:30 and back at 19:15. An outing longer than
that (a trip away for days, a night shift and the next day) is no day out and is not kept.

``usual_return`` reads them for an outing under way: the latest return of the outings that
began within ``SAME_START`` of it, on the days most like today (the same weekday when one
was seen, else weekdays or weekends, else every day): on Thursdays she is home by 14:20
though on Fridays volleyball keeps her until 18:45. The outing under way (``out_since``) is
kept as well: a restart mid-outing still knows when it began. ``habit_return`` reads a
person's own outings alone (not those made with another tracked person, left and back
together): what a child's weekday mornings or weekend evenings usually look like.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from .clock import local
from .nights_out_alone import TOGETHER
from .packed import pack, unpack
from .stored_values import stored_per_entity

# Longest outing kept: a school day, a working day with the commute, an evening out and
# back after midnight. Longer is a trip away, judged by nobody here.
MAX_OUTING = timedelta(hours=20)
# Two outings that began this close in the day are the same kind of outing.
SAME_START = timedelta(hours=3)
# Outings like the one under way needed before its return is known.
MIN_OUTINGS = 2
# Days seen going out and back before "never out this late at night" is known.
MIN_NIGHT_DAYS = 5
# Days seen going out and back before "never out this late on any day" is known (a week:
# every weekday's outing seen once).
MIN_EVER_DAYS = 7
# Outings of one kind of day (weekday or weekend), begun about this time and made on their
# own, before they are a habit a return can be read against (four mornings of a week at camp;
# with three, three teenagers' first Friday afternoons or evenings out were read against
# three weekdays' returns).
MIN_HABIT = 4
# An evening out begins from this hour on: one begun earlier and not back by night may be
# a trip away begun that morning (a bag packed for the week at the shack).
EVENING_FROM = 17
# Outings kept per person: four weeks of a school day's one outing and the odd errand.
MAX_OUTINGS = 40
# Persons kept (as ``quiet_spells.MAX_PERSONS``'s order of size).
MAX_PERSONS = 32
_MINUTES_LIMIT = 2 * 24 * 60
_DAY_MAX = 3_652_059


@dataclass(frozen=True, slots=True)
class UsualReturn:
    """The latest return of the outings like the one under way, and what it was read from."""

    by: datetime  # the latest return, on the day the outing under way began
    days: int  # outings it was read from
    kind: str  # "Thursdays", "weekdays", "weekends" or "days"
    # Read on one weekday (``kind`` "Thursdays"): the outings of its kind ("weekday" or
    # "weekend") it is never earlier than the middle of, and how many (one Thursday learned
    # is no habit alone; "1 outing learned" read so to the homeowner: walk 43).
    among: int = 0
    among_kind: str = ""


class DayReturns:
    """Per person: their recent outings (day, minute left, minute back) and the one under way."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.outings: dict[str, list[tuple[int, int, int]]] = {}
        self.out_since: dict[str, datetime] = {}

    def moved(self, person: str, when: datetime, *, left: bool) -> None:
        """``person`` left home (``left``) or came home at ``when``."""
        if left:
            if person in self.out_since or len(self.out_since) < MAX_PERSONS:
                self.out_since[person] = when
            return
        began = self.out_since.pop(person, None)
        if began is None or not timedelta(0) <= when - began <= MAX_OUTING:
            return
        if person not in self.outings and len(self.outings) >= MAX_PERSONS:
            return
        start = local(began, self.zone)
        left_minute = start.hour * 60 + start.minute
        end = local(when, self.zone)
        back = (end.toordinal() - start.toordinal()) * 24 * 60 + end.hour * 60 + end.minute
        kept = self.outings.setdefault(person, [])
        kept.append((start.toordinal(), left_minute, back))
        del kept[:-MAX_OUTINGS]

    def usual_return(self, person: str, began: datetime) -> UsualReturn | None:
        """The latest return of ``person``'s outings that began within ``SAME_START`` of
        ``began``'s time of day: on days of the same kind (weekday or weekend) when
        ``MIN_OUTINGS`` were seen, on the same weekday among them when one was, else on
        any day; None when fewer began so (one weekend's outing is no habit).

        The same weekday's is never earlier than the middle return of its kind: one
        Tuesday home early (a half day at school) does not make every later Tuesday late.
        """
        start = local(began, self.zone)
        minute = start.hour * 60 + start.minute
        near = [
            (day, back)
            for day, left, back in self.outings.get(person, [])
            if abs(left - minute) <= SAME_START.total_seconds() / 60 and day != start.toordinal()
        ]
        weekday = start.weekday()
        weekend = weekday >= 5
        midnight = start.replace(hour=0, minute=0, second=0, microsecond=0)
        same_kind = sorted(back for day, back in near if (_weekday(day) >= 5) == weekend)
        if len(same_kind) >= MIN_OUTINGS:
            same_day = [back for day, back in near if _weekday(day) == weekday]
            if same_day:
                latest = max(*same_day, same_kind[len(same_kind) // 2])
                return UsualReturn(
                    midnight + timedelta(minutes=latest),
                    len(same_day),
                    f"{start:%A}s",
                    len(same_kind),
                    "weekend" if weekend else "weekday",
                )
            kind = "weekends" if weekend else "weekdays"
            return UsualReturn(midnight + timedelta(minutes=same_kind[-1]), len(same_kind), kind)
        if len(near) >= MIN_OUTINGS:
            latest = max(back for _, back in near)
            return UsualReturn(midnight + timedelta(minutes=latest), len(near), "days")
        return None

    def latest_at_night(
        self,
        person: str,
        began: datetime,
        min_days: int = MIN_NIGHT_DAYS,
        *,
        alone: bool = False,
        night_from: int = 24,
    ) -> UsualReturn | None:
        """For an evening out (begun from ``EVENING_FROM`` to midnight): the latest
        ``person`` was ever back after ``night_from`` o'clock (midnight; at that hour when
        always back before it) on the ``min_days`` or more days learned; None when fewer
        were, or for an outing begun earlier in the day. ``alone``: their own outings only
        (``own_outings``)."""
        kept = self.own_outings(person) if alone else self.outings.get(person, [])
        start = local(began, self.zone)
        if start.hour < EVENING_FROM:
            return None
        days = {day for day, _, _ in kept if day != start.toordinal()}
        if len(days) < min_days:
            return None
        night = night_from * 60
        past = [back - night for day, _, back in kept if day in days and back > night]
        midnight = start.replace(hour=0, minute=0, second=0, microsecond=0)
        by = midnight + timedelta(minutes=night + max(past, default=0))
        return UsualReturn(by, len(days), "nights")

    def latest_ever(
        self, person: str, began: datetime, *, alone: bool = False
    ) -> UsualReturn | None:
        """The latest ``person`` was ever back, by the clock, from any outing (``alone``:
        of their own, ``own_outings``) on the ``MIN_EVER_DAYS`` or more days learned (a
        Tuesday's handball at 17:30, a Saturday at a friend's until 18:30: 18:30), for an
        outing begun at an hour one of theirs began near (``SAME_START``); None when fewer
        days were learned, or none began so (an outing at an hour never seen is not read
        against their days)."""
        kept = self.own_outings(person) if alone else self.outings.get(person, [])
        start = local(began, self.zone)
        minute = start.hour * 60 + start.minute
        today = start.toordinal()
        days = {day for day, _, _ in kept if day != today}
        if len(days) < MIN_EVER_DAYS:
            return None
        span = SAME_START.total_seconds() / 60
        if not any(day != today and abs(left - minute) <= span for day, left, _ in kept):
            return None
        latest = max(back for day, _, back in kept if day != today)
        midnight = start.replace(hour=0, minute=0, second=0, microsecond=0)
        return UsualReturn(midnight + timedelta(minutes=latest), len(days), "every day")

    def habit_return(self, person: str, began: datetime) -> UsualReturn | None:
        """The latest return of ``person``'s outings made on their own (``_with_others``:
        not left and back with another tracked person) that began within ``SAME_START``
        of ``began``'s time of day on days of its kind (weekday or weekend), when
        ``MIN_HABIT`` were seen: volleyball camp every weekday morning, home by 12:30 at
        the latest; a weekday evening out back by 23:40. An evening with the family (out
        and home together, back at 01:45) is theirs, not the child's habit."""
        start = local(began, self.zone)
        minute = start.hour * 60 + start.minute
        weekend = start.weekday() >= 5
        span = SAME_START.total_seconds() / 60
        backs = [
            back
            for day, left, back in self.own_outings(person)
            if day != start.toordinal()
            and abs(left - minute) <= span
            and (_weekday(day) >= 5) == weekend
        ]
        if len(backs) < MIN_HABIT:
            return None
        midnight = start.replace(hour=0, minute=0, second=0, microsecond=0)
        kind = "weekends" if weekend else "weekdays"
        return UsualReturn(midnight + timedelta(minutes=max(backs)), len(backs), kind)

    def own_outings(self, person: str) -> list[tuple[int, int, int]]:
        """``person``'s outings not made with another tracked person (``_with_others``):
        the family's festival nights, left and back together, are not the child's own."""
        return [
            (day, left, back)
            for day, left, back in self.outings.get(person, [])
            if not self._with_others(person, day, left, back)
        ]

    def _with_others(self, person: str, day: int, left: int, back: int) -> bool:
        """Another person left within ``TOGETHER`` of this outing and came back within it."""
        span = TOGETHER.total_seconds() / 60
        return any(
            other != person
            and kept_day == day
            and abs(kept_left - left) <= span
            and abs(kept_back - back) <= span
            for other, kept in self.outings.items()
            for kept_day, kept_left, kept_back in kept
        )

    def others_at_their_usual(
        self, person: str, began: datetime, now: datetime, late_by: timedelta
    ) -> bool:
        """Everybody else out left apart from ``person`` (not within ``TOGETHER``) on an
        outing like their usual ones (``usual_return`` knows it) and not ``late_by`` past
        its latest return at ``now``: the parents at work, not the family away together.
        Parents out long past the end of their working day are no longer at work: the
        household met up for a weekend away, every phone out until Sunday."""
        for other, since in self.out_since.items():
            if other == person:
                continue
            usual = self.usual_return(other, since)
            if abs(since - began) <= TOGETHER or usual is None or now >= usual.by + late_by:
                return False
        return True

    def others_just_back(self, person: str, now: datetime) -> bool:
        """Another person came home within ``TOGETHER`` before ``now``: the household coming
        in together, the child's phone reporting the way home a minute after theirs."""
        local_now = local(now, self.zone)
        midnight = local_now.replace(hour=0, minute=0, second=0, microsecond=0)
        today = local_now.toordinal()
        for other, kept in self.outings.items():
            if other == person or not kept:
                continue
            day, _, back = kept[-1]
            came = midnight + timedelta(days=day - today, minutes=back)
            if timedelta(0) <= local_now - came <= TOGETHER:
                return True
        return False

    def left_with_others(self, person: str, began: datetime) -> bool:
        """Another person left within ``TOGETHER`` of ``began`` (still out, or back from
        that outing): the household out together, a child with their parents, whoever's
        phone reports the way home first."""
        if any(
            other != person and abs(since - began) <= TOGETHER
            for other, since in self.out_since.items()
        ):
            return True
        start = local(began, self.zone)
        minute, day = start.hour * 60 + start.minute, start.toordinal()
        span = TOGETHER.total_seconds() / 60
        return any(
            other != person and kept_day == day and abs(left - minute) <= span
            for other, kept in self.outings.items()
            for kept_day, left, _ in kept[-3:]
        )

    def days_out(self, person: str) -> int:
        """On how many days ``person`` was seen going out and back (any outing)."""
        return len({day for day, _, _ in self.outings.get(person, [])})

    def as_dict(self) -> dict[str, Any]:
        flat = {p: [n for outing in kept for n in outing] for p, kept in self.outings.items()}
        return {
            "outings": {person: pack(numbers, 0) for person, numbers in flat.items()},
            "out_since": {p: pack([when.timestamp()], 0) for p, when in self.out_since.items()},
        }

    def load(self, data: Mapping[str, Any]) -> None:
        """From ``as_dict``'s form; stored before outings were kept: none (learned anew)."""
        self.outings.update(stored_per_entity(data.get("outings"), MAX_PERSONS, _outings))
        for person, stamp in stored_per_entity(data.get("out_since"), MAX_PERSONS, _stamp).items():
            self.out_since[person] = stamp


def _weekday(day: int) -> int:
    return (day - 1) % 7  # ordinal 1 (1 January of year 1) was a Monday


def _outings(text: object) -> list[tuple[int, int, int]] | None:
    if not isinstance(text, str) or not text:
        return None
    count = text.count(",") + 1
    if count % 3 or count > 3 * MAX_OUTINGS:
        return None
    numbers = unpack(text, count, 0, _DAY_MAX)
    if numbers is None:
        return None
    outings = [
        (int(numbers[i]), int(numbers[i + 1]), int(numbers[i + 2])) for i in range(0, count, 3)
    ]
    if any(left >= 24 * 60 or not left <= back <= _MINUTES_LIMIT for _, left, back in outings):
        return None
    return outings


def _stamp(text: object) -> datetime | None:
    numbers = unpack(text, 1, 0, 1e11)
    return None if numbers is None else datetime.fromtimestamp(numbers[0], UTC)
