"""A night that began early is a night: the whole home's stillness judged by its nights.

The Quispes (a fortnight learned): a sensor sees somebody every half hour from 07:00, and
the daughter is up until half past midnight, so every night's quiet begins then and lasts
until seven. Each hour's usual longest quiet is how long the quiet had lasted by then:
half an hour until midnight, an hour and a half at one, six and a half at six. The night
the daughter is out at a party and the others go to bed at 21:50, the quiet at 01:20 was
"3 h 30 min, at these hours usually at most 1 h 30 min" (told, set 26 d), with everybody
asleep. Once the quiet is in the hours this home rests at, it is judged by how long its
nights run: not told in the night. A quiet by day is judged by its hours as before.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.detectors import no_movement_while_home
from custom_components.anomaly_monitor.core.baselines.night_length import (
    usual_through_the_night,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Finding

from .core_factories import entity, window

ZONE = "America/Lima"
SALA = "binary_sensor.sala_motion"
PATIO = "binary_sensor.patio_motion"
MUM = "person.mum"
AREAS = {SALA: "Sala", PATIO: "Patio"}
TODAY = datetime(2026, 6, 11, tzinfo=ZoneInfo(ZONE))  # local midnight
DAYS = 14


def _quispes() -> HomeBaselines:
    """A fortnight before ``TODAY``: movement every half hour from 07:00 to 00:30; the last
    night, everybody in bed at 21:50 (the daughter out)."""
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(entity(e, "off", area=AREAS[e], device_class="motion").info for e in AREAS)
    start = TODAY - timedelta(days=DAYS)
    baselines.watching(AREAS, start)
    baselines.observe(start, MUM, "home")
    events: list[tuple[datetime, str, str]] = []
    for day in range(DAYS):
        midnight = start + timedelta(days=day)
        last = 21 + 50 / 60 if day == DAYS - 1 else 24.5  # the daughter up until 00:30
        moment = 7.0
        while moment <= last:
            sensor = SALA if int(moment * 2) % 2 else PATIO
            events.append((midnight + timedelta(hours=moment), sensor, "on"))
            events.append((midnight + timedelta(hours=moment, minutes=1), sensor, "off"))
            moment = moment + 0.5 if moment + 0.5 <= last or moment >= last else last
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS[entity_id])
    return baselines


def _view(now: datetime) -> HomeView:
    states = [entity(e, "off", area=AREAS[e], device_class="motion") for e in AREAS]
    states.append(entity(MUM, "home"))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    return HomeView(window(states, env, []))


def _told(baselines: HomeBaselines, now: datetime) -> list[Finding]:
    baselines.advance(now)
    return list(no_movement_while_home(_view(now), baselines))


def test_an_early_night_is_judged_by_how_long_the_nights_run() -> None:
    baselines = _quispes()
    bed = TODAY - timedelta(hours=2, minutes=9)  # 21:51, the last movement
    baselines.advance(TODAY + timedelta(hours=1, minutes=20))
    quiet = baselines.quiet
    # So far the hours covered usually see at most the hour and a half after 00:30...
    covered = quiet.typical_over(bed, TODAY + timedelta(hours=1, minutes=20))
    assert covered is not None
    assert covered < 120
    # ...but 01:00 is in this home's night, which runs until seven.
    night = usual_through_the_night(quiet, bed, TODAY + timedelta(hours=1, minutes=20))
    assert night is not None
    assert night >= 6 * 60
    for hours in (1.33, 3, 5):
        assert _told(baselines, TODAY + timedelta(hours=hours)) == []


def test_a_quiet_by_day_is_judged_by_its_hours() -> None:
    baselines = _quispes()
    noon = TODAY + timedelta(hours=12)
    assert usual_through_the_night(baselines.quiet, noon, noon + timedelta(hours=1)) == (
        baselines.quiet.typical_over(noon, noon + timedelta(hours=1))
    )
