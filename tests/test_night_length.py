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
    night_end,
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


# The Okonkwos (a fortnight learned): somebody seen every half hour from 06:30 until
# 23:00, and the grandmother up for the toilet at 01:00, 02:30 and 04:00 every night, so
# no hour of the night is usually still for more than two hours. The night she sleeps
# through, the quiet from 23:00 is twice that by three: everybody asleep, not told while
# it is this home's night; once its rest is over and nobody has moved, told.
_TRIPS = (1.0, 2.5, 4.0)


def _okonkwos(slept_through: bool) -> HomeBaselines:
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(entity(e, "off", area=AREAS[e], device_class="motion").info for e in AREAS)
    start = TODAY - timedelta(days=DAYS)
    baselines.watching(AREAS, start)
    baselines.observe(start, MUM, "home")
    moments: list[datetime] = []
    for day in range(DAYS + 1):
        midnight = start + timedelta(days=day)
        if day:  # the night before this day
            last_night = day == DAYS and slept_through
            moments += [] if last_night else [midnight + timedelta(hours=h) for h in _TRIPS]
        if day < DAYS:
            moments += [midnight + timedelta(hours=6.5 + i / 2) for i in range(34)]
    events: list[tuple[datetime, str, str]] = []
    for i, moment in enumerate(moments):
        sensor = SALA if i % 2 else PATIO
        events += [(moment, sensor, "on"), (moment + timedelta(minutes=1), sensor, "off")]
    for when, entity_id, state in sorted(events):
        if when < TODAY + timedelta(hours=12):
            baselines.observe(when, entity_id, state, AREAS[entity_id])
    return baselines


def test_a_night_slept_through_is_not_told_before_the_rest_is_over() -> None:
    baselines = _okonkwos(slept_through=True)
    settled = TODAY - timedelta(minutes=59)  # 23:01, the last movement
    five = TODAY + timedelta(hours=5)
    baselines.advance(five)
    # The hours of the night are usually still for at most about two hours (her trips)...
    usual = usual_through_the_night(baselines.quiet, settled, five)
    assert usual is not None
    assert timedelta(minutes=2 * usual) < five - settled
    # ...but this home rests until after six: the night is sleep, and its end is learned.
    end = night_end(baselines.quiet, settled, five)
    assert end is not None
    assert TODAY + timedelta(hours=7) <= end <= TODAY + timedelta(hours=8)
    for hours in (3, 5, 6.2):
        assert _told(baselines, TODAY + timedelta(hours=hours)) == []
    told = _told(baselines, TODAY + timedelta(hours=8, minutes=30))
    assert [f.rule for f in told] == ["no_movement_while_home"]


def test_a_quiet_begun_by_day_has_no_night_end() -> None:
    baselines = _okonkwos(slept_through=False)
    baselines.advance(TODAY + timedelta(hours=11))
    afternoon = TODAY - timedelta(hours=10)  # 14:00 the day before
    assert night_end(baselines.quiet, afternoon, TODAY + timedelta(hours=3)) is None
