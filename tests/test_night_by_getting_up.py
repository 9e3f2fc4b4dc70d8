"""A night nobody broke is the night's sleep: judged by when this household gets up.

The Okafors (a fortnight learned): somebody moves every half hour from 07:00 to 23:00, and
every night a restless sleeper crosses the hall at 01:00, 03:00 and 05:00. Each night hour's
usual longest quiet is therefore under two hours, and the home's nights, so judged, ran
"twice as long as usual" by half past three on the one night nobody got up (sets 40, 42 and
44 at 04:35-04:41; 43 and 46 at a weekend's lie-in). A quiet that began in the hours this
home rests at is judged by its getting-up alone: nothing in the night, and told once the
household is clearly late up. A quiet by day is still judged by its hours.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.detectors import no_movement_while_home
from custom_components.anomaly_monitor.core.baselines.getting_up import NOT_UP_WORDS
from custom_components.anomaly_monitor.core.baselines.night_length import begun_at_bedtime
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Finding

from .core_factories import entity, window

ZONE = "Africa/Lagos"
HALL = "binary_sensor.hall_motion"
LOUNGE = "binary_sensor.lounge_motion"
DAD = "person.dad"
AREAS = {HALL: "Hall", LOUNGE: "Lounge"}
TODAY = datetime(2026, 9, 16, tzinfo=ZoneInfo(ZONE))  # a Wednesday, local midnight
DAYS = 14
TRIPS = (1.0, 3.0, 5.0)


def _okafors(*, trips_last_night: bool = False, lounge_at: float | None = None) -> HomeBaselines:
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(entity(e, "off", area=AREAS[e], device_class="motion").info for e in AREAS)
    start = TODAY - timedelta(days=DAYS)
    baselines.watching(AREAS, start)
    baselines.observe(start, DAD, "home")
    events: list[tuple[datetime, str]] = []
    for day in range(DAYS + 1):
        midnight = start + timedelta(days=day)
        if day and (day < DAYS or trips_last_night):  # the night before: three trips
            events += [(midnight + timedelta(hours=h), HALL) for h in TRIPS]
        if day == DAYS and lounge_at is not None:  # last night: once to the lounge
            events.append((midnight + timedelta(hours=lounge_at), LOUNGE))
        if day == DAYS:
            break
        moment = 7.0
        while moment <= 23.0:
            events.append((midnight + timedelta(hours=moment), LOUNGE if moment % 1 else HALL))
            moment += 0.5
    for when, sensor in sorted(events):
        baselines.observe(when, sensor, "on", AREAS[sensor])
        baselines.observe(when + timedelta(minutes=2), sensor, "off", AREAS[sensor])
    return baselines


def _bedtime(baselines: HomeBaselines, since: datetime) -> bool:
    baselines.advance(since + timedelta(hours=1))
    return begun_at_bedtime(baselines.quiet, baselines.rhythm, since, since + timedelta(hours=1))


def _told(baselines: HomeBaselines, now: datetime) -> list[Finding]:
    baselines.advance(now)
    states = [entity(e, "off", area=AREAS[e], device_class="motion") for e in AREAS]
    states.append(entity(DAD, "home"))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    view = HomeView(window(states, env, []))
    return [*no_movement_while_home(view, baselines), *still_where_last_seen(view, baselines)]


def test_a_night_nobody_broke_is_not_told_in_the_night() -> None:
    baselines = _okafors()
    bed = TODAY - timedelta(hours=1) + timedelta(minutes=2)  # 23:02, the last movement
    assert _bedtime(baselines, bed)
    for hours in (2.5, 3.5, 4.7, 6.0, 7.5):
        assert _told(baselines, TODAY + timedelta(hours=hours)) == [], hours


def test_it_is_told_once_the_household_is_clearly_late_up() -> None:
    baselines = _okafors()
    late = _told(baselines, TODAY + timedelta(hours=9, minutes=30))
    assert "no_movement_while_home" in [f.rule for f in late]
    assert NOT_UP_WORDS in late[0].reasoning


def test_a_quiet_by_day_is_still_judged_by_its_hours() -> None:
    baselines = _okafors(trips_last_night=True)
    for when, sensor in ((TODAY + timedelta(hours=h), HALL) for h in (7.0, 7.5, 8.0, 9.0)):
        baselines.observe(when, sensor, "on", AREAS[sensor])
        baselines.observe(when + timedelta(minutes=2), sensor, "off", AREAS[sensor])
    nine = TODAY + timedelta(hours=9, minutes=2)
    assert not _bedtime(baselines, nine)
    early = _told(baselines, nine + timedelta(hours=2, minutes=50))
    assert "no_movement_while_home" not in [f.rule for f in early]
    told = _told(baselines, nine + timedelta(hours=3, minutes=10))
    assert "no_movement_while_home" in [f.rule for f in told]
    assert "at these hours this home is usually still for at most" in told[0].reasoning


def test_a_quiet_begun_on_a_trip_in_the_night_is_judged_by_the_nights() -> None:
    """Up once at 03:00, to the lounge (which nobody stays in at night), and nothing since:
    a trip that may have ended in a fall, still judged by how long this home's nights are
    usually unbroken (told before anybody would be late up), not left to the morning."""
    baselines = _okafors(lounge_at=3.0)
    assert not _bedtime(baselines, TODAY + timedelta(hours=3, minutes=2))
    assert _told(baselines, TODAY + timedelta(hours=5)) == []
    told = _told(baselines, TODAY + timedelta(hours=7, minutes=30))
    assert "no_movement_while_home" in [f.rule for f in told]
    assert NOT_UP_WORDS not in next(f.reasoning for f in told if f.rule == "no_movement_while_home")
