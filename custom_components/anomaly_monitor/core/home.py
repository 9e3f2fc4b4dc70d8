"""A read-only view of a window, indexed the way rules and statistics ask questions.

Everything here speaks Home Assistant's vocabulary: domain, device_class, unit, area,
and the standard states (``on``/``off``, ``locked``, ``armed_away``, ``home``...).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from operator import attrgetter
from typing import Any, TypeVar

from .models import (
    ContextWindow,
    EntityState,
    Environment,
    Transition,
    entity_domain,
    parse_number,
)
from .occupancy import Occupancy, occupancy_of
from .state_blips import without_blips

_T = TypeVar("_T")

# States Home Assistant uses when it cannot read a device.
UNAVAILABLE_STATES = frozenset({"unavailable", "unknown"})

# Binary sensor device classes that mean danger when on.
# Generic alert classes: what goes on may be a service's or a device's status (an air-raid
# alert, a NAS), not danger in the home (``baselines/routine_alerts.py``).
GENERIC_ALERT_CLASSES = frozenset({"safety", "problem", "tamper"})
HAZARD_DEVICE_CLASSES = frozenset(
    {"smoke", "gas", "carbon_monoxide", "moisture", "heat", "safety", "problem", "tamper"}
)
# Binary sensor device classes that are openings of the building envelope.
OPENING_DEVICE_CLASSES = frozenset({"door", "garage_door", "window", "opening"})
# Openings through which a person enters the home.
ENTRY_DEVICE_CLASSES = frozenset({"door", "garage_door"})
OCCUPANCY_DEVICE_CLASSES = frozenset({"motion", "occupancy", "presence"})
# A sensor that reads what a device draws (W or A), i.e. an appliance meter.
METER_DEVICE_CLASSES = frozenset({"power", "current"})
# Binary sensors whose "on" says a device is working (so "off" is the fault).
CONNECTIVITY_DEVICE_CLASSES = frozenset({"connectivity", "plug", "power", "running"})
# Cover device classes that are part of the building envelope.
ENVELOPE_COVER_CLASSES = frozenset({"door", "garage", "gate", "window"})
# Domains whose entities are physical devices (not helpers, automations or weather).
DEVICE_DOMAINS = frozenset(
    {
        "alarm_control_panel",
        "binary_sensor",
        "camera",
        "climate",
        "cover",
        "fan",
        "humidifier",
        "lawn_mower",
        "light",
        "lock",
        "media_player",
        "sensor",
        "siren",
        "switch",
        "vacuum",
        "valve",
        "water_heater",
    }
)
# Domains a person switches on to use (lights, appliances, media).
APPLIANCE_DOMAINS = frozenset(
    {"light", "switch", "fan", "media_player", "humidifier", "vacuum", "water_heater"}
)
# States that mean "this actuator is doing something".
ACTIVE_STATES = frozenset(
    {"on", "open", "opening", "playing", "heating", "cooling", "cleaning", "unlocked", "running"}
)
# Alarm panel states that protect an empty home.
ARMED_STATES = frozenset(
    {"armed_away", "armed_home", "armed_night", "armed_vacation", "armed_custom_bypass", "armed"}
)


_WHEN = attrgetter("when")


class HomeView:
    """Answers questions about a window: which entities of a kind, where, in which state."""

    def __init__(self, window: ContextWindow) -> None:
        self.window = window
        self.env: Environment = window.environment
        self.states: dict[str, EntityState] = window.by_id()
        self._by_domain: dict[str, list[EntityState]] = defaultdict(list)
        self._by_area: dict[str | None, list[EntityState]] = defaultdict(list)
        for state in window.snapshot:
            self._by_domain[state.domain].append(state)
            self._by_area[state.info.area].append(state)
        # Per-entity answers computed once per analysis: dozens of statistics ask the
        # same entity's changes and readings (a busy window has ~12,000 transitions).
        self._changes: dict[str, list[Transition]] = {}
        self._numbers: dict[str, list[tuple[datetime, float]]] = {}
        self._shared: dict[str, Any] = {}
        self._history_of: dict[tuple[str, ...], list[str]] = {}

    # --- snapshot -------------------------------------------------------------------------

    def of(self, domain: str, *device_classes: str) -> list[EntityState]:
        """Entities of ``domain``, optionally only those with one of ``device_classes``."""
        states = self._by_domain.get(domain, [])
        if not device_classes:
            return list(states)
        return [s for s in states if s.info.device_class in device_classes]

    def in_area(self, area: str | None) -> list[EntityState]:
        """Entities in ``area``."""
        return list(self._by_area.get(area, []))

    @property
    def areas(self) -> list[str]:
        """Every named area that has a watched entity."""
        return [area for area in self._by_area if area is not None]

    def sensors(self, device_class: str, area: str | None = None) -> list[EntityState]:
        """Numeric sensors of ``device_class`` (optionally in ``area``) that have a value."""
        return [
            s
            for s in self.of("sensor", device_class)
            if s.number is not None and (area is None or s.info.area == area)
        ]

    # --- occupancy ------------------------------------------------------------------------

    @cached_property
    def occupancy(self) -> Occupancy:
        """Who is home: the persons' count when HA has one, else the watched trackers.

        Persons or trackers in ``unknown``/``unavailable`` are never taken as away.
        """
        env = self.env
        if env.persons_home is not None:
            if env.persons_home > 0:
                return Occupancy.OCCUPIED
            return Occupancy.UNKNOWN if env.persons_unknown else Occupancy.EMPTY
        return occupancy_of(s.state for s in self.presence_entities)

    @property
    def nobody_home(self) -> bool:
        """Positive evidence that nobody is home: every person known and away."""
        return self.occupancy is Occupancy.EMPTY

    @cached_property
    def presence_entities(self) -> list[EntityState]:
        """Persons and device trackers: who is home."""
        return self.of("person") + self.of("device_tracker")

    # --- sequence -------------------------------------------------------------------------

    @cached_property
    def recorded(self) -> dict[str, list[Transition]]:
        """Transitions per entity as recorded, oldest first, repeats and blips kept: where
        device health sees every drop, however short."""
        return _per_entity(self.window.transitions)[0]

    @cached_property
    def history(self) -> dict[str, list[Transition]]:
        """Transitions per entity, oldest first, consecutive repeats kept, without blips
        (``state_blips``: ``unknown`` for a second at a restart is no change, so every
        spell, duration, cycle and stay read from here goes on across it)."""
        return _per_entity(self.window.transitions)[1]

    def history_of(self, domain: str, *device_classes: str) -> list[str]:
        """Entities of ``domain`` with transitions in the window, in ``history``'s order;
        optionally only those with one of ``device_classes``."""
        key = (domain, *device_classes)
        found = self._history_of.get(key)
        if found is None:  # a dozen checks ask the same kinds each analysis
            found = self._history_of[key] = [
                entity_id
                for entity_id in self.history
                if self.domain(entity_id) == domain
                and (not device_classes or self.device_class(entity_id) in device_classes)
            ]
        return list(found)  # a fresh list: callers may edit theirs

    def changes(self, entity_id: str) -> list[Transition]:
        """Transitions of one entity where the state actually changed (a fresh list)."""
        result = self._changes.get(entity_id)
        if result is None:
            result = []
            for transition in self.history.get(entity_id, []):
                if not result or result[-1].state != transition.state:
                    result.append(transition)
            self._changes[entity_id] = result
        return list(result)  # a copy: callers may edit theirs

    def numbers(self, entity_id: str) -> list[tuple[datetime, float]]:
        """Every numeric reading of an entity (repeats kept), oldest first (a fresh list)."""
        series = self._numbers.get(entity_id)
        if series is None:
            series = []
            for transition in self.history.get(entity_id, []):
                value = parse_number(transition.state)
                if value is not None:
                    series.append((transition.when, value))
            self._numbers[entity_id] = series
        return list(series)  # a copy: callers may edit theirs

    def shared(self, key: str, compute: Callable[[], _T]) -> _T:
        """``compute()`` once per analysis, for checks that derive the same thing.

        The result is shared as is: the checks asking for it must only read it.
        """
        if key not in self._shared:
            self._shared[key] = compute()
        return self._shared[key]  # type: ignore[no-any-return]

    @property
    def end(self) -> datetime:
        """When the window ends (analysis time)."""
        if self.window.end is not None:
            return self.window.end
        if self.window.transitions:
            return max(t.when for t in self.window.transitions)
        return self.env.local_time

    def info(self, entity_id: str) -> EntityState | None:
        """The snapshot entry of ``entity_id``, when it is watched."""
        return self.states.get(entity_id)

    def device_class(self, entity_id: str) -> str | None:
        """device_class of an entity, ``None`` when unknown."""
        state = self.states.get(entity_id)
        return state.info.device_class if state else None

    def domain(self, entity_id: str) -> str:
        """Domain of an entity id."""
        return entity_domain(entity_id)

    def area(self, entity_id: str) -> str | None:
        """Area of an entity: from the snapshot, else from its transitions."""
        state = self.states.get(entity_id)
        if state is not None and state.info.area:
            return state.info.area
        for transition in self.history.get(entity_id, []):
            if transition.area:
                return transition.area
        return None


# The last window's transitions per entity (as recorded, and without blips): every view of
# that window (the analysis's, the offline timer's after it) reads them, only reading.
type _PerEntity = tuple[dict[str, list[Transition]], dict[str, list[Transition]]]
_last_split: tuple[tuple[Transition, ...], _PerEntity] | None = None


def _per_entity(transitions: tuple[Transition, ...]) -> _PerEntity:
    global _last_split  # noqa: PLW0603  (one slot, replaced whole: safe across threads)
    if not transitions:  # a safety check's window: nothing to split, the slot stays
        return {}, {}
    last = _last_split
    if last is not None and last[0] is transitions:
        return last[1]
    recorded: dict[str, list[Transition]] = defaultdict(list)
    for transition in sorted(transitions, key=_WHEN):
        recorded[transition.entity_id].append(transition)
    split = (dict(recorded), {entity: without_blips(kept) for entity, kept in recorded.items()})
    _last_split = (transitions, split)
    return split


def is_unavailable(state: EntityState) -> bool:
    """The device cannot be read."""
    return state.state.lower() in UNAVAILABLE_STATES


def is_on(state: EntityState) -> bool:
    """A binary sensor, switch or light that is on."""
    return state.state.lower() == "on"


def is_opening(state: EntityState) -> bool:
    """A door, window or other opening sensor (binary_sensor) of the building."""
    return state.domain == "binary_sensor" and state.info.device_class in OPENING_DEVICE_CLASSES


def is_motion(state: EntityState) -> bool:
    """A motion, occupancy or presence binary sensor."""
    return state.domain == "binary_sensor" and state.info.device_class in OCCUPANCY_DEVICE_CLASSES


def is_armed(state: EntityState) -> bool:
    """An alarm panel in one of the armed states."""
    return state.state.lower() in ARMED_STATES
