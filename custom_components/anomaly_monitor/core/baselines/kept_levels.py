"""A place kept at its own temperature that has stayed away from it far longer than ever.

A bulk milk tank is kept at 3-4 °C by its refrigeration: warm milk takes it to 15 °C twice
a day and its wash to 31 °C, each for half an hour, and it is cooled back within hours. A
failed contactor leaves the milk at 15-16 °C all morning: no reading is outside the tank's
range, and no room line is crossed (it is no room). What is new is how long it has *held*
that high: the longest spell it ever stayed at or above 15 °C was the wash's half hour
(``LevelSpells``, learned from every reading).

Judged: a thermometer whose typical level (the median of its closed hours,
``cold_places.typical_hour``, over ``MIN_DAYS`` days or more) is far from any room's
(under ``ROOM_LOW`` or over ``ROOM_HIGH``: a cold store, a fridge, a milk tank, a hot-water
cylinder; never a living room, whose heating, sun and season move it). It is told when the
readings have stayed at or beyond a level at least ``AWAY`` from that typical level (on
either side) for ``FACTOR`` times the longest spell it ever held there, and ``MIN_HOLD`` at
least. A level it never reached before is not this check's (a new range:
``reading_beyond_its_steady_band``, the room extremes). Cold start: silent until the
spells at the level and the typical hours are learned.

A process probe (its range reached ``process_heat.PROCESS_HEAT``: a kiln, an oven) is not
kept hot: it heats in batches, and below its usual level it rests (a potter's kiln cold
through a weekend away); only its side above is judged.

Not told when the sensor follows the weather (within ``OUTDOOR_NEAR`` of the outdoor
temperature: a shed, a garden) or the whole home or the weather moved the same way
(``home_or_weather_moved``: a heat wave warms every unheated place).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..rules.temperature_bands import celsius_of
from ..temperatures import span_in_unit, to_celsius
from .clock import local
from .cold_places import typical_hour
from .home_baselines import HomeBaselines
from .level_spells import ROOM_HIGH, ROOM_LOW
from .long_stays import duration_text
from .process_heat import is_process
from .profile_departure import OUTDOOR_NEAR, home_or_weather_moved
from .reference import usual_range

MIN_DAYS = 3
# A level this far (°C) from the typical one is away from where the place is kept.
AWAY = 3.0
FACTOR = 2.0
MIN_HOLD = timedelta(hours=1)

HELD_FAR_LONGER_THAN_EVER = FindingKind(
    "reading_held_far_longer_than_ever", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def _past_limit(spell: tuple[float, float, float | None], now: float) -> bool:
    """Held at its level for ``FACTOR`` times the longest ended spell there, and
    ``MIN_HOLD``."""
    _, since, longest = spell
    return longest is not None and now - since >= max(FACTOR * longest, MIN_HOLD.total_seconds())


def _held_too_long(
    spells: list[tuple[float, float, float | None]], now: float
) -> tuple[float, float, float] | None:
    """(level, since, longest ever) of the spell held longest past its limit (``spells``
    are past it already: ``_past_limit``)."""
    worst: tuple[float, float, float] | None = None
    ratio = 0.0
    for level, since, longest in spells:
        if longest is None:
            continue
        if (r := (now - since) / max(longest, 1.0)) > ratio:
            worst, ratio = (level, since, longest), r
    return worst


def reading_held_far_longer_than_ever(
    home: HomeView, baselines: HomeBaselines
) -> Iterator[Finding]:
    """A thermometer kept far from room temperatures has stayed away from its usual level
    far longer than it ever did.

    Magnitude: how many times its longest spell at that level it has held.
    """
    now = home.end
    at = now.timestamp()
    outdoor = home.env.outdoor_temperature
    for sensor in home.of("sensor", "temperature"):
        current, celsius = sensor.number, celsius_of(sensor)
        eid = sensor.entity_id
        if current is None or celsius is None or eid not in baselines.spells.sides:
            continue
        held = {
            above: [s for s in baselines.spells.held(eid, above) if _past_limit(s, at)]
            for above in (True, False)
        }
        if not held[True] and not held[False]:
            continue  # (cheap: nothing held past its limit, whatever the typical level)
        usual = usual_range(baselines, eid, now)
        if usual is None or usual.days < MIN_DAYS:
            continue  # cold start: silent
        typical = typical_hour(baselines, eid)
        unit = sensor.info.unit
        typical_c = to_celsius(typical, unit) if typical is not None else None
        if typical is None or typical_c is None or ROOM_LOW <= typical_c <= ROOM_HIGH:
            continue
        if outdoor is not None and abs(celsius - outdoor) <= OUTDOOR_NEAR:
            continue  # follows the weather
        away = span_in_unit(AWAY, unit)
        # A kiln's or an oven's probe heats in batches: below its usual level it rests.
        for above in (True, False) if not is_process(usual, unit) else (True,):
            spells = [
                s for s in held[above] if (s[0] - typical if above else typical - s[0]) >= away
            ]
            found = _held_too_long(spells, at)
            if found is None:
                continue
            side = 1 if above else -1
            if home_or_weather_moved(home, baselines, sensor, side):
                continue
            level, since, longest = found
            began = datetime.fromtimestamp(since, UTC)
            shown = f" {unit}" if unit else ""
            lasted = now - began
            yield HELD_FAR_LONGER_THAN_EVER.finding(
                evidence=(eid,),
                reasoning=f"{sensor.info.name or eid} reads {current:g}{shown} and has stayed "
                f"{'at or above' if above else 'at or under'} {level:g}{shown} since "
                f"{local(began, home.env.zone):%H:%M} ({duration_text(lasted)}); "
                f"it is usually kept at about {typical:g}{shown}, and in the days learned it "
                f"never stayed there longer than {duration_text(timedelta(seconds=longest))}: "
                "what keeps it at its temperature may have stopped.",
                recommendation="Check what keeps this place at its temperature (a cooling "
                "unit or compressor, a heater, a lid or door left open).",
                magnitude=round(lasted.total_seconds() / max(longest, 1.0), 1),
            )
            break
