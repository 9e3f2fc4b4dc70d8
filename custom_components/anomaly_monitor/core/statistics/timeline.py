"""Per-entity timelines: the intervals an entity spent in each state inside the window."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from statistics import median
from typing import NamedTuple

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import Transition


class Interval(NamedTuple):
    """An entity held ``state`` from ``start`` to ``end``.

    A named tuple: every analysis makes thousands (a frozen dataclass's ``__init__`` cost
    ~1.5 % of a replay's CPU).
    """

    entity_id: str
    state: str
    start: datetime
    end: datetime
    ongoing: bool  # still in this state when the window ends

    @property
    def duration(self) -> timedelta:
        """How long the state was held."""
        return self.end - self.start


def intervals(home: HomeView, entity_id: str) -> list[Interval]:
    """The states ``entity_id`` went through, each with how long it lasted (a fresh list;
    made once per analysis: a dozen checks ask a motion sensor's or a door's)."""
    made: dict[str, list[Interval]] = home.shared("intervals", dict)
    found = made.get(entity_id)
    if found is None:
        found = made[entity_id] = _intervals(home, entity_id)
    return list(found)


def _intervals(home: HomeView, entity_id: str) -> list[Interval]:
    changes = home.changes(entity_id)
    end = home.end
    result: list[Interval] = []
    for index, change in enumerate(changes):
        last = index == len(changes) - 1
        until = end if last else changes[index + 1].when
        result.append(
            Interval(
                entity_id=entity_id,
                state=change.state,
                start=change.when,
                end=max(until, change.when),
                ongoing=last,
            )
        )
    return result


def spells_where(
    home: HomeView, entity_id: str, holds: Callable[[str], bool]
) -> list[tuple[datetime, datetime]]:
    """(start, end) of each spell in which the entity's state ``holds``; a spell still
    going at the window's end ends there."""
    spells: list[tuple[datetime, datetime]] = []
    start: datetime | None = None
    for change in home.changes(entity_id):
        held = holds(change.state)
        if held and start is None:
            start = change.when
        elif not held and start is not None:
            spells.append((start, change.when))
            start = None
    if start is not None:
        spells.append((start, home.end))
    return spells


def numeric_series(home: HomeView, entity_id: str) -> list[tuple[datetime, float]]:
    """Every numeric reading of an entity (repeats kept), oldest first."""
    return home.numbers(entity_id)  # parsed once per analysis


def median_absolute_deviation(values: list[float]) -> float:
    """Robust spread of ``values`` (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    centre = median(values)
    return float(median(abs(v - centre) for v in values))


def turned(transitions: list[Transition], state: str) -> list[datetime]:
    """When an entity entered ``state`` (after being in another state, or first seen in it)."""
    times: list[datetime] = []
    previous: str | None = None
    for transition in transitions:
        if transition.state.lower() == state and previous != state:
            times.append(transition.when)
        previous = transition.state.lower()
    return times


def real_changes(home: HomeView, entity_id: str) -> list[Transition]:
    """An entity's changes, without a first one that only records its state at window start."""
    changes = home.changes(entity_id)
    start = home.window.start
    if changes and start is not None and changes[0].when <= start:
        return changes[1:]
    return changes


def area_motion_reporting(
    home: HomeView,
    entity_id: str,
    state: str,
    moment: datetime,
    reach: timedelta,
    *,
    changes_only: bool = False,
) -> list[str]:
    """The motion/occupancy sensors of ``entity_id``'s area that reported ``state`` within
    ``reach`` of ``moment`` (every report, or with ``changes_only`` real changes only): the
    witnesses a finding about that device cites. None without an area."""
    area = home.area(entity_id)
    if area is None:
        return []
    return [
        other
        for other in home.history
        if home.area(other) == area
        and home.domain(other) == "binary_sensor"
        and home.device_class(other) in OCCUPANCY_DEVICE_CLASSES
        and any(
            change.state.lower() == state and abs(change.when - moment) <= reach
            for change in (home.changes(other) if changes_only else home.history.get(other, []))
        )
    ]
