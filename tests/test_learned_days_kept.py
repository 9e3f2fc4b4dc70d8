"""What the learned days say, kept hour by hour (core, no Home Assistant): the same verdicts
as the statistic stated residual by residual, and as the days built afresh at every hour."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
import math
import random
from statistics import median

import pytest

from custom_components.anomaly_monitor.core.baselines import learned_days_kept
from custom_components.anomaly_monitor.core.baselines.learned_days import (
    learned_drift,
    learned_profile_shift,
)
from custom_components.anomaly_monitor.core.baselines.learned_days_kept import (
    WHOLE_DAY_HOURS,
    count_ahead,
    daily_levels,
    learned_departure,
)
from custom_components.anomaly_monitor.core.baselines.reference import day_by_day
from custom_components.anomaly_monitor.core.statistics.daily_profile import (
    MAX_CUTS,
    MIN_BASELINE_DAYS,
    MIN_REGIME_DAYS,
    MIN_REGIME_READINGS,
    ONE_SIDED_SHARE,
    SCATTER_FLOOR_SHARE,
    SCATTERS,
    profile_departure,
)

from .test_baselines_learned_days import DAY0, KINDS, damp_bathroom, learned, usual, view

type Days = dict[date, list[tuple[int, float]]]


def residual_by_residual(days: Days) -> tuple[date, float, float] | None:
    """The statistic as first written: each cut's profile and residuals built afresh."""
    order = sorted(days)
    cuts = range(MIN_BASELINE_DAYS, len(order) - MIN_REGIME_DAYS + 1)
    step = max(1, len(cuts) // MAX_CUTS)
    for cut in cuts[::step]:
        by_hour: dict[int, list[float]] = defaultdict(list)
        for day in order[:cut]:
            for hour, value in days[day]:
                by_hour[hour].append(value)
        profile = {hour: median(values) for hour, values in by_hour.items()}
        baseline = [v - profile[h] for day in order[:cut] for h, v in days[day]]
        later = [v - profile[h] for day in order[cut:] for h, v in days[day] if h in profile]
        if len(later) < MIN_REGIME_READINGS:
            continue
        level = median(abs(v) for v in profile.values())
        scatter = max(median(abs(r) for r in baseline), SCATTER_FLOOR_SHARE * level, 1e-6)
        above = sum(1 for r in later if r > 0) / len(later)
        below = sum(1 for r in later if r < 0) / len(later)
        shift = median(later)
        if max(above, below) >= ONE_SIDED_SHARE and abs(shift) >= SCATTERS * scatter:
            return order[cut], shift, scatter
    return None


def random_days(rng: random.Random) -> Days:
    """Days of readings as a window or the learned hours hold them: gaps, several readings
    an hour or one, coarse values that tie, and sometimes a level that moves and stays."""
    first = date(2026, 1, 5)
    level, quantum = rng.uniform(-5, 60), rng.choice([0.1, 0.5, 1.0])
    shift_on, shift = rng.randrange(1, 40), rng.choice([0.0, 0.3, 2.0, -4.0])
    days: Days = {}
    for offset in range(rng.randrange(2, 60)):
        if rng.random() < 0.1:
            continue  # a day without readings
        readings = []
        for hour in range(24):
            for _ in range(rng.choice([0, 1, 1, 1, 3])):
                value = level + 3 * math.sin(hour / 24 * 2 * math.pi) + rng.gauss(0, 0.4)
                value += shift if offset >= shift_on else 0.0
                readings.append((hour, round(value / quantum) * quantum))
        if readings:
            days[first + timedelta(days=offset)] = readings
    return days


def test_the_hours_counts_give_the_verdicts_of_the_residuals() -> None:
    """``profile_departure`` counts each hour's sides on sorted values and takes the
    residuals only where a cut lies on one side: every verdict is the one built residual by
    residual (first day, shift and scatter to the last bit), departures included."""
    rng = random.Random(16)
    departed = 0
    for _ in range(600):
        days = random_days(rng)
        expected = residual_by_residual(days)
        assert profile_departure(days) == expected
        departed += expected is not None
    assert departed > 100  # the comparison covers departures, not only their absence


def test_the_days_kept_hour_by_hour_are_the_days_learned() -> None:
    """Learning on, hour after hour (a day of silence, a half-covered hour, a regime that
    moves): what is kept is what the days built afresh say, at every hour."""
    baselines = learned(3)
    rng = random.Random(5)
    for day in range(3, 24):
        for hour in range(24):
            if day == 11 or (day == 15 and hour == 7):
                continue  # nothing read: a gap in the record, an hour not covered
            when = DAY0 + timedelta(days=day, hours=hour)
            for entity_id in KINDS:
                value = damp_bathroom(entity_id, day, hour) + rng.gauss(0, 0.3)
                baselines.observe(when, entity_id, f"{value:.1f}")
            baselines.advance(when + timedelta(minutes=59))
            for entity_id in KINDS:
                days, departure = learned_departure(baselines, entity_id)
                assert days == day_by_day(baselines, entity_id)
                assert list(days) == sorted(days)
                assert departure == (profile_departure(days) if len(days) >= 4 else None), (
                    day,
                    hour,
                )
                levels = {d: median(v for _, v in h) for d, h in days.items()}
                whole = {d: v for d, v in levels.items() if len(days[d]) >= WHOLE_DAY_HOURS}
                assert list(daily_levels(baselines, entity_id).items()) == list(whole.items())


def test_counted_ahead_an_analysis_counts_no_fortnight(monkeypatch: pytest.MonkeyPatch) -> None:
    """``count_ahead`` (the keeper runs it in the executor) leaves the analyses, which run in
    the event loop, nothing to count until an hour closes: the same findings, and neither the
    days nor any hour's sides are built again."""
    baselines = learned(12, damp_bathroom)
    now = DAY0 + timedelta(days=12)
    fresh = learned(12, damp_bathroom)
    expected = list(learned_profile_shift(view(fresh, now), fresh))
    expected += list(learned_drift(view(fresh, now), fresh))
    assert [f.rule for f in expected] == ["daily_profile_shift"]
    count_ahead(baselines)

    def counted_again(*_: object) -> None:
        raise AssertionError("counted in the analysis")

    monkeypatch.setattr(learned_days_kept, "day_by_day", counted_again)
    monkeypatch.setattr(learned_days_kept, "hour_sides", counted_again)
    home = view(baselines, now)  # (``view`` reads the days through reference.day_by_day)
    found = list(learned_profile_shift(home, baselines)) + list(learned_drift(home, baselines))
    assert found == expected


def test_an_hour_closing_counts_that_hour_again_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the sensors' hours close (once an hour, all at once), each sensor's one hour that
    closed is counted again, not its 24 hours of the fortnight."""
    baselines = learned(12, usual)
    count_ahead(baselines)
    counted: list[int] = []
    real = learned_days_kept.hour_sides

    def counting(values: object, cuts: object) -> object:
        counted.append(1)
        return real(values, cuts)  # type: ignore[arg-type]

    monkeypatch.setattr(learned_days_kept, "hour_sides", counting)
    when = DAY0 + timedelta(days=12, hours=0)
    for entity_id in KINDS:
        baselines.observe(when, entity_id, f"{usual(entity_id, 12, 0):.1f}")
    baselines.advance(when + timedelta(hours=1))  # hour 0 of a new day closes
    baselines.advance(when + timedelta(hours=2))  # ... and hour 1
    count_ahead(baselines)
    sensors = len(KINDS)
    # A new day: the cut days moved, every hour once; then one hour per sensor.
    assert len(counted) == 24 * sensors
    counted.clear()
    baselines.advance(when + timedelta(hours=3))
    count_ahead(baselines)
    assert len(counted) == sensors
