"""A load that keeps its hours by itself in an often empty home (core, no Home Assistant):
its run not coming is told while nobody is home; a run that follows the household, or a
load merely left on all week, is not expected of an empty home. The ids say nothing."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.meter_habits import meter_run_missing
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Finding

from .core_factories import environment, window
from .test_meter_habits import DAY0, HALL, PERSON, RELAY, Day, fed, relay


def _empty_from_the_start(baselines: HomeBaselines, day: datetime) -> None:
    if day == DAY0:
        baselines.observe(day, PERSON, "not_home")


def _on_its_humidistat(baselines: HomeBaselines, day: datetime) -> None:
    """Four runs of 2 h 30 a day (01:00, 07:00, 13:00, 19:00), nobody home all week."""
    _empty_from_the_start(baselines, day)
    for start in (1, 7, 13, 19):
        baselines.observe(day + timedelta(hours=start), RELAY, "395")
        baselines.observe(day + timedelta(hours=start, minutes=150), RELAY, "4")


def _left_on(baselines: HomeBaselines, day: datetime) -> None:
    """Drawn around the clock all week (an air conditioner forgotten in an empty house)."""
    _empty_from_the_start(baselines, day)
    for hour in range(0, 24, 2):
        baselines.observe(day + timedelta(hours=hour), RELAY, "910" if hour % 4 else "905")


def _empty(now: datetime, meter_since: datetime) -> HomeView:
    return HomeView(window([relay("4", meter_since)], environment(now, persons_home=0)))


FRIDAY = DAY0 + timedelta(days=4)


def test_a_load_kept_by_its_humidistat_that_stops_in_an_empty_home_is_told() -> None:
    """Monday to Thursday learned with the home empty; on Friday at 03:00 it stops (set 18's
    dehumidifier, its bucket full). Before: nothing was expected of an empty home."""
    baselines = fed(4, each=_on_its_humidistat, until=FRIDAY + timedelta(hours=3))
    baselines.observe(FRIDAY + timedelta(hours=1), RELAY, "395")
    baselines.observe(FRIDAY + timedelta(hours=3), RELAY, "4")
    baselines.advance(FRIDAY + timedelta(hours=10, minutes=5))
    stopped = FRIDAY + timedelta(hours=3)
    early = _empty(FRIDAY + timedelta(hours=8, minutes=30), stopped)
    assert list(meter_run_missing(early, baselines)) == []  # a late start, perhaps
    late = _empty(FRIDAY + timedelta(hours=10, minutes=5), stopped)
    [finding] = meter_run_missing(late, baselines)
    assert finding.evidence == (RELAY,)
    assert "did not come" in finding.reasoning


def test_a_load_left_on_all_week_in_an_empty_home_is_no_habit_kept() -> None:
    """Switched off on Friday (remotely, by its own remote): no run is missing."""
    baselines = fed(4, each=_left_on, until=FRIDAY + timedelta(hours=3))
    baselines.observe(FRIDAY + timedelta(hours=3), RELAY, "4")
    baselines.advance(FRIDAY + timedelta(hours=10, minutes=5))
    late = _empty(FRIDAY + timedelta(hours=10, minutes=5), FRIDAY + timedelta(hours=3))
    assert list(meter_run_missing(late, baselines)) == []


OUT_ON = 4  # the evening the household went out (a Friday), the load ran all the same


def _every_night(out_on: frozenset[int]) -> Day:
    """Runs 22:00-05:00 every night (a CPAP at bedtime); the tracked household out 20:00
    to 02:00 on the days ``out_on`` (days from ``DAY0``)."""

    def each(baselines: HomeBaselines, day: datetime) -> None:
        number = (day - DAY0).days
        if number in out_on:
            baselines.observe(day + timedelta(hours=20), PERSON, "not_home")
            baselines.observe(day + timedelta(hours=26), PERSON, "home")
        baselines.observe(day + timedelta(hours=22), RELAY, "38")
        baselines.observe(day + timedelta(hours=29), RELAY, "0")

    return each


def _out_tonight(
    baselines: HomeBaselines, night: datetime, now: datetime, *, seen_in: bool = True
) -> list[Finding]:
    """The household out from 20:00 of ``night`` (somebody seen moving in the hall at
    21:30 when ``seen_in``); the load idle since 05:00 that morning."""
    baselines.observe(night + timedelta(hours=20), PERSON, "not_home")
    if seen_in:
        baselines.observe(night + timedelta(hours=21, minutes=30), HALL, "on")
        baselines.observe(night + timedelta(hours=21, minutes=32), HALL, "off")
    baselines.advance(now)
    return list(meter_run_missing(_empty(now, night + timedelta(hours=5)), baselines))


def test_a_nightly_load_used_while_the_trackers_were_out_is_missed_when_they_are_out() -> None:
    """Set 24 b: a grandfather's CPAP used every night, the night the family were out at
    a wedding too; out again, he is seen in the lounge but falls asleep on the sofa and
    never puts it on: nothing drawn at 22:00 and 23:00, told at midnight though no tracker
    is home. Before: nothing was expected of an empty home (a humidistat's hours need
    three empty days)."""
    night = DAY0 + timedelta(days=7)
    baselines = fed(7, each=_every_night(frozenset({OUT_ON})), until=night + timedelta(hours=20))
    assert _out_tonight(baselines, night, night + timedelta(hours=23, minutes=55)) == []
    [finding] = _out_tonight(baselines, night, night + timedelta(days=1, minutes=5))
    assert finding.evidence == (RELAY,)
    assert "at 22:00 and at 23:00" in finding.reasoning


def test_a_nightly_load_is_not_expected_of_a_home_empty_by_every_sign() -> None:
    """The same nights, the household out and nothing moving or opening since (set 18 c's
    weekend away, a print it starts every morning not started): nobody to use it."""
    night = DAY0 + timedelta(days=7)
    baselines = fed(7, each=_every_night(frozenset({OUT_ON})), until=night + timedelta(hours=20))
    assert _out_tonight(baselines, night, night + timedelta(days=1, minutes=5), seen_in=False) == []


def test_a_nightly_load_never_seen_run_with_the_home_empty_is_not_expected_then() -> None:
    """The same nights, but the household never out while it ran: it may be theirs (a TV,
    an electric blanket), and nobody is there to use it tonight: not told."""
    night = DAY0 + timedelta(days=7)
    baselines = fed(7, each=_every_night(frozenset()), until=night + timedelta(hours=20))
    assert _out_tonight(baselines, night, night + timedelta(days=1, minutes=5)) == []


def _printing(baselines: HomeBaselines, day: datetime) -> None:
    """A print 09:30-13:00 every day (a 3D printer's plug); on the fifth the household
    left at 10:00 with it running, back at 14:00."""
    if day == DAY0 + timedelta(days=OUT_ON):
        baselines.observe(day + timedelta(hours=10), PERSON, "not_home")
        baselines.observe(day + timedelta(hours=14), PERSON, "home")
    baselines.observe(day + timedelta(hours=9, minutes=30), RELAY, "108")
    baselines.observe(day + timedelta(hours=13), RELAY, "4")


def test_a_load_started_before_the_household_left_is_not_kept_whoever_is_home() -> None:
    """Set 18 c (a false alarm of the first try): a print started before the household
    went out ran on in the empty flat; a weekend away, nobody starts one: not told. The
    load ran with the home empty, but it was started while somebody was in."""
    morning = DAY0 + timedelta(days=7)
    baselines = fed(7, each=_printing, until=morning + timedelta(hours=8))
    baselines.observe(morning + timedelta(hours=8), PERSON, "not_home")
    now = morning + timedelta(hours=13, minutes=5)
    baselines.advance(now)
    assert list(meter_run_missing(_empty(now, morning - timedelta(hours=11)), baselines)) == []
