"""A dog and a grandmother without a phone: whose motion shows life in the empty home.

The family is out from 08:00 to 20:00 every day. The dog in the yard moves at every hour
of every day; the grandmother in the kitchen moves from 07:00 to 21:00 and sleeps at night.
While the home is empty both sensors move in every part of the day it is empty
(``AwayNormal.moves_at_any_hour``), so only the hours they keep over the whole day tell
them apart (``UntrackedLife.round_the_clock``: people sleep). With the dog in the profile
and the grandmother said to have no phone, her kitchen shows the home lived in while
empty; the dog's yard never does; with the dog and nobody said to stay without a phone,
motion shows nobody (as before).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.away_normal import (
    PART_HOURS,
    PARTS,
    AwayNormal,
    add_day,
)
from custom_components.anomaly_monitor.core.baselines.clock import day_number
from custom_components.anomaly_monitor.core.baselines.untracked_life import UntrackedLife

YARD = "binary_sensor.yard_motion"
KITCHEN = "binary_sensor.kitchen_motion"
NOW = datetime(2026, 3, 20, 11, 30, tzinfo=UTC)
TODAY = day_number(NOW, UTC)
DAYS = range(1, 11)
OUT, BACK = 8, 20  # the family's hours away


def _midnight(days_ago: int) -> datetime:
    return NOW.replace(hour=0, minute=0) - timedelta(days=days_ago)


def _home(*sensors: str) -> tuple[UntrackedLife, AwayNormal]:
    """Ten days lived: the dog in the yard every hour, the grandmother 07:00-21:00."""
    life, away = UntrackedLife(UTC), AwayNormal(UTC)
    hours = {YARD: range(24), KITCHEN: range(7, 21)}
    for ago in DAYS:
        midnight = _midnight(ago)
        day = day_number(midnight, UTC)
        for part in range(OUT // PART_HOURS, BACK // PART_HOURS):
            add_day(away.away_days[part], day)
        for sensor in sensors:
            parts = away.motion.setdefault(sensor, [[] for _ in range(PARTS)])
            for hour in hours[sensor]:
                moment = midnight + timedelta(hours=hour, minutes=10)
                empty = OUT <= hour < BACK
                life.moved(sensor, moment, empty=empty)
                if empty:
                    add_day(parts[hour // PART_HOURS], day)
    return life, away


def test_both_move_whenever_the_home_is_empty() -> None:
    _, away = _home(YARD, KITCHEN)
    assert away.moves_at_any_hour(YARD, NOW) is not None
    assert away.moves_at_any_hour(KITCHEN, NOW) is not None


def test_the_phoneless_grandmother_shows_life_where_a_dog_lives() -> None:
    life, away = _home(YARD, KITCHEN)
    assert life.round_the_clock(YARD, NOW) is not None  # the dog keeps no hours
    assert life.round_the_clock(KITCHEN, NOW) is None  # she sleeps
    assert life.shown_life(away, NOW, pets=True, people=True) == (10, 10)
    # Without the dog named the phoneless resident's motion counts as before.
    assert life.shown_life(away, NOW, pets=False, people=True) == (10, 10)


def test_the_dog_alone_shows_nobody() -> None:
    life, away = _home(YARD)
    assert life.shown_life(away, NOW, pets=True, people=True) is None
    assert life.shown_life(away, NOW, pets=False, people=False) is None


def test_with_a_dog_and_nobody_named_without_a_phone_motion_is_the_dog_s() -> None:
    life, away = _home(YARD, KITCHEN)
    assert life.shown_life(away, NOW, pets=True, people=False) is None
