"""A room sensor that has read, hour after hour, what it never reads at those hours.

``HourProfiles`` holds what each temperature, humidity, CO2 or moisture sensor read at
each hour of each day. For the last ``SUSTAINED_HOURS`` closed hours and the current
reading, each is compared with the *same hour* on the other days learned (≥ ``MIN_DAYS``):
beyond the lowest or highest of them by more than a margin, all on the same side. The
margin is the hour's own learned spread (``SPREAD_FACTOR`` × the standard deviation of
its days: a sunny room's afternoons vary, its nights do not), never less than a floor per
device class (``FLOOR``: 2 °C or 3.6 °F, 10 %RH, 300 ppm, 10 %). The daily cycle is part of
the comparison (an evening's heating is judged against other evenings), so what is left is
a level that moved and stayed: a sensor drifting, a damp wall, a radiator stuck open, a
window left open in a room for the afternoon.

Not judged, because something else explains it:

- a sensor in an area with a thermostat (the heating's checks judge those rooms; a
  holiday's eco set point is not a fault);
- a temperature that reads within 2 °C of the outdoor temperature (a sensor outside or in
  an unheated space follows the weather);
- the home moved together (*common mode*): at least half of the other sensors of the same
  class and unit whose hours are learned are, over their last closed hour, at least half a
  floor (1 °C, 5 %RH…) from their own usual for that hour, the same way — a cold snap, a
  heat wave, a week away with the heating set back, the season. The rooms need not have
  left their bands yet: each cools at its own pace;
- a temperature departure the weather shares: the outdoor temperature (the weather
  entity's, learned hour by hour like a sensor) is ``OUTDOOR_SHIFT`` or more from its own
  usual for the hour, the same way (a home with one unheated room sensor in a cold snap);
  not for a room the home keeps heated fallen far below its hours (``kept_heated``: its
  heating holds it in a cold snap, and one that lets it fall has failed).

Unless the reading itself is a risk whatever the weather: a temperature at or under
``FROST`` (pipes freezing) is told even when the home or the weather moved with it; and
a place colder than its own whose heater stopped (``heater_stopped``): a heater that works
runs more in the cold, so the cold is the heater's, not the weather's.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from statistics import median

from ..exact_stdev import pstdev
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from ..rules.temperature_bands import celsius_of
from ..temperatures import span_in_unit
from .clock import ONE_HOUR, hour_start
from .heater_stopped import heater_stopped
from .home_baselines import OUTDOOR, HomeBaselines
from .hour_profiles import PROFILED_CLASSES, READING_WORDS
from .kept_heated import heat_lost

SUSTAINED_HOURS = 4
MIN_DAYS = 7
FLOOR = {"temperature": 2.0, "humidity": 10.0, "carbon_dioxide": 300.0, "moisture": 10.0}
# The margin beyond the band: this many times the hour's standard deviation over its days.
SPREAD_FACTOR = 2.0
# A peer moved "the same way" when its last hour is this share of a floor from its usual.
COMMON_SHIFT = 0.5
# The weather moved when the outdoor temperature is this far from its usual for the hour (°C).
OUTDOOR_SHIFT = 3.0
# A reading this close to the outdoor temperature follows the weather (°C).
OUTDOOR_NEAR = 2.0
# At or under this, a room is at risk of frost whatever explains it (°C).
FROST = 3.0


def _floor(sensor: EntityState) -> float:
    floor = FLOOR[sensor.info.device_class or ""]
    return span_in_unit(floor, sensor.info.unit)


def _margin(baselines: HomeBaselines, entity_id: str, start: datetime, floor: float) -> float:
    """The floor, or the hour's own spread over its days when that is wider (the spread
    worked out once per hour's days: ``pstdev`` is exact, and dear even as
    ``exact_stdev`` computes it)."""
    spread = baselines.profiles.derived(entity_id, start, "pstdev", _pstdev)
    return floor if spread is None else max(floor, SPREAD_FACTOR * spread)


def _pstdev(others: tuple[float, ...]) -> float | None:
    return pstdev(others) if len(others) > 1 else None


def _side(value: float, others: list[float], margin: float) -> int:
    """+1 above every other day by more than ``margin``, -1 below, 0 within."""
    if value > max(others) + margin:
        return 1
    if value < min(others) - margin:
        return -1
    return 0


def _departure(
    baselines: HomeBaselines, sensor: EntityState, now: datetime
) -> tuple[int, float, float, float, int, float] | None:
    """(side, last hour, lowest, highest, days, margin) when the sensor left its hours.

    Last hour: the mean of the last closed hour; lowest/highest: that hour on the other
    days learned; margin: the one that hour was judged with.
    """
    current = sensor.number
    if current is None:
        return None
    floor = _floor(sensor)
    start = hour_start(now)
    # The current hour (not closed yet): the reading against the same hour's days.
    _, others = baselines.profiles.same_hour(sensor.entity_id, start)
    if len(others) < MIN_DAYS:
        return None
    side = _side(current, others, _margin(baselines, sensor.entity_id, start, floor))
    if side == 0:
        return None
    band: tuple[float, float, float, int, float] | None = None
    first = 1
    if baselines.profiles.same_hour(sensor.entity_id, start - ONE_HOUR)[0] is None:
        first = 2  # the last hour is not closed yet (the baselines advance every 15 min)
    for back in range(first, first + SUSTAINED_HOURS):
        hour = start - back * ONE_HOUR
        value, others = baselines.profiles.same_hour(sensor.entity_id, hour)
        if value is None or len(others) < MIN_DAYS:
            return None
        margin = _margin(baselines, sensor.entity_id, hour, floor)
        if _side(value, others, margin) != side:
            return None
        if band is None:
            band = (value, min(others), max(others), len(others), margin)
    if band is None:
        return None
    return side, *band


def _shift(baselines: HomeBaselines, entity_id: str, now: datetime) -> float | None:
    """How far the last closed hour is from the median of the same hour's other days."""
    start = hour_start(now)
    for back in (1, 2):  # the last hour, or the one before while it is not closed yet
        hour = start - back * ONE_HOUR
        value, others = baselines.profiles.same_hour(entity_id, hour)
        if value is not None:
            if len(others) < MIN_DAYS:
                return None
            return value - baselines.profiles.derived(entity_id, hour, "median", median)
    return None


def _outdoor_shift(home: HomeView, baselines: HomeBaselines) -> float | None:
    """How far the outdoor temperature (now and over the last hour) is from its usual."""
    outdoor = home.env.outdoor_temperature
    if outdoor is None:
        return None
    _, others = baselines.profiles.same_hour(OUTDOOR, hour_start(home.end))
    last = _shift(baselines, OUTDOOR, home.end)
    if len(others) < MIN_DAYS or last is None:
        return None
    now = outdoor - median(others)
    return now if now * last > 0 and abs(last) >= abs(now) / 2 else None  # sustained


def _common_mode(
    baselines: HomeBaselines,
    sensor: EntityState,
    peers: list[EntityState],
    side: int,
    now: datetime,
) -> tuple[int, int]:
    """(peers that moved the same way, peers with learned hours)."""
    needed = COMMON_SHIFT * _floor(sensor)
    shifts = [
        shift
        for peer in peers
        if peer.entity_id != sensor.entity_id and peer.info.unit == sensor.info.unit
        if (shift := _shift(baselines, peer.entity_id, now)) is not None
    ]
    return sum(1 for shift in shifts if shift * side >= needed), len(shifts)


def home_or_weather_moved(
    home: HomeView, baselines: HomeBaselines, sensor: EntityState, side: int
) -> bool:
    """The home moved together, or the weather did, the way ``sensor`` left its hours
    (``side``: +1 above, -1 below), and its reading is no frost risk: not the room's fault.
    Shared with ``reading_drifting_from_its_hours`` (``profile_drift.py``)."""
    current = sensor.number
    kind = sensor.info.device_class or ""
    if current is None or kind not in FLOOR:
        return False
    celsius = celsius_of(sensor)  # a thermometer's reading in °C, as FROST and the weather
    if celsius is not None and celsius <= FROST:
        return False
    if side < 0 and celsius is not None and heater_stopped(home, baselines, sensor):
        return False  # its own heater stopped: the cold is the heater's, not the weather's
    peers = [s for s in home.of("sensor", kind) if s.entity_id in baselines.profiles.hours]
    moved, counted = _common_mode(baselines, sensor, peers, side, home.end)
    if counted and 2 * moved >= counted:
        return True
    weather = _outdoor_shift(home, baselines) if celsius is not None else None
    if weather is None or weather * side < OUTDOOR_SHIFT:
        return False
    # A room the home keeps heated holds in a cold snap: fallen far, its heat is gone.
    return not (side < 0 and heat_lost(home, baselines, sensor))


def reading_off_its_hours(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A room sensor beyond every learned day at the same hours, for hours on end.

    Magnitude: how far the current reading is beyond the learned band (its unit; negative
    below).
    """
    now = home.end
    heated = {s.info.area for s in home.of("climate") if s.info.area}
    outdoor = home.env.outdoor_temperature
    weather: float | None = None
    weather_read = False
    for device_class in sorted(PROFILED_CLASSES):
        sensors = [
            s for s in home.of("sensor", device_class) if s.entity_id in baselines.profiles.hours
        ]
        for sensor in sensors:
            current = sensor.number
            if current is None or sensor.info.area in heated:
                continue
            departure = _departure(baselines, sensor, now)
            if departure is None:
                continue
            side = departure[0]
            celsius = celsius_of(sensor)  # a thermometer's reading in °C, as the weather's
            if (
                celsius is not None
                and outdoor is not None
                and abs(celsius - outdoor) <= OUTDOOR_NEAR
            ):
                continue
            frost = celsius is not None and celsius <= FROST
            moved, peers = _common_mode(baselines, sensor, sensors, side, now)
            if peers and 2 * moved >= peers and not frost:
                continue  # the home moved together: the weather, the season, a week away
            if celsius is not None and not weather_read:
                weather, weather_read = _outdoor_shift(home, baselines), True
            if (
                celsius is not None
                and weather is not None
                and weather * side >= OUTDOOR_SHIFT
                and not frost
            ):
                continue  # the weather moved the same way
            yield _finding(sensor, current, departure, (moved, peers), frost=frost)


READING_OFF_ITS_HOURS = FindingKind(
    "reading_off_its_hours", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def _finding(
    sensor: EntityState,
    current: float,
    departure: tuple[int, float, float, float, int, float],
    common: tuple[int, int],
    *,
    frost: bool,
) -> Finding:
    side, last, low, high, days, margin = departure
    moved, peers = common
    unit = f" {sensor.info.unit}" if sensor.info.unit else ""
    word = READING_WORDS[sensor.info.device_class or ""]
    if frost:
        others = f"at {current:g}{unit} the room is at risk of frost, whatever the weather."
    elif peers:
        others = f"{moved} of the {peers} other {word} sensors moved that way."
    else:
        others = f"no other {word} sensor of the home has learned hours to compare."
    return READING_OFF_ITS_HOURS.finding(
        evidence=(sensor.entity_id,),
        reasoning=f"{sensor.entity_id} reads {current:g}{unit}: for {SUSTAINED_HOURS} "
        f"hours its {word} has been {'above' if side > 0 else 'below'} anything it "
        f"read at the same hours on the {days} other days learned, by more than "
        f"{margin:.1f}{unit} (the last hour averaged {last:.1f}{unit}, where those days read "
        f"{low:.1f}–{high:.1f}{unit}); {others}",
        recommendation="Check the sensor (drift, a failing battery, moved near a "
        "heat source) and the room (a window left open, a radiator, damp).",
        magnitude=round(current - (high if side > 0 else low), 2),
    )
