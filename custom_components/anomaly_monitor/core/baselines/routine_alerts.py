"""Generic alerts this home lives with: a ``safety``/``problem``/``tamper`` sensor that goes
on and clears by itself, day after day, with nothing of the home following.

HA's generic alert classes cover more than a home's hazards: an air-raid alert of a
regional service (Ukraine Alarm: on a few times a day in wartime, class ``safety``), a
NAS's or a boiler's status that flags and clears. Read as a hazard, each *on* was pushed
high (22 false alarms in one Kyiv home over a fortnight). A septic pump's or a heat
pump's ``problem`` sensor goes on at its failure only: its first time on is told as
before, and it stays told until this home has shown the sensor's routine.

Learned per sensor of ``ROUTINE_CLASSES`` (never smoke, gas, CO, heat or moisture: those
are hazards however often they sound): each *on* that later went *off* is kept as the
day it went on (the newest ``KEPT``). An *on* followed within ``FOLLOWED`` by a real
hazard of the home (a smoke, gas, CO, heat or leak detector going on) is not kept: it was
the start of trouble, not routine. ``routine`` says whether the sensor went on and
cleared ``MIN_TIMES`` times on ``MIN_DAYS`` earlier days at least, and how often a day.

Bounded (``MAX_ENTITIES``, ``KEPT`` each); stored as plain numbers, a malformed part is
dropped. Read by ``routine_alert_judge``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Any

from ..home import GENERIC_ALERT_CLASSES as ROUTINE_CLASSES
from .clock import day_number, format_time, parse_time

# The home's own hazards: never routine, and what makes an alert before them trouble.
HOME_HAZARDS = frozenset({"smoke", "gas", "carbon_monoxide", "heat", "moisture"})
MIN_DAYS = 2
MIN_TIMES = 3
# A hazard of the home this soon after an alert went on: the alert was its start.
FOLLOWED = timedelta(hours=1)
MAX_ENTITIES = 50
KEPT = 60


@dataclass
class _Alert:
    """One sensor: when it went on (if on now), and the days of its cleared spells."""

    on_since: datetime | None = None
    followed: bool = False  # a hazard of the home came after the spell under way began
    cleared: list[int] = field(default_factory=list)  # day numbers of spells that cleared
    starts: list[datetime] = field(default_factory=list)  # recent starts (for ``FOLLOWED``)


class RoutineAlerts:
    """Each generic alert's cleared spells by day (see the module)."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self._alerts: dict[str, _Alert] = {}

    def state(self, entity_id: str, device_class: str | None, state: str, when: datetime) -> None:
        """A binary sensor of ``device_class`` reported ``state`` at ``when``."""
        if device_class in HOME_HAZARDS and state == "on":
            self._hazard(when)
            return
        if device_class not in ROUTINE_CLASSES or state not in ("on", "off"):
            return
        alert = self._alerts.get(entity_id)
        if alert is None:
            if state != "on" or len(self._alerts) >= MAX_ENTITIES:
                return
            alert = self._alerts[entity_id] = _Alert()
        if state == "on":
            if alert.on_since is None:
                alert.on_since, alert.followed = when, False
            return
        if alert.on_since is not None and not alert.followed:
            alert.cleared = [*alert.cleared, day_number(alert.on_since, self.zone)][-KEPT:]
            alert.starts = [*alert.starts, alert.on_since][-3:]
        alert.on_since = None

    def _hazard(self, when: datetime) -> None:
        """A hazard of the home went on: alerts that began just before were its start."""
        for alert in self._alerts.values():
            if alert.on_since is not None and when - alert.on_since <= FOLLOWED:
                alert.followed = True
            recent = [s for s in alert.starts if timedelta(0) <= when - s <= FOLLOWED]
            for start in recent:
                day = day_number(start, self.zone)
                if day in alert.cleared:
                    alert.cleared.remove(day)
            alert.starts = [s for s in alert.starts if s not in recent]

    def routine(self, entity_id: str, when: datetime) -> float | None:
        """How many times a day the sensor goes on here, judged on the days before
        ``when``'s: None unless ``MIN_TIMES`` cleared spells on ``MIN_DAYS`` days."""
        alert = self._alerts.get(entity_id)
        if alert is None:
            return None
        today = day_number(when, self.zone)
        earlier = [day for day in alert.cleared if day < today]
        days = set(earlier)
        if len(earlier) < MIN_TIMES or len(days) < MIN_DAYS:
            return None
        return len(earlier) / max(1, today - min(days))

    def as_dict(self) -> dict[str, Any]:
        """Plain, storable form."""
        return {
            entity_id: {
                "on_since": format_time(a.on_since) if a.on_since else None,
                "followed": a.followed,
                "cleared": list(a.cleared),
            }
            for entity_id, a in self._alerts.items()
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> RoutineAlerts:
        """Read back a stored form; a malformed sensor is dropped."""
        alerts = cls(zone)
        if not isinstance(data, Mapping):
            return alerts
        for entity_id, stored in list(data.items())[:MAX_ENTITIES]:
            if not isinstance(entity_id, str) or not isinstance(stored, Mapping):
                continue
            cleared = stored.get("cleared")
            days = [d for d in cleared if type(d) is int] if isinstance(cleared, list) else []
            alerts._alerts[entity_id] = _Alert(
                on_since=parse_time(stored.get("on_since")),
                followed=stored.get("followed") is True,
                cleared=days[-KEPT:],
            )
        return alerts
