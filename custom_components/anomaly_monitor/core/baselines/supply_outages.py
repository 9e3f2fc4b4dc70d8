"""How often, and for how long, each supply voltage usually goes to nothing.

A Lagos house's grid comes and goes every day (the generator and the inverter take over),
a Cape Town house sheds load on most weekdays, a cabin's shore power is off while the boat
is out: a supply voltage sensor that reads nothing for hours at a time, on most days, and
comes back, is how that home is fed. Learned per ``voltage`` sensor from its own readings
(recorder history at set-up, the live stream after): each spell at nothing (a reading at
most ``VOLTS_GONE`` of the last reading with a supply behind it, as ``supply_lost`` reads
it) ends with the supply back, and is kept as its day and its length in minutes (the
newest ``KEPT``). The spell under way is remembered (``down_since``), so an outage longer
than the analysis window is measured from its start; an unreadable reading ends it
unlearned (nothing is known of the supply then).

An outage far past the usual teaches slowly: kept as at most ``OUTLIER_FACTOR`` times the
longest kept before (a week without grid after a storm must not make a week normal).

Bounded (``MAX_ENTITIES``, ``KEPT`` each); stored as plain numbers, a malformed part is
dropped. Read by ``usual_outages`` (whether an outage is this home's normal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
import math
from typing import Any

from .clock import day_number, format_time, local, parse_time

MAX_ENTITIES = 20
KEPT = 120
# A reading at most this share of the last supplied one has nothing behind it.
VOLTS_GONE = 0.2
OUTLIER_FACTOR = 1.5


@dataclass
class _Supply:
    """One sensor: when it was first read, its last supplied reading, its outages."""

    first: datetime
    supplied: float | None = None
    down_since: datetime | None = None
    went: datetime | None = None  # when the last spell at nothing began (not stored)
    outages: list[tuple[int, float]] = field(default_factory=list)  # (day, minutes)
    # (minute of the day it began, minutes) of the newest ``KEPT``: when in the day it goes
    spans: list[tuple[int, float]] = field(default_factory=list)


class SupplyOutages:
    """Each supply voltage's spells at nothing (see the module)."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self._supplies: dict[str, _Supply] = {}

    def reading(self, entity_id: str, volts: float | None, when: datetime) -> None:
        """``entity_id`` read ``volts`` at ``when`` (None: unreadable)."""
        supply = self._supplies.get(entity_id)
        if supply is None:
            if volts is None or len(self._supplies) >= MAX_ENTITIES:
                return
            supply = self._supplies[entity_id] = _Supply(first=when)
        if volts is None:
            supply.down_since = None  # nothing known of the supply: no outage learned
            return
        if supply.supplied is not None and volts <= VOLTS_GONE * supply.supplied:
            if supply.down_since is None:
                supply.down_since = supply.went = when
            return
        if supply.down_since is not None:
            minutes = (when - supply.down_since).total_seconds() / 60
            if supply.outages:
                minutes = min(minutes, OUTLIER_FACTOR * self.longest(entity_id))
            supply.outages = [*supply.outages, (day_number(supply.down_since, self.zone), minutes)]
            supply.outages = supply.outages[-KEPT:]
            began = local(supply.down_since, self.zone)
            supply.spans = [*supply.spans, (began.hour * 60 + began.minute, minutes)][-KEPT:]
            supply.down_since = None
        if volts > 0:
            supply.supplied = volts

    def down_since(self, entity_id: str) -> datetime | None:
        """When the outage under way began (None: supplied, or not known)."""
        supply = self._supplies.get(entity_id)
        return supply.down_since if supply is not None else None

    def lost_near(self, when: datetime, link: timedelta) -> bool:
        """Whether a supply's last spell at nothing began within ``link`` of ``when`` (a
        drop is learned once it proves more than a blip, maybe after the supply is back)."""
        return any(
            (went := s.went or s.down_since) is not None and abs(when - went) <= link
            for s in self._supplies.values()
        )

    def down_now(self, since: datetime, link: timedelta) -> bool:
        """Whether a supply that went to nothing within ``link`` of ``since`` is still out."""
        return any(
            s.down_since is not None and abs(s.down_since - since) <= link
            for s in self._supplies.values()
        )

    def first_read(self, entity_id: str) -> datetime | None:
        """When the sensor was first read."""
        supply = self._supplies.get(entity_id)
        return supply.first if supply is not None else None

    def outage_days(self, entity_id: str) -> int:
        """On how many days an outage began that the supply came back from."""
        supply = self._supplies.get(entity_id)
        return len({day for day, _ in supply.outages}) if supply is not None else 0

    def minutes_off(self, entity_id: str) -> float:
        """The outages kept, added up (minutes)."""
        supply = self._supplies.get(entity_id)
        return sum(m for _, m in supply.outages) if supply is not None else 0.0

    def longest(self, entity_id: str) -> float:
        """The longest outage kept (minutes; 0 when none)."""
        supply = self._supplies.get(entity_id)
        return max((m for _, m in supply.outages), default=0.0) if supply is not None else 0.0

    def spans(self, entity_id: str) -> list[tuple[int, float]]:
        """(minute of the day it began, minutes) of each outage kept with its hour."""
        supply = self._supplies.get(entity_id)
        return list(supply.spans) if supply is not None else []

    def as_dict(self) -> dict[str, Any]:
        """Plain, storable form."""
        return {entity_id: _stored(s) for entity_id, s in self._supplies.items()}

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> SupplyOutages:
        """Read back a stored form; a malformed sensor is dropped."""
        outages = cls(zone)
        if not isinstance(data, Mapping):
            return outages
        for entity_id, stored in list(data.items())[:MAX_ENTITIES]:
            supply = _read(stored)
            if isinstance(entity_id, str) and supply is not None:
                outages._supplies[entity_id] = supply
        return outages


def _stored(supply: _Supply) -> dict[str, Any]:
    stored: dict[str, Any] = {
        "first": format_time(supply.first),
        "supplied": supply.supplied,
        "down_since": format_time(supply.down_since) if supply.down_since else None,
        "outages": [[day, round(minutes, 1)] for day, minutes in supply.outages],
    }
    if supply.spans:  # (a form stored before them saves the same)
        stored["spans"] = [[start, round(minutes, 1)] for start, minutes in supply.spans]
    return stored


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _read(stored: object) -> _Supply | None:
    if not isinstance(stored, Mapping) or (first := parse_time(stored.get("first"))) is None:
        return None
    supply = _Supply(first=first, supplied=_number(stored.get("supplied")))
    supply.down_since = parse_time(stored.get("down_since"))
    kept = stored.get("outages")
    for item in kept[-KEPT:] if isinstance(kept, list) else []:
        if isinstance(item, list) and len(item) == 2 and isinstance(item[0], int):
            minutes = _number(item[1])
            if minutes is not None and minutes >= 0:
                supply.outages.append((item[0], minutes))
    spans = stored.get("spans")
    for item in spans[-KEPT:] if isinstance(spans, list) else []:
        if isinstance(item, list) and len(item) == 2 and isinstance(item[0], int):
            minutes = _number(item[1])
            if 0 <= item[0] < 1440 and minutes is not None and minutes >= 0:
                supply.spans.append((item[0], minutes))
    return supply
