"""A reading that moved every day learned and has held one value far longer than ever.

A roof tank's ultrasonic level moves four to seven times a day: the pump fills it each
morning, the household draws it down at noon and in the evening; the longest it ever held
one value is the night's. Frosted over, it reads 64 % for two days while the pump runs:
every value is in its range and nothing crosses a line; what is new is that it does not
move. Any numeric sensor, of any class or none (a level, a thermometer, a humidity).

Judged (``ReadingHolds``): a sensor read for ``MIN_DAYS`` days or more, whose holds all
ended within a day (it changed on every day learned) and that changed at least
``MIN_CHANGES_PER_DAY`` a day, now holding one value for ``FACTOR`` times its longest hold
ever and ``MIN_HOLD`` at least, with somebody home for at least ``HOME_SHARE`` of it (a
tank nobody draws from while the family is away holds for days). A meter of use (power,
energy, water, gas: idle whenever nothing is used), rain (it stops for days) and a web
service's feed are not judged here. A sensor
unavailable now is not frozen (``device_unavailable`` is its rule); a drop that comes
back with the same value is no change (``reading_holds.BRIDGE``).

When the home learned what moves it (a pump whose runs the level followed, after
``CITED_SHARE`` of ``CITED_ONSETS`` runs or more, and seldom moved that way without one:
``FollowUps``; a heater switched on minutes before each evening's draw is no cause) and that ran
during the hold, ``REACH`` ago or more, the run is cited and ``FACTOR_AFTER_RUN`` times
its longest hold is enough: a run that leaves its level exactly where it was, on a
reading that has not moved, by the runs or by the day's use, for twice as long as ever,
is a dead gauge (a pump running dry leaves the day's use still drawing the level down).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from .clock import local, moment_text
from .follow_up_pair import REACH
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .reading_holds import Hold

MIN_DAYS = 3
MIN_CHANGES_PER_DAY = 2
FACTOR = 4.0
# Held twice its longest, and what always moved it ran without moving it: a dead gauge.
FACTOR_AFTER_RUN = 2.0
MIN_HOLD = timedelta(hours=12)
HOME_SHARE = 0.5
# A learned follow-up seen this often is cited as what should have moved the reading.
CITED_ONSETS = 5
CITED_SHARE = 0.6
_DAY = 86_400.0
# Meters of use: they hold at rest whenever nothing is used, however long.
_USE_CLASSES = frozenset(
    {
        "power",
        "energy",
        "current",
        "apparent_power",
        "reactive_power",
        "power_factor",
        "gas",
        "water",
        "volume",
        "volume_flow_rate",
        "monetary",
        "data_rate",
        "data_size",
        "duration",
        # Weather: rain stops for days.
        "precipitation",
        "precipitation_intensity",
    }
)

READING_FROZEN = FindingKind(
    "reading_frozen_far_longer_than_ever", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def _moved_every_day(hold: Hold) -> bool:
    """Read ``MIN_DAYS`` or more, every hold ended within a day, changing often enough."""
    learned = (hold.since - hold.first) / _DAY
    return (
        learned >= MIN_DAYS
        and hold.longest is not None
        and hold.longest < _DAY
        and hold.changes >= MIN_CHANGES_PER_DAY * learned
    )


def _cited_run(
    baselines: HomeBaselines, effect: str, since: datetime, now: datetime
) -> tuple[str, datetime] | None:
    """A learned cause of ``effect`` (a pump it follows) that began a run since ``since``,
    long enough ago (``REACH``) for the effect to have shown."""
    latest = now - REACH
    for (cause, moved), pair in baselines.follow_ups.pairs.items():
        # A learned expectation (it moved after most runs, and seldom that way without
        # one): most, not nearly all, as each run the frozen reading ignored is a miss.
        if moved != effect or pair.direction(CITED_ONSETS, CITED_SHARE) == 0:
            continue
        last = baselines.runs.last.get(cause)
        starts = (baselines.runs.began.get(cause), last.start if last is not None else None)
        cited = [start for start in starts if start is not None and since <= start <= latest]
        if cited:
            return cause, max(cited)
    return None


def reading_frozen_far_longer_than_ever(
    home: HomeView, baselines: HomeBaselines
) -> Iterator[Finding]:
    """A numeric sensor that moved every day learned holds one value far longer than ever.

    Magnitude: how many times its longest hold ever it has held.
    """
    at = home.end.timestamp()
    holds = baselines.holds
    for sensor in home.of("sensor"):
        number = sensor.number
        if number is None or sensor.info.device_class in _USE_CLASSES or sensor.info.service:
            continue  # (a web service's feed is no device in the home)
        hold = holds.of(sensor.entity_id)
        if hold is None or hold.value != number or hold.lost is not None:
            continue  # a change the baselines have not learned yet, or a drop under way
        if not _moved_every_day(hold) or hold.longest is None:
            continue  # cold start, or a reading that holds for days by nature
        held = at - hold.since
        since = datetime.fromtimestamp(hold.since, UTC)
        run = _cited_run(baselines, sensor.entity_id, since, home.end)
        factor = FACTOR if run is None else FACTOR_AFTER_RUN
        if held < max(factor * hold.longest, MIN_HOLD.total_seconds()):
            continue
        if holds.home_time(at) - hold.home_at < HOME_SHARE * held:
            continue  # mostly nobody home: nothing used what it measures
        yield _finding(home, baselines, (sensor, hold, held), run)


def _finding(
    home: HomeView,
    baselines: HomeBaselines,
    frozen: tuple[EntityState, Hold, float],
    run: tuple[str, datetime] | None,
) -> Finding:
    sensor, hold, held = frozen
    zone = home.env.zone
    since = datetime.fromtimestamp(hold.since, UTC)
    unit = f" {sensor.info.unit}" if sensor.info.unit else ""
    days = int((hold.since - hold.first) // _DAY)
    longest = timedelta(seconds=hold.longest or 0.0)
    name = sensor.info.name or sensor.entity_id
    cited = ""
    if run is not None:
        cause, start = run
        cause_info = baselines.infos.get(cause)
        cause_name = (cause_info.name if cause_info else "") or cause
        cited = f" {cause_name} ran at {local(start, zone):%H:%M} and it did not move."
    return READING_FROZEN.finding(
        evidence=(sensor.entity_id,),
        reasoning=f"{name} has read {hold.value:g}{unit} without a change since "
        f"{moment_text(since, home.end, zone)} ({duration_text(timedelta(seconds=held))}); in the "
        f"{days} days learned it changed every day and never held one value longer than "
        f"{duration_text(longest)}.{cited} The sensor may be stuck.",
        recommendation="Check the sensor: it may be frozen, dirty or covered, or still "
        "reporting its last value after losing its measurement.",
        magnitude=round(held / max(hold.longest or 1.0, 1.0), 1),
    )
