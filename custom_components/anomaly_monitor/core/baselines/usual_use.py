"""How this home uses each device, day by day: the normal the habit checks ask.

Learned per entity, from the recorder's history at set-up and the live stream after:

- **since when it is watched** (its first report): a device watched for fewer than
  ``LEARN_DAYS`` days is still being learned (``learning``);
- **how long it stays open, day by day** (opening sensors): per quarter of the day, the
  longest stay of each of the last ``KEPT_DAYS`` days it was used. "On most days it is
  open at most 40 min" is an upper quantile of those days (``usual_open``): one odd day
  (a door left open all night once) does not make itself normal. At a time of day it
  is (nearly) never used, the other quarters' days are pooled, and of three or four of
  them the worst is left out too (a morning's tradesman says nothing of 22:00);
- **how it changes in bursts** (anything ``toggle_storm`` judges): per quarter, the longest
  burst (changes each within the storm's gap) of each day with a burst: kitchen
  cupboards opened six times in two minutes at dinner, every day, are cooking;
- **when it is used at night** (opening and motion sensors, 00-05 local): on how many
  nights. A door used at 03:00 on most nights is a toilet trip;
- **left open when everybody leaves** (opening sensors): on how many days a door was
  open at a departure. An interior door that stands open while the home is empty on most
  days is not an entrance left open.

"False alarm" on a habit finding widens the entity's normal (``teach``): the homeowner's
word stands beside the learned days (a stay or a burst that size is usual, night use is
usual) until the false alarm is removed (``forget``). Bounded (``MAX_ENTITIES``); the
stored form is versioned and a damaged part is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
import math
from typing import Any

from .clock import day_number, format_time, hour_of_day, parse_time
from .night_uses import NightUses
from .packed import pack, unpack
from .stored_values import is_stored_number, stored_entity_id, stored_items, stored_per_entity

USUAL_USE_VERSION = 1
MAX_ENTITIES = 600
QUARTERS = 4
# Days of use kept per quarter (the newest; a habit that changed is relearned in a fortnight).
KEPT_DAYS = 14
# A device watched this long has a known normal; before, only its prior judges.
LEARN_DAYS = 3
_LEARNED_AFTER = timedelta(days=LEARN_DAYS)  # (made once: asked per entity per analysis)
# A burst: at least this many changes, each within the storm's gap of the previous.
BURST_MIN = 3
# "Most days": the upper quantile of the days of use taken as usual.
MOST = 0.8
# A door opened this soon before the home became empty was the way out (a phone's
# tracker reports the departure minutes after the door: ``night_outings.PRESENCE_NEAR``).
WAY_OUT_REACH = timedelta(minutes=15)
# A stay longer than this is a gap in the record (HA stopped), not a use.
MAX_STAY = timedelta(days=7)

# What "false alarm" can teach: an open stay, a long stay, a burst, use at night, an outage
# (``drop_judge``).
# ``stay_since``: the start (epoch seconds) of the stay under way when a stay was marked
# normal: that stay is not told again while it lasts, however long it grows.
MARKED_STAY = "stay_since"
TAUGHT_KINDS = frozenset({"open", "stay", MARKED_STAY, "burst", "night", "drop"})
# Per quarter: [last day ordinal, that day's value, older days' values...] (newest first).
type Days = list[list[float]]


def _quarter(when: datetime, zone: tzinfo | None) -> int:
    return hour_of_day(when, zone) // 6


def _record(days: Days, quarter: int, day: int, value: float) -> None:
    """``value`` seen on ``day``: that day's maximum in the quarter's kept days."""
    bucket = days[quarter]
    if bucket and bucket[0] == day:
        bucket[1] = max(bucket[1], value)
        return
    values = [value, *bucket[1:]][:KEPT_DAYS] if bucket else [value]
    days[quarter] = [float(day), *values]


def _usual(values: list[float], *, pooled: bool = False) -> float:
    """The value most days stay within (an upper quantile, not the single worst day).

    ``pooled``: the days are of other times of day (none or one at this one). Of three or
    four such days the upper quantile would be their worst, so the next one is taken: a
    door open all morning once for a tradesman says nothing of how long it stands open
    at an hour it is never used (a garage door up at 22:00)."""
    ordered = sorted(values)
    index = math.ceil(MOST * len(ordered)) - 1
    if pooled and len(ordered) >= 3:
        index = min(index, len(ordered) - 2)
    return ordered[max(0, index)]


class UsualUse:
    """Per entity: watched since, daily longest open stays, daily bursts, nights used."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.since: dict[str, datetime] = {}
        self.open_days: dict[str, Days] = {}
        self.burst_days: dict[str, Days] = {}
        self.night = NightUses(zone)  # nights used in the small hours (and to go out)
        self.nights = self.night.all  # [nights with use, last night's ordinal]
        self.taught: dict[str, dict[str, float]] = {}  # the homeowner's "false alarm"
        self.away_open: dict[str, list[float]] = {}  # [days open at a departure, last day]
        self.departed: datetime | None = None  # when the home last became empty
        self.departures = [0.0, 0.0]  # [days with a departure, last such day]
        # Open at that departure and not closed since (a radio drop is no closing).
        self.open_at_departure: set[str] = set()
        # Not stored: the burst under way and the open stay under way, per entity.
        self._runs: dict[str, tuple[datetime, datetime, int]] = {}
        self._opened: dict[str, datetime] = {}
        # Not stored: when each opening sensor last opened (the door the household left by),
        # and the opening before (a guest's passage before one of the household came home).
        self._last_opened: dict[str, datetime] = {}
        self._opened_before: dict[str, datetime] = {}
        # Not stored: the doors opened just before the home last became empty (the way out).
        self._left_by: set[str] = set()
        # Not stored: when each opening sensor last opened before that departure (the
        # helper arriving by the gate later does not change how the household went out).
        self._opened_by_departure: dict[str, datetime] = {}

    # --- learning ----------------------------------------------------------------------

    def seen(self, entity_id: str, when: datetime) -> None:
        """``entity_id`` reported at ``when``: watched from its first report on."""
        known = self.since.get(entity_id)
        new = known is None and len(self.since) < MAX_ENTITIES
        if new or (known is not None and when < known):
            self.since[entity_id] = when

    def changed(
        self,
        entity_id: str,
        when: datetime,
        state: str,
        *,
        burst_gap: timedelta | None,
        opening: bool,
        night_use: bool,
        coming_in: bool = False,
    ) -> None:
        """A real change (blips and repeats already removed) of a watched entity."""
        if entity_id not in self.since:
            return  # over the cap
        if burst_gap is not None:
            self._burst(entity_id, when, burst_gap)
        if opening:
            if state == "off":
                self.open_at_departure.discard(entity_id)
            opened = self._opened.pop(entity_id, None)
            if state == "on":
                self._opened[entity_id] = when
                if (last := self._last_opened.get(entity_id)) is not None:
                    self._opened_before[entity_id] = last
                self._last_opened[entity_id] = when
            elif opened is not None and timedelta(0) <= when - opened <= MAX_STAY:
                days = self.open_days.setdefault(entity_id, [[] for _ in range(QUARTERS)])
                minutes = (when - opened).total_seconds() / 60
                _record(days, _quarter(opened, self.zone), day_number(opened, self.zone), minutes)
        if night_use and state == "on":
            self.night.used(entity_id, when, coming_in=coming_in)

    def _burst(self, entity_id: str, when: datetime, gap: timedelta) -> None:
        run = self._runs.get(entity_id)
        if run is not None and timedelta(0) <= when - run[1] <= gap:
            self._runs[entity_id] = (run[0], when, run[2] + 1)
            return
        self._end_run(entity_id)
        self._runs[entity_id] = (when, when, 1)

    def _end_run(self, entity_id: str) -> None:
        run = self._runs.pop(entity_id, None)
        if run is None or run[2] < BURST_MIN:
            return
        days = self.burst_days.setdefault(entity_id, [[] for _ in range(QUARTERS)])
        start = run[0]
        _record(days, _quarter(start, self.zone), day_number(start, self.zone), float(run[2]))

    def everybody_left(self, when: datetime, open_now: list[str]) -> None:
        """The home became empty at ``when`` with these opening sensors open."""
        self.departed = when
        self.open_at_departure = {e for e in open_now if e in self.since}
        self._opened_by_departure = dict(self._last_opened)
        self._left_by = {
            e
            for e, opened in self._last_opened.items()
            if timedelta(0) <= when - opened <= WAY_OUT_REACH and e not in self.open_at_departure
        }
        day = float(day_number(when, self.zone))
        if self.departures[1] != day:
            self.departures = [self.departures[0] + 1, day]
        for entity_id in self.open_at_departure:
            used = self.away_open.setdefault(entity_id, [0.0, 0.0])
            if used[1] != day:
                used[0] += 1
                used[1] = day

    def days_left_open(self, entity_id: str, skip: datetime) -> tuple[int, int]:
        """(days it was open when everybody left, days anybody left), other than
        ``skip``'s day."""
        day = day_number(skip, self.zone)
        departures = int(self.departures[0]) - (1 if self.departures[1] == day else 0)
        used = self.away_open.get(entity_id)
        if used is None:
            return 0, departures
        return int(used[0]) - (1 if used[1] == day else 0), departures

    def advance(self, now: datetime, gap: timedelta) -> None:
        """Bursts that ended (nothing for longer than ``gap``) are learned."""
        for entity_id in [e for e, run in self._runs.items() if now - run[1] > gap]:
            self._end_run(entity_id)

    # --- feedback ----------------------------------------------------------------------

    def teach(self, entity_id: str, kind: str, value: float) -> None:
        """The homeowner says this is normal here: a stay of ``value`` minutes (``open``,
        ``stay``), a burst of ``value`` changes (``burst``), use at night (``night``)."""
        if kind not in TAUGHT_KINDS or not math.isfinite(value) or value < 0:
            return
        if entity_id not in self.taught and len(self.taught) >= MAX_ENTITIES:
            return
        kinds = self.taught.setdefault(entity_id, {})
        kinds[kind] = max(kinds.get(kind, 0.0), value)

    def forget(self, entity_id: str, kind: str) -> None:
        """The homeowner took it back (the false alarm removed)."""
        kinds = self.taught.get(entity_id, {})
        kinds.pop(kind, None)
        if not kinds:
            self.taught.pop(entity_id, None)

    def taught_value(self, entity_id: str, kind: str) -> float | None:
        """What the homeowner said is normal, if anything."""
        return self.taught.get(entity_id, {}).get(kind)

    # --- reading -----------------------------------------------------------------------

    def days_watched(self, entity_id: str, now: datetime) -> float:
        """Days since its first report (0 when never seen)."""
        since = self.since.get(entity_id)
        return 0.0 if since is None else max(0.0, (now - since).total_seconds() / 86400)

    def learning(self, entity_id: str, now: datetime) -> bool:
        """Whether its normal is still being learned (watched fewer than ``LEARN_DAYS``)."""
        return self.days_watched(entity_id, now) < LEARN_DAYS

    def open_since(self, entity_id: str) -> datetime | None:
        """Since when the opening stands open (its opening seen live), else since it was
        first watched (open then, or closed: the caller knows which)."""
        return self._opened.get(entity_id) or self.since.get(entity_id)

    def last_opened(self, entity_id: str) -> datetime | None:
        """When the opening sensor last opened, seen live (None after a restart)."""
        return self._last_opened.get(entity_id)

    def last_openings(self, entity_id: str) -> list[datetime]:
        """The opening sensor's last two openings seen live, oldest first."""
        return [w for w in (self._opened_before.get(entity_id), self.last_opened(entity_id)) if w]

    def opened_while_empty(self, entity_id: str) -> bool:
        """Whether the opening is the way the household last went out (opened and shut
        within ``WAY_OUT_REACH`` before the home became empty) and was seen opening since:
        somebody came in by it. False after a restart (when it opened is not stored)."""
        opened, departed = self._opened.get(entity_id), self.departed
        return (
            opened is not None
            and departed is not None
            and opened >= departed
            and entity_id in self._left_by
        )

    def opened_and_shut(self, since: datetime, until: datetime) -> list[str]:
        """The opening sensors opened after ``since`` and by ``until`` and shut again
        before the home became empty (not open at the departure): the way out was one of
        them. Each as it last opened by the departure: one opened again since (the helper
        coming in by the gate the household left by) was still the way out. Empty after a
        restart (not stored)."""
        return [
            entity_id
            for entity_id, opened in self._opened_by_departure.items()
            if since < opened <= until and entity_id not in self.open_at_departure
        ]

    def learning_until(self, entity_id: str) -> datetime | None:
        """When its normal will be known (None: never seen yet)."""
        since = self.since.get(entity_id)
        return None if since is None else since + _LEARNED_AFTER

    def usual_open(self, entity_id: str, opened: datetime) -> tuple[float, int] | None:
        """(minutes it stays open at most on most days, days of use) for a stay begun at
        ``opened``: that quarter of the day, or every quarter pooled when it has fewer than
        two days; None when fewer than two days of use are known. Its own day is left out."""
        day = day_number(opened, self.zone)
        return _usual_of(self.open_days.get(entity_id), _quarter(opened, self.zone), day)

    def usual_burst(self, entity_id: str, when: datetime) -> tuple[float, int] | None:
        """(changes in its longest burst on most days with one, days with a burst) at
        ``when``'s quarter of the day (or pooled); None when fewer than two days had one."""
        day = day_number(when, self.zone)
        return _usual_of(self.burst_days.get(entity_id), _quarter(when, self.zone), day)

    def nights_watched(self, entity_id: str, now: datetime) -> int:
        """Whole nights it has been watched."""
        return int(self.days_watched(entity_id, now))

    def nights_used(
        self, entity_id: str, skip: datetime | None = None, *, going_out: bool = False
    ) -> int:
        """Nights it was used in the small hours (other than ``skip``'s night); only by
        somebody not coming home, with ``going_out`` (``night_uses``)."""
        return self.night.nights(entity_id, skip, going_out=going_out)

    def learning_entities(self, now: datetime) -> dict[str, datetime]:
        """Entities still being learned, and until when."""
        until = timedelta(days=LEARN_DAYS)
        return {e: since + until for e, since in self.since.items() if now < since + until}

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable, versioned form (numbers packed, ``packed.py``)."""
        return {
            "version": USUAL_USE_VERSION,
            "since": {e: format_time(when) for e, when in self.since.items()},
            "open": {e: [pack(b, 1) for b in days] for e, days in self.open_days.items()},
            "bursts": {e: [pack(b, 0) for b in days] for e, days in self.burst_days.items()},
            **self.night.as_dict(),
            "taught": {e: dict(kinds) for e, kinds in self.taught.items()},
            "away_open": {e: pack(used, 0) for e, used in self.away_open.items()},
            "departed": format_time(self.departed),
            "departures": pack(self.departures, 0),
            "open_at_departure": sorted(self.open_at_departure),
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> UsualUse:
        """Rebuild from stored data: another version gives a fresh one, a damaged part is
        dropped."""
        usual = cls(zone)
        if not isinstance(data, Mapping) or data.get("version") != USUAL_USE_VERSION:
            return usual
        usual.since.update(stored_per_entity(data.get("since"), MAX_ENTITIES, parse_time))
        for key, target in (("open", usual.open_days), ("bursts", usual.burst_days)):
            target.update(stored_per_entity(data.get(key), MAX_ENTITIES, _days))
        usual.night.load(data, MAX_ENTITIES)
        usual.away_open.update(
            stored_per_entity(data.get("away_open"), MAX_ENTITIES, lambda t: unpack(t, 2, 0.0, 1e7))
        )
        usual.departed = parse_time(data.get("departed"))
        if (departures := unpack(data.get("departures"), 2, 0.0, 1e7)) is not None:
            usual.departures = departures
        still_open = data.get("open_at_departure")
        if isinstance(still_open, list):
            usual.open_at_departure = {e for e in still_open[:MAX_ENTITIES] if e in usual.since}
        for entity, kinds in stored_items(data.get("taught"), MAX_ENTITIES):
            if stored_entity_id(entity) and isinstance(kinds, Mapping):
                for kind, value in kinds.items():
                    if is_stored_number(value):
                        usual.teach(entity, str(kind), float(value))
        return usual


def _usual_of(days: Days | None, quarter: int, skip_day: int) -> tuple[float, int] | None:
    """The usual value of the quarter (or every quarter pooled), over the days other than
    ``skip_day``: the use being judged never makes itself normal."""
    if days is None:
        return None
    values = _other_days(days[quarter], skip_day)
    if len(values) >= 2:
        return _usual(values), len(values)
    values = [v for bucket in days for v in _other_days(bucket, skip_day)]
    if len(values) < 2:
        return None
    return _usual(values, pooled=True), len(values)


def _other_days(bucket: list[float], skip_day: int) -> list[float]:
    if not bucket:
        return []
    return bucket[2:] if bucket[0] == skip_day else bucket[1:]


def _days(buckets: object) -> Days | None:
    if not isinstance(buckets, list) or len(buckets) != QUARTERS:
        return None
    days: Days = []
    for text in buckets:
        if text == "":
            days.append([])
            continue
        count = len(text.split(",")) if isinstance(text, str) else 0
        if not 2 <= count <= KEPT_DAYS + 1 or (values := unpack(text, count, 0.0, 1e7)) is None:
            return None
        days.append(values)
    return days
