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

from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Any

from .clock import format_time, parse_time
from .day_masks import DAYS_KEPT, FULL, DayMasks
from .packed import pack, unpack
from .stored_values import stored_items

SLOTS = 96  # quarter hours of a day
QUARTER = timedelta(minutes=15)
MAX_ENTITIES = 256
_SECONDS = 900
_KEPT = DAYS_KEPT * SLOTS

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


def contact_state(domain: str, device_class: str | None, state: str) -> bool | None:
    """Whether a contact (a door, a drawer, a window) is open, or a motion sensor sees
    movement: a contact's day's first use is learned as a routine and a room's movement
    says somebody is up there (``first_use_missed``); neither is judged by
    ``routine_missed``."""
    if domain != "binary_sensor" or state in _NO_STATES:
        return None
    if device_class not in CONTACT_CLASSES and device_class not in MOTION_CLASSES:
        return None
    return state == "on"


CONTACT_CLASSES = frozenset({"door", "garage_door", "window", "opening"})
MOTION_CLASSES = frozenset({"motion", "occupancy", "presence"})


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


class DailyRoutines(DayMasks):
    """Per entity and quarter of the day, the days it was in its routine state
    (``DayMasks``); O(1) per event (a long stay marks its quarters once, when it ends or
    time is accounted)."""

    def __init__(self, zone: tzinfo | None) -> None:
        super().__init__(zone, SLOTS)
        self.slots: dict[str, list[int]] = {}  # entity -> 96 masks: in its state then
        self.since: dict[str, datetime] = {}  # in its routine state since (accounted until)
        # Per entity kept, the quarters it read no state (off the radio, a flat battery):
        # a bed unavailable all night is no night slept elsewhere.
        self.unknown: dict[str, list[int]] = {}
        self.unknown_since: dict[str, datetime] = {}
        # Not stored: ``routine_missed``'s answers for the day (the days before it do not
        # change while it lasts).
        self.answers: dict[tuple[str, int, int, bool], Any] = {}
        self.answered = 0
        # Not stored either: ``first_use_missed``'s answers for the day, and the day and
        # room and subject it told last (one morning, one notice).
        self.first_answers: dict[tuple[str, int, int], Any] = {}
        self.first_told: tuple[int, str, str] | None = None

    # --- learning ----------------------------------------------------------------------

    def state(self, entity_id: str, in_routine: bool | None, when: datetime) -> None:
        """The entity reads its routine state (True), another (False), or nothing (None)."""
        if self.watched_until is None:
            self.watched_until = when
        self._reading(entity_id, in_routine is not None, when)
        since = self.since.pop(entity_id, None)
        if since is not None:
            self._mark(self._entity(entity_id), since, max(since, when))
        if in_routine and (entity_id in self.slots or len(self.slots) < MAX_ENTITIES):
            self.since[entity_id] = when
            self._mark(self._entity(entity_id), when, when)

    def _reading(self, entity_id: str, read: bool, when: datetime) -> None:
        """Account the entity's spell without a state (``unknown``) when it reads again."""
        if not read:
            if entity_id in self.slots:
                self.unknown_since.setdefault(entity_id, when)
            return
        if (start := self.unknown_since.pop(entity_id, None)) is not None:
            masks = self.unknown.setdefault(entity_id, [0] * SLOTS)
            last = int(when.timestamp() // _SECONDS)  # the whole spell, days long or not
            for number in range(max(int(start.timestamp() // _SECONDS), last - _KEPT), last + 1):
                self._set(masks, *_quarter(number, self.zone))

    def _shift(self, day: int) -> None:
        by = min(day - self.day, DAYS_KEPT) if self.day else DAYS_KEPT
        super()._shift(day)
        for masks in self.unknown.values():
            for slot in range(SLOTS):
                masks[slot] = (masks[slot] << by) & FULL

    def _masks(self) -> dict[str, list[int]]:
        return self.slots

    def _under_way(self) -> dict[str, datetime]:
        return self.since

    def _mark(self, masks: list[int], start: datetime, end: datetime) -> None:
        """Set the bits of the quarters [start, end] overlaps (a day at most: a gap in the
        record is not a stay)."""
        first = int(start.timestamp() // _SECONDS)
        last = int(end.timestamp() // _SECONDS)
        if end > start and end.timestamp() % _SECONDS == 0:
            last -= 1  # ends on a quarter's first instant: not in it
        for number in range(max(first, last - SLOTS), last + 1):
            slot, day = _quarter(number, self.zone)
            self._set(masks, slot, day)

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
            **self._stored_account(),
            "slots": {entity: pack(masks, 0) for entity, masks in self.slots.items()},
            "since": {entity: format_time(when) for entity, when in self.since.items()},
            "unknown": {entity: pack(masks, 0) for entity, masks in self.unknown.items()},
            "unknown_since": {e: format_time(when) for e, when in self.unknown_since.items()},
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> DailyRoutines:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        routines = cls(zone)
        if (data := routines._read_account(data)) is None:
            return routines
        for entity, packed in stored_items(data.get("slots"), MAX_ENTITIES):
            if not isinstance(entity, str) or len(entity) > 255:
                continue
            if (masks := unpack(packed, SLOTS, 0, FULL)) is not None:
                routines.slots[entity] = [int(v) for v in masks]
        for entity, packed in stored_items(data.get("unknown"), MAX_ENTITIES):  # none before 41
            if entity in routines.slots and (masks := unpack(packed, SLOTS, 0, FULL)) is not None:
                routines.unknown[entity] = [int(v) for v in masks]
        for entity, stored in stored_items(data.get("unknown_since"), MAX_ENTITIES):
            if entity in routines.slots and (when := parse_time(stored)) is not None:
                routines.unknown_since[entity] = when
        for entity, stored in stored_items(data.get("since"), MAX_ENTITIES):
            if entity in routines.slots and (when := parse_time(stored)) is not None:
                routines.since[entity] = when  # a stay goes on across a restart
        return routines
