"""Away is not empty here: somebody without a tracker goes about their day in this home.

The away rules take "every tracker away" for "nobody in". In many homes somebody carries
no tracker: a grandmother in the granny flat, a grandfather at home all day, children
without phones. While the trackers are away their ordinary day goes on, at the hours it
does on every other day. Learned from the recorder's history and the live stream, per
motion sensor and local hour of the day:

- the days it started moving, whoever was home (``days``), and
- the days it started moving while the home was known empty (``empty_days``).

The home has **shown life while empty** near a time of day (``shown_life``) when, on
earlier days the home was empty in that part of the day, something a person does was seen
within ``LIFE_REACH`` of that time: a motion sensor that keeps hours (not one that moves
at any hour, a pet: ``AwayNormal.moves_at_any_hour``; with pets in the profile no motion
counts but where somebody lives here without a phone and the sensor keeps a person's
hours, ``round_the_clock``) or an entrance or window used (``AwayNormal.entries``), on at least
``MOST_AWAY`` of those days. Then motion on a sensor that moves at that hour on most days
(``everyday_motion``), or an entrance or window used at a time it is used on most days
(``everyday_openings.used_then``), is that person's day, not an intrusion.

An empty home that never showed life near that hour (a family out at work, a holiday) is
judged as before; so is motion at an hour the sensor is not used on most days, or an
entry at an hour the entrance is not used. A cold start (no day lived empty) changes
nothing. Bounded (``MAX_SENSORS``, ``KEPT_DAYS`` days per hour); the stored form is
versioned and a damaged part is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any
import weakref

from .away_normal import (
    MAX_SENSORS,
    MOST_AWAY,
    PART_HOURS,
    AwayNormal,
    Days,
    add_day,
    stored_day_lists,
)
from .clock import day_number, local
from .packed import pack
from .stamped_uses import _MINUTES, stamp
from .stored_values import stored_per_entity

UNTRACKED_LIFE_VERSION = 1
HOURS = 24
# A person's sign while the home was empty this near the time of day tells it is lived in
# then (an untracked day keeps its hours loosely: the kettle at 11:00 one day, 11:40 the
# next, the toilet at 11:30).
LIFE_REACH = timedelta(hours=3)
# A sensor moving within this many hours of the hour on most of the days it moved at all
# (and on ``EVERYDAY_DAYS`` days at least) moves then every day.
EVERYDAY_SPREAD = 1
EVERYDAY_DAYS = 3
# A sensor that moves on most days in this many hours of the day, the night's included,
# keeps no person's hours (people sleep; a dog on the veranda, an outdoor sensor that
# animals set off do not): its motion shows nobody who came in. A prior (24 less the
# shortest sleep), until such a sensor is learned otherwise.
ROUND_THE_CLOCK_HOURS = 20
EVERYDAY_SHARE = 0.5

# Answers of ``shown_life`` kept while nothing is learned (one analysis asks a few).
MAX_ANSWERS = 256


def _hours_apart(hour: int, other: int) -> int:
    apart = abs(hour - other) % HOURS
    return min(apart, HOURS - apart)


class UntrackedLife:
    """Per motion sensor and hour of the day: the days it moved, and moved while empty."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.days: dict[str, list[Days]] = {}
        self.empty_days: dict[str, list[Days]] = {}
        # Not stored: ``shown_life`` per minute asked, while nothing it reads has changed
        # (an away spell's every motion onset asks it again). The away normal asked about
        # is known by weak reference, not id(): a freed one's id goes to the next object
        # made, which was given its answers (a home reloaded, another home judged).
        self._moves = 0
        self._answers: dict[tuple[int, bool, bool], tuple[int, int] | None] = {}
        self._answered: tuple[object, ...] = ()
        self._asked: weakref.ReferenceType[AwayNormal] | None = None
        # Not stored: ``round_the_clock`` per sensor and day, while nothing was learned.
        self._clock: dict[tuple[str, int], tuple[int, int] | None] = {}
        self._clock_moves = 0
        # Not stored: each sensor's hours as packed text, an hour's dropped when it learns
        # a day (``moved`` is all that changes them): a save packs only what changed since
        # the last, not ~2,000 lists in HA's event loop.
        self._packed: dict[str, list[str | None]] = {}
        self._packed_empty: dict[str, list[str | None]] = {}

    def moved(self, sensor: str, when: datetime, *, empty: bool) -> None:
        """A motion sensor started moving (``empty``: while the home was known empty)."""
        self._moves += 1
        if sensor not in self.days and len(self.days) >= MAX_SENSORS:
            return
        hour = local(when, self.zone).hour
        day = day_number(when, self.zone)
        add_day(self.days.setdefault(sensor, [[] for _ in range(HOURS)])[hour], day)
        _unpacked(self._packed, sensor, hour)
        if empty:
            add_day(self.empty_days.setdefault(sensor, [[] for _ in range(HOURS)])[hour], day)
            _unpacked(self._packed_empty, sensor, hour)

    # --- reading -----------------------------------------------------------------------

    def everyday_motion(self, sensor: str, when: datetime) -> tuple[int, int] | None:
        """(days it moved near ``when``'s hour, days it moved at all), other than ``when``'s
        own day, when that is most of them; None when it does not move then every day."""
        hours = self.days.get(sensor)
        if hours is None:
            return None
        hour = local(when, self.zone).hour
        today = day_number(when, self.zone)
        near: set[float] = set()
        every: set[float] = set()
        for index, days in enumerate(hours):
            others = {day for day in days if day != today}
            every |= others
            if _hours_apart(index, hour) <= EVERYDAY_SPREAD:
                near |= others
        if len(near) >= EVERYDAY_DAYS and len(near) >= EVERYDAY_SHARE * len(every):
            return len(near), len(every)
        return None

    def moved_while_empty(self, sensor: str, today: int) -> bool:
        """Whether ``sensor`` started moving while the home was known empty on a day
        other than ``today`` (one of ``empty_days``)."""
        return any(day != today for days in self.empty_days.get(sensor, ()) for day in days)

    def round_the_clock(self, sensor: str, when: datetime) -> tuple[int, int] | None:
        """(hours of the day it moved in on most days, days it moved), other than
        ``when``'s own day, when that is nearly every hour (``ROUND_THE_CLOCK_HOURS``) on
        ``EVERYDAY_DAYS`` days at least: what moves there keeps no person's hours."""
        hours = self.days.get(sensor)
        if hours is None:
            return None
        today = day_number(when, self.zone)
        if self._clock_moves != self._moves or len(self._clock) >= MAX_ANSWERS:
            self._clock, self._clock_moves = {}, self._moves
        key = (sensor, today)
        if key not in self._clock:  # asked for every motion onset of a window
            self._clock[key] = self._round_the_clock(hours, today)
        return self._clock[key]

    @staticmethod
    def _round_the_clock(hours: list[Days], today: int) -> tuple[int, int] | None:
        others = [{day for day in days if day != today} for days in hours]
        every = set().union(*others)
        if len(every) < EVERYDAY_DAYS:
            return None
        lived = sum(len(days) >= EVERYDAY_SHARE * len(every) for days in others)
        return (lived, len(every)) if lived >= ROUND_THE_CLOCK_HOURS else None

    def shown_life(
        self, away: AwayNormal, when: datetime, *, pets: bool, people: bool = False
    ) -> tuple[int, int] | None:
        """(days a person's sign was seen near ``when``'s time of day while the home was
        empty, days it was empty in that part of the day), other than today, when that is
        most of them; None when the home has not shown life then while empty. ``people``:
        somebody lives here without a phone (``lives_here_without_phone``): what moves at
        all hours while the home is empty is theirs, with ``pets`` where the sensor keeps a
        person's hours over the days (``round_the_clock``: a pet's keeps none)."""
        learned = (
            self._moves,
            len(away.entries),
            sum(used[0] for used in away.entries.values() if used),
            tuple(days[0] if days else 0.0 for days in away.away_days),
        )
        asked = self._asked() if self._asked is not None else None
        if asked is not away or learned != self._answered or len(self._answers) >= MAX_ANSWERS:
            self._answers, self._answered, self._asked = {}, learned, weakref.ref(away)
        key = (int(stamp(when, self.zone)), pets, people)
        if key not in self._answers:
            self._answers[key] = self._shown_life(away, when, pets=pets, people=people)
        return self._answers[key]

    def _shown_life(
        self, away: AwayNormal, when: datetime, *, pets: bool, people: bool
    ) -> tuple[int, int] | None:
        moment = local(when, self.zone)
        today = day_number(when, self.zone)
        minute = moment.hour * 60 + moment.minute
        reach = LIFE_REACH.total_seconds() / 60
        life: set[int] = set()
        for value in (v for used in away.entries.values() for v in used):
            day, used_at = divmod(int(value), _MINUTES)
            apart = abs(minute - used_at)
            if day != today and min(apart, _MINUTES - apart) <= reach:
                life.add(day)
        # With a pet and nobody named who lives here without a phone, motion is the pet's.
        if not pets or people:
            for sensor, hours in self.empty_days.items():
                if not people and away.moves_at_any_hour(sensor, when) is not None:
                    continue  # moves whatever the hour: a pet, not a person's day
                if pets and self.round_the_clock(sensor, when) is not None:
                    continue  # the pet's: it keeps no person's hours (people sleep)
                for hour, days in enumerate(hours):
                    if _hours_apart(hour, moment.hour) * 60 <= reach:
                        life |= {int(day) for day in days if day != today}
        part = moment.hour // PART_HOURS
        empty = {int(day) for day in away.away_days[part] if day != today} | life
        if life and len(life) >= MOST_AWAY * len(empty):
            return len(life), len(empty)
        return None

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable, versioned form (numbers packed, ``packed.py``)."""
        return {
            "version": UNTRACKED_LIFE_VERSION,
            "days": _packed_hours(self.days, self._packed),
            "empty_days": _packed_hours(self.empty_days, self._packed_empty),
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> UntrackedLife:
        """Rebuild from stored data: another version gives a fresh one, a damaged part is
        dropped."""
        life = cls(zone)
        if not isinstance(data, Mapping) or data.get("version") != UNTRACKED_LIFE_VERSION:
            return life
        life.days.update(stored_per_entity(data.get("days"), MAX_SENSORS, _hours))
        life.empty_days.update(stored_per_entity(data.get("empty_days"), MAX_SENSORS, _hours))
        return life


def _unpacked(packed: dict[str, list[str | None]], sensor: str, hour: int) -> None:
    """Forget the packed text of ``sensor``'s ``hour`` (it learned a day)."""
    texts = packed.get(sensor)
    if texts is not None:
        texts[hour] = None


def _packed_hours(
    learned: dict[str, list[Days]], packed: dict[str, list[str | None]]
) -> dict[str, list[str]]:
    """Each sensor's hours as packed text (fresh lists), packing only the hours whose
    text was forgotten since the last save."""
    stored: dict[str, list[str]] = {}
    for sensor, hours in learned.items():
        texts = packed.setdefault(sensor, [None] * HOURS)
        for hour, text in enumerate(texts):
            if text is None:
                texts[hour] = pack(hours[hour], 0)
        stored[sensor] = [text or "" for text in texts]  # every hour packed above
    return stored


def _hours(stored: object) -> list[Days] | None:
    return stored_day_lists(stored, HOURS)
