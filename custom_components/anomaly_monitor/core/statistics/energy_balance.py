"""Energy balance of a room: heating that runs while the room it serves gets colder.

A unit that is heating puts heat into its room; the room may still cool a little (a
door opened, a cold night), but a closed room does not lose several degrees within a
few hours while its heater runs. When it does, the heat is not arriving (a failed
element, a heat pump blowing cold, a valve stuck shut) or is leaving as fast as it comes
(a window wide open that no sensor reports). A run while a door or window contact of the
area reads open is not judged: the opening explains the loss, and
``hvac_with_opening_open`` tells it. Stated in HA's vocabulary: a ``climate`` entity
whose ``hvac_action`` says heating, the ``temperature`` sensors and the door/window
contacts of its area.

Cooling is not judged the same way: an air conditioner is routinely outrun by the sun on
a hot afternoon (a room at 25 °C climbing to 29 °C with the unit cooling is an ordinary
summer day for an undersized unit), while a heated room has no such excuse.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import OPENING_DEVICE_CLASSES, HomeView
from ..hvac_state import action_from_state as hvac_action
from ..models import AnomalyType, Finding, Severity
from ..rules.temperature_bands import Band, band_of
from ..temperatures import span_in_unit, to_celsius
from .timeline import intervals, numeric_series, spells_where

# How far the room may fall while heated, and within how long of the unit starting. A
# heated room that loses 4 °C in three hours is losing heat faster than any closed room
# cools with the heating off (a typical room drifts 0.5-1 °C an hour on a
# cold night); a thermometer's noise and a door opened for a minute stay well inside it.
MAX_FALL = 4.0
WITHIN = timedelta(hours=3)
# The room's level before the run: its last plausible reading, no older than an hour (a
# reading from the morning says nothing about the evening).
REFERENCE_AGE = timedelta(hours=1)
# A power meter of the room that reported around the start shows the unit drawing power.
POWER_REACH = timedelta(minutes=1)


def _heating_runs(home: HomeView, climate: str) -> list[tuple[datetime, datetime]]:
    """(start, end) of each heating run of a climate entity."""
    return spells_where(home, climate, lambda state: hvac_action(state) == "heating")


def _cooled(
    series: list[tuple[datetime, float]],
    times: list[datetime],
    start: datetime,
    end: datetime,
    limit: float,
) -> float:
    """How far the room fell during the heating run's first hours (its unit, negative),
    0 when it fell less than ``limit`` or cannot be told. ``times`` are the series' times
    (bisected: a 90-day trace has hundreds of runs)."""
    first_during = bisect_right(times, start)
    if first_during == 0 or start - times[first_during - 1] > REFERENCE_AGE:
        return 0.0
    reference = series[first_during - 1][1]
    last_during = bisect_right(times, min(end, start + WITHIN))
    if last_during <= first_during:
        return 0.0
    change = min(value for _, value in series[first_during:last_during]) - reference
    return change if change <= -limit else 0.0


def _unit(home: HomeView, entity_id: str) -> str | None:
    state = home.info(entity_id)
    return state.info.unit if state else None


def _plausible(home: HomeView, thermometer: str) -> list[tuple[datetime, float]]:
    """The thermometer's readings within what air reaches without a fire (a 150 °C reading
    is a fire or a failed sensor, told by ``room_heat_fire_risk``, not the room's level)."""
    unit = _unit(home, thermometer)
    return [
        (w, v)
        for w, v in numeric_series(home, thermometer)
        if (c := to_celsius(v, unit)) is not None and band_of(c, in_area=False) is Band.LIVABLE
    ]


def _openings(home: HomeView, area: str) -> list[str]:
    """The area's doors and windows (contact sensors)."""
    return [
        e
        for e in home.history
        if home.domain(e) == "binary_sensor"
        and home.device_class(e) in OPENING_DEVICE_CLASSES
        and home.area(e) == area
    ]


def _open_during(home: HomeView, opening: str, start: datetime, end: datetime) -> bool:
    """Whether ``opening`` was open at some moment of ``start..end``."""
    return any(
        spell.state.lower() == "on" and spell.start < end and spell.end > start
        for spell in intervals(home, opening)
    )


HEATING_LOSING_THE_ROOM = FindingKind(
    "heating_losing_the_room", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def heating_losing_the_room(home: HomeView) -> Iterator[Finding]:
    """A unit heated while its room got markedly colder.

    Magnitude: the room's fall during the run, in the thermometer's unit (negative), the
    worst of the window.
    """
    for climate in home.history_of("climate"):
        area = home.area(climate)
        if area is None:
            continue
        thermometers = [
            e
            for e in home.history
            if home.domain(e) == "sensor"
            and home.device_class(e) == "temperature"
            and home.area(e) == area
        ]
        if not thermometers:
            continue
        series = {e: _plausible(home, e) for e in thermometers}
        times = {e: [when for when, _ in readings] for e, readings in series.items()}
        limits = {e: span_in_unit(MAX_FALL, _unit(home, e)) for e in series}
        worst: tuple[float, datetime, datetime, list[str]] | None = None
        openings = _openings(home, area)
        for start, end in _heating_runs(home, climate):
            if any(_open_during(home, o, start, min(end, start + WITHIN)) for o in openings):
                continue  # an open window explains it, and hvac_with_opening_open tells it
            moved = {e: _cooled(series[e], times[e], start, end, limits[e]) for e in thermometers}
            moved = {e: change for e, change in moved.items() if change}
            if not moved:
                continue
            change = max(moved.values(), key=abs)
            if worst is None or abs(change) > abs(worst[0]):
                worst = (change, start, end, sorted(moved))
        if worst is None:
            continue
        change, start, end, sensors = worst
        meters = [
            e
            for e in home.history
            if home.domain(e) == "sensor"
            and home.device_class(e) == "power"
            and home.area(e) == area
            and any(start - POWER_REACH <= t.when <= end for t in home.changes(e))
        ]
        yield HEATING_LOSING_THE_ROOM.finding(
            evidence=(climate, *sensors, *meters),
            reasoning=f"{climate} was heating from {start:%Y-%m-%d %H:%M}, yet the room's "
            f"temperature fell by {abs(change):.1f} {_unit(home, sensors[0]) or '°C'} within "
            f"{int(WITHIN.total_seconds() // 3600)} h: the unit is not delivering, or "
            f"the room is open to the outside.",
            recommendation="Check the room's windows and doors, then the unit's output.",
            magnitude=change,
        )
