"""Each power meter's learned day: at which hours it draws, on which of the last days.

Per meter and local hour of the day, one bit per day of the last ``DAYS_KEPT``: it drew
power (``RUNNING_WATTS``) at some moment of that hour on that day. Per home, the same bits
for the hours that were *watched* (the baselines saw the time pass: HA running) and the
hours someone was *home* (or presence is unknown), so a day with HA down or everybody
away is not a day the meter "did not run".

Three questions read it: does the meter start again and again in small hours it never
runs at (``night_cycling``); does it run at this hour on most days (an expected run that
does not come, ``meter_habits``); has it ever run at this hour (drawing at an hour it
never draws, ``meter_habits``). No role and no word of a name: a water heater on the night tariff,
a charger every night, an aquarium pump all day are learned the same way.

Bounded (``MAX_METERS``); stored as one packed string per meter; untrusted when read
back (a malformed part is dropped, never raised).
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from typing import Any

from .clock import hour_start, local, next_hour, slot_of
from .day_masks import DAYS_KEPT, FULL, DayMasks
from .packed import pack, unpack
from .stored_values import stored_items

# Meters learned.
MAX_METERS = 96
_INSTANT = timedelta(microseconds=1)


class MeterHours(DayMasks):
    """Per meter and hour of day, the days it drew power (``DayMasks``); O(1) per event."""

    def __init__(self, zone: tzinfo | None) -> None:
        super().__init__(zone, 24)
        self.runs: dict[str, list[int]] = {}  # meter -> 24 masks: drew power at that hour
        self.running_since: dict[str, datetime] = {}  # not stored: the run under way

    def _masks(self) -> dict[str, list[int]]:
        return self.runs

    def _under_way(self) -> dict[str, datetime]:
        return self.running_since

    # --- learning ----------------------------------------------------------------------

    def power(self, entity_id: str, running: bool, when: datetime) -> None:
        """The meter reads running (or idle) from ``when`` on."""
        if self.watched_until is None:
            self.watched_until = when  # the hours watched begin with the first reading
        since = self.running_since.pop(entity_id, None)
        if since is not None:
            self._mark(self._entity(entity_id), since, max(since, when))
        if running and (entity_id in self.runs or len(self.runs) < MAX_METERS):
            self.running_since[entity_id] = when
            self._mark(self._entity(entity_id), when, when)

    def seed_run(self, entity_id: str, since: datetime) -> None:
        """The meter reads running now, unchanged since ``since`` (at set-up or a
        restart: a steady consumer may not report for days)."""
        if entity_id not in self.running_since:
            self.power(entity_id, True, since)

    def drew(self, entity_id: str, start: datetime, end: datetime) -> None:
        """The meter drew from ``start`` to ``end`` as a part of its spell (a thermostat's
        rest between two runs of a heater: ``draw_spells``)."""
        if entity_id in self.runs:
            self._mark(self.runs[entity_id], start, end)

    def _mark(self, masks: list[int], start: datetime, end: datetime) -> None:
        slot = hour_start(local(start, self.zone))
        # The hours [start, end) overlaps (an instant: its own hour).
        stop = local(end - _INSTANT if end > start else end, self.zone)
        for _ in range(25):  # a gap in the record marks at most a day
            _, hour, day = slot_of(slot, self.zone)
            self._set(masks, hour, day)
            slot = next_hour(slot)
            if slot > stop:
                break

    # --- reading -----------------------------------------------------------------------

    def days_at(self, entity_id: str, hour: int, day: int, *, home_only: bool) -> tuple[int, int]:
        """(days it drew power at local ``hour``, days that hour was watched), over the
        days kept before local day ``day`` (``home_only``: days someone was home then)."""
        masks = self.runs.get(entity_id)
        if masks is None:
            return 0, 0
        before = self.before(day)
        watched = self.watched[hour] & before
        if home_only:
            watched &= self.home[hour]
        return (masks[hour] & watched).bit_count(), watched.bit_count()

    def empty_days(self, entity_id: str, hour: int, day: int) -> int:
        """The days (bit k: k days before local day ``self.day``) before local day ``day``
        the meter drew at local ``hour`` while that whole hour was watched with nobody
        home: what it does while the home is empty (``away_meters``)."""
        masks = self.runs.get(entity_id)
        if masks is None:
            return 0
        return masks[hour] & self.watched[hour] & ~self.home[hour] & self.before(day)

    def last_days(self, entity_id: str, hour: int, day: int, count: int) -> bool:
        """Whether the meter drew power at ``hour`` on each of the last ``count`` days
        watched then (before ``day``): a habit still kept, not one of last month."""
        masks = self.runs.get(entity_id)
        if masks is None:
            return False
        watched = self.watched[hour] & self.home[hour] & self.before(day)
        seen = 0
        while watched and seen < count:
            low = watched & -watched
            if not masks[hour] & low:
                return False
            watched ^= low
            seen += 1
        return seen == count

    def ran_on(self, entity_id: str, hour: int, day: int) -> bool | None:
        """Whether the meter drew power at ``hour`` of local day ``day``; None when that
        hour was not watched with someone home (or is no longer kept)."""
        back = self.day - day
        masks = self.runs.get(entity_id)
        if masks is None or not 0 <= back < DAYS_KEPT:
            return None
        if not (self.watched[hour] & self.home[hour]) >> back & 1:
            return None
        return bool(masks[hour] >> back & 1)

    def weekdays_learned(self, hour: int, day: int) -> set[int]:
        """The weekdays (0 Monday) of the days watched with someone home at ``hour``,
        before local day ``day``."""
        watched = self.watched[hour] & self.home[hour] & self.before(day)
        return {(self.day - back - 1) % 7 for back in range(DAYS_KEPT) if watched >> back & 1}

    def home_at(self, hour: int, day: int) -> bool:
        """Whether someone was home (or presence unknown) at ``hour`` of local day ``day``."""
        back = self.day - day
        return 0 <= back < DAYS_KEPT and bool(self.home[hour] >> back & 1)

    def learned(self) -> int:
        """Meters learned (for diagnostics)."""
        return len(self.runs)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: one packed string per meter."""
        return {
            **self._stored_account(),
            "runs": {entity: pack(masks, 0) for entity, masks in self.runs.items()},
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> MeterHours:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        hours = cls(zone)
        if (data := hours._read_account(data)) is None:
            return hours
        for entity, packed in stored_items(data.get("runs"), MAX_METERS):
            if not isinstance(entity, str) or len(entity) > 255:
                continue
            if (masks := unpack(packed, 24, 0, FULL)) is not None:
                hours.runs[entity] = [int(v) for v in masks]
        return hours
