"""What happens here while nobody tracked is home: a pet moving, a regular visitor's entries.

Learned from the recorder's history at set-up and the live stream after, only while every
tracked person is away (after the leaving grace):

- **motion**, per motion sensor and part of the day (six parts of 4 h): the days it started
  moving while the home was empty; per part, the days the home was empty for at least
  ``AWAY_PART_MIN`` of it. A sensor that moves on most of those days (a dog, a cat, a
  dog-walker's daily round) is usual then (``usual_motion``);
- **entries**, per entrance (an opening sensor opening, a lock unlocking): the day and the
  minute of each use while the home was empty, the newest ``KEPT_ENTRIES``. One followed
  within ``ARRIVAL_REACH`` by somebody tracked coming home was that person, and is not
  learned. Uses within ``ENTRY_REACH`` of the same time of day on ``WEEKLY_DAYS`` days of
  the same kind (weekdays, weekends) or on ``DAILY_DAYS`` days are a regular visitor's
  (a carer twice a day, the cleaner on Wednesdays at 13:00, ``regular_entry``).

"False alarm" on an away finding widens it (``teach``): an entry at that time of day on
that entrance, motion on that sensor in that part of the day, is the homeowner's normal
until the false alarm is removed (``forget``). Bounded (``MAX_SENSORS``); the stored form
is versioned and a damaged part is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from functools import partial
from typing import Any

from .clock import day_number, local, parse_time
from .packed import pack, unpack
from .stamped_uses import (
    _MINUTES,
    _minute,
    _near,
    regular_days,
    stamp,
)
from .still_spells import still_spell
from .stored_spell import OPENING, SIGN, spell_from_store, spell_to_store
from .stored_values import stored_per_entity

AWAY_NORMAL_VERSION = 1
MAX_SENSORS = 200
PARTS = 6
PART_HOURS = 24 // PARTS
# Days kept per part of the day (motion) and uses kept per entrance (the newest).
KEPT_DAYS = 14
KEPT_ENTRIES = 40
KEPT_RECENT = 20
# Motion and entries this soon after the last person left are that person.
LEAVE_GRACE = timedelta(minutes=3)
# An entry this soon before somebody tracked comes home is theirs.
ARRIVAL_REACH = timedelta(minutes=10)
# A part of the day counts as lived empty when the home was empty this long in it.
AWAY_PART_MIN = timedelta(minutes=30)
# Motion on at least this share of the empty days at that part of the day, on at least
# ``MIN_DAYS`` days, is what moves here while nobody is home.
MOST_AWAY = 0.5
MIN_DAYS = 2
# A sensor that moves in this many parts of the day while the home is empty keeps no
# hours: a pet (``moves_at_any_hour``).
MIN_PARTS = 3
# The away spell's signs and openings (``somebody_in``) are kept from this long before it
# began (who was moving as the trackers left), at most ``MAX_SPELL`` of them.
SPELL_LEAD = timedelta(minutes=45)
MAX_SPELL = 600
# A sensor's motion this soon after its last, with nothing between, adds nothing.
SPELL_SAME_SIGN = timedelta(minutes=5)

type Days = list[float]  # day ordinals, newest first


def _part(when: datetime, zone: tzinfo | None) -> int:
    return local(when, zone).hour // PART_HOURS


def add_day(days: Days, day: int) -> None:
    """Put ``day`` first in ``days`` (newest first), keeping ``KEPT_DAYS``."""
    if not days or days[0] != day:
        days.insert(0, float(day))
        del days[KEPT_DAYS:]


type Pending = list[tuple[datetime, str]]


def split_due(
    pending: Pending, now: datetime, reach: timedelta, *, everything: bool = False
) -> tuple[Pending, Pending]:
    """(the waiting uses more than ``reach`` old at ``now`` (all of them: ``everything``),
    the rest); in time order, the due ones lead."""
    count = 0
    while count < len(pending) and (everything or now - pending[count][0] > reach):
        count += 1
    return pending[:count], pending[count:]


def remember(kept: dict[str, list[float]], due: Pending, zone: tzinfo | None, most: int) -> None:
    """Each use's time stored for its sensor, newest first, at most ``most`` a sensor and
    ``MAX_SENSORS`` sensors."""
    for at, sensor in due:
        if sensor not in kept and len(kept) >= MAX_SENSORS:
            continue
        times = kept.setdefault(sensor, [])
        times.insert(0, stamp(at, zone))
        del times[most:]


class AwayNormal:
    """Per sensor: when it moves, and when it is used, while the home is empty."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.motion: dict[str, list[Days]] = {}  # sensor -> per part: days it moved
        self.away_days: list[Days] = [[] for _ in range(PARTS)]  # per part: days lived empty
        self.entries: dict[str, list[float]] = {}  # entrance -> day*1440+minute, newest first
        self.taught_entries: dict[str, list[float]] = {}  # entrance -> minutes of the day
        self.taught_motion: dict[str, list[float]] = {}  # sensor -> parts of the day
        self.empty_since: datetime | None = None
        self.still_days: Days = []  # days of a spell with motion and nothing opened
        # Not stored: entries waiting to see whether somebody tracked comes in behind them,
        # and the latest entries of this empty spell (a visit outlasts the window).
        self._pending: list[tuple[datetime, str]] = []
        self.recent: list[tuple[datetime, str]] = []
        self._accounted: datetime | None = None
        # Motion onsets (``SIGN``) and openings (``OPENING``) of the away spell under way
        # (and of ``SPELL_LEAD`` before it), in time order; stored while the home is
        # empty (``stored_spell``): a restart does not empty the home.
        self.spell: list[tuple[datetime, str, str]] = []

    # --- learning ----------------------------------------------------------------------

    def presence(self, when: datetime, empty: bool) -> None:
        """The home became empty (``empty``) or somebody tracked came home at ``when``."""
        if empty:
            if self.empty_since is None:
                self.empty_since = when
                self._accounted = when + LEAVE_GRACE
            return
        if self.empty_since is not None:
            self._account(when)
            # Something moved and nothing was opened before the household came back.
            began = self.empty_since + LEAVE_GRACE
            if still_spell(self.spell, began, when, ARRIVAL_REACH, self.motion):
                add_day(self.still_days, day_number(when, self.zone))
        self.empty_since = None
        self.recent = []
        self._pending = [(at, e) for at, e in self._pending if when - at > ARRIVAL_REACH]
        self._commit(when, everything=True)

    def _note(self, when: datetime, entity_id: str, kind: str) -> None:
        """Keep a sign or an opening of the away spell (or of the lead before one)."""
        spell = self.spell
        if self.empty_since is None:
            while spell and when - spell[0][0] > SPELL_LEAD:
                spell.pop(0)
        last = spell[-1] if spell else None
        if (
            kind == SIGN
            and last is not None
            and last[1:] == (entity_id, kind)
            and when - last[0] <= SPELL_SAME_SIGN
        ):
            return
        spell.append((when, entity_id, kind))
        if len(spell) > MAX_SPELL:
            del spell[: len(spell) - MAX_SPELL]

    def moved(self, sensor: str, when: datetime) -> None:
        """A motion sensor started moving."""
        self._note(when, sensor, SIGN)
        if not self._empty(when):
            return
        if sensor not in self.motion and len(self.motion) >= MAX_SENSORS:
            return
        parts = self.motion.setdefault(sensor, [[] for _ in range(PARTS)])
        add_day(parts[_part(when, self.zone)], day_number(when, self.zone))

    def got_up(self, sensor: str, when: datetime) -> None:
        """Somebody left a bed or chair (``held_on.lain_on``): kept in the spell's record
        as a sign of somebody inside, as motion is. The window reads a spell's end as a sign
        too, but a window of an hour or two forgets the grandmother getting up at 09:10 by
        11:00, and her bathroom door at 09:12 read as an entry from outside."""
        self._note(when, sensor, SIGN)

    def entered(self, entrance: str, when: datetime) -> None:
        """An opening sensor opened, a lock unlocked or a garage or gate cover opened."""
        self._note(when, entrance, OPENING)
        if self._empty(when):
            self._pending.append((when, entrance))
            self.recent = [*self.recent[-(KEPT_RECENT - 1) :], (when, entrance)]

    def used_inside(self, contact: str, opened: datetime) -> None:
        """The opening of ``contact`` at ``opened`` was a use from inside (``inner_signs``):
        kept as a sign of somebody inside, not as an entry."""
        for index in range(len(self.spell) - 1, -1, -1):
            when, entity_id, kind = self.spell[index]
            if when < opened:
                return
            if (when, entity_id, kind) == (opened, contact, OPENING):
                self.spell[index] = (when, entity_id, SIGN)
                return

    def advance(self, now: datetime) -> None:
        """Time passed: entries nobody tracked followed are learned, empty hours counted."""
        self._commit(now)
        if self.empty_since is not None:
            self._account(now)

    def _empty(self, when: datetime) -> bool:
        return self.empty_since is not None and when >= self.empty_since + LEAVE_GRACE

    def _commit(self, now: datetime, *, everything: bool = False) -> None:
        due, self._pending = split_due(self._pending, now, ARRIVAL_REACH, everything=everything)
        remember(self.entries, due, self.zone, KEPT_ENTRIES)

    def _account(self, until: datetime) -> None:
        """The parts of the day lived empty up to ``until`` (each long enough) are counted."""
        if self.empty_since is None:
            return
        begin = self.empty_since + LEAVE_GRACE
        cursor = max(begin, self._accounted or begin)
        while cursor < until:
            moment = local(cursor, self.zone)
            part_start = moment.replace(
                hour=moment.hour - moment.hour % PART_HOURS, minute=0, second=0, microsecond=0
            )
            part_end = part_start + timedelta(hours=PART_HOURS)
            if min(until, part_end) - max(begin, part_start) >= AWAY_PART_MIN:
                add_day(self.away_days[_part(cursor, self.zone)], day_number(cursor, self.zone))
            self._accounted = max(begin, part_start)  # this part again until it is over
            cursor = part_end

    # --- feedback ----------------------------------------------------------------------

    def teach(self, sensor: str, when: datetime, *, entry: bool) -> None:
        """The homeowner says this is normal here: an entry at ``when``'s time of day on
        ``sensor`` (``entry``), or motion on ``sensor`` in ``when``'s part of the day."""
        taught = self.taught_entries if entry else self.taught_motion
        if sensor not in taught and len(taught) >= MAX_SENSORS:
            return
        value = float(_minute(when, self.zone) if entry else _part(when, self.zone))
        values = taught.setdefault(sensor, [])
        if value not in values:
            values.insert(0, value)
            del values[KEPT_DAYS:]

    def forget(self, sensor: str, *, entry: bool) -> bool:
        """The homeowner took it back (the false alarm removed); whether anything was taught."""
        return (self.taught_entries if entry else self.taught_motion).pop(sensor, None) is not None

    # --- reading -----------------------------------------------------------------------

    def usual_motion(self, sensor: str, when: datetime) -> tuple[int, int] | None:
        """(days it moved, days lived empty) at ``when``'s part of the day, other than
        ``when``'s own day, when it moves on most of them; (0, 0) when the homeowner said
        so; None when it is not usual."""
        part = _part(when, self.zone)
        if part in self.taught_motion.get(sensor, ()):
            return 0, 0
        parts = self.motion.get(sensor)
        if parts is None:
            return None
        today = day_number(when, self.zone)
        moved = sum(1 for day in parts[part] if day != today)
        empty = sum(1 for day in self.away_days[part] if day != today)
        if moved >= MIN_DAYS and moved >= MOST_AWAY * max(empty, moved):
            return moved, max(empty, moved)
        return None

    def moves_at_any_hour(self, sensor: str, when: datetime) -> tuple[int, int] | None:
        """(days it moved, days lived empty), other than ``when``'s own day, when the sensor
        moves whenever the home is empty, whatever the hour: in at least ``MIN_PARTS``
        parts of the day, on ``MIN_DAYS`` days, and in ``MOST_AWAY`` of the parts of the
        day lived empty (a dog or a cat, which keeps no hours); None when it does not."""
        parts = self.motion.get(sensor)
        if parts is None:
            return None
        today = day_number(when, self.zone)
        moved_days: set[float] = set()
        empty_days: set[float] = set()
        moved = empty = parts_moved = 0
        for part in range(PARTS):
            lived = {day for day in self.away_days[part] if day != today}
            seen = {day for day in parts[part] if day != today}
            empty += len(lived | seen)
            moved += len(seen)
            parts_moved += bool(seen)
            moved_days |= seen
            empty_days |= lived | seen
        if len(moved_days) >= MIN_DAYS and parts_moved >= MIN_PARTS and moved >= MOST_AWAY * empty:
            return len(moved_days), len(empty_days)
        return None

    def regular_entry(self, entrance: str, when: datetime) -> int | None:
        """On how many other days ``entrance`` was used near ``when``'s time of day while
        the home was empty, when that makes it regular (0: the homeowner said so); None
        when it is not."""
        minute = _minute(when, self.zone)
        if any(_near(minute, int(m)) for m in self.taught_entries.get(entrance, ())):
            return 0
        return regular_days(self.entries.get(entrance, ()), when, self.zone)

    def empty_at(self, when: datetime) -> bool:
        """Whether the home is known empty (past the leaving grace) at ``when``."""
        return self._empty(when)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable, versioned form (numbers packed, ``packed.py``)."""
        stored: dict[str, Any] = {
            "version": AWAY_NORMAL_VERSION,
            "motion": {s: [pack(days, 0) for days in parts] for s, parts in self.motion.items()},
            "away_days": [pack(days, 0) for days in self.away_days],
            "entries": {s: pack(used, 0) for s, used in self.entries.items()},
            "taught_entries": {s: pack(v, 0) for s, v in self.taught_entries.items()},
            "taught_motion": {s: pack(v, 0) for s, v in self.taught_motion.items()},
            "empty_since": self.empty_since.isoformat() if self.empty_since else None,
        }
        if self.still_days:  # (a form stored before them reads back the same)
            stored["still_days"] = pack(self.still_days, 0)
        # The spell under way, while the home is empty (a restart does not empty it).
        if self.empty_since is not None and (
            spell := spell_to_store(self.spell, self.empty_since - SPELL_LEAD)
        ):
            stored["spell"] = spell
        return stored

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> AwayNormal:
        """Rebuild from stored data: another version gives a fresh one, a damaged part is
        dropped."""
        normal = cls(zone)
        if not isinstance(data, Mapping) or data.get("version") != AWAY_NORMAL_VERSION:
            return normal
        normal.motion.update(stored_per_entity(data.get("motion"), MAX_SENSORS, _parts))
        if (away := _parts(data.get("away_days"))) is not None:
            normal.away_days = away
        for key, target, count, high in (
            ("entries", normal.entries, KEPT_ENTRIES, 1e10),
            ("taught_entries", normal.taught_entries, KEPT_DAYS, _MINUTES - 1),
            ("taught_motion", normal.taught_motion, KEPT_DAYS, PARTS - 1),
        ):
            numbers = partial(stored_numbers, most=count, high=high)
            target.update(stored_per_entity(data.get(key), MAX_SENSORS, numbers))
        if (still := stored_numbers(data.get("still_days", ""), KEPT_DAYS, 1e7)) is not None:
            normal.still_days = still
        normal.empty_since = parse_time(data.get("empty_since"))
        if normal.empty_since is not None:
            normal._accounted = normal.empty_since + LEAVE_GRACE
            normal.spell = spell_from_store(data.get("spell"), normal.empty_since - SPELL_LEAD)
        return normal


def stored_numbers(text: object, most: int, high: float) -> list[float] | None:
    """At most ``most`` packed numbers within ``[0, high]`` ("" is none), or None."""
    if text == "":
        return []
    count = len(text.split(",")) if isinstance(text, str) else 0
    if not 1 <= count <= most:
        return None
    return unpack(text, count, 0.0, high)


def stored_day_lists(stored: object, length: int) -> list[Days] | None:
    """``length`` stored lists of day ordinals (per part or hour of the day), or None."""
    if not isinstance(stored, list) or len(stored) != length:
        return None
    lists: list[Days] = []
    for text in stored:
        if (days := stored_numbers(text, KEPT_DAYS, 1e7)) is None:
            return None
        lists.append(days)
    return lists


def _parts(stored: object) -> list[Days] | None:
    return stored_day_lists(stored, PARTS)
