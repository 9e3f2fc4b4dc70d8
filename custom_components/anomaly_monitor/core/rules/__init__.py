"""Semantic rules over a home's snapshot, written in Home Assistant's vocabulary.

A rule is a function ``rule(home) -> Iterable[Finding]``. Rules never look at entity
names: they reason about domain, device_class, unit, area and occupancy, so they work
in any home.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..home import HomeView
from ..models import Finding
from .device_health import safety_device_unavailable
from .hvac import heating_and_cooling_in_one_area, hvac_with_opening_open
from .physical import reading_outside_physical_range
from .safety import hazard_detected
from .security import home_open_while_away

Rule = Callable[[HomeView], Iterable[Finding]]

ALL_RULES: tuple[Rule, ...] = (
    hazard_detected,
    home_open_while_away,
    heating_and_cooling_in_one_area,
    hvac_with_opening_open,
    reading_outside_physical_range,
    safety_device_unavailable,
)

__all__ = ["ALL_RULES", "Rule"]
