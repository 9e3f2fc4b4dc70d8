"""Hours never learned with somebody home are judged by a prior, not left unjudged (core).

The Kovačs are out on weekday late mornings: hours 11-13 never taught ``QuietSpells``
anything (nobody home), so a fall at 11:20 on a day off was judged by nothing until the
first learned hour. An hour not learned takes the usual of the nearest learned hours on
either side (the longer), and never less than its own longest on the few days seen.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.quiet_spells import QuietSpells
from custom_components.anomaly_monitor.core.baselines.still_home import _usual
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
)
from custom_components.anomaly_monitor.core.baselines.unlearned_hours import (
    prior_of_hour,
    typical_over_with_prior,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment, Finding

from .core_factories import entity, window

ZONE = ZoneInfo("Europe/Budapest")
TODAY = datetime(2027, 3, 19, tzinfo=ZONE)  # local midnight, a Friday
DAY = TODAY.date().toordinal()


def _spells(usual: dict[int, float], days: int = 7) -> QuietSpells:
    """``days`` days before today, each hour of ``usual`` quiet at most that long."""
    spells = QuietSpells(ZONE)
    for hour, minutes in usual.items():
        for back in range(days, 0, -1):
            spells.maxima[hour].append((DAY - back, minutes))
    return spells


def _home(usual: dict[int, float]) -> HomeBaselines:
    baselines = HomeBaselines(ZONE)
    baselines.quiet = _spells(usual)
    baselines.quiet.presence = {"person.anna": True, "person.bela": True}
    return baselines


AWAKE = dict.fromkeys((*range(7, 11), *range(14, 22)), 20.0) | {14: 30.0}


def test_an_hour_never_learned_takes_the_longer_of_its_nearest_learned_hours() -> None:
    spells = _spells(AWAKE)
    assert spells.typical(12) is None  # never home then
    assert prior_of_hour(spells, 12, DAY, twice=False) == 30.0  # 10:00's 20, 14:00's 30
    fall = TODAY + timedelta(hours=11, minutes=20)
    assert spells.typical_over(fall, fall + timedelta(minutes=40)) is None
    assert typical_over_with_prior(spells, fall, fall + timedelta(minutes=40)) == 30.0
    # The hours learned keep their own usual; a quiet from 10:30 runs into 11:00's prior.
    morning = TODAY + timedelta(hours=10, minutes=30)
    assert typical_over_with_prior(spells, morning, morning + timedelta(minutes=20)) == 20.0
    assert typical_over_with_prior(spells, morning, morning + timedelta(hours=1)) == 30.0


def test_a_few_days_seen_in_an_hour_are_never_undercut_by_the_prior() -> None:
    spells = _spells(AWAKE)
    spells.maxima[12].extend([(DAY - 9, 95.0), (DAY - 2, 40.0)])  # two days home: a nap
    assert spells.typical(12) is None  # two days are not learned
    assert prior_of_hour(spells, 12, DAY, twice=False) == 95.0
    # The day being judged does not teach itself.
    spells.maxima[12].append((DAY, 300.0))
    assert prior_of_hour(spells, 12, DAY, twice=False) == 95.0


def test_nothing_learned_yet_has_no_prior() -> None:
    young = _spells(AWAKE, days=3)  # the first days: no hour learned
    fall = TODAY + timedelta(hours=11, minutes=20)
    assert prior_of_hour(young, 12, DAY, twice=False) is None
    assert typical_over_with_prior(young, fall, fall + timedelta(hours=1)) is None


def test_the_prior_judges_somebody_tracked_and_not_somebody_untracked() -> None:
    baselines = _home(AWAKE)
    fall = TODAY + timedelta(hours=11, minutes=20)
    now = fall + timedelta(minutes=40)
    assert _usual(baselines, fall, now, untracked=False) == timedelta(minutes=30)
    # Untracked (every phone out): only the days the home was lived in then judge it.
    assert _usual(baselines, fall, now, untracked=True) is None


KITCHEN = "binary_sensor.kitchen_motion"
HALL = "binary_sensor.hall_motion"
ME = "person.anna"
AREAS = {KITCHEN: "Kitchen", HALL: "Hall"}
LEARNED_DAYS = 7


def _out_late_mornings() -> HomeBaselines:
    """A week before today: Anna home 07:00-10:00 and 15:00-22:00 (a sign every quarter
    hour, kitchen and hall by turns), out from 10:00 to 15:00. Today, a day off: home all
    morning, the last sign in the kitchen at 11:00."""
    baselines = HomeBaselines(ZONE)
    baselines.describe(entity(e, "off", area=AREAS[e], device_class="motion").info for e in AREAS)
    start = TODAY - timedelta(days=LEARNED_DAYS)
    baselines.watching(AREAS, start)
    baselines.observe(start, ME, "home")
    events: list[tuple[datetime, str, str]] = []
    for day in range(LEARNED_DAYS + 1):
        midnight = start + timedelta(days=day)
        today = day == LEARNED_DAYS
        if not today:
            events.append((midnight + timedelta(hours=10, minutes=5), ME, "not_home"))
            events.append((midnight + timedelta(hours=15), ME, "home"))
        step = 0
        while (moment := 7 + step / 4) <= (11 if today else 22):
            step += 1
            if not today and 10 <= moment < 15:
                continue
            sensor = KITCHEN if step % 2 else HALL
            events.append((midnight + timedelta(hours=moment), sensor, "on"))
            events.append((midnight + timedelta(hours=moment, minutes=1), sensor, "off"))
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS.get(entity_id))
    return baselines


def _view(now: datetime) -> HomeView:
    states = [entity(e, "off", area=AREAS[e], device_class="motion") for e in AREAS]
    states.append(entity(ME, "home"))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    return HomeView(window(states, env, []))


def _told(baselines: HomeBaselines, now: datetime) -> list[Finding]:
    baselines.advance(now)
    return list(still_where_last_seen(_view(now), baselines))


def test_a_fall_on_a_day_off_in_hours_the_home_is_always_empty_is_told() -> None:
    baselines = _out_late_mornings()
    quiet = baselines.quiet
    assert quiet.typical(12) is None  # never home at noon
    assert quiet.typical(9) is not None
    # Last seen 11:01 (the kitchen's sign ending): the hour floor, not before...
    assert _told(baselines, TODAY + timedelta(hours=11, minutes=50)) == []
    # ...and told past it, though noon was never learned with anybody home.
    (finding,) = _told(baselines, TODAY + timedelta(hours=12, minutes=5))
    assert finding.rule == "still_in_room_far_longer"
    assert "last seen in Kitchen" in finding.reasoning
    assert "never learned with somebody home" in finding.reasoning
