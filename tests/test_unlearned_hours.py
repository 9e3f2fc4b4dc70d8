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
from custom_components.anomaly_monitor.core.baselines.unlearned_hours import (
    prior_of_hour,
    typical_over_with_prior,
)

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
