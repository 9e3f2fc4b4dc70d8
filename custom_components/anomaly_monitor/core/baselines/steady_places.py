"""A place kept steady (a cold store, a fish tank, a cellar) reading outside its own band.

``reading_off_its_hours`` judges a room sensor hour by hour with a margin of 2 °C at least
and four hours in a row: right for a living room, whose readings swing with the heating,
the sun and the season. A thermometer whose every reading over the days learned stayed
within a narrow band (``STEADY_SPAN``: a walk-in cooler at 3.6-5.1 °C with its door
opened, an aquarium at 25 °C) is kept there by a machine; when it has read beyond that
band by ``MARGIN`` or more, every reading for ``HOLD``, the machine has stopped keeping
it: a cooler's compressor failed (3.6 → 8 °C in four hours), a tank heater burnt out.
Its own learned band is the reference (``usual_range``: lowest and highest over
``MIN_DAYS`` days or more); no role word is read. A band no room holds (wholly under
``ROOM_LOW`` or over ``ROOM_HIGH``: a fridge at 2-8 °C, a freezer, a hot cupboard) is a
machine's from its first days, not a room's quiet week: it is read after ``KEPT_DAYS``
(a fridge door left ajar on the third night, 5 → 13 °C, is not left for day five), when
the weather moved meanwhile by ``WEATHER_MOVED`` more than the place did (it does not
follow the weather: no thermometer outdoors or in a shed, whose two still winter days say
nothing). A band inside room temperatures (an aquarium, a cellar, a quiet bedroom), or
one the weather did not show held against it, waits for ``MIN_DAYS``: a few days of one
season say little of where a room stays.

Not judged: a sensor in an area with a thermostat (the heating's checks judge it), and a
departure the whole home or the weather shares (``home_or_weather_moved``), unless the
place's own heater stopped (``heater_stopped``: told with its meter).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, parse_number
from ..temperatures import span_in_unit, to_celsius
from .clock import local
from .cycles import spell_since
from .heater_stopped import heater_stopped
from .home_baselines import OUTDOOR, HomeBaselines
from .level_spells import ROOM_HIGH, ROOM_LOW
from .long_stays import duration_text
from .power import IDLE
from .profile_departure import home_or_weather_moved
from .reference import UsualRange, usual_range

MIN_DAYS = 5.0
# A band no room holds is read this early (the days ``kept_levels`` reads a kept level after).
KEPT_DAYS = 2.0
# ...when the outdoor hours learned spread this much (°C) wider than the band.
WEATHER_MOVED = 3.0
MIN_READINGS = 20
# A band this narrow over the days learned is kept by a machine (°C).
STEADY_SPAN = 3.0
# Beyond the band by this much (°C; a sensor's resolution is 0.1)...
MARGIN = 0.3
# ...every reading for this long.
HOLD = timedelta(hours=1)

READING_BEYOND_ITS_STEADY_BAND = FindingKind(
    "reading_beyond_its_steady_band", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def _beyond_since(home: HomeView, sensor: EntityState, low: float, high: float) -> datetime | None:
    """Since when every reading has been outside ``[low, high]`` on the current side."""
    current = sensor.number
    if current is None or low <= current <= high:
        return None
    above = current > high
    since = sensor.last_changed
    for transition in reversed(home.history.get(sensor.entity_id, [])):
        value = parse_number(transition.state)
        if value is None or (value <= high if above else value >= low):
            break
        since = transition.when if since is None else min(since, transition.when)
    return since


def _kept_by_a_machine(baselines: HomeBaselines, usual: UsualRange, unit: str | None) -> bool:
    """The band lies wholly where no room is kept (under ``ROOM_LOW`` or over ``ROOM_HIGH``
    °C) and held while the weather's learned hours moved ``WEATHER_MOVED`` more than it."""
    low, high = to_celsius(usual.lowest, unit), to_celsius(usual.highest, unit)
    if low is None or high is None or (high >= ROOM_LOW and low <= ROOM_HIGH):
        return False
    outdoor = [mean for values in baselines.profiles.hours.get(OUTDOOR) or () for _, mean in values]
    return bool(outdoor) and max(outdoor) - min(outdoor) >= high - low + WEATHER_MOVED


def reading_beyond_its_steady_band(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A thermometer kept in a narrow band has read outside it for ``HOLD``.

    Magnitude: how far beyond the band (its unit; negative below).
    """
    now = home.end
    heated = {s.info.area for s in home.of("climate") if s.info.area}
    for sensor in home.of("sensor", "temperature"):
        current = sensor.number
        if current is None or (sensor.info.area and sensor.info.area in heated):
            continue
        usual = usual_range(baselines, sensor.entity_id, now)
        if usual is None or usual.readings < MIN_READINGS:
            continue
        unit = sensor.info.unit
        if usual.highest - usual.lowest > span_in_unit(STEADY_SPAN, unit):
            continue
        if usual.days < MIN_DAYS and (
            usual.days < KEPT_DAYS or not _kept_by_a_machine(baselines, usual, unit)
        ):
            continue
        margin = span_in_unit(MARGIN, unit)
        since = _beyond_since(home, sensor, usual.lowest - margin, usual.highest + margin)
        if since is None or now - since < HOLD:
            continue
        side = 1 if current > usual.highest else -1
        heater = heater_stopped(home, baselines, sensor) if side < 0 else None
        if heater is None and home_or_weather_moved(home, baselines, sensor, side):
            continue
        shown = f" {unit}" if unit else ""
        stopped = (
            ""
            if heater is None
            else f"; {heater.info.name or heater.entity_id} beside it has drawn no power "
            f"since {local(spell_since(home, baselines, heater, IDLE) or now, home.env.zone):%H:%M}"
        )
        yield READING_BEYOND_ITS_STEADY_BAND.finding(
            evidence=(sensor.entity_id, *([heater.entity_id] if heater is not None else [])),
            reasoning=f"{sensor.info.name or sensor.entity_id} reads {current:g}{shown}, "
            f"{'above' if side > 0 else 'below'} its own band since "
            f"{local(since, home.env.zone):%H:%M} ({duration_text(now - since)}); "
            f"in the {usual.days:.0f} days learned it always read "
            f"{usual.lowest:g}–{usual.highest:g}{shown}{stopped}: what keeps it there has stopped.",
            recommendation="Check what keeps this place at its temperature (a cooler's "
            "compressor, a tank's heater, a door left open).",
            magnitude=round(current - (usual.highest if side > 0 else usual.lowest), 2),
        )
