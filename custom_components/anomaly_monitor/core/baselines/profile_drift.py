"""A room sensor drifting away from its learned hours: a CUSUM against the hour profile.

``reading_off_its_hours`` (``profile_departure.py``) tells a level beyond *every* other
day by a wide margin for four hours on end; a sensor that creeps away (a radiator valve
sticking, a sensor warming on a sunny sill, damp spreading) is told only once it has
gone far. This check accumulates the departure instead: for each of the last closed
hours, the hour's mean is compared with what the sensor read at the same local hour on
the other days learned (``reference.usual_at``: centre and spread), and a one-sided
CUSUM (Page's test) adds up how far it lay beyond those days' own range:

    S = max(0, S + z - k),  z = (hour mean - centre) / spread,
    k = max(1, (the other days' highest - centre) / spread)  (mirrored below)

so an hour within anything the fortnight read at that hour adds nothing (the daily cycle
and an ordinary warm afternoon are part of the reference), and a departure that grows
hour by hour is told once S reaches ``DECISION`` spreads-hours, over at least
``MIN_RUN`` hours, while the last closed hour and the current reading are still beyond
that range. A departure that came back (a fault of the afternoon, mended; a humidity
back at its flat 76 %) leaves S where it was, so a jump later (the evening's usual step,
a fridge door at dinner) would be told as the old departure: a drift stays, so the last
closed hour must lie beyond too. The words quote the hour that lay furthest out (what
drove it), and the last hour when it is another. The spread is
never taken smaller than a physical floor (``FLOOR``: 0.5 °C, 3 %RH, 100 ppm, 3 %), as
a steady sensor's fortnight can be almost flat.

Not judged, as for ``reading_off_its_hours``: a temperature in an area with a
``climate`` entity (its schedule moves the room: eco while away, a holiday), a
temperature within 2 °C of the outdoor temperature (it follows the weather), and a
departure that another sensor of the same class and unit shares the same way (the whole
home moved: a heat wave, the heating season, a humid week).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, tzinfo

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from ..rules.temperature_bands import celsius_of
from ..temperatures import span_in_unit
from .clock import ONE_HOUR, hour_start, local
from .home_baselines import HomeBaselines
from .hour_profiles import PROFILED_CLASSES, READING_WORDS
from .kept_heated import heat_lost
from .profile_departure import OUTDOOR_NEAR, home_or_weather_moved
from .reference import UsualHour, usual_at

# Closed hours looked back over, and other days needed at each of them.
LOOKBACK_HOURS = 8
MIN_DAYS = 7
# The smallest spread a sensor's hour is given (its unit; °F: × 1.8).
FLOOR = {"temperature": 0.5, "humidity": 3.0, "carbon_dioxide": 100.0, "moisture": 3.0}
# Told at this many spread-hours beyond the fortnight's range, over this many hours...
DECISION = 6.0
MIN_RUN = 2
# ...while the current reading is still this many spreads beyond that range.
STILL_BEYOND = 1.0
# A peer this far along the same side means the home moved, not the room.
PEER_SHARE = 0.5


def _floor(sensor: EntityState) -> float:
    floor = FLOOR[sensor.info.device_class or ""]
    return span_in_unit(floor, sensor.info.unit)


def _beyond(value: float, usual: UsualHour, spread: float) -> tuple[float, float]:
    """(spreads above the range, spreads below it): each ≥ 0 (the CUSUM's z - k)."""
    z = (value - usual.centre) / spread
    above = z - max(1.0, (usual.highest - usual.centre) / spread)
    below = -z - max(1.0, (usual.centre - usual.lowest) / spread)
    return max(0.0, above), max(0.0, below)


@dataclass(frozen=True, slots=True)
class _Drift:
    """A run of hours beyond the sensor's learned hours."""

    side: int  # +1 above, -1 below
    began: datetime  # the first hour of the run
    furthest: tuple[datetime, UsualHour, float]  # the hour furthest out: start, usual, mean
    last: tuple[datetime, UsualHour, float]  # the last closed hour


def _cusum(baselines: HomeBaselines, sensor: EntityState, now: datetime) -> _Drift | None:
    """The run of hours that took the CUSUM past its limit, when it is still going on."""
    floor = _floor(sensor)
    start = hour_start(now)
    first = 1
    if baselines.profiles.same_hour(sensor.entity_id, start - ONE_HOUR)[0] is None:
        first = 2  # the last hour is not closed yet (the baselines advance every 15 min)
    sums = [0.0, 0.0]
    runs = [0, 0]
    began: list[datetime | None] = [None, None]
    furthest: list[tuple[float, tuple[datetime, UsualHour, float]] | None] = [None, None]
    last: tuple[datetime, UsualHour, float] | None = None
    last_excess = (0.0, 0.0)
    for back in range(first + LOOKBACK_HOURS - 1, first - 1, -1):
        hour = start - back * ONE_HOUR
        own, usual = usual_at(baselines, sensor.entity_id, hour, MIN_DAYS)
        if own is None or usual is None:
            sums, runs, began, furthest, last = [0.0, 0.0], [0, 0], [None, None], [None, None], None
            continue  # a gap: start again
        excess = _beyond(own, usual, max(usual.spread, floor))
        for side in (0, 1):
            sums[side] = max(0.0, sums[side] + excess[side])
            if sums[side] == 0.0:
                runs[side], began[side], furthest[side] = 0, None, None
            elif excess[side] > 0:
                runs[side] += 1
                began[side] = began[side] or hour
                worst = furthest[side]
                if worst is None or excess[side] > worst[0]:
                    furthest[side] = (excess[side], (hour, usual, own))
        last, last_excess = (hour, usual, own), excess
    if last is None:
        return None
    side = 0 if sums[0] >= sums[1] else 1
    first_hour, worst = began[side], furthest[side]
    if sums[side] < DECISION or runs[side] < MIN_RUN or first_hour is None or worst is None:
        return None
    if last_excess[side] <= 0:
        return None  # back within its hours: whatever comes now is no drift going on
    return _Drift(1 if side == 0 else -1, first_hour, worst[1], last)


def _side_now(baselines: HomeBaselines, sensor: EntityState, now: datetime) -> int:
    """+1 (-1) when the current reading is still beyond the current hour's range above
    (below) by ``STILL_BEYOND`` spreads, else 0: checked first, it spares the CUSUM for
    every sensor reading as usual."""
    current = sensor.number
    if current is None:
        return 0
    _, usual = usual_at(baselines, sensor.entity_id, hour_start(now), MIN_DAYS)
    if usual is None:
        return 0
    above, below = _beyond(current, usual, max(usual.spread, _floor(sensor)))
    return 1 if above >= STILL_BEYOND else -1 if below >= STILL_BEYOND else 0


READING_DRIFTING_FROM_ITS_HOURS = FindingKind(
    "reading_drifting_from_its_hours", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def reading_drifting_from_its_hours(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A room sensor's hours have crept beyond its learned hours, hour after hour.

    Magnitude: how far the last closed hour's mean lies from the usual of that hour
    (its unit; negative below).
    """
    now = home.end
    heated = {s.info.area for s in home.of("climate") if s.info.area}
    outdoor = home.env.outdoor_temperature
    found: list[tuple[EntityState, _Drift]] = []
    for device_class in sorted(PROFILED_CLASSES):
        for sensor in home.of("sensor", device_class):
            if sensor.entity_id not in baselines.profiles.hours:
                continue
            side = _side_now(baselines, sensor, now)
            if side == 0:
                continue
            drift = _cusum(baselines, sensor, now)
            if drift is None or drift.side != side:
                continue
            found.append((sensor, drift))
    for sensor, drift in found:
        kind = sensor.info.device_class or ""
        side = drift.side
        if _peer_leans(home, baselines, sensor, side, now):
            continue  # another sensor of the class moved the same way: the whole home moved
        if home_or_weather_moved(home, baselines, sensor, side):
            continue  # most rooms moved a little that way, or the weather did (a cold snap)
        if kind == "temperature" and sensor.info.area in heated:
            continue
        current = sensor.number
        if current is None:
            continue
        celsius = celsius_of(sensor)  # the outdoor temperature is in °C
        if outdoor is not None and celsius is not None and abs(celsius - outdoor) <= OUTDOOR_NEAR:
            continue
        unit = f" {sensor.info.unit}" if sensor.info.unit else ""
        word = READING_WORDS[kind]
        way = "above" if side > 0 else "below"
        zone = home.env.zone
        began = local(drift.began, zone)
        yield READING_DRIFTING_FROM_ITS_HOURS.finding(
            evidence=(sensor.entity_id,),
            reasoning=f"{sensor.entity_id} reads {current:g}{unit}: since {began:%H:%M} its "
            f"{word} has crept {way} what it read at the same hours on the "
            f"{drift.last[1].days} other days learned, further each hour "
            f"({_hours_text(drift, unit, zone)}); no other {word} sensor moved that way.",
            recommendation=_advice(home, baselines, sensor, side),
            magnitude=round(drift.last[2] - drift.last[1].centre, 2),
        )


def _advice(home: HomeView, baselines: HomeBaselines, sensor: EntityState, side: int) -> str:
    """What to check: the heating of a heated room fallen far (``kept_heated``), else the
    room and the sensor."""
    if side < 0 and heat_lost(home, baselines, sensor):
        area = sensor.info.area or "the room"
        return (
            f"Check the heating of {area}: it is kept warm on other days and has fallen far "
            "below that. Keep anyone in it warm meanwhile."
        )
    return (
        "Check the room (a radiator or heater left on, a window, damp) "
        "and the sensor (moved near a heat source, drifting)."
    )


def _hours_text(drift: _Drift, unit: str, zone: tzinfo | None) -> str:
    """The hour furthest out and the last hour, each with what those days read then."""

    def hour(at: tuple[datetime, UsualHour, float]) -> str:
        start, usual, mean = at
        lowest, highest = f"{usual.lowest:.1f}", f"{usual.highest:.1f}"
        # One figure where they read the same (walk 38: "those days read 5.0–5.0 °C").
        read = lowest if lowest == highest else f"{lowest}–{highest}"
        return (
            f"{local(start, zone):%H}:00–{local(start + ONE_HOUR, zone):%H}:00 averaged "
            f"{mean:.1f}{unit}, where those days read {read}{unit}"
        )

    if drift.furthest[0] == drift.last[0]:
        return f"the last hour, {hour(drift.last)}"
    return f"furthest out {hour(drift.furthest)}; the last hour {hour(drift.last)}"


def _peer_leans(
    home: HomeView, baselines: HomeBaselines, sensor: EntityState, side: int, now: datetime
) -> bool:
    """Another sensor of the class and unit is well on its way to the same side."""
    for peer in home.of("sensor", sensor.info.device_class or ""):
        if peer.entity_id == sensor.entity_id or peer.info.unit != sensor.info.unit:
            continue
        if peer.entity_id not in baselines.profiles.hours:
            continue
        if _lean(baselines, peer, now, side) >= PEER_SHARE * DECISION:
            return True
    return False


def _lean(baselines: HomeBaselines, sensor: EntityState, now: datetime, side: int) -> float:
    """The CUSUM on ``side`` over the lookback, without the run conditions."""
    floor, start, total = _floor(sensor), hour_start(now), 0.0
    for back in range(LOOKBACK_HOURS, 0, -1):
        own, usual = usual_at(baselines, sensor.entity_id, start - back * ONE_HOUR, MIN_DAYS)
        if own is None or usual is None:
            continue
        above, below = _beyond(own, usual, max(usual.spread, floor))
        total = max(0.0, total + (above if side > 0 else below))
    return total
