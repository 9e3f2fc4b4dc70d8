"""A place that has been cold since it was first seen is not a room falling to freezing.

``room_too_cold`` (a safety hazard, so told even while the home is being learned) tells a
room under 5 °C, or below freezing. Its learned range judges it once the sensor is known
(``usual_extremes``: within its usual spread below its mean). Before that, on the first
days after set-up, an unheated crawl space at 3-6 °C, a detached garage at 3 °C or a
freezer probe that HA puts in a shed at -18 °C was told as a room whose heating failed,
several times a day as its reading crossed the line.

A heating failure is a fall: the room was warm before. A sensor whose warmest reading
since it was first seen stays within ``PLACE_SPAN`` above the line it is under now has
never been a warm room here: it is a cold place, not told while its range is learned;
never a room whose thermostat is on (a room the home heats, though cold at set-up).
Recorder history read at set-up is part of that range, so a room that was warm the week
before is judged by that; a sensor read for less than ``PLACE_SEEN`` is no place yet
(a room that reads freezing minutes after set-up is told). Read means watched: a sensor
that kept one reading from set-up until its first change hours later was read all along.
A cold place that falls on below freezing (a crawl space at 5 °C now at -1 °C) crosses
a line it never was near: told.

A place is where it *stays*, not its warmest moment: a bulk milk tank's probe reads 3.6 °C
all night, 15 °C for the half hour the warm milk goes in and is cooled back within three
hours. Its closed hours (``HourProfiles``: time-weighted, at least ``TYPICAL_HOURS``) sit
mostly below the line it is under now: the median hour is its normal, and that normal is
cold. A room whose heating failed spent most of the hours read warm.
"""

from __future__ import annotations

from datetime import timedelta
from statistics import median

from ..home import HomeView
from ..models import EntityState, Finding
from ..rules.temperature_bands import COLD_ROOM, FREEZING, celsius_of
from ..temperatures import to_celsius
from .home_baselines import HomeBaselines
from .reference import UsualRange, usual_range

# °C above the line crossed that a place kept cold still reaches (a crawl space's swing).
PLACE_SPAN = 5.0
# Days read before its readings make a place (a room read once at set-up is not yet one).
PLACE_SEEN = 3 / 24
# Closed hours that make a sensor's typical level (its median hour).
TYPICAL_HOURS = 3


def cold_place(home: HomeView, baselines: HomeBaselines, finding: Finding, min_days: float) -> bool:
    """Whether ``finding`` (``room_too_cold``, its sensor learned for fewer than
    ``min_days``) is about a place that has never been warm since it was first seen."""
    if (
        finding.rule != "room_too_cold"
        or (state := unlearned_place(home, baselines, finding, min_days)) is None
    ):
        return False
    entity_id = state.entity_id
    celsius = celsius_of(state)
    if celsius is None or heated(home, state.info.area):
        return False
    unit = state.info.unit
    learned = baselines.ranges.usual(entity_id)  # its highest, one not yet settled too
    # What it read: the learned range and the window's readings.
    read = [to_celsius(value, unit) for _, value in home.numbers(entity_id)]
    if learned is not None:
        read.append(to_celsius(learned[4], unit))
    highest = max((c for c in read if c is not None), default=celsius)
    line = FREEZING if celsius < FREEZING else COLD_ROOM
    if max(highest, celsius) < line + PLACE_SPAN:
        return True  # never warm since first seen
    typical = typical_hour(baselines, entity_id)
    typical_celsius = to_celsius(typical, unit) if typical is not None else None
    return typical_celsius is not None and typical_celsius < line  # it stays cold


def unlearned_place(
    home: HomeView, baselines: HomeBaselines, finding: Finding, min_days: float
) -> EntityState | None:
    """The sensor ``finding`` is about, when its range is learned for fewer than
    ``min_days`` (else its range judges) and it was read long enough to be a place."""
    entity_id = finding.subject or (finding.evidence[0] if finding.evidence else None)
    state = home.info(entity_id) if entity_id is not None else None
    if state is None:
        return None
    usual = usual_range(baselines, state.entity_id, home.end)
    if usual is not None and usual.days >= min_days:
        return None  # its range judges
    if days_read(baselines, state.entity_id, home, usual) < PLACE_SEEN:
        return None  # not read long enough to be a place
    return state


def typical_hour(baselines: HomeBaselines, entity_id: str) -> float | None:
    """The median of the sensor's closed hour means (time-weighted: where it stays), once
    ``TYPICAL_HOURS`` are closed; None before, or for a sensor not profiled."""
    hours = baselines.profiles.hours.get(entity_id)
    means = sorted(mean for hour in hours for _, mean in hour) if hours else []
    return median(means) if len(means) >= TYPICAL_HOURS else None


def days_read(
    baselines: HomeBaselines, entity_id: str, home: HomeView, usual: UsualRange | None
) -> float:
    """Days it has been read: its range's, or since it was first watched when that is
    longer (a basement that read the same 41 °F from set-up until its first change at
    06:30 has been a place since midnight, not since its first change)."""
    watched = baselines.usual.since.get(entity_id)
    since_watched = (home.end - watched) / timedelta(days=1) if watched is not None else 0.0
    return max(usual.days if usual is not None else 0.0, since_watched)


def heated(home: HomeView, area: str | None) -> bool:
    """A thermostat of the area is on: a room the home heats, whatever it read so far."""
    return area is not None and any(
        s.domain == "climate" and s.state.lower() not in ("off", "unavailable", "unknown")
        for s in home.in_area(area)
    )
