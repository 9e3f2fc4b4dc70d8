"""A place's own heater has stopped: its cold is not the weather's doing.

A room or a tank kept warm by a heater on its own thermostat (an oil radiator keeping a
reptile room at 25 °C, a tank heater) cools when the heater stops; in a frosty night the
weather moved too, and ``profile_departure.home_or_weather_moved`` would read the cold as
the weather's. But a heater that works runs *more* in the cold: one resting far longer
than it ever rests at this time of day while its place cools has stopped, and that is
the failure that matters. So a power meter of the sensor's area that the home learned
cycling day and night (``cycles``), drawing a heating load when it runs (its learned
lowest running draw above ``MAX_COMPRESSOR_WATTS``: an element, not a fridge's
compressor, which rests longer in the cold), resting now longer than its longest rest
learned at this quarter of the day (``cycles.quarter_rest``), and not switched off by
the person (``cycles.switched_off``), is the place's heater stopped. Known by device
class, area and behaviour; no word of an id is read.
"""

from __future__ import annotations

from datetime import timedelta

from ..device_roles import MAX_COMPRESSOR_WATTS
from ..home import HomeView
from ..models import EntityState
from ..power_units import watts
from .cycles import longest_rest, quarter_rest, spell_since, switched_off
from .home_baselines import HomeBaselines
from .power import IDLE, power_state, running_key


def heater_stopped(
    home: HomeView, baselines: HomeBaselines, sensor: EntityState
) -> EntityState | None:
    """The power meter of ``sensor``'s area whose heater has stopped (see the module's
    text), or None."""
    area = sensor.info.area
    if not area:
        return None
    for meter in home.of("sensor", "power"):
        value = meter.number
        if meter.info.area != area or value is None:
            continue
        if power_state(value, meter.info.unit) != IDLE:
            continue
        longest = longest_rest(baselines, meter.entity_id)
        usual = baselines.ranges.usual(running_key(meter.entity_id))
        lowest = watts(usual[3], meter.info.unit) if usual is not None else None
        if longest is None or lowest is None or lowest <= MAX_COMPRESSOR_WATTS:
            continue
        since = spell_since(home, baselines, meter, IDLE)
        if since is None:
            continue
        rest = timedelta(minutes=quarter_rest(baselines, meter.entity_id, since, longest))
        if home.end - since > rest and not switched_off(home, baselines, meter, since):
            return meter
    return None
