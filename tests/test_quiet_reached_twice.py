"""A quiet reached on one day only is not the usual of its hours (core).

The Hoxhas (a week learned): somebody moves every quarter of an hour from 07:00 to 22:00,
in the kitchen and the hall by turns. On one morning (day 2) the home was still from
10:45 to 11:30 after a sign in the hall: a film, a nap, one odd day. Each hour's usual
longest quiet is the 90th percentile of its days, which below ten days is the longest of
all: the odd morning made "45 min" the usual of hours 10 and 11 and a fall at 10:20
waited three times that. The quiet the stillness of a fall is judged against is at most
the longest reached on two of the days: what this home does, not what it did once.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.quiet_spells import QuietSpells
from custom_components.anomaly_monitor.core.baselines.still_home import _usual
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Environment

from .core_factories import entity, window

ZONE = "Europe/Tirane"
KITCHEN = "binary_sensor.kitchen_motion"
HALL = "binary_sensor.hall_motion"
ME = "person.elira"
AREAS = {KITCHEN: "Kitchen", HALL: "Hall"}
TODAY = datetime(2027, 3, 19, tzinfo=ZoneInfo(ZONE))  # local midnight
DAYS = 7
ODD = 2  # the day of the long morning quiet


def _learned(odd_days: tuple[int, ...], household: tuple[str, ...] = (ME,)) -> HomeBaselines:
    """``DAYS`` days before ``TODAY``, movement every quarter hour 07:00-22:00 (kitchen on
    the hour and the half hour, the hall between); on ``odd_days`` nothing 10:45-11:30.
    Today: up at 07:00, the last sign in the kitchen at 10:15."""
    baselines = HomeBaselines(ZoneInfo(ZONE))
    baselines.describe(entity(e, "off", area=AREAS[e], device_class="motion").info for e in AREAS)
    start = TODAY - timedelta(days=DAYS)
    baselines.watching(AREAS, start)
    for person in household:
        baselines.observe(start, person, "home")
    events: list[tuple[datetime, str, str]] = []
    for day in range(DAYS + 1):
        midnight = start + timedelta(days=day)
        last = 10.25 if day == DAYS else 22.0
        step = 0
        while (moment := 7 + step / 4) <= last:
            step += 1
            if day in odd_days and 10.75 < moment < 11.5:
                continue
            sensor = KITCHEN if (step - 1) % 2 == 0 else HALL
            events.append((midnight + timedelta(hours=moment), sensor, "on"))
            events.append((midnight + timedelta(hours=moment, minutes=1), sensor, "off"))
    for when, entity_id, state in sorted(events):
        baselines.observe(when, entity_id, state, AREAS[entity_id])
    return baselines


def _view(now: datetime) -> HomeView:
    states = [entity(e, "off", area=AREAS[e], device_class="motion") for e in AREAS]
    states.append(entity(ME, "home"))
    env = Environment(local_time=now, persons_home=1, persons_total=1)
    return HomeView(window(states, env, []))


def _told_at(baselines: HomeBaselines, hours: float) -> bool:
    now = TODAY + timedelta(hours=hours)
    baselines.advance(now)
    return bool(list(still_where_last_seen(_view(now), baselines)))


def test_one_odd_day_is_not_the_usual_of_its_hours() -> None:
    baselines = _learned((ODD,))
    quiet = baselines.quiet
    today = TODAY.date().toordinal()
    # The odd morning: 44 min still by the end of 11:29, its longest of all at hour 11.
    assert quiet.typical(11, skip_day=today) is not None
    assert quiet.typical(11, skip_day=today) >= 44
    # Reached on two days: only the quarter hour between two signs.
    usual = quiet.typical(11, skip_day=today, twice=True)
    assert usual is not None
    assert usual < 20


def test_the_fall_is_judged_by_what_the_hours_reach_on_two_days() -> None:
    baselines = _learned((ODD,))
    # Last seen 10:16 (the kitchen sign's end); never under an hour's limit: not at 11:10...
    assert not _told_at(baselines, 11 + 10 / 60)
    # ...told by 11:25, long before three times the odd morning (2 h 15 min: 12:31).
    assert _told_at(baselines, 11 + 25 / 60)


def test_a_quiet_reached_on_two_days_stays_the_usual() -> None:
    baselines = _learned((ODD, ODD + 2))  # two such mornings: the home does this
    today = TODAY.date().toordinal()
    usual = baselines.quiet.typical(11, skip_day=today, twice=True)
    assert usual is not None
    assert usual >= 44
    assert not _told_at(baselines, 12)


def test_somebody_untracked_keeps_the_longest_day() -> None:
    """Whether anybody untracked is in at all is read from motion a pet may have made: their
    quiet keeps the longest day's usual."""
    baselines = _learned((ODD,))
    since = TODAY + timedelta(hours=10, minutes=16)
    until = TODAY + timedelta(hours=11, minutes=20)
    tracked = _usual(baselines, since, until, untracked=False)
    untracked = _usual(baselines, since, until, untracked=True)
    assert tracked is not None
    assert untracked is not None
    assert tracked < timedelta(minutes=20)
    assert untracked >= timedelta(minutes=44)


def test_a_home_of_several_keeps_the_longest_day() -> None:
    """With two at home the home is still only when both are: a fall of one does not
    still the other, so the home's quiet keeps the longest day's usual."""
    baselines = _learned((ODD,), household=(ME, "person.ardit"))
    since = TODAY + timedelta(hours=10, minutes=16)
    usual = _usual(baselines, since, TODAY + timedelta(hours=11, minutes=20), untracked=False)
    assert usual is not None
    assert usual >= timedelta(minutes=44)
    assert not _told_at(baselines, 11 + 25 / 60)


def test_the_only_weekend_learned_is_the_weekends_usual() -> None:
    """A lie-in on the first weekend learned is the weekends' usual, not an odd day."""
    quiet = QuietSpells(ZoneInfo(ZONE))
    monday = date(2027, 3, 8).toordinal()
    for offset, minutes in enumerate((5, 6, 8, 4, 7, 42)):  # Monday to Saturday
        quiet.maxima[8].append((monday + offset, minutes))
    assert quiet.typical(8, twice=True) == 42
    quiet.maxima[9].extend((monday + offset, m) for offset, m in enumerate((5, 6, 42, 4, 7, 9)))
    assert quiet.typical(9, twice=True) == 9  # a Wednesday's odd morning among weekdays
