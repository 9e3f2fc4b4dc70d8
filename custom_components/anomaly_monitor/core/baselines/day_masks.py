"""One bit per day of the last ``DAYS_KEPT`` per slot of the local day, and the slots lived.

``MeterHours`` (per meter, the hours it drew power) and ``DailyRoutines`` (per panel or
lock, the quarters in its routine state) keep the same account: per entity and slot of the
day, bit k is set when it happened then k days ago (bit 0 is local day ordinal ``day``);
per home, the same bits for the slots the baselines *watched* (time seen to pass: HA
running) and those someone was *home* (or presence unknown), so a day with HA down or
everybody away is no day a thing "did not happen". A thing under way (a run, a stay) marks
its slots when it ends or when time is accounted (``advance``). Each subclass says what a
slot is (``_mark``), which entities it keeps (``_masks``) and what is under way
(``_under_way``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, tzinfo
from typing import Any

from .packed import pack, unpack

DAYS_KEPT = 28  # four weeks follow a changing routine and the season
FULL = (1 << DAYS_KEPT) - 1
_MAX_DAY = 3_652_059


class DayMasks:
    """The shared account; O(1) per event."""

    def __init__(self, zone: tzinfo | None, slots: int) -> None:
        self.zone = zone
        self.day = 0  # bit 0 of every mask is this local day ordinal; bit k is k days before
        self.watched = [0] * slots  # slots the baselines saw pass
        self.home = [0] * slots  # slots someone was home (or presence unknown)
        self.watched_until: datetime | None = None
        self.empty = False  # everybody is known to be away

    def _masks(self) -> dict[str, list[int]]:
        raise NotImplementedError

    def _under_way(self) -> dict[str, datetime]:
        raise NotImplementedError

    def _mark(self, masks: list[int], start: datetime, end: datetime) -> None:
        raise NotImplementedError

    def _entity(self, entity_id: str) -> list[int]:
        return self._masks().setdefault(entity_id, [0] * len(self.watched))

    def _set(self, masks: list[int], slot: int, day: int) -> None:
        """Mark ``slot`` of local day ``day`` (days past the kept ones are not kept)."""
        if day > self.day:
            self._shift(day)
        back = self.day - day
        if 0 <= back < DAYS_KEPT:
            masks[slot] |= 1 << back

    def presence(self, empty: bool, when: datetime) -> None:
        """Everybody left (``empty``) or someone is home again, at ``when``."""
        self.advance(when)
        self.empty = empty

    def advance(self, now: datetime) -> None:
        """Account the slots watched (and what is under way) up to ``now``."""
        last = self.watched_until
        if last is not None and now > last:
            self._mark(self.watched, last, now)
            if not self.empty:
                self._mark(self.home, last, now)
        if last is None or now > last:
            self.watched_until = now
        under_way = self._under_way()
        for entity_id, since in list(under_way.items()):
            if now > since:
                self._mark(self._entity(entity_id), since, now)
                under_way[entity_id] = now

    def before(self, day: int) -> int:
        """The bits of the days kept that come before local day ``day``."""
        back = self.day - day + 1  # bit of the day before ``day``
        if back >= DAYS_KEPT:
            return 0
        return FULL & ~((1 << max(back, 0)) - 1)

    def _shift(self, day: int) -> None:
        by = min(day - self.day, DAYS_KEPT) if self.day else DAYS_KEPT
        self.day = day
        for masks in (self.watched, self.home, *self._masks().values()):
            for slot in range(len(masks)):
                masks[slot] = (masks[slot] << by) & FULL

    # --- storage -----------------------------------------------------------------------

    def _stored_account(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "watched": pack(self.watched, 0),
            "home": pack(self.home, 0),
            "empty": self.empty,
        }

    def _read_account(self, data: object) -> Mapping[str, Any] | None:
        """The stored account read back into this one; ``data`` when it was whole, else
        None (and nothing read)."""
        if not isinstance(data, Mapping):
            return None
        day = data.get("day")
        if not isinstance(day, int) or isinstance(day, bool) or not 0 <= day <= _MAX_DAY:
            return None
        slots = len(self.watched)
        watched = unpack(data.get("watched"), slots, 0, FULL)
        home = unpack(data.get("home"), slots, 0, FULL)
        if watched is None or home is None:
            return None
        self.day = day
        self.watched = [int(v) for v in watched]
        self.home = [int(v) for v in home]
        self.empty = data.get("empty") is True
        return data
