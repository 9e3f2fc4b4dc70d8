"""Which openings a climate entity's heat (or cool) leaves through.

A per-room unit (a split air conditioner, an oil heater in a bedroom: a ``climate``
entity with an area, in a home with other climate entities) heats its own room: a window
three rooms away, behind shut doors, wastes none of it. A central unit (the home's only
climate entity, or one with no area) heats the whole home, so any opening wastes it.
An opening with no area cannot be placed: any unit may be the one it wastes.
"""

from __future__ import annotations

from .home import HomeView


def _climates(home: HomeView) -> set[str]:
    """Every climate entity of the home, in the snapshot or in the window's history
    (``history_of`` is kept per analysis: asked once per window and unit pair)."""
    return {s.entity_id for s in home.of("climate")} | set(home.history_of("climate"))


def heats_through(home: HomeView, climate: str, opening: str) -> bool:
    """Whether ``climate``'s heat or cool is lost through ``opening`` when it stands open."""
    climate_area = home.area(climate)
    opening_area = home.area(opening)
    if climate_area is None or opening_area is None or climate_area == opening_area:
        return True
    return len(_climates(home)) <= 1  # the home's only unit: central, the whole home's
