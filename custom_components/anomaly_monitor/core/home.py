"""A read-only view of a window's snapshot, indexed the way rules ask questions."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from .models import ContextWindow, EntityState, Environment, Transition

# States Home Assistant uses when it cannot read a device.
UNAVAILABLE_STATES = frozenset({"unavailable", "unknown"})

# Binary sensor device classes that mean danger when on.
HAZARD_DEVICE_CLASSES = frozenset(
    {"smoke", "gas", "carbon_monoxide", "moisture", "heat", "safety", "problem", "tamper"}
)
# Binary sensor device classes that are openings of the building envelope.
OPENING_DEVICE_CLASSES = frozenset({"door", "garage_door", "window", "opening"})
OCCUPANCY_DEVICE_CLASSES = frozenset({"motion", "occupancy", "presence"})


class HomeView:
    """Answers questions about a window: entities of a kind, in an area, in a state."""

    def __init__(self, window: ContextWindow) -> None:
        self.window = window
        self.env: Environment = window.environment
        self.states: dict[str, EntityState] = window.by_id()
        self._by_domain: dict[str, list[EntityState]] = defaultdict(list)
        self._by_area: dict[str | None, list[EntityState]] = defaultdict(list)
        for state in window.snapshot:
            self._by_domain[state.domain].append(state)
            self._by_area[state.info.area].append(state)

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

    def transitions(self, entity_ids: Iterable[str] | None = None) -> list[Transition]:
        """The window's raw transitions, optionally for some entities only."""
        if entity_ids is None:
            return list(self.window.transitions)
        wanted = set(entity_ids)
        return [t for t in self.window.transitions if t.entity_id in wanted]

    @property
    def nobody_home(self) -> bool:
        """Occupancy is known and nobody is home."""
        return self.env.nobody_home


def is_unavailable(state: EntityState) -> bool:
    """The device cannot be read."""
    return state.state.lower() in UNAVAILABLE_STATES


def is_on(state: EntityState) -> bool:
    """A binary sensor, switch or light that is on."""
    return state.state.lower() == "on"
