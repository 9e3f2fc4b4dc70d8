"""What to show Home Assistant for one sample: entities, environment, clock and profile.

A snapshot sample (CI) becomes a :class:`SnapshotScene`: every device entity set at
the sample's time, plus the environment as entities (``weather.home`` with the outdoor
temperature, ``sun.sun``, ``sensor.outdoor_light_level``, and ``person.resident_N``
entities, as many home as ``occupants_at_home``). A trace sample (CD) becomes a
:class:`TraceScene`: the events in time order as entity updates, the household profile
from ``context``, and a window long enough to hold the whole trace.

Only model-visible fields are read (the loader already dropped everything else).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
import math
from types import MappingProxyType
from typing import Any

from .device_vocab import WEATHER_VOCAB
from .entity_mapping import (
    LIGHT_LEVEL_ENTITY,
    PERSON_PREFIX,
    SUN_ENTITY,
    WEATHER_ENTITY,
    EntitySpec,
)
from .home_mapping import HomeMapping
from .smartbench_loader import CDSample, CISample

# Shortest window the monitor's options flow accepts (minutes).
MIN_WINDOW_MINUTES = 5
# Natural light (0–1) above which the sun counts as up.
DAYLIGHT_THRESHOLD = 0.15
# Size of the household a snapshot's occupancy is counted against.
HOUSEHOLD_SIZE = 3
# A snapshot has a weekday and a season but no date: use the first matching day on
# or after the 15th of a month in the middle of that season.
SEASON_MONTH = {"winter": 1, "spring": 4, "summer": 7, "autumn": 10, "fall": 10}
REFERENCE_YEAR = 2025
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@dataclass(frozen=True, slots=True)
class SnapshotScene:
    """All states at one moment."""

    clock: datetime
    devices: tuple[EntitySpec, ...]
    environment: tuple[EntitySpec, ...]
    mapping: HomeMapping
    profile: str = ""

    @property
    def start(self) -> datetime:
        """A snapshot's window starts and ends at its clock."""
        return self.clock

    @property
    def window_minutes(self) -> int:
        """Window length to configure: the shortest the options flow accepts."""
        return MIN_WINDOW_MINUTES


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One event, as the entity update it becomes."""

    when: datetime
    spec: EntitySpec


@dataclass(frozen=True, slots=True)
class TraceScene:
    """A time-ordered trace of entity updates, analysed at the last one."""

    steps: tuple[TraceStep, ...]
    mapping: HomeMapping
    profile: str
    environment: tuple[EntitySpec, ...] = ()

    @property
    def start(self) -> datetime:
        """Time of the first event."""
        return self.steps[0].when

    @property
    def clock(self) -> datetime:
        """Analysis time: the last event."""
        return self.steps[-1].when

    @property
    def window_minutes(self) -> int:
        """A window that holds the whole trace."""
        span = (self.clock - self.start).total_seconds() / 60
        return max(MIN_WINDOW_MINUTES, math.ceil(span) + 1)


Scene = SnapshotScene | TraceScene


def scene_for(sample: CISample | CDSample) -> Scene:
    """The scene for any sample."""
    if isinstance(sample, CISample):
        return snapshot_scene(sample)
    return trace_scene(sample)


def snapshot_scene(sample: CISample) -> SnapshotScene:
    """Entities and environment of a context-independent sample."""
    states = dict(sample.device_states)
    mapping = HomeMapping.build({d: (v,) for d, v in states.items()}, merge_thermostats=True)
    env = sample.environment
    clock = snapshot_clock(env)
    return SnapshotScene(
        clock=clock,
        devices=tuple(mapping.snapshot(states)),
        environment=tuple(environment_entities(env)),
        mapping=mapping,
    )


def trace_scene(sample: CDSample) -> TraceScene:
    """Entity updates of a context-dependent sample, in time order."""
    observed: dict[str, list[str]] = {}
    for event in sample.events:
        observed.setdefault(event.device, []).append(event.status)
    mapping = HomeMapping.build(observed)
    timed = [(parse_timestamp(e.timestamp), index, e) for index, e in enumerate(sample.events)]
    timed.sort(key=lambda item: (item[0], item[1]))  # stable: file order breaks ties
    # A trace repeats a few readings per device: each becomes an entity state once.
    specs: dict[tuple[str, str], EntitySpec] = {}
    for _, _, e in timed:
        if (e.device, e.status) not in specs:
            specs[e.device, e.status] = mapping.spec(e.device, e.status)
    steps = tuple(TraceStep(when, specs[e.device, e.status]) for when, _, e in timed)
    return TraceScene(steps=steps, mapping=mapping, profile=household_profile(sample.context))


def snapshot_clock(env: Mapping[str, Any]) -> datetime:
    """A date with the sample's weekday and season, at the sample's time (UTC)."""
    season = str(env.get("season") or "").strip().lower()
    weekday = str(env.get("day_of_week") or "").strip().lower()
    month = SEASON_MONTH.get(season, 1)
    day = date(REFERENCE_YEAR, month, 15)
    if weekday in WEEKDAYS:
        day += timedelta(days=(WEEKDAYS.index(weekday) - day.weekday()) % 7)
    hour, minute = _parse_hhmm(str(env.get("time") or "12:00"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


def _parse_hhmm(text: str) -> tuple[int, int]:
    try:
        hours, _, minutes = text.strip().partition(":")
        hour, minute = int(hours), int(minutes or 0)
    except ValueError:
        return 12, 0
    if not (0 <= hour < 24 and 0 <= minute < 60):
        return 12, 0
    return hour, minute


def parse_timestamp(text: str) -> datetime:
    """ISO timestamp; naive ones are taken as UTC (the replayed home's time zone)."""
    when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when.astimezone(UTC)


def household_profile(context: Mapping[str, Any]) -> str:
    """``{"occupancy_type": "single_adult_work_from_home"}`` → ``"single adult work from home"``."""
    return str(context.get("occupancy_type") or "").replace("_", " ").strip()


def _number(value: object) -> float | None:
    try:
        number = float(str(value))
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def environment_entities(env: Mapping[str, Any]) -> list[EntitySpec]:
    """Weather, sun, outdoor light and persons for a snapshot's environment."""
    specs: list[EntitySpec] = []
    weather = str(env.get("weather") or "").strip().lower()
    outdoor = _number(env.get("outdoor_temperature"))
    specs.append(
        EntitySpec(
            WEATHER_ENTITY,
            WEATHER_VOCAB.get(weather, weather or "unknown"),
            MappingProxyType(
                {"friendly_name": "Home", "temperature": outdoor, "temperature_unit": "°C"}
            ),
        )
    )
    light = _number(env.get("natural_light_level"))
    if light is not None:
        specs.append(
            EntitySpec(
                SUN_ENTITY,
                "above_horizon" if light >= DAYLIGHT_THRESHOLD else "below_horizon",
                MappingProxyType({"friendly_name": "Sun"}),
            )
        )
        specs.append(
            EntitySpec(
                LIGHT_LEVEL_ENTITY,
                str(round(light * 100)),
                MappingProxyType(
                    {
                        "friendly_name": "Outdoor Light Level",
                        "unit_of_measurement": "%",
                        "state_class": "measurement",
                    }
                ),
            )
        )
    occupants = _number(env.get("occupants_at_home"))
    if occupants is not None:
        home = max(0, int(occupants))
        for index in range(1, max(HOUSEHOLD_SIZE, home) + 1):
            specs.append(
                EntitySpec(
                    f"{PERSON_PREFIX}{index}",
                    "home" if index <= home else "not_home",
                    MappingProxyType({"friendly_name": f"Resident {index}"}),
                )
            )
    return specs
