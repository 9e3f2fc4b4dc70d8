"""The learned hours kept between analyses give what a fresh reading of them gives (core).

``HourProfiles.same_hour`` and what the profile checks derive from it (the hour's spread,
median and usual) are kept while no hour closes: an analysis every few minutes asks the
same sensors' same hours, and ``statistics.pstdev`` (exact, in fractions) was a sixth of a
replayed day once the hours were learned. Each answer is compared with the computation it
stands for after every closing hour, so a kept answer that went stale fails here.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from statistics import median, pstdev

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.clock import ONE_HOUR, slot_of
from custom_components.anomaly_monitor.core.baselines.profile_departure import (
    reading_off_its_hours,
)
from custom_components.anomaly_monitor.core.baselines.profile_drift import (
    reading_drifting_from_its_hours,
)
from custom_components.anomaly_monitor.core.baselines.reference import usual_at
from custom_components.anomaly_monitor.core.models import entity_domain

from .test_baselines_hour_profiles import DAY0, STUDY, learned, live, view


def _fresh(baselines: HomeBaselines, entity_id: str, start: datetime) -> tuple[object, list[float]]:
    """``same_hour`` as it reads ``hours`` (nothing kept)."""
    hours = baselines.profiles.hours[entity_id]
    _, hour, day = slot_of(start, baselines.profiles.zone)
    own = [value for d, value in hours[hour] if d == day]
    return (own[0] if own else None), [value for d, value in hours[hour] if d != day]


def _forgotten(baselines: HomeBaselines) -> HomeBaselines:
    baselines.profiles._same.clear()  # the reference: nothing kept
    return baselines


def test_same_hour_and_its_derived_values_follow_every_closing_hour() -> None:
    """Asked before and after each half hour of readings, every answer equals a fresh one:
    the hour just closed has its own mean, and a day added changes the others."""
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    for step in range(30):  # 15 hours of day 10, the study warm from 09:00
        now = day + timedelta(minutes=30 * step)
        start = now.replace(minute=0)
        for back in range(4):
            hour = start - back * ONE_HOUR
            own, others = _fresh(baselines, STUDY, hour)
            assert baselines.profiles.same_hour(STUDY, hour) == (own, others)
            spread = baselines.profiles.derived(STUDY, hour, "pstdev", pstdev)
            assert spread == pstdev(others)
            assert baselines.profiles.derived(STUDY, hour, "median", median) == median(others)
            _, usual = usual_at(baselines, STUDY, hour, 7)
            assert usual is not None
            assert (usual.centre, usual.days) == (median(others), len(others))
        live(baselines, now, 0.5, {STUDY: 25.0} if step >= 18 else {})


def test_the_profile_checks_judge_as_with_nothing_kept() -> None:
    """Analyses every 10 minutes while the study warms, its hours closing meanwhile: the
    findings with the kept hours are those of the same moment with nothing kept (one is
    told once four hours are beyond every day's, as without the cache)."""
    baselines = learned(10)
    day = DAY0 + timedelta(days=10)
    live(baselines, day, 9, {})
    told = []
    for step in range(6 * 6):  # 09:00-15:00
        now = day + timedelta(hours=9, minutes=10 * step)
        home = view(now, 25.0)
        kept = [
            (f.rule, f.reasoning)
            for check in (reading_off_its_hours, reading_drifting_from_its_hours)
            for f in check(home, baselines)
        ]
        fresh = [
            (f.rule, f.reasoning)
            for check in (reading_off_its_hours, reading_drifting_from_its_hours)
            for f in check(home, _forgotten(baselines))
        ]
        assert kept == fresh
        told += kept
        live(baselines, now, 1 / 6, {STUDY: 25.0})
    assert any(rule == "reading_off_its_hours" for rule, _ in told)


def test_a_domain_is_the_entity_ids_first_part_past_the_bound_too() -> None:
    ids = [f"sensor.t{i}" for i in range(5000)] + ["binary_sensor.door", "no_dot"]
    for entity_id in ids * 2:
        assert entity_domain(entity_id) == entity_id.partition(".")[0]
