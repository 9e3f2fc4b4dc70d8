"""A place a fire keeps hot (a stove's water loop, a boiler's buffer tank) gone cold.

A briquette stove's water loop reads 36-76 °C day and night: stoked morning and evening,
banked for the night, never as cool as a room. When the fire goes out on a −34 °C night
the loop falls through 27, 19, 12 °C and the house with it; nothing judged it: its
readings are no room's (no room band), it is no steady place (it swings 40 °C a day) and
a reading below everything it read before is no spell it held (set 14, Ulaanbaatar; set
12, Šumava: a wood boiler nobody lit, its buffer tank from 63-82 °C down to 52, 46, 40).

Judged: a thermometer whose every reading over ``MIN_DAYS`` days learned (``usual_range``,
``MIN_READINGS`` or more) stayed above any room's air (its lowest over
``level_spells.ROOM_HIGH``): something keeps it hot. Told when every reading for ``HOLD``
has been below its learned lowest by ``AWAY`` °C and ``AWAY_SHARE`` of that lowest: the
heat that kept it has stopped. Only while it is cold outside (the weather's temperature
under ``COLD_OUTSIDE``, or not known): heating let go in a warm spell is a choice. Not a
process thermometer (a kiln, an oven, a flue: its range reached ``PROCESS_HEAT``), which
rests cold between firings. Known by device class and learned range; no id words.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..temperatures import span_in_unit, to_celsius
from .clock import local
from .far_beyond_range import readings_beyond
from .home_baselines import HomeBaselines
from .level_spells import ROOM_HIGH
from .long_stays import duration_text
from .process_heat import is_process
from .reference import usual_range

MIN_DAYS = 3.0
MIN_READINGS = 20
# Below the learned lowest by this much (°C) and this share of it: no reading's wobble.
AWAY = 5.0
AWAY_SHARE = 0.1
HOLD = timedelta(minutes=30)
# °C outdoors under which a home's heating going out matters.
COLD_OUTSIDE = 10.0

HEAT_SOURCE_GONE_COLD = FindingKind(
    "heat_source_gone_cold", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def heat_source_gone_cold(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A thermometer always kept hot reads far below its learned lowest for ``HOLD``.

    Magnitude: degrees below the learned lowest (its unit).
    """
    outdoor = home.env.outdoor_temperature
    if outdoor is not None and outdoor >= COLD_OUTSIDE:
        return
    now = home.end
    for sensor in home.of("sensor", "temperature"):
        current, unit = sensor.number, sensor.info.unit
        if current is None:
            continue
        usual = usual_range(baselines, sensor.entity_id, now)
        if usual is None or usual.days < MIN_DAYS or usual.readings < MIN_READINGS:
            continue
        lowest = to_celsius(usual.lowest, unit)
        if lowest is None or lowest <= ROOM_HIGH or is_process(usual, unit):
            continue
        line = usual.lowest - span_in_unit(max(AWAY, AWAY_SHARE * lowest), unit)
        since, _ = readings_beyond(home, sensor, line, float("inf"))
        if since is None or now - since < HOLD:
            continue
        shown = f" {unit}" if unit else ""
        name = sensor.info.name or sensor.entity_id
        yield HEAT_SOURCE_GONE_COLD.finding(
            evidence=(sensor.entity_id,),
            reasoning=f"{name} reads {current:g}{shown}: in the {usual.days:.0f} days learned "
            f"it never read under {usual.lowest:g}{shown} (up to {usual.highest:g}{shown}); "
            f"below that since {local(since, home.env.zone):%H:%M} "
            f"({duration_text(now - since)}). What keeps it hot has stopped: the fire or "
            "the boiler has gone out.",
            recommendation="Check the stove or boiler and relight it; in a frost, keep the "
            "water in the pipes from freezing.",
            magnitude=round(usual.lowest - current, 1),
        )
