"""Relative humidity that rises and falls with its room's temperature.

Relative humidity is the water in the air divided by what the air could hold, and warm
air holds more: with the same moisture, a room warming by 1 °C reads about 5-6 % (of
its value) *lower*. A humidity sensor that climbs and sinks in lockstep with the
thermometer of its area, over a good temperature swing, is not measuring humidity: a
sensor reporting its temperature channel, a fault, or a moisture source that follows the
heat all day. Showers and cooking raise both for a while; over a day's readings that is
a loose link, not a lockstep.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from datetime import datetime, timedelta
from statistics import correlation

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..temperatures import span_in_unit
from .timeline import numeric_series

# A humidity reading is paired with the area's temperature reading taken at most this
# long before it (sensors of one room report at their own pace).
PAIR_WITHIN = timedelta(minutes=15)
# Enough pairs, over a swing large enough for physics to show (3 °C, 5.4 °F, moves RH
# by ~15 %).
MIN_PAIRS = 12
MIN_TEMPERATURE_SWING = 3.0
MIN_HUMIDITY_SWING = 5.0
# Lockstep: a correlation this close to +1 (physics says it should be negative).
LOCKSTEP = 0.9


def _pairs(
    humidity: list[tuple[datetime, float]], temperature: list[tuple[datetime, float]]
) -> list[tuple[float, float]]:
    """(temperature, humidity) for each humidity reading with a fresh temperature."""
    times = [when for when, _ in temperature]
    pairs: list[tuple[float, float]] = []
    for when, value in humidity:
        index = bisect_right(times, when) - 1
        if index >= 0 and when - times[index] <= PAIR_WITHIN:
            pairs.append((temperature[index][1], value))
    return pairs


HUMIDITY_FOLLOWS_TEMPERATURE = FindingKind(
    "humidity_follows_temperature", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def humidity_follows_temperature(home: HomeView) -> Iterator[Finding]:
    """A humidity sensor moves up and down with its room's temperature.

    Magnitude: the correlation of its readings with the room's temperature (+1 = lockstep).
    """
    sensors = [e for e in home.history if home.domain(e) == "sensor"]
    thermometers = [  # (each with its area, read once rather than per hygrometer)
        (e, home.area(e)) for e in sensors if home.device_class(e) == "temperature"
    ]
    for hygrometer in sensors:
        area = home.area(hygrometer)
        if area is None or home.device_class(hygrometer) != "humidity":
            continue
        humidity = numeric_series(home, hygrometer)
        for thermometer, where in thermometers:
            if where != area:
                continue
            pairs = _pairs(humidity, numeric_series(home, thermometer))
            if len(pairs) < MIN_PAIRS:
                continue
            state = home.info(thermometer)
            swing = span_in_unit(MIN_TEMPERATURE_SWING, state.info.unit if state else None)
            temperatures = [t for t, _ in pairs]
            humidities = [h for _, h in pairs]
            if max(temperatures) - min(temperatures) < swing:
                continue
            if max(humidities) - min(humidities) < MIN_HUMIDITY_SWING:
                continue
            link = correlation(temperatures, humidities)
            if link < LOCKSTEP:
                continue
            yield HUMIDITY_FOLLOWS_TEMPERATURE.finding(
                evidence=(hygrometer,),
                reasoning=f"{hygrometer} rose and fell with the room's temperature "
                f"({thermometer}, correlation {link:.2f} over {len(pairs)} readings, "
                f"{min(temperatures):g}-{max(temperatures):g}°); warmer air should read "
                f"drier, so the sensor is not reporting humidity.",
                recommendation="Check the humidity sensor (firmware, which channel it "
                "reports), or a moisture source that follows the heat.",
                magnitude=link,
            )
            break
