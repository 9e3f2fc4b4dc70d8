"""What this home does every day, learned: the quarter hours each entity is in its routine state.

A home's day has fixed points no rule names: the alarm armed in stay mode at bedtime, the
back door locked at night. Per alarm panel (armed, in any mode) and lock (locked), and per
local quarter hour of the day, one bit per day of the last ``DAYS_KEPT``: it was in that
state at some moment of that quarter on that day (HA's domain only, never a word of the
id). Per home, the same bits for the quarters the baselines *watched* (time seen to
pass: HA running) and those someone was *home* (or presence unknown), so a day with HA
down or everybody away is no day the routine "did not happen" (``routine_missed`` reads
them). Switches and motion are not asked: whether the water heater or the yard light is
switched on tonight, or a room moves by eight, is a person's choice on many ordinary days
(tried on the development sets: more false alarms than incidents found).

Bounded (``MAX_ENTITIES``); stored as one packed string per entity; untrusted when read
back (a malformed part is dropped, never raised).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Any

from .clock import format_time, parse_time
from .packed import pack, unpack
from .stored_values import stored_items

SLOTS = 96  # quarter hours of a day
QUARTER = timedelta(minutes=15)
DAYS_KEPT = 28  # four weeks follow a changing routine
MAX_ENTITIES = 256
_FULL = (1 << DAYS_KEPT) - 1
_MAX_DAY = 3_652_059
_SECONDS = 900

# Readable states that are no state (a device off the radio is neither armed nor not).
_NO_STATES = frozenset({"unavailable", "unknown", "none", ""})


def routine_state(domain: str, device_class: str | None, state: str) -> bool | None:
    """Whether ``state`` is the entity's routine state (armed, locked, on); None for a
    no-state or an entity whose states make no daily routine."""
    if state in _NO_STATES:
        return None
    if domain == "alarm_control_panel":
        return state.startswith("armed_")
    if domain == "lock":
        return state == "locked"
    return None


@lru_cache(maxsize=1024)
def _quarter(number: int, zone: tzinfo | None) -> tuple[int, int]:
    """(quarter of the local day, local day ordinal) of a quarter hour since the epoch."""
    moment = datetime.fromtimestamp(number * _SECONDS, zone or UTC)
    return moment.hour * 4 + moment.minute // 15, moment.toordinal()


def quarter_of(when: datetime, zone: tzinfo | None) -> tuple[int, int]:
    """(quarter of the local day 0-95, local day ordinal) of ``when``."""
    if when.tzinfo is None:  # naive: already local
        return when.hour * 4 + when.minute // 15, when.toordinal()
    return _quarter(int(when.timestamp() // _SECONDS), zone)


def quarter_start(when: datetime) -> datetime:
    """The start of the quarter hour ``when`` falls in."""
    return when.replace(minute=when.minute - when.minute % 15, second=0, microsecond=0)


class DailyRoutines:
    """Per entity and quarter of the day, the days it was in its routine state; O(1) per
    event (a long stay marks its quarters once, when it ends or time is accounted)."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.day = 0  # bit 0 of every mask is this local day ordinal; bit k is k days before
        self.slots: dict[str, list[int]] = {}  # entity -> 96 masks: in its state then
        self.watched = [0] * SLOTS
        self.home = [0] * SLOTS
        self.since: dict[str, datetime] = {}  # in its routine state since (accounted until)
        self.watched_until: datetime | None = None
        self.empty = False
        # Not stored: ``routine_missed``'s answers for the day (the days before it do not
        # change while it lasts).
        self.answers: dict[tuple[str, int, int, bool], Any] = {}
        self.answered = 0

    # --- learning ----------------------------------------------------------------------

    def state(self, entity_id: str, in_routine: bool | None, when: datetime) -> None:
        """The entity reads its routine state (True), another (False), or nothing (None)."""
        if self.watched_until is None:
            self.watched_until = when
        since = self.since.pop(entity_id, None)
        if since is not None:
            self._mark(self._entity(entity_id), since, max(since, when))
        if in_routine and (entity_id in self.slots or len(self.slots) < MAX_ENTITIES):
            self.since[entity_id] = when
            self._mark(self._entity(entity_id), when, when)

    def presence(self, empty: bool, when: datetime) -> None:
        """Everybody left (``empty``) or someone is home again, at ``when``."""
        self.advance(when)
        self.empty = empty

    def advance(self, now: datetime) -> None:
        """Account the quarters watched (and the stays under way) up to ``now``."""
        last = self.watched_until
        if last is not None and now > last:
            self._mark(self.watched, last, now)
            if not self.empty:
                self._mark(self.home, last, now)
        if last is None or now > last:
            self.watched_until = now
        for entity_id, since in list(self.since.items()):
            if now > since:
                self._mark(self._entity(entity_id), since, now)
                self.since[entity_id] = now

    def _entity(self, entity_id: str) -> list[int]:
        return self.slots.setdefault(entity_id, [0] * SLOTS)

    def _mark(self, masks: list[int], start: datetime, end: datetime) -> None:
        """Set the bits of the quarters [start, end] overlaps (a day at most: a gap in the
        record is not a stay)."""
        first = int(start.timestamp() // _SECONDS)
        last = int(end.timestamp() // _SECONDS)
        if end > start and end.timestamp() % _SECONDS == 0:
            last -= 1  # ends on a quarter's first instant: not in it
        for number in range(max(first, last - SLOTS), last + 1):
            slot, day = _quarter(number, self.zone)
            if day > self.day:
                self._shift(day)
            back = self.day - day
            if 0 <= back < DAYS_KEPT:
                masks[slot] |= 1 << back

    def _shift(self, day: int) -> None:
        by = min(day - self.day, DAYS_KEPT) if self.day else DAYS_KEPT
        self.day = day
        for masks in (self.watched, self.home, *self.slots.values()):
            for slot in range(SLOTS):
                masks[slot] = (masks[slot] << by) & _FULL

    # --- reading -----------------------------------------------------------------------

    def was_in(self, entity_id: str, start: datetime, end: datetime) -> bool:
        """Whether the entity was in its routine state at some moment of the quarters
        from ``start`` to ``end`` (as far as they are kept)."""
        masks = self.slots.get(entity_id)
        if masks is None:
            return False
        first = int(start.timestamp() // _SECONDS)
        last = int(end.timestamp() // _SECONDS)
        for number in range(max(first, last - SLOTS), last + 1):
            slot, day = _quarter(number, self.zone)
            back = self.day - day
            if 0 <= back < DAYS_KEPT and masks[slot] >> back & 1:
                return True
        return entity_id in self.since

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: one packed string per entity."""
        return {
            "day": self.day,
            "watched": pack(self.watched, 0),
            "home": pack(self.home, 0),
            "empty": self.empty,
            "slots": {entity: pack(masks, 0) for entity, masks in self.slots.items()},
            "since": {entity: format_time(when) for entity, when in self.since.items()},
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> DailyRoutines:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        routines = cls(zone)
        if not isinstance(data, Mapping):
            return routines
        day = data.get("day")
        if not isinstance(day, int) or isinstance(day, bool) or not 0 <= day <= _MAX_DAY:
            return routines
        watched = unpack(data.get("watched"), SLOTS, 0, _FULL)
        home = unpack(data.get("home"), SLOTS, 0, _FULL)
        if watched is None or home is None:
            return routines
        routines.day = day
        routines.watched = [int(v) for v in watched]
        routines.home = [int(v) for v in home]
        routines.empty = data.get("empty") is True
        for entity, packed in stored_items(data.get("slots"), MAX_ENTITIES):
            if not isinstance(entity, str) or len(entity) > 255:
                continue
            if (masks := unpack(packed, SLOTS, 0, _FULL)) is not None:
                routines.slots[entity] = [int(v) for v in masks]
        for entity, stored in stored_items(data.get("since"), MAX_ENTITIES):
            if entity in routines.slots and (when := parse_time(stored)) is not None:
                routines.since[entity] = when  # a stay goes on across a restart
        return routines
