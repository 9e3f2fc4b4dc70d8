"""How long this home goes quiet once the last movement in it was in each room.

A person is where they last moved: the last *sign of somebody* in the home (a motion,
occupancy or presence sensor turning on, a door or window of the room opening or closing)
was in a room, and nothing anywhere showed anybody since. How long that lasts depends on
the room and the time of day: minutes after the bathroom (somebody comes out and is seen
in the hall), the night after the bedroom, an hour of reading in the living room. Each
such quiet, from the last sign to the next one anywhere, is learned per area and quarter
of the day (its start, local time): per day its longest and how many, ``DAYS_KEPT`` days.
``still_in_room.py`` then tells a quiet far longer than this home ever had after a sign
in that room (a fall behind the bathroom door).

Only while someone may be home: a quiet that ends or begins with everybody known away
teaches nothing (nobody was in the room). Signs without an area are skipped (nobody's
place is known). Bounded: ``MAX_AREAS`` areas x 4 quarters x ``DAYS_KEPT`` days.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any, NamedTuple, Protocol

from .clock import format_time, parse_time, slot_of
from .stored_values import stored_day_longest_count, stored_items

DAYS_KEPT = 28
MAX_AREAS = 64
MAX_AREA_NAME = 255
# A quarter of the day (six hours from local midnight): the night, morning, afternoon and
# evening of a home are different stays in the same room.
QUARTER_HOURS = 6
QUARTERS = 24 // QUARTER_HOURS
# A quarter of a room is learned from this many quiets, on this many different days.
MIN_QUIETS = 6
MIN_DAYS = 3
# A quiet this long is a rest: the first sign after it is somebody getting up (a night's
# toilet trip starts there).
REST = timedelta(minutes=45)
# A stored quiet longer than this is garbage (minutes; a fortnight).
MAX_MINUTES = 14 * 24 * 60.0


class DayQuiet(NamedTuple):
    """One day's quiets after a sign in a room, at one quarter: the longest, how many."""

    day: int
    longest: float  # minutes
    quiets: int


class LearnedQuiet(NamedTuple):
    """What a room's quarter taught: the longest quiet, over how many quiets and days."""

    longest: timedelta
    quiets: int
    days: int


class RoomQuiet:
    """Per area and quarter of the day: how long the home stayed quiet after a sign there."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.quiets: dict[str, list[deque[DayQuiet]]] = {}
        # The last sign of somebody: when, and in which area (None: none known).
        self.last: tuple[datetime, str] | None = None
        # The first sign after the last rest (a quiet of ``REST`` or more).
        self.rest_ended: datetime | None = None
        # The last sign in another area than the last sign's: where they came from.
        self.came_from: tuple[datetime, str] | None = None
        # The home's last sign of somebody whoever's phones are out (a motion starting or
        # ending, a door or window used), never forgotten as everybody leaves: where
        # somebody untracked who stayed in was last seen, however long ago.
        self.home_last: tuple[datetime, str] | None = None
        from .room_returns import RoomReturns  # (it reads this module's quarters)

        self.returns = RoomReturns(zone)  # how soon somebody up at night is back in the room

    def seen(self, when: datetime, area: str | None) -> None:
        """Somebody showed at ``when`` in ``area``, whoever is home (``home_last``)."""
        if not area or len(area) > MAX_AREA_NAME:
            return
        if self.home_last is None or when >= self.home_last[0]:
            self.home_last = (when, area)

    def sign(self, when: datetime, area: str | None, *, maybe_home: bool) -> None:
        """Somebody showed at ``when`` in ``area``: the quiet since the last sign ends."""
        last = self.last
        if last is not None and when < last[0]:
            return  # out of order (a late history row)
        self.seen(when, area)
        if maybe_home and area:
            rest = last is not None and when - last[0] >= REST
            self.returns.sign(when, area, after_rest=rest)
        else:
            self.returns.nobody_home()
        if last is not None and maybe_home:
            self._learn(last[1], last[0], when)
        if last is not None and when - last[0] >= REST:
            self.rest_ended = when
        if last is not None and area and last[1] != area:
            self.came_from = last
        self.last = (when, area) if area and maybe_home else None
        if self.last is None:
            self.came_from = None

    def everybody_left(self) -> None:
        """Everybody is known away: nobody is in the room of the last sign."""
        self.last = self.came_from = None
        self.returns.nobody_home()

    def _learn(self, area: str, since: datetime, until: datetime) -> None:
        rows = self.quiets.get(area)
        if rows is None:
            if len(self.quiets) >= MAX_AREAS or len(area) > MAX_AREA_NAME:
                return
            rows = self.quiets[area] = [deque(maxlen=DAYS_KEPT) for _ in range(QUARTERS)]
        _, hour, day = slot_of(since, self.zone)
        days = rows[hour // QUARTER_HOURS]
        minutes = (until - since).total_seconds() / 60
        if days and days[-1].day == day:
            newest = days[-1]
            days[-1] = DayQuiet(day, max(newest.longest, minutes), newest.quiets + 1)
        elif not days or day > days[-1].day:
            days.append(DayQuiet(day, minutes, 1))

    def learned(
        self, area: str, when: datetime, *, other_days: bool = False
    ) -> LearnedQuiet | None:
        """The longest quiet after a sign in ``area`` at the quarter of ``when``, or None
        while that quarter is not learned (a quiet under way is learned once it ends: it
        never judges itself). ``other_days``: the days before ``when``'s only (a stay
        under way whose stirrings ended quiets today does not judge itself either)."""
        rows = self.quiets.get(area)
        if rows is None:
            return None
        _, hour, today = slot_of(when, self.zone)
        days = rows[hour // QUARTER_HOURS]
        if other_days:
            days = deque(row for row in days if row.day < today)
        if not _learned(days):
            return None
        longest = max(row.longest for row in days)
        return LearnedQuiet(timedelta(minutes=longest), _count(days), len(days))

    def learned_quarters(self, area: str) -> list[LearnedQuiet]:
        """What each learned quarter of ``area`` taught (none learned: empty)."""
        return [
            LearnedQuiet(timedelta(minutes=max(r.longest for r in days)), _count(days), len(days))
            for days in self.quiets.get(area, ())
            if _learned(days)
        ]

    def seen_so_far(self, area: str, when: datetime) -> LearnedQuiet | None:
        """Every quiet after a sign in ``area`` on the days before ``when``'s, whatever
        the quarter (the first days: no quarter learned yet); None when none was at
        ``when``'s quarter of the day (a room nobody was seen in at this time of day)."""
        _, hour, today = slot_of(when, self.zone)
        quarters = self.quiets.get(area)
        if quarters is None or not any(row.day < today for row in quarters[hour // QUARTER_HOURS]):
            return None
        rows = [row for days in quarters for row in days if row.day < today]
        longest = max(row.longest for row in rows)
        return LearnedQuiet(
            timedelta(minutes=longest), sum(row.quiets for row in rows), len({r.day for r in rows})
        )

    def learned_areas(self) -> int:
        """How many areas have at least one quarter learned (diagnostics)."""
        return sum(1 for rows in self.quiets.values() if any(map(_learned, rows)))

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: per area, per quarter ``[day, longest min, count]``."""
        return {
            "quiets": {
                area: [[[r.day, round(r.longest, 1), r.quiets] for r in days] for days in rows]
                for area, rows in self.quiets.items()
            },
            "last": None if self.last is None else [format_time(self.last[0]), self.last[1]],
            "rest_ended": format_time(self.rest_ended),
            "came_from": None
            if self.came_from is None
            else [format_time(self.came_from[0]), self.came_from[1]],
            # Only once known (an older form saves the same).
            **(
                {}
                if self.home_last is None
                else {"home_last": [format_time(self.home_last[0]), self.home_last[1]]}
            ),
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> RoomQuiet:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        quiet = cls(zone)
        if not isinstance(data, Mapping):
            return quiet
        for area, rows in stored_items(data.get("quiets"), MAX_AREAS):
            if not isinstance(area, str) or not 0 < len(area) <= MAX_AREA_NAME:
                continue
            if not isinstance(rows, list) or len(rows) != QUARTERS:
                continue
            quiet.quiets[area] = stored_quarters(rows, _day_quiet)
        quiet.last = _stored_sign(data.get("last"))
        quiet.rest_ended = parse_time(data.get("rest_ended"))
        quiet.came_from = _stored_sign(data.get("came_from"))
        quiet.home_last = _stored_sign(data.get("home_last"))
        return quiet


class DayRow(Protocol):
    """A day's row of a quarter: its day ordinal first."""

    @property
    def day(self) -> int: ...


def stored_quarters[R: DayRow](
    rows: list[Any], parse: Callable[[object], R | None]
) -> list[deque[R]]:
    """Each quarter's stored day rows read back (``DAYS_KEPT`` newest, in day order; a
    malformed row dropped)."""
    kept: list[deque[R]] = [deque(maxlen=DAYS_KEPT) for _ in range(QUARTERS)]
    for quarter, days in enumerate(rows):
        for item in days[-DAYS_KEPT:] if isinstance(days, list) else []:
            row = parse(item)
            if row is not None and (not kept[quarter] or row.day > kept[quarter][-1].day):
                kept[quarter].append(row)
    return kept


def _learned(days: deque[DayQuiet]) -> bool:
    return len(days) >= MIN_DAYS and _count(days) >= MIN_QUIETS


def _count(days: deque[DayQuiet]) -> int:
    return sum(row.quiets for row in days)


def _day_quiet(item: object) -> DayQuiet | None:
    """A stored ``[day, longest minutes, count]``, or None when it is not one."""
    stored = stored_day_longest_count(item, MAX_MINUTES, 1)
    return None if stored is None else DayQuiet(*stored)


def _stored_sign(item: object) -> tuple[datetime, str] | None:
    """A stored ``[when, area]``, or None when it is not one."""
    if isinstance(item, list) and len(item) == 2:
        when, area = parse_time(item[0]), item[1]
        if when is not None and isinstance(area, str) and 0 < len(area) <= MAX_AREA_NAME:
            return when, area
    return None
